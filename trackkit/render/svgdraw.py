"""The track as an SVG picture, drawn from a :class:`~trackkit.render.layout.Scene`."""

from __future__ import annotations

from collections.abc import Callable

import drawsvg as draw

from trackkit.board.geometry import Side
from trackkit.games.yummell.terrain import Terrain
from trackkit.render.layout import TERRAIN_COLOURS, Scene, TileBox

UNIT = 36  # pixels per square
MARGIN = 1.2  # squares around the track
HEADER = 1.6  # squares for the title
LEGEND = 1.6  # squares for the terrain legend
LEGEND_STEP = 3.4  # squares from one legend entry to the next
LEGEND_WIDTH = 3 * LEGEND_STEP + 3.6  # three steps, then the last swatch and its words
TITLE_CHAR = 0.48  # a bold title letter's width, in squares (generous: never cut off)
ROTATE = {Side.N: 0, Side.E: 90, Side.S: 180, Side.W: 270}

Pixels = Callable[[float, float], tuple[float, float]]  # a scene point to its pixel


def scene_to_svg(scene: Scene) -> str:
    """An SVG document showing the tiles, squares with terrain and MP, junctions, the path,
    the tile numbers and orientation, the start paths and the finish."""
    width, height = canvas_size(scene)
    px = _pixels(scene)
    drawing = draw.Drawing(width, height, origin=(0, 0), font_family="sans-serif")
    drawing.append(draw.Rectangle(0, 0, width, height, fill="#f4efe1"))
    drawing.append(_title(scene))
    drawing.extend(_tiles(scene, px))
    drawing.extend(_link_lines(scene, px))
    drawing.extend(_squares(scene, px))
    drawing.extend(_link_arrows(scene, px))
    drawing.extend(_junction_marks(scene, px))
    drawing.extend(_start_labels(scene, px))
    drawing.extend(_finish(scene, px))
    drawing.extend(_terrain_legend(height))
    return drawing.as_svg()


def canvas_size(scene: Scene) -> tuple[float, float]:
    """Width and height in pixels: the track, its margins, the title and the legend (what a
    picture costs is checked against it before anything is drawn)."""
    left, top, right, bottom = scene.bounds
    # a narrow track (a design just begun) still shows the whole legend and title
    width = (
        max(
            right - left + 2 * MARGIN,
            LEGEND_WIDTH + 2 * MARGIN,
            TITLE_CHAR * len(scene.title) + 2 * MARGIN,
        )
        * UNIT
    )
    height = (bottom - top + 2 * MARGIN + HEADER + LEGEND) * UNIT
    return width, height


def _pixels(scene: Scene) -> Pixels:
    """Where a point of the scene lies in the picture, below the title."""
    left, top, _, _ = scene.bounds

    def px(x: float, y: float) -> tuple[float, float]:
        return ((x - left + MARGIN) * UNIT, (y - top + MARGIN + HEADER) * UNIT)

    return px


def _title(scene: Scene) -> draw.Text:
    return draw.Text(
        scene.title, 0.7 * UNIT, MARGIN * UNIT, 1.1 * UNIT, font_weight="bold", fill="#33261a"
    )


