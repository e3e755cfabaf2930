"""What the Snow Tails pages share: the design being edited (kept across pages, with undo
and redo) and the choice of the track to race or compare."""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.editing import EditHistory
from trackkit.games.snowtails.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.track import SnowTrack, parse_track_toml
from trackkit.games.snowtails.validation import validate_track

CURRENT = "Current design"
DEMO = "Demo board"
UPLOAD = "Upload a track file"
UPLOAD_LIMIT = 1_000_000  # bytes, as for Yummell track files
GAME_TITLE = "Mush! Mush! Snow Tails 2"
RECONSTRUCTED = (
    "**Reconstructed boards.** The printed Mush! Mush! board and its tracks are not "
    "published, so the demo boards are parametric boards of trackkit's own, and so are the "
    "lanes, corner shapes, building footprint and the deck's counts: race lengths and win "
    "rates compare tracks with each other, they do not predict the boxed game exactly. If "
    "you own the box, describe its tracks in a track file (README, 'Snow Tails track "
    "files')."
)

log = logging.getLogger(__name__)


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


def read_upload(upload: Any) -> SnowTrack | None:
    """A Snow Tails track from an uploaded file, or None with the reason shown."""
    if upload is None:
        return None
    name = str(getattr(upload, "name", "upload"))[:100]
    try:
        data = upload.getvalue()
        if len(data) > UPLOAD_LIMIT:
            raise TrackkitError(f"{name}: is larger than 1 MB; a track file is a few KB")
        return parse_track_toml(data.decode("utf-8"), source=name)
    except UnicodeDecodeError:
        st.error(f"{name}: is not a text file (UTF-8); a track file is TOML text.")
    except TrackkitError as error:
        st.error(str(error))
    except Exception:  # whatever a file holds, the visitor gets a message
        log.exception("an upload could not be read")
        st.error(f"{name}: cannot be read as a Snow Tails track file.")
    return None


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
