"""The Explore page, driven with Streamlit's AppTest: a sweep on disk becomes a map of
length against unfairness with every dot's intervals; filters narrow it; the design being
edited is marked (profiled like the sweep when the sweep lacks it); a picked track shows,
is profiled again with more races on request, and opens in Design; with no sweep, the page
offers to run a small one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trackkit import limits
from trackkit.app.explore_page import TITLES, design_row
from trackkit.app.fairness import figure_text
from trackkit.explore.profile import (
    PROFILE_RACES,
    ProfileSettings,
    profile_options,
    profile_track,
)
from trackkit.explore.sweep import Cluster, read_manifest, read_sweep, run_sweep
from trackkit.games import get_ruleset
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import Design
from trackkit.games.yummell.core.presets import load_preset

TIMEOUT = 240


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sweeps")
    space = get_ruleset("yummell").track_space(3)
    # the hand-made roster: its terrain abilities make tracks move characters' wins (the
    # calibrated one leaves every track's balance at 1 in so few races)
    run_sweep(
        space,
        root / "3p",
        ProfileSettings(races=30, seed=2, exact=False, content="hand-made"),
        sample=60,
        cluster=Cluster(workers=1),
    )
    return root


def page(root: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(root))
    return AppTest.from_string(
        "from trackkit.app.home_page import page_function\npage_function('explore')()\n",
        default_timeout=TIMEOUT,
    )


def test_the_map_shows_every_track_of_the_sweep(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    assert not at.exception
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    points = chart["data"][0]
    assert points["type"] == "scattergl" and len(points["x"]) == 60
    ranks = sorted(r[0] for r in points["customdata"])
    assert ranks == sorted(read_sweep(sweeps / "3p").table.column("rank").to_pylist())
    assert any("60 of 60 tracks" in c.value for c in at.caption)


def test_an_unfairness_filter_narrows_the_map(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    table = read_sweep(sweeps / "3p").table.to_pandas()
    most = round(float(table["unfairness"].median()), 1)
    at.slider(key="explore-unfairness").set_value(most).run()
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    kept = len(chart["data"][0]["x"])
    assert kept == int((table["unfairness"] <= most).sum()) and 0 < kept < 60
    # the fairest tracks' tie group, said
    assert any("fairest" in c.value for c in at.caption)


def test_a_picked_track_is_drawn_and_opens_in_design(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch)
    rank = read_sweep(sweeps / "3p").table.column("rank").to_pylist()[7]
    at.session_state["explore-rank"] = rank
    at.session_state["kept:players"] = 5  # the count chosen elsewhere: not this track's
    at.run()
    assert not at.exception
    assert any(f"track #{rank}" in h.value for h in at.subheader)
    assert len(at.get("plotly_chart")) == 2  # the map and the track
    space = get_ruleset("yummell").track_space(3)
    at.button(key="explore-open").click().run()
    assert at.session_state.design.track.placements == space.track(rank).placements
    # Design opens it at the count it is legal for, not at once illegal at 5
    assert at.session_state["players"] == at.session_state["kept:players"] == 3


def test_a_table_lists_the_tracks_the_filters_leave(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    table = read_sweep(sweeps / "3p").table.to_pandas()
    assert len(at.dataframe[0].value) == 60
    most = round(float(table["unfairness"].median()), 1)
    at.slider(key="explore-unfairness").set_value(most).run()
    shown = at.dataframe[0].value
    assert len(shown) == int((table["unfairness"] <= most).sum()) < 60
    assert sorted(shown["Track #"]) == sorted(table[table["unfairness"] <= most]["rank"])
    assert {TITLES["rounds_mean"], TITLES["unfairness"]} <= set(shown.columns)


def test_without_a_sweep_the_small_one_is_offered_at_the_pages_count(tmp_path, monkeypatch):
    at = page(tmp_path / "none", monkeypatch)
    at.session_state["kept:players"] = 5
    at.run()
    assert any("of the 210,240 legal 5-player tracks" in m.value for m in at.markdown)


def test_a_sweep_for_another_count_comes_with_a_small_one_for_this(sweeps, monkeypatch):
    at = page(sweeps, monkeypatch)
    at.session_state["kept:players"] = 4
    at.run()
    assert any("holds 3-player tracks" in w.value for w in at.warning)
    assert at.expander[0].label == "Run a small sweep of 4-player tracks"
    assert at.button(key="explore-run").label == "Run a small sweep"
    assert len(at.get("plotly_chart")) == 1  # the 3-player map still shown


def test_without_a_sweep_the_page_offers_a_small_one(tmp_path, monkeypatch) -> None:
    at = page(tmp_path / "none", monkeypatch).run()
    assert not at.exception
    assert any("No sweep" in i.value for i in at.info)
    assert at.button(key="explore-run").label == "Run a small sweep"


@pytest.mark.slow  # a sweep in a child process: about 2.5 s
def test_the_small_sweep_runs_and_its_map_appears(tmp_path, monkeypatch) -> None:
    from trackkit.app import small_sweep

    monkeypatch.setattr(small_sweep, "SMALL_SWEEP", {"players": 3, "sample": 20, "races": 20})
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(tmp_path))
    at = AppTest.from_function(_explore, default_timeout=TIMEOUT)
    at.session_state["kept:players"] = 4  # the page's count, not the sweep's default
    at.run().button(key="explore-run").click().run()
    assert not at.exception
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert len(chart["data"][0]["x"]) == 20
    assert any(c.value.startswith("4 players, 20 tracks") for c in at.caption)


def _explore() -> None:
    from trackkit.app import explore_page
    from trackkit.games.face import game_of

    explore_page.page(game_of())


def _chart(at: AppTest) -> dict:
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def test_every_dot_carries_its_intervals_as_bars(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    table = read_sweep(sweeps / "3p").table.to_pandas().set_index("rank")
    dots = _chart(at)["data"][0]
    ranks = [r[0] for r in dots["customdata"]]
    up, down = dots["error_y"]["array"], dots["error_y"]["arrayminus"]
    for rank, unfair, plus, minus in zip(ranks, dots["y"], up, down, strict=True):
        assert unfair + plus == pytest.approx(table.loc[rank, "unfairness_high"])
        assert unfair - minus == pytest.approx(table.loc[rank, "unfairness_low"])
    right, left = dots["error_x"]["array"], dots["error_x"]["arrayminus"]
    for rank, length, plus, minus in zip(ranks, dots["x"], right, left, strict=True):
        assert length + plus == pytest.approx(table.loc[rank, "rounds_mean_high"])
        assert length - minus == pytest.approx(table.loc[rank, "rounds_mean_low"])
    at.checkbox(key="explore-intervals").uncheck().run()
    assert "error_y" not in _chart(at)["data"][0]


def test_the_design_being_edited_is_marked_on_its_dot(sweeps, monkeypatch) -> None:
    rank = read_sweep(sweeps / "3p").table.column("rank").to_pylist()[5]
    mine = get_ruleset("yummell").track_space(3).track(rank)
    at = page(sweeps, monkeypatch)
    at.session_state.design = Design(Track("My pick", mine.placements))
    at.run()
    assert not at.exception
    dots, design = _chart(at)["data"]
    assert design["marker"]["symbol"] == "circle-open" and design["customdata"] == [[rank]]
    where = [r[0] for r in dots["customdata"]].index(rank)
    assert (design["x"], design["y"]) == ([dots["x"][where]], [dots["y"][where]])
    assert any(f"is track #{rank} of this sweep" in c.value for c in at.caption)


def test_a_design_the_sweep_lacks_is_profiled_like_its_tracks(sweeps, monkeypatch) -> None:
    swept = set(read_sweep(sweeps / "3p").table.column("rank").to_pylist())
    space = get_ruleset("yummell").track_space(3)
    rank = next(r for r in range(len(space)) if r not in swept)
    mine = Track("My own", space.track(rank).placements)
    at = page(sweeps, monkeypatch)
    at.session_state.design = Design(mine)
    at.run()
    assert not at.exception
    design = _chart(at)["data"][1]
    assert design["marker"]["symbol"] == "diamond" and "customdata" not in design
    options = profile_options(get_ruleset("yummell"), 3, "hand-made")
    expected = profile_track(mine, ProfileSettings(races=30, seed=2, exact=False), options=options)
    assert design["x"] == [expected["rounds_mean"]] and design["y"] == [expected["unfairness"]]
    assert design["error_y"]["array"] == [expected["unfairness_high"] - expected["unfairness"]]
    assert any("is not in this sweep; profiled like its tracks" in c.value for c in at.caption)


def test_a_picked_track_is_profiled_again_with_more_races(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch)
    rank = read_sweep(sweeps / "3p").table.column("rank").to_pylist()[3]
    at.session_state["explore-rank"] = rank
    at.run()
    again = at.button(key="explore-again")
    assert again.label == "Profile again with 150 races"  # 5 × the sweep's 30
    again.click().run()
    assert not at.exception
    table = at.dataframe[-1].value  # the picked track's figures, under the table
    assert list(table.columns) == ["Figure", "This sweep (30 races)", "Again (150 races)"]
    options = profile_options(get_ruleset("yummell"), 3, "hand-made")
    track = get_ruleset("yummell").track_space(3).track(rank)
    expected = profile_track(
        track, ProfileSettings(races=150, seed=2, exact=False), options=options
    )
    balance = table[table["Figure"] == TITLES["balance"]].iloc[0]
    assert balance["Again (150 races)"] == figure_text(expected.values, "balance")
    assert "(" in balance["This sweep (30 races)"]  # the sweep's, with its interval
    assert any("A race of 3 on" in m.value for m in at.markdown)  # the verdict in words


def test_the_small_sweep_and_its_average_track_fit_the_apps_sweep_limit() -> None:
    from trackkit.app.small_sweep import SMALL_SWEEP, small_sweep_races

    assert small_sweep_races() == (SMALL_SWEEP["sample"] + 30) * SMALL_SWEEP["races"]
    assert small_sweep_races() <= limits.SWEEP_RACES.app
    assert SMALL_SWEEP["races"] == PROFILE_RACES  # profiled as a sweep profiles by default


def test_a_design_matches_its_row_by_placements_and_tile_set(sweeps) -> None:
    frame = read_sweep(sweeps / "3p").to_pandas()
    plan = read_manifest(sweeps / "3p")
    rank = int(frame["rank"].iloc[2])
    track = get_ruleset("yummell").track_space(3).track(rank)
    assert design_row(frame, plan, Track("renamed", track.placements))["rank"] == rank
    elsewhere = Track("x", track.placements, tileset=Path("/some/other/tiles"))
    assert design_row(frame, plan, elsewhere) is None
    assert design_row(frame, plan, load_preset("king-of-toads")) is None


def test_the_small_sweep_goes_to_the_users_cache_not_the_project(tmp_path, monkeypatch) -> None:
    from trackkit.app.explore_page import sweeps_root, sweeps_roots
    from trackkit.app.small_sweep import small_sweep_folder

    monkeypatch.delenv("TRACKKIT_APP_SWEEPS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    root = sweeps_root()
    assert root.is_absolute() and (tmp_path / "cache") in root.parents
    assert small_sweep_folder(root, "session").parent == root
    assert sweeps_roots() == (Path("sweeps"), root)  # `trackkit sweep --out sweeps/…` found too
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(tmp_path / "named"))
    assert sweeps_roots() == (tmp_path / "named",) == (sweeps_root(),)


def test_sweeps_of_one_name_in_two_places_are_both_offered(sweeps, tmp_path) -> None:
    from trackkit.app.explore_page import named_sweeps

    (tmp_path / "3p").mkdir()
    (tmp_path / "3p" / "sweep.json").write_text((sweeps / "3p" / "sweep.json").read_text())
    found = named_sweeps((sweeps, tmp_path))
    assert found == {"3p": sweeps / "3p", "3p (2)": tmp_path / "3p"}
