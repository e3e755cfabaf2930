"""Snow Tails' rules and engine, in the template every game follows
(``docs/contributing.md``): ``options``, ``content``, ``track``, ``course``, ``check``,
``rules``, ``movement``, ``state``, ``engine``, ``policies``, ``presets``, ``space``,
``editing``, ``scene`` and ``ruleset``, importing only the shared base; Snow Tails' own
besides them (the course as the engine's arrays, a sled's cards, the guidelines, the
obstacles, race position, the layout on the table, races from Python and the policies'
scores)."""

from pathlib import Path

from trackkit.games.unmanaged import fresh_cache

fresh_cache(Path(__file__).parent)  # a compiled engine older than its sources is dropped
