"""The app in a real browser: streamlit run app.py, driven by Playwright in Debian's Chromium.

Builds a short track by clicking, checks an illegal click is explained, runs a small race
and checks what a person would see. Screenshots go to the test's temporary folder.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
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
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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
        server.terminate()
        server.wait(timeout=20)


@pytest.fixture
def page(app_url: str, tmp_path: Path) -> Iterator[Page]:
    assert Path(CHROMIUM).exists(), "install Debian's chromium (see README)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 1100})
        tab.set_default_timeout(60_000)
        tab.goto(app_url)
        yield tab
        tab.screenshot(path=str(tmp_path / "last.png"), full_page=True)
        browser.close()


def _click_cell(page: Page, legal: bool) -> None:
    """Click a table cell of the plot: inside the green outline, or far from it."""
    plot = page.locator(".js-plotly-plot").first
    outline = plot.locator(".shapelayer path[style*='dash']").first
    box = outline.bounding_box()
    assert box is not None
    traces = plot.locator(".scatterlayer .trace")
    # the clickable cells are the trace of markers with the most points
    points = max(
        (traces.nth(i).locator("path.point") for i in range(traces.count())),
        key=lambda located: located.count(),
    )
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    best, best_distance = None, None
    for i in range(points.count()):
        p = points.nth(i).bounding_box()
        if p is None:
            continue
        spot = (p["x"] + p["width"] / 2, p["y"] + p["height"] / 2)
        d = ((spot[0] - centre[0]) ** 2 + (spot[1] - centre[1]) ** 2) ** 0.5
        if best_distance is None or (d < best_distance if legal else d > best_distance):
            best, best_distance = spot, d
    assert best is not None
    # a person clicks where the cell is; plotly reads clicks from the layer on top
    page.mouse.click(*best)


def test_build_a_track_by_clicking_and_race_it(page: Page, tmp_path: Path) -> None:
    page.get_by_role("button", name="Place next tile").click()
    page.get_by_text("No problem so far").wait_for()
    # choose tile 7 and click the highlighted cell
    page.get_by_text("7 · straight").click()
    page.get_by_text("Tile 7 fits at").wait_for()
    _click_cell(page, legal=True)
    page.get_by_text("Tile 2 fits at", exact=False).or_(
        page.get_by_text("Tile 3 fits at")
    ).first.wait_for()
    # an illegal click is explained, not silently refused
    page.get_by_text("3 · straight").click()
    page.get_by_text("Tile 3 fits at").wait_for()
    _click_cell(page, legal=False)
    page.get_by_text("breaks a rule").wait_for()
    page.screenshot(path=str(tmp_path / "design.png"), full_page=True)
    # finish with the finish tile
    page.get_by_text("2 · finish").click()
    page.get_by_role("button", name="Place next tile").click()
    page.get_by_text("A complete, valid track").wait_for()
    # race it
    page.get_by_role("link", name="Race").click()
    page.get_by_text("Current design").click()
    page.get_by_role("button", name="Run races").click()
    page.get_by_text("Expected race length").wait_for(timeout=300_000)
    page.get_by_text("A sample race").wait_for()
    page.screenshot(path=str(tmp_path / "race.png"), full_page=True)
    body = page.locator("body").inner_text()
    assert "95% interval" in body and "Win rate by character" in page.content()
