"""The app in a real browser: streamlit run app.py, driven by Playwright in Debian's Chromium.

The start page, building a track by clicking, refusals beside the board, hostile links and
uploads, the address across pages and history, undo of every change, the project's config.
The server and the browser come from conftest.py; screenshots go to the test's temporary
folder.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import PLOT_DRAWN, click_chart, press, settle
from playwright.sync_api import Page, expect

from trackkit.games import load_tileset
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.editing import decode_track, encode_track, next_tiles
from trackkit.games.yummell.core.presets import load_preset
from trackkit.validate import validate

ROOT = Path(__file__).resolve().parents[2]
NESTED_LINK = "eNqrULBViB4Fo2AUDHsQOwpGwSgY9oArLzE31VYpUYkLABqZ0ms"  # x = [[[[…]]]]
HEADINGS = {
    "Design": "Design a track",
    "Race": "Race",
    "Compare": "Compare tracks",
    "Tiles": "Tiles",
}


def test_the_start_page_leads_to_the_three_steps(page: Page, tmp_path: Path) -> None:
    page.get_by_role("heading", name="trackkit: race tracks for Yummell").wait_for()
    page.get_by_text("Reconstructed data.").wait_for()
    page.screenshot(path=str(tmp_path / "start.png"), full_page=True)
    for label, heading in [
        ("Race a track", "Race"),
        ("Compare tracks", "Compare tracks"),
        ("Design a track", "Design a track"),
    ]:
        page.get_by_role("link", name="Start", exact=True).click()
        page.get_by_role("heading", name="trackkit: race tracks for Yummell").wait_for()
        page.get_by_role("link", name=label).click()
        page.get_by_role("heading", name=heading, exact=True).wait_for()
        _no_traceback(page)


def test_build_a_track_by_clicking(page: Page, app_url: str, tmp_path: Path) -> None:
    # three players: the building rule (on by default) asks for three path tiles
    page.goto(f"{app_url}/design?players=3")
    page.get_by_role("heading", name="Design a track", exact=True).wait_for()
    press(page, "Place next tile")
    page.get_by_text("No problem so far").wait_for()
    tileset = load_tileset()
    track = Track("t", (Placement(1, 0, 0, 0),))
    for tile in (7, 3, 4):
        _choose(page, f"{tile} · straight")
        page.get_by_text(f"Tile {tile} fits at").wait_for()
        entry = next(e for e in next_tiles(track, tileset, 3) if e.tile.number == tile)
        _click_table(page, entry.fits[0].cell, (0.5, 0.5))
        track = track.placed(next(p for p in entry.fits if p.cell == entry.fits[0].cell))
        _wait_for_linked_tiles(page, track.tiles)
    _choose(page, "2 · finish")
    press(page, "Place next tile")
    page.get_by_text("A complete, valid track").wait_for()
    # the palette gives way to a clear "track complete" state
    page.get_by_role("heading", name="Track complete").wait_for()
    expect(page.get_by_text("No tile can")).to_have_count(0)
    expect(page.get_by_role("button", name="Place next tile")).to_be_disabled()
    # the track built is legal under the building rule for the 3 players asked for
    built = _linked_tiles(page)
    assert built == (*track.tiles, 2)
    assert validate(decode_track(page.url.partition("track=")[2].split("&")[0]), players=3).ok
    page.screenshot(path=str(tmp_path / "complete.png"), full_page=True)
    _no_traceback(page)


def _no_traceback(page: Page) -> None:
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    assert "Traceback" not in page.locator("body").inner_text()


def _visit_every_page(page: Page) -> None:
    """Each page opens and shows its title, with no exception, in the same session."""
    for link, heading in HEADINGS.items():
        page.get_by_role("link", name=link, exact=True).click()
        page.get_by_role("heading", name=heading, exact=True).wait_for()
        page.wait_for_load_state("networkidle")
        _no_traceback(page)


def _linked_tiles(page: Page) -> tuple[int, ...]:
    """The tiles of the track in the address bar."""
    query = page.url.partition("?")[2]
    shared = dict(p.partition("=")[::2] for p in query.split("&") if p).get("track")
    return decode_track(shared).tiles if shared else ()


def _wait_for_linked_tiles(page: Page, tiles: tuple[int, ...]) -> None:
    for _ in range(100):
        if _linked_tiles(page) == tiles:
            return
        page.wait_for_timeout(100)
    assert _linked_tiles(page) == tiles


def _open_start_from(page: Page) -> None:
    settle(page)
    if not page.get_by_role("button", name="Open preset").is_visible():
        page.get_by_text("Start from…").click()
    expect(page.get_by_role("button", name="Open preset")).to_be_visible()


def _upload(page: Page, name: str, data: bytes) -> None:
    _open_start_from(page)
    page.locator("[data-testid='stFileUploaderDropzoneInput']").first.set_input_files(
        files=[{"name": name, "mimeType": "application/toml", "buffer": data}]
    )
    page.get_by_text(name).first.wait_for()
    settle(page)
    button = page.get_by_role("button", name="Open file")
    expect(button).to_be_enabled()
    button.click()


def _choose(page: Page, label: str) -> None:
    """Pick a radio option once the app has finished running, and see it picked: a click
    that lands while a rerun redraws the palette can be lost, so try again if it was."""
    option = page.get_by_role("radio", name=label, exact=True)
    for _ in range(5):
        settle(page)
        page.get_by_text(label, exact=True).click()
        settle(page)
        if option.is_checked():
            return
    expect(option).to_be_checked()


def test_hostile_links_and_uploads_are_refused_and_every_page_still_works(
    page: Page, app_url: str, tmp_path: Path
) -> None:
    # a link whose TOML nests a thousand lists: a message, then every page works
    page.goto(f"{app_url}/?track={NESTED_LINK}")
    page.get_by_text("The shared link could not be opened").wait_for()
    assert "nest" in page.locator("[data-testid='stAlert']").first.inner_text()
    _no_traceback(page)
    _visit_every_page(page)
    # a link naming a server folder: refused without saying anything about the folder
    spy = Track("spy", (Placement(1, 0, 0),), tileset=Path("/etc"))
    page.goto(f"{app_url}/?track={encode_track(spy)}")
    page.get_by_text("offers only the bundled tile set").wait_for()
    assert "/etc" not in page.locator("body").inner_text()
    _visit_every_page(page)
    # the same two as uploaded files, on the Design page
    page.get_by_role("link", name="Design", exact=True).click()
    _upload(page, "nested.toml", b"x = " + b"[" * 1000 + b"]" * 1000)
    page.get_by_text("nested.toml: nests").wait_for()
    _upload(page, "spy.toml", b'name = "spy"\ntileset = "/etc"\n')
    page.get_by_text("offers only the bundled tile set").wait_for()
    assert "/etc" not in page.locator("body").inner_text()
    page.screenshot(path=str(tmp_path / "refused.png"), full_page=True)
    _visit_every_page(page)


def test_the_address_keeps_the_design_across_pages_reload_and_history(
    page: Page, app_url: str
) -> None:
    page.get_by_role("link", name="Design", exact=True).click()
    press(page, "Place next tile")
    page.get_by_text("No problem so far").wait_for()
    _wait_for_linked_tiles(page, (1,))
    _choose(page, "7 · straight")
    page.get_by_text("Tile 7 fits at").wait_for()
    press(page, "Place next tile")
    _wait_for_linked_tiles(page, (1, 7))
    # Back steps to the address before tile 7 was placed, and the design follows it
    page.go_back()
    _wait_for_linked_tiles(page, (1,))
    page.get_by_text("No problem so far").wait_for()
    expect(page.get_by_text("7 · straight")).to_be_visible()  # tile 7 is back in the palette
    page.go_forward()
    _wait_for_linked_tiles(page, (1, 7))
    page.get_by_text("fits at").first.wait_for()
    expect(page.get_by_text("7 · straight")).to_have_count(0)
    # every page keeps the design in the address
    for link in ("Tiles", "Race", "Compare", "Design"):
        settle(page)
        steps = page.evaluate("history.length")
        page.get_by_role("link", name=link, exact=True).click()
        page.get_by_role("heading", name=HEADINGS[link], exact=True).wait_for()
        _wait_for_linked_tiles(page, (1, 7))
        settle(page)
        # one step of the browser's history per switch: Streamlit's own links dropped the
        # design, which then came back a parameter at a time (three steps; Back stopped on
        # the same page)
        assert page.evaluate("history.length") == steps + 1, link
    page.reload()
    page.get_by_role("heading", name="Design a track").wait_for()
    page.get_by_text("fits at").first.wait_for()
    _wait_for_linked_tiles(page, (1, 7))
    # Back and Forward between pages: the page shown matches the address
    settle(page)
    steps = page.evaluate("history.length")
    page.get_by_role("link", name="Tiles", exact=True).click()
    page.get_by_role("heading", name="Tiles", exact=True).wait_for()
    page.wait_for_url("**/tiles**")  # the history entry exists before we step back over it
    # and the page has finished running: a run still going when Back is pressed (a loaded
    # machine, the engine compiling beside it) ends by putting its own page's address back
    settle(page)
    # one step: a switch that left the design behind and then put it back was three (the
    # bare page, then one per parameter), and Back stopped on the Tiles page
    assert page.evaluate("history.length") == steps + 1
    page.go_back()
    page.get_by_role("heading", name="Design a track").wait_for()
    _wait_for_linked_tiles(page, (1, 7))
    assert "/tiles" not in page.url
    page.go_forward()
    page.get_by_role("heading", name="Tiles", exact=True).wait_for()
    assert "/tiles" in page.url
    _wait_for_linked_tiles(page, (1, 7))
    _no_traceback(page)


def test_why_the_finish_waits_is_said_and_redo_works_after_forward(
    page: Page, app_url: str
) -> None:
    page.goto(f"{app_url}/design?players=3")
    page.get_by_role("heading", name="Design a track", exact=True).wait_for()
    press(page, "Place next tile")
    _wait_for_linked_tiles(page, (1,))
    _choose(page, "2 · finish")  # before any click on the table, the reason
    page.get_by_text("3 players put 3 path tiles in play").wait_for()
    for tiles in ((1, 7), (1, 7, 3)):
        _choose(page, f"{tiles[-1]} · straight")
        press(page, "Place next tile")
        _wait_for_linked_tiles(page, tiles)
    for step, tiles in ((page.go_back, (1, 7)), (page.go_back, (1,)), (page.go_forward, (1, 7))):
        settle(page)
        step()
        _wait_for_linked_tiles(page, tiles)
    press(page, "Redo")
    _wait_for_linked_tiles(page, (1, 7, 3))
    _no_traceback(page)


def test_replacing_or_clearing_the_design_can_be_undone(page: Page) -> None:
    page.get_by_role("link", name="Design", exact=True).click()
    page.get_by_role("heading", name="Design a track").wait_for()
    press(page, "Place next tile")
    _wait_for_linked_tiles(page, (1,))
    mine = (1,)

    def undo() -> None:
        press(page, "Undo")

    press(page, "Clear")
    _wait_for_linked_tiles(page, ())
    undo()
    _wait_for_linked_tiles(page, mine)

    _open_start_from(page)
    press(page, "Open preset")
    _wait_for_linked_tiles(page, load_preset("first-run").tiles)
    undo()
    _wait_for_linked_tiles(page, mine)

    press(page, "Empty table")
    _wait_for_linked_tiles(page, ())
    undo()
    _wait_for_linked_tiles(page, mine)

    _upload(page, "forest.toml", load_preset("forest-run").to_toml().encode())
    _wait_for_linked_tiles(page, load_preset("forest-run").tiles)
    undo()
    _wait_for_linked_tiles(page, mine)
    press(page, "Redo")
    _wait_for_linked_tiles(page, load_preset("forest-run").tiles)
    _no_traceback(page)


def test_the_projects_streamlit_config_is_used(page: Page) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "streamlit", "config", "show"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for setting in ("gatherUsageStats = false", 'toolbarMode = "minimal"', "maxUploadSize = 1"):
        assert f"set in {ROOT / '.streamlit' / 'config.toml'}\n{setting}" in shown
    # what a visitor sees: the real upload limit and no Deploy button
    page.get_by_role("link", name="Design", exact=True).click()
    _open_start_from(page)
    page.get_by_text("1MB per file").first.wait_for()
    expect(page.get_by_text("200MB")).to_have_count(0)
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
    expect(page.get_by_text("Deploy", exact=True)).to_have_count(0)


def _click_table(page: Page, cell: tuple[int, int], at: tuple[float, float]) -> None:
    """Click table cell ``cell`` at ``at`` (fractions of the cell from its top-left corner)."""
    grid = load_tileset().grid
    settle(page)
    click_chart(page, ((cell[0] + at[0]) * grid, (cell[1] + at[1]) * grid))


def _selected_points(page: Page) -> int:
    page.wait_for_function(PLOT_DRAWN)
    return int(
        page.evaluate(
            """() => document.querySelector('.js-plotly-plot').data
                .reduce((n, t) => n + (t.selectedpoints ? t.selectedpoints.length : 0), 0)"""
        )
    )


def test_the_whole_cell_takes_a_click_and_a_refusal_stays_beside_the_board(
    page: Page, tmp_path: Path
) -> None:
    page.get_by_role("link", name="Design", exact=True).click()
    press(page, "Place next tile")
    _wait_for_linked_tiles(page, (1,))
    start = Track("t", (Placement(1, 0, 0, 0),))
    tileset = load_tileset()
    entries = {e.tile.number: e for e in next_tiles(start, tileset)}
    # a tile that fits is chosen for you, and the palette shows what each tile holds: under
    # the building rule (on by default, 5 players) only the finish has no fit yet
    expect(page.get_by_text("no fit")).to_have_count(1)
    page.get_by_text(f"9 squares, {entries[3].mp} MP").first.wait_for()
    _choose(page, "7 · straight")
    page.get_by_text("Tile 7 fits at").wait_for()
    # a faint copy of tile 7 lies where it would go
    # null-safe: Streamlit may swap the chart's element while it redraws
    page.wait_for_function(
        "n => { const gd = document.querySelector('.js-plotly-plot');"
        " return !!(gd && gd.layout && gd.layout.shapes) && gd.layout.shapes"
        ".filter(s => s.name === 'ghost').length === n; }",
        arg=1 + len(tileset[7].squares),
    )
    page.screenshot(path=str(tmp_path / "ghost.png"), full_page=True)
    # a click near the corner of the cell, far from its middle, places the tile
    (legal,) = {p.cell for p in entries[7].fits}
    _click_table(page, legal, (0.06, 0.94))
    _wait_for_linked_tiles(page, (1, 7))
    # a click that breaks a rule: explained beside the board, the board not left faded
    _choose(page, "3 · straight")
    page.get_by_text("Tile 3 fits at").wait_for()
    _click_table(page, (1, 1), (0.95, 0.95))
    warning = page.locator("[data-testid='stAlert']").filter(has_text="breaks a rule")
    warning.wait_for()
    settle(page)
    assert _selected_points(page) == 0
    plot_box = page.locator(".js-plotly-plot").first.bounding_box()
    warning_box = warning.bounding_box()
    assert plot_box is not None and warning_box is not None
    assert warning_box["x"] + warning_box["width"] <= plot_box["x"]  # beside, to the left
    assert warning_box["y"] < plot_box["y"] + plot_box["height"]  # not below the chart
    text = warning.inner_text()
    assert "\nTile 3 fits at" in text  # its own paragraph, not run into the rule
    page.screenshot(path=str(tmp_path / "refused.png"), full_page=True)
    # clicking the same cell again does not silently take the explanation away
    _click_table(page, (1, 1), (0.95, 0.95))
    settle(page)
    expect(warning).to_be_visible()
    _wait_for_linked_tiles(page, (1, 7))
    _no_traceback(page)
