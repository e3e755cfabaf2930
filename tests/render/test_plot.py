"""The Plotly figure the app draws with."""

from __future__ import annotations

from trackkit.board.track import Placement, Track
from trackkit.games.yummell.presets import load_preset
from trackkit.render import track_figure
from trackkit.render.layout import build_scene


def test_figure_has_a_square_per_square_and_equal_axes() -> None:
    track = load_preset("forest-run")
    figure = track_figure(track)
    scene = build_scene(track)
    squares = next(t for t in figure.data if t.name == "squares")
    assert len(squares.x) == len(scene.squares)
    assert figure.layout.yaxis.scaleanchor == "x"
    assert figure.layout.yaxis.range[0] > figure.layout.yaxis.range[1]  # rows grow downwards


def test_clickable_cells_carry_their_table_cell() -> None:
    figure = track_figure(load_preset("first-run"), clickable_cells=[(3, 0), (-1, 0)])
    cells = next(t for t in figure.data if t.name == "cells")
    assert {tuple(c) for c in cells.customdata} == {(3, 0), (-1, 0)}
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
    assert len(added) == len(ghost.tiles) + len(ghost.squares)
    assert all(shape.name == "ghost" and shape.line.dash == "dot" for shape in added)
    assert all(shape.x0 >= 3 * ghost.grid for shape in added)  # in cell (3, 0)
    assert any(shape.opacity == 0.4 for shape in added)


def test_highlighted_cells_are_outlined() -> None:
    plain = track_figure(load_preset("first-run"))
    marked = track_figure(load_preset("first-run"), highlight_cells=[(3, 0)])
    assert len(marked.layout.shapes) == len(plain.layout.shapes) + 1


def test_heat_map_recolours_squares() -> None:
    track = load_preset("first-run")
    hot = {s.id: 1.0 for s in build_scene(track).squares[:3]}
    figure = track_figure(track, heat=hot)
    assert any(s.fillcolor == "rgba(192, 57, 43, 0.980)" for s in figure.layout.shapes)
