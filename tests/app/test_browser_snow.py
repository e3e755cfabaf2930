"""The Snow Tails pages in a real browser: a click on a space of the board places a tree
or a building, a refusal is explained, and a race draws where sleds collide."""

from __future__ import annotations

import re
from dataclasses import replace

from conftest import click_chart, press, settle
from playwright.sync_api import Page, expect

from trackkit.board.links import pack_link
from trackkit.games.snowtails.core.course import build_course
from trackkit.games.snowtails.core.layout import lay_out
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.scene import course_scene
from trackkit.games.snowtails.core.track import Address


def _click_space(page: Page, address: Address) -> None:
    centre = lay_out(build_course(load_preset("husky-oval"))).spaces[address].centre
    settle(page)
    click_chart(page, centre)
    settle(page)


def test_clicking_spaces_places_a_tree_and_explains_a_refused_building(
    page: Page, app_url: str
) -> None:
    page.goto(f"{app_url}/snow-design")
    page.get_by_text("Husky oval: 5 trees").wait_for()
    _click_space(page, Address("back", 3, 6))
    page.get_by_text("Husky oval: 6 trees").wait_for()
    settle(page)
    page.get_by_text("Chapel", exact=True).click()
    _click_space(page, Address("back", 1, 3))
    warning = page.locator("[data-testid='stAlert']").filter(has_text="refused")
    expect(warning).to_contain_text("building-on-edge-lane")
    # explained beside the board, in sight of the space clicked (not below the board)
    plot_box = page.locator(".js-plotly-plot").first.bounding_box()
    warning_box = warning.bounding_box()
    assert plot_box is not None and warning_box is not None
    assert warning_box["x"] + warning_box["width"] <= plot_box["x"]  # beside, to the left
    assert warning_box["y"] < plot_box["y"] + plot_box["height"]
    page.get_by_text("buildings: none.").wait_for()  # nothing was placed
    _click_space(page, Address("back", 3, 3))
    page.get_by_text("buildings: Chapel.").wait_for()
    press(page, "Undo")
    page.get_by_text("buildings: none.").wait_for()


def test_remove_on_a_tree_takes_it_and_a_reload_keeps_the_undo(page: Page, app_url: str) -> None:
    tree = load_preset("husky-oval").trees[0]
    page.goto(f"{app_url}/snow-design")
    page.get_by_text("Husky oval: 5 trees").wait_for()
    settle(page)
    page.get_by_text("Remove", exact=True).click()
    # on the fir itself, where the figure draws it (its y turned over, as on a page)
    settle(page)
    click_chart(page, course_scene(load_preset("husky-oval")).places[tree])
    page.get_by_text("Husky oval: 4 trees").wait_for()
    page.wait_for_url("**snow=**")
    settle(page)
    page.reload()  # a new session: this browser's history is kept on the server
    page.get_by_text("Husky oval: 4 trees").wait_for()
    press(page, "Undo")
    page.get_by_text("Husky oval: 5 trees").wait_for()


def test_a_race_draws_where_sleds_collide(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/snow-race")
    page.get_by_role("button", name="Run races").click()
    page.get_by_text("Where sleds collide").wait_for(timeout=240_000)
    settle(page)
    # the heat map: the board with a colour bar in "per race"; then the sample race
    # replayed on the board
    charts = page.locator(".js-plotly-plot")
    expect(charts).to_have_count(4)
    heat = charts.nth(2)
    heat.scroll_into_view_if_needed()
    expect(heat.locator(".colorbar")).to_have_count(1)
    expect(page.get_by_text("A sample race:")).to_have_count(1)
    replay = charts.nth(3)
    replay.scroll_into_view_if_needed()
    expect(replay.get_by_text("▶ Play the race")).to_have_count(1)


def _trees(page: Page, count: int) -> None:
    page.get_by_text(f"Husky oval: {count} trees").wait_for()


def test_the_address_keeps_the_snowtails_design_across_pages_reload_and_history(
    page: Page, app_url: str
) -> None:
    page.goto(f"{app_url}/snow-design")
    _trees(page, 5)
    _click_space(page, Address("back", 3, 6))
    _trees(page, 6)
    page.wait_for_url("**snow=**")
    _click_space(page, Address("back", 3, 9))
    _trees(page, 7)
    # Back steps to the address before the second tree, and the design follows it
    settle(page)
    page.go_back()
    _trees(page, 6)
    page.go_forward()
    _trees(page, 7)
    # a reload keeps the design (it lives in the address)
    page.reload()
    _trees(page, 7)
    # another page keeps it in the address, and coming back shows it
    page.locator("a[href*='snow-race']").first.click()
    page.wait_for_url("**/snow-race**")
    settle(page)
    assert "snow=" in page.url
    page.locator("a[href*='snow-design']").first.click()
    _trees(page, 7)
    expect(page.get_by_text("Traceback")).to_have_count(0)


def _number(page: Page, label: str, value: int) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    expect(box).to_have_value(str(value))


def test_a_snowtails_race_opens_with_its_verdict_against_the_demo_boards(
    page: Page, app_url: str
) -> None:
    page.goto(f"{app_url}/snow-race")
    _number(page, "Races", 400)
    settle(page)
    page.get_by_role("button", name="Run races").click()
    verdict = page.get_by_text(re.compile(r"^A race of \d sleds on Husky oval lasts"))
    verdict.wait_for(timeout=240_000)
    assert "against an average track" in verdict.inner_text()
    assert "Unfairness " in verdict.inner_text()  # the headline: the start slots from fair
    length = page.get_by_text("Expected race length")
    assert verdict.bounding_box()["y"] < length.bounding_box()["y"]  # the verdict first
    page.get_by_text("the 4 preset tracks of Mush! Mush! Snow Tails 2").wait_for()
    slots = page.locator("[data-testid='stDataFrame']").first
    for heading in ("Sleds started", "On an average track", "Difference, 95%"):
        expect(slots).to_contain_text(heading)


def test_snowtails_compare_draws_one_bar_per_track(page: Page, app_url: str) -> None:
    # a design of the Husky oval's name with a tree more: two tracks of one name, two bars
    # (the demo board as it stands would be compared once, as itself)
    oval = load_preset("husky-oval")
    mine = replace(oval, trees=(*oval.trees, Address("back", 3, 6)))
    page.goto(f"{app_url}/snow-compare?snow={pack_link(mine.to_toml())}")
    _number(page, "Races per track", 200)
    settle(page)
    page.get_by_role("button", name="Compare").click()
    page.locator(".js-plotly-plot").first.wait_for(timeout=240_000)
    settle(page)
    bars = page.evaluate(
        """() => document.querySelector('.js-plotly-plot').data
            .filter(t => t.type === 'bar').map(t => t.y)"""
    )
    [names] = bars
    assert len(names) == len(set(names)) == 5
    assert "Husky oval (yours)" in names and "Husky oval" in names
    # the headline with its interval in the table, the orderings only beyond noise
    expect(page.locator("[data-testid='stDataFrame']").first).to_contain_text("Unfairness, 95%")
    page.get_by_text(re.compile(r"^Fairer first \(told apart at 95%, Holm\)")).wait_for()
