"""Yummell: modular square tiles, terrain costs, encounters; its rules, content, policies,
engine, exact solver and presets (behind :mod:`trackkit.games.yummell.ruleset`)."""

from trackkit.games.base import PlayerBounds

# The rulebook's 2 to 8 players, for its building rule; a race of 1 is allowed for analysis
# (SPEC.md §4). Every bound in the library, the command line and the app comes from here.
PLAYERS = PlayerBounds(race_min=1, race_max=8, build_min=2, build_max=8)
