"""A Snow Tails course drawn as shapes (:mod:`trackkit.games.shapes`): the lanes and their
spaces (closed ones grey), the start spaces and line, the finish line and the run-off
beyond it, trees, markers, the buildings with their names and their trigger spaces, an
arrow the way the race goes, and the track's name with its note.

The geometry comes from :func:`trackkit.games.snowtails.core.layout.lay_out` (its plane's y
axis points up; a scene's points down, so every point is turned over here). Each space
carries an invisible spot keyed ``(segment, lane, index)``: a click on the space in a
figure gives its address back.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> scene = course_scene(load_preset("long-trail"))
>>> any(getattr(s, "text", "") == "Kennels" for s in scene.shapes)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from trackkit.games.shapes import (
    NONE,
    Anchor,
    Box,
    Circle,
    LegendEntry,
    Line,
    Point,
    Polygon,
    Rectangle,
    Scene,
    Shape,
    Spot,
    Text,
)
from trackkit.games.snowtails.core.course import Course, build_course
from trackkit.games.snowtails.core.layout import BoardLayout, LineShape, SpaceShape, lay_out
from trackkit.games.snowtails.core.track import BUILDING_NAMES, Address, SnowTrack

UNIT = 34  # pixels per lane width in a picture
INK = "#33261a"
SNOW = "#ffffff"
SPACE_EDGE = "#8a9aab"
CLOSED = "#bdbdbd"
START = "#cfe3f5"
RUNOFF = "#f6d5d0"
TRIGGER = "#fbe7a1"
TRIGGER_EDGE = "#c9900c"
TREE = "#1e7b3c"
TREE_EDGE = "#0f4d24"
TRUNK = "#6d4c2f"
BUILDING = "#8a5a3b"
START_LINE = "#2c3e50"
FINISH = "#c0392b"
TIGHT = "#c0392b"
DOOR = "#f1c40f"
OFF_COURSE = "#ece6d6"
OFF_COURSE_EDGE = "#b9ae95"

SpaceKind = Literal["closed", "start", "runoff", "trigger", "open"]
FILLS: dict[SpaceKind, str] = {
    "closed": CLOSED,
    "start": START,
    "runoff": RUNOFF,
    "trigger": TRIGGER,
    "open": SNOW,
}
# the order spaces are drawn in, so that a highlighted edge is not drawn over by a
# neighbour's (and a start space stays seen where a track overlaps itself)
DRAWING_ORDER: tuple[SpaceKind, ...] = ("open", "closed", "runoff", "trigger", "start")
LABEL_CHAR = 0.27  # a bold label letter's width, in lane widths


@dataclass(frozen=True)
class _Board:
    """What the drawing reads: the course, its layout, and what lies on each space."""

    track: SnowTrack
    course: Course
    layout: BoardLayout
    trees: tuple[SpaceShape, ...]
    markers: tuple[SpaceShape, ...]
    triggers: Mapping[Address, tuple[str, ...]]

    def kind(self, address: Address) -> SpaceKind:
        if address not in self.course.graph:
            return "closed"
        node = self.course.graph.nodes[address]
        if node["is_start"]:
            return "start"
        if node["beyond_finish"]:
            return "runoff"
        return "trigger" if address in self.triggers else "open"

    def describe(self, address: Address) -> str:
        """What a space is, in a few words: its address, then what is special about it."""
        words = [f"{address.segment} {address.lane} {address.index}"]
        if address in self.course.closed:
            words.append(f"closed ({self.course.closed[address]})")
        elif address not in self.course.spaces:
            words.append("off the course")
        else:
            node = self.course.graph.nodes[address]
            words.append(f"lane {node['lane']} as driven")
            if node["is_start"]:
                words.append("start space")
            if node["beyond_finish"]:
                words.append("beyond the finish")
        if address in self.triggers:
            words.append("trigger: " + ", ".join(self.triggers[address]))
        if any(t.address == address for t in self.trees):
            words.append("tree")
        if any(m.address == address for m in self.markers):
            words.append("marker")
        return "<br>".join(words)

    def tight(self, segment_id: str) -> bool:
        segment = self.track.segment(segment_id)
        return segment is not None and segment.tight


def course_scene(track: SnowTrack) -> Scene:
    """The scene of ``track`` (see the module docstring)."""
    board = _board(track)
    shapes: list[Shape] = [
        *_off_course(board),
        *_spaces(board),
        *_space_spots(board),  # the figure's first spots: its first trace
        *_segment_edges(board),
        *_start_lanes(board),
        *_lines(board),
        *_buildings(board),
        *_markers(board),
        *_trees(board),
        *_travel_arrow(board),
    ]
    left, bottom, right, top = _picture_bounds(board)
    return Scene(
        track.name,
        tuple(shapes),
        (left, -top, right, -bottom),
        unit=UNIT,
        note=track.note or track.description,
        legend=_legend(),
        places=MappingProxyType({a: _flip(s.centre) for a, s in board.layout.spaces.items()}),
        pan=True,
    )


def _board(track: SnowTrack) -> _Board:
    course = build_course(track)
    layout = lay_out(course)
    triggers = {
        address: tuple(BUILDING_NAMES[k] for k in sorted(kinds))
        for address, kinds in course.graph.nodes(data="trigger_of")
        if kinds
    }
    return _Board(
        track,
        course,
        layout,
        trees=_shapes_of(layout, track.trees),
        markers=_shapes_of(layout, track.markers),
        triggers=triggers,
    )


def _shapes_of(layout: BoardLayout, addresses: tuple[Address, ...]) -> tuple[SpaceShape, ...]:
    """The spaces of ``addresses`` that lie on the board (one off it is left out)."""
    shapes = (layout.shape(a) for a in dict.fromkeys(addresses))
    return tuple(s for s in shapes if s is not None)


def _flip(point: Point) -> Point:
    """A point of the layout's plane (y up) on the page (y down)."""
    return point[0], -point[1]


