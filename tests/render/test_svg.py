"""The SVG picture of a scene, and of every Yummell preset."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from trackkit.games.shapes import Circle, Line, Polygon, Rectangle, Scene, Spot, Text
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.core.scene import TERRAIN_COLOURS, UNIT
from trackkit.render import track_svg
from trackkit.render.layout import build_scene
from trackkit.render.svg import canvas_size, scene_svg

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
        boxes = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "square"]
        assert len(boxes) == len(scene.places)
        assert {r.get("fill") for r in boxes} <= set(TERRAIN_COLOURS.values())
        assert all(r.get("rx") == "5" for r in boxes)


def test_costs_are_written_in_the_squares() -> None:
    root = ET.fromstring(track_svg(load_preset("first-run")))
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.text in {"1", "2", "3"}]
    assert len(numbers) >= len(build_scene(load_preset("first-run")).places)


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


def test_every_shape_is_drawn_and_a_spot_is_not() -> None:
    scene = Scene(
        "Shapes & words",
        (
            Polygon(((0, 0), (1, 0), (0, 1)), fill="#ff0000", group="tri"),
            Rectangle(0, 0, 1, 1, stroke="#000000", dash="4,2", rounded=3),
            Circle((1, 1), 0.5, fill="#00ff00", opacity=0.5),
            Line(((0, 0), (2, 2)), "#0000ff", 2, arrow=2),
            Text((1, 1), "a < b", 0.4, "#000000", "end", bold=True, rotation=30, halo="#ffffff"),
            Spot((1, 1), key=(1, 1), hover="invisible"),
        ),
        (0.0, 0.0, 2.0, 2.0),
        unit=10,
        note="a note",
    )
    root = ET.fromstring(scene_svg(scene))
    assert [float(root.get("width")), float(root.get("height"))] == list(canvas_size(scene))
    assert root.find(f"{SVG}title").text == "Shapes & words"
    paths = list(root.iter(f"{SVG}path"))
    assert any(p.get("class") == "tri" and p.get("d").endswith("Z") for p in paths)
    arrow = next(p for p in paths if p.get("marker-end"))
    marker_id = arrow.get("marker-end")[5:-1]
    assert any(m.get("id") == marker_id for m in root.iter(f"{SVG}marker"))
    assert any(r.get("stroke-dasharray") == "4,2" for r in root.iter(f"{SVG}rect"))
    assert next(root.iter(f"{SVG}circle")).get("opacity") == "0.5"
    words = [t for t in root.iter(f"{SVG}text") if t.text == "a < b"]
    assert len(words) == 1 and words[0].get("transform").startswith("rotate(30")
    assert "a note" in [t.text for t in root.iter(f"{SVG}text")]
    assert "invisible" not in scene_svg(scene)  # a spot is only for a figure's pointer
