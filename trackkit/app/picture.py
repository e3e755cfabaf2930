"""Downloading the picture of a track (SVG or PNG), as the library draws it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trackkit.errors import TrackkitError
from trackkit.render import PNG_ZOOM, check_picture, picture_png, picture_svg
from trackkit.report.export import track_slug


def picture_downloads(track: Any, key: str) -> None:
    """Two buttons: the picture of a track of any game as SVG and as PNG, named after the
    track. The pictures are drawn only when a button is pressed; one whose canvas is over
    the limit is not offered for download: its button says why instead, and the page
    carries on (the download runs outside the page's script, where a refusal would only
    read "failed")."""
    name = track_slug(track)
    row = st.container(horizontal=True)
    said = st.empty()
    for label, draw, zoom, suffix, mime in (
        ("Track picture (SVG)", picture_svg, 1.0, "svg", "image/svg+xml"),
        ("Track picture (PNG)", picture_png, PNG_ZOOM, "png", "image/png"),
    ):
        refusal = _refusal(track, zoom)
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


def _refusal(track: Any, zoom: float) -> str | None:
    """Why the picture of ``track`` at ``zoom`` cannot be drawn (its canvas is measured, not
    drawn: over the limit, or a tile set that no longer loads), or None."""
    try:
        check_picture(track, zoom=zoom)
    except TrackkitError as refusal:  # CostLimitError among them
        return str(refusal)
    return None


def _drawn(draw: Callable[[Any], Any], track: Any) -> Callable[[], Any]:
    return lambda: draw(track)
