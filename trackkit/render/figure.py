"""A :class:`~trackkit.games.shapes.Scene` as a Plotly figure (the app draws with it;
``render -o FILE.html`` saves it).

Polygons, rectangles, circles and plain lines become the layout's shapes, under
everything else and in the scene's order; a line with a head becomes an arrow, turned
words an annotation. Other words are text traces, one per group (their ``hover`` said
on the words themselves). Spots, and any other shape with a ``hover`` or a ``key``,
become invisible markers, one trace per group (the figure's first traces, in the
scene's order), each carrying its ``key`` as ``customdata``: with hover looking for
the nearest point at any distance, a click anywhere selects the nearest spot, so an
app can tell what was clicked. Rows grow downwards, one unit as long across as up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import plotly.graph_objects as go

from trackkit.games.shapes import (
    INVISIBLE,
    NONE,
    Circle,
    Line,
    Polygon,
    Rectangle,
    Scene,
    Spot,
    Text,
)
from trackkit.limits import PLOT_POINTS

FONT = 0.9  # a figure's letters, in pixels per picture pixel
PAPER = "#f4efe1"
INK = "#33261a"
POSITIONS = {"start": "middle right", "middle": "middle center", "end": "middle left"}
XANCHOR = {"start": "left", "middle": "center", "end": "right"}

Drawn = dict[str, Any]  # a layout shape or annotation, as Plotly takes it


def figure_name(name: str) -> str:
    """How a refusal names the figure of the track named ``name``."""
    return f"the interactive figure of {name!r}"


def figure_cost(scene: Scene) -> int:
    """The points, shapes and annotations :func:`scene_figure` draws for ``scene``,
    counted without building anything (each one is checked in Python and drawn by the
    browser, on every rerun)."""
    found = (s for s in scene.shapes if not isinstance(s, Text | Spot) and (s.hover or s.key))
    return len(scene.shapes) + sum(1 for _ in found)


def scene_figure(scene: Scene, *, title: str | None = None) -> go.Figure:
    """The figure of ``scene`` (see the module docstring), titled ``title`` or the
    scene's title. Refused with a :class:`~trackkit.limits.CostLimitError` before
    anything is built when it would draw more than the ``plot_points`` limit allows."""
    PLOT_POINTS.check(figure_cost(scene), figure_name(scene.title))
    shapes, annotations = [], []
    for shape in scene.shapes:
        if isinstance(shape, Line) and shape.arrow:
            annotations.append(_arrow(shape))
        elif isinstance(shape, Text) and shape.rotation:
            annotations.append(_turned_words(shape, scene.unit))
        elif not isinstance(shape, Text | Spot):
            shapes.append(_layout_shape(shape))
    figure = go.Figure()
    figure.add_traces(_spot_traces(scene))  # the scene's first spots are the first trace
    figure.add_traces(_word_traces(scene))
    figure.add_traces(_legend(scene))
    _lay_out(figure, scene, shapes, annotations, title or scene.title)
    return figure


def _dash(dash: str | None) -> str:
    return "solid" if not dash else ",".join(f"{part.strip()}px" for part in dash.split(","))


def _line(shape: Polygon | Rectangle | Circle | Line) -> dict[str, Any]:
    if shape.stroke == NONE:
        return dict(width=0)
    dash = None if isinstance(shape, Circle) else shape.dash
    return dict(color=shape.stroke, width=shape.stroke_width, dash=_dash(dash))


def _layout_shape(shape: Polygon | Rectangle | Circle | Line) -> Drawn:
    """A shape drawn below the traces (the words and spots stay on top)."""
    style: Drawn = dict(line=_line(shape), layer="below")
    if not isinstance(shape, Line) and shape.fill != NONE:
        style["fillcolor"] = shape.fill
    if shape.opacity != 1:
        style["opacity"] = shape.opacity
    if shape.group:
        style["name"] = shape.group
    if isinstance(shape, Rectangle):
        right, bottom = shape.left + shape.width, shape.top + shape.height
        return dict(type="rect", x0=shape.left, y0=shape.top, x1=right, y1=bottom, **style)
    if isinstance(shape, Circle):
        (x, y), r = shape.centre, shape.radius
        return dict(type="circle", x0=x - r, y0=y - r, x1=x + r, y1=y + r, **style)
    if isinstance(shape, Line) and len(shape.points) == 2:
        (x0, y0), (x1, y1) = shape.points
        return dict(type="line", x0=x0, y0=y0, x1=x1, y1=y1, **style)
    path = "M " + " L ".join(f"{x:.4f},{y:.4f}" for x, y in shape.points)
    return dict(type="path", path=path + (" Z" if isinstance(shape, Polygon) else ""), **style)


def _arrow(line: Line) -> Drawn:
    """A line with a head, as an arrow from its first point to its last."""
    (ax, ay), (x, y) = line.points[0], line.points[-1]
    return dict(
        x=x,
        y=y,
        ax=ax,
        ay=ay,
        xref="x",
        yref="y",
        axref="x",
        ayref="y",
        text="",
        showarrow=True,
        arrowhead=2,
        arrowsize=0.5 * line.arrow,
        arrowwidth=0.6 * line.stroke_width,
        arrowcolor=line.stroke,
    )


def _words(text: Text) -> str:
    return f"<b>{text.text}</b>" if text.bold else text.text


def _turned_words(text: Text, unit: float) -> Drawn:
    return dict(
        x=text.at[0],
        y=text.at[1],
        text=_words(text),
        textangle=text.rotation,
        xanchor=XANCHOR[text.anchor],
        yanchor="middle",
        showarrow=False,
        font=dict(size=text.size * unit * FONT, color=text.colour),
    )


def _grouped(items: list[Any], key: Any) -> dict[Any, list[Any]]:
    groups: dict[Any, list[Any]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def _word_traces(scene: Scene) -> list[go.Scatter]:
    """The words not turned: a text trace per group, size, weight and anchor."""
    texts = [s for s in scene.shapes if isinstance(s, Text) and not s.rotation]
    traces = []
    for (group, size, anchor), words in _grouped(
        texts, lambda t: (t.group, t.size, t.anchor)
    ).items():
        hover = any(t.hover for t in words)
        traces.append(
            go.Scatter(
                x=[t.at[0] for t in words],
                y=[t.at[1] for t in words],
                mode="text",
                text=[_words(t) for t in words],
                textposition=POSITIONS[anchor],
                textfont=dict(color=[t.colour for t in words], size=size * scene.unit * FONT),
                hovertext=[t.hover or "" for t in words] if hover else None,
                hoverinfo="text" if hover else "skip",
                name=group or "words",
                showlegend=False,
            )
        )
    return traces


def _spots(scene: Scene) -> Iterator[Spot]:
    """The scene's spots, and one at the centre of any other shape a pointer may find."""
    for shape in scene.shapes:
        if isinstance(shape, Spot):
            yield shape
        elif not isinstance(shape, Text) and (shape.hover or shape.key):
            yield Spot(shape.centre, 14, shape.hover, shape.key, shape.group, shape.node)


