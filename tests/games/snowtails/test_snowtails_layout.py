"""The course laid out in the plane: a polygon per space, segments joined edge to edge,
corners turning the way they say, lines and buildings where the track file puts them."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snowtails_fixtures import base_data, course_of, track_of

from trackkit.games.snowtails.core.course import Course, build_course
from trackkit.games.snowtails.core.layout import BoardLayout, Point, Polygon, corner_angle, lay_out
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.track import Address, Segment

CLOSE = 1e-6

# every demo track lies flat without a space on another (the Husky oval once did not
# close: its back straight was two rows shorter than the other side)
APART = list(PRESET_SLUGS)


def _demo(slug: str) -> tuple[Course, BoardLayout]:
    course = build_course(load_preset(slug))
    return course, lay_out(course)


def _inside(point: Point, polygon: Polygon) -> bool:
    """Ray casting: whether ``point`` lies inside ``polygon`` (a point on an edge may go
    either way)."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in pairwise((*polygon, polygon[0])):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _shared_points(a: Polygon, b: Polygon) -> int:
    return sum(1 for p in a if any(math.dist(p, q) < CLOSE for q in b))


def _grid_inside(xs: np.ndarray, ys: np.ndarray, polygon: Polygon) -> np.ndarray:
    """Ray casting over many points at once."""
    inside = np.zeros(xs.shape, dtype=bool)
    for (x1, y1), (x2, y2) in pairwise((*polygon, polygon[0])):
        if y1 == y2:
            continue
        crosses = (y1 > ys) != (y2 > ys)
        inside ^= crosses & (xs < x1 + (ys - y1) * (x2 - x1) / (y2 - y1))
    return inside


def _overlapping_points(layout: BoardLayout, step: float = 0.025) -> int:
    """How many points of a fine grid lie inside two spaces or more."""
    left, bottom, right, top = layout.bounds
    # offset so that no grid point falls on an edge between two spaces
    xs = np.arange(left + 0.0123, right, step)
    ys = np.arange(bottom + 0.0071, top, step)
    counts = np.zeros((len(ys), len(xs)), dtype=np.int16)
    for shape in layout.spaces.values():
        px = [x for x, _ in shape.polygon]
        py = [y for _, y in shape.polygon]
        i0, i1 = np.searchsorted(xs, [min(px), max(px)])
        j0, j1 = np.searchsorted(ys, [min(py), max(py)])
        gx, gy = np.meshgrid(xs[i0:i1], ys[j0:j1])
        counts[j0:j1, i0:i1] += _grid_inside(gx, gy, shape.polygon)
    return int((counts > 1).sum())


# --- every space has a shape --------------------------------------------------------------


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_every_space_of_the_course_has_a_polygon(slug: str) -> None:
    course, layout = _demo(slug)
    assert set(layout.spaces) == set(course.spaces)
    assert not layout.off_course  # the demo tracks have no branch
    for address, shape in layout.spaces.items():
        assert shape.address == address
        assert len(shape.polygon) >= 4


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_centres_lie_inside_their_own_polygon(slug: str) -> None:
    _, layout = _demo(slug)
    for shape in layout.spaces.values():
        assert _inside(shape.centre, shape.polygon), shape.address
    left, bottom, right, top = layout.bounds
    assert all(
        left <= x <= right and bottom <= y <= top
        for x, y in (s.centre for s in layout.spaces.values())
    )


