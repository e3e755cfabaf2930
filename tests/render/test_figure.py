"""The Plotly figure of a scene, and the Yummell figure the app clicks on."""

from __future__ import annotations

from trackkit.games.shapes import Circle, Line, Polygon, Rectangle, Scene, Spot, Text
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.presets import load_preset
from trackkit.render import track_figure
from trackkit.render.figure import figure_cost, scene_figure
from trackkit.render.layout import build_scene


def _drawn(figure) -> int:  # type: ignore[no-untyped-def]
    points = sum(len(t.x) for t in figure.data if t.x is not None and t.x[0] is not None)
    return points + len(figure.layout.shapes) + len(figure.layout.annotations)


def test_each_shape_becomes_a_shape_a_trace_or_an_annotation() -> None:
    scene = Scene(
        "Shapes",
        (
            Polygon(((0, 0), (1, 0), (0, 1)), fill="#ff0000", hover="a triangle", group="tri"),
            Rectangle(0, 0, 1, 1, stroke="#000000", dash="4,2"),
            Circle((1, 1), 0.5, fill="#00ff00"),
            Line(((0, 0), (2, 2)), "#0000ff", 2),
            Line(((0, 0), (1, 2)), "#0000ff", 2, arrow=2),
            Text((1, 1), "up", 0.4, "#000000", rotation=-90),
            Text((1, 1), "one", 0.4, "#000000", hover="the first", group="words"),
            Text((2, 1), "two", 0.4, "#ffffff", hover="the second", group="words"),
            Spot((1, 1), 4, "cell", ("a", 1, 2), "cells"),
        ),
        (0.0, 0.0, 2.0, 2.0),
    )
    figure = scene_figure(scene)
    assert [s.type for s in figure.layout.shapes] == ["path", "rect", "circle", "line"]
    assert figure.layout.shapes[1].line.dash == "4px,2px"
    assert all(s.layer == "below" for s in figure.layout.shapes)  # words and spots on top
    arrow, turned = figure.layout.annotations
    assert arrow.showarrow and (arrow.ax, arrow.ay, arrow.x, arrow.y) == (0, 0, 1, 2)
    assert turned.textangle == -90 and turned.text == "up"
    traces = {t.name: t for t in figure.data}
    assert list(traces["words"].textfont.color) == ["#000000", "#ffffff"]
    assert list(traces["words"].hovertext) == ["the first", "the second"]
    assert list(traces["cells"].customdata) == [["a", 1, 2]]
    assert list(traces["tri"].hovertext) == ["a triangle"]  # a hover spot at its centre
    assert figure.layout.hoverdistance == -1  # a key is found from anywhere
    assert figure_cost(scene) == _drawn(figure)


def test_figure_has_a_word_per_square_and_equal_axes() -> None:
    track = load_preset("forest-run")
    figure = track_figure(track)
    scene = build_scene(track)
    squares = next(t for t in figure.data if t.name == "squares")
    assert len(squares.x) == len(scene.places)
    assert all(text.startswith("tile ") and " MP" in text for text in squares.hovertext)
    assert figure.layout.yaxis.scaleanchor == "x"
    assert figure.layout.yaxis.range[0] > figure.layout.yaxis.range[1]  # rows grow downwards
    assert [t.name for t in figure.data if t.x == (None,)] == [
        "plain 1 MP", "woods 2 MP", "hills 2 MP", "swamp 3 MP"
    ]  # fmt: skip
    assert figure_cost(scene) == _drawn(figure)


def test_clickable_cells_carry_their_table_cell() -> None:
    figure = track_figure(load_preset("first-run"), clickable_cells=[(3, 0), (-1, 0)])
    cells = next(t for t in figure.data if t.name == "cells")
    assert {tuple(c) for c in cells.customdata} == {(3, 0), (-1, 0)}
    # no other trace carries a key: a click can only mean a cell
    assert all(t.customdata is None for t in figure.data if t.name != "cells")
    # the view widens to show them
    assert figure.layout.xaxis.range[0] < -5 + 0.01


def _nearest_customdata(figure, x: float, y: float):  # type: ignore[no-untyped-def]
    """What a click at (x, y) selects: Plotly's nearest hoverable point (no distance cutoff)."""
    best = None
    for trace in figure.data:
        if trace.hoverinfo == "skip" or trace.x is None:
            continue
        for i, (px, py) in enumerate(zip(trace.x, trace.y, strict=True)):
            if px is None:
                continue
            d = (px - x) ** 2 + (py - y) ** 2
            if best is None or d < best[0]:
                data = trace.customdata[i] if trace.customdata is not None else None
                best = (d, None if data is None else tuple(data))
    return best[1] if best else None


def test_a_click_anywhere_in_a_free_cell_selects_that_cell(tileset) -> None:  # type: ignore[no-untyped-def]
    track = load_preset("first-run")  # cells (0, 0) … (2, 1); (0, 1) and (1, 1) are free
    free = [(0, 1), (1, 1), (3, 0), (-1, 1)]
    figure = track_figure(track, clickable_cells=free)
    assert figure.layout.hoverdistance == -1
    grid = tileset.grid
    # corners, edges and the middle of each cell, just inside it
    offsets = [0.05, 0.5, 1.5, grid / 2, grid - 1.5, grid - 0.05]
    for cx, cy in free:
        for dx in offsets:
            for dy in offsets:
                assert _nearest_customdata(figure, cx * grid + dx, cy * grid + dy) == (cx, cy)


def test_the_ghost_is_drawn_faintly_where_the_tile_would_go() -> None:
    track = load_preset("first-run")
    ghost = build_scene(Track("ghost", (Placement(3, 3, 0, 90),)))
    plain = track_figure(track)
    figure = track_figure(track, ghosts=[ghost])
    added = figure.layout.shapes[len(plain.layout.shapes) :]
    assert len(added) == 1 + len(ghost.places)  # the tile and its squares
    assert all(shape.name == "ghost" and shape.opacity == 0.4 for shape in added)
    assert all(shape.x0 >= 3 * 5 for shape in added if shape.type == "rect")  # in cell (3, 0)


def test_highlighted_cells_are_outlined() -> None:
    plain = track_figure(load_preset("first-run"))
    marked = track_figure(load_preset("first-run"), highlight_cells=[(3, 0)])
    assert len(marked.layout.shapes) == len(plain.layout.shapes) + 1


def test_heat_map_recolours_squares() -> None:
    track = load_preset("first-run")
    hot = {square: 1.0 for square in list(build_scene(track).places)[:3]}
    hot[next(iter(list(build_scene(track).places)[3:]))] = 0.0
    figure = track_figure(track, heat=hot)
    assert any(s.fillcolor == "rgb(128, 0, 38)" for s in figure.layout.shapes)  # the hottest
    assert next(t for t in figure.data if t.name == "heat").marker.showscale
