"""The Design pages at the app's drawing limits, driven with Streamlit's AppTest: a picture
or a board too big to draw is refused in one line, and the rest of the page works (issue
20, findings 1 and 2)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from trackkit import limits
from trackkit.games.snowtails.core.editing import EditHistory
from trackkit.games.snowtails.core.track import parse_track_toml as parse_snow_toml
from trackkit.games.yummell.core.editing import encode_track
from trackkit.games.yummell.core.presets import load_preset
from trackkit.limits import PLOT_POINTS

TIMEOUT = 120
# the issue's link: tile 1 at (-1000, -1000), the finish at (1000, 1000)
FAR_APART_LINK = (
    "eNrLS8xNVbBVUHJLLFJILEgsKlHi4oqOLshJTE7NTc0rKY6N5SrJzAEpMeSqAJK6hgYGBlyVcFZRfkliSWZ-"
    "HlDAAJdOI7BOuEZMfQAwKCWV"
)


def page(name: str) -> AppTest:
    return AppTest.from_string(
        f"from trackkit.app.home_page import page_function\npage_function({name!r})()\n",
        default_timeout=TIMEOUT,
    )


def button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    return next(b for b in at.button if b.label == label)


@pytest.fixture(autouse=True)
def app_limits() -> Iterator[None]:
    limits.serve_app_limits(True)
    yield
    limits.serve_app_limits(False)


def test_the_issues_link_offers_no_png_and_a_press_says_why() -> None:
    at = page("design")
    at.query_params["track"] = FAR_APART_LINK
    at.run()
    assert not at.exception
    downloads = [d.proto.label for d in at.get("download_button")]
    assert "Track picture (PNG)" not in downloads and "Track picture (SVG)" not in downloads
    # the board is drawn: its click layer covers the cells next to the two tiles only
    assert at.get("plotly_chart")
    button(at, "Track picture (PNG)").click().run()
    assert not at.exception
    (refusal,) = [e.value for e in at.error if "Not drawn" in e.value]
    assert "the PNG picture of 'Far apart'" in refusal
    assert f"the limit is {limits.CANVAS_PIXELS.app:,}" in refusal
    # the session carries on: the design is there, validation and undo work
    assert [p.cell for p in at.session_state.design.track.placements] == [
        (-1000, -1000),
        (1000, 1000),
    ]
    assert "Validation" in [h.value for h in at.subheader]
    button(at, "Clear").click().run()
    assert not at.exception and at.session_state.design.track.placements == ()


def test_a_board_over_the_plot_limit_is_refused_and_the_page_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PLOT_POINTS.env, "100")
    preset = load_preset("king-of-toads")
    at = page("design")
    at.query_params["track"] = encode_track(preset)
    at.run()
    assert not at.exception
    assert not at.get("plotly_chart")
    assert any(
        "The table is not drawn" in w.value and "limit is 100" in w.value for w in at.warning
    )
    assert "Validation" in [h.value for h in at.subheader]
    assert any("complete, valid track" in s.value for s in at.success)
    button(at, "Undo").click().run()  # takes the finish tile back; the board is still refused
    assert not at.exception
    assert at.session_state.design.track.placements == preset.placements[:-1]
    # within the limit, a picture is still offered
    assert "Track picture (PNG)" in [d.proto.label for d in at.get("download_button")]


@pytest.mark.slow  # lays out a 9,880-space board three times: about 12 s
def test_the_snow_staircase_is_named_not_drawn_and_can_still_be_edited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.render.test_drawing_limits import staircase_toml

    # an operator's raised board limit lets the staircase (9,880 spaces) be checked: what
    # is left to refuse is its drawing
    monkeypatch.setenv(limits.BOARD_SPACES.env, "20000")
    at = page("snow-design")
    at.session_state.snow_history = EditHistory.of(
        parse_snow_toml(staircase_toml(), source="staircase.toml")
    )
    at.run()
    assert not at.exception
    assert not at.get("plotly_chart")
    assert any("The board is not drawn" in w.value for w in at.warning)
    assert any("obeys every track rule" in s.value for s in at.success)
    button(at, "Track picture (PNG)").click().run()
    assert any("Not drawn: the PNG picture of 'Staircase'" in e.value for e in at.error)
    # a tree placed by naming its space, then taken back
    first = at.session_state.snow_history.track
    at.selectbox(key="snow-at-segment").set_value("s2")
    at.number_input(key="snow-at-lane").set_value(3)
    at.number_input(key="snow-at-index").set_value(10)
    button(at, "Use the tool here").click().run()
    assert ("s2", 3, 10) in at.session_state.snow_history.track.trees
    button(at, "Undo").click().run()
    assert at.session_state.snow_history.track == first
    assert not at.exception


def test_a_board_over_the_servers_board_limit_is_not_checked_and_the_page_goes_on() -> None:
    from tests.render.test_drawing_limits import staircase_toml

    at = page("snow-design")  # the app's own limit: 5,000 spaces
    at.session_state.snow_history = EditHistory.of(
        parse_snow_toml(staircase_toml(), source="staircase.toml")
    )
    at.run()
    assert not at.exception
    refusal = [e.value for e in at.error if e.value.startswith("Not checked:")]
    assert refusal and "9,880 board spaces; the limit is 5,000" in refusal[0]
    button(at, "Open the demo board").click().run()  # Husky oval, over the refused board
    assert not at.exception
    assert any("obeys every track rule" in s.value for s in at.success)
