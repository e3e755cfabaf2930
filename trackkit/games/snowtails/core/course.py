"""The course: a track's spaces as driven, their progress, and the graph of moves between
them (SNOWTAILS.md §3.5, §5.2).

**Progress.** The segments of the course, in the order they are driven, take the
intervals [0, 1), [1, 2), … Within a segment each lane's spaces split the interval evenly,
so on a straight the rows line up across the lanes and in a corner they are staggered
(a corner of 2 inside spaces and 6 outside ones: inside spaces are three times as long).
Progress is exact (:class:`~fractions.Fraction`). Every segment ends on a full boundary, as
the rulebook's corners end on full straight rows [D from G].

**Moves.** From a space, ``ahead`` enters the next space of the same lane; ``drift_left``
and ``drift_right`` enter the space of the neighbouring lane that spans this space's
front edge (back ≤ front edge < its front): "the first space that lets you go forward,
judged by the front edges" [D, §3.5]. On a straight that is the diagonal neighbour. A move
with no space to enter records its blocker on the node (``ahead_blocker``…): ``edge`` (no
lane there, or the side of a tight corner), ``building``, ``marker``, or ``end`` (past the
last open space).

**Tight corners [R].** The rulebook's figure is missing. trackkit's reconstruction (the
reading ``tight_corners = "every-lane"``, the default): in a tight corner the last space of
every lane faces the track side, so ``ahead`` there is an ``edge`` and a sled leaves the
corner only by drifting (rulebook G: following the lanes without drifting runs into the
side). The reading ``"outer-lane"`` makes only the corner's outermost lane run into the
side; the lanes further in continue ahead (:class:`CourseReadings`).

**Reversal.** The file gives board addresses (:mod:`.track`). Driving a route reversed
takes its segments in the opposite order, mirrors the lanes (board lane 1 becomes the
rightmost), runs each lane's spaces backwards and turns each corner the other way;
nodes keep their board address as key, with the lane in the direction of travel as
attribute ``lane``.

**Node attributes:** ``segment``, ``kind`` (straight|corner), ``lane`` (1 = left in the
direction of travel), ``lanes``, ``back``, ``front``, ``row`` (straights), ``corner`` and
``turn`` (corners, as driven), ``tight``, ``corner_entry``, ``tiebreak_turn`` (the turn of
this or the next corner), ``is_start``, ``beyond_finish``, ``trigger_of`` (building kinds),
``ahead_blocker``, ``drift_left_blocker``, ``drift_right_blocker`` and ``rank``
(:func:`.position.rank_key`). Edges carry ``kind``. Trees are not in the graph: they are
race state, removed when hit.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> course = build_course(load_preset("husky-oval"))
>>> course.move(("home", 3, 0), "drift_left")
Address(segment='home', lane=2, index=1)
>>> course.move(("home", 1, 0), "drift_left")
'edge'
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any, Literal, NamedTuple, TypeVar

import networkx as nx

from trackkit.errors import shown
from trackkit.games.snowtails.core.position import lanes_from_outside, rank_key
from trackkit.games.snowtails.core.track import Address, Building, Segment, SnowTrack, Turn
from trackkit.limits import BOARD_SPACES

Sled = TypeVar("Sled", bound=Hashable)  # whatever names a sled

Blocker = Literal["edge", "building", "marker", "end"]
Move = Literal["ahead", "drift_left", "drift_right"]
MOVES: tuple[Move, ...] = ("ahead", "drift_left", "drift_right")
_LANE_STEP = {"ahead": 0, "drift_left": -1, "drift_right": +1}
_OTHER_TURN: dict[str, Turn] = {"left": "right", "right": "left"}

TightCorners = Literal["every-lane", "outer-lane"]
TieBreak = Literal["inside", "leftmost"]
TIGHT_CORNERS: tuple[TightCorners, ...] = ("every-lane", "outer-lane")
TIE_BREAKS: tuple[TieBreak, ...] = ("inside", "leftmost")
_TRACK_TIEBREAK = {"inside": "inside", "left": "leftmost"}  # the track file's words


class CourseReadings(NamedTuple):
    """The readings of the rulebook a course is composed under (the race options'
    ``tight_corners`` and ``tie_break``, :mod:`.face.readings`): which lanes of a tight
    corner run into the side, and who leads when two spaces are level (``inside``: the
    inside lane of this or the next corner; ``leftmost``: lane 1)."""

    tight_corners: TightCorners = "every-lane"
    tie_break: TieBreak = "inside"

    @classmethod
    def of(
        cls, track: SnowTrack, tight_corners: str = "every-lane", tie_break: str | None = None
    ) -> CourseReadings:
        """The readings for ``track``: ``tie_break`` None is the track file's own."""
        chosen = tie_break if tie_break is not None else _TRACK_TIEBREAK[track.tiebreak]
        return cls(tight_corners, chosen)  # type: ignore[arg-type]

    @property
    def rank_tiebreak(self) -> str:
        """The tie-break as :func:`.position.rank_key` takes it."""
        return "left" if self.tie_break == "leftmost" else "inside"


