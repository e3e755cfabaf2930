"""One visitor does not stall the others, in a real browser (issue 20, finding 5): while one
session races at the app's limits (Yummell's biggest preset with 8 players, a Snow Tails
board of 15,348 spaces) or runs the small sweep, the server answers its health check within
a second; Cancel stops a run.

The servers get a smaller simulation cost limit than the app's default, so that a run at
the limit takes about ten seconds here rather than twenty."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from trackkit.explore.profile import reference_tracks
from trackkit.games import get_ruleset
from trackkit.games.yummell.core.course import race_board
from trackkit.games.yummell.core.editing import encode_track
from trackkit.games.yummell.core.presets import load_preset

LIMIT = 100_000_000  # race steps per run on the test's servers (the app's default: 200 M)
SNOW_PRESET = Path(__file__).resolve().parents[2] / "trackkit/games/snowtails/tracks"
BOARD_SPACES = {50: 15_348, 20: 6_348}  # Long trail with so many more straights (measured)
KING_OF_TOADS_SQUARES = 65
DEMO_SPACES = 911  # spaces of the four demo boards, a Snow Tails verdict's average track
HEALTH_LIMIT = 1.0  # seconds the health check may take at most
Server = Callable[..., AbstractContextManager[str]]


def _big_board(folder: Path, straights: int) -> Path:
    """Long trail with ``straights`` more straights of 60 rows. With 50 (15,348 spaces) a
    race of 5 sleds takes about 5 ms, a batch of 250 races over a second of engine: before
    the engine released the interpreter lock, the health check took 4.4 s meanwhile and
    another visitor's page 6.7 s."""
    text = (SNOW_PRESET / "long-trail.toml").read_text("utf-8")
    head, tail = text.split('[[segments]]\nid = "ridge"')
    more = "".join(f'[[segments]]\nid = "more-{i}"\nrows = 60\n\n' for i in range(straights))
    path = folder / "big-board.toml"
    body = head + more + '[[segments]]\nid = "ridge"' + tail
    path.write_text(body.replace('name = "Long trail"', 'name = "Big board"'), "utf-8")
    return path


def _races_offered(page: Page, most: int) -> None:
    """Wait until the Races input offers at most ``most`` (the page has redrawn it for the
    board and the players), and only it is on the page."""
    page.locator(f"input[aria-label='Races'][max='{most}']").wait_for(timeout=120_000)
    expect(page.get_by_label("Races", exact=True)).to_have_count(1, timeout=60_000)


def _number(page: Page, label: str, value: int) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    expect(box).to_have_value(str(value))


def _slider_to(page: Page, name: str, value: int) -> None:
    slider = page.get_by_role("slider", name=name)
    slider.focus()
    slider.press("End")  # the most sleds or players
    expect(slider).to_have_attribute("aria-valuetext", str(value))


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory, streamlit_server: Any
) -> Iterator[tuple[str, Path]]:
    """One server for the module, with the test's limit and an empty sweeps folder."""
    sweeps = tmp_path_factory.mktemp("sweeps")
    env = {
        "TRACKKIT_APP_SIMULATION_COST": str(LIMIT),
        "TRACKKIT_APP_SWEEPS": str(sweeps),
        # an operator's raised board limit (the app's own is 5,000 spaces): a bigger board
        # makes each engine batch longer, the harder case for the other visitors
        "TRACKKIT_APP_BOARD_SPACES": str(2 * max(BOARD_SPACES.values())),
    }
    with streamlit_server(env) as url:
        yield url, sweeps


def _snow_big_board(page: Page, url: str, tmp_path: Path, straights: int) -> int:
    """The Snow Tails race page with a big board uploaded and 5 sleds; the most races the
    Races input offers, which it is set to."""
    page.goto(f"{url}/snow-race")
    page.get_by_text("Upload a track file").click()
    page.locator("input[type='file']").set_input_files(str(_big_board(tmp_path, straights)))
    most = _snow_most(5 * BOARD_SPACES[straights], 5 * DEMO_SPACES)
    _races_offered(page, most)
    _number(page, "Races", most)
    return most


def _snow_most(per_race: int, per_reference: int) -> int:
    """The races the Snow Tails page offers at the test's limit, its verdict's average track
    (the four demo boards) counted in: each board raced as often as the track up to 2,000
    times (``per_race``, ``per_reference``: what one race costs here and on all four)."""
    if 2_000 * (per_race + per_reference) <= LIMIT:
        return (LIMIT - 2_000 * per_reference) // per_race
    return LIMIT // (per_race + per_reference)


