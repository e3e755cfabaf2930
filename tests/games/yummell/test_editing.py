"""The design being edited: a history of whole tracks, links and uploads from visitors."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trackkit.board.links import MAX_UPLOAD_BYTES
from trackkit.errors import TrackFileError
from trackkit.games.tilekit.tiles import bundled_tiles_folder
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.editing import (
    MAX_HISTORY,
    Design,
    and_list,
    check_placement,
    decode_track,
    encode_track,
    is_complete,
    next_tiles,
    read_uploaded_track,
    restrict_tileset,
)
from trackkit.games.yummell.core.presets import load_preset

NESTED_LINK = "eNqrULBViB4Fo2AUDHsQOwpGwSgY9oArLzE31VYpUYkLABqZ0ms"  # x = [[[[…]]]]


def _link(toml: str) -> str:
    return base64.urlsafe_b64encode(zlib.compress(toml.encode())).decode().rstrip("=")


def test_placing_then_undo_and_redo() -> None:
    design = Design.empty().place(Placement(1, 0, 0)).place(Placement(7, 0, -1, 0))
    assert design.undo().track.tiles == (1,)
    assert design.undo().undo().track.tiles == ()
    assert design.undo().undo().redo().redo() == design.undo().undo().redo().redo()
    assert design.undo().undo().redo().redo().track == design.track


@pytest.mark.parametrize(
    "action",
    [
        lambda d: d.clear(),
        lambda d: d.opened(load_preset("king-of-toads")),
        lambda d: d.opened(Design.empty().track),
        lambda d: d.renamed("Another name"),
    ],
    ids=["clear", "open preset", "empty table", "rename"],
)
def test_every_change_of_the_whole_track_can_be_undone(action) -> None:  # type: ignore[no-untyped-def]
    mine = Design(load_preset("forest-run")).place(Placement(3, 9, 9))
    changed = action(mine)
    assert changed.track != mine.track
    assert changed.can_undo
    assert changed.undo().track == mine.track
    assert changed.undo().redo().track == changed.track


def test_a_new_edit_drops_what_could_be_redone() -> None:
    design = Design(load_preset("first-run")).clear().undo()
    assert design.can_redo
    assert not design.place(Placement(3, 9, 9)).can_redo


def test_a_design_opened_without_history_gives_up_its_tiles_last_first() -> None:
    design = Design(load_preset("first-run"))
    assert design.undo().track.tiles == (1, 10, 7)
    assert design.undo().redo().track == design.track


def test_history_is_bounded() -> None:
    design = Design.empty()
    for i in range(MAX_HISTORY + 50):
        design = design.renamed(f"name {i}")
    assert len(design.past) == MAX_HISTORY


def test_a_link_round_trips() -> None:
    track = load_preset("king-of-toads")
    assert decode_track(encode_track(track)) == track


@pytest.mark.parametrize(
    "text",
    ["not-a-track", NESTED_LINK, _link("x = " + "[" * 2000), "A" * 5000, _link("\x00" * 10)],
    ids=["damaged", "nested", "deeper", "too long", "nul"],
)
def test_a_bad_link_is_a_located_error(text: str) -> None:
    with pytest.raises(TrackFileError, match="^link"):
        decode_track(text)


def test_a_link_that_inflates_beyond_a_track_file_is_refused() -> None:
    bomb = _link('name = "' + "a" * (2 * MAX_UPLOAD_BYTES) + '"')
    assert len(bomb) < 4000  # short enough to pass the length check
    with pytest.raises(TrackFileError, match="too long"):
        decode_track(bomb)


@pytest.mark.parametrize("folder", ["/etc", "../../secret", "/nonexistent/x", "~/.ssh"])
def test_a_visitor_may_not_name_a_server_folder(folder: str) -> None:
    track = Track("t", (Placement(1, 0, 0),), tileset=Path(folder))
    with pytest.raises(TrackFileError) as caught:
        decode_track(encode_track(track))
    message = str(caught.value)
    assert "tileset" in message and "bundled tile set" in message
    # nothing about the folder is repeated: neither its name nor whether it exists
    assert folder.strip("\x00./") not in message
    assert "exist" not in message and "no such" not in message.lower()


def test_an_operator_folder_is_allowed_by_path_or_name(tmp_path: Path) -> None:
    offered = tmp_path / "house-tiles"
    for written in (str(offered), "house-tiles"):
        track = Track("t", (Placement(1, 0, 0),), tileset=Path(written))
        assert restrict_tileset(track, [offered]).tileset == offered
    other = Track("t", (Placement(1, 0, 0),), tileset=tmp_path / "other")
    with pytest.raises(TrackFileError, match="'house-tiles'"):
        restrict_tileset(other, [offered])


def test_the_bundled_folder_named_outright_is_the_bundled_set() -> None:
    track = Track("t", (Placement(1, 0, 0),), tileset=bundled_tiles_folder())
    assert restrict_tileset(track).tileset is None


def test_an_upload_is_checked_like_a_link() -> None:
    good = load_preset("first-run").to_toml().encode()
    assert read_uploaded_track(good, "mine.toml") == load_preset("first-run")
    cases = {
        b"x = " + b"[" * 1000: "nest",
        b"\xff\xfe\x00": "UTF-8",
        b'name = "t"\ntileset = "/etc"\n': "offers only the bundled tile set",
        b" " * (MAX_UPLOAD_BYTES + 1): "too large",
        b"name = ": "not valid TOML",
    }
    for data, reason in cases.items():
        with pytest.raises(TrackFileError, match=reason) as caught:
            read_uploaded_track(data, "mine.toml")
        assert str(caught.value).startswith("mine.toml")
        assert "/etc" not in str(caught.value)


def test_a_refusal_lists_the_rules_then_where_the_tile_fits_as_its_own_paragraph(
    tileset,  # type: ignore[no-untyped-def]
) -> None:
    start = Track("t", (Placement(1, 0, 0),))
    check = check_placement(start, Placement(7, 5, 5, 0), tileset)
    assert not check.allowed and check.suggestions
    text = check.explain()
    head, rules, fits = text.split("\n\n")
    assert head.endswith("breaks a rule:")
    assert all(line.startswith("- **") and line.endswith(".") for line in rules.splitlines())
    assert fits.startswith("Tile 7 fits at (") and fits.endswith(".")
    assert "[" not in fits  # no raw Python list


def test_next_tiles_lists_the_tiles_left_with_where_they_fit(tileset) -> None:  # type: ignore[no-untyped-def]
    assert [e.tile.number for e in next_tiles(Track("t"), tileset)] == [1]
    start = Track("t", (Placement(1, 0, 0),))
    entries = {e.tile.number: e for e in next_tiles(start, tileset)}
    assert sorted(entries) == list(range(2, 11))
    seven = entries[7]
    assert seven.fits and all(p.tile == 7 for p in seven.fits)
    assert seven.mp == sum(s["cost"] for s in tileset[7].squares)
    assert sum(seven.terrain_mix.values()) == len(tileset[7].squares)
    assert seven.summary().startswith(f"{len(tileset[7].squares)} squares, {seven.mp} MP: ")
    # under the rule for 3 players the finish cannot come straight after the start
    assert not {e.tile.number: e for e in next_tiles(start, tileset, 3)}[2].fits


def test_a_track_is_complete_once_the_finish_is_placed(tileset) -> None:  # type: ignore[no-untyped-def]
    assert is_complete(load_preset("first-run"), tileset)
    assert not is_complete(load_preset("first-run").without_last(), tileset)
    assert not is_complete(Track("t"), tileset)


def test_and_list_reads_as_a_sentence() -> None:
    assert and_list(["3"]) == "3"
    assert and_list(["3", "4", "8"]) == "3, 4 and 8"


# --- property tests: whatever a visitor sends, a track or a located one-line error -----

_VALID = load_preset("king-of-toads").to_toml().encode()


def _one_line_error(caught: TrackFileError, source: str) -> None:
    message = str(caught)
    assert message.startswith(source) and "\n" not in message and message.isprintable()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300) | st.from_regex(r"[A-Za-z0-9_-]{0,200}", fullmatch=True))
def test_any_link_text_opens_a_track_or_says_why(text: str) -> None:
    try:
        track = decode_track(text)
    except TrackFileError as caught:
        _one_line_error(caught, "link")
    else:
        assert track.tileset is None  # a link never reaches a folder of the server


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=400)
    | st.builds(
        lambda cut, junk: _VALID[:cut] + junk + _VALID[cut:],
        st.integers(0, len(_VALID)),
        st.binary(max_size=20),
    )
)
def test_any_upload_opens_a_track_or_says_why(data: bytes) -> None:
    try:
        track = read_uploaded_track(data, "upload.toml")
    except TrackFileError as caught:
        _one_line_error(caught, "upload.toml")
    else:
        assert track.tileset is None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(_VALID)), st.binary(max_size=12))
def test_a_mutated_link_opens_a_track_or_says_why(cut: int, junk: bytes) -> None:
    mutated = _VALID[:cut] + junk + _VALID[cut:]
    link = base64.urlsafe_b64encode(zlib.compress(mutated)).decode().rstrip("=")
    try:
        decode_track(link)
    except TrackFileError as caught:
        _one_line_error(caught, "link")
