"""A course as the engine's arrays: moves and blockers, triggers, the run-off, the rank as
an integer (T11 in the engine), steps to go and the reach bound (SNOWTAILS.md §5.2-§5.3)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from snowtails_fixtures import base_data, course_of, track_of

from trackkit.games.snowtails.core.board import (
    AHEAD,
    BLOCKERS,
    BOTHY,
    CHAPEL,
    DRIFT_LEFT,
    DRIFT_RIGHT,
    EDGE,
    KENNELS,
    MAX_BONUS,
    TAVERN,
    UNREACHABLE,
    compile_course,
)
from trackkit.games.snowtails.core.course import MOVES, build_course
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_move_table_is_the_course_graph(slug: str) -> None:
    compiled = compile_course(load_preset(slug))
    course, board = compiled.course, compiled.board
    assert board.move.shape == (len(course.graph), 3)
    for node, address in enumerate(compiled.addresses):
        for kind, name in enumerate(MOVES):
            target = course.move(address, name)
            want = BLOCKERS[target] if isinstance(target, str) else compiled.node(target)
            assert board.move[node, kind] == want


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_rank_integer_orders_spaces_as_the_rank_key(slug: str) -> None:
    compiled = compile_course(load_preset(slug))
    graph, rank = compiled.course.graph, compiled.board.rank
    keys = [graph.nodes[a]["rank"] for a in compiled.addresses]
    for i in range(0, len(keys), 7):
        for j in range(0, len(keys), 5):
            assert (rank[i] > rank[j]) == (keys[i] > keys[j])
            assert (rank[i] == rank[j]) == (keys[i] == keys[j])


def test_t11_in_a_tight_corner_the_outermost_lane_ranks_first() -> None:
    segments = base_data()["segments"]
    segments[1]["tight"] = True
    data = base_data(
        segments=segments,
        direction="reversed",
        start={"segment": "c", "row": 5},
        finish={"segment": "a", "line": 3},
    )
    compiled = compile_course(track_of(data))
    rank = compiled.board.rank
    # driven reversed the corner turns right: board lane 1 is inside, board lane 5 outside
    outer, middle, inner = (compiled.node(("bend", lane, 0)) for lane in (5, 3, 1))
    assert rank[outer] > rank[middle] > rank[inner]
    before, after = compiled.node(("c", 3, 0)), compiled.node(("a", 3, 5))
    assert rank[before] < rank[inner] and rank[outer] < rank[after]


def test_blockers_triggers_start_and_run_off() -> None:
    course = course_of(
        buildings=[
            {"kind": "chapel", "segment": "a", "lanes": [2, 3], "rows": [2, 3]},
            {"kind": "tavern", "segment": "a", "side": "right", "rows": [2, 3]},
        ],
        markers=[["c", 5, 1]],
        trees=[["a", 4, 4], ["c", 2, 2]],
    )
    compiled = compile_course(course)
    board = compiled.board
    assert board.move[compiled.node(("a", 2, 1)), AHEAD] == BLOCKERS["building"]
    assert board.move[compiled.node(("c", 5, 0)), AHEAD] == BLOCKERS["marker"]
    assert board.move[compiled.node(("c", 2, 5)), AHEAD] == BLOCKERS["end"]
    assert board.move[compiled.node(("a", 1, 0)), DRIFT_LEFT] == EDGE
    assert board.trigger[compiled.node(("a", 1, 2))] == CHAPEL
    assert board.trigger[compiled.node(("a", 5, 3))] == TAVERN
    assert board.trigger[compiled.node(("a", 4, 2))] == CHAPEL  # beside the chapel
    assert not board.trigger[compiled.node(("a", 1, 1))] & (KENNELS | BOTHY)
    assert [compiled.address(n) for n in board.start] == [("a", lane, 0) for lane in range(1, 6)]
    assert {compiled.address(n) for n in np.flatnonzero(board.beyond)} == {
        ("c", lane, row) for lane in range(1, 6) for row in (3, 4, 5)
    } - {("c", 5, 1)}
    assert {compiled.address(n) for n in np.flatnonzero(board.trees)} == {("a", 4, 4), ("c", 2, 2)}


def test_steps_to_go_count_down_to_the_line_and_past_it() -> None:
    compiled = compile_course(course_of())
    togo, node = compiled.board.togo, compiled.node
    assert togo[node(("c", 3, 2))] == 1 and togo[node(("c", 3, 3))] == 0
    assert togo[node(("c", 3, 5))] == -2
    assert togo[node(("a", 1, 0))] == togo[node(("a", 1, 1))] + 1
    assert (togo < UNREACHABLE).all()  # the validator's reachability, from every space
    # the inside of the corner is shorter than its outside
    assert togo[node(("bend", 1, 0))] < togo[node(("bend", 5, 2))]


def test_the_reach_bound_is_the_highest_rank_on_any_legal_way() -> None:
    compiled = compile_course(build_course(load_preset("chicane")))
    board = compiled.board
    rng = np.random.default_rng(3)
    for node in rng.integers(0, board.rank.shape[0], size=25):
        for steps, drifts, side, bonus in [(6, 2, 0, 2), (5, 3, 1, 0), (4, 0, 0, 3), (3, 3, 1, 1)]:
            kind = DRIFT_LEFT if side == 0 else DRIFT_RIGHT
            best = -1
            for chosen in combinations(range(steps), drifts):
                here = int(node)
                best = max(best, board.rank[here])
                plan = ["D" if i in chosen else "S" for i in range(steps)] + ["S"] * bonus
                for i, letter in enumerate(plan):
                    target = board.move[here, kind if letter == "D" else AHEAD]
                    if target < 0:
                        break
                    here = int(target)
                    best = max(best, board.rank[here])
                    assert i < steps + MAX_BONUS
            assert board.reach[node, steps, drifts, side, bonus] == best
