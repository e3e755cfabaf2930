"""The Snow Tails pages, driven with Streamlit's AppTest (no browser)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trackkit import limits
from trackkit.app.games.snowtails.design import counted
from trackkit.games.snowtails.core.editing import EditHistory
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.track import Address

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 240  # the first Snow Tails race on a machine compiles its engine


def page(name: str) -> AppTest:
    return AppTest.from_string(
        f"from trackkit.app.home_page import page_function\npage_function({name!r})()\n",
        default_timeout=TIMEOUT,
    )


def button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    return next(b for b in at.button if b.label == label)


def _use_tool(at: AppTest, tool: str, segment: str, lane: int, index: int) -> None:
    at.radio(key="snow-tool").set_value(tool)
    at.selectbox(key="snow-at-segment").set_value(segment)
    at.number_input(key="snow-at-lane").set_value(lane)
    at.number_input(key="snow-at-index").set_value(index)
    button(at, "Use the tool here").click().run()


def test_the_start_page_links_both_games() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception
    links = [e.proto.page for e in at.main.get("page_link")]
    assert links == [
        *("design", "race", "compare", "explore", "glossary"),
        *("snow-design", "snow-race", "snow-compare", "snow-explore", "snow-tune"),
    ]
    assert any("Snow Tails" in h.value for h in at.subheader)


@pytest.mark.slow  # 1.5 s with the engines compiled (the quick loop's budget)
def test_placing_a_tree_and_a_building_is_checked_and_undone() -> None:
    at = page("snow-design").run()
    assert not at.exception
    first = at.session_state.snow_history.track
    assert first == load_preset("husky-oval")
    assert any("obeys every track rule" in s.value for s in at.success)
    _use_tool(at, "tree", "back", 3, 6)
    track = at.session_state.snow_history.track
    assert len(track.trees) == len(first.trees) + 1 and ("back", 3, 6) in track.trees
    # a Chapel on the edge lane walls a space in: refused, explained, nothing changes
    _use_tool(at, "chapel", "back", 1, 3)
    assert at.session_state.snow_history.track == track
    assert any("building-on-edge-lane" in w.value for w in at.warning)
    # a legal Chapel is placed, and its guidelines warn on a beginner track
    _use_tool(at, "chapel", "back", 3, 3)
    placed = at.session_state.snow_history.track
    assert [b.kind for b in placed.buildings] == ["chapel"]
    assert any("beginner-buildings" in i.value for i in at.info)
    button(at, "Undo").click().run()
    button(at, "Undo").click().run()
    assert at.session_state.snow_history.track == first
    button(at, "Redo").click().run()
    assert at.session_state.snow_history.track == track


def test_a_snowtails_race_shows_length_slots_tallies_and_a_sample_race() -> None:
    at = page("snow-race")
    at.session_state.snow_history = EditHistory.of(load_preset("chicane"))
    at.run()
    assert not at.exception
    at.number_input(key="snow-race-races").set_value(300)
    at.slider(key="snow-players").set_value(3)
    button(at, "Run races").click().run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert labels == ["Expected race length", "95% interval", "Races"]
    assert float(at.metric[0].value.split()[0]) > 1
    (tallies,) = [t.value for t in at.dataframe if "What" in t.value.columns]
    assert {"Trees hit", "Decided in the last round (share of races)"} <= set(tallies["What"])
    assert any("A sample race" in h.value for h in at.subheader)
    replay = at.dataframe[-1].value  # spaces in words, not the engine's segment:lane:index
    assert all(", lane " in to and ":" not in to for to in replay["To"])


def test_a_snowtails_race_opens_with_its_verdict_and_the_start_slots_against_the_presets() -> None:
    at = page("snow-race")
    at.session_state.snow_history = EditHistory.of(load_preset("chicane"))
    at.run()
    at.number_input(key="snow-race-races").set_value(300)
    at.slider(key="snow-players").set_value(3)
    button(at, "Run races").click().run()
    assert not at.exception
    (said,) = [m.value for m in at.markdown if "against an average track" in m.value]
    assert "A race of 3 sleds on Chicane lasts" in said and "start slot" in said
    assert any("the 4 preset tracks of Mush! Mush! Snow Tails 2" in c.value for c in at.caption)
    (slots,) = [t.value for t in at.dataframe if "On an average track" in t.value.columns]
    assert list(slots["Start slot (race 1 turn order)"]) == ["1", "2", "3"]
    assert list(slots["Sleds started"]) == [300, 300, 300]  # one sled in each slot a race
    assert all(" to " in d for d in slots["Difference, 95%"])


def test_a_broken_design_is_not_raced() -> None:
    at = page("snow-race")
    broken = load_preset("husky-oval")
    off_track = Address("nowhere", 1, 1)
    at.session_state.snow_history = EditHistory.of(
        replace(broken, trees=(*broken.trees, off_track))
    )
    at.run()
    assert not at.exception
    assert any("breaks a rule" in w.value for w in at.warning)
    assert not [b for b in at.button if b.label == "Run races"]


@pytest.mark.slow  # five boards compared with their skill: about 1.2 s (the quick loop's budget)
def test_compare_ranks_the_demo_boards_and_the_design() -> None:
    at = page("snow-compare")
    # a design of its own (the first demo board as it stands is compared as itself)
    at.session_state.snow_history = EditHistory.of(replace(load_preset("husky-oval"), name="Mine"))
    at.run()
    assert not at.exception
    at.number_input(key="snow-compare-races").set_value(200)
    at.slider(key="snow-players").set_value(3)
    button(at, "Compare").click().run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["#"]) == [1, 2, 3, 4, 5]
    assert any("(yours)" in name for name in table["Track"])
    rounds = list(table["Rounds"])
    assert rounds == sorted(rounds, reverse=True)
    # the headline and the spread with their intervals, the estimate inside each
    for _, row in table.iterrows():
        low, high = (float(x) for x in row["Unfairness, 95%"].split(" – "))
        assert low <= row["Unfairness (points)"] <= high
        low, high = (float(x) for x in row["Spread, 95%"].split(" – "))
        assert low <= row["Start-slot spread (points)"] <= high
        low, high = (float(x) for x in row["Skill, 95%"].split(" – "))
        assert low <= row["Skill (points)"] <= high
    said = [m.value for m in at.markdown]
    assert any(line.startswith("Fairer first (told apart at 95%, Holm)") for line in said)
    assert any(line.startswith("More skill-rewarding first") for line in said)


def test_a_heat_map_over_the_app_plot_limit_is_refused_and_the_page_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits.serve_app_limits(True)  # the conftest switches back after the test
    monkeypatch.setenv(limits.PLOT_POINTS.env, "40")
    at = page("snow-race")
    at.session_state.snow_history = EditHistory.of(load_preset("chicane"))
    at.run()
    at.number_input(key="snow-race-races").set_value(200)
    button(at, "Run races").click().run()
    assert not at.exception
    assert any(w.value.startswith("The heat map is not drawn:") for w in at.warning)
    assert any("A sample race" in h.value for h in at.subheader)


def test_a_problem_names_the_tree_as_a_player_does_and_the_board_rings_its_space() -> None:
    at = page("snow-design")
    oval = load_preset("husky-oval")
    twice = replace(oval, trees=(*oval.trees, oval.trees[0]))  # two trees on one space
    at.session_state.snow_history = EditHistory.of(twice)
    at.run()
    assert not at.exception
    error = next(e.value for e in at.error if "two-trees-on-a-space" in e.value)
    last = len(twice.trees)
    assert f"Tree {last}:" in error and "already has tree 1;" in error
    assert "trees[" not in error
    board = json.loads(at.get("plotly_chart")[0].proto.spec)
    rings = [t for t in board["data"] if t.get("name") == "named by a problem"]
    assert [list(d) for d in rings[0]["customdata"]] == [list(oval.trees[0])]


def test_compare_draws_one_bar_per_track_even_when_two_share_a_name() -> None:
    from trackkit.app.compare_page import YOURS, length_figure
    from trackkit.games.snowtails.core.options import RaceOptions
    from trackkit.games.snowtails.face.texts import compare_tracks

    oval = load_preset("husky-oval")
    twin = dataclasses.replace(oval, name="Husky oval")  # a design left with the preset's name
    rows = compare_tracks(
        {"husky-oval": oval, YOURS: twin, "other": oval},
        RaceOptions(players=3),
        races=50,
        seed=1,
    )
    names, keys = [r.name for r in rows], [r.key for r in rows]
    bars = length_figure(names, keys, [r.mean_rounds for r in rows], [r.ci95 for r in rows])
    bars = bars.data[0].y
    assert len(set(bars)) == 3  # one bar each (Plotly stacks bars of one name into one)
    assert "Husky oval (yours)" in bars


def test_a_legal_track_against_a_guideline_is_not_said_to_obey_every_rule() -> None:
    at = page("snow-design").run()
    _use_tool(at, "chapel", "back", 3, 3)  # legal, against the beginner track's guideline
    assert not any("obeys every track rule" in s.value for s in at.success)
    assert any("breaks no track rule; 3 guidelines not followed:" in w.value for w in at.warning)
    assert counted(1, "guideline") == "1 guideline"
    assert any("beginner-buildings" in i.value for i in at.info)


def test_the_counts_of_trees_and_markers_are_in_good_english() -> None:
    at = page("snow-design").run()
    _use_tool(at, "marker", "back", 3, 6)
    said = next(m.value for m in at.markdown if m.value.startswith("**Husky oval**"))
    assert "5 trees, 1 marker;" in said


def test_remove_on_an_empty_space_says_there_is_nothing_to_remove() -> None:
    at = page("snow-design").run()
    before = at.session_state.snow_history
    _use_tool(at, "remove", "back", 3, 6)
    assert at.session_state.snow_history == before
    assert any("nothing there to remove" in w.value for w in at.warning)


def test_the_design_is_named_and_undo_takes_the_name_back() -> None:
    at = page("snow-design").run()
    at.text_input(key="snow-name-0").set_value("  My   oval ").run()
    assert at.session_state.snow_history.track.name == "My oval"
    assert any(m.value.startswith("**My oval**") for m in at.markdown)
    button(at, "Undo").click().run()
    assert at.session_state.snow_history.track.name == "Husky oval"


@pytest.mark.slow  # 1.6 s with the engines compiled (the quick loop's budget)
def test_a_reload_keeps_the_undo_history_of_this_browser_only(monkeypatch) -> None:
    from trackkit.app.games.snowtails import common

    monkeypatch.setattr(common, "_browser", lambda: "browser-a")
    at = page("snow-design").run()
    _use_tool(at, "tree", "back", 3, 6)
    _use_tool(at, "tree", "back", 3, 9)
    link = common._address(at.session_state.snow_history)

    def reloaded() -> AppTest:  # a new session, opened from the address
        again = page("snow-design")
        again.query_params["snow"] = link
        return again.run()

    again = reloaded()
    assert len(again.session_state.snow_history.track.trees) == 7
    button(again, "Undo").click().run()
    assert len(again.session_state.snow_history.track.trees) == 6
    monkeypatch.setattr(common, "_browser", lambda: "browser-b")  # the link, elsewhere
    other = reloaded()
    assert len(other.session_state.snow_history.track.trees) == 7
    assert not other.session_state.snow_history.can_undo  # nobody else's history


@pytest.mark.slow  # 1.1 s with the engines compiled (the quick loop's budget)
def test_snowtails_redo_works_after_the_browsers_back_and_forward(monkeypatch) -> None:
    from trackkit.app import common as app_common
    from trackkit.app.games.snowtails import common

    at = page("snow-design").run()
    _use_tool(at, "tree", "back", 3, 6)
    _use_tool(at, "tree", "back", 3, 9)
    tracks = at.session_state.snow_history.tracks
    monkeypatch.setattr(app_common, "history_navigation", lambda: True)
    for shown in (tracks[1], tracks[0], tracks[1]):  # Back, Back, Forward
        at.query_params["snow"] = common._address(EditHistory.of(shown)) or ""
        at.run()
        assert at.session_state.snow_history.track.to_toml() == shown.to_toml()
    monkeypatch.setattr(app_common, "history_navigation", lambda: False)
    button(at, "Redo").click().run()
    assert at.session_state.snow_history.track == tracks[2]  # the second tree again


def test_the_browser_is_told_by_its_token_whatever_mask_its_cookie_has() -> None:
    from trackkit.app.games.snowtails.common import _unmasked

    token = bytes.fromhex("f80aa4ba8d42813db28f5862f008c3b6")

    def cookie(mask: bytes) -> str:  # Tornado's XSRF cookie, written anew on a reload
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(token))
        return f"2|{mask.hex()}|{masked.hex()}|1795869826"

    assert _unmasked(cookie(b"\x41\x17\xd4\x31")) == _unmasked(cookie(b"\x0b\xbe\x0e\x2e"))
    assert _unmasked(cookie(b"\x41\x17\xd4\x31")) == token.hex()
    assert _unmasked("not a token") == "not a token"


def _wide_board() -> str:
    """The issue's board: 60 straights of 9 lanes (10 rows each), 5,400 spaces, over the
    app's 5,000."""
    lines = [
        'game = "snowtails"',
        'name = "Wide"',
        'start = { segment = "s0", row = 0 }',
        'finish = { segment = "s59", line = 5, runoff_rows = 3 }',
    ]
    for i in range(60):
        lines += ["[[segments]]", f'id = "s{i}"', "lanes = 9", "rows = 10"]
    return "\n".join(lines) + "\n"


