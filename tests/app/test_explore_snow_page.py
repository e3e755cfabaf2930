"""The Explore page of Snow Tails, driven with Streamlit's AppTest: a sweep of its design
space (a uniform sample of legal designs) becomes a map whose axes are chosen among the
sweep's figures and the designs' own numbers; a picked design is drawn by the game's scene
and opens in Snow Tails' Design page; another game's sweep is refused, saying why; and
with none of its own, the page runs a small sweep of Snow Tails designs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trackkit.app.explore_map import sweep_titles
from trackkit.app.small_sweep import small_sweep_folder
from trackkit.explore.profile import ProfileSettings, profile_options, profile_track
from trackkit.explore.sweep import Cluster, dask_client, read_manifest, read_sweep, run_sweep
from trackkit.games import get_ruleset
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.render import picture_figure

TIMEOUT = 240
SNOW, YUMMELL = "snow-5p", "yummell-3p"
SETTINGS = ProfileSettings(races=20, seed=1, exact=False)
SNOW_TITLE = "Mush! Mush! Snow Tails 2"


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two sweeps of 12 tracks each: 5-sled Snow Tails designs and 3-player
    Yummell tracks (listed in that order: each page must choose its own game's)."""
    root = tmp_path_factory.mktemp("sweeps")
    with dask_client(1, processes=False) as client:  # threads: no process to spawn
        for game, players, name in (("snowtails", 5, SNOW), ("yummell", 3, YUMMELL)):
            space = get_ruleset(game).track_space(players)
            run_sweep(space, root / name, SETTINGS, sample=12, cluster=Cluster(client=client))
    return root


def page(root: Path, monkeypatch: pytest.MonkeyPatch, name: str = "snow-explore") -> AppTest:
    """The page at address ``name`` on its own, the app's navigation registered (so that
    "Open in Design" can switch pages)."""
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(root))
    # AppTest leaves this script as ``__main__``: a process a later test spawns (a Dask
    # worker's) runs it again as ``__mp_main__``, outside Streamlit, where the navigation's
    # pages cannot be made
    return AppTest.from_string(
        "from trackkit.app.home_page import app_sections, page_function\n"
        "if __name__ != '__mp_main__':\n"
        f"    app_sections()\n    page_function({name!r})()\n",
        default_timeout=TIMEOUT,
    )


def _chart(at: AppTest, index: int = 0) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def _rows(root: Path):  # type: ignore[no-untyped-def]
    return read_sweep(root / SNOW).table.to_pandas().set_index("rank")


def test_the_snowtails_page_maps_its_own_sweep(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="snow-explore-sweep").value == SNOW
    rows = _rows(sweeps)
    dots = _chart(at)["data"][0]
    ranks = [r[0] for r in dots["customdata"]]
    assert sorted(ranks) == sorted(rows.index)
    assert dots["x"] == [rows.loc[r, "rounds_mean"] for r in ranks]  # the default axes
    assert dots["y"] == [rows.loc[r, "unfairness"] for r in ranks]
    assert len(dots["error_y"]["array"]) == 12  # every dot's interval
    # coloured by the designs' own number that varies most: their spaces
    assert dots["marker"]["color"] == [rows.loc[r, "design_spaces"] for r in ranks]
    captions = [c.value for c in at.caption]
    assert any(c.startswith("5 sleds, 12 tracks profiled with 20 races") for c in captions)
    assert any("the 4 preset tracks of Mush! Mush! Snow Tails 2" in c for c in captions)
    assert "12 of 12 tracks pass the filters" in captions
    assert len(at.dataframe[0].value) == 12  # the table of tracks


def _offered(at: AppTest, root: Path, key: str) -> list[str]:
    """The columns a selectbox of the map offers (shown by their titles)."""
    titles = sweep_titles("snowtails", read_sweep(root / SNOW).to_pandas())
    by_title = {title: column for column, title in titles.items()}
    return [by_title[option] for option in at.selectbox(key=key).options]


