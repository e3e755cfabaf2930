"""The Race page in a real browser: streamlit run app.py, driven by Playwright in Debian's
Chromium. Screenshots go to the test's temporary folder."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from playwright.sync_api import Page, expect

from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import encode_track
from trackkit.games.yummell.core.presets import load_preset

MY_TRACK = Track("My forest loop", load_preset("forest-run").placements)


def _number(page: Page, label: str, value: int) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    expect(box).to_have_value(str(value))


def _slider(page: Page, name: str, value: int) -> None:
    slider = page.get_by_role("slider", name=name)
    slider.focus()
    now = int(slider.input_value())
    for _ in range(abs(value - now)):
        slider.press("ArrowLeft" if value < now else "ArrowRight")
    expect(slider).to_have_attribute("aria-valuetext", str(value))


def _settled(page: Page) -> None:
    """Wait until the page has rerun (Streamlit's running indicator is gone)."""
    page.wait_for_timeout(300)
    expect(page.locator("[data-testid='stStatusWidget']")).to_have_count(0, timeout=60_000)


def _screenshot(page: Page, path: Path) -> None:
    """The whole page: Streamlit scrolls inside the window, so make the window tall."""
    size = page.viewport_size
    page.set_viewport_size({"width": 1400, "height": 4200})
    page.wait_for_timeout(1_000)  # charts redraw at the new size
    page.screenshot(path=str(path))
    if size:
        page.set_viewport_size(size)


def _download(page: Page, button: str) -> tuple[str, bytes]:
    with page.expect_download() as waiting:
        page.get_by_role("button", name=button).click()
    download = waiting.value
    return download.suggested_filename, Path(download.path()).read_bytes()


def test_race_the_design_being_edited(page: Page, app_url: str, tmp_path: Path) -> None:
    page.goto(f"{app_url}/race?track={encode_track(MY_TRACK)}")
    page.get_by_role("heading", name="Race").wait_for()
    # the design in the link is what the page races, unasked
    expect(page.get_by_role("radio", name="Current design")).to_be_checked()
    _number(page, "Races", 500)
    _number(page, "Seed", 3)
    page.get_by_role("button", name="Run races").click()
    page.get_by_text("Expected race length").wait_for(timeout=900_000)
    page.get_by_text("A sample race").wait_for()
    # the charts draw after the page: wait for what they show
    page.get_by_text("fair share 1 ÷ 5 = 20.0%").first.wait_for()
    page.get_by_text("turns ended here per race").first.wait_for()
    _screenshot(page, tmp_path / "race.png")

    # the replay: the play button moves the pawns through every round to the last
    round_slider = page.get_by_role("slider", name="Round")
    last = round_slider.get_attribute("max")
    board_title = page.locator(".js-plotly-plot .gtitle").filter(has_text="After round")
    expect(board_title).to_have_text("After round 1")
    page.locator(".updatemenu-item-text", has_text="Play the race").click()
    expect(board_title).to_have_text(f"After round {last}", timeout=60_000)
    # the slider shows any round, and tells it
    round_slider.focus()
    round_slider.press("End")
    page.get_by_text(f"Round {last}", exact=True).wait_for()
    expect(page.get_by_text("tile 2 square").first).to_be_visible()
    _screenshot(page, tmp_path / "replay.png")

    # downloads carry the track and the seed, and say who sat where
    name, data = _download(page, "Download every race (CSV)")
    assert name == "my-forest-loop-seed-3-races.csv"
    rows = list(csv.DictReader(io.StringIO(data.decode())))
    assert len(rows) == 500 and "seat 5 character" in rows[0]
    name, data = _download(page, "Track picture (PNG)")
    assert name == "my-forest-loop.png" and data.startswith(b"\x89PNG")
    name, data = _download(page, "Track picture (SVG)")
    assert name == "my-forest-loop.svg" and b"FINISH" in data

    # another page and back: the settings and the results are still there
    page.get_by_role("link", name="Tiles", exact=True).click()
    page.get_by_role("heading", name="Tiles").first.wait_for()
    page.get_by_role("link", name="Race", exact=True).click()
    expect(page.get_by_label("Seed", exact=True)).to_have_value("3")
    expect(page.get_by_label("Races", exact=True)).to_have_value("500")
    page.get_by_text("Expected race length").wait_for()


def test_compare_the_design_with_chosen_presets(page: Page, app_url: str, tmp_path: Path) -> None:
    page.goto(f"{app_url}/compare?track={encode_track(MY_TRACK)}")
    page.get_by_role("heading", name="Compare tracks").wait_for()
    # keep two presets and the design: remove the other four from the choice
    for name in (
        "In the swamps of the King",
        "Horrgrup's path",
        "Forest run",
        "The race in the Forest of Goosh",
    ):
        page.get_by_role("button", name=f"Remove {name}").click()
        expect(page.get_by_role("button", name=f"Remove {name}")).to_have_count(0)
    _number(page, "Races per track", 500)
    page.get_by_role("button", name="Compare").click()
    page.get_by_text("Race length, longest first").wait_for(timeout=900_000)
    table = page.locator("[data-testid='stDataFrame']").first
    expect(table).to_contain_text("★ My forest loop (your design)")
    labels = page.locator(".js-plotly-plot .ytick text")
    expect(labels.filter(has_text="(your design)")).to_have_count(1)  # the chart names it too
    _screenshot(page, tmp_path / "compare.png")


def test_the_race_page_opens_with_the_verdict_and_the_characters_table(
    page: Page, app_url: str, tmp_path: Path
) -> None:
    page.goto(f"{app_url}/race?track={encode_track(MY_TRACK)}")
    page.get_by_role("heading", name="Race").wait_for()
    _slider(page, "Players", 4)
    _number(page, "Races", 400)
    _number(page, "Seed", 5)
    page.get_by_role("button", name="Run races").click()
    verdict = page.get_by_text(re.compile(r"^A race of 4 on My forest loop lasts"))
    verdict.wait_for(timeout=900_000)
    text = verdict.inner_text()
    assert "The character it moves most is" in text and "on an average track" in text
    assert re.search(r"Unfairness \d+\.\d points \(95%: \d+\.\d to \d+\.\d\)", text)
    assert re.search(r"start path [ABC] than from [ABC] \(exact\)", text)
    assert "more than noise" in text or "cannot tell it from luck" in text
    # its last sentence: how much more often a smart player wins, against an average track
    assert re.search(r"a smart player wins \d+ points more often than a greedy one", text)
    assert re.search(r"skill matters (more|as much|less) than on an average track", text)
    # the verdict opens the results: above the length and every chart
    length = page.get_by_text("Expected race length")
    assert verdict.bounding_box()["y"] < length.bounding_box()["y"]
    page.get_by_text("raced with these options and seed, 400 races each").wait_for()
    tables = page.locator("[data-testid='stDataFrame']")
    characters = tables.nth(0)
    for heading in ("Character", "On an average track", "Difference (points)", "Difference, 95%"):
        expect(characters).to_contain_text(heading)
    expect(characters).to_contain_text("Flamm, swamp dragon")
    expect(tables.nth(1)).to_contain_text("Exact solo rounds")  # the start paths, solved
    page.get_by_text("on an average track").first.wait_for()  # the chart's diamonds
    _screenshot(page, tmp_path / "verdict.png")


def test_compare_shows_every_tracks_unfairness_with_its_interval(
    page: Page, app_url: str, tmp_path: Path
) -> None:
    page.goto(f"{app_url}/compare?track={encode_track(MY_TRACK)}")
    page.get_by_role("heading", name="Compare tracks").wait_for()
    for name in ("In the swamps of the King", "Horrgrup's path", "The race in the Forest of Goosh"):
        page.get_by_role("button", name=f"Remove {name}").click()
        expect(page.get_by_role("button", name=f"Remove {name}")).to_have_count(0)
        _settled(page)  # the next click on the rerun page, not on the one going away
    expect(page.get_by_role("button", name=re.compile("^Remove "))).to_have_count(4)
    _number(page, "Races per track", 500)
    page.get_by_role("button", name="Compare").click()
    page.get_by_text("Unfairness (points from fair; 0: fair)").wait_for(timeout=900_000)
    table = page.locator("[data-testid='stDataFrame']").first
    expect(table).to_contain_text("Unfairness, 95%")
    expect(table).to_contain_text("From the start")  # its parts beside it (the grid shows the
    # columns in view; the most-moved character further right is the AppTest's to check)
    # the orderings said only beyond noise, ties grouped, above the table
    fairer = page.get_by_text(re.compile(r"^Fairer first \(told apart at 95%, Holm\)"))
    assert fairer.bounding_box()["y"] < table.bounding_box()["y"]
    page.get_by_text(re.compile(r"^Shorter first \(told apart at 95%, Holm\)")).wait_for()
    page.get_by_text(re.compile(r"^More skill-rewarding first \(told apart at 95%")).wait_for()
    # one unfairness bar per track, each with its interval
    bars = page.evaluate(
        """() => document.querySelector('.js-plotly-plot').data
            .filter(t => t.name === 'unfairness (95% interval)')
            .map(t => ({y: t.y, x: t.x, up: t.error_x.array, down: t.error_x.arrayminus}))"""
    )
    [unfair] = bars
    assert len(unfair["y"]) == 4 and any("(your design)" in name for name in unfair["y"])
    assert all(up >= 0 and down >= 0 for up, down in zip(unfair["up"], unfair["down"], strict=True))
    assert all(x >= 0 for x in unfair["x"])
    page.get_by_text("each of its tracks raced 500 times").wait_for()
    _screenshot(page, tmp_path / "compare-unfairness.png")


def test_an_uploaded_track_stays_chosen_across_pages(
    page: Page, app_url: str, tmp_path: Path
) -> None:
    upload = tmp_path / "loop.toml"
    upload.write_text(MY_TRACK.to_toml(), encoding="utf-8")
    page.goto(f"{app_url}/race")
    page.get_by_role("heading", name="Race").wait_for()
    page.get_by_text("Upload a track file").click()
    page.locator("input[type='file']").set_input_files(str(upload))
    page.get_by_role("button", name="Track picture (SVG)").wait_for()
    name, _ = _download(page, "Track picture (SVG)")
    assert name == "my-forest-loop.svg"  # the uploaded track is the one drawn
    page.get_by_role("link", name="Tiles", exact=True).click()
    page.get_by_role("heading", name="Tiles").first.wait_for()
    page.get_by_role("link", name="Race", exact=True).click()
    expect(page.get_by_role("radio", name="Upload a track file")).to_be_checked()
    page.get_by_text("Using My forest loop, uploaded earlier.").wait_for()


def test_a_race_waiting_for_the_compile_says_so(
    tmp_path: Path,
    streamlit_server: Callable[..., AbstractContextManager[str]],
    open_tab: Callable[[], Page],
) -> None:
    # an empty numba cache: the app's warm-up has the engine to compile, as on a new machine
    cold = {"NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    with streamlit_server(cold) as url:
        tab = open_tab()
        tab.goto(f"{url}/race")
        tab.get_by_role("heading", name="Race").wait_for()
        tab.get_by_role("button", name="Run races").click()
        note = tab.get_by_text("Compiling the race engine (once per machine):")
        note.wait_for()
        first = note.inner_text()
        expect(note).not_to_have_text(first, timeout=10_000)  # the seconds count up
        assert re.fullmatch(r"Compiling the race engine \(once per machine\): \d+ s…", first)
        tab.screenshot(path=str(tmp_path / "compiling.png"))
