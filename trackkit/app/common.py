"""What the pages share: the address bar, caches, and reading user files.

Each game's pages keep its design in the session and in the address; they register here
what they keep there (:func:`keeps_in_address`), how to open what a link names
(:func:`follows_address`) and their editor (:func:`edits`), so that
the address holds every game's design and another page (Explore) can open a track in its
game's editor, without this module knowing a game.

Visitors reach a server, so what they send is checked here before any page uses it: a
shared link or an uploaded track may use only the bundled tile set, or the tile-set
folders the person running the server lists in ``TRACKKIT_APP_TILESETS`` (separated
by ``:``, ``;`` on Windows).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from trackkit.board.links import MAX_UPLOAD_BYTES, uploaded_text
from trackkit.errors import TrackkitError
from trackkit.games import load_tileset
from trackkit.games.base import get_ruleset, parse_game_track_toml
from trackkit.games.tilekit.tiles import TileSet

MAX_UPLOAD_MB = 1  # Streamlit counts upload limits in whole MB (.streamlit/config.toml)
MAX_UPLOAD = MAX_UPLOAD_BYTES  # bytes: the same limit, checked again by the library
UPLOAD_LABEL = f"Track file (.toml, up to {MAX_UPLOAD_MB} MB)"
UPLOAD_HELP = (
    "A trackkit track file: see 'Track files' in trackkit's docs (docs/formats.md). "
    "Ten tiles take about 1 KB."
)
TILESETS_VARIABLE = "TRACKKIT_APP_TILESETS"
PLAYERS_KEY = "players"  # the one player count of Design, Race, Compare and Explore
LEAVE = object()  # what an address part's value says when the address should be left as it is

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


@dataclass(frozen=True)
class Editor:
    """What a game's editor lets other pages do: ``open(track)`` opens a track in it (an
    edit that Undo takes back), ``current()`` is the design when it can be raced (else
    None and why not), ``ready()`` waits while the game's engine compiles, ``path`` is the
    editor page's address."""

    open: Callable[[Any], None]
    current: Callable[[], tuple[Any, str]]
    ready: Callable[[], None]
    path: str


_FOLLOWERS: list[Callable[[], Any]] = []
_PARTS: dict[str, Callable[[], Any]] = {}
_EDITORS: dict[str, Editor] = {}


def follows_address(follow: Callable[[], Any]) -> Callable[[], Any]:
    """Register ``follow``, which opens what the address names (a game's design) at the
    start of every run, before the address is written back."""
    if follow not in _FOLLOWERS:
        _FOLLOWERS.append(follow)
    return follow


def keeps_in_address(key: str, value: Callable[[], Any]) -> None:
    """Keep ``?key=`` in the address on every page: ``value()`` is its text, None to take
    it out, or :data:`LEAVE` to leave the address as it is (a design not opened yet)."""
    _PARTS[key] = value


_PAGES: dict[str, Any] = {}


def navigates(pages: dict[str, Any]) -> None:
    """The navigation's pages by address (the start page lists them, so that a page can
    switch to another without importing the list that holds it)."""
    _PAGES.clear()
    _PAGES.update(pages)


def page_at(path: str) -> Any:
    """The page of the navigation at address ``path`` (:func:`navigates`)."""
    return _PAGES[path]


def edits(game: str, editor: Editor) -> None:
    """Register ``game``'s editor, through which other pages reach its design."""
    _EDITORS[game] = editor


def has_editor(game: str) -> bool:
    """Whether ``game`` registered an editor (a game with no Design page has none)."""
    return game in _EDITORS


def editor(game: str) -> Editor:
    """``game``'s editor (:func:`edits`)."""
    if game not in _EDITORS:
        raise TrackkitError(f"the app has no editor for {get_ruleset(game).title} tracks")
    return _EDITORS[game]


def follow_addresses() -> None:
    """Every design the address names, opened (a shared link, a reload, Back or Forward)
    whichever page it points at; in a new session, its player count too."""
    if "address_followed" not in st.session_state:
        st.session_state.address_followed = True
        players_from_address()
    for follow in _FOLLOWERS:
        follow()


def players() -> int | None:
    """The player count chosen on a page of this session (or in the link it opened)."""
    count = st.session_state.get(PLAYERS_KEY, st.session_state.get(f"kept:{PLAYERS_KEY}"))
    return None if count is None else int(count)


def players_from_address() -> None:
    """A link's ``?players=`` becomes the session's player count (ignored unless a count
    the first game races)."""
    bounds = get_ruleset().players
    text = st.query_params.get(PLAYERS_KEY, "")
    if text.isdigit() and bounds.race_min <= int(text) <= bounds.race_max:
        st.session_state[f"kept:{PLAYERS_KEY}"] = int(text)


def history_navigation() -> bool:
    """Whether this run was started by the browser's Back or Forward button."""
    ctx = get_script_run_ctx()  # Streamlit's run context: no public API says this yet
    return bool(getattr(ctx, "is_history_navigation", False))


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


def address() -> dict[str, str]:
    """The address's parameters as they should read now: every game's design (``?track=``,
    ``?snow=``…, as its pages register them) and ``?players=``, once a count is chosen."""
    wanted = st.query_params.to_dict()
    for key, value in _PARTS.items():
        text = value()
        if text is LEAVE:
            continue
        if text is None:
            wanted.pop(key, None)
        else:
            wanted[key] = text
    count = players()
    if count is not None:
        wanted[PLAYERS_KEY] = str(count)
    return wanted


def sync_address() -> None:
    """Keep :func:`address` in the address bar on every page, so a reload or a copied
    address reopens the designs for that count.

    All of it changes at once: the browser takes each change as a step of its history,
    and a step per parameter would make Back stop on the same page with part of them.
    """
    wanted = address()
    if wanted != st.query_params.to_dict():
        st.query_params.from_dict(wanted)


def page_link(page: Any, *, label: str | None = None, where: Any = None) -> None:
    """A link to ``page`` that keeps the address's designs: Streamlit drops the address's
    parameters on a page switch, and putting them back after it would be a second step
    of the browser's history (Back would stop on the same page)."""
    (where or st).page_link(page, label=label or page.title, icon=page.icon, query_params=address())


def switch_page(page: Any) -> None:
    """Switch to ``page`` keeping the address's designs (:func:`page_link`)."""
    st.switch_page(page, query_params=address())


def read_upload(upload: Any, read: Callable[[bytes, str], Any]) -> Any:
    """A track from an uploaded file (what ``read`` makes of its bytes and name), or None
    with the reason shown."""
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