def test_the_axes_are_chosen_among_the_sweeps_figures_and_design_numbers(
    sweeps, monkeypatch
) -> None:
    at = page(sweeps, monkeypatch).run()
    offered = _offered(at, sweeps, "snow-explore-x")
    assert {"design_spaces", "design_trees", "collisions", "unfairness_start"} <= set(offered)
    # Yummell's figures are null in a Snow Tails sweep, and bookkeeping is no axis
    assert not {"lead_changes", "balance", "exact_rounds", "rank", "races"} & set(offered)
    assert not any(k.endswith(("_low", "_high")) for k in offered)
    at.selectbox(key="snow-explore-x").set_value("design_spaces")
    at.selectbox(key="snow-explore-y").set_value("collisions").run()
    assert not at.exception
    rows = _rows(sweeps)
    chart = _chart(at)
    dots = chart["data"][0]
    ranks = [r[0] for r in dots["customdata"]]
    assert dots["x"] == [rows.loc[r, "design_spaces"] for r in ranks]
    assert dots["y"] == [rows.loc[r, "collisions"] for r in ranks]
    assert "error_x" not in dots and "error_y" in dots  # a design's own number is exact
    assert chart["layout"]["xaxis"]["title"]["text"] == "Design spaces"
    assert chart["layout"]["yaxis"]["title"]["text"] == "Per race: Collision cards taken"
    assert list(at.dataframe[0].value.columns[:3]) == [  # the map's axes first
        "Track #",
        "Design spaces",
        "Per race: Collision cards taken",
    ]
    # the design being edited has no design numbers: not marked, and said so
    assert len(chart["data"]) == 1
    assert any(
        "Husky oval, is not on this map: its profile has no design spaces." in c.value
        for c in at.caption
    )


def test_a_picked_design_is_drawn_and_opens_in_snowtails_design(sweeps, monkeypatch) -> None:
    rows = _rows(sweeps)
    rank = int(rows.index[4])
    at = page(sweeps, monkeypatch)
    at.session_state["snow-explore-rank"] = rank
    at.session_state["kept:snow-players"] = 3  # the count chosen elsewhere: not the sweep's
    at.run()
    assert not at.exception
    key, plan = rows.loc[rank, "placements"], read_manifest(sweeps / SNOW)
    track = get_ruleset("snowtails").design_codec.track(key, rows.loc[rank, "name"], None)
    assert [h.value for h in at.subheader] == [track.name] == [f"Design {key}"]
    # drawn by the game's scene, as Snow Tails' pages draw a board
    assert len(_chart(at, 1)["data"]) == len(picture_figure(track).data)
    figures = at.dataframe[-1].value.set_index("Figure")
    spaces = figures.loc["Design spaces", "This sweep (20 races)"]
    assert spaces == f"{rows.loc[rank, 'design_spaces']:,.0f}"
    assert "Per race: Collision cards taken" in figures.index
    at.button(key="snow-explore-open").click().run()
    assert not at.exception
    assert at.session_state.snow_history.track == track
    assert at.session_state.snow_history.can_undo  # an edit Undo takes back
    # Design, Race and Compare go on at the sweep's 5 sleds
    assert at.session_state["snow-players"] == at.session_state["kept:snow-players"] == 5
    assert plan.players == 5


def test_a_picked_design_is_profiled_again_with_more_races(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch)
    at.session_state["snow-explore-rank"] = int(_rows(sweeps).index[2])
    at.run()
    again = at.button(key="snow-explore-again")
    assert again.label == "Profile again with 100 races"  # 5 × the sweep's 20
    again.click().run()
    assert not at.exception
    assert list(at.dataframe[-1].value.columns) == [
        "Figure",
        "This sweep (20 races)",
        "Again (100 races)",
    ]
    assert any("sleds" in m.value and "start slot" in m.value for m in at.markdown)


