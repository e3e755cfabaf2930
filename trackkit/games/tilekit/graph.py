"""Composing a track into one directed graph of squares.

Nodes are squares, named ``"<tile>:<square>"`` (``"7:3"`` is square 3 of tile 7), with
attributes ``tile``, ``square``, the square's game attributes (Yummell: ``terrain``,
``cost``), ``cell`` (the square's cell on the
table, in square units: tile column × grid + column inside the tile) and ``placement``
(the index of its tile in placing order). Edges follow the path: inside a tile along its
links, walked from the side the tile is entered by, and across tiles from the exit junction
of each tile to the entry junction of the next. Every edge has a ``kind``: ``ahead`` along
the path (a game with lane changes adds its own kinds).

Characters start off the board; their first move enters one of ``start_squares`` (the
first square of each start path, in the start tile's order) and the race ends on
``finish``.

Composition never fails: placements that cannot be used (unknown tile, bad rotation) are
left out and joints that do not meet are recorded, so the validator can report them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx

from trackkit.games.tilekit.geometry import ROTATIONS, Side, side_towards
from trackkit.games.tilekit.tiles import Tile, TileRole, TileSet, Traversal
from trackkit.games.tilekit.track import Placement, Track

AHEAD = "ahead"  # the kind of an edge along the path


def start_path_label(index: int) -> str:
    """The name of start path ``index`` (0-based, in the start tile's order): A, B, C…

    >>> [start_path_label(i) for i in range(3)]
    ['A', 'B', 'C']
    """
    return chr(ord("A") + index)


def square_id(tile: int, square: str) -> str:
    return f"{tile}:{square}"


@dataclass(frozen=True)
class Joint:
    """How tile ``index`` meets the tile placed before it."""

    index: int
    adjacent: bool
    previous_exit_faces: bool  # the previous tile's exit junction is on the shared edge
    entry_faces: bool  # this tile has a junction on the shared edge

    @property
    def connected(self) -> bool:
        return self.adjacent and self.previous_exit_faces and self.entry_faces


@dataclass(frozen=True)
class PlacedTile:
    """A usable placement with its tile and the way it is walked."""

    index: int
    placement: Placement
    tile: Tile
    traversal: Traversal

    def exit_side(self) -> Side | None:
        """The edge the path leaves this tile by, or None for the finish tile."""
        if self.traversal.exit is None:
            return None
        return self.traversal.exit.side.rotated(self.placement.rotation)

    def entry_side(self) -> Side | None:
        if self.traversal.entry is None:
            return None
        return self.traversal.entry.side.rotated(self.placement.rotation)


def usable(placement: Placement, tileset: TileSet) -> bool:
    """Whether a placement names a known tile at a quarter-turn rotation."""
    return placement.tile in tileset and placement.rotation in ROTATIONS


def place_tiles(track: Track, tileset: TileSet) -> list[PlacedTile]:
    """The usable placements of ``track`` with the way each one is walked.

    A tile is walked from the side facing the tile placed just before it.
    """
    placed: list[PlacedTile] = []
    previous: Placement | None = None
    for index, placement in enumerate(track.placements):
        if usable(placement, tileset):
            entry = side_towards(placement.cell, previous.cell) if previous else None
            tile = tileset[placement.tile]
            placed.append(
                PlacedTile(index, placement, tile, tile.traversal(placement.rotation, entry))
            )
        previous = placement
    return placed


@dataclass(frozen=True)
class TrackGraph:
    """A composed track: the square graph, its start squares and finish square."""

    name: str
    graph: nx.DiGraph
    start_squares: tuple[str, ...]
    finish: str | None
    joints: tuple[Joint, ...]
    placed: tuple[PlacedTile, ...]

    def routes(self, limit: int = 16) -> list[list[str]]:
        """Every route from a start square to the finish, in start-path order.

        A route is a list of square ids. Bundled tiles have one route per start path;
        custom tiles may branch, so at most ``limit`` routes per start square are listed.
        """
        if self.finish is None or self.finish not in self.graph:
            return []
        routes: list[list[str]] = []
        for start in self.start_squares:
            routes.extend(sorted(simple_paths(self.graph, start, self.finish, limit)))
        return routes

    def to_json(self) -> dict[str, Any]:
        """The graph for other programs: squares with their game attributes and successors,
        start and finish."""
        squares = [
            {
                "id": node,
                "tile": data["tile"],
                "square": data["square"],
                **data["attributes"],
                "cell": list(data["cell"]),
                "next": sorted(self.graph.successors(node)),
            }
            for node, data in self.graph.nodes(data=True)
        ]
        return {
            "name": self.name,
            "squares": squares,
            "start": list(self.start_squares),
            "finish": self.finish,
        }


def simple_paths(graph: nx.DiGraph, source: str, target: str, limit: int) -> list[list[str]]:
    """The first ``limit`` simple paths from ``source`` to ``target``, in the order (and with
    the paths) of ``networkx.all_simple_paths``: depth first, successors in the graph's
    order. Written out because a sweep composes every track: networkx's generic version
    took 2 ms of a track's 45.

    >>> graph = nx.DiGraph([("a", "b"), ("b", "d"), ("a", "c"), ("c", "d"), ("c", "b")])
    >>> simple_paths(graph, "a", "d", 16)
    [['a', 'b', 'd'], ['a', 'c', 'd'], ['a', 'c', 'b', 'd']]
    """
    succ = graph.succ
    if source == target:
        return [[source]]  # the path of no step, as networkx gives it
    found: list[list[str]] = []
    path, on_path = [source], {source}
    stack = [iter(succ[source])]
    while stack and len(found) < limit:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            on_path.discard(path.pop())
        elif child == target:
            found.append([*path, child])
        elif child not in on_path:
            path.append(child)
            on_path.add(child)
            stack.append(iter(succ[child]))
    return found


def compose(track: Track, tileset: TileSet) -> TrackGraph:
    """Compose ``track`` from the tiles of ``tileset`` into a :class:`TrackGraph` (see the
    module docstring)."""
    placed = place_tiles(track, tileset)
    graph = nx.DiGraph(name=track.name)
    start_squares: tuple[str, ...] = ()
    finish: str | None = None

    for item in placed:
        tile, placement = item.tile, item.placement
        for square in tile.squares:
            column, row = tile.cell(square.id, placement.rotation)
            graph.add_node(
                square_id(tile.number, square.id),
                tile=tile.number,
                square=square.id,
                **square.attributes,
                attributes=dict(square.attributes),
                cell=(placement.x * tileset.grid + column, placement.y * tileset.grid + row),
                placement=item.index,
            )
        graph.add_edges_from(
            (
                (square_id(tile.number, a), square_id(tile.number, b))
                for a, b in item.traversal.links
            ),
            kind=AHEAD,
        )
        if tile.role is TileRole.START and not start_squares:
            start_squares = tuple(square_id(tile.number, s) for s in tile.sources)
        if tile.role is TileRole.FINISH and finish is None:
            finish = square_id(tile.number, tile.sinks[0])

    joints = _joints(track, placed)
    by_index = {item.index: item for item in placed}
    for joint in joints:
        if joint.connected:
            before, after = by_index[joint.index - 1], by_index[joint.index]
            assert before.traversal.exit is not None and after.traversal.entry is not None
            graph.add_edge(
                square_id(before.tile.number, before.traversal.exit.square),
                square_id(after.tile.number, after.traversal.entry.square),
                kind=AHEAD,
            )
    return TrackGraph(track.name, graph, start_squares, finish, tuple(joints), tuple(placed))


def _joints(track: Track, placed: list[PlacedTile]) -> list[Joint]:
    """How each usable tile meets the usable tile placed just before it."""
    by_index = {item.index: item for item in placed}
    joints = []
    for index in range(1, len(track.placements)):
        before, after = by_index.get(index - 1), by_index.get(index)
        if before is None or after is None:
            continue
        towards_after = side_towards(before.placement.cell, after.placement.cell)
        joints.append(
            Joint(
                index=index,
                adjacent=towards_after is not None,
                previous_exit_faces=towards_after is not None
                and before.exit_side() == towards_after,
                entry_faces=towards_after is not None
                and after.entry_side() == towards_after.opposite,
            )
        )
    return joints
