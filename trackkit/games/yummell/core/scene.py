"""A Yummell track drawn as shapes (:mod:`trackkit.games.shapes`): the tiles as they lie on
the table, each square in its terrain colour with its cost in MP, the path, the tiles'
numbers and north arrows, the junctions, the start paths and the finish.

Coordinates are in squares: a tile at table cell (x, y) covers ``[x * grid, (x + 1) *
grid]`` across, rows growing downwards.

>>> from trackkit.games.yummell.core.presets import load_preset
>>> scene = track_scene(load_preset("first-run"))
>>> scene.title, len(scene.places)
('First run', 34)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from trackkit.games.base import tileset_of
from trackkit.games.shapes import (
    Anchor,
    Circle,
    LegendEntry,
    Line,
    Point,
    Polygon,
    Rectangle,
    Scene,
    Shape,
    Spot,
    Text,
)
from trackkit.games.tilekit.geometry import Side
from trackkit.games.tilekit.graph import TrackGraph, compose, start_path_label
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.terrain import Terrain

UNIT = 36  # pixels per square in a picture
PALETTE_UNIT = 20  # pixels per square in a palette's thumbnail
INK = "#33261a"
TILE = "#e2d6b8"
TILE_EDGE = "#7a6a4f"
FINISH = "#c0392b"
START = "#2c3e50"
JUNCTION = "#f1c40f"
TERRAIN_COLOURS = {
    "plain": "#b7dd8a",
    "woods": "#3f7d3a",
    "hills": "#c79a5b",
    "swamp": "#5f8f94",
}
TEXT_ON_TERRAIN = {"plain": "#1d2b12", "woods": "#ffffff", "hills": "#2b1c08", "swamp": "#ffffff"}
ROTATE = {Side.N: 0, Side.E: 90, Side.S: 180, Side.W: 270}
# Labels sit half a square out from the centre, so the one side of the finish square
# they must keep clear is the neighbouring cell; above reads best, then below, then aside.
_LABEL_SIDES = (Side.N, Side.S, Side.E, Side.W)

Cells = Iterable[tuple[int, int]]


@dataclass(frozen=True)
class TileBox:
    """Where a placed tile lies on the table: its number, its placing order (0 first) and
    its square box, in squares."""

    number: int
    index: int
    left: float
    top: float
    size: float


@dataclass(frozen=True)
class TileScene(Scene):
    """A Yummell scene, which also says where each placed tile lies (so a page can
    outline a tile a problem names)."""

    tiles: tuple[TileBox, ...] = ()


@dataclass(frozen=True)
class _Square:
    id: str
    tile: int
    terrain: str
    cost: int
    centre: Point


def track_scene(
    track: Track,
    *,
    tileset: TileSet | None = None,
    highlight_cells: Cells = (),
    clickable_cells: Cells = (),
    palette: bool = False,
) -> TileScene | Scene:
    """The scene of ``track`` (unusable placements, such as an unknown tile, left out).

    ``highlight_cells`` (table cells) are outlined as places the next tile may go;
    ``clickable_cells`` are covered with invisible spots, one per square of the cell,
    each keyed ``(x, y)``: the nearest spot to a click anywhere in the cell is one of its
    own, so a figure tells which table cell was clicked. ``palette``: the tile alone as
    a small thumbnail (outline, squares, costs, junctions).
    """
    tileset = tileset if tileset is not None else tileset_of(track)
    composed = compose(track, tileset)
    grid = tileset.grid
    squares = _squares(composed)
    if palette:
        return _palette(track.name, composed, squares, grid)
    highlight, clickable = list(highlight_cells), list(clickable_cells)
    shapes: list[Shape] = [*_highlighted(highlight, grid), *_cell_outlines(clickable, grid)]
    shapes += _tiles(composed, grid)
    shapes += [Line((a, b), INK, 1.5) for a, b in _links(composed, squares)]
    shapes += _square_shapes(squares)
    shapes += _arrows(_links(composed, squares))
    shapes += _junctions(composed, grid)
    shapes += _starts(composed, squares)
    shapes += _finish(composed, squares)
    shapes += _cell_spots(clickable, grid)
    tiles = tuple(
        TileBox(
            item.tile.number, item.index, item.placement.x * grid, item.placement.y * grid, grid
        )
        for item in composed.placed
    )
    return TileScene(
        track.name,
        tuple(shapes),
        _bounds(composed, grid, clickable),
        unit=UNIT,
        legend=_legend(),
        places=MappingProxyType({s.id: s.centre for s in squares}),
        tiles=tiles,
    )


def square_hover(square: _Square) -> str:
    """What a square is, said on hover: its tile, its own number, terrain and MP."""
    return (
        f"tile {square.tile}, square {square.id.split(':')[1]}: {square.terrain}, {square.cost} MP"
    )


def _squares(composed: TrackGraph) -> list[_Square]:
    graph = composed.graph
    return [
        _Square(node, data["tile"], data["terrain"], data["cost"], _centre(data["cell"]))
        for node, data in graph.nodes(data=True)
    ]


def _centre(cell: tuple[int, int]) -> Point:
    return (cell[0] + 0.5, cell[1] + 0.5)


def _links(composed: TrackGraph, squares: list[_Square]) -> list[tuple[Point, Point]]:
    centres = {s.id: s.centre for s in squares}
    return [(centres[a], centres[b]) for a, b in composed.graph.edges]


def _turned(points: Iterable[Point], degrees: float, about: Point) -> tuple[Point, ...]:
    """``points`` turned ``degrees`` clockwise (on the page) about ``about``."""
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    ox, oy = about
    return tuple(
        (ox + (x - ox) * cos - (y - oy) * sin, oy + (x - ox) * sin + (y - oy) * cos)
        for x, y in points
    )


def _tiles(composed: TrackGraph, grid: int) -> list[Shape]:
    """Each tile's rounded outline, then its printed legend in the top left corner: its
    number on a dark disc, and a red arrow to the tile's own north."""
    inset = 2 / UNIT
    shapes: list[Shape] = []
    for item in composed.placed:
        p = item.placement
        left, top = p.x * grid, p.y * grid
        shapes.append(
            Rectangle(
                left + inset,
                top + inset,
                grid - 2 * inset,
                grid - 2 * inset,
                TILE,
                TILE_EDGE,
                2,
                rounded=8,
                group="tile",
            )
        )
        lx, ly = left + 0.55, top + 0.55
        arrow = ((lx, ly - 0.62), (lx - 0.14, ly - 0.42), (lx + 0.14, ly - 0.42))
        up = Side.N.rotated(p.rotation)
        shapes += [
            Circle((lx, ly), 0.42, fill=INK),
            Text((lx, ly + 1 / UNIT), str(item.tile.number), 0.45, "#ffffff", bold=True),
            Polygon(_turned(arrow, ROTATE[up], (lx, ly)), fill=FINISH),
        ]
    return shapes


