"""The validator: each error and warning raised by a minimal broken track and matched by
its code (SNOWTAILS.md §2.5, T23, T24); the messages say where and how to fix it."""

from __future__ import annotations

import dataclasses
from typing import Any

import networkx as nx
import pytest
from snowtails_fixtures import base_data, course_of, track_of

from trackkit.games.snowtails.core.check import geometry_problems, validate_track
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset

SEGMENTS = base_data()["segments"]
SPUR = {"id": "spur", "rows": 7, "after": "a"}
CLOSE_SPUR = [["spur", lane, 0] for lane in range(1, 6)]


def _building(kind: str, segment: str = "a", **fields: Any) -> dict[str, Any]:
    if kind == "tavern":
        return {"kind": kind, "segment": segment, "side": "left", "rows": [1, 2], **fields}
    return {"kind": kind, "segment": segment, "lanes": [2, 3], "rows": [2, 3], **fields}


def _codes(level: str, **changes: Any) -> set[str]:
    result = validate_track(track_of(base_data(**changes)))
    return {i.code for i in (result.errors if level == "error" else result.warnings)}


def test_the_base_track_has_no_issue_at_all() -> None:
    assert validate_track(track_of(base_data())).problems == ()


# One minimal change per error: the change, and the code it must raise.
ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("route-branches", {"segments": [*SEGMENTS, SPUR]}),
    (
        "lane-count-mismatch",
        {"segments": [SEGMENTS[0], SEGMENTS[1], {"id": "c", "rows": 6, "lanes": 4}]},
    ),
    ("no-start-row", {"start": {"segment": "nowhere", "row": 0}}),
    ("no-start-row", {"start": {"segment": "bend", "row": 0}}),
    ("no-start-row", {"start": {"segment": "a", "row": 6}}),
    ("no-start-row", {"markers": [["a", 3, 0]]}),
    (
        "no-start-row",
        {
            "segments": [*SEGMENTS, SPUR],
            "markers": CLOSE_SPUR,
            "start": {"segment": "spur", "row": 0},
        },
    ),
    ("no-finish-line", {"finish": {"segment": "nowhere", "line": 3}}),
    ("no-finish-line", {"finish": {"segment": "bend", "line": 1}}),
    ("no-finish-line", {"finish": {"segment": "c", "line": 7}}),
    ("finish-without-runoff", {"finish": {"segment": "c", "line": 3, "runoff_rows": 0}}),
    ("runoff-too-long", {"finish": {"segment": "c", "line": 5, "runoff_rows": 3}}),
    ("runoff-too-long", {"finish": {"segment": "c", "line": 6, "runoff_rows": 1}}),
    ("finish-unreachable", {"markers": [["a", lane, 3] for lane in range(1, 6)]}),
    (
        "finish-unreachable",
        {"start": {"segment": "c", "row": 5}, "finish": {"segment": "a", "line": 2}},
    ),
    ("finish-unreachable", {"start": {"segment": "c", "row": 4}}),
    ("trap-space", {"markers": [["a", 1, 3], ["a", 2, 3]]}),
    (
        "too-many-trees",
        {
            "segments": [{"id": "a", "rows": 12}, *SEGMENTS[1:]],
            "trees": [["a", lane, row] for lane in (1, 3, 5) for row in range(1, 8)],
        },
    ),
    ("two-trees-on-a-space", {"trees": [["a", 2, 2], ["a", 2, 2]]}),
    ("tree-off-track", {"trees": [["nowhere", 1, 1]]}),
    ("tree-off-track", {"trees": [["a", 6, 1]]}),
    ("tree-off-track", {"trees": [["bend", 1, 2]]}),
    (
        "tree-off-track",
        {"trees": [["c", 1, 5]], "finish": {"segment": "c", "line": 3, "runoff_rows": 2}},
    ),
    (
        "tree-off-track",
        {"segments": [*SEGMENTS, SPUR], "markers": CLOSE_SPUR, "trees": [["spur", 3, 3]]},
    ),
    ("tree-on-building", {"trees": [["a", 2, 2]], "buildings": [_building("chapel")]}),
    ("tree-on-marker", {"trees": [["a", 5, 4]], "markers": [["a", 5, 4]]}),
    ("building-twice", {"buildings": [_building("chapel"), _building("chapel", rows=[4, 5])]}),
    ("building-twice", {"buildings": [_building("tavern"), _building("tavern", side="right")]}),
    ("building-off-track", {"buildings": [_building("bothy", "nowhere")]}),
    ("building-off-track", {"buildings": [_building("bothy", rows=[5, 6])]}),
    ("building-off-track", {"buildings": [_building("bothy", lanes=[4, 6])]}),
    (
        "building-off-track",
        {"segments": [*SEGMENTS, {"id": "d", "rows": 4}], "buildings": [_building("bothy", "d")]},
    ),
    ("building-in-corner", {"buildings": [_building("chapel", "bend")]}),
    ("building-in-corner", {"buildings": [_building("tavern", "bend")]}),
    ("building-size", {"buildings": [_building("kennels", lanes=[2, 4])]}),
    ("building-size", {"buildings": [_building("kennels", lanes=[3, 3])]}),
    ("building-size", {"buildings": [_building("tavern", rows=[1, 3])]}),
    ("building-on-edge-lane", {"buildings": [_building("chapel", lanes=[1, 2], rows=[3, 4])]}),
    ("building-on-edge-lane", {"buildings": [_building("chapel", lanes=[4, 5], rows=[3, 4])]}),
    (
        "buildings-overlap",
        {"buildings": [_building("chapel"), _building("bothy", lanes=[3, 4], rows=[3, 4])]},
    ),
    ("building-on-start-or-finish", {"buildings": [_building("bothy", rows=[0, 1])]}),
    ("building-on-start-or-finish", {"buildings": [_building("bothy", "c", rows=[1, 2])]}),
    ("building-on-start-or-finish", {"buildings": [_building("bothy", "c", rows=[3, 4])]}),
    (
        "too-many-markers",
        {
            "segments": [*SEGMENTS, SPUR],
            "markers": [["spur", lane, row] for lane in range(1, 6) for row in range(7)][:31],
        },
    ),
    ("two-markers-on-a-space", {"markers": [["a", 5, 4], ["a", 5, 4]]}),
    ("marker-off-track", {"markers": [["nowhere", 1, 0]]}),
    ("marker-off-track", {"markers": [["a", 1, 6]]}),
    ("marker-on-building", {"markers": [["a", 2, 2]], "buildings": [_building("chapel")]}),
]


