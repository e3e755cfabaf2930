"""The pages under the app's limits, driven with Streamlit's AppTest (no browser): the
Races input stops at what one run may cost, a run over it is refused in one line, a second
click while a run goes starts no other, a run over the server's cap waits its turn, and
each visitor's small sweep has a folder of its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trackkit import limits
from trackkit.app import runs
from trackkit.app.runs import HeavyRuns, Progress
from trackkit.explore.profile import MAX_PROFILE_RACES, reference_tracks
from trackkit.explore.sweep import read_sweep
from trackkit.games import get_ruleset
from trackkit.games.snowtails.core.editing import EditHistory
from trackkit.games.snowtails.core.presets import load_preset as snow_preset
from trackkit.games.yummell.core.course import race_board

TIMEOUT = 600
COST = limits.SIMULATION_COST
FIRST_RUN = 34  # squares of the first-run board (the Race page's preset without a design)


def average_squares(players: int) -> int:
    """Squares of the boards of the average track's tracks for ``players``."""
    tracks = reference_tracks(get_ruleset("yummell"), players)
    return sum(len(race_board(track).nodes) for track in tracks)


CHICANE = 182  # spaces of the chicane board
DEMO_SPACES = 911  # spaces of the four demo boards, the average track of a Snow Tails profile


@pytest.fixture
def app_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app's limits in force, as app.py sets them."""
    monkeypatch.delenv(COST.env, raising=False)
    limits.serve_app_limits(True)
    yield
    limits.serve_app_limits(False)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> HeavyRuns:
    """A registry of heavy runs of the test's own, one slot."""
    registry = HeavyRuns(slots=1)
    monkeypatch.setattr(runs, "heavy_runs", lambda: registry)
    return registry


def race_page() -> AppTest:
    return AppTest.from_string(
        "from trackkit.app.home_page import page_function\npage_function('race')()\n",
        default_timeout=TIMEOUT,
    )


def snow_race_page() -> AppTest:
    at = AppTest.from_string(
        "from trackkit.app.home_page import page_function\npage_function('snow-race')()\n",
        default_timeout=TIMEOUT,
    )
    at.session_state.snow_history = EditHistory.of(snow_preset("chicane"))
    return at


def run_button(at: AppTest) -> object:
    return next(b for b in at.button if b.label == "Run races")


def test_the_races_input_stops_at_what_one_run_and_its_reference_may_cost(
    app_limits, monkeypatch
) -> None:
    # the verdict races its average track too, as often as the track up to 2,000 times:
    # counted in
    five, eight = average_squares(5), average_squares(8)
    limit = 2_000 * 5 * five + 2_588 * 5 * FIRST_RUN
    monkeypatch.setenv(COST.env, str(limit))
    at = race_page().run()
    assert not at.exception
    races = at.number_input(key="race-races")
    # 5 players: 2,000 races of each of its tracks fit, and leave room for 2,588 here
    assert races.max == (limit - 2_000 * 5 * five) // (5 * FIRST_RUN) == 2_588
    races.set_value(2_588).run()
    at.slider(key="players").set_value(8).run()
    races = at.number_input(key="race-races")
    # 8 players: fewer than 2,000, the average track raced as often as the track
    most = limit // (8 * FIRST_RUN + 8 * eight)
    assert races.max == most < 2_000
    assert races.value == most  # the remembered 2,588 lowered to what 8 players allow
    assert not at.exception


def test_the_snow_races_input_stops_at_what_one_run_and_its_reference_may_cost(
    app_limits, monkeypatch
) -> None:
    # the verdict races the four demo boards too, as often as the track up to 2,000 times
    demo = DEMO_SPACES
    monkeypatch.setenv(COST.env, str(4_000 * 5 * CHICANE + 2_000 * 5 * demo))
    at = snow_race_page().run()
    assert not at.exception
    assert at.number_input(key="snow-race-races").max == 4_000  # 5 sleds
    assert at.number_input(key="snow-race-races").value == 4_000  # the default 5,000 lowered
    at.slider(key="snow-players").set_value(8).run()
    # 8 sleds: the demo boards raced as often as the track, fewer than 2,000 times
    most = (4_000 * 5 * CHICANE + 2_000 * 5 * demo) // (8 * CHICANE + 8 * demo)
    assert at.number_input(key="snow-race-races").max == most < 2_000
    assert not at.exception


def test_without_the_app_limits_the_input_offers_the_most_a_profile_races() -> None:
    at = snow_race_page().run()
    assert at.number_input(key="snow-race-races").max == MAX_PROFILE_RACES