def _flipped(points: tuple[Point, ...]) -> tuple[Point, ...]:
    return tuple(_flip(p) for p in points)


def _readable(heading: int) -> int:
    """The angle (counter-clockwise, degrees) of lettering along ``heading``, never upside
    down."""
    angle = heading % 180
    return angle - 180 if angle > 90 else angle


def _label_spot(line: LineShape) -> tuple[Point, Anchor]:
    """Where START or FINISH goes (in the layout's plane): past the line's outer end,
    reading away from the track; on a line across a track that runs left and right,
    beside the end and reading back along the track, clear of the run-off and of the
    arrow just past the start line."""
    (x, y), (ox, oy), (ax, _) = line.ends[1], line.outward, line.ahead
    if abs(ox) >= abs(oy):
        return (x + 0.25 * ox, y + 0.25 * oy), "start" if ox > 0 else "end"
    return (x - 0.1 * ax, y + 0.6 * oy), "end" if ax > 0 else "start"


def _labels(board: _Board) -> list[tuple[LineShape, str, str]]:
    """The start and finish lines there are, with their words and colours."""
    lines = (
        (board.layout.start_line, "START", START_LINE),
        (board.layout.finish_line, "FINISH", FINISH),
    )
    return [(line, word, colour) for line, word, colour in lines if line is not None]


def _picture_bounds(board: _Board) -> Box:
    """The layout's bounds (left, bottom, right, top), widened to hold START and FINISH."""
    left, bottom, right, top = board.layout.bounds
    for line, word, _ in _labels(board):
        (x, y), anchor = _label_spot(line)
        width = LABEL_CHAR * len(word)
        start = {"start": x, "end": x - width, "middle": x - width / 2}[anchor]
        left, right = min(left, start), max(right, start + width)
        bottom, top = min(bottom, y - 0.3), max(top, y + 0.3)
    return left, bottom, right, top


