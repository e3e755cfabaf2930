"""Snow Tails design: a demo board (or your file), trees, markers and buildings placed by
clicking its spaces, every change checked as it is made, undo and redo, downloads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from trackkit.app.common import clicked
from trackkit.app.fairness import plain
from trackkit.app.games.snowtails.common import (
    GAME_TITLE,
    RECONSTRUCTED,
    history,
    mark_spaces,
    problem_spaces,
    problem_text,
    read_upload,
    set_history,
)
from trackkit.app.picture import picture_downloads
from trackkit.app.sheet import sheet_download
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.editing import TOOLS, EditHistory, Tool, edited, try_edit
from trackkit.games.snowtails.core.issues import Validation
from trackkit.games.snowtails.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.core.track import Address, SnowTrack
from trackkit.games.snowtails.face.lanes import lane_figure
from trackkit.limits import CostLimitError
from trackkit.report.export import track_slug

TOOL_LABELS: dict[Tool, str] = {
    "tree": "Tree",
    "marker": "Marker",
    "kennels": "Kennels",
    "chapel": "Chapel",
    "bothy": "Bothy",
    "tavern": "Tavern",
    "remove": "Remove",
}
NAME_LENGTH = 200  # a track file's name (trackkit.games.snowtails.core.track)
TOOL_HELP = (
    "Tree and Marker: a click puts one on the space, or takes it away. Kennels, Chapel and "
    "Bothy cover 2 lanes × 2 rows of a straight from the space clicked (moved if already "
    "placed); the Tavern stands beside the straight, on the nearer side. Remove: whatever "
    "is on the space."
)


def page() -> None:
    st.title(f"Design a {GAME_TITLE} track")
    st.caption(RECONSTRUCTED)
    current = history()
    _start_from(current)
    current = _named(history())
    track = current.track
    controls, board = st.columns([1, 3])
    with controls:
        # a refusal goes first, level with the top of the board that was clicked
        if "snow_refusal" in st.session_state:
            st.warning(st.session_state.snow_refusal)
        tool = st.radio(
            "Place",
            list(TOOLS),
            format_func=lambda t: TOOL_LABELS[t],
            key="snow-tool",
            help=TOOL_HELP,
        )
        _undo_redo(current)
    try:
        checked: Validation | CostLimitError = validate_track(track)
    except CostLimitError as refusal:  # over the server's board limit: said below
        checked = refusal
    named = set(st.session_state.get("snow_refusal_spaces", ()))
    if isinstance(checked, Validation):
        named |= problem_spaces(checked.problems, track)
    with board:
        clicked = _clicked_space(_board(track, named))
    with st.expander("Or name the space"):
        clicked = _typed_space(track) or clicked
    if clicked is not None:
        _apply(current, tool, clicked)
    _validation(track, checked)
    _downloads(history().track)


def _named(current: EditHistory) -> EditHistory:
    """The design's name, to edit: a new one is an edit Undo takes back."""
    version = st.session_state.get("snow_board_version", 0)  # a new box after each change
    name = st.text_input(
        "Track name", current.track.name, max_chars=NAME_LENGTH, key=f"snow-name-{version}"
    )
    name = " ".join(name.split())  # one line, as a track file's name
    if not name or name == current.track.name:
        return current
    set_history(current.then(replace(current.track, name=name)))
    return history()


def _start_from(current: EditHistory) -> None:
    with st.expander("Start from…", expanded=False):
        left, right = st.columns(2)
        slug = left.selectbox("Demo board", PRESET_SLUGS, key="snow-start-demo")
        if left.button("Open the demo board"):
            set_history(current.then(load_preset(slug)))
            st.toast("Opened; Undo brings your design back.")
        upload = right.file_uploader(
            "Track file (.toml, up to 1 MB)", type=["toml"], key="snow-start-upload"
        )
        track = read_upload(upload)
        if track is not None and right.button("Open the file"):
            set_history(current.then(track))
            st.toast("Opened; Undo brings your design back.")


