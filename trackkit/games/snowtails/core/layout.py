"""Where a Snow Tails course lies on the table: a polygon for every space, the start and
finish lines and the buildings, for drawing (pure geometry, no drawing library).

The printed board is not published and a track file gives no shapes, only counts
(:mod:`.track`), so these are **drawing conventions, not rules**:

- **Units.** A lane is 1 wide everywhere; a straight's space is a unit square. The plane's
  y axis points up.
- **Board order.** Segments are laid out in the order the file lists them, whatever the
  direction of travel. The first starts at the origin heading up (+y), its board lane 1
  on the left (x from 0 to the lane count). Each segment continues from the end of the one
  before, or of the segment its ``after`` names (a branch), with board lane 1 edge to edge:
  lanes of segments of different widths line up on the left in board order.
- **Corners.** A corner is a ring sector around a point on its inside: its lanes are
  concentric rings 1 wide, the inside lane innermost, each split into its spaces
  (``spaces_per_lane``) of equal angle, turning through the track file's ``angle``: 90°,
  or 180° for a hairpin such as the demo boards' [3, 5, 7, 9, 11] (SNOWTAILS.md §5.6). The
  inner radius makes the inside lane's spaces about 1 long along the lane's middle (never
  under :data:`MIN_RADIUS`). Arcs are drawn as chords, one at least every
  :data:`ARC_STEP` degrees; lanes side by side share every point of the arc between them,
  so their polygons meet without a gap or an overlap.
- **The Tavern** stands :data:`TAVERN_GAP` beside its straight, :data:`TAVERN_DEPTH` deep,
  as long as its rows, its door on the side facing the track.

>>> from trackkit.games.snowtails.core.course import build_course
>>> from trackkit.games.snowtails.core.presets import load_preset
>>> layout = lay_out(build_course(load_preset("chicane")))
>>> layout.spaces["grid", 1, 0].centre
(0.5, 0.5)
>>> [layout.segments[s].turned for s in ("chicane-in", "chicane-out")]
[90, -90]
>>> layout.start_line.ends if layout.start_line else None
((0.0, 1.0), (5.0, 1.0))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

from trackkit.games.snowtails.core.course import Course
from trackkit.games.snowtails.core.track import Address, Building, Segment, Turn

Point = tuple[float, float]
Polygon = tuple[Point, ...]

MIN_RADIUS = 0.5  # the inside edge of a corner never turns tighter than this
ARC_STEP = 10  # degrees: the longest stretch of arc drawn as one chord
TAVERN_GAP = 0.2
TAVERN_DEPTH = 1.4
ARROW_GAP = 0.7  # the direction arrow runs this far beside the start straight
ARROW_START = 0.6  # …from this far past the start line…
ARROW_LENGTH = 2.0  # …this long
DIGITS = 9  # coordinates are rounded, so that a point two shapes share is the same point


@dataclass(frozen=True)
class Pose:
    """Where a segment starts or ends: the point on board lane 1's outer edge (board order)
    and the heading in degrees (0 = +x, 90 = +y)."""

    at: Point
    heading: int


@dataclass(frozen=True)
class SegmentShape:
    """A segment laid out: its outline, where it starts and ends (board order), how far
    it turns (degrees, + left, − right, in board order), a point in its middle (for a
    label), and whether it is part of the course."""

    id: str
    kind: Literal["straight", "corner"]
    entry: Pose
    exit: Pose
    turned: int
    outline: Polygon
    middle: Point
    on_course: bool


@dataclass(frozen=True)
class SpaceShape:
    """A space laid out: its polygon (the corners, in order round it) and a point inside."""

    address: Address
    polygon: Polygon
    centre: Point


@dataclass(frozen=True)
class LineShape:
    """A line across the track; ``ends[1]`` is the end on the outside of the track (away
    from the corner next to it), ``outward`` the unit vector from the track there and
    ``ahead`` the unit vector the way the race goes."""

    ends: tuple[Point, Point]
    outward: Point
    ahead: Point


@dataclass(frozen=True)
class BuildingShape:
    """A building's footprint (the Tavern's beside the track), with its door for the
    Tavern (a line on the side facing the track)."""

    kind: str
    name: str
    polygon: Polygon
    centre: Point
    heading: int  # the heading of its straight, for lettering along it
    door: tuple[Point, Point] | None = None


@dataclass(frozen=True)
class BoardLayout:
    """A course laid out (see the module docstring).

    ``spaces`` holds every space of the course, open or closed; ``off_course`` the spaces of
    the track's other segments (branches closed by markers, the route past the finish
    straight). ``travel`` is an arrow (tail, head) beside the start row pointing the way
    the race goes. ``bounds`` is (left, bottom, right, top) round everything.
    """

    segments: Mapping[str, SegmentShape]
    spaces: Mapping[Address, SpaceShape]
    off_course: Mapping[Address, SpaceShape]
    start_line: LineShape | None
    finish_line: LineShape | None
    buildings: tuple[BuildingShape, ...]
    travel: tuple[Point, Point] | None
    bounds: tuple[float, float, float, float]

    def shape(self, address: Iterable[object]) -> SpaceShape | None:
        """The shape of the space ``address`` on or off the course, None if there is none."""
        key = Address(*address)  # type: ignore[arg-type]
        return self.spaces.get(key) or self.off_course.get(key)


# --- plane helpers ------------------------------------------------------------------------


def _unit(degrees: float) -> Point:
    """The unit vector at ``degrees``, exact on the quarter turns."""
    exact = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
    if degrees % 90 == 0:
        return exact[int(degrees) % 360]
    radians = math.radians(degrees)
    return math.cos(radians), math.sin(radians)


def _point(x: float, y: float) -> Point:
    return round(x, DIGITS) + 0.0, round(y, DIGITS) + 0.0  # + 0.0: no -0.0


def _along(origin: Point, *steps: tuple[float, Point]) -> Point:
    """``origin`` plus each ``length × vector`` of ``steps``."""
    x, y = origin
    for length, (dx, dy) in steps:
        x, y = x + length * dx, y + length * dy
    return _point(x, y)


def _right_of(heading: int) -> Point:
    return _unit(heading - 90)


# --- corners ------------------------------------------------------------------------------


def corner_angle(segment: Segment) -> int:
    """The angle a corner turns through, in degrees: its track file's ``angle`` (90, or
    180 for a hairpin).

    >>> corner_angle(Segment("bend", 5, turn="left", spaces_per_lane=(3, 5, 7, 9, 11), angle=180))
    180
    """
    return segment.angle


def _inner_radius(segment: Segment, angle: int) -> float:
    """The inside edge's radius that makes the inside lane's spaces about 1 long."""
    inside = segment.spaces_per_lane[0]
    return max(MIN_RADIUS, inside / math.radians(angle) - 0.5)


@dataclass(frozen=True)
class _Ring:
    """A corner in the plane: its centre, the angle where it starts, which way it turns."""

    centre: Point
    start: float  # degrees, the direction from the centre to the entry edge
    sweep: int  # signed degrees: + counter-clockwise (a left turn)
    radius: float  # of the inside edge

    def at(self, distance: float, fraction: Fraction) -> Point:
        dx, dy = _unit(self.start + self.sweep * float(fraction))
        return _point(self.centre[0] + distance * dx, self.centre[1] + distance * dy)


def _corner_ring(segment: Segment, entry: Pose) -> _Ring:
    angle = corner_angle(segment)
    radius = _inner_radius(segment, angle)
    right = _right_of(entry.heading)
    if segment.turn == "left":  # the inside is board lane 1's side
        centre = _along(entry.at, (-radius, right))
        return _Ring(centre, entry.heading - 90, angle, radius)
    centre = _along(entry.at, (segment.lanes + radius, right))
    return _Ring(centre, entry.heading + 90, -angle, radius)


def _ring_of(segment: Segment, lane: int) -> int:
    """How many lanes lie inside board lane ``lane`` of a corner."""
    return lane - 1 if segment.turn == "left" else segment.lanes - lane


def _arc_fractions(segment: Segment) -> list[Fraction]:
    """The points along a corner where arcs are sampled: every space boundary of every lane,
    and enough in between for short chords. Shared by all lanes, so two lanes side by side
    draw the arc between them through the same points."""
    steps = math.ceil(corner_angle(segment) / ARC_STEP)
    found = {Fraction(i, steps) for i in range(steps + 1)}
    for count in segment.spaces_per_lane:
        found.update(Fraction(j, count) for j in range(count + 1))
    return sorted(found)


def _corner_spaces(segment: Segment, ring: _Ring) -> dict[Address, SpaceShape]:
    fractions = _arc_fractions(segment)
    spaces = {}
    for lane in range(1, segment.lanes + 1):
        inner = ring.radius + _ring_of(segment, lane)
        count = segment.spaces_in_lane(lane)
        for index in range(count):
            low, high = Fraction(index, count), Fraction(index + 1, count)
            arc = [f for f in fractions if low <= f <= high]
            polygon = tuple(ring.at(inner, f) for f in arc) + tuple(
                ring.at(inner + 1, f) for f in reversed(arc)
            )
            address = Address(segment.id, lane, index)
            spaces[address] = SpaceShape(address, polygon, ring.at(inner + 0.5, (low + high) / 2))
    return spaces


def _corner_outline(segment: Segment, ring: _Ring) -> Polygon:
    fractions = _arc_fractions(segment)
    outer = ring.radius + segment.lanes
    return tuple(ring.at(ring.radius, f) for f in fractions) + tuple(
        ring.at(outer, f) for f in reversed(fractions)
    )


def _corner_exit(segment: Segment, entry: Pose, ring: _Ring) -> Pose:
    heading = (entry.heading + ring.sweep) % 360
    lane_one = ring.radius if segment.turn == "left" else ring.radius + segment.lanes
    return Pose(ring.at(lane_one, Fraction(1)), heading)


# --- straights ----------------------------------------------------------------------------


def _straight_point(entry: Pose, across: float, along: float) -> Point:
    """The point ``across`` lanes right of board lane 1's edge, ``along`` rows in."""
    return _along(entry.at, (across, _right_of(entry.heading)), (along, _unit(entry.heading)))


