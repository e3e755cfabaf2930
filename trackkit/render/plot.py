"""The track as a Plotly figure (the app draws with it; ``render -o FILE.html`` saves it)."""

from __future__ import annotations

from collections.abc import Iterable

import plotly.graph_objects as go

from trackkit.board.geometry import Side
from trackkit.games.yummell.terrain import Terrain
from trackkit.limits import PLOT_POINTS
from trackkit.render.layout import TERRAIN_COLOURS, Scene, SquareBox, TileBox

ARROW = {"N": "▲", "E": "▶", "S": "▼", "W": "◀"}

Drawn = dict[str, object]  # a layout shape or annotation, as Plotly takes it


def scene_figure(
    scene: Scene,
    *,
    highlight_cells: Iterable[tuple[int, int]] = (),
    clickable_cells: Iterable[tuple[int, int]] = (),
    heat: dict[str, float] | None = None,
    ghosts: Iterable[Scene] = (),
) -> go.Figure:
    """A figure of ``scene``.

    Refused with a :class:`~trackkit.limits.CostLimitError` before anything is built when
    the figure would draw more than the ``plot_points`` limit allows.

    ``highlight_cells`` (table cells) are outlined as places the next tile may go;
    ``clickable_cells`` are covered with invisible points, one per square of the cell, each
    carrying ``customdata = [x, y]``: with hover looking for the nearest point at any
    distance, a click anywhere in the cell selects one of its own points, so an app can
    tell which table cell was clicked. ``heat`` (square id → value) recolours the squares
    as a heat map, e.g. turns spent on each square. ``ghosts`` (scenes of one tile each)
    are drawn faintly, to show where and how a tile would lie.
    """
    cells, highlight, ghosts = list(clickable_cells), list(highlight_cells), list(ghosts)
    PLOT_POINTS.check(
        scene_figure_cost(scene, cells=len(cells), highlight=len(highlight), ghosts=ghosts),
        figure_name(scene.title),
    )
    shapes = [
        *_tile_outlines(scene),
        *_highlighted_cells(highlight, scene.grid),
        *_squares(scene, heat),
        *_finish_frame(scene),
        *_ghosts(ghosts),
        *_clickable_cell_outlines(cells, scene.grid),
    ]
    annotations = [
        *_link_arrows(scene),
        *_tile_labels(scene),
        *_start_labels(scene),
        *_finish_label(scene),
        *_junction_marks(scene),
    ]
    figure = go.Figure()
    figure.add_trace(_square_costs(scene, heat))
    if cells:
        figure.add_trace(_clickable_cell_points(cells, scene.grid))
    figure.add_traces(_terrain_legend())
    _lay_out(figure, scene, shapes, annotations, cells)
    return figure


def check_figure(name: str, *, points: int, shapes: int) -> None:
    """Refuse the figure of the track named ``name`` when its ``points`` (of its traces) and
    ``shapes`` (layout shapes and annotations) are over the ``plot_points`` limit: Plotly
    checks each one in Python, and the browser draws each one, on every rerun."""
    PLOT_POINTS.check(points + shapes, figure_name(name))


def figure_name(name: str) -> str:
    """How a refusal names the figure of the track named ``name``."""
    return f"the interactive figure of {name!r}"


def scene_figure_cost(
    scene: Scene, *, cells: int = 0, highlight: int = 0, ghosts: Iterable[Scene] = ()
) -> int:
    """The points, shapes and annotations :func:`scene_figure` draws for ``scene`` with
    ``cells`` clickable and ``highlight`` highlighted cells and ``ghosts``, counted without
    building anything."""
    points = len(scene.squares) + cells * scene.grid**2
    shapes = len(scene.tiles) + len(scene.squares) + 1 + cells + highlight
    shapes += sum(len(g.tiles) + len(g.squares) for g in ghosts)
    annotations = len(scene.links) + len(scene.tiles) + len(scene.starts) + 1
    return points + shapes + annotations + len(scene.junctions)


def _tile_outline(tile: TileBox, **style: object) -> Drawn:
    """The rectangle of one tile, just inside its cell, drawn below the squares."""
    return dict(
        type="rect",
        x0=tile.left + 0.05,
        y0=tile.top + 0.05,
        x1=tile.left + tile.size - 0.05,
        y1=tile.top + tile.size - 0.05,
        layer="below",
        **style,
    )


def _square_rect(square: SquareBox, **style: object) -> Drawn:
    """The rectangle of one square, a little smaller than its place."""
    cx, cy = square.centre
    return dict(type="rect", x0=cx - 0.42, y0=cy - 0.42, x1=cx + 0.42, y1=cy + 0.42, **style)


