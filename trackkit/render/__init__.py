"""Drawing a track as it lies on the table: an SVG or PNG picture, or an interactive HTML page.

>>> from trackkit.games.yummell.presets import load_preset
>>> svg = track_svg(load_preset("first-run"))
>>> svg.startswith("<?xml")
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from trackkit.board.datafile import output_path
from trackkit.board.tiles import TileSet
from trackkit.board.track import Track
from trackkit.errors import TrackkitError, shown
from trackkit.render.layout import build_scene
from trackkit.render.plot import scene_figure
from trackkit.render.svgdraw import scene_to_svg

SUFFIXES = (".svg", ".png", ".html")
PNG_ZOOM = 2.0  # twice the SVG's pixels: sharp on a high-density screen and in print


def track_svg(track: Track, tileset: TileSet | None = None) -> str:
    return scene_to_svg(build_scene(track, tileset))


def svg_to_png(svg: str, zoom: float = PNG_ZOOM) -> bytes:
    """A PNG of an SVG document, drawn by resvg (a wheel with no system library to install;
    text uses the machine's sans-serif font)."""
    import resvg_py  # imported here: only pictures need it

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom))


def track_png(track: Track, tileset: TileSet | None = None, zoom: float = PNG_ZOOM) -> bytes:
    """The picture of :func:`track_svg` as PNG bytes."""
    return svg_to_png(track_svg(track, tileset), zoom)


def track_figure(track: Track, tileset: TileSet | None = None, **options: object) -> go.Figure:
    """The Plotly figure of ``track`` (see :func:`trackkit.render.plot.scene_figure`)."""
    return scene_figure(build_scene(track, tileset), **options)  # type: ignore[arg-type]


def picture_svg(track: Any, tileset: TileSet | None = None) -> str:
    """The SVG picture of a track of any game: tiles on the table, or a board of lanes."""
    if isinstance(track, Track):
        return track_svg(track, tileset)
    from trackkit.render.lanes import lane_svg  # a printed board of lanes (Snow Tails)

    return lane_svg(track)


def picture_png(track: Any, tileset: TileSet | None = None, zoom: float = PNG_ZOOM) -> bytes:
    """The picture of :func:`picture_svg` as PNG bytes."""
    return svg_to_png(picture_svg(track, tileset), zoom)


def picture_figure(track: Any, tileset: TileSet | None = None) -> go.Figure:
    """The Plotly figure of a track of any game."""
    if isinstance(track, Track):
        return track_figure(track, tileset)
    from trackkit.render.lanes import lane_figure

    return lane_figure(track)


def render_to_file(
    track: Any, path: str | Path, tileset: TileSet | None = None, *, overwrite: bool = False
) -> Path:
    """Draw ``track`` (of any game) to ``path``: ``.svg`` or ``.png`` a picture, ``.html`` a
    page with the figure (plotly.js embedded, so it opens without a network)."""
    # a folder, a pipe, a device, an unusable name or an existing file without
    # ``overwrite`` is refused before anything is drawn
    path = output_path(path, overwrite=overwrite, suffixes=SUFFIXES)
    try:
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(picture_svg(track, tileset), encoding="utf-8")
        elif suffix == ".png":
            path.write_bytes(picture_png(track, tileset))
        else:
            figure = picture_figure(track, tileset)
            figure.write_html(path, include_plotlyjs=True, full_html=True)
    except (OSError, ValueError) as exc:
        raise TrackkitError(f"{shown(path)}: cannot be written ({exc})") from None
    return path
