"""The Explore page in a real browser: a click on a dot of the map shows that track, and
"Open in Design" opens it on the Design page, complete; every dot carries its intervals,
the design being edited is marked (profiled when the sweep lacks it), and a picked track
is profiled again with more races. Snow Tails' Explore page maps a sweep of its designs
and opens one on its own Design page."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from conftest import PLOT_DRAWN, click_chart, settle
from playwright.sync_api import Page, expect

from trackkit.app.explore_page import TITLES
from trackkit.explore.profile import ProfileSettings, profile_options, profile_track
from trackkit.explore.sweep import Cluster, dask_client, read_sweep, run_sweep
from trackkit.games import get_ruleset
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.editing import encode_track


def _small_sweep(tmp_path: Path) -> tuple[Path, Any, Any]:
    """A sweep of 12 3-player tracks under ``tmp_path/sweeps``: the folder of sweeps, the
    space and the sweep's rows."""
    root = tmp_path / "sweeps"
    space = get_ruleset("yummell").track_space(3)
    with dask_client(1, processes=False) as client:
        run_sweep(
            space,
            root / "3p",
            ProfileSettings(races=20, seed=3),
            sample=12,
            cluster=Cluster(client=client),
        )
    return root, space, read_sweep(root / "3p").table.to_pandas()


def _loneliest(rows: Any, *others: tuple[float, float]) -> int:
    """The row of the dot farthest from any other on the map of length and unfairness (and
    from ``others``, marks of their own), so that a click on it cannot land on a neighbour."""
    points = list(zip(rows["rounds_mean"], rows["unfairness"], strict=True))
    width = max(rows["rounds_mean"].max() - rows["rounds_mean"].min(), 1)
    height = max(rows["unfairness"].max() - rows["unfairness"].min(), 1)

    def room(i: int) -> float:
        x, y = points[i]
        return min(
            math.hypot((x - u) / width, (y - v) / height)
            for j, (u, v) in enumerate([*points, *others])
            if j != i
        )

    return max(range(len(points)), key=room)


def test_a_clicked_dot_shows_its_track_and_opens_it_in_design(
    tmp_path: Path,
    streamlit_server: Callable[..., AbstractContextManager[str]],
    open_tab: Callable[[], Page],
) -> None:
    root, _, rows = _small_sweep(tmp_path)
    row = rows.iloc[_loneliest(rows)]
    with streamlit_server({"TRACKKIT_APP_SWEEPS": str(root)}) as url:
        tab = open_tab()
        tab.goto(f"{url}/explore")
        tab.get_by_text("12 of 12 tracks pass the filters").wait_for()
        click_chart(tab, (row["rounds_mean"], row["unfairness"]))
        tab.get_by_role("heading", name=row["name"]).wait_for()
        # the tracks table, then the picked track's figures
        expect(tab.locator("[data-testid='stDataFrame']")).to_have_count(2)
        tab.locator("[data-testid='stDataFrame'] .dvn-scroller").last.wait_for()
        tab.screenshot(path=str(tmp_path / "picked.png"), full_page=True)
        # its figures table shows every row and column, across the page: nothing cut off
        table = tab.evaluate(TABLE_BOX)
        assert table["rows"] <= table["shown"] + 1 and table["wide"] <= table["across"] + 1
        assert table["across"] >= table["page"] - 4
        tab.get_by_role("button", name="Open in Design").click()
        tab.wait_for_url(re.compile(r"/design(\?.*)?$"))  # with ?track=…, the design's link
        tab.get_by_role("heading", name="Track complete").wait_for()
        expect(tab.get_by_label("Track name")).to_have_value(row["name"])
        # opened at the sweep's 3 players, legal there (the page's 5 called it illegal)
        tab.get_by_text("A complete, valid track under the building rule for 3 players").wait_for()
        assert "players=3" in tab.url
        expect(tab.locator("[data-testid='stException']")).to_have_count(0)


def test_a_row_picked_in_the_table_of_tracks_shows_its_track(
    tmp_path: Path,
    streamlit_server: Callable[..., AbstractContextManager[str]],
    open_tab: Callable[[], Page],
) -> None:
    root, _, rows = _small_sweep(tmp_path)
    with streamlit_server({"TRACKKIT_APP_SWEEPS": str(root)}) as url:
        tab = open_tab()
        tab.goto(f"{url}/explore")
        tab.get_by_text("12 of 12 tracks pass the filters").wait_for()
        grid = tab.locator("[data-testid='stDataFrame']").first
        grid.scroll_into_view_if_needed()
        settle(tab)
        headings = grid.locator("th[role='columnheader']")  # each sorts the table when clicked
        expect(headings.nth(0)).to_have_text("Track #")
        expect(headings.nth(1)).to_have_text(TITLES["rounds_mean"])  # the map's axes first
        expect(headings.nth(2)).to_have_text(TITLES["unfairness"])
        box = grid.get_by_test_id("data-grid-canvas").bounding_box()
        assert box is not None
        # the first row's box, at the table's left edge, picks it
        tab.mouse.click(box["x"] + 12, box["y"] + ROW * 1.5)
        tab.get_by_role("heading", name=rows.iloc[0]["name"]).wait_for()
        expect(tab.locator("[data-testid='stException']")).to_have_count(0)


ROW = 35  # the height in pixels of a row of Streamlit's table (and of its heading)

# the figures table (the page's last): the height and width of its rows, of the box that
# shows them, and of the page's column
TABLE_BOX = """() => {
    const frames = document.querySelectorAll("[data-testid='stDataFrame']");
    const frame = frames[frames.length - 1];
    const rows = frame.querySelector('.dvn-scroller');
    return {rows: rows.scrollHeight, shown: rows.clientHeight, wide: rows.scrollWidth,
            across: frame.getBoundingClientRect().width,
            page: frame.parentElement.getBoundingClientRect().width};
}"""

