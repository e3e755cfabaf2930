"""The palette's tile thumbnails."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from trackkit.games.yummell.core.scene import PALETTE_UNIT as UNIT
from trackkit.games.yummell.core.scene import TERRAIN_COLOURS
from trackkit.games.yummell.face.thumbnail import tile_thumbnail_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_a_thumbnail_shows_every_square_in_its_terrain_with_its_cost(tileset) -> None:  # type: ignore[no-untyped-def]
    for tile in tileset.values():
        root = ET.fromstring(tile_thumbnail_svg(tileset, tile.number))
        assert root.get("width") == str(tileset.grid * UNIT)
        squares = [r for r in root.iter(f"{SVG}rect") if r.get("fill") in TERRAIN_COLOURS.values()]
        assert len(squares) == len(tile.squares)
        costs = sorted(int(t.text or 0) for t in root.iter(f"{SVG}text"))
        assert costs == sorted(s["cost"] for s in tile.squares)
        assert len(list(root.iter(f"{SVG}circle"))) == len(tile.junctions)


def test_a_thumbnail_turns_with_the_tile(tileset) -> None:  # type: ignore[no-untyped-def]
    assert tile_thumbnail_svg(tileset, 7, 0) != tile_thumbnail_svg(tileset, 7, 90)