def _board(track: SnowTrack, named: set[Address]) -> Any:
    """The board to click, the spaces a problem names (``named``) ringed in red, and the
    selection event of its chart; a board too big to draw is refused in one line, and the
    spaces can still be named below."""
    try:
        figure = lane_figure(track)
    except CostLimitError as refusal:
        st.warning(f"The board is not drawn: {refusal}. Name the spaces below, or Undo.")
        return None
    mark_spaces(figure, named)
    event = st.plotly_chart(
        figure,
        on_select="rerun",
        selection_mode="points",
        width="stretch",
        key=f"snow-board-{st.session_state.get('snow_board_version', 0)}",
    )
    st.caption(
        "Click a space to use the chosen tool there; hover to read its address."
        + (" Red rings: the spaces a problem below names." if named else "")
    )
    return event


def _clicked_space(event: Any) -> Address | None:
    data = clicked(event, 3)
    return None if data is None else Address(str(data[0]), int(data[1]), int(data[2]))


def _typed_space(track: SnowTrack) -> Address | None:
    """The same edit without a pointer: a segment, a lane and an index, and a button."""
    a, b, c, d = st.columns([3, 1, 1, 2])
    segment = a.selectbox("Segment", [s.id for s in track.segments], key="snow-at-segment")
    lane = b.number_input("Lane", min_value=1, max_value=12, value=1, key="snow-at-lane")
    index = c.number_input("Index", min_value=0, max_value=200, value=0, key="snow-at-index")
    d.write("")
    if d.button("Use the tool here"):
        return Address(str(segment), int(lane), int(index))
    return None


def _apply(current: EditHistory, tool: Tool, address: Address) -> None:
    outcome = try_edit(current.track, tool, address)
    if tool == "remove" and outcome.track == current.track:  # said, not silently nothing
        where = current.track.describe(address)
        st.session_state.snow_refusal = f"Remove at {where}: nothing there to remove."
        st.session_state.snow_refusal_spaces = {address}
        st.session_state.snow_board_version = st.session_state.get("snow_board_version", 0) + 1
        st.rerun()
    if outcome.refused:
        where = current.track.describe(address)
        refused = edited(current.track, tool, address)  # the track the problems speak of
        st.session_state.snow_refusal = f"{TOOL_LABELS[tool]} at {where} refused:\n\n" + (
            "\n".join(f"- {problem_text(i, refused)}" for i in outcome.refused)
        )
        spaces = problem_spaces(outcome.refused, refused) | {address}
        st.session_state.snow_refusal_spaces = spaces
        st.session_state.snow_board_version = st.session_state.get("snow_board_version", 0) + 1
        st.rerun()  # the board again, the refused space ringed
    else:
        set_history(current.then(outcome.track))
        st.rerun()


def _undo_redo(current: EditHistory) -> None:
    left, right = st.columns(2)
    if left.button("Undo", disabled=not current.can_undo):
        set_history(current.undo())
        st.rerun()
    if right.button("Redo", disabled=not current.can_redo):
        set_history(current.redo())
        st.rerun()


def _validation(track: SnowTrack, result: Validation | CostLimitError) -> None:
    trees, markers = counted(len(track.trees), "tree"), counted(len(track.markers), "marker")
    buildings = ", ".join(b.name for b in track.buildings) or "none"
    st.subheader("Validation")
    st.write(f"**{plain(track.name)}**: {trees}, {markers}; buildings: {buildings}.")
    if isinstance(result, CostLimitError):  # over the server's board limit: keep the design
        st.error(f"Not checked: {result}. Undo, or open a smaller board.")
        return
    unfollowed = counted(len(result.warnings), "guideline")
    if result.ok and not result.warnings:
        st.success("The track obeys every track rule of the rulebook.")
    elif result.ok:  # legal, but not "every rule" beside a guideline it goes against
        st.warning(f"The track breaks no track rule; {unfollowed} not followed:")
    for problem in result.errors:
        st.error(problem_text(problem, track))
    for problem in result.warnings:
        st.info(f"Guideline: {problem_text(problem, track)}")


def counted(number: int, thing: str) -> str:
    """``number`` things, in words: "1 tree", "2 trees"."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _downloads(track: SnowTrack) -> None:
    stem = track_slug(track)
    st.download_button(
        "Download the track (TOML)",
        track.to_toml(),
        file_name=f"{stem}.toml",
        mime="application/toml",
        on_click="ignore",
    )
    picture_downloads(track, key="snow-design")
    sheet_download(track, None, key="snow-design-sheet")  # no track rule counts the sleds
