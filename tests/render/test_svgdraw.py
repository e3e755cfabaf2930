"""The SVG picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from trackkit.presets import PRESET_SLUGS, load_preset
from trackkit.render import track_svg
from trackkit.render.layout import build_scene

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
