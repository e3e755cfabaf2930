"""Yummell's rules and engine, in the template every game follows (``docs/contributing.md``):
``options``, ``content``, ``track``, ``course``, ``check``, ``rules``, ``movement``,
``state``, ``engine``, ``policies``, ``presets``, ``space``, ``editing``, ``scene`` and
``ruleset``, importing only the shared base; Yummell's own besides them (the deck, the
terrain, a turn's phases, a recorded race, the engine's warm-up and the exact solver)."""

from pathlib import Path

from trackkit.games.unmanaged import fresh_cache

fresh_cache(Path(__file__).parent)  # a compiled engine older than its sources is dropped
