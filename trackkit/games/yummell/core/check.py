"""The rulebook's optional rule for creating a race track (p. 4), and what follows from it.

The rule: besides the start and finish tiles, 2 path tiles per player with 2 players and
1 per player with 3 or more. The start tile goes first; then each tile placed must connect
to the path of the last tile placed *and* leave space to connect another tile after it;
the finish tile goes last.

Beyond the rulebook, this module says which next placements are legal, whether a partial
track can still be completed with the tiles left (the one-step rule can paint players into
a corner), and counts the whole design space.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Literal, NamedTuple

from trackkit.board.problems import Problem
from trackkit.errors import TrackkitError
from trackkit.games import tileset_of
from trackkit.games.tilekit.geometry import ROTATIONS, Side, neighbour
from trackkit.games.tilekit.graph import PlacedTile, TrackGraph, compose, place_tiles
from trackkit.games.tilekit.structure import is_finished
from trackkit.games.tilekit.tiles import Tile, TileRole, TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell import PLAYERS

MIN_PLAYERS, MAX_PLAYERS = PLAYERS.build_min, PLAYERS.build_max
# Which of Yummell's rules a problem breaks (its ``rule``): the structure every tile track
# needs, or the optional track-building rule (both make a track illegal)
Rule = Literal["structure", "building"]


def path_tiles_for_players(players: int) -> int:
    """How many path tiles the building rule puts in play for ``players`` players."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise TrackkitError(
            f"the track-building rule is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    return 2 * players if players == 2 else players


def orientations(tile: Tile, entry_side: Side) -> list[tuple[int, Side | None]]:
    """The rotations at which ``tile`` can be entered across ``entry_side``, each with the
    side its path then leaves by (None for the finish tile)."""
    found = []
    for rotation in ROTATIONS:
        if entry_side not in tile.junction_sides(rotation) or tile.role is TileRole.START:
            continue
        traversal = tile.traversal(rotation, entry_side)
        exit_side = traversal.exit.side.rotated(rotation) if traversal.exit else None
        found.append((rotation, exit_side))
    return found


@dataclass(frozen=True)
class Frontier:
    """Where the next tile goes: the cell past the last tile's exit, entered from ``entry``."""

    cell: tuple[int, int]
    entry: Side
    occupied: frozenset[tuple[int, int]]


def frontier(track: Track, tileset: TileSet, composed: TrackGraph | None = None) -> Frontier | None:
    """The cell the next tile must take, or None if the path cannot go on (no tiles yet,
    a tile unusable or repeated, the path broken, the last tile the finish, or its exit
    blocked). ``composed`` is the track already composed, if the caller has it."""
    composed = composed if composed is not None else compose(track, tileset)
    placed = composed.placed
    if not placed or len(placed) != len(track.placements):
        return None
    if placed[0].tile.role is not TileRole.START:
        return None  # an unusable tile, or no start tile first: the path cannot go on
    if not all(joint.connected for joint in composed.joints):
        return None  # the path is already broken
    if len(set(track.tiles)) != len(track.tiles):
        return None
    exit_side = placed[-1].exit_side()
    if exit_side is None:
        return None
    occupied = frozenset(p.cell for p in track.placements)
    cell = neighbour(placed[-1].placement.cell, exit_side)
    if cell in occupied:
        return None
    return Frontier(cell, exit_side.opposite, occupied)


@dataclass(frozen=True)
class NextPlacement:
    """A placement that connects to the last tile, and whether the rules allow it.

    ``problem`` is the code that forbids it (None when legal); ``completable`` says whether
    the track can still be completed afterwards with the tiles left (None when no player
    count is given, so there is no fixed number of tiles to reach).
    """

    placement: Placement
    legal: bool
    problem: str | None = None
    completable: bool | None = None


def next_placements(
    track: Track, tileset: TileSet | None = None, players: int | None = None
) -> list[NextPlacement]:
    """Every placement of an unused tile that connects to the last tile placed.

    With ``players``, only path tiles while the rule wants more of them, then only the
    finish; each legal one is also checked for whether the track can still be completed.
    With no tiles placed yet, the start tile at (0, 0) in each rotation.
    """
    tileset = tileset if tileset is not None else tileset_of(track)
    if not track.placements:
        start = tileset.start.number
        return [NextPlacement(Placement(start, 0, 0, r), legal=True) for r in ROTATIONS]
    edge = frontier(track, tileset)
    if edge is None:
        return []
    used = set(track.tiles)
    unused_paths = [t for t in tileset.path_tiles if t.number not in used]
    candidates: list[Tile] = [*unused_paths, tileset.finish]
    wanted = None
    if players is not None:
        wanted = path_tiles_for_players(players) - _path_count(track, tileset)
        candidates = unused_paths if wanted > 0 else [tileset.finish]
    if tileset.finish.number in used:
        candidates = [t for t in candidates if t.role is not TileRole.FINISH]

    results = []
    for tile in candidates:
        for rotation, exit_side in orientations(tile, edge.entry):
            placement = Placement(tile.number, *edge.cell, rotation)
            room = exit_side is None or neighbour(edge.cell, exit_side) not in edge.occupied
            if not room:
                results.append(NextPlacement(placement, legal=False, problem="no-space-for-next"))
                continue
            completable = None
            if wanted is not None and exit_side is not None:
                left = [t for t in unused_paths if t.number != tile.number]
                completable = _can_complete(
                    neighbour(edge.cell, exit_side),
                    exit_side.opposite,
                    edge.occupied | {edge.cell},
                    left,
                    wanted - 1,
                )
            elif wanted is not None:
                completable = True
            results.append(NextPlacement(placement, legal=True, completable=completable))
    return results


