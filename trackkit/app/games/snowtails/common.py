"""What the Snow Tails pages share: the design being edited (kept across pages, with undo
and redo) and the choice of the track to race or compare."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app import common
from trackkit.app.fairness import plain
from trackkit.board.links import pack_link, unpack_link, uploaded_text
from trackkit.board.problems import Problem
from trackkit.errors import TrackkitError
from trackkit.games.base import parse_game_track_toml
from trackkit.games.snowtails import GAME
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.editing import EditHistory
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.track import Address, SnowTrack
from trackkit.limits import CostLimitError

CURRENT = "Current design"
DEMO = "Demo board"
UPLOAD = "Upload a track file"
GAME_TITLE = "Mush! Mush! Snow Tails 2"
SNOW_KEY = "snow"  # the Snow Tails design in the address
SNOW_ADDRESS = "snow_address"  # ... as the session last kept it (None: the first demo board)
BROWSER_COOKIE = "_streamlit_xsrf"  # Streamlit's own, one per browser, kept over a reload
KEEP_BROWSERS = 64  # browsers whose design history the server keeps (each ≤ 200 tracks)
RECONSTRUCTED = (
    "**Reconstructed boards.** The printed Mush! Mush! board and its tracks are not "
    "published, so the demo boards are parametric boards of trackkit's own, and so are the "
    "lanes, corner shapes, building footprint and the deck's counts: race lengths and win "
    "rates compare tracks with each other, they do not predict the boxed game exactly. If "
    "you own the box, describe its tracks in a track file ('Snow Tails track files' in "
    "trackkit's docs, docs/snowtails.md)."
)


# a track file's list item, as the validator names a field: ``trees[3]``, ``buildings[1].lanes``
_LIST_ITEM = re.compile(r"^(trees|markers|buildings|segments)\[(\d+)\]\.?(.*)$")
_ONE = {"trees": "tree", "markers": "marker", "buildings": "building", "segments": "segment"}
PROBLEM_COLOUR = "#c0392b"


def field_words(field: str, track: SnowTrack) -> str:
    """A field of the track file as a player names the thing: ``trees[3]`` is "tree 4",
    ``buildings[1].lanes`` "the Chapel, lanes" (the second building listed)."""
    found = _LIST_ITEM.match(field)
    if found is None:
        return field.replace("_", " ")
    kind, index, rest = found.group(1), int(found.group(2)), found.group(3)
    if kind == "buildings" and index < len(track.buildings):
        thing = f"the {track.buildings[index].name}"
    else:
        thing = f"{_ONE[kind]} {index + 1}"
    return f"{thing}, {rest.replace('_', ' ')}" if rest else thing


def problem_text(problem: Problem, track: SnowTrack) -> str:
    """A problem as the pages show it (Markdown): its code, the thing it concerns in words,
    and its message."""
    where = field_words(problem.field, track) if problem.field else ""
    where = where[:1].upper() + where[1:]
    return f"**{problem.code}**: " + (f"{plain(where)}: " if where else "") + plain(problem.message)


def problem_spaces(problems: Iterable[Problem], track: SnowTrack) -> set[Address]:
    """The spaces the ``problems`` name: each one's own, and a building's footprint."""
    spaces: set[Address] = set()
    for problem in problems:
        if problem.where is not None:
            spaces.add(Address(*problem.where))
        found = _LIST_ITEM.match(problem.field or "")
        if found and found.group(1) == "buildings" and int(found.group(2)) < len(track.buildings):
            spaces.update(track.buildings[int(found.group(2))].footprint())
    return spaces


def mark_spaces(figure: go.Figure, spaces: set[Address]) -> None:
    """Ring in red, on a board drawn by
    :func:`~trackkit.games.snowtails.face.lanes.lane_figure`, the
    ``spaces`` a problem names; a ring carries its space's address, so a click on it
    still picks the space."""
    if not spaces or not figure.data:
        return
    points = figure.data[0]  # the board's invisible point on every space
    rings = [
        (x, y, data)
        for x, y, data in zip(points.x, points.y, points.customdata, strict=True)
        if Address(str(data[0]), int(data[1]), int(data[2])) in spaces
    ]
    if not rings:
        return
    xs, ys, data = zip(*rings, strict=True)
    figure.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            customdata=data,
            mode="markers",
            name="named by a problem",
            marker={"symbol": "circle-open", "size": 22, "color": PROBLEM_COLOUR},
            marker_line_width=3,
            hoverinfo="skip",
            showlegend=False,
        )
    )


@lru_cache(maxsize=1)
def _first_demo() -> SnowTrack:
    """The board a session's design begins with (read once: every run of every page asks
    whether the design is still it)."""
    return load_preset(PRESET_SLUGS[0])


@common.follows_address
def history() -> EditHistory:
    """The Snow Tails design of this session, with its undo history (the first demo board
    to begin with).

    The design lives in the address as ``?snow=`` beside Yummell's ``?track=``: a link or a
    reload opens it, and Back and Forward move it as an edit that Undo takes back.
    """
    opening = "snow_history" not in st.session_state
    shared = st.query_params.get(SNOW_KEY)
    if opening:  # a reload: this browser's history of the design the address names
        st.session_state.snow_history = _kept(shared) or EditHistory.of(_first_demo())
    current: EditHistory = st.session_state.snow_history
    moved = common.history_navigation() and shared != _address(current)
    if (opening and shared and shared != _address(current)) or moved:
        current = _follow_address(current, shared, fresh=opening)
        st.session_state.snow_history = current
    st.session_state[SNOW_ADDRESS] = _address(current)
    _keep(current)
    return current


@st.cache_resource
def _histories() -> dict[str, EditHistory]:
    """Each browser's design with its undo history, so that a reload keeps them."""
    return {}