def test_a_run_over_the_limit_is_refused_in_one_line(app_limits, monkeypatch, server) -> None:
    # so small a limit that even the least races the input offers are too many
    monkeypatch.setenv(COST.env, "1_000")
    at = snow_race_page().run()
    assert at.number_input(key="snow-race-races").max == runs.MIN_RACES
    run_button(at).click().run()
    assert not at.exception
    [error] = [e.value for e in at.error]
    assert error == (
        f"100 races of 5 players on Chicane would need {100 * 5 * CHICANE:,} race steps "
        "(races × players × squares or spaces of the board); the limit is 1,000: "
        "run fewer races or players, or race a smaller board"
    )
    assert not at.metric
    assert server.current(runs.session_id()) is None  # nothing was started


def _blocked_run(server: HeavyRuns, session: str, seconds: float) -> tuple[object, list[str]]:
    """A run of ``session`` that goes on for ``seconds``; the states that the other runs
    of the registry were in meanwhile are recorded."""
    release = threading.Event()
    seen: list[str] = []

    def work(progress: Progress) -> str:
        release.wait(30)
        return "blocked"

    def watch() -> None:
        end = threading.Event()
        for _ in range(int(seconds / 0.05)):
            seen.extend(r.state for s, r in server._runs.items() if s != session)
            end.wait(0.05)
        release.set()

    run = server.start(session, "the races", "races", "blocking", work)
    threading.Thread(target=watch, daemon=True).start()
    return run, seen


@pytest.mark.slow  # 1.7 s with the engines compiled (the quick loop's budget)
def test_a_second_click_while_a_run_goes_starts_no_other(monkeypatch, server) -> None:
    at = snow_race_page().run()
    at.number_input(key="snow-race-races").set_value(300).run()
    started: list[int] = []
    monkeypatch.setattr(runs, "simulate", lambda *a, **k: started.append(1))
    # this visitor's run is still going (a first click) when the button is pressed again
    first, _ = _blocked_run(server, "test session id", seconds=1.5)
    run_button(at).click().run()
    assert not at.exception
    assert any("A run of yours is still going" in i.value for i in at.info)
    assert first.result == "blocked"  # the page followed the first run to its end
    assert not started and not at.metric  # and raced nothing


@pytest.mark.slow  # 2.7 s with the engines compiled (the quick loop's budget)
def test_a_run_over_the_servers_cap_waits_for_its_turn(server) -> None:
    at = snow_race_page().run()
    at.number_input(key="snow-race-races").set_value(300).run()
    other, seen = _blocked_run(server, "another visitor", seconds=2.0)
    run_button(at).click().run()
    assert not at.exception
    assert "waiting" in seen  # this visitor's run waited while the other held the slot
    assert other.result == "blocked"
    assert [m.label for m in at.metric][0] == "Expected race length"  # then it ran


def _press_small_sweep(root: Path, visitor: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``visitor`` presses "Run a small sweep" (the offer itself: as when two visitors press
    it before either sweep has written its folder), and the sweep runs to its end."""
    from trackkit.app import small_sweep

    monkeypatch.setattr(small_sweep, "session_id", lambda: visitor)
    at = AppTest.from_string(
        "from pathlib import Path\n"
        "from trackkit.app import small_sweep\n"
        f"small_sweep.offer_small_sweep(Path({str(root)!r}))\n",
        default_timeout=TIMEOUT,
    ).run()
    at.button(key="explore-run").click().run()
    assert not at.exception


@pytest.mark.slow  # two small sweeps in child processes: about 5 s
def test_each_visitor_sweeps_into_a_folder_of_their_own(tmp_path, monkeypatch, server) -> None:
    from trackkit.app import small_sweep

    monkeypatch.setattr(small_sweep, "SMALL_SWEEP", {"players": 3, "sample": 20, "races": 20})
    _press_small_sweep(tmp_path, "visitor-a", monkeypatch)
    _press_small_sweep(tmp_path, "visitor-b", monkeypatch)
    folders = sorted(p for p in tmp_path.iterdir() if (p / "sweep.json").exists())
    assert len(folders) == 2  # one each, not one shared
    assert {f.name for f in folders} == {
        small_sweep.small_sweep_folder(tmp_path, v).name for v in ("visitor-a", "visitor-b")
    }
    assert not any("visitor" in f.name for f in folders)  # no session shown to others
    for folder in folders:
        assert read_sweep(folder).status.tracks_done == 20  # each whole, none resumed
