"""A Yummell track's build sheet: every tile in placing order with its cell and rotation,
and its start paths, as the table needs them to lay the track out of the box
(:class:`trackkit.games.face.Sheet`; :mod:`trackkit.report.sheet` writes the PDF).

>>> from trackkit.games.yummell.core.presets import load_preset
>>> tiles, paths = track_sheet(load_preset("first-run")).tables
>>> tiles.rows[1], paths.rows[0]
(('2', '10', 'curve', '(2, 0)', '270°'), ('A', 'a1', '26', '39'))
"""

from __future__ import annotations

from trackkit.games.base import tileset_of
from trackkit.games.face import PieceTable, Sheet
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import encode_track
from trackkit.games.yummell.face.texts import show_summary

DESIGN_PAGE = "design"  # the Design page's address (face LOOK), whose ?track= opens a track


def track_sheet(track: Track) -> Sheet:
    """The tiles of ``track`` in placing order and its start paths (the letters the
    picture marks at the start tile), and the link of its Design page."""
    data = show_summary(track, tileset_of(track))
    tiles = PieceTable(
        "Tiles in placing order",
        ("#", "Tile", "Kind", "Cell (x, y)", "Rotation"),
        tuple(
            (
                str(n),
                str(row["tile"]),
                row["shape"] or "unknown",
                f"({row['x']}, {row['y']})",
                f"{row['rotation']}°",
            )
            for n, row in enumerate(data["tiles"], 1)
        ),
        note="Lay the tiles in this order, each turned clockwise by its rotation from the way "
        "its file draws it (the Tiles page); x grows to the right, y downwards.",
    )
    squares = {square["id"]: square for square in data["squares"]}
    paths = PieceTable(
        "Start paths",
        ("Start path", "First square", "Squares", "MP"),
        tuple(
            (
                route["start_path"],
                squares[route["route"][0]]["square"],
                str(route["squares"]),
                str(route["mp"]),
            )
            for route in data["routes"]
        ),
        note="Each start path from its first square on the start tile (marked A, B, C… on "
        "the picture) to the finish: its squares and movement points on an empty track."
        + ("" if data["routes"] else " No start path reaches the finish yet."),
    )
    return Sheet((tiles, paths), DESIGN_PAGE, f"track={encode_track(track)}")