DEFAULT_READINGS = CourseReadings()


@dataclass(frozen=True)
class Space:
    """One space of the course, open or closed, as driven: its lane in the direction of
    travel, its progress interval, its segment and that segment's place in the course."""

    address: Address
    lane: int
    back: Fraction
    front: Fraction
    segment: Segment
    position: int
    step: int  # which space of its lane in its segment, counted in the direction of travel

    @property
    def last_in_segment(self) -> bool:
        return self.front == self.position + 1


@dataclass(frozen=True)
class Branch:
    """A segment from which more than one open segment continues."""

    segment: str
    continuations: tuple[str, ...]


@dataclass(frozen=True)
class Course:
    """A track composed once, for the validator and (later) the engine.

    ``route`` is the open segments in driving order; ``segments`` the part of it that is
    raced (the route up to the finish straight); ``spaces`` every space of those segments,
    ``closed`` the ones that are no node and why; ``lanes`` each lane's spaces in progress
    order; ``graph`` the frozen DiGraph of open spaces. ``start_line`` and ``finish_line``
    are progress values, None when the track's start or finish cannot be placed.
    """

    track: SnowTrack
    route: tuple[str, ...]
    segments: tuple[Segment, ...]
    branches: tuple[Branch, ...]
    spaces: Mapping[Address, Space]
    closed: Mapping[Address, Blocker]
    lanes: Mapping[int, tuple[Space, ...]]
    graph: nx.DiGraph
    start_line: Fraction | None
    finish_line: Fraction | None
    readings: CourseReadings = DEFAULT_READINGS

    @property
    def start_spaces(self) -> tuple[Address, ...]:
        return tuple(n for n, attrs in self.graph.nodes(data=True) if attrs["is_start"])

    @property
    def finish_spaces(self) -> tuple[Address, ...]:
        return tuple(n for n, attrs in self.graph.nodes(data=True) if attrs["beyond_finish"])

    def move(self, address: Iterable[Any], kind: Move) -> Address | Blocker:
        """Where ``kind`` leads from the open space ``address``: a space, or its blocker."""
        node = Address(*address)
        for _, target, edge_kind in self.graph.out_edges(node, data="kind"):
            if edge_kind == kind:
                return target
        return self.graph.nodes[node][f"{kind}_blocker"]


# --- the route --------------------------------------------------------------------------


def _continuations(track: SnowTrack) -> dict[str, list[Segment]]:
    """For each segment, the segments listed as continuing from it."""
    following: dict[str, list[Segment]] = {s.id: [] for s in track.segments}
    for before, segment in pairwise(track.segments):
        following[segment.after or before.id].append(segment)
    return following


def _closed_by_markers(segment: Segment, markers: frozenset[Address]) -> bool:
    """A branch is closed when a marker stands on the first space of each of its lanes."""
    lanes = range(1, segment.lanes + 1)
    return all(Address(segment.id, lane, 0) in markers for lane in lanes)