def _square_shapes(squares: list[_Square]) -> list[Shape]:
    """Each square in its terrain colour, with its cost in MP written on it (which says,
    on hover, what the square is)."""
    shapes: list[Shape] = []
    for square in squares:
        cx, cy = square.centre
        colour = TERRAIN_COLOURS[square.terrain]
        shapes.append(
            Rectangle(
                cx - 0.4,
                cy - 0.4,
                0.8,
                0.8,
                colour,
                INK,
                1.2,
                rounded=5,
                group="square",
                node=square.id,
            )
        )
        shapes.append(
            Text(
                (cx, cy + 1 / UNIT),
                str(square.cost),
                0.42,
                TEXT_ON_TERRAIN[square.terrain],
                bold=True,
                hover=square_hover(square),
                group="squares",
                node=square.id,
            )
        )
    return shapes


def _arrows(links: list[tuple[Point, Point]]) -> list[Shape]:
    """An arrowhead in the gap between each two linked squares, the way the race goes."""
    return [
        Line(
            (
                (ax + (bx - ax) * 0.4, ay + (by - ay) * 0.4),
                (ax + (bx - ax) * 0.52, ay + (by - ay) * 0.52),
            ),
            INK,
            2.5,
            arrow=2.2,
        )
        for (ax, ay), (bx, by) in links
    ]


def _junction_spots(composed: TrackGraph, grid: int) -> list[tuple[Point, Side]]:
    """Each junction between tiles: the middle of its side of the square, and the side."""
    spots = []
    for item in composed.placed:
        p = item.placement
        for junction in item.tile.junctions:
            side = junction.side.rotated(p.rotation)
            column, row = item.tile.cell(junction.square, p.rotation)
            dx, dy = side.offset
            at = (p.x * grid + column + 0.5 + dx * 0.5, p.y * grid + row + 0.5 + dy * 0.5)
            spots.append((at, side))
    return spots


def _junctions(composed: TrackGraph, grid: int) -> list[Shape]:
    """A yellow triangle on each junction between tiles, pointing across it."""
    marks: list[Shape] = []
    for (jx, jy), side in _junction_spots(composed, grid):
        triangle = ((jx - 0.22, jy + 0.02), (jx + 0.22, jy + 0.02), (jx, jy - 0.2))
        turned = _turned(triangle, ROTATE[side], (jx, jy))
        marks.append(Polygon(turned, JUNCTION, INK, 1, group="junction"))
    return marks


def _starts(composed: TrackGraph, squares: list[_Square]) -> list[Shape]:
    """Each start path's label on a dark disc, just below its first square."""
    centres = {s.id: s.centre for s in squares}
    shapes: list[Shape] = []
    for i, node in enumerate(composed.start_squares):
        if node not in centres:
            continue
        cx, cy = centres[node][0], centres[node][1] + 0.62
        shapes.append(Circle((cx, cy), 0.24, fill=START))
        shapes.append(
            Text((cx, cy + 1 / UNIT), start_path_label(i), 0.3, "#ffffff", bold=True, group="start")
        )
    return shapes