def _rectangle(entry: Pose, across: tuple[float, float], along: tuple[float, float]) -> Polygon:
    (a, b), (i, j) = across, along
    return tuple(_straight_point(entry, x, y) for x, y in ((a, i), (b, i), (b, j), (a, j)))


def _straight_spaces(segment: Segment, entry: Pose) -> dict[Address, SpaceShape]:
    assert segment.rows is not None
    spaces = {}
    for lane in range(1, segment.lanes + 1):
        for row in range(segment.rows):
            address = Address(segment.id, lane, row)
            polygon = _rectangle(entry, (lane - 1, lane), (row, row + 1))
            spaces[address] = SpaceShape(
                address, polygon, _straight_point(entry, lane - 0.5, row + 0.5)
            )
    return spaces


# --- the board ----------------------------------------------------------------------------


def _place_segments(
    course: Course,
) -> tuple[dict[str, SegmentShape], dict[Address, SpaceShape]]:
    """Every segment of the track, in board order, and all their spaces."""
    on_course = {s.id for s in course.segments}
    shapes: dict[str, SegmentShape] = {}
    spaces: dict[Address, SpaceShape] = {}
    previous: SegmentShape | None = None
    for segment in course.track.segments:
        if segment.after is not None:
            previous = shapes[segment.after]
        entry = previous.exit if previous is not None else Pose((0.0, 0.0), 90)
        if segment.is_corner:
            ring = _corner_ring(segment, entry)
            shape = SegmentShape(
                segment.id,
                "corner",
                entry,
                _corner_exit(segment, entry, ring),
                ring.sweep,
                _corner_outline(segment, ring),
                ring.at(ring.radius + segment.lanes / 2, Fraction(1, 2)),
                segment.id in on_course,
            )
            spaces.update(_corner_spaces(segment, ring))
        else:
            rows = segment.rows or 0
            shape = SegmentShape(
                segment.id,
                "straight",
                entry,
                Pose(_straight_point(entry, 0, rows), entry.heading),
                0,
                _rectangle(entry, (0, segment.lanes), (0, rows)),
                _straight_point(entry, segment.lanes / 2, rows / 2),
                segment.id in on_course,
            )
            spaces.update(_straight_spaces(segment, entry))
        shapes[segment.id] = shape
        previous = shape
    return shapes, spaces