def route_of(track: SnowTrack) -> tuple[tuple[Segment, ...], tuple[Branch, ...]]:
    """The open segments from the first on, in board order, and the forks still open.

    At a fork the route follows the first segment listed (the validator reports the fork).
    """
    following = _continuations(track)
    markers = frozenset(track.markers)
    route = [track.segments[0]]
    branches = []
    while True:
        open_next = [s for s in following[route[-1].id] if not _closed_by_markers(s, markers)]
        if not open_next:
            break
        if len(open_next) > 1:
            branches.append(Branch(route[-1].id, tuple(s.id for s in open_next)))
        route.append(open_next[0])
    return tuple(route), tuple(branches)


def _driven(route: tuple[Segment, ...], direction: str) -> tuple[Segment, ...]:
    return route if direction == "forward" else route[::-1]


def finish_position(track: SnowTrack, driven: tuple[Segment, ...]) -> tuple[int, int] | None:
    """The finish straight's place in ``driven`` and the line as a row boundary counted in
    the direction of travel; None if the finish names no straight of the route or a
    boundary it lacks."""
    finish = track.finish
    at = next((i for i, s in enumerate(driven) if s.id == finish.segment), None)
    if at is None or driven[at].rows is None:
        return None
    rows = driven[at].rows
    assert rows is not None
    if not 0 <= finish.line <= rows:
        return None
    return at, finish.line if track.direction == "forward" else rows - finish.line


# --- spaces -------------------------------------------------------------------------------


def _lay_out(segments: tuple[Segment, ...], direction: str) -> dict[Address, Space]:
    """Every space of ``segments`` (in driving order) with its lane and progress as driven."""
    spaces = {}
    for position, segment in enumerate(segments):
        for board_lane in range(1, segment.lanes + 1):
            count = segment.spaces_in_lane(board_lane)
            lane = board_lane if direction == "forward" else segment.lanes + 1 - board_lane
            for index in range(count):
                step = index if direction == "forward" else count - 1 - index
                address = Address(segment.id, board_lane, index)
                spaces[address] = Space(
                    address,
                    lane,
                    position + Fraction(step, count),
                    position + Fraction(step + 1, count),
                    segment,
                    position,
                    step,
                )
    return spaces


def _closed_spaces(
    track: SnowTrack,
    spaces: Mapping[Address, Space],
    finish: tuple[int, int] | None,
) -> dict[Address, Blocker]:
    """The spaces of the course that are no node: past the run-off, under a building, or
    under a marker (a building wins over a marker on the same space)."""
    closed: dict[Address, Blocker] = {}
    if finish is not None:
        position, line = finish
        last_open = line + track.finish.runoff_rows
        for address, space in spaces.items():
            if space.position == position and space.step >= last_open:
                closed[address] = "end"
    for address in track.markers:
        if address in spaces:
            closed.setdefault(address, "marker")
    for building in track.buildings:
        for address in building.footprint():
            if address in spaces and closed.get(address) != "end":
                closed[address] = "building"
    return closed


def _lanes(spaces: Iterable[Space]) -> dict[int, tuple[Space, ...]]:
    by_lane: dict[int, list[Space]] = {}
    for space in spaces:
        by_lane.setdefault(space.lane, []).append(space)
    return {lane: tuple(sorted(items, key=lambda s: s.back)) for lane, items in by_lane.items()}


# --- the graph ----------------------------------------------------------------------------


def _driven_turn(segment: Segment, direction: str) -> Turn | None:
    if segment.turn is None or direction == "forward":
        return segment.turn
    return _OTHER_TURN[segment.turn]


def _next_corner_turns(segments: tuple[Segment, ...], direction: str) -> list[Turn | None]:
    """For each place in the course, the turn of the corner there or of the next one."""
    turns: list[Turn | None] = [None] * len(segments)
    upcoming: Turn | None = None
    for position in range(len(segments) - 1, -1, -1):
        upcoming = _driven_turn(segments[position], direction) or upcoming
        turns[position] = upcoming
    return turns


