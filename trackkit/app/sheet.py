"""The build sheet on the Design pages: a button that downloads the design's print-ready PDF
(:mod:`trackkit.report.sheet`) with the verdict of its last profile in this session (the
Race page remembers each one it shows) and the link that reopens it here."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.errors import TrackkitError
from trackkit.report.export import track_slug
from trackkit.report.sheet import (
    DEFAULT_APP,
    LastProfile,
    app_address,
    last_profile,
    sheet_pdf,
    track_sheet,
)

PROFILES = "sheet_profiles"  # this session's last profile of each track, by its file's text
KEEP_PROFILES = 20
LABEL = "Build sheet (PDF)"
HELP = (
    "A4, to print and take to the table: the picture, every piece in the order it is laid, "
    "the players it was checked for, the verdict of its last profile on the Race page (this "
    "session), and the link that reopens it."
)


def remember_profile(track: Any, profile: Any) -> None:
    """Keep ``profile`` (a :class:`~trackkit.explore.profile.TrackProfile` the Race page
    shows) as ``track``'s last in this session (the newest :data:`KEEP_PROFILES` tracks)."""
    kept: dict[tuple[str, str], LastProfile] = st.session_state.setdefault(PROFILES, {})
    key = (track.game, track.to_toml())
    kept.pop(key, None)
    kept[key] = last_profile(track, profile)
    while len(kept) > KEEP_PROFILES:
        kept.pop(next(iter(kept)))


def remembered_profile(track: Any) -> LastProfile | None:
    """``track``'s last profile in this session, or None."""
    return st.session_state.get(PROFILES, {}).get((track.game, track.to_toml()))


def sheet_download(track: Any, players: int | None, key: str) -> None:
    """The button that downloads ``track``'s build sheet, checked for ``players`` (None:
    every count, as :func:`~trackkit.report.sheet.checked_for` says). The sheet is made
    only when pressed; a track whose pieces cannot be listed (its tile set gone) gets a
    button that says why instead."""
    try:
        sheet = track_sheet(track)
    except TrackkitError as error:
        if st.button(LABEL, key=key, icon=":material/print:", help=str(error)):
            st.error(f"No build sheet: {error}")
        return
    profile = remembered_profile(track)
    app = _app_address(sheet.page)

    def made() -> bytes:
        return sheet_pdf(track, players=players, profile=profile, app=app)

    st.download_button(
        LABEL,
        made,
        file_name=f"{track_slug(track)}-sheet.pdf",
        mime="application/pdf",
        on_click="ignore",
        key=key,
        icon=":material/print:",
        help=HELP,
    )
    if profile is None:
        st.caption("Build sheet: not profiled; races run on the Race page add their verdict.")
    else:
        st.caption(f"Build sheet: with the verdict of its last profile ({profile.what}).")


def _app_address(page: str) -> str:
    """The app's address as this browser reaches it, without the page's own part (the
    address on the command line's sheets when the browser does not say)."""
    url = (st.context.url or "").split("?")[0].rstrip("/")
    if url.endswith(f"/{page}"):
        url = url[: -len(page) - 1]
    try:
        return app_address(url)
    except TrackkitError:
        return DEFAULT_APP
