"""A Snow Tails track drawn: an SVG or PNG picture, or a Plotly figure that can colour the
spaces as a heat map (where the collisions happen, say).

Both show the lanes and their spaces (closed ones grey), the start spaces and line, the
finish line and the run-off beyond it, trees, markers, the buildings with their names and
their trigger spaces, an arrow the way the race goes and the track's name. The shapes come
from :func:`trackkit.games.snowtails.layout.lay_out`, whose drawing conventions they
share.

>>> from trackkit.games.snowtails.presets import load_preset
>>> svg = lane_svg(load_preset("long-trail"))
>>> svg.startswith("<?xml"), "Kennels" in svg
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import drawsvg as draw
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from trackkit.games.snowtails.geometry import Course, build_course
from trackkit.games.snowtails.layout import (
    BoardLayout,
    LineShape,
    Point,
    Polygon,
    SpaceShape,
    lay_out,
)
from trackkit.games.snowtails.track import BUILDING_NAMES, Address, SnowTrack
from trackkit.render import PNG_ZOOM, check_canvas, picture_name, svg_to_png
from trackkit.render.plot import check_figure

UNIT = 34  # pixels per lane width
MARGIN = 1.2  # lane widths around the track
HEADER = 2.2  # lane widths for the title and the note under it
LEGEND = 1.6  # lane widths for the legend along the bottom
LEGEND_STEP = 3.3  # lane widths from one legend entry to the next
TITLE_CHAR = 0.5  # a bold title letter's width, in lane widths (generous: never cut off)
NOTE_CHAR = 0.22

INK = "#33261a"
PAPER = "#f4efe1"
SNOW = "#ffffff"
SPACE_EDGE = "#8a9aab"
CLOSED = "#bdbdbd"
START = "#cfe3f5"
RUNOFF = "#f6d5d0"
TRIGGER = "#fbe7a1"
TRIGGER_EDGE = "#c9900c"
TREE = "#1e7b3c"
TRUNK = "#6d4c2f"
BUILDING = "#8a5a3b"
START_LINE = "#2c3e50"
FINISH = "#c0392b"
TIGHT = "#c0392b"
OFF_COURSE = "#ece6d6"
OFF_COURSE_EDGE = "#b9ae95"
HEAT_SCALE = "YlOrRd"

SpaceKind = Literal["closed", "start", "runoff", "trigger", "open"]
FILLS: dict[SpaceKind, str] = {
    "closed": CLOSED,
    "start": START,
    "runoff": RUNOFF,
    "trigger": TRIGGER,
    "open": SNOW,
}
LEGEND_ENTRIES: tuple[tuple[str, str], ...] = (
    ("start", START),
    ("trigger", TRIGGER),
    ("run-off", RUNOFF),
    ("closed", CLOSED),
)

Pixels = Callable[[float, float], tuple[float, float]]  # a layout point to its pixel


@dataclass(frozen=True)
class _Board:
    """What both drawings read: the course, its layout, and what lies on each space."""

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


def _tight(board: _Board, segment_id: str) -> bool:
    segment = board.track.segment(segment_id)
    return segment is not None and segment.tight


def _readable(heading: int) -> int:
    """The angle (counter-clockwise, degrees) of lettering along ``heading``, never upside
    down."""
    angle = heading % 180
    return angle - 180 if angle > 90 else angle


Anchor = Literal["start", "end", "middle"]
LABEL_CHAR = 0.27  # a bold label letter's width, in lane widths


def _label_spot(line: LineShape) -> tuple[Point, Anchor]:
    """Where START or FINISH goes: past the line's outer end, reading away from the track;
    on a line across a track that runs left and right, beside the end and reading back
    along the track, clear of the run-off and of the arrow just past the start line."""
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


def _picture_bounds(board: _Board) -> tuple[float, float, float, float]:
    """The layout's bounds, widened to hold the START and FINISH labels."""
    left, bottom, right, top = board.layout.bounds
    for line, word, _ in _labels(board):
        (x, y), anchor = _label_spot(line)
        width = LABEL_CHAR * len(word)
        start = {"start": x, "end": x - width, "middle": x - width / 2}[anchor]
        left, right = min(left, start), max(right, start + width)
        bottom, top = min(bottom, y - 0.3), max(top, y + 0.3)
    return left, bottom, right, top