@pytest.mark.parametrize(
    ("code", "changes"), ERRORS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(ERRORS)]
)
def test_each_error_is_raised_by_a_minimal_broken_track(code: str, changes: dict[str, Any]) -> None:
    result = validate_track(track_of(base_data(**changes)))
    assert code in {i.code for i in result.errors}, result.lines()
    assert not result.ok
    for issue in result.problems:
        assert "\n" not in issue.message and issue.message.rstrip().endswith((".", ")"))


def test_geometry_inconsistent_is_reported_not_raised() -> None:
    """The builder never makes a bad graph from a file, so break one by hand."""
    course = course_of()
    graph = nx.DiGraph(course.graph)
    graph.add_edge(("a", 1, 1), ("a", 3, 4), kind="drift_left")  # two lanes over, skipping
    graph.remove_edge(("a", 2, 2), ("a", 2, 3))
    graph.add_edge(("a", 2, 2), ("a", 2, 4), kind="ahead")  # skips a space
    broken = dataclasses.replace(course, graph=graph)
    issues = geometry_problems(broken)
    assert [i.code for i in issues] == ["geometry-inconsistent"] * 2
    assert "lane 3, not lane 0" in issues[0].message
    assert "does not start where this one ends" in issues[1].message
    assert geometry_problems(course) == []


@pytest.mark.parametrize(
    ("finish", "code"),
    [
        ({"segment": "nowhere", "line": 3}, "no-finish-line"),
        ({"segment": "c", "line": 3, "runoff_rows": 0}, "finish-without-runoff"),
        ({"segment": "c", "line": 6, "runoff_rows": 1}, "runoff-too-long"),
    ],
)
def test_a_wrong_finish_is_one_error_not_a_flood_of_traps(
    finish: dict[str, Any], code: str
) -> None:
    result = validate_track(track_of(base_data(finish=finish)))
    assert [i.code for i in result.errors] == [code]