def _tiles(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """Each tile's rounded outline, then its printed legend in the top left corner."""
    elements: list[draw.DrawingElement] = []
    for tile in scene.tiles:
        x, y = px(tile.left, tile.top)
        elements.append(_tile_outline(tile, x, y))
        elements += _tile_legend(tile, x + 0.55 * UNIT, y + 0.55 * UNIT)
    return elements


def _tile_outline(tile: TileBox, x: float, y: float) -> draw.Rectangle:
    """The outline of a tile whose top left corner is at pixel ``(x, y)``, just inside it."""
    return draw.Rectangle(
        x + 2,
        y + 2,
        tile.size * UNIT - 4,
        tile.size * UNIT - 4,
        rx=8,
        fill="#e2d6b8",
        stroke="#7a6a4f",
        stroke_width=2,
    )


def _tile_legend(tile: TileBox, lx: float, ly: float) -> list[draw.DrawingElement]:
    """The printed legend centred on ``(lx, ly)``: tile number and an arrow to the tile's
    own north."""
    number = draw.Text(
        str(tile.number),
        0.45 * UNIT,
        lx,
        ly + 1,
        fill="white",
        text_anchor="middle",
        dominant_baseline="central",
        font_weight="bold",
    )
    arrow = draw.Group(transform=f"rotate({ROTATE[tile.up]}, {lx}, {ly})")
    arrow.append(
        draw.Lines(
            lx,
            ly - 0.62 * UNIT,
            lx - 0.14 * UNIT,
            ly - 0.42 * UNIT,
            lx + 0.14 * UNIT,
            ly - 0.42 * UNIT,
            close=True,
            fill="#c0392b",
        )
    )
    return [draw.Circle(lx, ly, 0.42 * UNIT, fill="#33261a"), number, arrow]


def _link_lines(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """The path: a thin line from each square's centre to the next one's, under the squares."""
    lines = []
    for (ax, ay), (bx, by) in scene.links:
        (x1, y1), (x2, y2) = px(ax, ay), px(bx, by)
        lines.append(draw.Line(x1, y1, x2, y2, stroke="#33261a", stroke_width=1.5))
    return lines


def _squares(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """Each square in its terrain colour, with its cost in MP written on it."""
    half = 0.4 * UNIT
    elements = []
    for square in scene.squares:
        cx, cy = px(*square.centre)
        elements.append(
            draw.Rectangle(
                cx - half,
                cy - half,
                2 * half,
                2 * half,
                rx=5,
                fill=square.colour,
                stroke="#33261a",
                stroke_width=1.2,
            )
        )
        elements.append(
            draw.Text(
                str(square.cost),
                0.42 * UNIT,
                cx,
                cy + 1,
                fill=square.text_colour,
                text_anchor="middle",
                dominant_baseline="central",
                font_weight="bold",
            )
        )
    return elements


def _link_arrows(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """An arrowhead in the gap between each two linked squares, pointing the way the race
    goes."""
    marker = draw.Marker(-0.1, -0.51, 0.9, 0.5, scale=2.2, orient="auto")
    marker.append(draw.Lines(-0.1, 0.5, -0.1, -0.5, 0.9, 0, fill="#33261a", close=True))
    arrows = []
    for (ax, ay), (bx, by) in scene.links:
        (x1, y1), (x2, y2) = px(ax, ay), px(bx, by)
        arrows.append(
            draw.Line(
                x1 + (x2 - x1) * 0.4,
                y1 + (y2 - y1) * 0.4,
                x1 + (x2 - x1) * 0.52,
                y1 + (y2 - y1) * 0.52,
                stroke="#33261a",
                stroke_width=2.5,
                marker_end=marker,
            )
        )
    return arrows


def _junction_marks(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """A yellow triangle on each junction between tiles, pointing across it."""
    marks = []
    for mark in scene.junctions:
        jx, jy = px(*mark.at)
        group = draw.Group(transform=f"rotate({ROTATE[mark.side]}, {jx}, {jy})")
        group.append(
            draw.Lines(
                jx - 0.22 * UNIT,
                jy + 0.02 * UNIT,
                jx + 0.22 * UNIT,
                jy + 0.02 * UNIT,
                jx,
                jy - 0.2 * UNIT,
                close=True,
                fill="#f1c40f",
                stroke="#33261a",
                stroke_width=1,
            )
        )
        marks.append(group)
    return marks


def _start_labels(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """Each start path's label in a dark disc, just below its first square."""
    elements = []
    for label, (sx, sy) in scene.starts:
        cx, cy = px(sx, sy + 0.62)
        elements.append(draw.Circle(cx, cy, 0.24 * UNIT, fill="#2c3e50"))
        elements.append(
            draw.Text(
                label,
                0.3 * UNIT,
                cx,
                cy + 1,
                fill="white",
                text_anchor="middle",
                dominant_baseline="central",
                font_weight="bold",
            )
        )
    return elements


def _finish(scene: Scene, px: Pixels) -> list[draw.DrawingElement]:
    """A red frame around the finish square and FINISH on the side the scene chose."""
    if scene.finish is None or scene.finish_label is None:
        return []
    fx, fy = px(*scene.finish)
    (lx, ly), side = scene.finish_label
    tx, ty = px(lx, ly)
    frame = draw.Rectangle(
        fx - 0.46 * UNIT,
        fy - 0.46 * UNIT,
        0.92 * UNIT,
        0.92 * UNIT,
        rx=6,
        fill="none",
        stroke="#c0392b",
        stroke_width=4,
    )
    label = draw.Text(
        "FINISH",
        0.28 * UNIT,
        tx,
        ty,
        fill="#c0392b",
        text_anchor={Side.E: "start", Side.W: "end"}.get(side, "middle"),
        dominant_baseline="central",
        font_weight="bold",
    )
    return [frame, label]


def _terrain_legend(height: float) -> list[draw.DrawingElement]:
    """A row along the bottom: each terrain's colour swatch, name and MP."""
    ly = height - LEGEND * UNIT * 0.75
    x = MARGIN * UNIT
    elements = []
    for terrain, colour in TERRAIN_COLOURS.items():
        elements.append(
            draw.Rectangle(
                x, ly - 0.3 * UNIT, 0.6 * UNIT, 0.6 * UNIT, rx=4, fill=colour, stroke="#33261a"
            )
        )
        elements.append(
            draw.Text(
                f"{terrain} {Terrain(terrain).cost} MP",
                0.36 * UNIT,
                x + 0.8 * UNIT,
                ly,
                dominant_baseline="central",
                fill="#33261a",
            )
        )
        x += LEGEND_STEP * UNIT
    return elements
