"""The Plotly figure the app draws with."""

from __future__ import annotations

from trackkit.presets import load_preset
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
    assert [list(c) for c in cells.customdata] == [[3, 0], [-1, 0]]
    # the view widens to show them
    assert figure.layout.xaxis.range[0] < -5 + 0.01


def test_highlighted_cells_are_outlined() -> None:
    plain = track_figure(load_preset("first-run"))
    marked = track_figure(load_preset("first-run"), highlight_cells=[(3, 0)])
    assert len(marked.layout.shapes) == len(plain.layout.shapes) + 1


def test_heat_map_recolours_squares() -> None:
    track = load_preset("first-run")
    hot = {s.id: 1.0 for s in build_scene(track).squares[:3]}
    figure = track_figure(track, heat=hot)
    assert any(s.fillcolor == "rgba(192, 57, 43, 0.980)" for s in figure.layout.shapes)