def _off_course(board: _Board) -> list[Shape]:
    """The segments off the course (closed branches…), faint and dashed, under the course."""
    shapes: list[Shape] = [
        Polygon(_flipped(s.outline), OFF_COURSE, OFF_COURSE_EDGE, dash="5,4")
        for s in board.layout.segments.values()
        if not s.on_course
    ]
    shapes += [
        Polygon(_flipped(s.polygon), NONE, OFF_COURSE_EDGE, 0.8)
        for s in board.layout.off_course.values()
    ]
    return shapes


def _spaces(board: _Board) -> list[Shape]:
    """The course's snow, then every space filled by what it is (start, trigger, run-off,
    closed)."""
    shapes: list[Shape] = [
        Polygon(_flipped(s.outline), SNOW) for s in board.layout.segments.values() if s.on_course
    ]
    kinds = {address: board.kind(address) for address in board.layout.spaces}
    for address, shape in sorted(
        board.layout.spaces.items(), key=lambda item: DRAWING_ORDER.index(kinds[item[0]])
    ):
        trigger = address in board.triggers
        kind = kinds[address]
        shapes.append(
            Polygon(
                _flipped(shape.polygon),
                FILLS[kind],
                TRIGGER_EDGE if trigger else SPACE_EDGE,
                1.8 if trigger else 1,
                group="space",
                node=None if kind == "closed" else address,
            )
        )
    return shapes


def _segment_edges(board: _Board) -> list[Shape]:
    """The track's sides: each course segment's outline, red and dashed for a tight corner
    (its lanes end at the side: a sled leaves it by drifting), with the word 'tight'."""
    shapes: list[Shape] = []
    for segment in board.layout.segments.values():
        if not segment.on_course:
            continue
        tight = board.tight(segment.id)
        outline = _flipped(segment.outline)
        if tight:
            shapes.append(Polygon(outline, NONE, TIGHT, 2.5, dash="8,4"))
            shapes.append(Text(_flip(segment.middle), "tight", 0.42, TIGHT, bold=True, halo=SNOW))
        else:
            shapes.append(Polygon(outline, NONE, INK, 2))
    return shapes


def _start_lanes(board: _Board) -> list[Shape]:
    """The lane number (as driven) on each start space, for placing the sleds."""
    return [
        Text(
            _flip(board.layout.spaces[address].centre),
            str(board.course.graph.nodes[address]["lane"]),
            0.4,
            START_LINE,
            bold=True,
        )
        for address in board.course.start_spaces
    ]


def _lines(board: _Board) -> list[Shape]:
    """The start line (dark) and the finish line (chequered), each named at its outer end."""
    shapes: list[Shape] = []
    for line, word, colour in _labels(board):
        ends = _flipped(line.ends)
        shapes.append(Line(ends, INK, 6))
        if word == "FINISH":
            shapes.append(Line(ends, SNOW, 4, dash="5,5"))
        else:
            shapes.append(Line(ends, colour, 4))
        spot, anchor = _label_spot(line)
        shapes.append(Text(_flip(spot), word, 0.4, colour, anchor, bold=True))
    return shapes


def _buildings(board: _Board) -> list[Shape]:
    """Each building's roof with its name; the Tavern's door as a bar facing the track."""
    shapes: list[Shape] = []
    for building in board.layout.buildings:
        key = _building_space(board, building.kind)  # a click on it acts on its space
        hover = None if key is None else f"{building.name}: {' '.join(map(str, key))}"
        shapes.append(
            Polygon(
                _flipped(building.polygon), BUILDING, INK, 2, hover=hover, key=key, group="building"
            )
        )
        if building.door is not None:
            shapes.append(Line(_flipped(building.door), DOOR, 5, cap="round"))
        angle = _readable(building.heading) if building.kind == "tavern" else 0
        shapes.append(
            Text(_flip(building.centre), building.name, 0.4, SNOW, bold=True, rotation=-angle)
        )
    return shapes