def _path_count(track: Track, tileset: TileSet) -> int:
    return sum(1 for t in track.tiles if t in tileset and tileset[t].role is TileRole.PATH)


def _can_complete(
    cell: tuple[int, int],
    entry: Side,
    occupied: frozenset[tuple[int, int]],
    tiles: list[Tile],
    wanted: int,
) -> bool:
    """Whether ``wanted`` more path tiles from ``tiles`` can be placed from ``cell`` on,
    each leaving room for the next (the finish then fits in the last free cell)."""
    if wanted <= 0:
        return True
    for tile in tiles:
        for _, exit_side in orientations(tile, entry):
            assert exit_side is not None
            beyond = neighbour(cell, exit_side)
            if beyond in occupied:
                continue
            rest = [t for t in tiles if t is not tile]
            if _can_complete(beyond, exit_side.opposite, occupied | {cell}, rest, wanted - 1):
                return True
    return False


def can_complete(
    track: Track,
    tileset: TileSet | None = None,
    players: int | None = None,
    composed: TrackGraph | None = None,
) -> bool:
    """Whether a partial track can still be finished legally with the tiles left.

    With no player count, it can be finished if the finish fits after the last tile. An
    empty table can be finished if a track begun with the start tile can (the grid has no
    edge, so where and how the start tile lies does not matter).
    """
    tileset = tileset if tileset is not None else tileset_of(track)
    if not track.placements:
        begun = replace(track, placements=(Placement(tileset.start.number, 0, 0, 0),))
        return can_complete(begun, tileset, players)
    if is_finished(track, tileset):
        return True
    edge = frontier(track, tileset, composed)
    if edge is None:
        return False
    if players is None:
        return True
    used = set(track.tiles)
    left = [t for t in tileset.path_tiles if t.number not in used]
    wanted = path_tiles_for_players(players) - _path_count(track, tileset)
    if wanted < 0:
        return False
    return _can_complete(edge.cell, edge.entry, edge.occupied, left, wanted)


def check_building_rule(
    track: Track,
    tileset: TileSet,
    players: int,
    *,
    partial: bool = False,
    composed: TrackGraph | None = None,
) -> list[Problem]:
    """Problems with ``track`` under the optional track-building rule for ``players``.

    ``tile-count``: the number of path tiles is not the rule's (with ``partial``, only too
    many is a problem); ``no-space-for-next``: a tile left no free cell past its exit when
    it was placed; ``dead-end`` (``partial`` only): the tiles left cannot complete it.
    """
    wanted = path_tiles_for_players(players)
    problems = []
    count = _path_count(track, tileset)
    if count > wanted or (count < wanted and not partial):
        problems.append(
            Problem(
                "tile-count",
                f"{players} players put {wanted} path tiles in play; this track has {count}. "
                + ("Remove " if count > wanted else "Add ")
                + f"{abs(count - wanted)} path tile(s).",
                rule="building",
            )
        )
    placed = composed.placed if composed is not None else place_tiles(track, tileset)
    problems.extend(_no_space_problems(track, placed))
    if partial and not problems and not can_complete(track, tileset, players, composed):
        problems.append(_dead_end(track, "building"))
    return problems


def _dead_end(track: Track, rule: Rule) -> Problem:
    """The problem of a partial track that cannot be completed: under the building rule
    (the path tiles still wanted do not fit), or with no rule (not even the finish does)."""
    last = len(track.placements) - 1 if track.placements else None
    if rule == "building":
        return Problem(
            "dead-end",
            "no way remains to place the path tiles still wanted and the finish with the "
            "tiles left: every continuation runs into the track. Undo the last tile.",
            rule="building",
            placement=last,
        )
    return Problem(
        "dead-end",
        "the path of the last tile runs into the track, so not even the finish fits "
        "after it. Undo it or turn it another way.",
        rule="structure",
        placement=last,
        tile=track.placements[-1].tile if track.placements else None,
    )


