"""The build sheet on both Design pages (issue 32 D), driven with Streamlit's AppTest: each
offers it for a track it holds, and says whether it carries the verdict of the track's last
profile on the Race page in this session."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from trackkit.app.sheet import LABEL, PROFILES
from trackkit.games.snowtails.core.editing import EditHistory
from trackkit.games.snowtails.core.presets import load_preset as load_snow
from trackkit.games.yummell.core.editing import encode_track
from trackkit.games.yummell.core.presets import load_preset

TIMEOUT = 240  # the first race on a machine compiles its engine
# one session, two pages: the page the session says, as st.navigation switches them
SCRIPT = """
import streamlit as st
from trackkit.app.home_page import page_function
page_function(st.session_state.get("showing", "snow-race"))()
"""


def page(name: str) -> AppTest:
    return AppTest.from_string(
        f"from trackkit.app.home_page import page_function\npage_function({name!r})()\n",
        default_timeout=TIMEOUT,
    )


def sheet_buttons(at: AppTest) -> list[str]:
    return [d.proto.label for d in at.get("download_button") if d.proto.label == LABEL]


def test_the_yummell_design_page_offers_the_build_sheet_of_a_track_it_holds() -> None:
    at = page("design").run()
    assert not at.exception and sheet_buttons(at) == []  # an empty table has no sheet
    at = page("design")
    at.query_params["track"] = encode_track(load_preset("king-of-toads"))
    at.run()
    assert not at.exception and sheet_buttons(at) == [LABEL]
    (sheet,) = [d for d in at.get("download_button") if d.proto.label == LABEL]
    assert sheet.proto.deferred_file_id  # made only when pressed
    assert any("Build sheet: not profiled" in c.value for c in at.caption)


def test_the_snow_tails_design_page_offers_the_build_sheet() -> None:
    at = page("snow-design").run()
    assert not at.exception and sheet_buttons(at) == [LABEL]
    assert any("Build sheet: not profiled" in c.value for c in at.caption)


@pytest.mark.slow  # a profile and a sheet: about 1.1 s (the quick loop's budget)
def test_the_race_pages_verdict_goes_on_the_design_pages_sheet() -> None:
    at = AppTest.from_string(SCRIPT, default_timeout=TIMEOUT)
    at.session_state.snow_history = EditHistory.of(load_snow("chicane"))
    at.run()
    at.number_input(key="snow-race-races").set_value(300)
    at.slider(key="snow-players").set_value(3)
    next(b for b in at.button if b.label == "Run races").click().run()
    assert not at.exception
    (remembered,) = at.session_state[PROFILES].values()
    assert remembered.what == "3 sleds, 300 races, seed 0"
    assert remembered.verdict.startswith("A race of 3 sleds on Chicane lasts")
    at.session_state["showing"] = "snow-design"
    at.run()
    assert not at.exception and sheet_buttons(at) == [LABEL]
    said = "Build sheet: with the verdict of its last profile (3 sleds, 300 races, seed 0)."
    assert said in [c.value for c in at.caption]