# --- SVG ----------------------------------------------------------------------------------


def lane_svg(track: SnowTrack) -> str:
    """An SVG document of ``track`` (see the module docstring for what it shows); refused
    when its canvas is over the limit."""
    return _lane_svg(track, zoom=1.0)


def lane_png(track: SnowTrack, zoom: float = PNG_ZOOM) -> bytes:
    """The picture of :func:`lane_svg` as PNG bytes; refused before drawing when its canvas
    at ``zoom`` is over the limit."""
    return svg_to_png(_lane_svg(track, zoom), zoom)


def lane_canvas_size(track: SnowTrack) -> tuple[float, float]:
    """The width and height in pixels of :func:`lane_svg`'s picture, found without drawing."""
    return _canvas_size(_board(track))


def _lane_svg(track: SnowTrack, zoom: float) -> str:
    """The SVG document, its canvas checked at the ``zoom`` it will be drawn at."""
    board = _board(track)
    width, height = _canvas_size(board)
    check_canvas((width, height), zoom, picture_name(track, zoom))
    px = _pixels(board)
    drawing = draw.Drawing(width, height, origin=(0, 0), font_family="sans-serif")
    drawing.append(draw.Rectangle(0, 0, width, height, fill=PAPER))
    drawing.extend(_heading(board))
    drawing.extend(_off_course(board, px))
    drawing.extend(_spaces(board, px))
    drawing.extend(_segment_edges(board, px))
    drawing.extend(_start_lanes(board, px))
    drawing.extend(_lines(board, px))
    drawing.extend(_buildings(board, px))
    drawing.extend(_markers(board, px))
    drawing.extend(_trees(board, px))
    drawing.extend(_travel_arrow(board, px))
    drawing.extend(_legend(height))
    return drawing.as_svg()


def _note(track: SnowTrack) -> str:
    return track.note or track.description


def _canvas_size(board: _Board) -> tuple[float, float]:
    """Width and height in pixels: the track, its margins, the title, the note, the legend."""
    left, bottom, right, top = _picture_bounds(board)
    width = max(
        right - left + 2 * MARGIN,
        len(LEGEND_ENTRIES) * LEGEND_STEP + 2 * LEGEND_STEP + 2 * MARGIN,
        TITLE_CHAR * len(board.track.name) + 2 * MARGIN,
        NOTE_CHAR * len(_note(board.track)) + 2 * MARGIN,
    )
    height = top - bottom + 2 * MARGIN + HEADER + LEGEND
    return width * UNIT, height * UNIT


def _pixels(board: _Board) -> Pixels:
    """Where a point of the layout lies in the picture (y turned to grow downwards)."""
    left, _, _, top = _picture_bounds(board)

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - left + MARGIN) * UNIT, (top - y + MARGIN + HEADER) * UNIT

    return px


def _path(polygon: Polygon, px: Pixels, **style: object) -> draw.Lines:
    points = [c for point in polygon for c in px(*point)]
    return draw.Lines(*points, close=True, **style)


def _heading(board: _Board) -> list[draw.DrawingElement]:
    """The track's name, and its note (a reconstruction says so) in small letters under it."""
    title = draw.Text(
        board.track.name, 0.8 * UNIT, MARGIN * UNIT, 1.2 * UNIT, font_weight="bold", fill=INK
    )
    note = draw.Text(_note(board.track), 0.36 * UNIT, MARGIN * UNIT, 1.85 * UNIT, fill=INK)
    return [title, note]