def _spot_traces(scene: Scene) -> list[go.Scatter]:
    """Invisible markers, a trace per group, saying what lies there and carrying keys."""
    traces = []
    for group, spots in _grouped(list(_spots(scene)), lambda s: s.group).items():
        keyed = any(s.key is not None for s in spots)
        traces.append(
            go.Scatter(
                x=[s.at[0] for s in spots],
                y=[s.at[1] for s in spots],
                customdata=[list(s.key) if s.key else None for s in spots] if keyed else None,
                mode="markers",
                # sizes in a list make a bubble chart, whose markers get a white rim
                marker=dict(size=[s.size for s in spots], color=INVISIBLE, line=dict(width=0)),
                selected=dict(marker=dict(color=INVISIBLE)),
                unselected=dict(marker=dict(opacity=0)),
                hovertext=[s.hover or "" for s in spots],
                hoverinfo="text",
                name=group or "spots",
                showlegend=False,
            )
        )
    return traces


def _legend(scene: Scene) -> list[go.Scatter]:
    """One legend entry per entry of the scene's (no points on the chart)."""
    return [
        go.Scatter(
            x=[None],
            y=[None],
            mode="markers",
            marker=dict(
                size=12, color=entry.colour, symbol=entry.symbol, line=dict(color=INK, width=1)
            ),
            name=entry.label,
        )
        for entry in scene.legend
    ]


def _lay_out(
    figure: go.Figure, scene: Scene, shapes: list[Drawn], annotations: list[Drawn], title: str
) -> None:
    """Title, size, colours, legend and hidden square axes round the scene (rows grow down)."""
    left, top, right, bottom = scene.bounds
    span = max(right - left, bottom - top) + 1
    figure.update_layout(
        title=title,
        height=int(min(900, max(420, 40 * span))),
        shapes=shapes,
        annotations=annotations,
        plot_bgcolor=PAPER,
        paper_bgcolor=PAPER,
        margin=dict(l=10, r=10, t=40, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.02),
        xaxis=dict(visible=False, range=[left - 0.5, right + 0.5]),
        yaxis=dict(visible=False, range=[bottom + 0.5, top - 0.5], scaleanchor="x", scaleratio=1),
        dragmode="pan" if scene.pan else False,
    )
    if any(s.key is not None for s in _spots(scene)):
        figure.update_layout(hoverdistance=-1)  # no cutoff: the nearest spot is found
