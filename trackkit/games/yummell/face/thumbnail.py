"""A small picture of one tile for a palette: its squares in their terrain colours, the
MP cost on each, and its junctions, at a given rotation.

>>> from trackkit.games import load_tileset
>>> tile_thumbnail_svg(load_tileset(), 7).startswith("<svg")
True
"""

from __future__ import annotations

from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.render.layout import build_scene
from trackkit.render.svg import bare_svg


def tile_thumbnail_svg(tileset: TileSet, number: int, rotation: int = 0) -> str:
    """An SVG of tile ``number`` alone, as its game draws it for a palette."""
    track = Track(f"Tile {number}", (Placement(number, 0, 0, rotation),), game=tileset.game)
    return bare_svg(build_scene(track, tileset, palette=True))