OVER_THE_LIMIT = "would need 5,400 board spaces; the limit is 5,000: make the board smaller"


@pytest.mark.parametrize("name", ["snow-race", "snow-compare", "snow-design", "snow-tune"])
def test_a_board_over_the_apps_limit_from_a_link_is_refused_in_one_line_on_every_page(
    name: str,
) -> None:
    from trackkit.board.links import pack_link

    limits.serve_app_limits(True)  # the conftest switches back after the test
    at = page(name)
    at.query_params["snow"] = pack_link(_wide_board())
    at.run()
    assert not at.exception  # was the Race page's CostLimitError, Streamlit's exception box
    said = [e.value for e in at.error] + [c.value for c in at.caption]
    refusals = [text for text in said if OVER_THE_LIMIT in text]
    if name == "snow-tune":  # it tunes the content on the demo boards: no design to refuse
        return
    assert len(refusals) == 1 and "\n" not in refusals[0], said
    assert at.session_state.snow_history.track.name == "Wide"  # the design is kept
    if name == "snow-compare":
        assert "Your design is not among them: the board of link" in refusals[0]
        assert "Your design (Design page)" not in at.multiselect(key="snow-compare-tracks").options


def test_an_uploaded_board_over_the_apps_limit_is_refused_in_one_line(monkeypatch) -> None:
    from trackkit.app.games.snowtails import common
    from trackkit.games.base import parse_game_track_toml

    limits.serve_app_limits(True)
    wide = parse_game_track_toml(_wide_board(), source="wide.toml", game="snowtails")
    monkeypatch.setattr(common, "read_upload", lambda upload: wide)  # AppTest cannot upload
    at = page("snow-race").run()
    at.radio(key="snow-race-source").set_value(common.UPLOAD).run()
    assert not at.exception
    [refusal] = [e.value for e in at.error]
    assert refusal.startswith("Not raced: the board of wide.toml") and OVER_THE_LIMIT in refusal
    assert not [b for b in at.button if b.label == "Run races"]
