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


def render_to_file(
    track: Any, path: str | Path, tileset: TileSet | None = None, *, overwrite: bool = False
) -> Path:
    """Draw ``track`` (of any game) to ``path``: ``.svg`` or ``.png`` a picture, ``.html`` a
    page with the figure (plotly.js embedded, so it opens without a network)."""
    # a folder, a pipe, a device, an unusable name or an existing file without
    # ``overwrite`` is refused before anything is drawn
    path = output_path(path, overwrite=overwrite, suffixes=SUFFIXES)
    if isinstance(track, Track):
        svg, png, figure = track_svg, track_png, track_figure
        args: tuple[Any, ...] = (track, tileset)
    else:  # a printed board of lanes (Snow Tails)
        from trackkit.render.lanes import lane_figure, lane_png, lane_svg

        svg, png, figure, args = lane_svg, lane_png, lane_figure, (track,)
    try:
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(svg(*args), encoding="utf-8")
        elif suffix == ".png":
            path.write_bytes(png(*args))
        else:
            figure(*args).write_html(path, include_plotlyjs=True, full_html=True)
    except (OSError, ValueError) as exc:
        raise TrackkitError(f"{shown(path)}: cannot be written ({exc})") from None
    return path
