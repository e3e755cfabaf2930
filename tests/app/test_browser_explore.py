"""The Explore page in a real browser: a click on a dot of the map shows that track, and
"Open in Design" opens it on the Design page, complete."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from conftest import to_pixels
from playwright.sync_api import Page, expect

from trackkit.explore.sweep import dask_client, read_sweep, run_sweep
from trackkit.games import get_ruleset


def test_a_clicked_dot_shows_its_track_and_opens_it_in_design(
    tmp_path: Path,
    streamlit_server: Callable[..., AbstractContextManager[str]],
    open_tab: Callable[[], Page],
) -> None:
    root = tmp_path / "sweeps"
    space = get_ruleset("yummell").track_space(3)
    with dask_client(1, processes=False) as client:
        run_sweep(space, root / "3p", races=20, sample=12, seed=3, client=client)
    rows = read_sweep(root / "3p").table.to_pandas()
    # the dot farthest from any other, so that the click cannot land on a neighbour
    points = list(zip(rows["rounds_mean"], rows["balance"], strict=True))

    def room(i: int) -> float:
        (x, y), width = points[i], max(rows["rounds_mean"].max() - rows["rounds_mean"].min(), 1)
        return min(math.hypot((x - u) / width, y - v) for j, (u, v) in enumerate(points) if j != i)

    row = rows.iloc[max(range(len(points)), key=room)]
    with streamlit_server({"TRACKKIT_APP_SWEEPS": str(root)}) as url:
        tab = open_tab()
        tab.goto(f"{url}/explore")
        tab.get_by_text("12 of 12 tracks pass the filters").wait_for()
        tab.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        tab.mouse.click(*to_pixels(tab, (row["rounds_mean"], row["balance"])))
        tab.get_by_role("heading", name=row["name"]).wait_for()
        tab.screenshot(path=str(tmp_path / "picked.png"), full_page=True)
        tab.get_by_role("button", name="Open in Design").click()
        tab.wait_for_url(re.compile(r"/design(\?.*)?$"))  # with ?track=…, the design's link
        tab.get_by_role("heading", name="Track complete").wait_for()
        expect(tab.get_by_label("Track name")).to_have_value(row["name"])
        expect(tab.locator("[data-testid='stException']")).to_have_count(0)
