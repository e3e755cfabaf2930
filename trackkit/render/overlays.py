"""What is drawn over a track's scene, for any game: a heat map on its own colour scale,
faint ghosts of tiles, and pawns.

A heat map recolours the shapes that show a track node (their ``node``), and adds each
node's value to what it says on hover; the figure gets a colour bar. Pawns stand where
the scene ``places`` their nodes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

import plotly.graph_objects as go
from plotly.colors import qualitative, sample_colorscale

from trackkit.games.shapes import NONE, Circle, Polygon, Rectangle, Scene, Spot, Text
from trackkit.limits import PLOT_POINTS
from trackkit.render.figure import figure_cost, figure_name, scene_figure
from trackkit.render.layout import square_name

HEAT_SCALE = "YlOrRd"
BLANK = "#ffffff"  # a node without a value on a heat map
PAWN_COLOURS = qualitative.Bold
# where pawns sharing a square sit around its centre (the rules allow two; falls back beyond)
_SPOTS = ((-0.2, -0.2), (0.2, 0.2), (0.2, -0.2), (-0.2, 0.2))


@dataclasses.dataclass(frozen=True)
class Heat:
    """Values per node on a colour scale from ``low`` to ``high``, named ``unit``."""

    values: Mapping[Hashable, float]
    unit: str
    low: float
    high: float

    def level(self, value: float) -> float:
        return (value - self.low) / ((self.high - self.low) or 1.0)


def heat_of(values: Mapping[Hashable, float], unit: str, *, low: float | None = None) -> Heat:
    """The heat of ``values``: its scale from ``low`` (None: the least value) to the most."""
    numbers = list(values.values())
    bottom = min(numbers, default=0.0) if low is None else low
    return Heat(values, unit, bottom, max(numbers, default=bottom))


def heat_scene(scene: Scene, heat: Heat) -> Scene:
    """``scene`` with each node's shapes in its value's colour (a node without a value
    blank: white), its words readable on that colour, and its value said on hover."""
    colours = dict(
        zip(
            heat.values,
            sample_colorscale(HEAT_SCALE, [heat.level(v) for v in heat.values.values()]),
            strict=True,
        )
    )
    shapes = []
    for shape in scene.shapes:
        node = shape.node
        if node is None:
            shapes.append(shape)
            continue
        if shape.hover:
            said = heat.values.get(node)
            more = "no value" if said is None else f"{heat.unit}: {said:.3g}"
            shape = dataclasses.replace(shape, hover=f"{shape.hover}<br>{more}")
        if isinstance(shape, Polygon | Rectangle | Circle) and shape.fill != NONE:
            shape = dataclasses.replace(shape, fill=colours.get(node, BLANK))
        elif isinstance(shape, Text) and node in colours:
            light = heat.level(heat.values[node]) > 0.6
            shape = dataclasses.replace(shape, colour="#ffffff" if light else "#1d1d1d")
        shapes.append(shape)
    return dataclasses.replace(scene, shapes=tuple(shapes), legend=())


def colour_bar(scene: Scene, heat: Heat) -> go.Scatter:
    """The heat's colour bar, on invisible points at the scene's places (one without a
    value at the bottom of the scale: the bar shows even when no value has a place)."""
    nodes = list(scene.places)
    return go.Scatter(
        x=[scene.places[n][0] for n in nodes],
        y=[scene.places[n][1] for n in nodes],
        mode="markers",
        marker=dict(
            size=1,
            opacity=0,
            color=[heat.values.get(n, heat.low) for n in nodes],
            colorscale=HEAT_SCALE,
            cmin=heat.low,
            cmax=heat.high,
            showscale=True,
            colorbar=dict(title=dict(text=heat.unit, side="right"), thickness=14),
        ),
        hoverinfo="skip",
        name="heat",
        showlegend=False,
    )


def heat_map(scene: Scene, heat: Heat, title: str | None = None) -> go.Figure:
    """The figure of ``scene`` coloured by ``heat``, with its colour bar and no legend."""
    figure = scene_figure(heat_scene(scene, heat), title=title)
    figure.add_trace(colour_bar(scene, heat))
    figure.update_layout(showlegend=False)
    return figure


def heat_figure(scene: Scene, heat: Mapping[Hashable, float], unit: str) -> go.Figure:
    """The track with each node (square) coloured by ``heat[node]`` on a colour scale of
    its own from 0, a node without a value at 0, a colour bar titled ``unit``, and no
    legend (what the squares are is not what it shows)."""
    values = {node: heat.get(node, 0.0) for node in scene.places}
    return heat_map(scene, heat_of(values, unit, low=0.0))


def with_ghosts(scene: Scene, ghosts: Iterable[Scene]) -> Scene:
    """``scene`` with the filled boxes of each of ``ghosts`` (a tile and its squares)
    drawn faintly and dotted over it: where and how a tile would lie."""
    faint = [
        dataclasses.replace(s, opacity=0.4, dash="2,3", group="ghost", node=None, hover=None)
        for ghost in ghosts
        for s in ghost.shapes
        if isinstance(s, Rectangle) and s.fill != NONE
    ]
    spots = [s for s in scene.shapes if isinstance(s, Spot)]  # the pointer's, kept on top
    rest = [s for s in scene.shapes if not isinstance(s, Spot)]
    return dataclasses.replace(scene, shapes=(*rest, *faint, *spots))


Describe = Callable[[Hashable], str]  # a square or space in words, for a pawn's hover


def _pawns(
    scene: Scene,
    where: Sequence[Hashable],
    names: Sequence[str],
    describe: Describe = square_name,
) -> list[go.Scatter]:
    """One trace per player, in seat order; a player off the board has no point."""
    taken: dict[Hashable, int] = {}
    traces = []
    for player, (square, name) in enumerate(zip(where, names, strict=True)):
        x: float | None = None
        y: float | None = None
        if square in scene.places:
            nth = taken.get(square, 0)
            taken[square] = nth + 1
            dx, dy = _SPOTS[nth % len(_SPOTS)]
            x, y = scene.places[square][0] + dx, scene.places[square][1] + dy
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
                hovertext=[
                    f"{player + 1}. {name}: "
                    + (describe(square) if square in scene.places else "off the board")
                ],
                hoverinfo="text",
                name=f"{player + 1}. {name}",
                legendgroup="pawns",
            )
        )
    return traces


def pawn_figure(
    scene: Scene,
    where: Sequence[Hashable],
    names: Sequence[str],
    title: str | None = None,
    describe: Describe = square_name,
) -> go.Figure:
    """The track with one pawn per player on the node ``where[player]`` (any other value,
    such as the start, draws no pawn), ``describe`` naming it on hover. The legend lists
    only the pawns."""
    figure = scene_figure(dataclasses.replace(scene, legend=()))
    figure.add_traces(_pawns(scene, where, names, describe))
    figure.update_layout(
        legend=dict(orientation="h", yanchor="top", y=-0.02, x=0), margin=dict(b=40)
    )
    if title is not None:
        figure.update_layout(title=title)
    return figure


def race_animation(
    scene: Scene,
    rounds: Sequence[Sequence[Hashable]],
    names: Sequence[str],
    shown: int,
    describe: Describe = square_name,
) -> go.Figure:
    """:func:`pawn_figure` after round ``shown`` of ``rounds`` (where everyone stands after
    each round; item 0 before the race), with a play button that moves the pawns through
    every round in the browser. Refused (``plot_points``) before anything is built when
    the track and the frames' pawns are too many to draw."""
    # the frames' pawns on top of the track: checked before either is built
    PLOT_POINTS.check(figure_cost(scene) + len(rounds) * len(names), figure_name(scene.title))
    figure = pawn_figure(scene, rounds[shown], names, f"After round {shown}", describe)
    first = len(figure.data) - len(names)
    figure.frames = [
        go.Frame(
            name=str(number),
            data=_pawns(scene, where, names, describe),
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


__all__ = ["heat_figure", "pawn_figure", "race_animation", "with_ghosts"]