def _off_course(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """The segments off the course (closed branches…), faint and dashed, under the course."""
    elements = [
        _path(s.outline, px, fill=OFF_COURSE, stroke=OFF_COURSE_EDGE, stroke_dasharray="5,4")
        for s in board.layout.segments.values()
        if not s.on_course
    ]
    elements += [
        _path(s.polygon, px, fill="none", stroke=OFF_COURSE_EDGE, stroke_width=0.8)
        for s in board.layout.off_course.values()
    ]
    return elements


# the order spaces are drawn in, so that a highlighted edge is not drawn over by a
# neighbour's (and a start space stays seen where a track overlaps itself)
DRAWING_ORDER: tuple[SpaceKind, ...] = ("open", "closed", "runoff", "trigger", "start")


def _spaces(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """The course's snow, then every space filled by what it is (start, trigger, run-off,
    closed)."""
    elements = [
        _path(s.outline, px, fill=SNOW) for s in board.layout.segments.values() if s.on_course
    ]
    kinds = {address: board.kind(address) for address in board.layout.spaces}
    for address, shape in sorted(
        board.layout.spaces.items(), key=lambda item: DRAWING_ORDER.index(kinds[item[0]])
    ):
        trigger = address in board.triggers
        elements.append(
            _path(
                shape.polygon,
                px,
                fill=FILLS[kinds[address]],
                stroke=TRIGGER_EDGE if trigger else SPACE_EDGE,
                stroke_width=1.8 if trigger else 1,
                stroke_linejoin="round",
            )
        )
    return elements


def _segment_edges(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """The track's sides: each course segment's outline, red and dashed for a tight corner
    (its lanes end at the side: a sled leaves it by drifting), with the word 'tight'."""
    elements: list[draw.DrawingElement] = []
    for shape in board.layout.segments.values():
        if not shape.on_course:
            continue
        tight = _tight(board, shape.id)
        elements.append(
            _path(
                shape.outline,
                px,
                fill="none",
                stroke=TIGHT if tight else INK,
                stroke_width=2.5 if tight else 2,
                stroke_dasharray="8,4" if tight else "none",
                stroke_linejoin="round",
            )
        )
        if tight:
            elements.append(
                _centred(
                    "tight",
                    0.42 * UNIT,
                    *px(*shape.middle),
                    fill=TIGHT,
                    stroke=SNOW,
                    stroke_width=3,
                    paint_order="stroke",
                )
            )
    return elements


def _start_lanes(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """The lane number (as driven) on each start space, for placing the sleds."""
    elements = []
    for address in board.course.start_spaces:
        lane = str(board.course.graph.nodes[address]["lane"])
        centre = px(*board.layout.spaces[address].centre)
        elements.append(_centred(lane, 0.4 * UNIT, *centre, fill=START_LINE))
    return elements


def _lines(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """The start line (dark) and the finish line (chequered), each named at its outer end."""
    elements: list[draw.DrawingElement] = []
    for line, word, colour in _labels(board):
        (x1, y1), (x2, y2) = px(*line.ends[0]), px(*line.ends[1])
        elements.append(draw.Line(x1, y1, x2, y2, stroke=INK, stroke_width=6))
        if word == "FINISH":
            elements.append(
                draw.Line(x1, y1, x2, y2, stroke=SNOW, stroke_width=4, stroke_dasharray="5,5")
            )
        else:
            elements.append(draw.Line(x1, y1, x2, y2, stroke=colour, stroke_width=4))
        spot, anchor = _label_spot(line)
        lx, ly = px(*spot)
        elements.append(
            draw.Text(
                word,
                0.4 * UNIT,
                lx,
                ly,
                fill=colour,
                font_weight="bold",
                text_anchor=anchor,
                dominant_baseline="central",
            )
        )
    return elements


def _buildings(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """Each building's roof with its name; the Tavern's door as a bar facing the track."""
    elements: list[draw.DrawingElement] = []
    for building in board.layout.buildings:
        elements.append(
            _path(
                building.polygon,
                px,
                fill=BUILDING,
                stroke=INK,
                stroke_width=2,
                stroke_linejoin="round",
                class_="building",
            )
        )
        if building.door is not None:
            (x1, y1), (x2, y2) = px(*building.door[0]), px(*building.door[1])
            elements.append(
                draw.Line(x1, y1, x2, y2, stroke="#f1c40f", stroke_width=5, stroke_linecap="round")
            )
        x, y = px(*building.centre)
        angle = _readable(building.heading) if building.kind == "tavern" else 0
        elements.append(
            _centred(
                building.name,
                0.4 * UNIT,
                x,
                y,
                fill=SNOW,
                transform=f"rotate({-angle}, {x:.2f}, {y:.2f})",
            )
        )
    return elements


def _trees(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """A fir on each tree's space."""
    return [_fir(*px(*shape.centre), 0.3 * UNIT, class_="tree") for shape in board.trees]


def _fir(x: float, y: float, size: float, **attributes: str) -> draw.Group:
    """A fir centred on ``(x, y)``: two green tiers on a brown trunk."""
    tier = dict(close=True, fill=TREE, stroke="#0f4d24", stroke_width=1)
    fir = draw.Group(**attributes)
    fir.append(draw.Rectangle(x - 0.12 * size, y + 0.5 * size, 0.24 * size, 0.5 * size, fill=TRUNK))
    fir.append(
        draw.Lines(x - size, y + 0.6 * size, x + size, y + 0.6 * size, x, y - 0.4 * size, **tier)
    )
    fir.append(draw.Lines(x - 0.75 * size, y, x + 0.75 * size, y, x, y - 1.1 * size, **tier))
    return fir


def _centred(text: str, size: float, x: float, y: float, **style: object) -> draw.Text:
    """Bold ``text`` centred on ``(x, y)``."""
    return draw.Text(
        text,
        size,
        x,
        y,
        text_anchor="middle",
        dominant_baseline="central",
        font_weight="bold",
        **style,
    )


def _markers(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """A white track marker (a disc with a dark rim) on each marker's space."""
    marks = []
    for shape in board.markers:
        x, y = px(*shape.centre)
        marks.append(
            draw.Circle(x, y, 0.28 * UNIT, fill=SNOW, stroke=INK, stroke_width=2.5, class_="marker")
        )
    return marks


def _travel_arrow(board: _Board, px: Pixels) -> list[draw.DrawingElement]:
    """An arrow beside the start line, pointing the way the race goes."""
    if board.layout.travel is None:
        return []
    (x1, y1), (x2, y2) = (px(*p) for p in board.layout.travel)
    head = draw.Marker(-0.1, -0.51, 0.9, 0.5, scale=3, orient="auto")
    head.append(draw.Lines(-0.1, 0.5, -0.1, -0.5, 0.9, 0, fill=INK, close=True))
    shorter = 0.35 * UNIT / math.hypot(x2 - x1, y2 - y1)  # room for the head
    return [
        draw.Line(
            x1,
            y1,
            x2 - (x2 - x1) * shorter,
            y2 - (y2 - y1) * shorter,
            stroke=INK,
            stroke_width=3.5,
            marker_end=head,
            class_="travel",
        )
    ]


def _legend(height: float) -> list[draw.DrawingElement]:
    """A row along the bottom: the space colours, then a tree and a marker."""
    ly = height - LEGEND * UNIT * 0.7
    x = MARGIN * UNIT
    elements: list[draw.DrawingElement] = []
    for word, colour in LEGEND_ENTRIES:
        elements.append(
            draw.Rectangle(
                x, ly - 0.3 * UNIT, 0.6 * UNIT, 0.6 * UNIT, fill=colour, stroke=SPACE_EDGE
            )
        )
        elements.append(_legend_word(word, x + 0.8 * UNIT, ly))
        x += LEGEND_STEP * UNIT
    elements.append(_fir(x + 0.3 * UNIT, ly, 0.3 * UNIT))
    elements.append(_legend_word("tree", x + 0.8 * UNIT, ly))
    x += LEGEND_STEP * UNIT
    elements.append(
        draw.Circle(x + 0.3 * UNIT, ly, 0.25 * UNIT, fill=SNOW, stroke=INK, stroke_width=2.5)
    )
    elements.append(_legend_word("marker", x + 0.8 * UNIT, ly))
    return elements


def _legend_word(word: str, x: float, y: float) -> draw.Text:
    return draw.Text(word, 0.38 * UNIT, x, y, dominant_baseline="central", fill=INK)


# --- Plotly -------------------------------------------------------------------------------


Drawn = dict[str, object]  # a layout shape or annotation, as Plotly takes it


def lane_figure(
    track: SnowTrack,
    values: Mapping[Address, float] | None = None,
    title: str | None = None,
    unit: str = "value",
) -> go.Figure:
    """A Plotly figure of ``track``: each space a filled polygon, telling on hover its
    address (``segment lane index``) and what it is; an invisible point on each space
    carries its address as ``customdata`` ``[segment, lane, index]`` (a click on the space
    selects it).

    ``values`` (address → number, e.g. collisions on each space) colours the spaces as a
    heat map with a colour bar named ``unit``, and adds each value to the hover text;
    spaces without a value stay white, closed ones grey. ``title`` replaces the track's
    name as the title.

    Refused with a :class:`~trackkit.limits.CostLimitError` before the figure is built when
    it would draw more than the ``plot_points`` limit allows.
    """
    board = _board(track)
    values = {Address(*a): float(v) for a, v in values.items()} if values is not None else None
    shapes = [
        *_figure_beds(board),
        *_figure_spaces(board, values),
        *_figure_edges(board),
        *_figure_lines(board),
        *_figure_buildings(board),
    ]
    annotations = [*_figure_names(board), *_figure_arrow(board)]
    check_figure(
        track.name,
        points=len(board.layout.spaces) + len(board.trees) + len(board.markers),
        shapes=len(shapes) + len(annotations),
    )
    figure = go.Figure()
    figure.add_trace(_hover_points(board, values, unit))
    figure.add_traces(_figure_marks(board))
    _figure_layout(figure, board, shapes, annotations, title or track.name)
    return figure


def _svg_path(polygon: Polygon) -> str:
    return "M " + " L ".join(f"{x:.4f},{y:.4f}" for x, y in polygon) + " Z"


def _figure_beds(board: _Board) -> list[Drawn]:
    """The segments' snow under the spaces (faint for one off the course)."""
    return [
        dict(
            type="path",
            path=_svg_path(shape.outline),
            fillcolor=SNOW if shape.on_course else OFF_COURSE,
            line=dict(color=INK if shape.on_course else OFF_COURSE_EDGE, width=1),
            layer="below",
        )
        for shape in board.layout.segments.values()
    ]


def _figure_edges(board: _Board) -> list[Drawn]:
    """The track's sides over the spaces: each course segment's outline, red and dashed for
    a tight corner."""
    return [
        dict(
            type="path",
            path=_svg_path(shape.outline),
            line=dict(
                color=TIGHT if _tight(board, shape.id) else INK,
                width=3 if _tight(board, shape.id) else 2,
                dash="dash" if _tight(board, shape.id) else "solid",
            ),
        )
        for shape in board.layout.segments.values()
        if shape.on_course
    ]


def _heat_colours(values: Mapping[Address, float]) -> Callable[[float], str]:
    low, high = (min(values.values()), max(values.values())) if values else (0.0, 1.0)
    span = high - low or 1.0

    def colour(value: float) -> str:
        return str(sample_colorscale(HEAT_SCALE, [(value - low) / span])[0])

    return colour


def _figure_spaces(board: _Board, values: Mapping[Address, float] | None) -> list[Drawn]:
    """Every space: by what it is, or by its value on a heat map (closed ones grey)."""
    colour = _heat_colours(values) if values is not None else None
    shapes = []
    for address, shape in board.layout.spaces.items():
        kind = board.kind(address)
        if colour is None or kind == "closed":
            fill = FILLS[kind]
        else:
            fill = colour(values[address]) if values and address in values else SNOW
        trigger = address in board.triggers
        shapes.append(
            dict(
                type="path",
                path=_svg_path(shape.polygon),
                fillcolor=fill,
                line=dict(color=TRIGGER_EDGE if trigger else SPACE_EDGE, width=2 if trigger else 1),
                layer="below",
            )
        )
    return shapes


def _figure_lines(board: _Board) -> list[Drawn]:
    """The start line (dark) and the finish line (red), across the track."""
    lines = ((board.layout.start_line, START_LINE), (board.layout.finish_line, FINISH))
    return [
        dict(
            type="line",
            x0=line.ends[0][0],
            y0=line.ends[0][1],
            x1=line.ends[1][0],
            y1=line.ends[1][1],
            line=dict(color=colour, width=5),
        )
        for line, colour in lines
        if line is not None
    ]


def _figure_buildings(board: _Board) -> list[Drawn]:
    return [
        dict(
            type="path",
            path=_svg_path(b.polygon),
            fillcolor=BUILDING,
            line=dict(color=INK, width=2),
        )
        for b in board.layout.buildings
    ]


def _figure_names(board: _Board) -> list[Drawn]:
    """The buildings' names on them, and START and FINISH at their lines' outer ends."""
    names: list[Drawn] = [
        dict(
            x=b.centre[0],
            y=b.centre[1],
            text=f"<b>{b.name}</b>",
            textangle=-_readable(b.heading) if b.kind == "tavern" else 0,
            showarrow=False,
            font=dict(size=11, color=SNOW),
        )
        for b in board.layout.buildings
    ]
    names += [
        dict(
            x=shape.middle[0],
            y=shape.middle[1],
            text="<b>tight</b>",
            showarrow=False,
            font=dict(size=12, color=TIGHT),
            bgcolor="rgba(255, 255, 255, 0.7)",
        )
        for shape in board.layout.segments.values()
        if shape.on_course and _tight(board, shape.id)
    ]
    for line, word, colour in _labels(board):
        (x, y), anchor = _label_spot(line)
        names.append(
            dict(
                x=x,
                y=y,
                text=f"<b>{word}</b>",
                xanchor={"start": "left", "end": "right"}.get(anchor, "center"),
                showarrow=False,
                font=dict(size=11, color=colour),
            )
        )
    return names


def _figure_arrow(board: _Board) -> list[Drawn]:
    if board.layout.travel is None:
        return []
    (tx, ty), (hx, hy) = board.layout.travel
    return [
        dict(
            x=hx,
            y=hy,
            ax=tx,
            ay=ty,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            text="",
            showarrow=True,
            arrowhead=2,
            arrowsize=1.2,
            arrowwidth=3,
            arrowcolor=INK,
        )
    ]


def _hover_points(
    board: _Board, values: Mapping[Address, float] | None, unit: str = "value"
) -> go.Scatter:
    """One invisible point at the centre of each space, telling what the space is and
    carrying its address; with ``values``, also its value, and the colour bar of the heat
    map."""
    addresses = list(board.layout.spaces)
    centres = [board.layout.spaces[a].centre for a in addresses]
    texts = [board.describe(a) for a in addresses]
    marker: dict[str, object] = dict(size=14, color="rgba(0, 0, 0, 0)")
    if values is not None:
        texts = [
            t + (f"<br>{unit}: {values[a]:.3g}" if a in values else "<br>no value")
            for t, a in zip(texts, addresses, strict=True)
        ]
        numbers = list(values.values()) or [0.0]
        marker = dict(
            size=14,
            color=[values.get(a, min(numbers)) for a in addresses],
            colorscale=HEAT_SCALE,
            cmin=min(numbers),
            cmax=max(numbers),
            opacity=0,
            showscale=True,
            colorbar=dict(title=unit, thickness=14),
        )
    return go.Scatter(
        x=[x for x, _ in centres],
        y=[y for _, y in centres],
        mode="markers",
        marker=marker,
        hovertext=texts,
        hoverinfo="text",
        customdata=[[a.segment, a.lane, a.index] for a in addresses],
        name="spaces",
        showlegend=False,
    )


def _figure_marks(board: _Board) -> list[go.Scatter]:
    """Trees (green firs) and markers (white discs) on their spaces."""
    marks = []
    for shapes, name, style in (
        (board.trees, "tree", dict(symbol="triangle-up", size=13, color=TREE)),
        (board.markers, "marker", dict(symbol="circle", size=12, color=SNOW)),
    ):
        if not shapes:
            continue
        marks.append(
            go.Scatter(
                x=[s.centre[0] for s in shapes],
                y=[s.centre[1] for s in shapes],
                mode="markers",
                marker=dict(**style, line=dict(color=INK, width=1.5)),
                hovertext=[f"{name}: {board.describe(s.address)}" for s in shapes],
                hoverinfo="text",
                name=name,
            )
        )
    return marks


def _figure_layout(
    figure: go.Figure, board: _Board, shapes: list[Drawn], annotations: list[Drawn], title: str
) -> None:
    """Title, size, colours and hidden axes with one unit the same length across and up."""
    left, bottom, right, top = _picture_bounds(board)
    span = max(right - left, top - bottom) + 2
    figure.update_layout(
        title=title,
        height=int(min(900, max(420, 36 * span))),
        shapes=shapes,
        annotations=annotations,
        plot_bgcolor=PAPER,
        paper_bgcolor=PAPER,
        margin=dict(l=10, r=10, t=40, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.02),
        xaxis=dict(visible=False, range=[left - 1, right + 1]),
        yaxis=dict(visible=False, range=[bottom - 1, top + 1], scaleanchor="x", scaleratio=1),
        dragmode="pan",
    )
