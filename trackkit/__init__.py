"""trackkit: design, validate and analyse race tracks for the board game Yummell.

Data flows one way: tile files → tracks → the square graph → validation (→ races).
"""

from trackkit.board.graph import TrackGraph, compose
from trackkit.board.problems import Problem
from trackkit.board.tiles import Tile, TileSet
from trackkit.board.track import Placement, Track, load_track, parse_track_toml, save_track
from trackkit.errors import TileFileError, TrackFileError, TrackkitError
from trackkit.games import load_tileset
from trackkit.games.yummell.building import can_complete, next_placements, path_tiles_for_players
from trackkit.games.yummell.presets import PRESET_SLUGS, list_presets, load_preset
from trackkit.validate import Report, validate

__all__ = [
    "PRESET_SLUGS",
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
    "can_complete",
    "compose",
    "list_presets",
    "load_preset",
    "load_tileset",
    "load_track",
    "next_placements",
    "parse_track_toml",
    "path_tiles_for_players",
    "save_track",
    "validate",
]
