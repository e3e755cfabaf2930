"""What the pages share: the design in the session, caches, and reading user files."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.design import Design, decode_track, encode_track
from trackkit.errors import TrackkitError
from trackkit.presets import PRESET_SLUGS, load_preset
from trackkit.tiles import TileSet, load_tileset
from trackkit.track import Track, parse_track_toml
from trackkit.validate import validate

MAX_RACES = 50_000  # per run: keeps the server responsive for everyone
MAX_UPLOAD = 200_000  # bytes


def tiles() -> TileSet:
    return load_tileset()


def design() -> Design:
    """The user's design, kept across reruns and pages; opened from a shared link once."""
    if "design" not in st.session_state:
        st.session_state.design = Design.empty()
        shared = st.query_params.get("track")
        if shared:
            try:
                st.session_state.design = Design(decode_track(shared))
            except TrackkitError as error:
                st.session_state.link_error = str(error)
    return st.session_state.design


def set_design(new: Design) -> None:
    st.session_state.design = new
    st.session_state.table_version = st.session_state.get("table_version", 0) + 1
    if new.track.placements:
        st.query_params["track"] = encode_track(new.track)
    elif "track" in st.query_params:
        del st.query_params["track"]


def read_upload(upload: Any) -> Track | None:
    """A track from an uploaded file, or None with the reason shown."""
    if upload is None:
        return None
    data = upload.getvalue()
    if len(data) > MAX_UPLOAD:
        st.error(f"{upload.name}: {len(data):,} bytes is too large for a track file.")
        return None
    try:
        return parse_track_toml(data.decode("utf-8"), source=upload.name)
    except UnicodeDecodeError:
        st.error(f"{upload.name}: is not a text (TOML) file.")
    except TrackkitError as error:
        st.error(str(error))
    return None


def pick_track(key: str) -> Track | None:
    """The track to analyse: the current design (when it is a valid track), a preset or
    an upload."""
    sources = ["Preset", "Current design", "Upload a track file"]
    source = st.radio("Track", sources, horizontal=True, key=f"{key}-source")
    if source == "Preset":
        slug = st.selectbox(
            "Preset",
            PRESET_SLUGS,
            key=f"{key}-preset",
            format_func=lambda s: load_preset(s).name,
        )
        return load_preset(slug)
    if source == "Current design":
        track = design().track
        report = validate(track, tiles())
        if not report.ok:
            st.warning(
                "The current design is not a complete, valid track yet "
                f"({len(report.problems)} problem(s)); finish it on the Design page."
            )
            return None
        return track
    return read_upload(st.file_uploader("Track file (.toml)", type=["toml"], key=f"{key}-upload"))