TRACES = """() => document.querySelector('.js-plotly-plot').data.map(t => ({
    name: t.name,
    dots: t.x.length,
    symbol: (t.marker || {}).symbol || null,
    up: t.error_y ? Array.from(t.error_y.array).length : 0,
    across: t.error_x ? Array.from(t.error_x.array).length : 0,
}))"""


def test_the_map_shows_intervals_and_the_design_and_profiles_a_track_again(
    tmp_path: Path,
    streamlit_server: Callable[..., AbstractContextManager[str]],
    open_tab: Callable[[], Page],
) -> None:
    root, space, rows = _small_sweep(tmp_path)
    row = rows.iloc[4]
    swept = Track("My swept track", space.track(int(row["rank"])).placements)
    unswept_rank = next(r for r in range(len(space)) if r not in set(rows["rank"]))
    unswept = Track("My own track", space.track(unswept_rank).placements)
    with streamlit_server({"TRACKKIT_APP_SWEEPS": str(root)}) as url:
        tab = open_tab()
        tab.goto(f"{url}/explore?track={encode_track(swept)}")
        tab.get_by_text(f"is track #{row['rank']} of this sweep").wait_for()
        tab.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        tab.wait_for_function(PLOT_DRAWN)
        dots, design = tab.evaluate(TRACES)
        assert dots["dots"] == dots["up"] == dots["across"] == 12  # every dot's intervals
        assert design["symbol"] == "circle-open" and design["dots"] == 1
        tab.screenshot(path=str(tmp_path / "marked.png"), full_page=True)
        # the star picks its track; profiled again, its figures stand beside the sweep's
        click_chart(tab, (row["rounds_mean"], row["unfairness"]))
        tab.get_by_role("heading", name=row["name"]).wait_for()
        tab.get_by_role("button", name="Profile again with 100 races").click()
        table = tab.locator("[data-testid='stDataFrame']").last  # the figures
        expect(table).to_contain_text("Again (100 races)", timeout=300_000)
        expect(table).to_contain_text("This sweep (20 races)")
        tab.get_by_text(re.compile(rf"^A race of 3 on {re.escape(row['name'])} lasts")).wait_for()
        tab.screenshot(path=str(tmp_path / "again.png"), full_page=True)
        expect(tab.locator("[data-testid='stException']")).to_have_count(0)
        # a design the sweep lacks: profiled like its tracks, a marker of its own
        other = open_tab()
        other.goto(f"{url}/explore?track={encode_track(unswept)}")
        other.get_by_text("is not in this sweep; profiled like its tracks").wait_for()
        other.wait_for_function(PLOT_DRAWN)
        _, design = other.evaluate(TRACES)
        assert design["symbol"] == "diamond" and design["up"] == 1
        other.screenshot(path=str(tmp_path / "profiled.png"), full_page=True)


def test_the_snowtails_page_maps_a_sweep_and_opens_a_design_in_its_design_page(
    tmp_path: Path,
    streamlit_server: Callable[..., AbstractContextManager[str]],
    open_tab: Callable[[], Page],
) -> None:
    root = tmp_path / "sweeps"
    settings = ProfileSettings(races=20, seed=3, skill=True, skill_races=100)
    ruleset = get_ruleset("snowtails")
    with dask_client(1, processes=False) as client:
        space = ruleset.track_space(5)
        run_sweep(space, root / "snow-5p", settings, sample=12, cluster=Cluster(client=client))
    rows = read_sweep(root / "snow-5p").table.to_pandas()
    # the design being edited (the first demo board) is a diamond of its own on the map
    mine = profile_track(load_preset("husky-oval"), settings, options=profile_options(ruleset, 5))
    row = rows.iloc[_loneliest(rows, (mine["rounds_mean"], mine["unfairness"]))]
    track = space.track(int(row["rank"]))
    with streamlit_server({"TRACKKIT_APP_SWEEPS": str(root)}) as url:
        tab = open_tab()
        tab.goto(f"{url}/snow-explore")
        tab.get_by_text("12 of 12 tracks pass the filters").wait_for()
        tab.get_by_text("Red diamond: your design, Husky oval, profiled like").wait_for()
        tab.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        tab.wait_for_function(PLOT_DRAWN)
        dots, design = tab.evaluate(TRACES)
        assert dots["dots"] == dots["up"] == dots["across"] == 12  # every dot's intervals
        assert design["symbol"] == "diamond"
        # the sweep's skill is a figure the map can draw
        tab.locator("[data-testid='stSelectbox']").filter(has_text="Colour by").click()
        tab.get_by_role("option", name=re.compile(r"^Skill: the top policy")).wait_for()
        tab.keyboard.press("Escape")
        click_chart(tab, (row["rounds_mean"], row["unfairness"]))
        tab.get_by_role("heading", name=row["name"]).wait_for()
        expect(tab.locator(".js-plotly-plot")).to_have_count(2)  # the map and the board
        tab.screenshot(path=str(tmp_path / "snow-picked.png"), full_page=True)
        tab.get_by_role("button", name="Open in Design").click()
        tab.wait_for_url(re.compile(r"/snow-design\?.*snow=.*$"))  # the design's link
        trees = f"{len(track.trees)} tree{'' if len(track.trees) == 1 else 's'}"
        tab.get_by_text(f"{row['name']}: {trees}").wait_for()
        expect(tab.locator("[data-testid='stException']")).to_have_count(0)