@pytest.mark.parametrize("slug", APART)
def test_centres_are_distinct(slug: str) -> None:
    _, layout = _demo(slug)
    centres = [s.centre for s in layout.spaces.values()]
    assert len(set(centres)) == len(centres)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_neighbours_along_a_lane_share_an_edge(slug: str) -> None:
    course, layout = _demo(slug)
    for spaces in course.lanes.values():
        for a, b in pairwise(spaces):
            if a.front != b.back:
                continue  # a lane missing between them (not on the demo tracks)
            first, second = layout.spaces[a.address], layout.spaces[b.address]
            assert _shared_points(first.polygon, second.polygon) >= 2, (a.address, b.address)
            gap = math.dist(first.centre, second.centre)
            if a.segment.rows is not None and a.segment == b.segment:
                assert gap == pytest.approx(1.0)  # a unit square's rows
            else:
                assert 0.3 < gap < 2.0, (a.address, b.address, gap)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_lanes_side_by_side_touch(slug: str) -> None:
    """Every space shares a corner with a space of the lane beside it (the track is one
    piece across, not lanes drawn apart)."""
    _, layout = _demo(slug)
    by_segment: dict[tuple[str, int], list[Polygon]] = {}
    for address, shape in layout.spaces.items():
        by_segment.setdefault((address.segment, address.lane), []).append(shape.polygon)
    for address, shape in layout.spaces.items():
        beside = by_segment.get((address.segment, address.lane + 1), [])
        if beside:
            assert any(_shared_points(shape.polygon, other) >= 1 for other in beside), address


@pytest.mark.parametrize("slug", APART)
def test_no_two_spaces_overlap(slug: str) -> None:
    _, layout = _demo(slug)
    assert _overlapping_points(layout) == 0


def test_the_overlap_check_finds_an_overlap() -> None:
    """The check above can fail: a 180° turn straight back onto a long straight overlaps."""
    data = base_data(
        segments=[
            {"id": "a", "rows": 6},
            {"id": "bend", "turn": "left", "spaces_per_lane": [3, 5, 7, 9, 11], "angle": 180},
            {"id": "c", "rows": 6},
            {"id": "back", "turn": "left", "spaces_per_lane": [3, 5, 7, 9, 11], "angle": 180},
            {"id": "d", "rows": 8},
        ],
        finish={"segment": "d", "line": 3, "runoff_rows": 3},
    )
    assert _overlapping_points(lay_out(build_course(track_of(data)))) > 0


# --- corners and joins --------------------------------------------------------------------


def test_a_corner_turns_through_the_angle_its_file_gives() -> None:
    quarter = Segment("q", 5, turn="left", spaces_per_lane=(2, 3, 4, 5, 6))
    hairpin = Segment("h", 5, turn="right", spaces_per_lane=(3, 5, 7, 9, 11), angle=180)
    assert [corner_angle(s) for s in (quarter, hairpin)] == [90, 180]
    hairpins = [s for s in load_preset("husky-oval").segments if s.is_corner]
    assert [s.angle for s in hairpins] == [180, 180]  # read from the track file


def _heading_vector(degrees: int) -> Point:
    return math.cos(math.radians(degrees)), math.sin(math.radians(degrees))


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_a_corner_turns_the_heading_its_way(slug: str) -> None:
    course, layout = _demo(slug)
    segments = course.track.segments
    corners = [at for at, s in enumerate(segments) if s.is_corner]
    assert corners and all(0 < at < len(segments) - 1 for at in corners)
    for at in corners:
        before, corner, after = segments[at - 1 : at + 2]
        angle = corner_angle(corner)
        turned = layout.segments[corner.id].turned
        assert turned == (angle if corner.turn == "left" else -angle)
        (bx, by) = _heading_vector(layout.segments[before.id].exit.heading)
        (ax, ay) = _heading_vector(layout.segments[after.id].entry.heading)
        cross, dot = bx * ay - by * ax, bx * ax + by * ay
        if angle == 90:  # the segment after a left corner heads left of the one before
            assert cross == pytest.approx(1 if corner.turn == "left" else -1)
        else:  # a hairpin comes back the way it came
            assert dot == pytest.approx(-1)