# --- T23, T24: where buildings go ----------------------------------------------------------


def test_t23_chapel_on_the_edge_lanes_is_an_error_with_a_fix() -> None:
    bad = validate_track(
        track_of(base_data(buildings=[_building("chapel", lanes=[1, 2], rows=[3, 4])]))
    )
    edge = next(i for i in bad.errors if i.code == "building-on-edge-lane")
    assert edge.field == "buildings[0].lanes"
    assert "lanes [1, 2] touch edge lane 1 of segment a" in edge.message
    assert "[2, 3]" in edge.message and "rulebook F" in edge.message
    # the blocking space the rulebook warns of is found too
    trap = next(i for i in bad.errors if i.code == "trap-space")
    assert trap.where == ("a", 1, 2)
    assert "segment a, lane 1, row 2 has no way on" in trap.message
    good = validate_track(
        track_of(base_data(buildings=[_building("chapel", lanes=[2, 3], rows=[3, 4])]))
    )
    assert good.ok


def test_t24_a_building_in_a_corner_is_an_error() -> None:
    result = validate_track(track_of(base_data(buildings=[_building("kennels", "bend")])))
    issue = next(i for i in result.errors if i.code == "building-in-corner")
    assert "segment bend is a corner" in issue.message and "straight" in issue.message


def test_messages_name_the_place_and_the_fix() -> None:
    result = validate_track(
        track_of(base_data(trees=[["a", 9, 1]], finish={"segment": "c", "line": 5}))
    )
    messages = {i.code: i.message for i in result.errors}
    assert "segment a has lanes 1 to 5, not 9" in messages["tree-off-track"]
    assert (
        "Set line = 3, or lengthen segment c, or set runoff_rows = 1."
        in messages["runoff-too-long"]
    )
    assert str(result.errors[0]).startswith("[")
    assert result.lines()[0].startswith("test.toml: error: [")


# --- warnings ----------------------------------------------------------------------------------


WARNINGS: list[tuple[str, dict[str, Any]]] = [
    ("building-count", {"buildings": [_building("bothy")]}),
    ("kennels-late", {"buildings": [_building("kennels", "c", rows=[0, 1]), _building("tavern")]}),
    ("chapel-early", {"buildings": [_building("chapel"), _building("tavern")]}),
    (
        "beginner-buildings",
        {"beginner": True, "buildings": [_building("bothy"), _building("tavern")]},
    ),
    ("beginner-tree-in-corner", {"beginner": True, "trees": [["bend", 3, 1]]}),
    ("beginner-trees-adjacent", {"beginner": True, "trees": [["a", 2, 2], ["a", 3, 3]]}),
    ("beginner-trees-adjacent", {"beginner": True, "trees": [["a", 2, 5], ["bend", 2, 0]]}),
    (
        "beginner-tight-corner",
        {"beginner": True, "segments": [SEGMENTS[0], {**SEGMENTS[1], "tight": True}, SEGMENTS[2]]},
    ),
    ("tree-on-start-or-runoff", {"trees": [["a", 2, 0]]}),
    ("tree-on-start-or-runoff", {"trees": [["c", 2, 4]]}),
    (
        "tight-corner-forward",
        {"segments": [SEGMENTS[0], {**SEGMENTS[1], "tight": True}, SEGMENTS[2]]},
    ),
]


@pytest.mark.parametrize(
    ("code", "changes"), WARNINGS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(WARNINGS)]
)
def test_each_guideline_gives_a_warning_not_an_error(code: str, changes: dict[str, Any]) -> None:
    result = validate_track(track_of(base_data(**changes)))
    assert code in {i.code for i in result.warnings}, result.lines()
    assert result.ok, result.lines()
    assert all(i.severity == "warning" for i in result.warnings)


def test_guidelines_that_are_followed_give_no_warning() -> None:
    fine = {
        "beginner": True,
        "trees": [["a", 2, 2], ["a", 4, 2], ["c", 2, 1]],  # apart, on straights
    }
    assert _codes("warning", **fine) == set()
    assert (
        _codes("warning", buildings=[_building("kennels"), _building("chapel", "c", rows=[0, 1])])
        == set()
    )


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_every_demo_track_is_valid(slug: str) -> None:
    result = validate_track(load_preset(slug))
    assert result.ok, result.lines()
