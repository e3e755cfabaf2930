"""The Tune page, driven with Streamlit's AppTest (no browser): it opens for Yummell (and
not for a game whose races take no content), a small tune runs and shows what it found
with its downloads, "Go on" resumes it, and a bad move or a cost over the app's limit is
refused in one line before anything runs."""

from __future__ import annotations

import json
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trackkit import limits
from trackkit.app import runs, tune_page, tune_results
from trackkit.app.home_page import game_entries
from trackkit.errors import TuneFileError
from trackkit.games import get_ruleset

TIMEOUT = 600  # the first tune may wait for the race engine to compile
SCRIPT = "from trackkit.app.home_page import page_function\npage_function('tune')()\n"
# the page named in the session (as the app's navigation does): one session, both games
EITHER = (
    "import streamlit as st\nfrom trackkit.app.home_page import page_function\n"
    "page_function(st.session_state.get('page', 'tune'))()\n"
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's cache, where the page writes: a folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    return next(b for b in at.button if b.label == label)


def small_tune(low: int = 1, high: int = 8, script: str = SCRIPT) -> AppTest:
    """The page with one move (Character 6's magic, ``low`` to ``high``) on 1 track at 2
    player counts, 200 races, a budget of 2 and a tolerance of 15 points, from the
    hand-made content (Character 5 wins about 22 points over its fair share on First run,
    which Character 6's magic cannot change: never met, so the search runs its budget)."""
    at = AppTest.from_string(script, default_timeout=TIMEOUT).run()
    at.selectbox(key="tune-content").set_value("hand-made").run()
    assert at.selectbox(key="tune-move-file").value == ("characters.toml", "characters")
    at.multiselect(key="tune-move-entries").set_value(["Character 6"]).run()
    at.multiselect(key="tune-move-fields").set_value(["magic"]).run()
    bounds = "tune-move-characters.toml-characters-magic"
    at.number_input(key=f"{bounds}-low").set_value(low)
    at.number_input(key=f"{bounds}-high").set_value(high)
    at.run()
    button(at, "Add").click().run()
    at.multiselect(key="tune-tracks").set_value(["first-run"])
    at.multiselect(key="tune-players").set_value([2, 3])
    at.number_input(key="tune-races").set_value(200)
    at.number_input(key="tune-budget").set_value(2)
    at.slider(key="tune-tolerance").set_value(15)
    return at.run()


def test_the_page_opens_for_every_game_whose_content_can_be_tuned(cache: Path) -> None:
    at = AppTest.from_string(SCRIPT, default_timeout=TIMEOUT).run()
    assert not at.exception
    assert at.title[0].value == "Tune the content"
    assert at.selectbox(key="tune-content").options == list(get_ruleset("yummell").contents())
    assert any("add one below" in i.value for i in at.info)
    assert button(at, "Tune").disabled  # nothing may move yet
    paths = [e.path for e in game_entries("yummell")]
    assert paths.index("explore") + 1 == paths.index("tune") < paths.index("tiles")
    assert "snow-tune" in [e.path for e in game_entries("snowtails")]


def test_snow_tails_deck_counts_are_offered_by_their_value(cache: Path) -> None:
    at = AppTest.from_string(SCRIPT.replace("'tune'", "'snow-tune'"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    entries = at.multiselect(key="snow-tune-move-entries")
    assert entries.label == "Entries (by value)" and entries.options == [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    assert at.multiselect(key="snow-tune-move-fields").options == ["count"]


def test_the_form_becomes_the_tune_file(cache: Path) -> None:
    at = small_tune()
    at.radio(key="tune-scope").set_value("players")
    at.number_input(key="tune-length").set_value(5.0)
    at.multiselect(key="tune-labels").set_value(["Character 6"])
    text = at.run().code[0].value
    assert not at.error
    for line in ('scope = "players"', "length_change = 0.05", 'labels = ["Character 6"]'):
        assert line in text
    assert 'entries = ["Character 6"]' in text and 'fields = ["magic"]' in text
    assert "low = 1" in text and "high = 8" in text
    button(at, "Remove").click().run()
    assert any("add one below" in i.value for i in at.info) and not at.code
    assert button(at, "Tune").disabled


@pytest.mark.slow  # 0.9 s with the engines compiled (the quick loop's budget)
def test_a_small_tune_runs_and_shows_what_it_found(cache: Path) -> None:
    at = small_tune()
    assert not at.exception and not at.error
    text = at.code[0].value
    assert 'tracks = ["first-run"]' in text and "win_share = 0.15" in text
    assert any("20,800 races in all" in c.value for c in at.caption)
    button(at, "Tune").click().run()
    assert not at.exception and not at.error
    said = [s.value for s in (*at.success, *at.info, *at.warning) if "confirmation" in s.value]
    assert len(said) == 1 and "in the confirmation: 2,000 races" in said[0]
    assert "seed 1" in said[0] and "starting from hand-made" in said[0]
    assert any("2 candidates raced" in m.value for m in at.markdown)
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    before, after = chart["data"]
    assert before["name"] == "before" and after["name"] == "after"
    assert len(before["x"]) == 8 and before["error_y"]["array"]  # one pair per character
    assert len(at.dataframe[-1].value) == 2  # the lengths: first-run at 2 and 3 players
    (verdicts,) = [d.value for d in at.dataframe if "verdict" in d.value.columns]
    assert verdicts["verdict"].iloc[0].split(" (")[0] in ("met", "not sure", "missed")
    downloads = {d.label: d for d in at.get("download_button")}
    assert {"The tuned content (.zip)", "The report", "The report for programs"} <= set(downloads)
    (out,) = (cache / "trackkit" / "tunes").glob("*/*/report.json")
    report = json.loads(out.read_text())
    assert report["evaluated"] == 2 and report["mark"] == "the trackkit app's Tune page (seed 0)"
    with zipfile.ZipFile(BytesIO(tune_results.content_zip(out.parent / "content"))) as z:
        assert "content/characters.toml" in z.namelist()
    shown = tune_results.private((out.parent / "report.md").read_text(), out.parent, report)
    assert str(cache) not in shown  # no path of the server reaches the visitor


@pytest.mark.slow  # 0.9 s with the engines compiled (the quick loop's budget)
def test_go_on_races_more_candidates_of_the_same_tune(cache: Path) -> None:
    at = small_tune(low=1, high=8)
    at.slider(key="tune-tolerance").set_value(1).run()  # ±1 point: not met in 2 candidates
    assert any("cannot be told from luck" in e.value for e in at.error)
    at.slider(key="tune-tolerance").set_value(15).run()
    button(at, "Tune").click().run()
    (out,) = (cache / "trackkit" / "tunes").glob("*/*/report.json")
    assert not json.loads(out.read_text())["met"]  # so there is something to go on with
    at.number_input(key="tune-go-on-budget").set_value(3).run()
    button(at, "Go on").click().run()
    assert not at.exception and not at.error
    assert json.loads(out.read_text())["evaluated"] == 3  # the same folder, resumed
    assert any("3 candidates raced" in m.value for m in at.markdown)


def test_a_bad_move_is_refused_in_one_line_and_nothing_runs(cache: Path) -> None:
    at = small_tune(low=6, high=8)  # Character 6's magic is below 6: the start is outside
    assert not at.exception
    (error,) = at.error
    assert "outside low 6" in error.value and "widen the bounds" in error.value
    assert "\n" not in error.value
    assert button(at, "Tune").disabled
    assert not (cache / "trackkit" / "tunes").exists() or not any(
        (cache / "trackkit" / "tunes").rglob("report.json")
    )


def test_a_tune_over_the_apps_limit_is_refused_before_it_runs(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits.serve_app_limits()  # as app.py does (the fixture in conftest switches it back)
    monkeypatch.setenv("TRACKKIT_APP_MAX_TUNE_RACES", "5000")
    at = small_tune()
    (error,) = at.error
    assert "this tune would need 46,700 races in all (20,800 races, and 25,900 for" in error.value
    assert button(at, "Tune").disabled


def test_a_tune_file_of_the_page_names_no_file_of_the_server(tmp_path: Path) -> None:
    folder = get_ruleset("yummell").content_folder()
    text = tune_page.tune_toml(
        "yummell",
        {"tracks": ["../../secret.toml"], "players": [2]},
        {"win_share": 0.15},
        {"budget": 1},
        [{"file": "characters.toml", "fields": ["magic"], "low": 1, "high": 8}],
    )
    with pytest.raises(TuneFileError, match="is no preset; the app races its presets"):
        tune_page.plan_for("yummell", text, folder)
    with pytest.raises(TuneFileError, match="this tune file is for Yummell"):
        tune_page.plan_for("snowtails", text.replace("../../secret.toml", "first-run"), folder)


def test_uploaded_content_files_join_the_bundled_ones_in_a_folder_of_their_own(
    tmp_path: Path,
) -> None:
    bundled = get_ruleset("yummell").content_folder()
    characters = (bundled / "characters.toml").read_bytes().replace(b"magic = 4", b"magic = 5")
    folder = tune_page.start_folder(tmp_path, bundled, {"characters.toml": characters})
    assert folder.parent == tmp_path and folder.name.startswith("start-")
    assert (folder / "characters.toml").read_bytes() == characters
    assert (folder / "deck.toml").read_text() == (bundled / "deck.toml").read_text()
    again = tune_page.start_folder(tmp_path, bundled, {"characters.toml": characters})
    assert again == folder  # the same files: the same folder (a tune from it resumes)
    get_ruleset("yummell").load_content(folder)


def test_cancel_stops_the_search_and_shows_what_was_raced(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cancelled_after_one(run: runs.Run, done: int, total: int) -> None:
        if done >= 1:  # as if Cancel was pressed once the first candidate was raced
            raise runs.Cancelled
        run.done, run.total = done, total

    monkeypatch.setattr(runs.Run, "progress", cancelled_after_one)
    at = small_tune()
    at.number_input(key="tune-budget").set_value(3).run()
    button(at, "Tune").click().run()
    assert not at.exception and not at.error
    assert any(
        "1 candidate raced; stopped because it was cancelled" in m.value for m in at.markdown
    )
    assert at.number_input(key="tune-go-on-budget").value == 2  # go on from there


def test_each_games_tune_page_shows_its_own_games_tunes_only(cache: Path) -> None:
    at = small_tune(script=EITHER)
    at.multiselect(key="tune-labels").set_value(["Character 5"]).run()
    button(at, "Tune").click().run()
    assert not at.exception and not at.error
    found = [h.value for h in at.header]
    assert "What the tune found" in found  # the Yummell tune, on the Yummell page
    # the seven characters no target names, before and after
    (others,) = [d.value for d in at.dataframe if "held" in d.value.columns]
    assert len(others) == 7 and "Character 5" not in set(others["label"])
    at.session_state["page"] = "snow-tune"
    at.run()
    assert not at.exception and at.title[0].value == "Tune the content"
    assert "What the tune found" not in [h.value for h in at.header]
    assert not at.get("plotly_chart")  # no Yummell characters on the Snow Tails page
    at.session_state["page"] = "tune"
    at.run()
    assert "What the tune found" in [h.value for h in at.header]  # still there
