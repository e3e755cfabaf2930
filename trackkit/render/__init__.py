"""Drawing a track as it lies on the table: an SVG picture or an interactive HTML page.

>>> from trackkit.presets import load_preset
>>> svg = track_svg(load_preset("first-run"))
>>> svg.startswith("<?xml")
True
"""

from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go

from trackkit.errors import TrackkitError
from trackkit.render.layout import build_scene
from trackkit.render.plot import scene_figure
from trackkit.render.svgdraw import scene_to_svg
from trackkit.tiles import TileSet
from trackkit.track import Track

SUFFIXES = (".svg", ".html")


def track_svg(track: Track, tileset: TileSet | None = None) -> str:
    return scene_to_svg(build_scene(track, tileset))


def track_figure(track: Track, tileset: TileSet | None = None, **options: object) -> go.Figure:
    """The Plotly figure of ``track`` (see :func:`trackkit.render.plot.scene_figure`)."""
    return scene_figure(build_scene(track, tileset), **options)  # type: ignore[arg-type]


def render_to_file(
    track: Track, path: str | Path, tileset: TileSet | None = None, *, overwrite: bool = False
) -> Path:
    """Draw ``track`` to ``path``: ``.svg`` a picture, ``.html`` a page with the figure
    (plotly.js embedded, so it opens without a network)."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise TrackkitError(
            f"{path}: can draw to .svg or .html files, not {path.suffix or 'no suffix'!r}"
        )
    if path.exists() and not overwrite:
        raise TrackkitError(f"{path}: already exists; choose another name or pass --force")
    try:
        if path.suffix.lower() == ".svg":
            path.write_text(track_svg(track, tileset), encoding="utf-8")
        else:
            track_figure(track, tileset).write_html(path, include_plotlyjs=True, full_html=True)
    except OSError as exc:
        raise TrackkitError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    return path
