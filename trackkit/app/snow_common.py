"""What the Snow Tails pages share: the design being edited (kept across pages, with undo
and redo) and the choice of the track to race or compare."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.app import common
from trackkit.design import uploaded_text
from trackkit.games.base import parse_game_track_toml
from trackkit.games.snowtails.editing import EditHistory
from trackkit.games.snowtails.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.track import SnowTrack
from trackkit.games.snowtails.validation import validate_track

CURRENT = "Current design"
DEMO = "Demo board"
UPLOAD = "Upload a track file"
GAME_TITLE = "Mush! Mush! Snow Tails 2"
RECONSTRUCTED = (
    "**Reconstructed boards.** The printed Mush! Mush! board and its tracks are not "
    "published, so the demo boards are parametric boards of trackkit's own, and so are the "
    "lanes, corner shapes, building footprint and the deck's counts: race lengths and win "
    "rates compare tracks with each other, they do not predict the boxed game exactly. If "
    "you own the box, describe its tracks in a track file (README, 'Snow Tails track "
    "files')."
)


def history() -> EditHistory:
    """The Snow Tails design of this session, with its undo history (the first demo board
    to begin with)."""
    if "snow_history" not in st.session_state:
        st.session_state.snow_history = EditHistory.of(load_preset(PRESET_SLUGS[0]))
    found: EditHistory = st.session_state.snow_history
    return found


def set_history(new: EditHistory) -> None:
    st.session_state.snow_history = new
    # a new chart key: a click kept in the old chart's selection must not act again
    st.session_state.snow_board_version = st.session_state.get("snow_board_version", 0) + 1


def _snow_upload(data: bytes, name: str) -> SnowTrack:
    track: SnowTrack = parse_game_track_toml(
        uploaded_text(data, name), source=name, game="snowtails"
    )
    return track


def read_upload(upload: Any) -> SnowTrack | None:
    """A Snow Tails track from an uploaded file, or None with the reason shown."""
    track: SnowTrack | None = common.read_upload(upload, _snow_upload)
    return track


def choose_track(key: str) -> SnowTrack | None:
    """The track to analyse: the design, a demo board or an upload (None with the reason
    shown when there is none to race)."""
    source = st.radio("Track", [CURRENT, DEMO, UPLOAD], horizontal=True, key=f"{key}-source")
    if source == CURRENT:
        track = history().track
        errors = validate_track(track).errors
        if errors:
            st.warning(
                f"The current design ({track.name}) breaks a rule: "
                + " ".join(str(e) for e in errors)
            )
            return None
        st.caption(f"The design from the Snow Tails Design page: {track.name}.")
        return track
    if source == DEMO:
        slug = st.selectbox("Demo board", PRESET_SLUGS, key=f"{key}-demo")
        return load_preset(slug)
    upload = st.file_uploader("Track file (.toml, up to 1 MB)", type=["toml"], key=f"{key}-up")
    track = read_upload(upload)
    if track is None:
        if upload is None:
            st.info('Choose a Snow Tails track file (game = "snowtails").')
        return None
    errors = validate_track(track).errors
    if errors:
        st.error("This track breaks a rule: " + " ".join(str(e) for e in errors))
        return None
    return track
