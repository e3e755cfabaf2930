"""A course as the integer arrays the race engine reads (SNOWTAILS.md §5.2-§5.3).

:func:`compile_course` numbers the spaces of a :class:`~.geometry.Course` (furthest back
first) and writes, per space:

- ``move[node, kind]``: the space an ``ahead`` (kind 0), ``drift_left`` (1) or
  ``drift_right`` (2) step enters, or a negative blocker code (:data:`EDGE`,
  :data:`BUILDING`, :data:`MARKER`, :data:`END`) when the step would hit the side;
- ``trigger[node]``: the buildings whose trigger space it is, as bit flags
  (:data:`KENNELS`, :data:`CHAPEL`, :data:`BOTHY`, :data:`TAVERN`);
- ``beyond[node]``: 1 for a run-off space beyond the finish line;
- ``rank[node]``: the race-position key (:func:`.position.rank_key`) as a dense integer:
  a higher number is further ahead, equal keys share a number;
- ``togo[node]``: the fewest steps from the space to one beyond the line, ignoring trees
  and sleds (0 or less beyond the line: minus the steps past its first run-off space).
  The race rules never read it; the smart policy measures progress with it.

``reach[node, steps, drifts, side, bonus]`` is the highest rank a sled on ``node`` can
stand on at any point of a move of ``steps`` steps with ``drifts`` lane changes to ``side``
(0 left, 1 right), followed by up to ``bonus`` spaces straight ahead: trees ignored, a
blocked step ending the move. A collision only cuts a move short, so no outcome ranks
higher: the greedy policy skips the plays whose bound is below its best option.

``start`` lists the start-row spaces, lane 1 (left) first; ``trees`` marks the spaces
with a tree when a race begins. Trees are race state (they are removed when hit), so the
engine copies this array into each race.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> compiled = compile_course(load_preset("husky-oval"))
>>> home_3 = compiled.node(("home", 3, 0))
>>> compiled.address(compiled.board.move[home_3, DRIFT_LEFT])
Address(segment='home', lane=2, index=1)
>>> int(compiled.board.move[compiled.node(("home", 1, 0)), DRIFT_LEFT]) == EDGE
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from trackkit.games.snowtails.core.course import MOVES, Course, CourseReadings, build_course
from trackkit.games.snowtails.core.track import Address, SnowTrack

# step kinds, the columns of Board.move
AHEAD, DRIFT_LEFT, DRIFT_RIGHT = 0, 1, 2

# what a blocked step hits (every one is a side collision, rulebook C)
EDGE, BUILDING, MARKER, END = -1, -2, -3, -4
BLOCKERS = {"edge": EDGE, "building": BUILDING, "marker": MARKER, "end": END}

# trigger flags, one bit per building (rulebook F)
KENNELS, CHAPEL, BOTHY, TAVERN = 1, 2, 4, 8
BUILDING_FLAGS = {"kennels": KENNELS, "chapel": CHAPEL, "bothy": BOTHY, "tavern": TAVERN}

UNREACHABLE = 10_000  # togo of a space from which the line cannot be crossed
MAX_SPEED, MAX_DRIFT, MAX_BONUS = 10, 5, 6  # two dogs of 5; 5 and 0; a die's 6


class Board(NamedTuple):
    """A course as arrays (see the module docstring); nodes are numbered 0..n-1."""

    move: np.ndarray  # (nodes, 3) target node, or a blocker code < 0
    trigger: np.ndarray  # (nodes,) building flags
    beyond: np.ndarray  # (nodes,) 1 beyond the finish line
    rank: np.ndarray  # (nodes,) dense race-position key, higher = further ahead
    togo: np.ndarray  # (nodes,) steps to cross the finish line (≤ 0 beyond it)
    lane: np.ndarray  # (nodes,) lane in the direction of travel, 1 = left
    reach: np.ndarray  # (nodes, steps, drifts, side, bonus) highest rank on the way
    start: np.ndarray  # (start spaces,) the start row, lane 1 first
    trees: np.ndarray  # (nodes,) 1 where a tree stands when a race begins


@dataclass(frozen=True)
class CompiledCourse:
    """A course and its arrays, with the board address of each node number."""

    course: Course
    board: Board
    addresses: tuple[Address, ...]
    index: Mapping[Address, int]

    @property
    def nodes(self) -> int:
        return len(self.addresses)

    def node(self, address: Iterable[Any]) -> int:
        """The node number of the open space at ``address``."""
        return self.index[Address(*address)]

    def address(self, node: int) -> Address:
        return self.addresses[int(node)]


def compile_course(
    track_or_course: SnowTrack | Course, readings: CourseReadings | None = None
) -> CompiledCourse:
    """The arrays of a course (composed from ``track_or_course`` if it is a track, under
    ``readings``; a course composed under other readings is composed again)."""
    course = (
        track_or_course
        if isinstance(track_or_course, Course)
        and (readings is None or track_or_course.readings == readings)
        else build_course(
            track_or_course.track if isinstance(track_or_course, Course) else track_or_course,
            readings,
        )
    )
    graph = course.graph
    addresses = tuple(sorted(graph.nodes, key=lambda a: (graph.nodes[a]["rank"], a)))
    index = {a: i for i, a in enumerate(addresses)}
    n = len(addresses)
    move = np.empty((n, len(MOVES)), dtype=np.int64)
    for i, address in enumerate(addresses):
        for kind, name in enumerate(MOVES):
            target = course.move(address, name)
            move[i, kind] = BLOCKERS[target] if isinstance(target, str) else index[target]
    attrs = [graph.nodes[a] for a in addresses]
    beyond = np.array([1 if a["beyond_finish"] else 0 for a in attrs], dtype=np.int64)
    trigger = np.array(
        [sum(BUILDING_FLAGS[kind] for kind in a["trigger_of"]) for a in attrs], dtype=np.int64
    )
    keys = sorted({a["rank"] for a in attrs})
    dense = {key: i for i, key in enumerate(keys)}
    rank = np.array([dense[a["rank"]] for a in attrs], dtype=np.int64)
    lane = np.array([a["lane"] for a in attrs], dtype=np.int64)
    start = sorted((graph.nodes[a]["lane"], index[a]) for a in course.start_spaces)
    trees = np.zeros(n, dtype=np.int64)
    for tree in course.track.trees:
        if tree in index:  # a tree off the course is the validator's business
            trees[index[tree]] = 1
    board = Board(
        move=move,
        trigger=trigger,
        beyond=beyond,
        rank=rank,
        togo=steps_to_go(move, beyond),
        lane=lane,
        reach=highest_rank_on_the_way(move, rank),
        start=np.array([node for _, node in start], dtype=np.int64),
        trees=trees,
    )
    return CompiledCourse(course, board, addresses, index)


def highest_rank_on_the_way(move: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The ``reach`` table (module docstring), built from the shortest moves up."""
    n = move.shape[0]
    reach = np.empty((n, MAX_SPEED + 1, MAX_DRIFT + 1, 2, MAX_BONUS + 1), dtype=np.int64)
    reach[...] = rank[:, None, None, None, None]

    def better_via(kind: int, table: np.ndarray, into: np.ndarray) -> None:
        target = move[:, kind]
        ok = target >= 0
        into[ok] = np.maximum(into[ok], table[target[ok]])

    for bonus in range(1, MAX_BONUS + 1):  # no step left: the bonus goes straight ahead
        better_via(AHEAD, reach[:, 0, 0, :, bonus - 1], reach[:, 0, 0, :, bonus])
    for steps in range(1, MAX_SPEED + 1):
        for drifts in range(min(steps, MAX_DRIFT) + 1):
            for side, kind in enumerate((DRIFT_LEFT, DRIFT_RIGHT)):
                here = reach[:, steps, drifts, side, :]
                if steps > drifts:
                    better_via(AHEAD, reach[:, steps - 1, drifts, side, :], here)
                if drifts > 0:
                    better_via(kind, reach[:, steps - 1, drifts - 1, side, :], here)
    return reach


