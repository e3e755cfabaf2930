"""What a drawn track shows, as plain data: the same scene feeds the SVG and the Plotly figure.

Coordinates are in square units on the table: a tile at table cell (x, y) covers
``[x * grid, (x + 1) * grid]`` horizontally, rows growing downwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from trackkit.board.geometry import Side
from trackkit.board.graph import compose, start_path_label
from trackkit.board.tiles import TileSet
from trackkit.board.track import Track
from trackkit.games import tileset_of

TERRAIN_COLOURS = {
    "plain": "#b7dd8a",
    "woods": "#3f7d3a",
    "hills": "#c79a5b",
    "swamp": "#5f8f94",
}
TEXT_ON_TERRAIN = {"plain": "#1d2b12", "woods": "#ffffff", "hills": "#2b1c08", "swamp": "#ffffff"}


def square_name(square: str) -> str:
    """A square id as a player reads it: ``"10:3"`` is ``"tile 10 square 3"``."""
    tile, _, own = square.partition(":")
    return f"tile {tile} square {own}" if own else square


@dataclass(frozen=True)
class TileBox:
    number: int
    cell: tuple[int, int]  # table cell
    left: float
    top: float
    size: float
    rotation: int
    up: Side  # where the tile's printed legend points (its canonical north)
    index: int  # placing order, 0 first


@dataclass(frozen=True)
class SquareBox:
    id: str
    tile: int
    terrain: str
    cost: int
    centre: tuple[float, float]
    colour: str
    text_colour: str


@dataclass(frozen=True)
class JunctionMark:
    tile: int
    side: Side
    at: tuple[float, float]  # on the tile's edge, middle of the side


@dataclass(frozen=True)
class Scene:
    title: str
    grid: int
    tiles: tuple[TileBox, ...]
    squares: tuple[SquareBox, ...]
    links: tuple[tuple[tuple[float, float], tuple[float, float]], ...]
    junctions: tuple[JunctionMark, ...]
    starts: tuple[tuple[str, tuple[float, float]], ...]  # label, centre
    finish: tuple[float, float] | None
    bounds: tuple[float, float, float, float]  # left, top, right, bottom
    # where the FINISH label goes: beside the finish square, on a side with no square
    finish_label: tuple[tuple[float, float], Side] | None = None


def build_scene(track: Track, tileset: TileSet | None = None) -> Scene:
    """The scene of ``track``; unusable placements (unknown tile, bad rotation) are left out."""
    tileset = tileset if tileset is not None else tileset_of(track)
    composed = compose(track, tileset)
    grid = tileset.grid
    graph = composed.graph

    def centre(node: str) -> tuple[float, float]:
        column, row = graph.nodes[node]["cell"]
        return (column + 0.5, row + 0.5)

    tiles, junctions = [], []
    for item in composed.placed:
        p = item.placement
        tiles.append(
            TileBox(
                item.tile.number,
                p.cell,
                p.x * grid,
                p.y * grid,
                grid,
                p.rotation,
                Side.N.rotated(p.rotation),
                item.index,
            )
        )
        for junction in item.tile.junctions:
            side = junction.side.rotated(p.rotation)
            column, row = item.tile.cell(junction.square, p.rotation)
            x, y = p.x * grid + column + 0.5, p.y * grid + row + 0.5
            dx, dy = side.offset
            junctions.append(JunctionMark(item.tile.number, side, (x + dx * 0.5, y + dy * 0.5)))
    squares = tuple(
        SquareBox(
            node,
            data["tile"],
            data["terrain"],
            data["cost"],
            centre(node),
            TERRAIN_COLOURS[data["terrain"]],
            TEXT_ON_TERRAIN[data["terrain"]],
        )
        for node, data in graph.nodes(data=True)
    )
    links = tuple((centre(a), centre(b)) for a, b in graph.edges)
    starts = tuple(
        (start_path_label(i), centre(node))
        for i, node in enumerate(composed.start_squares)
        if node in graph
    )
    finish = centre(composed.finish) if composed.finish in graph else None
    label = _finish_label(finish, {centre(node) for node in graph}) if finish else None
    if tiles:
        left = min(t.left for t in tiles)
        top = min(t.top for t in tiles)
        right = max(t.left + t.size for t in tiles)
        bottom = max(t.top + t.size for t in tiles)
    else:
        left = top = 0.0
        right = bottom = float(grid)
    return Scene(
        track.name,
        grid,
        tuple(tiles),
        squares,
        links,
        tuple(junctions),
        starts,
        finish,
        (left, top, right, bottom),
        label,
    )


# Labels sit half a square out from the centre, so the one side of the finish square
# they must keep clear is the neighbouring cell; above reads best, then below, then aside.
_LABEL_SIDES = (Side.N, Side.S, Side.E, Side.W)


def _finish_label(
    finish: tuple[float, float], squares: set[tuple[float, float]]
) -> tuple[tuple[float, float], Side]:
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
