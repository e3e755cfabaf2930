"""A small picture of one tile for a palette: its squares in their terrain colours, the
MP cost on each, and its junctions, at a given rotation.

>>> from trackkit.games import load_tileset
>>> tile_thumbnail_svg(load_tileset(), 7).startswith("<svg")
True
"""

from __future__ import annotations

from html import escape

from trackkit.board.tiles import TileSet
from trackkit.board.track import Placement, Track
from trackkit.render.layout import build_scene

UNIT = 20  # pixels per square


def tile_thumbnail_svg(tileset: TileSet, number: int, rotation: int = 0) -> str:
    """An SVG of tile ``number`` alone, ``grid × UNIT`` pixels square."""
    scene = build_scene(Track(f"Tile {number}", (Placement(number, 0, 0, rotation),)), tileset)
    size = scene.grid * UNIT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" font-family="sans-serif">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect x="1" y="1" width="{size - 2}" height="{size - 2}" rx="3" '
        'fill="#e2d6b8" stroke="#7a6a4f" stroke-width="2"/>',
    ]
    for square in scene.squares:
        cx, cy = square.centre
        x, y = (cx - 0.45) * UNIT, (cy - 0.45) * UNIT
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{0.9 * UNIT:.1f}" height="{0.9 * UNIT:.1f}" '
            f'fill="{square.colour}" stroke="#33261a" stroke-width="0.6"/>'
        )
        parts.append(
            f'<text x="{cx * UNIT:.1f}" y="{cy * UNIT + 4:.1f}" font-size="11" '
            f'text-anchor="middle" fill="{square.text_colour}">{square.cost}</text>'
        )
    for mark in scene.junctions:
        jx, jy = mark.at
        parts.append(
            f'<circle cx="{jx * UNIT:.1f}" cy="{jy * UNIT:.1f}" r="3.5" fill="#f1c40f" '
            'stroke="#33261a" stroke-width="0.6"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
