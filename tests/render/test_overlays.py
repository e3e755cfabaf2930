"""Figures over the track: the heat map's own scale, and pawns on their squares."""

from __future__ import annotations

from trackkit.games.yummell.core.presets import load_preset
from trackkit.render.layout import build_scene
from trackkit.render.overlays import heat_figure, pawn_figure, race_animation

UNIT = "turns ended here per race"


def _square_fills(figure, scene) -> dict[str, str]:  # type: ignore[no-untyped-def]
    centres = {centre: square for square, centre in scene.places.items()}
    fills = {}
    for shape in figure.layout.shapes:
        if shape.type != "rect":
            continue
        centre = ((shape.x0 + shape.x1) / 2, (shape.y0 + shape.y1) / 2)
        if shape.fillcolor and centre in centres and shape.x1 - shape.x0 < 1:
            fills[centres[centre]] = shape.fillcolor
    return fills


def test_the_heat_map_colours_squares_on_its_own_scale() -> None:
    scene = build_scene(load_preset("first-run"))
    busiest, quiet, *_ = scene.places
    figure = heat_figure(scene, {busiest: 3.0, quiet: 0.0}, UNIT)
    fills = _square_fills(figure, scene)
    assert len(fills) == len(scene.places)
    assert fills[busiest] != fills[quiet]
    scale = next(t for t in figure.data if t.name == "heat").marker
    assert scale.showscale and scale.colorbar.title.text == UNIT
    assert (scale.cmin, scale.cmax) == (0, 3.0)
    assert not any(t.name and t.name.startswith(("plain", "woods")) for t in figure.data)
    assert not figure.layout.showlegend
    costs = next(t for t in figure.data if t.name == "squares")
    assert any(text.endswith(f"{UNIT}: 3") for text in costs.hovertext)


def test_pawns_stand_on_their_squares_side_by_side() -> None:
    scene = build_scene(load_preset("first-run"))
    squares = list(scene.places)
    a, b = squares[3], squares[7]
    figure = pawn_figure(scene, [a, a, b, "start"], ["P", "Q", "R", "S"])
    pawns = [t for t in figure.data if t.legendgroup == "pawns"]
    assert [t.name for t in pawns] == ["1. P", "2. Q", "3. R", "4. S"]
    assert pawns[3].x == (None,)  # S is not on the board yet
    spots = [(t.x[0], t.y[0]) for t in pawns[:3]]
    assert spots[0] != spots[1]  # two on one square do not hide each other
    for (x, y), square in zip(spots, (a, a, b), strict=True):
        assert abs(x - scene.places[square][0]) < 0.5 and abs(y - scene.places[square][1]) < 0.5


def test_the_finish_label_covers_no_square() -> None:
    # Forest run: a square lies right above the finish, where a label would cover it
    scene = build_scene(load_preset("forest-run"))
    for figure in (heat_figure(scene, {}, UNIT), pawn_figure(scene, [], [])):
        words = next(t for t in figure.data if t.name == "finish")
        x, y = words.x[0], words.y[0]
        for square, (sx, sy) in scene.places.items():
            assert not (abs(x - sx) < 0.45 and abs(y - sy) < 0.45), square


def test_the_play_button_moves_the_pawns_through_every_round() -> None:
    scene = build_scene(load_preset("first-run"))
    a, b, c = list(scene.places)[3:6]
    rounds = [("start", "start"), (a, "start"), (b, a), (c, b)]
    figure = race_animation(scene, rounds, ["P", "Q"], shown=2)
    assert figure.layout.title.text == "After round 2"
    assert [f.name for f in figure.frames] == ["1", "2", "3"]
    pawn_indices = [i for i, t in enumerate(figure.data) if t.legendgroup == "pawns"]
    centres = scene.places
    for frame, where in zip(figure.frames, rounds[1:], strict=True):
        assert list(frame.traces) == pawn_indices
        assert frame.layout.title.text == f"After round {frame.name}"
        for trace, square in zip(frame.data, where, strict=True):
            if square == "start":
                assert trace.x == (None,)
            else:
                assert abs(trace.x[0] - centres[square][0]) < 0.5
    button = figure.layout.updatemenus[0].buttons[0]
    assert button.method == "animate" and "Play" in button.label
