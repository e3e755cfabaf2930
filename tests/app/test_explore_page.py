"""The Explore page, driven with Streamlit's AppTest: a sweep on disk becomes a map of
length against balance; filters narrow it; a picked track shows and opens in Design;
with no sweep, the page offers to run a small one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trackkit.explore.sweep import read_sweep, run_sweep
from trackkit.games import get_ruleset

TIMEOUT = 240


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sweeps")
    space = get_ruleset("yummell").track_space(3)
    run_sweep(space, root / "3p", races=30, sample=60, seed=2, exact=False, workers=1)
    return root


def page(root: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(root))
    return AppTest.from_string(
        "from trackkit.app import explore_page\nexplore_page.page()\n", default_timeout=TIMEOUT
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


def test_a_balance_filter_narrows_the_map(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    table = read_sweep(sweeps / "3p").table.to_pandas()
    least = float(table["balance"].median())
    at.slider(key="explore-balance").set_value(round(least, 2)).run()
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    kept = len(chart["data"][0]["x"])
    assert kept == int((table["balance"] >= round(least, 2)).sum()) and 0 < kept < 60


def test_a_picked_track_is_drawn_and_opens_in_design(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch)
    rank = read_sweep(sweeps / "3p").table.column("rank").to_pylist()[7]
    at.session_state["explore-rank"] = rank
    at.run()
    assert not at.exception
    assert any(f"track #{rank}" in h.value for h in at.subheader)
    assert len(at.get("plotly_chart")) == 2  # the map and the track
    space = get_ruleset("yummell").track_space(3)
    at.button(key="explore-open").click().run()
    assert at.session_state.design.track.placements == space.track(rank).placements


def test_without_a_sweep_the_page_offers_a_small_one(tmp_path, monkeypatch) -> None:
    at = page(tmp_path / "none", monkeypatch).run()
    assert not at.exception
    assert any("No sweep" in i.value for i in at.info)
    assert at.button(key="explore-run").label == "Run a small sweep"


@pytest.mark.slow  # a sweep in a child process: about 2.5 s
def test_the_small_sweep_runs_and_its_map_appears(tmp_path, monkeypatch) -> None:
    from trackkit.app import explore_page

    monkeypatch.setattr(explore_page, "SMALL_SWEEP", {"players": 3, "sample": 20, "races": 20})
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(tmp_path))
    at = AppTest.from_function(_explore, default_timeout=TIMEOUT).run()
    at.button(key="explore-run").click().run()
    assert not at.exception
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert len(chart["data"][0]["x"]) == 20


def _explore() -> None:
    from trackkit.app import explore_page

    explore_page.page()
