"""Yummell's rules and engine, in the template every game follows (``docs/contributing.md``):
``options``, ``content``, ``track``, ``course``, ``check``, ``rules``, ``movement``,
``state``, ``engine``, ``policies``, ``presets``, ``space``, ``editing``, ``scene`` and
``ruleset``, importing only the shared base; Yummell's own besides them (the deck, the
terrain, a turn's phases, a recorded race, the engine's warm-up and the exact solver)."""