class _Lookup:
    """Finds the space a move enters: each lane's spaces and their back edges, for bisection."""

    def __init__(
        self,
        segments: tuple[Segment, ...],
        lanes: Mapping[int, tuple[Space, ...]],
        closed: Mapping[Address, Blocker],
        direction: str = "forward",
        tight_corners: str = "every-lane",
    ) -> None:
        self.segments = segments
        self.lanes = lanes
        self.backs = {lane: [s.back for s in spaces] for lane, spaces in lanes.items()}
        self.closed = closed
        self.direction = direction
        self.every_lane = tight_corners == "every-lane"

    def runs_into_side(self, space: Space) -> bool:
        """Whether ``ahead`` from ``space`` hits the side of a tight corner [R]: from the
        last space of every lane, or of the outermost lane only (the reading)."""
        segment = space.segment
        if not (segment.tight and space.last_in_segment):
            return False
        if self.every_lane:
            return True
        turn = _driven_turn(segment, self.direction)
        return turn is not None and lanes_from_outside(space.lane, segment.lanes, turn) == 1

    def target(self, space: Space, kind: Move) -> Address | Blocker:
        """The space a move from ``space`` enters, or what stops it."""
        if kind == "ahead" and self.runs_into_side(space):
            return "edge"  # a tight corner's lanes run into the side [R]
        lane = space.lane + _LANE_STEP[kind]
        edge = space.front
        position = int(edge)  # progress is never negative
        beyond = position >= len(self.segments)
        if not 1 <= lane <= (space.segment if beyond else self.segments[position]).lanes:
            return "edge"
        if beyond:
            return "end"
        in_lane = self.lanes.get(lane, ())
        at = bisect.bisect_right(self.backs.get(lane, []), edge) - 1
        if at < 0 or not in_lane[at].back <= edge < in_lane[at].front:
            return "edge"  # the lane is missing here (segments of different widths)
        address = in_lane[at].address
        return self.closed.get(address, address)


def _triggers(
    buildings: Iterable[Building],
    spaces: Mapping[Address, Space],
    lanes: Mapping[int, tuple[Space, ...]],
) -> dict[Address, set[str]]:
    """The trigger spaces of each building: the spaces orthogonally next to it (rulebook F),
    which for the Tavern are the edge-lane spaces beside it."""
    found: dict[Address, set[str]] = {}
    for building in buildings:
        for address in _trigger_spaces(building, spaces, lanes):
            found.setdefault(address, set()).add(building.kind)
    return found


def _trigger_spaces(
    building: Building,
    spaces: Mapping[Address, Space],
    lanes: Mapping[int, tuple[Space, ...]],
) -> set[Address]:
    if building.side is not None:
        first = next((s for s in spaces.values() if s.address.segment == building.segment), None)
        if first is None:
            return set()
        edge_lane = 1 if building.side == "left" else first.segment.lanes
        rows = range(building.rows[0], building.rows[1] + 1)
        return {Address(building.segment, edge_lane, row) for row in rows}
    footprint = set(building.footprint())
    near: set[Address] = set()
    for address in footprint:
        if address not in spaces:
            continue
        near.add(address._replace(lane=address.lane - 1))
        near.add(address._replace(lane=address.lane + 1))
        near.update(_behind_and_ahead(spaces[address], lanes))
    return near - footprint


def _behind_and_ahead(space: Space, lanes: Mapping[int, tuple[Space, ...]]) -> list[Address]:
    in_lane = lanes[space.lane]
    at = in_lane.index(space)
    found = []
    if at > 0 and in_lane[at - 1].front == space.back:
        found.append(in_lane[at - 1].address)
    if at + 1 < len(in_lane) and in_lane[at + 1].back == space.front:
        found.append(in_lane[at + 1].address)
    return found


def board_spaces(track: SnowTrack) -> int:
    """The spaces composing and checking ``track`` enumerates: every space of its segments
    and every space its buildings cover, counted from the file's numbers without listing
    a space (what :data:`trackkit.limits.BOARD_SPACES` bounds).

    >>> from trackkit.games.snowtails.core.presets import load_preset
    >>> board_spaces(load_preset("husky-oval"))
    190
    """
    segments = sum(s.spaces_in_lane(lane) for s in track.segments for lane in range(1, s.lanes + 1))
    covered = sum(
        (b.lanes[1] - b.lanes[0] + 1) * (b.rows[1] - b.rows[0] + 1)
        for b in track.buildings
        if b.lanes is not None
    )
    return segments + covered


