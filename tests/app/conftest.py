"""What the browser tests share: ``streamlit run app.py`` on a free port, and a page of
Debian's Chromium driven by Playwright (screenshots go to the test's temporary folder)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from trackkit import limits

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
Server = Callable[..., AbstractContextManager[str]]
# the first chart is on the page and drawn (Streamlit may swap its element while redrawing)
PLOT_DRAWN = """() => {
    const gd = document.querySelector('.js-plotly-plot');
    return !!(gd && gd._fullLayout && gd._fullLayout.xaxis && gd.data);
}"""
# where a point of the first chart's data lies on the page, in pixels
TO_PIXELS = """([x, y]) => {
    const gd = document.querySelector('.js-plotly-plot');
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    const box = gd.getBoundingClientRect();
    return [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(y)];
}"""


# scroll the first chart's scrolling ancestor so that window row ``y`` comes to its middle
CENTRE_ROW = """(y) => {
    const chart = document.querySelector('.js-plotly-plot');
    let box = chart && chart.parentElement;
    const scrolls = (e) => e.scrollHeight > e.clientHeight
        && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY);
    while (box && !scrolls(box)) box = box.parentElement;
    (box || document.scrollingElement).scrollBy(0, y - window.innerHeight / 2);
}"""
# whether the first chart (not a control a rerun moved there) is under the window point
CHART_UNDER = """([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!(hit && hit.closest('.js-plotly-plot') === document.querySelector('.js-plotly-plot'));
}"""


def to_pixels(page: Page, point: Sequence[float]) -> tuple[float, float]:
    """Where ``point`` of the first chart's data lies on the page, once the chart is drawn."""
    page.wait_for_function(PLOT_DRAWN)
    x, y = page.evaluate(TO_PIXELS, list(point))
    return float(x), float(y)


def settle(page: Page, quiet_ms: int = 1500) -> None:
    """Wait until the app has finished running: its "Running…" indicator gone and staying
    gone for ``quiet_ms`` (on a loaded machine a run can start well after the click that
    asked for it, so one look after a fixed pause can fall before it)."""
    status = page.locator("[data-testid='stStatusWidget']")
    quiet = 0
    while quiet < quiet_ms:
        expect(status).to_have_count(0, timeout=240_000)
        page.wait_for_timeout(100)
        quiet = quiet + 100 if status.count() == 0 else 0


def press(page: Page, name: str) -> None:
    """Click a button once the app has finished running (no stale copy of it on screen)."""
    settle(page)
    button = page.get_by_role("button", name=name, exact=True)
    expect(button).to_have_count(1)  # a rerun briefly shows the old and the new copy
    button.click()


def click_chart(page: Page, point: Sequence[float], attempts: int = 5) -> None:
    """Click the first chart at data ``point``, brought to the middle of the window.

    A click by position lands on whatever is there: a rerun that moves the chart between
    finding the point and clicking it would tick a checkbox or move a slider instead (it
    did). So click only once the point has stayed put and the chart is under it.
    """
    for _ in range(attempts):
        page.evaluate(CENTRE_ROW, to_pixels(page, point)[1])
        page.wait_for_timeout(200)
        x, y = to_pixels(page, point)
        page.wait_for_timeout(200)
        if (x, y) == to_pixels(page, point) and page.evaluate(CHART_UNDER, [x, y]):
            page.mouse.click(x, y)
            return
    raise AssertionError(f"the chart's point {tuple(point)} never stayed put under the pointer")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _streamlit(env: dict[str, str] | None = None) -> Iterator[str]:
    """``streamlit run app.py`` from the project folder, so that its
    ``.streamlit/config.toml`` applies as for a user; in a process group of its own so
    that stopping it also stops the engine warm-up it starts."""
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "app.py"),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("streamlit did not start")
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


# Polls a server's health endpoint from a process of its own (a thread of the test's
# process would share its interpreter lock with Playwright, and time the test as well as
# the server): one line per answer, the seconds it took (30 for none), every 0.1 s.
HEALTH_POLLER = """
import sys, time, urllib.request
for _ in range(6_000):
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(sys.argv[1] + "/_stcore/health", timeout=30) as answer:
            answer.read()
        took = time.perf_counter() - start
    except OSError:
        took = 30.0
    print(f"{took:.4f}", flush=True)
    time.sleep(0.1)
"""


@contextmanager
def health_watched(url: str) -> Iterator[list[float]]:
    """The seconds each health check of the server at ``url`` took while the block ran,
    polled every 0.1 s from another process; the list is filled when the block ends."""
    latencies: list[float] = []
    poller = subprocess.Popen(
        [sys.executable, "-c", HEALTH_POLLER, url], stdout=subprocess.PIPE, text=True
    )
    try:
        yield latencies
    finally:
        poller.terminate()
        out, _ = poller.communicate(timeout=40)
        latencies.extend(float(line) for line in out.split())


def launch(playwright: Playwright) -> Browser:
    assert Path(CHROMIUM).exists(), "install Debian's chromium (see README)"
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)


def new_tab(browser: Browser) -> Page:
    tab = browser.new_page(viewport={"width": 1400, "height": 1100}, accept_downloads=True)
    tab.set_default_timeout(60_000)
    return tab


@pytest.fixture(autouse=True)
def _command_line_limits_after() -> Iterator[None]:
    """app.py switches this process to the app's limits (AppTest runs it in-process): switch
    back after each test, so that the tests after it get the command line's."""
    yield
    limits.serve_app_limits(False)


@pytest.fixture(scope="session")
def health_watch() -> Callable[[str], AbstractContextManager[list[float]]]:
    """:func:`health_watched`, for the tests (conftest is not a module they can import
    reliably: each test folder has its own)."""
    return health_watched


@pytest.fixture(scope="module")
def streamlit_server() -> Server:
    """Start another server, e.g. with other environment variables."""
    return _streamlit


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with _streamlit() as url:
        yield url


@pytest.fixture
def open_tab() -> Iterator[Callable[[], Page]]:
    """Open browser tabs (for a server of the test's own)."""
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield lambda: new_tab(browser)
        browser.close()


@pytest.fixture
def page(app_url: str, tmp_path: Path, open_tab: Callable[[], Page]) -> Iterator[Page]:
    tab = open_tab()
    tab.goto(app_url)
    yield tab
    tab.screenshot(path=str(tmp_path / "last.png"), full_page=True)
