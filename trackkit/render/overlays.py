"""Figures drawn over the track: a heat map with its own colour scale, and pawns.

Both start from :func:`trackkit.render.plot.scene_figure` so the track looks the same as
everywhere else, then add what they show.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
from plotly.colors import qualitative, sample_colorscale

from trackkit.limits import PLOT_POINTS
from trackkit.render.layout import TERRAIN_COLOURS, Scene, square_name
from trackkit.render.plot import figure_name, scene_figure, scene_figure_cost

HEAT_SCALE = "YlOrRd"
PAWN_COLOURS = qualitative.Bold
# where pawns sharing a square sit around its centre (the rules allow two; falls back beyond)
_SPOTS = ((-0.2, -0.2), (0.2, 0.2), (0.2, -0.2), (-0.2, 0.2))


def _square_shape(shape: go.layout.Shape, centres: dict[tuple[float, float], str]) -> str | None:
    """The square id a shape of :func:`scene_figure` fills, or None for any other shape."""
    if shape.type != "rect" or shape.fillcolor is None:
        return None
    centre = (round((shape.x0 + shape.x1) / 2, 6), round((shape.y0 + shape.y1) / 2, 6))
    small = shape.x1 - shape.x0 < 1
    return centres.get(centre) if small else None


def _without_terrain_legend(figure: go.Figure) -> None:
    legend = {f"{terrain} (" for terrain in TERRAIN_COLOURS}
    figure.data = [
        trace
        for trace in figure.data
        if not (trace.name and any(trace.name.startswith(t) for t in legend))
    ]


def _track_figure(scene: Scene) -> go.Figure:
    figure = scene_figure(scene)
    _without_terrain_legend(figure)
    return figure


def heat_figure(scene: Scene, heat: dict[str, float], unit: str) -> go.Figure:
    """The track with each square coloured by ``heat[square id]`` on a colour scale of its
    own, a colour bar titled ``unit``, and no terrain legend (terrain is not what it shows)."""
    figure = _track_figure(scene)
    top = max(heat.values(), default=0.0) or 1.0
    centres = {(round(s.centre[0], 6), round(s.centre[1], 6)): s.id for s in scene.squares}
    values = {s.id: heat.get(s.id, 0.0) for s in scene.squares}
    colours = dict(
        zip(
            values,
            sample_colorscale(HEAT_SCALE, [v / top for v in values.values()]),
            strict=True,
        )
    )
    shapes = []
    for shape in figure.layout.shapes:
        square = _square_shape(shape, centres)
        if square is not None:
            shape = go.layout.Shape(shape).update(fillcolor=colours[square])
        shapes.append(shape)
    figure.layout.shapes = shapes
    for trace in figure.data:
        if trace.name == "squares":  # the costs: dark on the light end, light on the dark end
            trace.textfont.color = [
                "#ffffff" if values[s.id] / top > 0.6 else "#1d1d1d" for s in scene.squares
            ]
            trace.hoverinfo = "skip"
    figure.add_trace(
        go.Scatter(
            x=[s.centre[0] for s in scene.squares],
            y=[s.centre[1] for s in scene.squares],
            mode="markers",
            marker=dict(
                size=24,  # invisible, but wide enough to hover over the square
                opacity=0,
                color=[values[s.id] for s in scene.squares],
                colorscale=HEAT_SCALE,
                cmin=0,
                cmax=top,
                showscale=True,
                colorbar=dict(title=dict(text=unit, side="right"), thickness=14),
            ),
            hovertext=[
                f"{square_name(s.id)} ({s.terrain}): {values[s.id]:.2f} {unit}"
                for s in scene.squares
            ],
            hoverinfo="text",
            name="heat",
            showlegend=False,
        )
    )
    figure.update_layout(showlegend=False)
    return figure


def _pawns(scene: Scene, where: Sequence[str], names: Sequence[str]) -> list[go.Scatter]:
    """One trace per player, in seat order; a player off the board has no point."""
    centres = {s.id: s.centre for s in scene.squares}
    taken: dict[str, int] = {}
    traces = []
    for player, (square, name) in enumerate(zip(where, names, strict=True)):
        x: float | None = None
        y: float | None = None
        if square in centres:
            nth = taken.get(square, 0)
            taken[square] = nth + 1
            dx, dy = _SPOTS[nth % len(_SPOTS)]
            x, y = centres[square][0] + dx, centres[square][1] + dy
        traces.append(
            go.Scatter(
                x=[x],
                y=[y],
                mode="markers+text",
                marker=dict(
                    size=20,
                    color=PAWN_COLOURS[player % len(PAWN_COLOURS)],
                    line=dict(color="white", width=2),
                ),
                text=[str(player + 1)],
                textfont=dict(color="white", size=11),
                hovertext=[f"{player + 1}. {name}: {square_name(square)}"],
                hoverinfo="text",
                name=f"{player + 1}. {name}",
                legendgroup="pawns",
            )
        )
    return traces


def pawn_figure(
    scene: Scene, where: Sequence[str], names: Sequence[str], title: str | None = None
) -> go.Figure:
    """The track with one pawn per player on the square ``where[player]`` (square ids; any
    other value, such as the start, draws no pawn). The costs on the squares say the
    terrain, so the legend lists only the pawns."""
    figure = _track_figure(scene)
    figure.add_traces(_pawns(scene, where, names))
    figure.update_layout(
        legend=dict(orientation="h", yanchor="top", y=-0.02, x=0), margin=dict(b=40)
    )
    if title is not None:
        figure.update_layout(title=title)
    return figure


def race_animation(
    scene: Scene, rounds: Sequence[Sequence[str]], names: Sequence[str], shown: int
) -> go.Figure:
    """:func:`pawn_figure` after round ``shown`` of ``rounds`` (where everyone stands after
    each round; item 0 before the race), with a play button that moves the pawns through
    every round in the browser. Refused (``plot_points``) before anything is built when
    the track and the frames' pawns are too many to draw."""
    # the frames' pawns on top of the track: checked before either is built
    PLOT_POINTS.check(scene_figure_cost(scene) + len(rounds) * len(names), figure_name(scene.title))
    figure = pawn_figure(scene, rounds[shown], names, title=f"After round {shown}")
    first = len(figure.data) - len(names)
    figure.frames = [
        go.Frame(
            name=str(number),
            data=_pawns(scene, where, names),
            traces=list(range(first, len(figure.data))),
            layout=dict(title=dict(text=f"After round {number}")),
        )
        for number, where in enumerate(rounds)
        if number > 0
    ]
    # redraw: the title says the round, and only a redraw updates it
    play = dict(frame=dict(duration=900, redraw=True), transition=dict(duration=300))
    figure.update_layout(
        updatemenus=[
            dict(
                type="buttons",
                direction="left",
                x=0.5,  # between the title and the chart's toolbar
                xanchor="center",
                y=1.0,
                yanchor="bottom",
                showactive=False,
                buttons=[dict(label="▶ Play the race", method="animate", args=[None, play])],
            )
        ]
    )
    return figure
