"""A Snow Tails track drawn: its picture and its figure, a heat map when given values per
space (where the collisions happen, say). The game declares the drawing
(``scene(track)``); this module only names what the Snow Tails pages ask for.

>>> from trackkit.games.snowtails.core.presets import load_preset
>>> svg = lane_svg(load_preset("long-trail"))
>>> svg.startswith("<?xml"), "Kennels" in svg
(True, True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import plotly.graph_objects as go

from trackkit.render import PNG_ZOOM, picture_png, picture_size, picture_svg
from trackkit.render.figure import scene_figure
from trackkit.render.layout import build_scene
from trackkit.render.overlays import heat_map, heat_of


def lane_svg(track: Any) -> str:
    """The SVG picture of ``track``; refused when its canvas is over the limit."""
    return picture_svg(track)


def lane_png(track: Any, zoom: float = PNG_ZOOM) -> bytes:
    """The picture of :func:`lane_svg` as PNG bytes; refused before drawing when its canvas
    at ``zoom`` is over the limit."""
    return picture_png(track, zoom=zoom)


def lane_canvas_size(track: Any) -> tuple[float, float]:
    """The width and height in pixels of :func:`lane_svg`'s picture, found without drawing."""
    return picture_size(track)


def lane_figure(
    track: Any,
    values: Mapping[Iterable[Hashable], float] | None = None,
    title: str | None = None,
    unit: str = "value",
) -> go.Figure:
    """A Plotly figure of ``track``: each space a filled polygon, telling on hover its
    address (``segment lane index``) and what it is; an invisible point on each space
    carries its address as ``customdata`` ``[segment, lane, index]`` (a click on the space
    selects it).

    ``values`` (address → number, e.g. collisions on each space) colours the spaces as a
    heat map with a colour bar named ``unit``, and adds each value to the hover text;
    spaces without a value stay white, closed ones grey. ``title`` replaces the track's name.

    Refused with a :class:`~trackkit.limits.CostLimitError` before the figure is built when
    it would draw more than the ``plot_points`` limit allows.
    """
    scene = build_scene(track)
    if values is None:
        return scene_figure(scene, title=title)
    # a space's node is its address: a tuple (segment, lane, index)
    heat = heat_of({tuple(a): float(v) for a, v in values.items()}, unit)
    return heat_map(scene, heat, title=title)
