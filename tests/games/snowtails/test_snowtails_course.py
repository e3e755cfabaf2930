"""The course graph: drift targets, blockers, reversal, tight corners, triggers, the route
(SNOWTAILS.md §3.5, §5.2, and the board examples of §3.15)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from snowtails_fixtures import base_data, course_of, track_of, walk

from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.track import Address


def _schedules(steps: int, drifts: int) -> list[str]:
    return [
        "".join("D" if i in chosen else "S" for i in range(steps))
        for chosen in combinations(range(steps), drifts)
    ]


# --- T02: "Corners like a dream" on the left90 fixture [2, 3, 4, 5, 6] ----------------------


def test_t02_drifting_early_in_the_corner_ends_one_space_ahead() -> None:
    course = course_of()
    start = ("a", 4, 5)  # lane 4, the last straight row before the corner
    early, stop = walk(course, start, "DDDSS")
    assert stop is None and early[-1] == ("c", 1, 0)  # the first straight row after it
    late, stop = walk(course, start, "SSDDD")
    assert stop is None and late[-1] == ("bend", 1, 1)  # the last corner space of lane 1
    assert course.move(late[-1], "ahead") == early[-1]  # exactly one space further


def test_t02_six_schedules_drifting_first_end_like_dddss_four_like_ssddd() -> None:
    course = course_of()
    ends = {plan: walk(course, ("a", 4, 5), plan)[0][-1] for plan in _schedules(5, 3)}
    assert len(ends) == 10
    assert {p for p, end in ends.items() if end == ("c", 1, 0)} == {p for p in ends if p[0] == "D"}
    assert {p for p, end in ends.items() if end == ("bend", 1, 1)} == {
        p for p in ends if p[0] == "S"
    }


def test_drift_targets_in_the_corner_span_the_front_edge() -> None:
    """Outward a drift advances a little (short outer spaces), inward a lot."""
    course = course_of()
    assert course.move(("a", 4, 5), "drift_left") == ("bend", 3, 0)  # [0, 1/4) holds 0
    assert course.move(("bend", 3, 0), "drift_left") == ("bend", 2, 0)  # 1/4 in [0, 1/3)
    assert course.move(("bend", 2, 0), "drift_left") == ("bend", 1, 0)  # 1/3 in [0, 1/2)
    assert course.move(("bend", 1, 0), "drift_right") == ("bend", 2, 1)  # 1/2 in [1/3, 2/3)
    assert course.move(("bend", 4, 4), "drift_right") == ("c", 5, 0)  # out of the corner
    nodes = course.graph.nodes
    for source, target, kind in course.graph.edges(data="kind"):
        if kind != "ahead":
            assert nodes[target]["back"] <= nodes[source]["front"] < nodes[target]["front"]


# --- T03, T05, T07: straights ---------------------------------------------------------------


def test_t05_a_drift_on_a_straight_is_diagonal() -> None:
    assert course_of().move(("a", 3, 2), "drift_left") == ("a", 2, 3)
    assert course_of().move(("a", 3, 2), "drift_right") == ("a", 4, 3)


def test_t03_tree_hugger_passes_between_the_trees_only_with_ssdssd() -> None:
    course = course_of(segments=[{"id": "a", "rows": 12}, {"id": "c", "rows": 6}])
    trees = {("a", 2, 2), ("a", 3, 3), ("a", 1, 5)}
    path, stop = walk(course, ("a", 3, 0), "SSDSSD")
    assert stop is None
    assert path == [("a", 3, 1), ("a", 3, 2), ("a", 2, 3), ("a", 2, 4), ("a", 2, 5), ("a", 1, 6)]
    clean = [p for p in _schedules(6, 2) if not trees & set(walk(course, ("a", 3, 0), p)[0])]
    assert clean == ["SSDSSD"]
    path, _ = walk(course, ("a", 3, 0), "DDSSSS")
    assert path[-1] == ("a", 1, 6) and trees & set(path) == {("a", 1, 5)}


def test_t07_drifting_into_the_side_stops_before_it() -> None:
    path, stop = walk(course_of(), ("a", 2, 0), "DDDSS")
    assert path == [("a", 1, 1)] and stop == "edge"


# --- blockers ----------------------------------------------------------------------------


def test_buildings_markers_and_the_end_of_the_run_off_are_blockers() -> None:
    course = course_of(
        buildings=[{"kind": "chapel", "segment": "a", "lanes": [2, 3], "rows": [2, 3]}],
        markers=[["a", 5, 4]],
    )
    assert ("a", 2, 2) not in course.graph and ("a", 5, 4) not in course.graph
    assert course.move(("a", 2, 1), "ahead") == "building"
    assert course.move(("a", 1, 1), "drift_right") == "building"
    assert course.move(("a", 5, 3), "ahead") == "marker"
    assert course.move(("c", 2, 5), "ahead") == "end"  # the last run-off row
    assert course.move(("c", 1, 5), "drift_left") == "edge"
    assert course.graph.nodes[("a", 2, 1)]["ahead_blocker"] == "building"


def test_the_route_is_closed_after_the_run_off_rows() -> None:
    course = course_of(finish={"segment": "c", "line": 3, "runoff_rows": 2})
    assert course.closed[("c", 1, 5)] == "end"
    assert course.move(("c", 3, 4), "ahead") == "end"
    assert course.move(("c", 3, 4), "drift_left") == "end"
    assert {a.index for a in course.finish_spaces} == {3, 4}
    assert course.finish_line == 2 + Fraction(3, 6)


def test_start_row_and_beyond_finish_are_marked() -> None:
    course = course_of()
    assert sorted(course.start_spaces) == [("a", lane, 0) for lane in range(1, 6)]
    assert all(course.graph.nodes[a]["beyond_finish"] for a in course.finish_spaces)
    assert not course.graph.nodes[("c", 3, 2)]["beyond_finish"]
    assert course.graph.nodes[("c", 3, 3)]["beyond_finish"]


# --- reversal (§5.2) -------------------------------------------------------------------------


def _reversed_base() -> dict:
    return base_data(
        direction="reversed",
        start={"segment": "c", "row": 5},
        finish={"segment": "a", "line": 3, "runoff_rows": 3},
    )


def test_reversal_mirrors_lanes_and_runs_the_route_backwards() -> None:
    course = build_course(track_of(_reversed_base()))
    nodes = course.graph.nodes
    assert course.route == ("c", "bend", "a")
    assert nodes[("c", 1, 5)]["lane"] == 5 and nodes[("c", 5, 5)]["lane"] == 1
    assert nodes[("c", 3, 5)]["back"] == 0  # the start row is the first driven
    assert course.move(("c", 3, 5), "ahead") == ("c", 3, 4)  # board rows count down
    # drifting left as driven goes to the board's higher lane
    assert course.move(("c", 3, 5), "drift_left") == ("c", 4, 4)
    assert nodes[("bend", 1, 0)]["turn"] == "right"  # a left corner driven backwards
    assert sorted(course.start_spaces) == [("c", lane, 5) for lane in range(1, 6)]
    assert {a.index for a in course.finish_spaces} == {0, 1, 2}


def test_reversal_gives_the_corner_mirrored_drift_targets() -> None:
    """T02 driven the other way: the corner turns right and its inside is board lane 1."""
    course = build_course(track_of(_reversed_base()))
    start = ("c", 4, 0)  # driven lane 2 (mirrors T02's lane 4), the last row before it
    early, _ = walk(course, start, "DDDSS", side="drift_right")
    late, _ = walk(course, start, "SSDDD", side="drift_right")
    assert early[-1] == ("a", 1, 5)  # the first row after the corner, inside lane
    assert late[-1] == ("bend", 1, 0)  # the last corner space of the inside lane
    assert course.move(late[-1], "ahead") == early[-1]


def test_reversal_keeps_every_space_and_move_count() -> None:
    forward = course_of(finish={"segment": "c", "line": 6, "runoff_rows": 0})
    backward = build_course(
        track_of(
            base_data(
                direction="reversed",
                start={"segment": "c", "row": 5},
                finish={"segment": "a", "line": 0, "runoff_rows": 0},
            )
        )
    )
    assert set(forward.graph.nodes) == set(backward.graph.nodes)
    kinds = ("ahead", "drift_left", "drift_right")
    count = {k: sum(1 for *_, e in forward.graph.edges(data="kind") if e == k) for k in kinds}
    back = {k: sum(1 for *_, e in backward.graph.edges(data="kind") if e == k) for k in kinds}
    assert count["ahead"] == back["ahead"]
    assert count["drift_left"] + count["drift_right"] == back["drift_left"] + back["drift_right"]


# --- tight corners (T11a) -------------------------------------------------------------------


def test_t11a_every_tight_corner_has_a_lane_ending_at_the_side() -> None:
    course = build_course(load_preset("reversed-ridge"))
    tight = [s for s in course.segments if s.tight]
    assert len(tight) == 2
    for corner in tight:
        ends = [
            attrs["ahead_blocker"]
            for _, attrs in course.graph.nodes(data=True)
            if attrs["segment"] == corner.id
        ]
        assert "edge" in ends


def test_t11a_following_a_lane_through_a_tight_corner_hits_the_side() -> None:
    course = course_of(
        segments=[
            {"id": "a", "rows": 6},
            {"id": "bend", "turn": "left", "spaces_per_lane": [2, 3, 4, 5, 6], "tight": True},
            {"id": "c", "rows": 6},
        ]
    )
    path, stop = walk(course, ("a", 3, 5), "S" * 10)
    assert stop == "edge" and path[-1] == ("bend", 3, 3)  # the lane's last corner space
    path, stop = walk(course, ("a", 3, 5), "SSSSD")  # drifting at the last moment gets round
    assert stop is None and path[-1] == ("c", 2, 0)


# --- trigger spaces (T23) ---------------------------------------------------------------------


def test_t23_trigger_spaces_are_orthogonal_neighbours() -> None:
    course = course_of(
        segments=[{"id": "a", "rows": 10}, {"id": "c", "rows": 6}],
        buildings=[{"kind": "chapel", "segment": "a", "lanes": [2, 3], "rows": [4, 5]}],
    )
    triggers = {a for a, kinds in course.graph.nodes(data="trigger_of") if "chapel" in kinds}
    expected = {(1, 4), (1, 5), (4, 4), (4, 5), (2, 3), (3, 3), (2, 6), (3, 6)}
    assert triggers == {Address("a", lane, row) for lane, row in expected}
    assert Address("a", 1, 3) not in triggers  # diagonal


def test_tavern_triggers_are_the_edge_lane_beside_it() -> None:
    course = course_of(
        buildings=[{"kind": "tavern", "segment": "a", "side": "right", "rows": [2, 3]}]
    )
    triggers = {a for a, kinds in course.graph.nodes(data="trigger_of") if kinds}
    assert triggers == {("a", 5, 2), ("a", 5, 3)}


# --- the route ----------------------------------------------------------------------------------


def test_a_branch_closed_by_markers_is_not_raced() -> None:
    spur = {"id": "spur", "rows": 4, "after": "a"}
    markers = [["spur", lane, 0] for lane in range(1, 6)]
    course = course_of(segments=[*base_data()["segments"], spur], markers=markers)
    assert course.route == ("a", "bend", "c") and not course.branches
    assert not any(a.segment == "spur" for a in course.graph)
    open_fork = course_of(segments=[*base_data()["segments"], spur])
    assert [b.continuations for b in open_fork.branches] == [("bend", "spur")]


@pytest.mark.parametrize("slug", ["husky-oval", "long-trail", "reversed-ridge", "chicane"])
def test_progress_increases_along_every_move(slug: str) -> None:
    course = build_course(load_preset(slug))
    nodes = course.graph.nodes
    for source, target in course.graph.edges:
        assert nodes[target]["front"] > nodes[source]["front"]
    assert not any(isinstance(t, str) for t in course.graph.nodes)