def _finish(composed: TrackGraph, squares: list[_Square]) -> list[Shape]:
    """A red frame round the finish square, and FINISH beside it where no square lies."""
    centres = {s.id: s.centre for s in squares}
    if composed.finish not in centres:
        return []
    fx, fy = centres[composed.finish]
    (lx, ly), side = finish_label((fx, fy), set(centres.values()))
    anchor: Anchor = "start" if side is Side.E else "end" if side is Side.W else "middle"
    return [
        Rectangle(
            fx - 0.46,
            fy - 0.46,
            0.92,
            0.92,
            stroke=FINISH,
            stroke_width=4,
            rounded=6,
            group="finish",
        ),
        Text((lx, ly), "FINISH", 0.28, FINISH, anchor, bold=True, group="finish"),
    ]


def finish_label(finish: Point, squares: set[Point]) -> tuple[Point, Side]:
    """Where the FINISH label of the square at ``finish`` goes: the first side (above,
    below, right, left) whose neighbouring cell holds no square, above if all do."""
    fx, fy = finish
    for side in _LABEL_SIDES:
        dx, dy = side.offset
        if (fx + dx, fy + dy) not in squares:
            # above or below, centred; beside, the text starts just past the square
            out = 0.72 if dy else 0.56
            return (fx + out * dx, fy + out * dy), side
    return (fx, fy - 0.72), Side.N


def _highlighted(cells: list[tuple[int, int]], grid: int) -> list[Shape]:
    """Green dashed outlines of the cells where the next tile may go."""
    return [
        Rectangle(
            x * grid + 0.1,
            y * grid + 0.1,
            grid - 0.2,
            grid - 0.2,
            "rgba(46, 204, 113, 0.18)",
            "#27ae60",
            3,
            dash="8,4",
            group="highlight",
        )
        for x, y in cells
    ]


def _cell_outlines(cells: list[tuple[int, int]], grid: int) -> list[Shape]:
    """Faint dotted outlines of the cells a click may place the tile on."""
    return [
        Rectangle(
            x * grid + 0.1,
            y * grid + 0.1,
            grid - 0.2,
            grid - 0.2,
            stroke="rgba(122, 106, 79, 0.25)",
            dash="2,3",
            group="cell",
        )
        for x, y in cells
    ]


def _cell_spots(cells: list[tuple[int, int]], grid: int) -> list[Shape]:
    """Invisible spots, one per square of each cell, on the same lattice as the squares'
    centres (so the nearest spot to a click in a free cell is always that cell's own)."""
    return [
        Spot(
            (x * grid + i + 0.5, y * grid + j + 0.5),
            4,
            f"table cell ({x}, {y}): click to place the tile",
            (x, y),
            "cells",
        )
        for x, y in cells
        for i in range(grid)
        for j in range(grid)
    ]


def _bounds(
    composed: TrackGraph, grid: int, cells: list[tuple[int, int]]
) -> tuple[float, float, float, float]:
    """The tiles' bounds (one tile's place for none), widened to every clickable cell."""
    spots = [item.placement.cell for item in composed.placed] + cells
    if not spots:
        return 0.0, 0.0, float(grid), float(grid)
    xs, ys = [x for x, _ in spots], [y for _, y in spots]
    return (
        float(min(xs) * grid),
        float(min(ys) * grid),
        float((max(xs) + 1) * grid),
        float((max(ys) + 1) * grid),
    )


def _legend() -> tuple[LegendEntry, ...]:
    """Each terrain: its colour, name and MP."""
    return tuple(
        LegendEntry(
            f"{terrain} {Terrain(terrain).cost} MP",
            (Rectangle(-0.3, -0.3, 0.6, 0.6, colour, INK, 1, rounded=4),),
            "square",
            colour,
        )
        for terrain, colour in TERRAIN_COLOURS.items()
    )


def _palette(title: str, composed: TrackGraph, squares: list[_Square], grid: int) -> Scene:
    """A tile alone, small: its outline, squares, costs and junction dots."""
    edge = 1 / PALETTE_UNIT
    shapes: list[Shape] = [
        Rectangle(edge, edge, grid - 2 * edge, grid - 2 * edge, TILE, TILE_EDGE, 2, rounded=3)
    ]
    for square in squares:
        cx, cy = square.centre
        shapes.append(
            Rectangle(
                cx - 0.45,
                cy - 0.45,
                0.9,
                0.9,
                TERRAIN_COLOURS[square.terrain],
                INK,
                0.6,
                node=square.id,
            )
        )
        shapes.append(Text((cx, cy), str(square.cost), 0.55, TEXT_ON_TERRAIN[square.terrain]))
    for at, _ in _junction_spots(composed, grid):
        shapes.append(Circle(at, 3.5 / PALETTE_UNIT, JUNCTION, INK, 0.6))
    return Scene(title, tuple(shapes), (0.0, 0.0, float(grid), float(grid)), unit=PALETTE_UNIT)
