"""Drawing a track of any game as its game declares it (``scene(track)``: shapes,
:mod:`trackkit.games.shapes`), by one renderer: an SVG or PNG picture
(:mod:`trackkit.render.svg`), or an interactive figure (:mod:`trackkit.render.figure`).

>>> from trackkit.games import get_ruleset
>>> load_preset = get_ruleset().load_preset  # the first game's (Yummell's)
>>> svg = track_svg(load_preset("first-run"))
>>> svg.startswith("<?xml")
True
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from trackkit.board.datafile import output_path
from trackkit.errors import TrackkitError, shown
from trackkit.games.tilekit.tiles import TileSet
from trackkit.limits import CANVAS_PIXELS
from trackkit.render.figure import scene_figure
from trackkit.render.layout import build_scene
from trackkit.render.overlays import heat_map, heat_of, with_ghosts
from trackkit.render.svg import canvas_size, scene_svg

SUFFIXES = (".svg", ".png", ".html")
PNG_ZOOM = 2.0  # twice the SVG's pixels: sharp on a high-density screen and in print


def check_canvas(size: tuple[float, float], zoom: float, picture: str) -> None:
    """Refuse ``picture`` (e.g. "the PNG picture of 'Oval'"), whose canvas of ``size``
    pixels at zoom 1 is drawn at ``zoom``, when the canvas is over the ``canvas_pixels``
    limit: resvg allocates the whole canvas at once (a canvas of billions of pixels aborts
    the process), and a browser or viewer opening the SVG does much the same."""
    width, height = (math.ceil(side * zoom) for side in size)
    CANVAS_PIXELS.check(width * height, f"{picture} ({width:,} × {height:,} pixels)")


def picture_name(track: Any, zoom: float) -> str:
    """How a refusal names the picture of ``track`` drawn at ``zoom``."""
    return f"the {'SVG' if zoom == 1 else 'PNG'} picture of {track.name!r}"


def picture_size(track: Any, tileset: TileSet | None = None) -> tuple[float, float]:
    """The width and height in pixels of the SVG picture of a track of any game (the PNG is
    :data:`PNG_ZOOM` times as wide and high), found from its scene without drawing it."""
    return canvas_size(build_scene(track, tileset))


def check_picture(track: Any, tileset: TileSet | None = None, zoom: float = 1.0) -> None:
    """Refuse the picture of ``track`` at ``zoom`` (1 the SVG, :data:`PNG_ZOOM` the PNG) with
    a :class:`~trackkit.limits.CostLimitError` when its canvas is over the limit."""
    check_canvas(picture_size(track, tileset), zoom, picture_name(track, zoom))


def _picture_svg(track: Any, tileset: TileSet | None, zoom: float) -> str:
    """The SVG picture, its canvas checked at the ``zoom`` it will be drawn at."""
    scene = build_scene(track, tileset)
    check_canvas(canvas_size(scene), zoom, picture_name(track, zoom))
    return scene_svg(scene)


def svg_to_png(svg: str, zoom: float = PNG_ZOOM) -> bytes:
    """A PNG of an SVG document, drawn by resvg (a wheel with no system library to install;
    text uses the machine's sans-serif font)."""
    import resvg_py  # imported here: only pictures need it

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom))


def picture_svg(track: Any, tileset: TileSet | None = None) -> str:
    """The SVG picture of a track of any game; refused when its canvas is over the limit."""
    return _picture_svg(track, tileset, zoom=1.0)


def picture_png(track: Any, tileset: TileSet | None = None, zoom: float = PNG_ZOOM) -> bytes:
    """The picture of :func:`picture_svg` as PNG bytes; refused before drawing when its
    canvas at ``zoom`` is over the limit."""
    return svg_to_png(_picture_svg(track, tileset, zoom), zoom)


def track_figure(
    track: Any,
    tileset: TileSet | None = None,
    *,
    heat: dict[str, float] | None = None,
    ghosts: Any = (),
    **options: Any,
) -> go.Figure:
    """The Plotly figure of a track of any game: ``options`` go to its game's scene (a
    tile game's ``highlight_cells`` and ``clickable_cells``), ``ghosts`` (scenes) are
    drawn faintly over it, and ``heat`` (node → value) colours it as a heat map."""
    scene = build_scene(track, tileset, **options)
    ghosts = list(ghosts)
    if ghosts:
        scene = with_ghosts(scene, ghosts)
    if heat is not None:
        return heat_map(scene, heat_of(heat, "value"))
    return scene_figure(scene)


def picture_figure(track: Any, tileset: TileSet | None = None) -> go.Figure:
    """The Plotly figure of a track of any game."""
    return track_figure(track, tileset)


# the names of the pictures of a tile track, kept for the callers that use them
track_svg = picture_svg
track_png = picture_png


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
