"""Every page of the app, driven with Streamlit's AppTest (no browser)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from trackkit.app.home_page import game_entries
from trackkit.games.base import KNOWN
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.editing import Design, encode_track
from trackkit.games.yummell.core.presets import load_preset

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 120


def page(name: str) -> AppTest:
    """One page run on its own, as st.navigation would run it."""
    return AppTest.from_string(
        f"from trackkit.app.home_page import page_function\npage_function({name!r})()\n",
        default_timeout=TIMEOUT,
    )


def button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    return next(b for b in at.button if b.label == label)


def test_the_app_opens_on_the_start_page_with_links_and_the_caveat() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception
    assert "Yummell" in at.title[0].value
    assert [h.value for h in at.subheader] == [
        "1. Design a track",
        "2. Race it",
        "3. Compare it",
        "And another game: Mush! Mush! Snow Tails 2",
    ]
    links = [e.proto.page for e in at.main.get("page_link")]
    assert links[:3] == ["design", "race", "compare"]  # the Snow Tails links: test_snow_pages
    assert any("Reconstructed data" in i.value for i in at.info)


def test_the_sidebar_links_every_page_and_each_link_keeps_the_design() -> None:
    """Streamlit's own links drop the address's designs (putting them back made a page
    switch two steps of the browser's history): the sidebar's links carry them."""
    link = encode_track(load_preset("forest-run"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["track"] = link
    at.query_params["players"] = "4"
    at.run()
    assert not at.exception
    links = at.sidebar.get("page_link")
    pages = [e.proto.page for e in links]
    listed = ["", "glossary", *(e.path for game in KNOWN for e in game_entries(game))]
    assert pages == listed  # every page, once, the start page at the app's own address
    assert "snow-design" in pages
    for element in links:
        assert parse_qs(element.proto.query_string) == {"track": [link], "players": ["4"]}
    assert [c.value for c in at.sidebar.caption] == ["Yummell", "Mush! Mush! Snow Tails 2"]


def test_placing_tiles_updates_the_validation() -> None:
    at = page("design").run()
    assert not at.exception
    assert any("Place the start tile" in i.value for i in at.info)
    button(at, "Place next tile").click().run()
    assert len(at.session_state.design.track.placements) == 1
    assert any("No problem so far" in i.value for i in at.info)
    at.radio(key="tile").set_value(7).run()
    button(at, "Place next tile").click().run()
    assert at.session_state.design.track.tiles == (1, 7)
    # the link in the address bar reopens the design
    assert at.query_params["track"] == encode_track(at.session_state.design.track)


def test_undo_redo_clear() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(load_preset("first-run"))
    at.run()
    # the rulebook's shortest track has fewer path tiles than the building rule gives any count
    at.checkbox(key="design-building-rule").set_value(False).run()
    button(at, "Undo").click().run()
    assert at.session_state.design.track.tiles == (1, 10, 7)
    button(at, "Redo").click().run()
    assert at.session_state.design.track.tiles == (1, 10, 7, 2)
    assert any("complete, valid track" in s.value for s in at.success)
    button(at, "Clear").click().run()
    assert at.session_state.design.track.placements == ()


def test_a_broken_design_is_explained() -> None:
    at = page("design")
    broken = Track("b", (Placement(1, 0, 0), Placement(7, 3, 3)))
    at.query_params["track"] = encode_track(broken)
    at.run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "problem" in errors
    problem_lines = [m.value for m in at.markdown if "not-adjacent" in m.value]
    assert problem_lines
    assert all(line.count("not-adjacent") == 1 for line in problem_lines)  # the code once


def test_a_tile_that_cannot_go_next_is_explained() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(Track("t", (Placement(1, 0, 0),)))
    at.run()
    at.slider(key="players").set_value(3).run()
    # under the rule for 3 players the finish cannot come yet
    at.radio(key="tile").set_value(2).run()
    assert any("cannot go next" in i.value for i in at.info)
    button(at, "Place next tile").click().run()
    assert at.session_state.design.track.tiles == (1,)
    assert any("no legal place" in w.value for w in at.warning)


def test_why_the_finish_cannot_go_next_is_said_before_the_click() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(Track("t", (Placement(1, 0, 0),)))
    at.run()
    at.slider(key="players").set_value(3).run()
    at.radio(key="tile").set_value(2).run()
    said = next(m.value for m in at.markdown if m.value.startswith("Tile 2 next would break"))
    assert "**tile-count**: 3 players put 3 path tiles in play" in said  # no click yet


def test_redo_works_after_the_browsers_back_and_forward(monkeypatch) -> None:
    from trackkit.app import common
    from trackkit.app.games.yummell.state import stepped

    at = page("design").run()
    for _ in range(3):
        button(at, "Place next tile").click().run()
    three = at.session_state.design.track
    two, one = Track(three.name, three.placements[:2]), Track(three.name, three.placements[:1])
    monkeypatch.setattr(common, "history_navigation", lambda: True)
    for shown in (two, one, two):  # Back, Back, Forward
        at.query_params["track"] = encode_track(shown)
        at.run()
        assert at.session_state.design.track == shown
    monkeypatch.setattr(common, "history_navigation", lambda: False)
    button(at, "Redo").click().run()
    assert at.session_state.design.track == three
    assert stepped(at.session_state.design, one).track == one  # elsewhere: an edit
    assert stepped(at.session_state.design, one).past[-1] == three


def test_a_shared_link_reopens_the_track() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(load_preset("forest-run"))
    at.run()
    assert at.session_state.design.track == load_preset("forest-run")


def test_a_damaged_link_is_reported_not_a_crash() -> None:
    at = page("design")
    at.query_params["track"] = "not-a-track"
    at.run()
    assert not at.exception
    assert any("could not be opened" in e.value for e in at.error)


def test_a_small_race_produces_results() -> None:
    at = page("race").run()
    assert not at.exception
    at.slider[0].set_value(3)
    at.number_input[0].set_value(500)
    at.run()
    button(at, "Run races").click().run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert "Expected race length" in labels
    assert any("sample race" in h.value for h in at.subheader)


def test_too_many_chosen_characters_is_explained() -> None:
    at = page("race").run()
    at.slider[0].set_value(2).run()
    at.multiselect[0].set_value(["The Troll"]).run()
    assert any("one each" in i.value for i in at.info)


@pytest.mark.slow  # six presets compared with their skill: about 1.4 s (the quick loop's budget)
def test_compare_ranks_the_presets() -> None:
    at = page("compare").run()
    assert not at.exception
    at.number_input[0].set_value(500).run()
    button(at, "Compare").click().run()
    assert not at.exception
    assert len(at.dataframe[0].value) == 6


def test_tiles_gallery_shows_every_tile() -> None:
    at = page("tiles").run()
    assert not at.exception
    assert len(at.subheader) == 10
    assert sum("Reconstruction" in c.value for c in at.caption) == 10


def test_a_link_naming_a_server_folder_is_refused_without_saying_what_is_there() -> None:
    at = page("design")
    spy = Track("spy", (Placement(1, 0, 0),), tileset=Path("/etc"))
    at.query_params["track"] = encode_track(spy)
    at.run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "offers only the bundled tile set" in errors
    assert "/etc" not in errors and "passwd" not in errors
    assert at.session_state.design.track.placements == ()
    assert "track" not in at.query_params  # the address shows the design, not the bad link


def test_a_deeply_nested_link_is_reported_not_a_crash() -> None:
    at = page("design")
    at.query_params["track"] = "eNqrULBViB4Fo2AUDHsQOwpGwSgY9oArLzE31VYpUYkLABqZ0ms"
    at.run()
    assert not at.exception
    assert any("could not be opened" in e.value for e in at.error)
    button(at, "Place next tile").click().run()
    assert not at.exception
    assert at.session_state.design.track.tiles == (1,)


def test_the_uploader_states_the_real_limit() -> None:
    at = page("design").run()
    uploader = at.get("file_uploader")[0]
    assert "1 MB" in uploader.proto.label
    assert uploader.proto.max_upload_size_mb == 1


def test_the_palette_defaults_to_a_path_tile_that_fits() -> None:
    at = page("design").run()
    button(at, "Place next tile").click().run()
    chosen = at.radio(key="tile").value
    assert chosen != 2  # not the finish, which would end the track at once
    assert any(f"Tile {chosen} fits at" in s.value for s in at.success)
    # each tile left is shown with its squares and MP
    captions = " ".join(c.value for c in at.caption)
    assert "9 sq · 15 MP" in captions
    assert len(at.get("image")) == 9  # a thumbnail per tile left


def test_a_complete_track_says_so_instead_of_a_palette() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(load_preset("first-run"))
    at.run()
    assert any(h.value == "Track complete" for h in at.subheader)
    assert not [r for r in at.radio if r.key == "tile"]
    text = " ".join(e.value for e in [*at.info, *at.warning, *at.success])
    assert "No tile can" not in text


def test_the_hint_names_the_tiles_that_fit_in_words() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(Track("t", (Placement(1, 0, 0),)))
    at.run()
    at.slider(key="players").set_value(3).run()
    at.radio(key="tile").set_value(2).run()
    hint = next(i.value for i in at.info if "cannot go next" in i.value)
    assert "Tiles that fit next: 3, 4, 5, 6, 7, 8, 9 and 10." in hint
    assert "[" not in hint


def test_opening_a_preset_over_a_design_says_undo_brings_it_back() -> None:
    at = page("design")
    mine = Track("mine", (Placement(1, 0, 0),))
    at.query_params["track"] = encode_track(mine)
    at.run()
    at.selectbox[0].set_value("king-of-toads")
    button(at, "Open preset").click().run()
    assert at.session_state.design.track == load_preset("king-of-toads")
    assert any("Undo brings back" in t.value for t in at.toast)
    button(at, "Undo").click().run()
    assert at.session_state.design.track == mine


def test_a_tile_set_the_operator_offers_may_be_named_in_a_link(
    tile_folder: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv("TRACKKIT_APP_TILESETS", str(tile_folder))
    at = page("design")
    house = Track("house", (Placement(1, 0, 0),), tileset=Path(tile_folder.name))
    at.query_params["track"] = encode_track(house)
    at.run()
    assert not at.exception
    assert not at.error
    assert at.session_state.design.track.tileset == tile_folder
    assert any("No problem so far" in i.value for i in at.info)


def test_a_finished_but_broken_track_is_not_called_built() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(Track("b", (Placement(1, 0, 0), Placement(2, 3, 3))))
    at.run()
    assert any(h.value == "Track complete" for h in at.subheader)
    assert any("breaks a rule" in w.value for w in at.warning)
    assert not any("the track is built" in s.value for s in at.success)


def test_an_operator_tile_set_that_does_not_load_is_reported_not_a_crash(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    empty = tmp_path / "gone-tiles"
    empty.mkdir()
    monkeypatch.setenv("TRACKKIT_APP_TILESETS", str(empty))
    at = page("design")
    at.query_params["track"] = encode_track(
        Track("t", (Placement(1, 0, 0),), tileset=Path("gone-tiles"))
    )
    at.run()
    assert not at.exception
    assert any("tile set cannot be loaded" in e.value for e in at.error)


def test_a_link_error_reads_as_one_sentence() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(Track("s", (Placement(1, 0, 0),), tileset=Path("/x")))
    at.run()
    message = next(e.value for e in at.error if "could not be opened" in e.value)
    assert ".." not in message


def test_the_design_page_offers_its_picture() -> None:
    # ISSUE 7 item 19: the track as drawn, as SVG and PNG, from the page it is designed on
    at = page("design")
    at.run()
    labels = [d.proto.label for d in at.get("download_button")]
    assert "Download track (.toml)" in labels
    assert "Track picture (SVG)" not in labels  # an empty table has no picture
    at = page("design")
    at.query_params["track"] = encode_track(load_preset("forest-run"))
    at.run()
    labels = [d.proto.label for d in at.get("download_button")]
    assert {"Track picture (SVG)", "Track picture (PNG)"} <= set(labels)


def test_the_rotation_shows_the_turn_the_chosen_tile_goes_down_at() -> None:
    at = page("design")
    at.query_params["track"] = encode_track(Track("t", (Placement(1, 0, 0),)))
    at.run()
    at.radio(key="tile").set_value(7).run()  # after the start it fits turned 90° or 270°
    shown = at.radio(key="rotation").value
    assert shown in (90, 270)  # not 0°, at which it fits nowhere
    button(at, "Place next tile").click().run()
    assert at.session_state.design.track.placements[-1].rotation == shown
    # a turn the user chooses stands until the design or the tile changes
    at.radio(key="tile").set_value(4).run()
    at.radio(key="rotation").set_value(180).run()
    assert at.radio(key="rotation").value == 180


# the Yummell pages as st.navigation runs them, switched by the session's "showing"
SWITCHING = """
import streamlit as st
from trackkit.app.home_page import page_function
page_function(st.session_state.get("showing", "design"))()
"""


def test_one_player_count_holds_on_every_page_with_the_building_rule_on(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(tmp_path))
    at = AppTest.from_string(SWITCHING, default_timeout=TIMEOUT).run()
    assert at.checkbox(key="design-building-rule").value  # the rule on by default
    at.slider(key="players").set_value(3).run()
    button(at, "Place next tile").click().run()
    assert any("under the building rule for 3 players" in i.value for i in at.info)
    for name in ("race", "compare", "explore", "design"):
        at.session_state["showing"] = name
        at.run()
        assert not at.exception
        if name != "explore":  # Explore reads the count: its sweeps are of one count each
            assert at.slider(key="players").value == 3
    at.slider(key="players").set_value(4).run()
    at.session_state["showing"] = "race"
    at.run()
    assert at.slider(key="players").value == 4


def test_the_player_count_is_kept_in_the_address() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["players"] = "3"
    at.run()
    assert not at.exception
    assert at.session_state["kept:players"] == 3
    assert at.query_params["players"] == "3"


def test_race_and_compare_warn_of_a_track_illegal_for_the_player_count() -> None:
    swamps = load_preset("swamps-of-the-king")  # legal under the building rule for 3 only
    at = page("race")
    at.session_state.design = Design(swamps)
    at.run()
    at.slider(key="players").set_value(5).run()
    warning = " ".join(w.value for w in at.warning)
    assert "not legal under the building rule for 5 players" in warning
    assert "tile-count" not in warning and "path tile" in warning
    at.slider(key="players").set_value(3).run()
    assert not any("building rule" in w.value for w in at.warning)

    at = page("compare").run()
    at.multiselect(key="compare-tracks").set_value(["swamps-of-the-king", "king-of-toads"])
    at.slider(key="players").set_value(3).run()
    warning = " ".join(w.value for w in at.warning)
    assert "One of these tracks is not legal under the building rule for 3 players" in warning
    assert "In honor of the King of Toads" in warning
    assert "In the swamps of the King" not in warning


def test_the_table_outlines_the_tiles_a_problem_names() -> None:
    at = page("design")
    broken = Track("b", (Placement(1, 0, 0), Placement(7, 3, 3)))
    at.query_params["track"] = encode_track(broken)
    at.run()
    table = json.loads(at.get("plotly_chart")[0].proto.spec)
    outlined = [
        s["name"] for s in table["layout"]["shapes"] if s.get("name", "").startswith("problem")
    ]
    assert outlined == ["problem at placement 2"]
    assert any("outlined in red" in c.value for c in at.caption)
