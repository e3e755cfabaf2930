"""Drawing to a file: SVG or a self-contained HTML page, never over the user's work."""

from __future__ import annotations

from pathlib import Path

import pytest

from trackkit.errors import TrackkitError
from trackkit.presets import load_preset
from trackkit.render import render_to_file


def test_svg_and_html_files(tmp_path: Path) -> None:
    track = load_preset("first-run")
    svg = render_to_file(track, tmp_path / "t.svg")
    html = render_to_file(track, tmp_path / "t.html")
    assert svg.read_text().startswith("<?xml")
    page = html.read_text()
    assert "plotly" in page.lower()
    assert '<script src="http' not in page  # plotly.js is embedded: opens offline


def test_other_formats_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TrackkitError, match=r"\.svg or \.html"):
        render_to_file(load_preset("first-run"), tmp_path / "t.png")


def test_an_existing_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "mine.svg"
    path.write_text("precious")
    with pytest.raises(TrackkitError, match="--force"):
        render_to_file(load_preset("first-run"), path)
    assert path.read_text() == "precious"
    render_to_file(load_preset("first-run"), path, overwrite=True)
    assert path.read_text() != "precious"


def test_an_unwritable_place_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(TrackkitError, match="cannot be written"):
        render_to_file(load_preset("first-run"), tmp_path / "no" / "such" / "dir" / "t.svg")