def track_problems(
    track: Track,
    tileset: TileSet,
    composed: TrackGraph,
    *,
    players: int | None,
    partial: bool,
    broken: bool,
) -> list[Problem]:
    """Yummell's own problems with a track, after the structural ones every game shares
    (``broken`` says there were some): the building rule for ``players``, and for a partial
    track whether the path can still go on."""
    problems: list[Problem] = []
    if players is not None:
        building = check_building_rule(track, tileset, players, partial=partial, composed=composed)
        # a dead end means "well built, but no way on": not said of a track already broken
        problems += [p for p in building if not (broken and p.code == "dead-end")]
    elif (
        partial
        and track.placements
        and not broken
        and not can_complete(track, tileset, composed=composed)
    ):
        problems.append(_dead_end(track, "structure"))
    return problems


def _no_space_problems(track: Track, placed: Iterable[PlacedTile]) -> list[Problem]:
    problems = []
    for item in placed:
        exit_side = item.exit_side()
        if exit_side is None:
            continue
        beyond = neighbour(item.placement.cell, exit_side)
        earlier = {p.cell: n for n, p in enumerate(track.placements[: item.index + 1])}
        if beyond in earlier:
            blocker = track.placements[earlier[beyond]]
            problems.append(
                Problem(
                    "no-space-for-next",
                    f"{item.placement.describe()} leaves by its {exit_side.value} edge into "
                    f"({beyond[0]}, {beyond[1]}), which tile {blocker.tile} already holds, so "
                    "no tile could be connected after it. Rotate it (a straight turned 180° "
                    "or a curve turning the other way) or place another tile there.",
                    rule="building",
                    placement=item.index,
                    tile=item.placement.tile,
                )
            )
    return problems


@dataclass(frozen=True)
class DesignSpace:
    """How many complete legal tracks the rule allows, and how many placing sequences
    obey it at every step yet run into a dead end before the last path tile."""

    players: int
    legal_tracks: int
    dead_ends: int


# Placing steps a design space may hold (each placement of every sequence the rule allows,
# completed or dead-ended): the bundled tiles' 8-player space holds 15.7 million. Counting walks
# shapes, not tiles, so it stays quick; but a space much larger is more than anyone could
# stream through or check, so a tile set with many more path tiles is refused with a message.
MAX_SPACE_STEPS = 100_000_000

# A step of a path's shape: the kind of path tile placed (BuildingTree.kind_of names it)
# and the side its path leaves by.
Step = tuple[int, Side]


class Option(NamedTuple):
    """A legal next placement while walking the building rule's tree: the path tile, its
    rotation, where the next tile goes (``cell``, entered across ``entry``), the path's
    shape so far, and how many complete legal tracks begin with it."""

    tile: int
    rotation: int
    cell: tuple[int, int]
    entry: Side
    shape: tuple[Step, ...]
    completions: int


@dataclass(frozen=True)
class BuildingTree:
    """Every placing sequence the building rule allows for ``players``, counted once.

    The start tile sits at (0, 0), rotation 0; the first path tile goes at ``first``
    (entered across ``first_entry``). Path tiles that turn alike (every straight, every
    curve) lead the path to the same cells, so the count walks the path's *shape* — the
    kind of tile and the side it leaves by — and multiplies by how many tiles of that kind
    are left and how many of their rotations leave that way: thousands of steps rather
    than the millions of tracks they stand for. ``completions`` maps each shape to the
    number of complete legal tracks that begin with it (shapes with none are left out).

    >>> from trackkit.games import load_tileset
    >>> tree = building_tree(3, load_tileset())
    >>> tree.legal_tracks, tree.completions[()]
    (2676, 2676)
    """

    players: int
    wanted: int
    paths: tuple[Tile, ...]
    kind_of: Mapping[int, int]
    moves: Mapping[tuple[int, Side], tuple[tuple[int, Side], ...]]
    first: tuple[int, int]
    first_entry: Side
    completions: Mapping[tuple[Step, ...], int]
    legal_tracks: int
    dead_ends: int
    steps: int

    def options(
        self,
        cell: tuple[int, int],
        entry: Side,
        occupied: Collection[tuple[int, int]],
        used: Collection[int],
        shape: tuple[Step, ...],
    ) -> Iterator[Option]:
        """The legal placements of a path tile at ``cell`` (``occupied`` holds every cell
        placed so far and ``cell`` itself; ``used`` the tiles placed), in the order the
        design space is walked: path tiles in tile-set order, then rotations in
        ``ROTATIONS`` order. Each leaves a free cell past its exit."""
        for tile in self.paths:
            if tile.number in used:
                continue
            kind = self.kind_of[tile.number]
            for rotation, out in self.moves[(tile.number, entry)]:
                beyond = neighbour(cell, out)
                if beyond in occupied:
                    continue
                step = (*shape, (kind, out))
                yield Option(
                    tile.number,
                    rotation,
                    beyond,
                    out.opposite,
                    step,
                    self.completions.get(step, 0),
                )


