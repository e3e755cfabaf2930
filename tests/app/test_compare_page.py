"""The Compare page, driven with Streamlit's AppTest (no browser)."""

from __future__ import annotations

import json

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import trackkit.games.yummell.face.compare as compare
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import Design, encode_track
from trackkit.games.yummell.core.presets import load_preset

TIMEOUT = 900  # the first comparison may wait minutes for the engine to compile

SCRIPT = """
import streamlit as st
from trackkit.app.home_page import page_function
page_function("tiles" if st.session_state.get("showing") == "tiles" else "compare")()
"""


def compare_page(track: Track | None = None) -> AppTest:
    at = AppTest.from_string(SCRIPT, default_timeout=TIMEOUT)
    if track is not None:
        at.session_state.design = Design(track)
        at.query_params["track"] = encode_track(track)
    return at


def press_compare(at: AppTest) -> AppTest:
    next(b for b in at.button if b.label == "Compare").click().run()
    assert not at.exception
    return at


@pytest.mark.slow  # 1.6 s with the engines compiled (the quick loop's budget)
def test_the_user_chooses_the_tracks_and_the_design_is_highlighted() -> None:
    mine = Track("My loop", load_preset("forest-run").placements)
    at = compare_page(mine).run()
    tracks = at.multiselect(key="compare-tracks")
    assert "current design" in tracks.value  # a finished design is compared by default
    tracks.set_value(["first-run", "current design"])
    at.number_input(key="compare-races").set_value(500)
    at.run()
    press_compare(at)
    table = at.dataframe[0].value
    assert len(table) == 2
    assert any("My loop" in name and "your design" in name for name in table["Track"])
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    bars = chart["data"][0]
    colours = dict(zip(bars["y"], bars["marker"]["color"], strict=True))
    yours = next(name for name in colours if "My loop" in name)
    assert len(set(colours.values())) == 2
    assert colours[yours] != colours[next(n for n in colours if n != yours)]


def test_an_unfinished_design_is_not_offered_and_the_page_says_why() -> None:
    at = compare_page(Track("half", load_preset("first-run").placements[:2])).run()
    assert "current design" not in at.multiselect(key="compare-tracks").options
    assert any("not a complete, valid track" in c.value for c in at.caption)


def test_a_design_that_is_a_preset_as_it_stands_is_compared_once() -> None:
    at = compare_page(load_preset("first-run")).run()  # an exported copy, opened unchanged
    tracks = at.multiselect(key="compare-tracks")
    assert "current design" not in tracks.options and "current design" not in tracks.value
    assert tracks.value.count("first-run") == 1
    assert any("the preset First run as it stands" in c.value for c in at.caption)


@pytest.mark.slow  # two comparisons with their skill: about 2 s (the quick loop's budget)
def test_a_new_seed_does_not_solve_the_tracks_again(monkeypatch: pytest.MonkeyPatch) -> None:
    solved: list[str] = []
    exact_figures = compare.exact_figures

    def counted(ruleset, track, *rest):  # type: ignore[no-untyped-def]
        solved.append(track.name)
        return exact_figures(ruleset, track, *rest)

    monkeypatch.setattr(compare, "exact_figures", counted)
    st.cache_resource.clear()  # nothing solved by an earlier test
    at = compare_page().run()
    at.multiselect(key="compare-tracks").set_value(["first-run", "forest-run"])
    at.number_input(key="compare-races").set_value(500)
    at.number_input(key="compare-seed").set_value(101)
    at.run()
    first = press_compare(at).dataframe[0].value
    assert sorted(solved) == sorted(load_preset(s).name for s in ("first-run", "forest-run"))
    at.number_input(key="compare-seed").set_value(102).run()
    second = press_compare(at).dataframe[0].value
    assert len(solved) == 2  # the new seed raced again, but solved nothing again
    assert list(first["Exact solo (rounds)"]) == list(second["Exact solo (rounds)"])
    assert list(first["Simulated (rounds)"]) != list(second["Simulated (rounds)"])


def test_every_track_shows_its_unfairness_with_its_interval_beside_its_length() -> None:
    at = compare_page().run()
    at.multiselect(key="compare-tracks").set_value(["first-run", "king-of-toads", "forest-run"])
    at.slider(key="players").set_value(3)
    at.number_input(key="compare-races").set_value(500)
    at.run()
    table = press_compare(at).dataframe[0].value
    assert len(table) == 3
    for _, row in table.iterrows():
        low, high = (float(x) for x in row["Unfairness, 95%"].split(" – "))
        assert 0 <= low <= round(row["Unfairness"], 1) <= high
        assert row["Most-moved character"] and row["Its win rate, here minus average"]
        move = row["Its win rate, here minus average"].split()[0]
        low, high = (float(x) for x in row["Its move, 95%"].split(" to "))
        assert low <= float(move) <= high  # signed, inside its signed interval
        assert row["Start path spread (exact rounds)"] >= 0
        assert row["Character spread (exact rounds)"] > 0
        low, high = (float(x) for x in row["Skill, 95%"].split(" – "))
        assert low <= round(row["Skill (points)"], 1) <= high and low > 0  # smart pays here
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    length, exact, unfairness = chart["data"]
    assert length["type"] == unfairness["type"] == "bar"
    assert len(length["y"]) == len(unfairness["y"]) == 3  # one bar per track in each
    assert unfairness["x"] == list(table["Unfairness"])
    assert unfairness["error_x"]["array"] and unfairness["error_x"]["arrayminus"]
    assert length["error_x"]["array"] and exact["mode"] == "markers"
    assert any("each of its tracks raced 500 times" in c.value for c in at.caption)
    # orderings only beyond noise, ties grouped: one line for each figure
    said = [m.value for m in at.markdown]
    assert any(line.startswith("Fairer first (told apart at 95%, Holm)") for line in said)
    assert any(line.startswith("Shorter first (told apart at 95%, Holm)") for line in said)


def test_choices_survive_a_visit_to_another_page() -> None:
    at = compare_page().run()
    at.multiselect(key="compare-tracks").set_value(["king-of-toads"])
    at.slider(key="players").set_value(3)
    at.number_input(key="compare-seed").set_value(9)
    at.run()
    at.session_state["showing"] = "tiles"
    at.run()
    at.session_state["showing"] = "compare"
    at.run()
    assert at.multiselect(key="compare-tracks").value == ["king-of-toads"]
    assert at.slider(key="players").value == 3
    assert at.number_input(key="compare-seed").value == 9