def _markers(board: _Board) -> list[Shape]:
    """A white track marker (a disc with a dark rim) on each marker's space."""
    return [
        Circle(
            _flip(shape.centre),
            0.28,
            SNOW,
            INK,
            2.5,
            hover=f"marker: {board.describe(shape.address)}",
            key=_key(shape.address),  # a click on it acts on its space (Remove takes it)
            group="marker",
        )
        for shape in board.markers
    ]


def _trees(board: _Board) -> list[Shape]:
    """A fir on each tree's space, telling in a figure which space it stands on."""
    shapes: list[Shape] = []
    for shape in board.trees:
        x, y = _flip(shape.centre)
        shapes += fir(x, y, 0.3, group="tree")
        hover = f"tree: {board.describe(shape.address)}"
        # a click on the fir acts on its space (Remove takes it), as one beside it does
        shapes.append(Spot((x, y), 13, hover, _key(shape.address), group="tree"))
    return shapes


def _key(address: Address) -> tuple[str, int, int]:
    """What a click on a space, or on what stands on it, gives back."""
    return (address.segment, address.lane, address.index)


def _building_space(board: _Board, kind: str) -> tuple[str, int, int] | None:
    """The key of the space a click on the building ``kind`` acts on: its first lane and
    row (the Tavern: the lane at its side)."""
    building = next((b for b in board.track.buildings if b.kind == kind), None)
    if building is None:
        return None
    lane = building.lanes[0] if building.lanes is not None else 1
    segment = board.track.segment(building.segment)
    if building.lanes is None and building.side == "right" and segment is not None:
        lane = segment.lanes
    return _key(Address(building.segment, lane, building.rows[0]))


def fir(x: float, y: float, size: float, group: str | None = None) -> list[Shape]:
    """A fir centred on ``(x, y)``: two green tiers on a brown trunk."""
    low = ((x - size, y + 0.6 * size), (x + size, y + 0.6 * size), (x, y - 0.4 * size))
    high = ((x - 0.75 * size, y), (x + 0.75 * size, y), (x, y - 1.1 * size))
    return [
        Rectangle(x - 0.12 * size, y + 0.5 * size, 0.24 * size, 0.5 * size, TRUNK, group=group),
        *(Polygon(tier, TREE, TREE_EDGE, 1.0, group=group) for tier in (low, high)),
    ]


def _travel_arrow(board: _Board) -> list[Shape]:
    """An arrow beside the start line, pointing the way the race goes."""
    if board.layout.travel is None:
        return []
    (x1, y1), (x2, y2) = _flipped(board.layout.travel)
    shorter = 0.35 / math.hypot(x2 - x1, y2 - y1)  # room for the head
    end = (x2 - (x2 - x1) * shorter, y2 - (y2 - y1) * shorter)
    return [Line(((x1, y1), end), INK, 3.5, arrow=3, group="travel")]


def _space_spots(board: _Board) -> list[Shape]:
    """An invisible spot on each space: what it is, and its address for a click."""
    return [
        Spot(
            _flip(shape.centre),
            14,
            board.describe(address),
            _key(address),
            "spaces",
            address,
        )
        for address, shape in board.layout.spaces.items()
    ]


def _legend() -> tuple[LegendEntry, ...]:
    """The space colours, then a tree and a marker."""
    squares = tuple(
        LegendEntry(word, (Rectangle(-0.3, -0.3, 0.6, 0.6, colour, SPACE_EDGE),), "square", colour)
        for word, colour in (
            ("start", START),
            ("trigger", TRIGGER),
            ("run-off", RUNOFF),
            ("closed", CLOSED),
        )
    )
    return (
        *squares,
        LegendEntry("tree", tuple(fir(0.0, 0.0, 0.3)), "triangle-up", TREE),
        LegendEntry("marker", (Circle((0.0, 0.0), 0.25, SNOW, INK, 2.5),), "circle", SNOW),
    )