def test_the_server_answers_while_a_session_races_a_big_snow_board(
    served: tuple[str, Path], open_tab: Callable[[], Page], tmp_path: Path, health_watch: Any
) -> None:
    url, _ = served
    page = open_tab()
    most = _snow_big_board(page, url, tmp_path, 50)
    page.get_by_role("button", name="Run races").click()
    # from the first batch's end (the page's own work before the run is not the engine's)
    page.get_by_text(re.compile(rf"of {most:,} races")).wait_for(timeout=60_000)
    with health_watch(url) as latencies:
        page.get_by_text("Expected race length").wait_for(timeout=240_000)  # the run ended
    page.get_by_text("Where sleds collide").wait_for(timeout=240_000)
    page.screenshot(path=str(tmp_path / "raced.png"), full_page=True)
    assert len(latencies) >= 10, f"the run ended too soon to tell: {len(latencies)} checks"
    assert max(latencies) < HEALTH_LIMIT, f"health check took {max(latencies):.2f} s"


def test_the_server_answers_while_a_session_races_yummells_biggest_preset(
    served: tuple[str, Path], open_tab: Callable[[], Page], health_watch: Any
) -> None:
    url, _ = served
    page = open_tab()
    page.goto(f"{url}/race?track={encode_track(load_preset('king-of-toads'))}")
    _slider_to(page, "Players", 8)
    # the run and its verdict's average track (2,000 races of each of its tracks) within
    # the limit
    average = sum(len(race_board(t).nodes) for t in reference_tracks(get_ruleset("yummell"), 8))
    most = (LIMIT - 2_000 * 8 * average) // (8 * KING_OF_TOADS_SQUARES)
    _races_offered(page, most)
    _number(page, "Races", most)
    with health_watch(url) as latencies:
        page.get_by_role("button", name="Run races").click()
        page.get_by_text("Expected race length").wait_for(timeout=300_000)
    assert len(latencies) >= 10, f"the run ended too soon to tell: {len(latencies)} checks"
    assert max(latencies) < HEALTH_LIMIT, f"health check took {max(latencies):.2f} s"


def test_another_visitor_is_served_and_cancel_stops_a_run(
    served: tuple[str, Path], open_tab: Callable[[], Page], tmp_path: Path
) -> None:
    url, _ = served
    page = open_tab()
    most = _snow_big_board(page, url, tmp_path, 20)
    _number(page, "Seed", 7)  # not a run the server has kept already
    page.get_by_role("button", name="Run races").click()
    page.get_by_text(re.compile(rf"of {most:,} races")).wait_for(timeout=60_000)
    # another visitor's pages keep coming meanwhile (before the engine released the
    # interpreter lock, this board's races held the Start page back 6.9 s)
    other = open_tab()
    started = time.perf_counter()
    other.goto(url)
    other.get_by_role("heading", name="trackkit").first.wait_for(timeout=30_000)
    page_seconds = time.perf_counter() - started
    assert page_seconds < 5, f"another visitor's Start page took {page_seconds:.1f} s"
    started = time.perf_counter()
    page.get_by_role("button", name="Cancel").click()
    page.get_by_text("Cancelled: the races stopped before the end").wait_for(timeout=15_000)
    assert time.perf_counter() - started < 20
    expect(page.get_by_text("Where sleds collide")).to_have_count(0)
    # the session may race again at once: its run has ended
    _number(page, "Races", 200)
    page.get_by_role("button", name="Run races").click()
    page.get_by_text("Where sleds collide").wait_for(timeout=120_000)


def test_the_server_answers_while_a_session_runs_the_small_sweep(
    served: tuple[str, Path], open_tab: Callable[[], Page], tmp_path: Path, health_watch: Any
) -> None:
    url, sweeps = served
    page = open_tab()
    page.goto(f"{url}/explore")
    button = page.get_by_role("button", name="Run a small sweep")
    button.wait_for(timeout=120_000)  # the page is drawn: its first imports are done
    with health_watch(url) as latencies:
        button.click()
        page.get_by_text(re.compile(r"of 70 tracks")).wait_for(timeout=300_000)
        page.get_by_text(re.compile(r"tracks pass the filters")).wait_for(timeout=600_000)
    page.screenshot(path=str(tmp_path / "swept.png"), full_page=True)
    assert len(latencies) >= 10, f"the sweep ended too soon to tell: {len(latencies)} checks"
    assert max(latencies) < HEALTH_LIMIT, f"health check took {max(latencies):.2f} s"
    # the sweep went to a folder of this visitor's own
    [folder] = [p for p in sweeps.iterdir() if (p / "sweep.json").exists()]
    assert re.fullmatch(r"4p-sample70-[0-9a-f]{10}", folder.name)
