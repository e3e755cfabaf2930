"""What the pages share: the design in the session, caches, and reading user files.

Visitors reach a server, so what they send is checked here before any page uses it: a
shared link or an uploaded track may use only the bundled tile set, or the tile-set
folders the person running the server lists in ``TRACKKIT_APP_TILESETS`` (separated
by ``:``, ``;`` on Windows).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from trackkit.board.tiles import TileSet
from trackkit.board.track import Track
from trackkit.design import (
    MAX_UPLOAD_BYTES,
    Design,
    decode_track,
    encode_track,
    read_uploaded_track,
    uploaded_text,
)
from trackkit.errors import TrackkitError
from trackkit.games import load_tileset
from trackkit.games.yummell import PLAYERS

MAX_UPLOAD_MB = 1  # Streamlit counts upload limits in whole MB (.streamlit/config.toml)
MAX_UPLOAD = MAX_UPLOAD_BYTES  # bytes: the same limit, checked again by the library
UPLOAD_LABEL = f"Track file (.toml, up to {MAX_UPLOAD_MB} MB)"
UPLOAD_HELP = (
    "A trackkit track file: see 'Track files' in trackkit's docs (docs/formats.md). "
    "Ten tiles take about 1 KB."
)
TILESETS_VARIABLE = "TRACKKIT_APP_TILESETS"
PLAYERS_KEY = "players"  # the one player count of Design, Race, Compare and Explore
SNOW_KEY = "snow"  # the Snow Tails design in the address
SNOW_ADDRESS = "snow_address"  # ... as the session last kept it (None: the first demo board)

log = logging.getLogger(__name__)


def app_tilesets() -> tuple[Path, ...]:
    """The tile-set folders the server's operator offers besides the bundled set."""
    listed = os.environ.get(TILESETS_VARIABLE, "")
    return tuple(Path(part) for part in listed.split(os.pathsep) if part.strip())


def tiles(folder: Path | None = None) -> TileSet:
    """The bundled tile set, or one of the operator's sets (``folder`` already checked)."""
    return load_tileset() if folder is None else _operator_tileset(str(folder))


@st.cache_resource(max_entries=8)
def _operator_tileset(folder: str) -> TileSet:
    return load_tileset(folder)


def design() -> Design:
    """The user's design, kept across reruns and pages.

    The address bar and the design stay in step: a shared link opens its track, and when
    the visitor moves through the browser's history (Back, Forward) or edits the address,
    the design follows it as an edit that Undo takes back.
    """
    opening = "design" not in st.session_state
    if opening:
        st.session_state.design = Design.empty()
        _players_from_address()
    current: Design = st.session_state.design
    shared = st.query_params.get("track")
    # A page switch drops the address's parameters (sync_address puts them back); only a
    # new session or Back/Forward means the address holds what the visitor wants to see.
    if (opening and shared) or (history_navigation() and shared != _address(current)):
        st.session_state.design = _follow_address(current, shared)
        if st.session_state.design is current:
            sync_address()  # an unusable link leaves the design and shows the design's own
    return st.session_state.design


_FOLLOWERS: list[Callable[[], Any]] = []


def follows_address(follow: Callable[[], Any]) -> Callable[[], Any]:
    """Register ``follow``, which opens what the address names (a design of another game)
    at the start of every run, before the address is written back."""
    if follow not in _FOLLOWERS:
        _FOLLOWERS.append(follow)
    return follow


def follow_addresses() -> None:
    """Every design the address names, opened (a shared link, a reload, Back or Forward)
    whichever page it points at."""
    design()
    for follow in _FOLLOWERS:
        follow()


def players() -> int | None:
    """The player count chosen on a page of this session (or in the link it opened)."""
    count = st.session_state.get(PLAYERS_KEY, st.session_state.get(f"kept:{PLAYERS_KEY}"))
    return None if count is None else int(count)


def _players_from_address() -> None:
    """A link's ``?players=`` becomes the session's player count (ignored unless a count
    the game races)."""
    text = st.query_params.get(PLAYERS_KEY, "")
    if text.isdigit() and PLAYERS.race_min <= int(text) <= PLAYERS.race_max:
        st.session_state[f"kept:{PLAYERS_KEY}"] = int(text)


def history_navigation() -> bool:
    """Whether this run was started by the browser's Back or Forward button."""
    ctx = get_script_run_ctx()  # Streamlit's run context: no public API says this yet
    return bool(getattr(ctx, "is_history_navigation", False))


