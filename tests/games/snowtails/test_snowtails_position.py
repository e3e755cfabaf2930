"""Race position: front-edge progress, the inside tie-break, tight corners (SNOWTAILS.md
§3.11, §5.3; T10 and T11 of §3.15)."""

from __future__ import annotations

from snowtails_fixtures import base_data, course_of, track_of

from trackkit.games.snowtails.core.course import Course, build_course, race_order
from trackkit.games.snowtails.core.track import Address


def _order(course: Course, **sleds: tuple[str, int, int]) -> list[str]:
    return race_order(course, {name: Address(*where) for name, where in sleds.items()})


def test_the_space_further_along_leads() -> None:
    course = course_of()
    assert _order(course, back=("a", 1, 2), front=("a", 5, 3)) == ["front", "back"]
    assert _order(course, straight=("a", 1, 5), corner=("bend", 5, 0)) == ["corner", "straight"]


def test_level_sleds_on_a_straight_the_inside_of_the_next_corner_leads() -> None:
    left = course_of()  # the next corner turns left: lane 1 is its inside
    assert _order(left, outer=("a", 4, 2), inner=("a", 2, 2)) == ["inner", "outer"]
    right = course_of(
        segments=[
            {"id": "a", "rows": 6},
            {"id": "bend", "turn": "right", "spaces_per_lane": [2, 3, 4, 5, 6]},
            {"id": "c", "rows": 6},
        ]
    )
    assert _order(right, outer=("a", 2, 2), inner=("a", 4, 2)) == ["inner", "outer"]


def test_with_tiebreak_left_or_no_corner_ahead_the_leftmost_leads() -> None:
    left_rule = course_of(tiebreak="left")
    assert _order(left_rule, right=("a", 4, 2), left=("a", 3, 2)) == ["left", "right"]
    course = course_of()
    assert _order(course, right=("c", 4, 1), left=("c", 2, 1)) == ["left", "right"]


def test_level_front_edges_in_a_corner_the_inside_leads() -> None:
    """Inside space 0 of 2 and outside space 2 of 6 both end halfway through the corner."""
    course = course_of()
    nodes = course.graph.nodes
    assert nodes[("bend", 1, 0)]["front"] == nodes[("bend", 5, 2)]["front"]
    assert _order(course, outer=("bend", 5, 2), inner=("bend", 1, 0)) == ["inner", "outer"]


def test_t10_a_sled_further_beyond_the_finish_line_wins() -> None:
    course = course_of()
    order = _order(course, yellow=("c", 3, 3), blue=("c", 2, 5), green=("c", 1, 2))
    assert order == ["blue", "yellow", "green"]


def test_sleds_on_one_space_keep_the_given_order() -> None:
    course = course_of()
    assert _order(course, first=("a", 3, 0), second=("a", 3, 0)) == ["first", "second"]
    assert _order(course, second=("a", 3, 0), first=("a", 3, 0)) == ["second", "first"]


# --- T11: tight corners ---------------------------------------------------------------------


def _tight() -> Course:
    """The base track reversed: its left corner, driven as a right turn, is tight; its
    inside is board lane 1, its outside board lane 5."""
    segments = base_data()["segments"]
    segments[1]["tight"] = True
    data = base_data(
        segments=segments,
        direction="reversed",
        start={"segment": "c", "row": 5},
        finish={"segment": "a", "line": 3},
    )
    return build_course(track_of(data))


def test_t11_in_a_tight_corner_the_outermost_sled_leads() -> None:
    course = _tight()
    # board lane 5 is the outside; the inner sleds are further round the corner
    order = _order(course, outer=("bend", 5, 5), middle=("bend", 3, 1), inner=("bend", 1, 0))
    assert order == ["outer", "middle", "inner"]


def test_t11_drifting_outward_in_a_tight_corner_gains_a_place() -> None:
    course = _tight()
    before = _order(course, mover=("bend", 1, 1), rival=("bend", 2, 2))
    assert before == ["rival", "mover"]
    moved = course.move(("bend", 1, 1), "drift_left")  # driven left = outward here
    assert moved.lane == 2  # type: ignore[union-attr]
    assert _order(course, mover=moved, rival=("bend", 2, 2))[0] == "mover"  # type: ignore[arg-type]


def test_t11_a_tight_corner_ranks_between_the_rows_around_it() -> None:
    course = _tight()
    sleds = {
        "out": ("a", 3, 5),  # the first row after the corner
        "in_corner": ("bend", 1, 0),  # innermost, deepest in the corner
        "entering": ("bend", 5, 5),  # outermost, first corner space
        "before": ("c", 1, 0),  # the last row before the corner
    }
    assert _order(course, **sleds) == ["out", "entering", "in_corner", "before"]


def test_the_normal_order_applies_again_after_a_tight_corner() -> None:
    course = _tight()
    # after the corner, driven as a right turn, the next corner is none: leftmost leads
    assert _order(course, a=("a", 2, 4), b=("a", 4, 4)) == ["b", "a"]