def steps_to_go(move: np.ndarray, beyond: np.ndarray) -> np.ndarray:
    """Per node, the fewest steps to a space beyond the finish line (any step kind,
    trees and sleds ignored); beyond the line, minus the steps past the first run-off
    space reached. :data:`UNREACHABLE` where the line cannot be crossed."""
    n = move.shape[0]
    before: list[list[int]] = [[] for _ in range(n)]
    for node in range(n):
        for target in move[node]:
            if target >= 0:
                before[int(target)].append(node)
    togo = np.full(n, UNREACHABLE, dtype=np.int64)
    queue = deque(int(i) for i in np.flatnonzero(beyond))
    for node in queue:
        togo[node] = 0
    while queue:  # backwards from the run-off: steps to cross the line
        node = queue.popleft()
        for source in before[node]:
            if togo[source] == UNREACHABLE:
                togo[source] = togo[node] + 1
                queue.append(source)
    entries = [i for i in np.flatnonzero(beyond) if any(not beyond[s] for s in before[i])]
    past = {int(i): 0 for i in entries}
    queue = deque(past)
    while queue:  # forwards through the run-off: steps past the line
        node = queue.popleft()
        for target in move[node]:
            if target >= 0 and beyond[target] and int(target) not in past:
                past[int(target)] = past[node] + 1
                queue.append(int(target))
    for node, steps in past.items():
        togo[node] = -steps
    return togo