def _browser() -> str | None:
    """This browser, named by a digest of the token in the cookie Streamlit gives it (a
    link does not carry it: a shared link never opens another visitor's history); None
    without one."""
    cookie = st.context.cookies.get(BROWSER_COOKIE)
    if not isinstance(cookie, str) or not cookie:
        return None
    return hashlib.sha256(_unmasked(cookie).encode()).hexdigest()


def _unmasked(cookie: str) -> str:
    """The token of an XSRF cookie, the same whichever random mask it is written with
    (Tornado's form: ``2|mask|masked token|time``, in hex)."""
    parts = cookie.split("|")
    try:
        mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
    except (IndexError, ValueError):
        return cookie
    if parts[0] != "2" or not mask:
        return cookie
    return bytes(b ^ mask[i % len(mask)] for i, b in enumerate(masked)).hex()


def _kept(shared: str | None) -> EditHistory | None:
    """This browser's kept history when its design is the one the address names."""
    browser = _browser()
    kept = None if browser is None else _histories().get(browser)
    return kept if kept is not None and _address(kept) == shared else None


def _keep(current: EditHistory) -> None:
    browser = _browser()
    if browser is None:
        return
    histories = _histories()
    histories.pop(browser, None)  # the newest last: the oldest go first
    histories[browser] = current
    while len(histories) > KEEP_BROWSERS:
        histories.pop(next(iter(histories)))


def _address(current: EditHistory) -> str | None:
    """The design as the address keeps it (None for the first demo board, untouched)."""
    if current.track == _first_demo():
        return None
    return pack_link(current.track.to_toml())


def _follow_address(current: EditHistory, shared: str | None, *, fresh: bool) -> EditHistory:
    """The design the address names (the first demo board when it names none); an
    unusable link leaves the design and is explained once."""
    try:
        if not shared:
            track = _first_demo()
        else:
            track = parse_game_track_toml(unpack_link(shared), source="link", game=GAME)
    except TrackkitError as error:
        st.session_state.link_error = str(error)
        return current
    except Exception:  # whatever a link holds, the visitor gets a message
        st.session_state.link_error = "link: the track in this link cannot be read"
        return current
    if fresh:
        return EditHistory.of(track)
    # Back or Forward to the design just before or after: an undo or a redo, so that Redo
    # still works after Forward
    for step in (current.undo(), current.redo()):
        if step.at != current.at and step.track.to_toml() == track.to_toml():
            return step
    return current.then(track)


def set_history(new: EditHistory) -> None:
    """``new`` becomes the design (and the address's); a refusal shown for the design
    before goes."""
    st.session_state.snow_history = new
    _keep(new)
    st.session_state[SNOW_ADDRESS] = _address(new)
    common.sync_address()
    st.session_state.pop("snow_refusal", None)
    st.session_state.pop("snow_refusal_spaces", None)
    # a new chart key: a click kept in the old chart's selection must not act again
    st.session_state.snow_board_version = st.session_state.get("snow_board_version", 0) + 1


def _snow_upload(data: bytes, name: str) -> SnowTrack:
    track: SnowTrack = parse_game_track_toml(uploaded_text(data, name), source=name, game=GAME)
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
        errors = _errors(track)
        if errors is None:
            return None
        if errors:
            st.warning(
                f"The current design ({plain(track.name)}) breaks a rule:\n\n"
                + "\n".join(f"- {problem_text(e, track)}" for e in errors)
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
    errors = _errors(track)
    if errors is None:
        return None
    if errors:
        st.error(
            "This track breaks a rule:\n\n"
            + "\n".join(f"- {problem_text(e, track)}" for e in errors)
        )
        return None
    return track


common.keeps_in_address(SNOW_KEY, lambda: st.session_state.get(SNOW_ADDRESS, common.LEAVE))


def _errors(track: SnowTrack) -> tuple[Problem, ...] | None:
    """The track rules ``track`` breaks, or None with the refusal shown in one line when
    the board is over the server's limit (it is not checked, so not raced)."""
    try:
        return validate_track(track).errors
    except CostLimitError as refusal:
        st.error(f"Not raced: {plain(str(refusal))}.")
        return None


def _current() -> tuple[SnowTrack | None, str]:
    track = history().track
    try:
        errors = validate_track(track).errors
    except CostLimitError as refusal:  # over the server's board limit: not raced here
        return None, plain(str(refusal))
    if errors:
        return None, f"the design breaks a rule: {problem_text(errors[0], track)}"
    return track, ""


common.edits(
    GAME,
    common.Editor(
        lambda track: set_history(history().then(track)), _current, lambda: None, "snow-design"
    ),
)
