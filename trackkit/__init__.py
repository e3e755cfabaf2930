"""trackkit: design, validate and analyse race tracks for board race games (Yummell,
Mush! Mush! Snow Tails 2), each game a folder behind one interface (:mod:`trackkit.games`).

Data flows one way: tile files → tracks → the square graph → validation (→ races).
A game's own functions live in its folder (Yummell's building rule:
:mod:`trackkit.games.yummell.core.check`).
"""

from trackkit.board.problems import Problem
from trackkit.errors import TileFileError, TrackFileError, TrackkitError
from trackkit.games import get_ruleset, load_tileset, rulesets
from trackkit.games.base import load_preset, load_track, parse_track_toml
from trackkit.games.tilekit.graph import TrackGraph, compose
from trackkit.games.tilekit.tiles import Tile, TileSet
from trackkit.games.tilekit.track import Placement, Track, save_track
from trackkit.validate import Report, validate

__all__ = [
    "Placement",
    "Problem",
    "Report",
    "Tile",
    "TileFileError",
    "TileSet",
    "Track",
    "TrackFileError",
    "TrackGraph",
    "TrackkitError",
    "compose",
    "get_ruleset",
    "load_preset",
    "load_tileset",
    "load_track",
    "parse_track_toml",
    "rulesets",
    "save_track",
    "validate",
]
