"""Structural checks every tile-and-track game shares: tiles, cells and rotations, the start
tile first and the finish tile last, joints that meet, a path from every start square to the
finish. Each problem has a stable code:

``empty``, ``unknown-tile``, ``bad-rotation``, ``duplicate-tile``, ``overlap``,
``missing-start``, ``start-not-first``, ``missing-finish``, ``finish-not-last``,
``not-adjacent``, ``junction-mismatch``, ``disconnected``, ``unreachable``.

A game adds its own rules on top (:func:`trackkit.validate.validate` runs both).
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from trackkit.board.problems import Problem
from trackkit.games.tilekit.geometry import ROTATIONS, neighbour, side_towards
from trackkit.games.tilekit.graph import TrackGraph, compose, start_path_label
from trackkit.games.tilekit.tiles import Tile, TileRole, TileSet
from trackkit.games.tilekit.track import Track

# The rule these problems break, as a problem's ``rule`` names it: the structure a track
# needs in every tile game (a game's own rules name theirs)
RULE = "structure"


def is_finished(track: Track, tileset: TileSet) -> bool:
    """Whether the last tile placed is the finish tile: nothing can be placed after it."""
    return bool(track.placements) and track.placements[-1].tile == tileset.finish.number


def check_structure(
    track: Track, tileset: TileSet, composed: TrackGraph | None = None, *, partial: bool = False
) -> list[Problem]:
    """Structural problems: tiles, cells and rotations, start and finish, joints, connectivity."""
    composed = composed if composed is not None else compose(track, tileset)
    if not track.placements:
        if partial:
            return []
        return [
            Problem(
                "empty",
                f"the track has no tiles; place the start tile ({tileset.start.number}) first",
                rule=RULE,
            )
        ]
    problems = _placement_problems(track, tileset)
    problems += _start_and_finish_problems(track, tileset, partial=partial)
    problems += _joint_problems(track, tileset, composed)
    problems += _connectivity_problems(track, composed, partial=partial)
    return problems


def _placement_problems(track: Track, tileset: TileSet) -> list[Problem]:
    problems = []
    first_use: dict[int, int] = {}
    first_cell: dict[tuple[int, int], int] = {}
    for index, p in enumerate(track.placements):
        if p.tile not in tileset:
            known = ", ".join(str(n) for n in tileset)
            problems.append(
                Problem(
                    "unknown-tile",
                    f"there is no tile {p.tile} in the tile set '{tileset.name}'; "
                    f"its tiles are {known}",
                    rule=RULE,
                    placement=index,
                    tile=p.tile,
                )
            )
        if p.rotation not in ROTATIONS:
            problems.append(
                Problem(
                    "bad-rotation",
                    f"tile {p.tile} is rotated {p.rotation}°; tiles turn by quarter turns: "
                    f"use 0, 90, 180 or 270 (perhaps {p.rotation % 360 // 90 * 90})",
                    rule=RULE,
                    placement=index,
                    tile=p.tile,
                )
            )
        if p.tile in first_use:
            other = track.placements[first_use[p.tile]]
            problems.append(
                Problem(
                    "duplicate-tile",
                    f"tile {p.tile} is already placed at ({other.x}, {other.y}) (placement "
                    f"{first_use[p.tile] + 1}); the box has one of each tile",
                    rule=RULE,
                    placement=index,
                    tile=p.tile,
                )
            )
        else:
            first_use[p.tile] = index
        if p.cell in first_cell:
            other = track.placements[first_cell[p.cell]]
            problems.append(
                Problem(
                    "overlap",
                    f"cell ({p.x}, {p.y}) already holds tile {other.tile} (placement "
                    f"{first_cell[p.cell] + 1}); move tile {p.tile} to a free cell",
                    rule=RULE,
                    placement=index,
                    tile=p.tile,
                )
            )
        else:
            first_cell[p.cell] = index
    return problems


def _role_indices(track: Track, tileset: TileSet, role: TileRole) -> list[int]:
    return [
        i
        for i, p in enumerate(track.placements)
        if p.tile in tileset and tileset[p.tile].role is role
    ]


def _start_and_finish_problems(track: Track, tileset: TileSet, *, partial: bool) -> list[Problem]:
    problems = []
    last = len(track.placements) - 1
    starts = _role_indices(track, tileset, TileRole.START)
    finishes = _role_indices(track, tileset, TileRole.FINISH)
    start, finish = tileset.start.number, tileset.finish.number
    if not starts:
        problems.append(
            Problem(
                "missing-start",
                f"the start tile ({start}) is not placed; it goes first",
                rule=RULE,
            )
        )
    for index in starts:
        if index != 0:
            problems.append(
                Problem(
                    "start-not-first",
                    f"the start tile is placement {index + 1}; it must be placed first",
                    rule=RULE,
                    placement=index,
                    tile=start,
                )
            )
    if not finishes and not partial:
        problems.append(
            Problem(
                "missing-finish",
                f"the finish tile ({finish}) is not placed; it goes last",
                rule=RULE,
            )
        )
    for index in finishes:
        if index != last:
            problems.append(
                Problem(
                    "finish-not-last",
                    f"the finish tile is placement {index + 1} of {last + 1}; it must be "
                    "placed last",
                    rule=RULE,
                    placement=index,
                    tile=finish,
                )
            )
    return problems


def _rotations_facing(tile: Tile, side_needed: Any) -> list[int]:
    return [r for r in ROTATIONS if side_needed in tile.junction_sides(r)]


def _joint_problems(track: Track, tileset: TileSet, composed: TrackGraph) -> list[Problem]:
    problems = []
    by_index = {item.index: item for item in composed.placed}
    for joint in composed.joints:
        if joint.connected:
            continue
        before, after = by_index[joint.index - 1], by_index[joint.index]
        b, a = before.placement, after.placement
        exit_side = before.exit_side()
        target = neighbour(b.cell, exit_side) if exit_side else None
        if not joint.adjacent:
            where = f"; its path leaves towards ({target[0]}, {target[1]})" if target else ""
            problems.append(
                Problem(
                    "not-adjacent",
                    f"{a.describe()} does not touch the tile placed before it, "
                    f"{b.describe()}{where}. Place tile {a.tile} there.",
                    rule=RULE,
                    placement=joint.index,
                    tile=a.tile,
                )
            )
            continue
        shared = side_towards(a.cell, b.cell)
        assert shared is not None
        reasons = []
        if not joint.previous_exit_faces:
            reasons.append(
                f"the path of tile {b.tile} leaves by its "
                f"{exit_side.value if exit_side else '(no)'} edge, not towards tile {a.tile}"
                + (f" (move tile {a.tile} to ({target[0]}, {target[1]}))" if target else "")
            )
        if not joint.entry_faces:
            turns = _rotations_facing(after.tile, shared)
            sides = "/".join(s.value for s in after.tile.junction_sides(a.rotation)) or "none"
            fix = (
                f"rotate it to {' or '.join(f'{r}°' for r in turns)}"
                if turns
                else "this tile cannot be entered"
            )
            reasons.append(
                f"tile {a.tile} has no junction on its {shared.value} edge facing tile {b.tile} "
                f"(at {a.rotation}° its junctions are on {sides}); {fix}"
            )
        problems.append(
            Problem(
                "junction-mismatch",
                f"{a.describe()} does not connect to {b.describe()}: " + "; ".join(reasons),
                rule=RULE,
                placement=joint.index,
                tile=a.tile,
            )
        )
    return problems


def _connectivity_problems(track: Track, composed: TrackGraph, *, partial: bool) -> list[Problem]:
    graph = composed.graph
    starts = [s for s in composed.start_squares if s in graph]
    if not starts:
        return []
    problems = []
    if composed.finish is not None and not partial:
        cut_off = [s for s in starts if not nx.has_path(graph, s, composed.finish)]
        if cut_off:
            reach = set().union(*(nx.descendants(graph, s) | {s} for s in cut_off))
            furthest = max(graph.nodes[n]["placement"] for n in reach)
            paths = ", ".join(start_path_label(composed.start_squares.index(s)) for s in cut_off)
            problems.append(
                Problem(
                    "disconnected",
                    f"the finish cannot be reached from start path(s) {paths}: the path "
                    f"breaks after placement {furthest + 1} "
                    f"(tile {track.placements[furthest].tile}); fix the joint there",
                    rule=RULE,
                    placement=furthest,
                    tile=track.placements[furthest].tile,
                )
            )
    reached = set(starts).union(*(nx.descendants(graph, s) for s in starts))
    stranded: dict[int, int] = {}
    for node, data in graph.nodes(data=True):
        if node not in reached:
            stranded[data["placement"]] = stranded.get(data["placement"], 0) + 1
    for index, count in sorted(stranded.items()):
        p = track.placements[index]
        problems.append(
            Problem(
                "unreachable",
                f"{count} square(s) of {p.describe()} cannot be reached from the start: "
                "it is not on the path from the start tile",
                rule=RULE,
                placement=index,
                tile=p.tile,
            )
        )
    return problems