def _cell_rect(x: int, y: int, grid: int, **style: object) -> Drawn:
    """The rectangle of table cell ``(x, y)``, just inside it."""
    return dict(
        type="rect",
        x0=x * grid + 0.1,
        y0=y * grid + 0.1,
        x1=(x + 1) * grid - 0.1,
        y1=(y + 1) * grid - 0.1,
        **style,
    )


def _tile_outlines(scene: Scene) -> list[Drawn]:
    return [
        _tile_outline(tile, fillcolor="#e2d6b8", line=dict(color="#7a6a4f", width=2))
        for tile in scene.tiles
    ]


def _highlighted_cells(cells: Iterable[tuple[int, int]], grid: int) -> list[Drawn]:
    """Green dashed outlines of the cells where the next tile may go."""
    return [
        _cell_rect(
            x,
            y,
            grid,
            fillcolor="rgba(46, 204, 113, 0.18)",
            line=dict(color="#27ae60", width=3, dash="dash"),
            layer="below",
        )
        for x, y in cells
    ]


def _squares(scene: Scene, heat: dict[str, float] | None) -> list[Drawn]:
    """The squares in their terrain colours, or shades of red by ``heat``."""
    top_heat = max(heat.values()) if heat else 0
    shapes = []
    for square in scene.squares:
        colour = square.colour
        if heat is not None:
            level = heat.get(square.id, 0) / top_heat if top_heat else 0
            colour = f"rgba(192, 57, 43, {0.08 + 0.9 * level:.3f})"
        shapes.append(
            _square_rect(
                square,
                fillcolor=colour,
                line=dict(color="#33261a", width=1),
                layer="below",  # under the cost written on it
            )
        )
    return shapes


def _finish_frame(scene: Scene) -> list[Drawn]:
    """A red frame around the finish square, if the track has one."""
    if scene.finish is None:
        return []
    fx, fy = scene.finish
    return [
        dict(
            type="rect",
            x0=fx - 0.48,
            y0=fy - 0.48,
            x1=fx + 0.48,
            y1=fy + 0.48,
            line=dict(color="#c0392b", width=4),
        )
    ]


def _ghosts(ghosts: Iterable[Scene]) -> list[Drawn]:
    return [shape for ghost in ghosts for shape in _ghost_shapes(ghost)]


def _ghost_shapes(ghost: Scene) -> list[Drawn]:
    """A faint copy of ``ghost``'s tile: dashed outline, squares in their terrain colours."""
    outlines = [
        _tile_outline(
            tile,
            fillcolor="rgba(226, 214, 184, 0.35)",
            line=dict(color="#7a6a4f", width=2, dash="dot"),
            name="ghost",
        )
        for tile in ghost.tiles
    ]
    squares = [
        _square_rect(
            square,
            fillcolor=square.colour,
            opacity=0.4,
            line=dict(color="#33261a", width=1, dash="dot"),
            layer="below",
            name="ghost",
        )
        for square in ghost.squares
    ]
    return outlines + squares


def _clickable_cell_outlines(cells: list[tuple[int, int]], grid: int) -> list[Drawn]:
    """Faint dotted outlines of the cells a click may place the tile on."""
    return [
        _cell_rect(
            x,
            y,
            grid,
            line=dict(color="rgba(122, 106, 79, 0.25)", width=1, dash="dot"),
            layer="below",
        )
        for x, y in cells
    ]


def _link_arrows(scene: Scene) -> list[Drawn]:
    """An arrow from each square towards the next, the way the race goes."""
    return [
        dict(
            x=ax + (bx - ax) * 0.62,
            y=ay + (by - ay) * 0.62,
            ax=ax + (bx - ax) * 0.3,
            ay=ay + (by - ay) * 0.3,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            text="",
            showarrow=True,
            arrowhead=2,
            arrowsize=0.7,
            arrowwidth=1,
            arrowcolor="#33261a",
        )
        for (ax, ay), (bx, by) in scene.links
    ]


def _tile_labels(scene: Scene) -> list[Drawn]:
    """Each tile's number and an arrow to its own north, in its top left corner."""
    return [
        dict(
            x=tile.left + 0.55,
            y=tile.top + 0.55,
            xref="x",
            yref="y",
            text=f"<b>{tile.number}</b> {ARROW[tile.up.value]}",
            showarrow=False,
            font=dict(size=14, color="white"),
            bgcolor="#33261a",
            borderpad=2,
        )
        for tile in scene.tiles
    ]


def _start_labels(scene: Scene) -> list[Drawn]:
    """Each start path's label, just below its first square."""
    return [
        dict(
            x=sx,
            y=sy + 0.62,
            text=f"<b>{label}</b>",
            showarrow=False,
            font=dict(size=11, color="white"),
            bgcolor="#2c3e50",
        )
        for label, (sx, sy) in scene.starts
    ]


