"""Drawing limits in a real browser (issue 20, findings 1 and 2): the issue's link on the
Design page, and a valid Snow Tails staircase on its Design page, are opened and their PNG
pressed; the server keeps answering its health check within a second all along, shows the
refusal, and is still there afterwards. Without the limits the PNG aborted the server
(every visitor got "Connection error"), and the link's click layer held it for minutes."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

# the issue's link: tile 1 at (-1000, -1000), the finish at (1000, 1000)
FAR_APART_LINK = (
    "eNrLS8xNVbBVUHJLLFJILEgsKlHi4oqOLshJTE7NTc0rKY6N5SrJzAEpMeSqAJK6hgYGBlyVcFZRfkliSWZ-"
    "HlDAAJdOI7BOuEZMfQAwKCWV"
)
HEALTHY_WITHIN = 1.0  # seconds


def _settle(page: Page) -> None:
    page.wait_for_timeout(300)
    expect(page.locator("[data-testid='stStatusWidget']")).to_have_count(0, timeout=120_000)


def _alive(url: str) -> bool:
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as answer:
        return answer.status == 200


def _press_png_and_see_the_refusal(page: Page, name: str) -> None:
    _settle(page)
    downloads: list[object] = []
    page.on("download", lambda download: downloads.append(download))
    button = page.get_by_role("button", name="Track picture (PNG)")
    refusal = page.locator("[data-testid='stAlert']").filter(has_text=re.compile(r"^Not drawn: "))
    for _ in range(4):  # a click that lands while the page reruns can be lost: press again
        try:
            # the button may be swapped for a new one while the page reruns
            button.scroll_into_view_if_needed()
            button.click()
            refusal.wait_for(timeout=20_000)
            break
        except (PlaywrightTimeoutError, PlaywrightError):
            _settle(page)
    expect(refusal).to_contain_text(f"the PNG picture of '{name}'", timeout=30_000)
    expect(refusal).to_contain_text("the limit is")
    _settle(page)
    # pressed again once the refusal shows (an earlier click may have landed on the picture
    # of the track shown before, a small one): nothing is drawn, nothing downloaded
    downloads.clear()
    button.click()
    _settle(page)
    expect(refusal).to_contain_text(f"the PNG picture of '{name}'")
    assert downloads == []
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


def test_the_issues_link_and_its_png_leave_the_server_answering(
    page: Page, app_url: str, tmp_path: Path, health_watch: Any
) -> None:
    _settle(page)  # the Start page drawn: the server's own start is not what is measured
    with health_watch(app_url) as answers:
        page.goto(f"{app_url}/design?track={FAR_APART_LINK}")
        page.get_by_role("heading", name="Design a track").wait_for()
        page.get_by_text("Validation", exact=True).wait_for()
        _press_png_and_see_the_refusal(page, "Far apart")
        page.screenshot(path=str(tmp_path / "refused.png"), full_page=True)
        # the session carries on: the design is still there and can be cleared
        expect(page.get_by_role("button", name="Clear")).to_be_enabled()
        page.get_by_role("button", name="Clear").click()
        page.get_by_text("Place the start tile anywhere to begin").wait_for()
    assert answers and max(answers) < HEALTHY_WITHIN, [round(a, 2) for a in answers]
    assert _alive(app_url)


def test_the_snow_staircase_png_leaves_the_server_answering(
    open_tab: Callable[[], Page], streamlit_server: Any, tmp_path: Path, health_watch: Any
) -> None:
    from tests.render.test_drawing_limits import staircase_toml

    # an operator's raised board limit (the app's own, 5,000 spaces, refuses the staircase's
    # 9,880 at the upload): what is left to refuse is its picture
    with streamlit_server({"TRACKKIT_APP_BOARD_SPACES": "20000"}) as app_url:
        page = open_tab()
        page.goto(f"{app_url}/snow-design")
        page.get_by_text("Husky oval: 5 trees").wait_for()
        with health_watch(app_url) as answers:
            page.get_by_text("Start from…").click()
            page.locator("[data-testid='stFileUploaderDropzoneInput']").first.set_input_files(
                files=[
                    {
                        "name": "staircase.toml",
                        "mimeType": "application/toml",
                        "buffer": staircase_toml().encode(),
                    }
                ]
            )
            _settle(page)
            page.get_by_role("button", name="Open the file").click()
            page.get_by_text("Staircase: 0 trees").wait_for(timeout=120_000)
            _press_png_and_see_the_refusal(page, "Staircase")
            page.screenshot(path=str(tmp_path / "snow-refused.png"), full_page=True)
            page.get_by_role("button", name="Undo").click()
            page.get_by_text("Husky oval: 5 trees").wait_for(timeout=120_000)
        assert answers and max(answers) < HEALTHY_WITHIN, [round(a, 2) for a in answers]
        assert _alive(app_url)