def test_the_design_being_edited_is_profiled_like_the_sweeps_tracks(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()  # the design: the first demo board, Husky oval
    assert not at.exception
    design = _chart(at)["data"][1]
    assert design["marker"]["symbol"] == "diamond" and "customdata" not in design
    ruleset = get_ruleset("snowtails")
    expected = profile_track(
        load_preset("husky-oval"), SETTINGS, options=profile_options(ruleset, 5)
    )
    assert design["x"] == [expected["rounds_mean"]] and design["y"] == [expected["unfairness"]]
    # a board does not say which design it is: not claimed to be outside the sweep
    said = [c.value for c in at.caption]
    assert any("Red diamond: your design, Husky oval, profiled like the sweep's" in c for c in said)
    assert not any("is not in this sweep" in c for c in said)


def test_a_yummell_sweep_on_the_snowtails_page_is_refused(sweeps, monkeypatch) -> None:
    at = page(sweeps, monkeypatch).run()
    at.selectbox(key="snow-explore-sweep").set_value(YUMMELL).run()
    assert not at.exception
    [refusal] = [e.value for e in at.error]
    assert f"({YUMMELL}) holds Yummell tracks; this page explores {SNOW_TITLE} tracks" in refusal
    assert "`trackkit sweep --game snowtails`" in refusal
    assert not at.get("plotly_chart")  # no map of another game's tracks


def test_with_only_another_games_sweep_a_small_one_of_its_own_is_offered(
    sweeps, tmp_path, monkeypatch
) -> None:
    shutil.copytree(sweeps / YUMMELL, tmp_path / YUMMELL)
    at = page(tmp_path, monkeypatch).run()
    assert not at.exception
    assert any("holds Yummell tracks" in e.value for e in at.error)
    assert at.expander[0].label == f"Run a small sweep of {SNOW_TITLE} tracks"
    assert at.button(key="snow-explore-run").label == "Run a small sweep"
    offer = next(m.value for m in at.markdown if m.value.startswith("A small sweep"))
    assert "70 of about " in offer and " legal 4-player tracks, drawn uniformly" in offer
    assert "the 4 preset tracks of Mush! Mush! Snow Tails 2" in offer


def test_the_yummell_page_maps_a_yummell_sweep_and_refuses_a_snowtails_one(
    sweeps, monkeypatch
) -> None:
    at = page(sweeps, monkeypatch, "explore").run()
    assert not at.exception
    assert at.selectbox(key="explore-sweep").value == YUMMELL  # listed after the other
    assert len(_chart(at)["data"][0]["x"]) == 12
    at.selectbox(key="explore-sweep").set_value(SNOW).run()
    [refusal] = [e.value for e in at.error]
    assert f"holds {SNOW_TITLE} tracks; this page explores Yummell tracks" in refusal


def test_each_games_small_sweep_has_a_folder_of_its_own(tmp_path) -> None:
    yummell = small_sweep_folder(tmp_path, "session", 4)
    snow = small_sweep_folder(tmp_path, "session", 4, "snowtails")
    assert yummell.parent == snow.parent == tmp_path and yummell != snow
    assert snow.name.startswith("snow-4p-sample70-")


@pytest.mark.slow  # a sweep in a child process: some seconds
def test_the_small_snowtails_sweep_runs_and_its_map_appears(tmp_path, monkeypatch) -> None:
    from trackkit.app import small_sweep

    monkeypatch.setattr(small_sweep, "SMALL_SWEEP", {"players": 3, "sample": 12, "races": 20})
    at = page(tmp_path, monkeypatch)
    at.session_state["kept:snow-players"] = 4  # the page's count, not the sweep's default
    at.run().button(key="snow-explore-run").click().run()
    assert not at.exception
    assert len(_chart(at)["data"][0]["x"]) == 12
    assert any(c.value.startswith("4 sleds, 12 tracks") for c in at.caption)
    [folder] = [p.parent for p in tmp_path.glob("*/sweep.json")]
    plan = read_manifest(folder)
    assert plan is not None and (plan.game, plan.players, plan.sample) == ("snowtails", 4, 12)
    assert folder.name.startswith("snow-4p-sample12-")
    space = get_ruleset("snowtails").track_space(4)
    for rank in read_sweep(folder).table.column("rank").to_pylist():  # legal designs only
        space.track(rank)
