"""The Compare page's "Under every reading" section, driven with AppTest (no browser)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from trackkit.games.readings import varied_policies
from trackkit.limits import serve_app_limits

TIMEOUT = 900  # the first races may wait for the engine to compile


def compare(name: str) -> AppTest:
    return AppTest.from_string(
        f"from trackkit.app.home_page import page_function\npage_function({name!r})()\n",
        default_timeout=TIMEOUT,
    )


@pytest.mark.slow  # 0.9 s with the engines compiled (the quick loop's budget)
def test_the_tracks_are_compared_under_the_policies_and_the_verdicts_shown() -> None:
    at = compare("snow-compare").run()
    at.multiselect(key="snow-compare-tracks").set_value(["husky-oval", "long-trail"]).run()
    at.multiselect(key="snow-compare-robust-vary").set_value(["policy"])
    at.number_input(key="snow-compare-robust-races").set_value(200).run()
    n = len(varied_policies("snowtails"))  # the planner is not varied
    assert any(f"{n} combinations" in c.value for c in at.caption)
    next(b for b in at.button if b.label == "Compare under the readings").click().run()
    assert not at.exception
    said = "\n".join(m.value for m in at.markdown)
    assert "Holds under every combination" in said
    assert f"Husky oval is shorter than Long trail under all {n} combinations" in said
    assert "range of estimates across combinations" in said
    chart = json.loads(at.get("plotly_chart")[-1].proto.spec)
    assert {trace["name"] for trace in chart["data"]} == {"Husky oval", "Long trail"}
    assert all(len(trace["x"]) == n for trace in chart["data"])


def test_a_run_over_the_apps_limit_is_refused_before_any_race(monkeypatch) -> None:
    monkeypatch.setenv("TRACKKIT_APP_MAX_ROBUST_RACES", "1000")
    serve_app_limits(True)
    try:
        at = compare("snow-compare").run()
        at.multiselect(key="snow-compare-robust-vary").set_value(["policy"])
        at.number_input(key="snow-compare-robust-races").set_value(500).run()
        next(b for b in at.button if b.label == "Compare under the readings").click().run()
        assert not at.exception
        assert any("the app's limit is 1,000" in e.value for e in at.error)
    finally:
        serve_app_limits(False)


def test_the_what_ifs_are_offered_apart_and_not_varied_unless_picked() -> None:
    # issue 32 C1: Yummell's crowding at the end and infinite deck are what-ifs
    at = compare("compare").run()
    vary = at.multiselect(key="compare-robust-vary")
    said = [str(option) for option in vary.options]
    assert [o.startswith("What-if") for o in said] == [False] * (len(said) - 2) + [True] * 2
    assert "crowding" not in vary.value and "deck" not in vary.value
    assert "flutter_end" in vary.value and "policy" in vary.value
    assert any("What-ifs, listed last" in c.value for c in at.caption)
