"""The Race page, driven with Streamlit's AppTest (no browser)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from trackkit import limits
from trackkit.app.games.yummell import choices
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import Design, encode_track
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.warmup import Warmup

TIMEOUT = 900  # the first race of a run may wait minutes for the engine to compile

# The race page, or the tiles page when the session says so: switching pages as
# st.navigation does, so Streamlit forgets the widgets of the page not shown.
SCRIPT = """
import streamlit as st
from trackkit.app.home_page import page_function
page_function("tiles" if st.session_state.get("showing") == "tiles" else "race")()
"""


def race_page(track: Track | None = None) -> AppTest:
    at = AppTest.from_string(SCRIPT, default_timeout=TIMEOUT)
    if track is not None:  # the design, and the address that holds it
        at.session_state.design = Design(track)
        at.query_params["track"] = encode_track(track)
    return at


def run_small_race(at: AppTest, players: int = 3, seed: int = 0) -> AppTest:
    at.run()
    at.slider(key="players").set_value(players)
    at.number_input(key="race-races").set_value(500)
    at.number_input(key="race-seed").set_value(seed)
    at.run()
    next(b for b in at.button if b.label == "Run races").click().run()
    assert not at.exception
    return at


def charts(at: AppTest) -> list[dict[str, Any]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def test_the_design_being_edited_is_raced_by_default() -> None:
    mine = Track("My swamp run", load_preset("swamps-of-the-king").placements)
    at = race_page(mine).run()
    assert at.radio(key="race-source").value == "Current design"
    at = run_small_race(at)
    titles = [c["layout"].get("title", {}).get("text") for c in charts(at)]
    assert "My swamp run" in titles  # the heat map draws the design, not a preset


def test_without_a_finished_design_a_preset_is_raced_and_the_page_says_why() -> None:
    unfinished = Track("half", load_preset("first-run").placements[:2])
    at = race_page(unfinished).run()
    assert at.radio(key="race-source").value == "Preset"
    assert any("not a complete, valid track" in c.value for c in at.caption)
    assert at.selectbox(key="race-preset").value == "first-run"


def test_settings_survive_a_visit_to_another_page() -> None:
    at = race_page().run()
    at.radio(key="race-source").set_value("Preset").run()
    at.selectbox(key="race-preset").set_value("forest-run")
    at.slider(key="players").set_value(3)
    at.number_input(key="race-seed").set_value(42)
    at.selectbox(key="race-policy").set_value("smart")
    at.multiselect(key="race-characters").set_value(["The Troll"])
    at.run()
    at.session_state["showing"] = "tiles"
    at.run()
    assert "players" not in at.session_state  # Streamlit forgot the widget...
    at.session_state["showing"] = "race"
    at.run()
    assert not at.exception
    # ...and the page put every choice back
    assert at.selectbox(key="race-preset").value == "forest-run"
    assert at.slider(key="players").value == 3
    assert at.number_input(key="race-seed").value == 42
    assert at.selectbox(key="race-policy").value == "smart"
    assert at.multiselect(key="race-characters").value == ["The Troll"]


def test_fewer_players_keep_the_first_characters_chosen() -> None:
    at = race_page().run()
    at.multiselect(key="race-characters").set_value(["The Troll", "Character 4", "Character 5"])
    at.run()
    at.slider(key="players").set_value(2).run()
    assert not at.exception
    assert at.multiselect(key="race-characters").value == ["The Troll", "Character 4"]


def test_tables_show_percentages_with_their_intervals_under_plain_names() -> None:
    at = run_small_race(race_page())
    # the characters, the start paths, the advantages; then the per-race counts
    rates = [t.value for t in at.dataframe if "Win rate" in t.value.columns]
    per_race = [t.value for t in at.dataframe if "Mean per race" in t.value.columns]
    assert len(rates) == 3 and len(per_race) == 1 and len(at.dataframe) == 4
    assert "Lead changes (at the end of a round)" in set(per_race[0]["What"])
    for frame in rates:
        assert "Win rate" in frame.columns and "95% interval" in frame.columns
        assert not {"win_rate", "mean_placing", "name", "entries"} & set(frame.columns)
        rates = [v for v in frame["Win rate"] if v != "–"]
        assert rates and all(v.endswith("%") and 0 <= float(v[:-1]) <= 100 for v in rates)
        for rate, interval in zip(frame["Win rate"], frame["95% interval"], strict=True):
            if rate != "–":
                low, high = (float(v.rstrip("%")) for v in interval.split(" – "))
                assert low <= float(rate[:-1]) <= high


def test_the_verdict_opens_the_results_and_the_characters_face_an_average_track() -> None:
    at = run_small_race(race_page(), players=4, seed=2)
    paragraph = at.markdown[0].value
    assert paragraph.startswith("A race of 4 on First run lasts")
    assert "Unfairness " in paragraph and "points (95%: " in paragraph  # the headline
    assert "The character" in paragraph and "average track" in paragraph
    assert "more than noise" in paragraph or "cannot tell it from luck" in paragraph
    assert any("raced with these options and seed, 500 races each" in c.value for c in at.caption)
    # why the exact solo rounds below exceed the length above, in one sentence
    assert any(
        "the round in which its first racer finishes: its length is the shortest of 4 racers'"
        in c.value
        for c in at.caption
    )
    characters = at.dataframe[0].value
    assert list(characters.columns[:7]) == [
        "Character",
        "Races entered",
        "Win rate",
        "95% interval",
        "On an average track",
        "Difference (points)",
        "Difference, 95%",
    ]
    assert len(characters) == 8 and characters["Races entered"].sum() == 4 * 500
    paths = at.dataframe[1].value
    assert list(paths["Start path"]) == ["A", "B", "C"]
    assert paths["Racers started"].sum() == 4 * 500  # dealt: every path raced
    assert set(paths["Fair share"]) == {"25.0%"}
    assert all(float(r) > 0 for r in paths["Exact solo rounds"])


def test_the_start_paths_offered_are_the_engines_each_in_words() -> None:
    from trackkit.games.face import get_face
    from trackkit.games.yummell.core.options import START_PATHS

    (start_paths,) = (a for a in get_face("yummell").options if a.name == "start_paths")
    assert set(start_paths.offered) == set(START_PATHS)
    assert all(start_paths.say(p) != p for p in start_paths.offered)


def test_chosen_start_paths_leave_the_greedy_racers_on_the_cheapest() -> None:
    at = race_page().run()
    at.selectbox(key="race-start-paths").set_value("chosen")
    at = run_small_race(at, players=3, seed=4)
    paths = at.dataframe[1].value
    assert sorted(paths["Racers started"]) == [0, 0, 3 * 500]


def test_win_rate_charts_mark_the_fair_share_and_the_intervals() -> None:
    at = run_small_race(race_page(), players=4)
    win_charts = [c for c in charts(at) if "Win rate" in c["layout"]["title"]["text"]]
    assert len(win_charts) == 3  # by character, by start path, by place in the turn order
    for chart in win_charts:
        lines = [s for s in chart["layout"]["shapes"] if s["type"] == "line"]
        assert [line["x0"] for line in lines] == [0.25]
        assert "fair share" in chart["layout"]["annotations"][0]["text"]
        bars = chart["data"][0]
        assert len(bars["error_x"]["array"]) == len(bars["x"])
    assert win_charts[0]["data"][1]["name"] == "on an average track"


def test_the_heat_map_has_its_own_scale_with_units_and_no_terrain_legend() -> None:
    at = run_small_race(race_page())
    heat = next(c for c in charts(at) if any(t.get("name") == "heat" for t in c["data"]))
    bar = next(t for t in heat["data"] if t.get("name") == "heat")["marker"]
    assert bar["showscale"] and bar["colorbar"]["title"]["text"] == "turns ended here per race"
    names = [t.get("name", "") for t in heat["data"]]
    assert not any(name.startswith(("plain", "woods", "hills", "swamp")) for name in names)


def test_the_replay_moves_pawns_round_by_round() -> None:
    at = run_small_race(race_page(), players=3, seed=1)
    rounds = at.slider(key="race-round")
    last = rounds.max
    assert last > 2

    def pawns() -> dict[str, tuple[float, float]]:
        board = next(c for c in charts(at) if c["layout"]["title"]["text"].startswith("After"))
        return {
            t["name"]: (t["x"][0], t["y"][0])
            for t in board["data"]
            if t.get("legendgroup") == "pawns"
        }

    first = pawns()
    assert len(first) == 3
    at.slider(key="race-round").set_value(last).run()
    assert pawns() != first
    # the steps are told with square names a player reads
    told = [line for m in at.markdown for line in m.value.splitlines() if line.startswith("- ")]
    assert told and not any(":m1" in line or " 1:" in line for line in told)
    assert any("tile " in line and " square " in line for line in told)


class SlowWarmup(Warmup):
    """A warm-up that ends after two seconds of waiting, having taken 42 s."""

    def __init__(self, error: str | None = None) -> None:
        super().__init__(started=0.0)
        self.waits = 0
        self.failure = error

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        if self.waits >= 2:
            self.finished, self.error = 42.0, self.failure
            self._done.set()
        return self.done


def test_a_race_waits_for_the_compile_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    warmup = SlowWarmup()
    monkeypatch.setattr(choices, "start_warmup", lambda: warmup)
    at = run_small_race(race_page(), seed=11)
    assert warmup.waits == 2  # the page waited for the compile before racing
    assert any("compiled in 42 s" in c.value for c in at.caption)
    assert "Expected race length" in [m.label for m in at.metric]


def test_a_failed_compile_is_explained_and_the_race_still_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(choices, "start_warmup", lambda: SlowWarmup("no compiler"))
    at = run_small_race(race_page(), seed=12)
    assert any("no compiler" in w.value and "takes minutes" in w.value for w in at.warning)
    assert "Expected race length" in [m.label for m in at.metric]


def test_the_choice_follows_the_design_unless_the_person_chose() -> None:
    at = race_page().run()
    assert at.radio(key="race-source").value == "Preset"  # an empty table: nothing to race
    # the design is finished (on the Design page): the Race page now races it
    done = load_preset("horrgrups-path")
    at.session_state.design = Design(done)
    at.query_params["track"] = encode_track(done)
    at.run()
    assert at.radio(key="race-source").value == "Current design"
    # once the person picks a preset, it stays picked
    at.radio(key="race-source").set_value("Preset").run()
    at.run()
    assert at.radio(key="race-source").value == "Preset"


def test_figures_over_the_app_plot_limit_are_refused_and_the_page_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits.serve_app_limits(True)  # the conftest switches back after the test
    monkeypatch.setenv(limits.PLOT_POINTS.env, "40")
    at = run_small_race(race_page(), players=3, seed=1)
    refused = [w.value for w in at.warning]
    assert any(w.startswith("The heat map is not drawn:") for w in refused), refused
    assert any(w.startswith("The board is not drawn:") for w in refused), refused
    assert any("A sample race" in h.value for h in at.subheader)
    assert at.get("plotly_chart")  # the win-rate charts are still drawn


def test_the_start_paths_table_counts_racers_not_races() -> None:
    from trackkit.app.games.yummell.race import _table

    # 5,000 races of 4: several racers of a race may start on one path
    path = {"name": "A", "share": 0.34, "entries": 6_810, "win_rate": 0.3, "mean_placing": 2.4}
    line = _table([path], "Start path", share=True)[0]
    assert line["Racers started"] == 6_810 and "Races entered" not in line
    character = {**path, "name": "The Troll", "entries": 2_500}
    assert _table([character], "Character")[0]["Races entered"] == 2_500