def building_tree(players: int, tileset: TileSet) -> BuildingTree:
    """The building rule's tree for ``players`` with ``tileset`` (see :class:`BuildingTree`);
    the count is worked out once per kind of tile set and player count in a process.

    Refused with a :class:`TrackkitError` if the space holds over ``MAX_SPACE_STEPS``
    placing steps.
    """
    wanted = path_tiles_for_players(players)
    paths = tuple(tileset.path_tiles)
    moves = {
        (tile.number, entry): tuple((r, out) for r, out in orientations(tile, entry) if out)
        for tile in paths
        for entry in Side
    }
    # the sides a kind of tile can leave by from each entry, with how many rotations do
    turns_of = {
        tile.number: tuple(
            tuple(sorted(Counter(out for _, out in moves[(tile.number, e)]).items())) for e in Side
        )
        for tile in paths
    }
    kinds = list(dict.fromkeys(turns_of.values()))
    kind_of = {number: kinds.index(turns) for number, turns in turns_of.items()}
    sizes = tuple(sum(1 for k in kind_of.values() if k == n) for n in range(len(kinds)))
    exit_side = tileset.start.junctions[0].side
    count = _count_shapes(tuple(kinds), sizes, exit_side, wanted)
    if count.steps > MAX_SPACE_STEPS:
        raise TrackkitError(
            f"the design space of {tileset.name!r} for {players} players is too large to "
            f"count here (over {MAX_SPACE_STEPS:,} placing steps); the bundled tiles hold "
            "under a fifth of that for 8 players"
        )
    return BuildingTree(
        players=players,
        wanted=wanted,
        paths=paths,
        kind_of=kind_of,
        moves=moves,
        first=neighbour((0, 0), exit_side),
        first_entry=exit_side.opposite,
        completions=count.completions,
        legal_tracks=count.completions.get((), 0),
        dead_ends=count.dead_ends,
        steps=count.steps,
    )


class _ShapeCount(NamedTuple):
    completions: Mapping[tuple[Step, ...], int]
    dead_ends: int
    steps: int


Turns = tuple[tuple[tuple[Side, int], ...], ...]  # per entry side: (exit side, rotations)


@lru_cache(maxsize=32)
def _count_shapes(
    kinds: tuple[Turns, ...], sizes: tuple[int, ...], exit_side: Side, wanted: int
) -> _ShapeCount:
    """Walk every shape of path the rule allows: ``kinds`` says how each kind of path tile
    turns (per entry side, in ``Side`` order), ``sizes`` how many tiles of each kind there
    are; the start tile at (0, 0) leaves by ``exit_side``."""
    sides = tuple(Side)
    completions: dict[tuple[Step, ...], int] = {}
    left_of_kind = list(sizes)
    occupied = {(0, 0)}

    def walk(
        shape: tuple[Step, ...], cell: tuple[int, int], entry: Side, left: int
    ) -> tuple[int, int, int]:
        """Complete tracks, dead ends and placing steps from here, per tile sequence."""
        if left == 0:
            completions[shape] = 1
            return 1, 0, 1
        legal = dead = 0
        steps = 1
        moved = False
        occupied.add(cell)
        for kind, turns in enumerate(kinds):
            tiles = left_of_kind[kind]
            if tiles == 0:
                continue
            left_of_kind[kind] -= 1
            for out, rotations in turns[sides.index(entry)]:
                beyond = neighbour(cell, out)
                if beyond in occupied:
                    continue
                moved = True
                below = walk((*shape, (kind, out)), beyond, out.opposite, left - 1)
                ways = tiles * rotations
                legal += ways * below[0]
                dead += ways * below[1]
                steps += ways * below[2]
            left_of_kind[kind] += 1
        occupied.discard(cell)
        if not moved:
            dead += 1
        if legal:
            completions[shape] = legal
        return legal, dead, steps

    _, dead, steps = walk((), neighbour((0, 0), exit_side), exit_side.opposite, wanted)
    return _ShapeCount(MappingProxyType(completions), dead, steps)


def explore_design_space(players: int, tileset: TileSet) -> DesignSpace:
    """Count every legal track for ``players`` with the start tile's exit fixed.

    Every choice and order of path tiles and both placements of each are counted, as in
    SPEC.md §2 (3 players: 2,676 tracks), by the walk of :func:`building_tree`.
    """
    tree = building_tree(players, tileset)
    return DesignSpace(players, tree.legal_tracks, tree.dead_ends)