def _driven_turns(course: Course) -> list[Turn | None]:
    """The turn of each segment of the course as driven (None on a straight)."""
    flip: dict[Turn, Turn] = {"left": "right", "right": "left"}
    reversed_ = course.track.direction == "reversed"
    return [flip[s.turn] if reversed_ and s.turn is not None else s.turn for s in course.segments]


def _outside(course: Course, segment_id: str, look: Literal["ahead", "behind"]) -> Turn:
    """The side of ``segment_id`` (board order) away from the nearest corner ahead of it or
    behind it as driven (either, if there is none that way): the side with room to spare."""
    ids = [s.id for s in course.segments]
    turns = _driven_turns(course)
    at = ids.index(segment_id)
    ahead = [t for t in turns[at + 1 :] if t is not None]
    behind = [t for t in reversed(turns[:at]) if t is not None]
    nearest = (ahead + behind) if look == "ahead" else (behind + ahead)
    inside = nearest[0] if nearest else "left"
    outside: Turn = "right" if inside == "left" else "left"
    if course.track.direction == "reversed":  # as driven → board order
        outside = "left" if outside == "right" else "right"
    return outside


def _line(course: Course, shape: SegmentShape, boundary: int, outside: Turn) -> LineShape:
    """The line across a straight after ``boundary`` rows (board order)."""
    segment = course.track.segment(shape.id)
    assert segment is not None
    left = _straight_point(shape.entry, 0, boundary)
    right = _straight_point(shape.entry, segment.lanes, boundary)
    heading = (
        shape.entry.heading if course.track.direction == "forward" else shape.entry.heading + 180
    )
    outward = _right_of(shape.entry.heading)
    if outside == "left":
        return LineShape((right, left), (-outward[0], -outward[1]), _unit(heading))
    return LineShape((left, right), outward, _unit(heading))