def test_the_chicane_turns_left_then_right() -> None:
    _, layout = _demo("chicane")
    headings = [layout.segments[s].exit.heading for s in ("grid", "chicane-in", "chicane-out")]
    assert headings == [90, 180, 90]  # up, then left (−x), then up again
    esses = [layout.segments[s].exit.heading for s in ("link", "esses-in", "esses-out")]
    assert esses == [90, 0, 90]  # up, then right (+x), then up again


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_each_segment_starts_where_the_one_before_ends(slug: str) -> None:
    course, layout = _demo(slug)
    for before, after in pairwise(course.track.segments):
        end, start = layout.segments[before.id].exit, layout.segments[after.id].entry
        assert math.dist(end.at, start.at) < CLOSE
        assert end.heading % 360 == start.heading % 360
        # the last space of each lane meets the first of the same board lane
        for lane in range(1, min(before.lanes, after.lanes) + 1):
            last = Address(before.id, lane, before.spaces_in_lane(lane) - 1)
            first = Address(after.id, lane, 0)
            assert _shared_points(layout.spaces[last].polygon, layout.spaces[first].polygon) == 2


def test_a_reversed_track_lies_as_its_board_does() -> None:
    """The same address is the same place on the table, whichever way the track is driven."""
    reversed_ = load_preset("reversed-ridge")
    course = build_course(reversed_)
    forward = build_course(
        track_of(
            base_data(
                segments=[
                    {"id": s.id, "rows": s.rows}
                    if s.rows is not None
                    else {
                        "id": s.id,
                        "turn": s.turn,
                        "spaces_per_lane": list(s.spaces_per_lane),
                        "angle": s.angle,
                    }
                    for s in reversed_.segments
                ],
                start={"segment": "summit", "row": 0},
                finish={"segment": "base", "line": 3, "runoff_rows": 3},
            )
        )
    )
    backwards, onwards = lay_out(course), lay_out(forward)
    assert set(backwards.spaces) == set(onwards.spaces)
    for address, shape in backwards.spaces.items():
        assert shape.polygon == onwards.spaces[address].polygon


# --- lines, buildings, the arrow ----------------------------------------------------------


def _spaces_at(layout: BoardLayout, point: Point) -> set[Address]:
    return {a for a, s in layout.spaces.items() if _inside(point, s.polygon)}


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_start_line_is_the_start_rows_front_edge(slug: str) -> None:
    course, layout = _demo(slug)
    line = layout.start_line
    assert line is not None
    (x0, y0), (x1, y1) = line.ends
    assert math.dist(*line.ends) == pytest.approx(5)
    (ax, ay) = line.ahead
    starts = set(course.start_spaces)
    for t in (0.1, 0.5, 0.9):  # points along the line, nudged back and forth
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        assert _spaces_at(layout, (x - 0.1 * ax, y - 0.1 * ay)) & starts
        ahead = _spaces_at(layout, (x + 0.1 * ax, y + 0.1 * ay))
        assert any(course.graph.nodes[a]["back"] == course.start_line for a in ahead)
        assert not ahead & starts


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_finish_line_has_the_run_off_beyond_it(slug: str) -> None:
    course, layout = _demo(slug)
    line = layout.finish_line
    assert line is not None
    (x0, y0), (x1, y1) = line.ends
    (ax, ay) = line.ahead
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    nodes = course.graph.nodes
    beyond = _spaces_at(layout, (x + 0.1 * ax, y + 0.1 * ay))
    before = _spaces_at(layout, (x - 0.1 * ax, y - 0.1 * ay))
    assert any(nodes[a]["beyond_finish"] and nodes[a]["back"] == course.finish_line for a in beyond)
    assert any(not nodes[a]["beyond_finish"] for a in before)
    # the end named outside is the one away from the corner before the finish
    (ox, oy) = line.outward
    assert (x1 - x0) * ox + (y1 - y0) * oy == pytest.approx(5)


