"""Downloading the picture of a track (SVG or PNG), as the library draws it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trackkit.errors import TrackkitError
from trackkit.limits import CostLimitError
from trackkit.render import (
    PNG_ZOOM,
    check_canvas,
    picture_name,
    picture_png,
    picture_size,
    picture_svg,
)
from trackkit.report.export import track_slug


def picture_downloads(track: Any, key: str) -> None:
    """Two buttons: the picture of a track of any game as SVG and as PNG, named after the
    track. The pictures are drawn only when a button is pressed; one whose canvas is over
    the limit (or that cannot be drawn) is not offered for download: its button says why
    instead, and the page carries on (the download runs outside the page's script, where
    a refusal would only read "failed"). The size is measured once, without drawing."""
    name = track_slug(track)
    row = st.container(horizontal=True)
    said = st.empty()
    try:
        size: tuple[float, float] | None = picture_size(track)
        problem = None
    except TrackkitError as error:  # e.g. the design's tile set no longer loads
        size, problem = None, str(error)
    for label, draw, zoom, suffix, mime in (
        ("Track picture (SVG)", picture_svg, 1.0, "svg", "image/svg+xml"),
        ("Track picture (PNG)", picture_png, PNG_ZOOM, "png", "image/png"),
    ):
        refusal = problem if size is None else _refusal(track, size, zoom)
        if refusal is None:
            row.download_button(
                label,
                _drawn(draw, track),
                file_name=f"{name}.{suffix}",
                mime=mime,
                on_click="ignore",
                key=f"{key}-{suffix}",
                icon=":material/image:",
            )
        elif row.button(label, key=f"{key}-{suffix}", icon=":material/image:", help=refusal):
            said.error(f"Not drawn: {refusal}")


def _refusal(track: Any, size: tuple[float, float], zoom: float) -> str | None:
    """Why the picture of ``track``, ``size`` pixels at zoom 1, is refused at ``zoom``, or
    None."""
    try:
        check_canvas(size, zoom, picture_name(track, zoom))
    except CostLimitError as refusal:
        return str(refusal)
    return None


def _drawn(draw: Callable[[Any], Any], track: Any) -> Callable[[], Any]:
    return lambda: draw(track)