def _start_line(course: Course, shapes: Mapping[str, SegmentShape]) -> LineShape | None:
    start = course.track.start
    segment = course.track.segment(start.segment)
    if course.start_line is None or segment is None or start.segment not in shapes:
        return None
    boundary = start.row + 1 if course.track.direction == "forward" else start.row
    outside = _outside(course, start.segment, "ahead")
    return _line(course, shapes[start.segment], boundary, outside)


def _finish_line(course: Course, shapes: Mapping[str, SegmentShape]) -> LineShape | None:
    finish = course.track.finish
    segment = course.track.segment(finish.segment)
    if course.finish_line is None or segment is None or finish.segment not in shapes:
        return None
    outside = _outside(course, finish.segment, "behind")
    return _line(course, shapes[finish.segment], finish.line, outside)


def _building(building: Building, course: Course, shape: SegmentShape) -> BuildingShape | None:
    """A building on a straight, or the Tavern beside it; None for one on a corner."""
    segment = course.track.segment(building.segment)
    if segment is None or segment.is_corner:
        return None
    first, last = building.rows[0], building.rows[1] + 1
    door = None
    if building.lanes is not None:
        across: tuple[float, float] = (building.lanes[0] - 1, building.lanes[1])
    elif building.side == "left":
        across = (-TAVERN_GAP - TAVERN_DEPTH, -TAVERN_GAP)
    else:
        across = (segment.lanes + TAVERN_GAP, segment.lanes + TAVERN_GAP + TAVERN_DEPTH)
    if building.side is not None:
        facing = across[1] if building.side == "left" else across[0]
        middle = (first + last) / 2
        door = (
            _straight_point(shape.entry, facing, middle - 0.3),
            _straight_point(shape.entry, facing, middle + 0.3),
        )
    polygon = _rectangle(shape.entry, across, (first, last))
    centre = _straight_point(shape.entry, sum(across) / 2, (first + last) / 2)
    return BuildingShape(building.kind, building.name, polygon, centre, shape.entry.heading, door)


def _travel_arrow(course: Course, start: LineShape | None) -> tuple[Point, Point] | None:
    """An arrow beside the track just past the start line, the way the race goes: on the
    side of the start line's outer end, or on the other side if the Tavern stands there."""
    if start is None:
        return None
    segment_id = course.track.start.segment
    outside = _outside(course, segment_id, "ahead")
    tavern_there = any(
        b.side == outside and b.segment == segment_id for b in course.track.buildings
    )
    end, outward = start.ends[1], start.outward
    if tavern_there:
        end, outward = start.ends[0], (-outward[0], -outward[1])
    tail = _along(end, (ARROW_GAP, outward), (ARROW_START, start.ahead))
    return tail, _along(tail, (ARROW_LENGTH, start.ahead))


def _bounds(polygons: Iterable[Polygon]) -> tuple[float, float, float, float]:
    points = [p for polygon in polygons for p in polygon]
    if not points:
        return 0.0, 0.0, 0.0, 0.0
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def lay_out(course: Course) -> BoardLayout:
    """Lay ``course`` out in the plane (see the module docstring for the conventions).

    Never fails on a built course: a building on a corner or off the track is left out.
    """
    shapes, every_space = _place_segments(course)
    spaces = {a: s for a, s in every_space.items() if a in course.spaces}
    off_course = {a: s for a, s in every_space.items() if a not in course.spaces}
    buildings = []
    for building in course.track.buildings:
        shape = shapes.get(building.segment)
        drawn = _building(building, course, shape) if shape is not None else None
        if drawn is not None:
            buildings.append(drawn)
    start = _start_line(course, shapes)
    travel = _travel_arrow(course, start)
    outlines = [s.outline for s in shapes.values()] + [b.polygon for b in buildings]
    if travel is not None:
        outlines.append(travel)
    return BoardLayout(
        segments=MappingProxyType(shapes),
        spaces=MappingProxyType(spaces),
        off_course=MappingProxyType(off_course),
        start_line=start,
        finish_line=_finish_line(course, shapes),
        buildings=tuple(buildings),
        travel=travel,
        bounds=_bounds(outlines),
    )
