"""Downloading the picture of a track (SVG or PNG), as the library draws it."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.render import picture_png, picture_svg
from trackkit.report.export import track_slug


def picture_downloads(track: Any, key: str) -> None:
    """Two buttons: the picture of a track of any game as SVG and as PNG, named after the
    track. The pictures are drawn only when a button is pressed."""
    name = track_slug(track)
    row = st.container(horizontal=True)
    row.download_button(
        "Track picture (SVG)",
        lambda: picture_svg(track),
        file_name=f"{name}.svg",
        mime="image/svg+xml",
        on_click="ignore",
        key=f"{key}-svg",
        icon=":material/image:",
    )
    row.download_button(
        "Track picture (PNG)",
        lambda: picture_png(track),
        file_name=f"{name}.png",
        mime="image/png",
        on_click="ignore",
        key=f"{key}-png",
        icon=":material/image:",
    )
