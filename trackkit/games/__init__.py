"""Race games, each a folder behind one interface (:mod:`trackkit.games.base`).

>>> from trackkit.games import rulesets
>>> rulesets()
('yummell', 'snowtails')
"""

from trackkit.games.base import (
    DEFAULT_GAME,
    BatchResult,
    Group,
    PlayerBounds,
    Ruleset,
    all_rulesets,
    get_ruleset,
    load_tileset,
    rulesets,
    tileset_of,
)

__all__ = [
    "DEFAULT_GAME",
    "BatchResult",
    "Group",
    "PlayerBounds",
    "Ruleset",
    "all_rulesets",
    "get_ruleset",
    "load_tileset",
    "rulesets",
    "tileset_of",
]