def _address(current: Design) -> str | None:
    track = current.track
    if track.placements or track.name != Design.empty().track.name:
        return encode_track(track)
    return None


def _follow_address(current: Design, shared: str | None) -> Design:
    if not shared:
        return current.opened(Design.empty().track)
    try:
        track = decode_track(shared, app_tilesets())
    except TrackkitError as error:
        st.session_state.link_error = str(error)
        return current
    except Exception:  # whatever a link holds, the visitor gets a message
        log.exception("a shared link could not be opened")
        st.session_state.link_error = "link: the track in this link cannot be read"
        return current
    if current == Design.empty():  # a link opened in a new session: no history to keep
        return Design(track)
    return current.opened(track)


def clicked(event: Any, fields: int) -> list[Any] | None:
    """The ``customdata`` of the point a chart's selection ``event`` picked (a cell's
    ``[x, y]``, a space's ``[segment, lane, index]``), if it has ``fields`` values."""
    try:
        points = event.selection.points
    except AttributeError:
        return None
    for point in points:
        data = point.get("customdata")
        if data is not None and len(data) == fields:
            return list(data)
    return None


def show_link_error() -> None:
    """Say once, on whichever page a link opened, why the link's track could not be used."""
    if "link_error" in st.session_state:
        reason = st.session_state.pop("link_error").rstrip(".")
        st.error(f"The shared link could not be opened: {reason}. Your design was not changed.")


def sync_address() -> None:
    """Keep ``?track=`` (and ``?players=``, once a count is chosen, and ``?snow=``, the Snow
    Tails design) in the address bar on every page, so a reload or a copied address
    reopens the designs for that count."""
    encoded = _address(st.session_state.get("design", Design.empty()))
    if encoded is None:
        if "track" in st.query_params:
            del st.query_params["track"]
    elif st.query_params.get("track") != encoded:
        st.query_params["track"] = encoded
    count = players()
    if count is not None and st.query_params.get(PLAYERS_KEY) != str(count):
        st.query_params[PLAYERS_KEY] = str(count)
    # the Snow Tails design, once a Snow Tails page has opened it (snow_common.history)
    if SNOW_ADDRESS in st.session_state:
        snow = st.session_state[SNOW_ADDRESS]
        if snow is None:
            if SNOW_KEY in st.query_params:
                del st.query_params[SNOW_KEY]
        elif st.query_params.get(SNOW_KEY) != snow:
            st.query_params[SNOW_KEY] = snow


def set_design(new: Design) -> None:
    st.session_state.design = new
    st.session_state.table_version = st.session_state.get("table_version", 0) + 1
    sync_address()


def _yummell_upload(data: bytes, name: str) -> Track:
    return read_uploaded_track(data, name, app_tilesets())


def read_upload(upload: Any, read: Callable[[bytes, str], Any] = _yummell_upload) -> Any:
    """A track from an uploaded file (a Yummell track, or what ``read`` makes of its bytes
    and name), or None with the reason shown."""
    if upload is None:
        return None
    name = str(getattr(upload, "name", "upload"))[:100]
    try:
        return read(upload.getvalue(), name)
    except TrackkitError as error:
        st.error(str(error))
    except Exception:  # whatever a file holds, the visitor gets a message
        log.exception("an upload could not be read")
        st.error(f"{name}: cannot be read as a track file.")
    return None


def read_upload_of(game: str, key: str) -> Any:
    """A track of ``game`` from a file the reader uploads, checked by every rule of the
    game, or None with the reason shown (nothing uploaded yet: what to choose)."""
    from trackkit.games.base import get_ruleset, parse_game_track_toml

    ruleset = get_ruleset(game)
    upload = st.file_uploader(UPLOAD_LABEL, type=["toml"], key=f"{key}-upload", help=UPLOAD_HELP)
    if upload is None:
        st.info(f'Choose a {ruleset.title} track file (game = "{game}").')
        return None

    def read(data: bytes, name: str) -> Any:
        return parse_game_track_toml(uploaded_text(data, name), source=name, game=game)

    track = read_upload(upload, read)
    if track is None:
        return None
    problems = ruleset.check_track(track).problems
    if problems:
        st.error("This track breaks a rule:\n\n" + "\n".join(f"- {p}" for p in problems))
        return None
    return track