@pytest.mark.parametrize("slug", ["long-trail", "chicane", "reversed-ridge"])
def test_buildings_cover_their_footprint_and_the_tavern_stands_beside(slug: str) -> None:
    course, layout = _demo(slug)
    drawn = {b.kind: b for b in layout.buildings}
    assert set(drawn) == {b.kind for b in course.track.buildings}
    for building in course.track.buildings:
        shape = drawn[building.kind]
        covered = {a for a, s in layout.spaces.items() if _inside(s.centre, shape.polygon)}
        assert covered == set(building.footprint())
        if building.kind != "tavern":
            continue
        # beside its straight on its side: left of the heading in board order, or right
        entry = layout.segments[building.segment].entry
        hx, hy = _heading_vector(entry.heading)
        dx, dy = shape.centre[0] - entry.at[0], shape.centre[1] - entry.at[1]
        assert (hx * dy - hy * dx > 0) == (building.side == "left")
        assert shape.door is not None
        assert not any(_inside(p, s.polygon) for s in layout.spaces.values() for p in shape.polygon)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_travel_arrow_points_the_way_the_race_goes_beside_the_track(slug: str) -> None:
    course, layout = _demo(slug)
    assert layout.travel is not None and layout.start_line is not None
    (tx, ty), (hx, hy) = layout.travel
    ax, ay = layout.start_line.ahead
    assert ((hx - tx) * ax + (hy - ty) * ay) / math.dist((tx, ty), (hx, hy)) == pytest.approx(1)
    assert not _spaces_at(layout, (tx, ty)) and not _spaces_at(layout, (hx, hy))
    # driven the first rows away from the start line: the arrow agrees with the graph
    start = course.start_spaces[0]
    ahead = course.move(start, "ahead")
    assert not isinstance(ahead, str)
    (sx, sy), (nx, ny) = layout.spaces[start].centre, layout.spaces[ahead].centre
    assert (nx - sx) * ax + (ny - sy) * ay == pytest.approx(1)


def test_a_closed_branch_is_laid_out_off_the_course() -> None:
    segments = [
        {"id": "a", "rows": 6},
        {"id": "bend", "turn": "left", "spaces_per_lane": [2, 3, 4, 5, 6]},
        {"id": "c", "rows": 6},
        {"id": "spur", "after": "a", "rows": 4},
    ]
    course = course_of(segments=segments, markers=[["spur", lane, 0] for lane in range(1, 6)])
    layout = lay_out(course)
    assert {a.segment for a in layout.off_course} == {"spur"}
    assert len(layout.off_course) == 20 and not layout.segments["spur"].on_course
    assert layout.segments["spur"].entry == layout.segments["a"].exit  # it forks at a's end
    assert layout.shape(("spur", 3, 0)) is layout.off_course[Address("spur", 3, 0)]
    assert layout.shape(("nowhere", 1, 0)) is None


# --- any track ----------------------------------------------------------------------------

corner = st.builds(
    lambda turn, counts, angle: {"turn": turn, "spaces_per_lane": sorted(counts), "angle": angle},
    st.sampled_from(["left", "right"]),
    st.lists(st.integers(1, 12), min_size=2, max_size=6),
    st.sampled_from([90, 180]),
)
straight = st.builds(lambda rows: {"rows": rows}, st.integers(1, 8))


@settings(max_examples=60, deadline=None)
@given(middle=st.lists(st.one_of(corner, straight), max_size=6), last=st.integers(4, 9))
def test_any_route_lays_out_in_one_piece(middle: list[dict], last: int) -> None:
    segments = [{"id": "a", "rows": 3}]
    segments += [{"id": f"s{i}", **spec} for i, spec in enumerate(middle)]
    segments.append({"id": "z", "rows": last})
    course = course_of(segments=segments, finish={"segment": "z", "line": 1, "runoff_rows": 3})
    layout = lay_out(course)
    assert set(layout.spaces) == set(course.spaces)
    for shape in layout.spaces.values():
        assert _inside(shape.centre, shape.polygon), shape.address
    # within a lane of a segment, each space meets the next along an edge
    for address, shape in layout.spaces.items():
        following = layout.spaces.get(address._replace(index=address.index + 1))
        if following is not None:
            assert _shared_points(shape.polygon, following.polygon) == 2
    # the headings add up: the last straight heads as the turns say
    turned = sum(layout.segments[s["id"]].turned for s in segments)
    assert layout.segments["z"].entry.heading % 360 == (90 + turned) % 360
