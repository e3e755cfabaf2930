"""The proof of the seam in the app: the toy game, registered only here, gets its section
in the navigation, its place on the start page and a working Race page, its own option
among the widgets, with no change to shared code (issue 22)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.games.toy import registered
from trackkit import limits

APP = str(Path(__file__).resolve().parents[3] / "app.py")
TIMEOUT = 120


@pytest.fixture(autouse=True)
def _toy() -> Iterator[None]:
    with registered():
        yield
    limits.serve_app_limits(False)  # app.py set the app's limits for this whole process


def _page(path: str) -> AppTest:
    # the script registers the toy itself: AppTest leaves it as ``__main__``, which a process
    # started later by spawning (a Dask worker) runs again, where nothing registered the toy
    return AppTest.from_string(
        "from tests.games.toy import register\nregister()\n"
        f"from trackkit.app.home_page import page_function\npage_function({path!r})()\n",
        default_timeout=TIMEOUT,
    )


def test_the_toy_has_its_section_and_its_place_on_the_start_page() -> None:
    from trackkit.app.home_page import game_entries

    assert [e.path for e in game_entries("toy")] == ["toy-race", "toy-compare", "toy-explore"]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception
    headings = [h.value for h in at.subheader]
    assert any(h.endswith("Toy lane") for h in headings), headings


def test_every_page_of_the_toy_runs_and_a_race_shows_its_figures() -> None:
    from trackkit.app.home_page import game_entries

    for entry in game_entries("toy"):
        assert not _page(entry.path).run().exception, entry.path
    at = _page("toy-race").run()
    assert at.title[0].value == "Race a Toy lane track"
    # its own option, empty: the content's die holds until one is typed
    sides = at.number_input(key="toy-race-die-sides")
    assert sides.value is None and (sides.min, sides.max) == (2, 20)
    at.number_input(key="toy-race-races").set_value(300)
    at.slider(key="toy-players").set_value(3)
    next(b for b in at.button if b.label == "Run races").click().run()
    assert not at.exception
    assert [m.label for m in at.metric] == ["Expected race length", "95% interval", "Races"]
    assert at.metric[2].value == "300"
    rounds = float(at.metric[0].value.split()[0])
    # its die changes the race: a two-sided die makes it longer
    at.number_input(key="toy-race-die-sides").set_value(2)
    next(b for b in at.button if b.label == "Run races").click().run()
    assert not at.exception and float(at.metric[0].value.split()[0]) > rounds
    assert any("A sample race" in h.value for h in at.subheader)  # told by the face


def test_the_toy_compare_page_ranks_its_presets_with_one_bar_each() -> None:
    at = _page("toy-compare").run()
    assert not at.exception
    assert at.title[0].value == "Compare Toy lane tracks"
    assert at.multiselect(key="toy-compare-tracks").value == ["puddle-dash", "bog-run"]
    at.number_input(key="toy-compare-races").set_value(300)
    next(b for b in at.button if b.label == "Compare").click().run()
    assert not at.exception
    table = at.dataframe[0].value
    assert sorted(table["name"]) == ["Bog run", "Puddle dash"]
    assert all(rounds > 0 for rounds in table["mean_rounds"])
    chart = at.get("plotly_chart")[0].proto.spec
    assert "Puddle dash" in chart and "Bog run" in chart


def test_two_games_on_one_address_are_refused_in_words() -> None:
    from trackkit.app import home_page
    from trackkit.errors import TrackkitError
    from trackkit.games.face import Look, get_face

    face = get_face("toy")
    face.look = Look(address="")  # type: ignore[attr-defined]  # Yummell's "race" too
    try:
        with pytest.raises(
            TrackkitError,
            match="two pages of the app have the address compare, explore, race: give",
        ):
            home_page.app_sections()
    finally:
        del face.look  # type: ignore[attr-defined]


def test_the_toys_sweep_is_mapped_on_its_explore_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The toy's design space (a module of its folder) on the shared Explore page: its
    sweep is chosen, mapped on its own figures and design numbers, and a picked lane is
    listed, though the toy cannot be drawn."""
    import json

    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.sweep import Cluster, dask_client, read_sweep, run_sweep, space_of

    root = tmp_path / "sweeps"
    with dask_client(1, processes=False) as client:  # the toy is registered in this process
        run_sweep(
            space_of("toy", 3),
            root / "toy-3p",
            ProfileSettings(races=40, seed=2, exact=False),
            sample=10,
            cluster=Cluster(client=client),
        )
    rows = read_sweep(root / "toy-3p").table.to_pandas().set_index("rank")
    monkeypatch.setenv("TRACKKIT_APP_SWEEPS", str(root))
    at = _page("toy-explore").run()
    assert not at.exception and not at.error
    dots = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    ranks = [r[0] for r in dots["customdata"]]
    assert sorted(ranks) == sorted(rows.index)
    assert dots["y"] == [rows.loc[r, "unfairness"] for r in ranks]
    at.session_state["toy-explore-rank"] = ranks[0]
    at.run()
    assert not at.exception
    assert any(f"Toy lane #{ranks[0]}" in h.value for h in at.subheader)
    assert any("cannot be drawn" in w.value for w in at.warning)  # the toy has no scene
    assert [b.key for b in at.button] == ["toy-explore-again"]  # no Design to open it in
