"""The SVG picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from trackkit.render.svgdraw import UNIT

from trackkit.board.track import Track
from trackkit.games.yummell.presets import PRESET_SLUGS, load_preset
from trackkit.render import track_svg
from trackkit.render.layout import TERRAIN_COLOURS, build_scene

SVG = "{http://www.w3.org/2000/svg}"


def test_every_preset_draws_as_valid_svg_with_its_squares() -> None:
    for slug in PRESET_SLUGS:
        track = load_preset(slug)
        root = ET.fromstring(track_svg(track))
        scene = build_scene(track)
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert track.name in texts
        assert "FINISH" in texts and {"A", "B", "C"} <= set(texts)
        # one rounded box per square, in its terrain colour
        colours = [r.get("fill") for r in root.iter(f"{SVG}rect")]
        for terrain_colour in {s.colour for s in scene.squares}:
            assert colours.count(terrain_colour) >= sum(
                1 for s in scene.squares if s.colour == terrain_colour
            )


def test_costs_are_written_in_the_squares() -> None:
    root = ET.fromstring(track_svg(load_preset("first-run")))
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.text in {"1", "2", "3"}]
    assert len(numbers) >= len(build_scene(load_preset("first-run")).squares)


def _boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """The squares drawn: rectangles in a terrain colour (left, top, right, bottom)."""
    terrain = set(TERRAIN_COLOURS.values())
    return [
        (
            float(r.get("x")),
            float(r.get("y")),
            float(r.get("x")) + float(r.get("width")),
            float(r.get("y")) + float(r.get("height")),
        )
        for r in root.iter(f"{SVG}rect")
        if r.get("fill") in terrain
    ]


def _text_box(text: ET.Element) -> tuple[float, float, float, float]:
    """Where a label's letters lie, from its anchor and a generous letter width."""
    size = float(text.get("font-size"))
    width = 0.7 * size * len(text.text or "")
    x, y = float(text.get("x")), float(text.get("y"))
    left = {"start": x, "end": x - width}.get(text.get("text-anchor", "start"), x - width / 2)
    return (left, y - size / 2, left + width, y + size / 2)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_the_finish_label_covers_no_square(slug: str) -> None:
    root = ET.fromstring(track_svg(load_preset(slug)))
    label = next(t for t in root.iter(f"{SVG}text") if t.text == "FINISH")
    assert label.get("dominant-baseline") == "central"  # so y is the middle of the letters
    box = _text_box(label)
    legend_top = float(root.get("height")) - 2 * UNIT
    squares = [b for b in _boxes(root) if b[1] < legend_top]
    assert not any(_overlap(box, square) for square in squares)


def test_a_narrow_track_shows_the_whole_legend_and_title() -> None:
    start_only = Track("A design just begun", load_preset("first-run").placements[:1])
    root = ET.fromstring(track_svg(start_only))
    width = float(root.get("width"))
    labels = [t for t in root.iter(f"{SVG}text") if t.text and " MP" in t.text]
    assert len(labels) == len(TERRAIN_COLOURS)
    for text in [*labels, next(t for t in root.iter(f"{SVG}text") if t.text == start_only.name)]:
        assert _text_box(text)[2] <= width, text.text
