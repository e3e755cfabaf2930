"""Drawing to a file: SVG, PNG or a self-contained HTML page, never over the user's work."""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from trackkit.errors import ExistingFileError, TrackkitError
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.scene import TERRAIN_COLOURS
from trackkit.render import render_to_file, track_png, track_svg

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_size(data: bytes) -> tuple[int, int]:
    # the IHDR chunk comes first: width and height as big-endian 32-bit numbers
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_svg_and_html_files(tmp_path: Path) -> None:
    track = load_preset("first-run")
    svg = render_to_file(track, tmp_path / "t.svg")
    html = render_to_file(track, tmp_path / "t.html")
    assert svg.read_text().startswith("<?xml")
    page = html.read_text()
    assert "plotly" in page.lower()
    assert '<script src="http' not in page  # plotly.js is embedded: opens offline


def test_png_file_is_the_svg_picture_at_twice_its_size(tmp_path: Path) -> None:
    track = load_preset("first-run")
    path = render_to_file(track, tmp_path / "t.PNG")
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    root = ET.fromstring(track_svg(track))
    width, height = float(root.get("width")), float(root.get("height"))
    png_width, png_height = _png_size(data)
    assert abs(png_width - 2 * width) <= 1 and abs(png_height - 2 * height) <= 1


def test_png_shows_the_track_in_its_terrain_colours() -> None:
    picture = Image.open(io.BytesIO(track_png(load_preset("first-run")))).convert("RGB")
    colours = {colour for _, colour in picture.getcolors(maxcolors=1 << 20)}
    for hex_colour in TERRAIN_COLOURS.values():
        rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
        assert rgb in colours, hex_colour


def test_other_formats_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TrackkitError, match=r"\.svg, \.png or \.html"):
        render_to_file(load_preset("first-run"), tmp_path / "t.jpg")
    assert not (tmp_path / "t.jpg").exists()


def test_an_existing_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "mine.svg"
    path.write_text("precious")
    # the library says the file exists; each shell says how to allow replacing it
    with pytest.raises(ExistingFileError, match="already exists") as caught:
        render_to_file(load_preset("first-run"), path)
    assert "--force" not in str(caught.value)
    assert path.read_text() == "precious"
    render_to_file(load_preset("first-run"), path, overwrite=True)
    assert path.read_text() != "precious"


def test_an_unwritable_place_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TrackkitError, match="its folder cannot be used: no such file"):
        render_to_file(load_preset("first-run"), tmp_path / "no" / "such" / "dir" / "t.svg")


def test_a_named_pipe_is_refused_unopened_even_with_overwrite(tmp_path: Path) -> None:
    # writing to a pipe with no reader would block for ever
    pipe = tmp_path / "t.svg"
    os.mkfifo(pipe)
    with pytest.raises(TrackkitError, match="name a file to write"):
        render_to_file(load_preset("first-run"), pipe, overwrite=True)


def test_a_name_with_a_nul_byte_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TrackkitError, match=r"\\x00"):
        render_to_file(load_preset("first-run"), str(tmp_path / "t\x00.svg"))
