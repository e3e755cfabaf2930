"""Yummell's design in the session and in the address (``?track=``): opened from a shared
link, followed through Back and Forward, kept in step with the address, and opened from
another page (Explore), through what :mod:`trackkit.app.common` lets a game register."""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from trackkit.app import common
from trackkit.errors import TrackkitError
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import (
    Design,
    decode_track,
    encode_track,
    read_uploaded_track,
)

log = logging.getLogger(__name__)


def design() -> Design:
    """The user's design, kept across reruns and pages.

    The address bar and the design stay in step: a shared link opens its track, and when
    the visitor moves through the browser's history (Back, Forward) or edits the address,
    the design follows it as an edit that Undo takes back.
    """
    opening = "design" not in st.session_state
    if opening:
        st.session_state.design = Design.empty()
        common.players_from_address()
    current: Design = st.session_state.design
    shared = st.query_params.get("track")
    # A page switch carries the session's own design in its link (common.page_link); only
    # a new session or Back/Forward means the address holds what the visitor wants to see.
    if (opening and shared) or (common.history_navigation() and shared != _address(current)):
        st.session_state.design = _follow_address(current, shared)
        if st.session_state.design is current:
            common.sync_address()  # an unusable link leaves the design and shows the design's own
    return st.session_state.design


def _address(current: Design) -> str | None:
    track = current.track
    if track.placements or track.name != Design.empty().track.name:
        return encode_track(track)
    return None


def _follow_address(current: Design, shared: str | None) -> Design:
    if not shared:
        return current.opened(Design.empty().track)
    try:
        track = decode_track(shared, common.app_tilesets())
    except TrackkitError as error:
        st.session_state.link_error = str(error)
        return current
    except Exception:  # whatever a link holds, the visitor gets a message
        log.exception("a shared link could not be opened")
        st.session_state.link_error = "link: the track in this link cannot be read"
        return current
    if current == Design.empty():  # a link opened in a new session: no history to keep
        return Design(track)
    return stepped(current, track)


def stepped(current: Design, track: Track) -> Design:
    """``current`` moved to ``track`` by the browser's Back or Forward: an undo or a redo
    when ``track`` is the design before or after it (so Redo still works after Forward),
    else an edit that Undo takes back."""
    if current.can_undo and current.undo().track == track:
        return current.undo()
    if current.can_redo and current.redo().track == track:
        return current.redo()
    return current.opened(track)


def set_design(new: Design) -> None:
    st.session_state.design = new
    st.session_state.table_version = st.session_state.get("table_version", 0) + 1
    common.sync_address()


def read_yummell_file(data: bytes, name: str) -> Track:
    return read_uploaded_track(data, name, common.app_tilesets())


def read_upload(upload: Any) -> Track | None:
    """A Yummell track from an uploaded file (only the tile sets this server offers), or
    None with the reason shown."""
    track: Track | None = common.read_upload(upload, read_yummell_file)
    return track


def open_design(track: Track) -> None:
    """Open ``track`` in the Design page's editor, as an edit that Undo takes back."""
    set_design(design().opened(track))


common.follows_address(design)
common.keeps_in_address("track", lambda: _address(st.session_state.get("design", Design.empty())))
