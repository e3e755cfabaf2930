"""Yummell: modular square tiles, terrain costs, encounters. Its rules, content, policies,
engine, exact solver and presets are in ``core`` (behind
:mod:`trackkit.games.yummell.core.ruleset`), what the front ends show of it in ``face``."""

from trackkit.games.base import PlayerBounds

# The rulebook's 2 to 8 players, for its building rule; a race of 1 is allowed for analysis
# (SPEC.md §4). Every bound in the library, the command line and the app comes from here.
PLAYERS = PlayerBounds(race_min=1, race_max=8, build_min=2, build_max=8)

GAME = "yummell"  # its name in the registry, track files and addresses