def _finish_label(scene: Scene) -> list[Drawn]:
    """FINISH beside the finish square, on a side where no square lies (the scene's
    choice; above the square if the scene made none)."""
    if scene.finish is None:
        return []
    fx, fy = scene.finish
    (lx, ly), side = scene.finish_label or ((fx, fy - 0.7), Side.N)
    return [
        dict(
            x=lx,
            y=ly,
            xanchor={Side.E: "left", Side.W: "right"}.get(side, "center"),
            yanchor="middle",
            text="<b>FINISH</b>",
            showarrow=False,
            font=dict(size=11, color="#c0392b"),
        )
    ]


def _junction_marks(scene: Scene) -> list[Drawn]:
    return [
        dict(
            x=mark.at[0],
            y=mark.at[1],
            text="◆",
            showarrow=False,
            font=dict(size=12, color="#f1c40f"),
        )
        for mark in scene.junctions
    ]


def _square_costs(scene: Scene, heat: dict[str, float] | None) -> go.Scatter:
    """The MP written on each square, which tells on hover what the square is."""
    return go.Scatter(
        x=[s.centre[0] for s in scene.squares],
        y=[s.centre[1] for s in scene.squares],
        mode="text",
        text=[str(s.cost) for s in scene.squares],
        textfont=dict(
            color=[s.text_colour if heat is None else "#1d1d1d" for s in scene.squares], size=13
        ),
        hovertext=[
            f"tile {s.tile}, square {s.id.split(':')[1]}: {s.terrain}, {s.cost} MP"
            + (f"<br>{heat.get(s.id, 0):.2f}" if heat is not None else "")
            for s in scene.squares
        ],
        hoverinfo="text",
        name="squares",
        showlegend=False,
    )


def _clickable_cell_points(cells: list[tuple[int, int]], grid: int) -> go.Scatter:
    """Invisible points that tell which cell was clicked (``customdata = [x, y]``)."""
    # one point per square of each cell, on the same lattice as the squares' centres,
    # so the nearest point to a click in a free cell is always that cell's own
    spots = [(x, y, i, j) for x, y in cells for i in range(grid) for j in range(grid)]
    return go.Scatter(
        x=[x * grid + i + 0.5 for x, _, i, _ in spots],
        y=[y * grid + j + 0.5 for _, y, _, j in spots],
        customdata=[[x, y] for x, y, _, _ in spots],
        mode="markers",
        marker=dict(size=4, color="rgba(0, 0, 0, 0)"),
        selected=dict(marker=dict(color="rgba(0, 0, 0, 0)")),
        unselected=dict(marker=dict(opacity=0)),
        hovertext=[f"table cell ({x}, {y}): click to place the tile" for x, y, _, _ in spots],
        hoverinfo="text",
        name="cells",
        showlegend=False,
    )


def _terrain_legend() -> list[go.Scatter]:
    """One legend entry per terrain: its colour, name and MP (no points on the chart)."""
    return [
        go.Scatter(
            x=[None],
            y=[None],
            mode="markers",
            marker=dict(size=12, color=colour, symbol="square"),
            name=f"{terrain} ({Terrain(terrain).cost} MP)",
        )
        for terrain, colour in TERRAIN_COLOURS.items()
    ]


def _view(scene: Scene, cells: list[tuple[int, int]]) -> tuple[float, float, float, float]:
    """The scene's bounds (left, top, right, bottom), widened to show every clickable cell."""
    left, top, right, bottom = scene.bounds
    for x, y in cells:
        left, right = min(left, x * scene.grid), max(right, (x + 1) * scene.grid)
        top, bottom = min(top, y * scene.grid), max(bottom, (y + 1) * scene.grid)
    return left, top, right, bottom


def _lay_out(
    figure: go.Figure,
    scene: Scene,
    shapes: list[Drawn],
    annotations: list[Drawn],
    cells: list[tuple[int, int]],
) -> None:
    """Title, size, colours, legend and hidden square axes around the view (rows grow down)."""
    left, top, right, bottom = _view(scene, cells)
    span = max(right - left, bottom - top) + 1
    figure.update_layout(
        title=scene.title,
        height=int(min(900, max(420, 40 * span))),
        shapes=shapes,
        annotations=annotations,
        plot_bgcolor="#f4efe1",
        paper_bgcolor="#f4efe1",
        margin=dict(l=10, r=10, t=40, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.02),
        xaxis=dict(visible=False, range=[left - 0.5, right + 0.5]),
        yaxis=dict(visible=False, range=[bottom + 0.5, top - 0.5], scaleanchor="x"),
        dragmode=False,
    )
    if cells:
        figure.update_layout(hoverdistance=-1)  # no cutoff: the nearest cell point is found