def build_course(track: SnowTrack, readings: CourseReadings | None = None) -> Course:
    """Compose ``track`` once: its route, spaces and move graph (see the module docstring),
    under ``readings`` (None: the defaults, with the track file's own tie-break).

    Never fails on a loaded track within the validation limit: positions off the track
    are ignored here and reported by the validator. A board over the limit
    (:data:`trackkit.limits.BOARD_SPACES`) is refused first, with a
    :class:`~trackkit.limits.CostLimitError`, before any space is listed.
    """
    BOARD_SPACES.check(board_spaces(track), f"the board of {shown(track.source or track.name)}")
    readings = readings if readings is not None else CourseReadings.of(track)
    route, branches = route_of(track)
    driven = _driven(route, track.direction)
    finish = finish_position(track, driven)
    segments = driven[: finish[0] + 1] if finish is not None else driven
    spaces = _lay_out(segments, track.direction)
    closed = _closed_spaces(track, spaces, finish)
    lanes = _lanes(spaces.values())
    start_line = _start_line(track, spaces)
    finish_line = None
    if finish is not None:
        rows = segments[finish[0]].rows
        assert rows is not None
        finish_line = finish[0] + Fraction(finish[1], rows)

    lookup = _Lookup(segments, lanes, closed, track.direction, readings.tight_corners)
    triggers = _triggers(track.buildings, spaces, lanes)
    upcoming = _next_corner_turns(segments, track.direction)
    graph = nx.DiGraph()
    edges = []
    for address, space in spaces.items():
        if address in closed:
            continue
        attrs = _node_attributes(space, track.direction, upcoming[space.position])
        attrs["is_start"] = start_line is not None and _on_start_row(track, space)
        attrs["beyond_finish"] = finish_line is not None and space.back >= finish_line
        attrs["trigger_of"] = frozenset(triggers.get(address, ()))
        for kind in MOVES:
            target = lookup.target(space, kind)
            blocked = isinstance(target, str)
            attrs[f"{kind}_blocker"] = target if blocked else None
            if not blocked:
                edges.append((address, target, kind))
        attrs["rank"] = rank_key(attrs, readings.rank_tiebreak)
        graph.add_node(address, **attrs)
    for source, target, kind in edges:
        graph.add_edge(source, target, kind=kind)
    return Course(
        track=track,
        route=tuple(s.id for s in driven),
        segments=segments,
        branches=branches,
        spaces=spaces,
        closed=closed,
        lanes=lanes,
        graph=nx.freeze(graph),
        start_line=start_line,
        finish_line=finish_line,
        readings=readings,
    )


def _node_attributes(space: Space, direction: str, upcoming: Turn | None) -> dict[str, Any]:
    segment = space.segment
    turn = _driven_turn(segment, direction)
    return {
        "segment": segment.id,
        "kind": segment.kind,
        "lane": space.lane,
        "lanes": segment.lanes,
        "back": space.back,
        "front": space.front,
        "row": space.step if not segment.is_corner else None,
        "corner": segment.id if segment.is_corner else None,
        "turn": turn,
        "tight": segment.tight,
        "corner_entry": Fraction(space.position) if segment.is_corner else None,
        "tiebreak_turn": upcoming,
    }


def _start_line(track: SnowTrack, spaces: Mapping[Address, Space]) -> Fraction | None:
    """The start line (the front edge of the start row), None if the row is not there."""
    row = [
        s for a, s in spaces.items() if a.segment == track.start.segment and _on_start_row(track, s)
    ]
    if not row or row[0].segment.is_corner:
        return None
    return row[0].front


def _on_start_row(track: SnowTrack, space: Space) -> bool:
    return (
        space.address.segment == track.start.segment
        and space.address.index == track.start.row
        and not space.segment.is_corner
    )


def race_order(course: Course, positions: Mapping[Sled, Address]) -> list[Sled]:
    """The sleds leader first, by the rank of the space each is on. Sleds on the same
    space (the start row in round 1) keep the order ``positions`` lists them in."""
    ranks = {sled: course.graph.nodes[address]["rank"] for sled, address in positions.items()}
    return sorted(positions, key=ranks.__getitem__, reverse=True)
