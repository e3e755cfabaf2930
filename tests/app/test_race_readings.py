"""Every reading of every game is a widget of its Race page, and the value picked there is
the one the race options are built with (AppTest, no browser)."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from trackkit.games import rulesets
from trackkit.games.face import get_face, look_of
from trackkit.games.readings import readings_of

TIMEOUT = 900


def _cases() -> list[tuple[str, str]]:
    return [(game, r.name) for game in rulesets() for r in readings_of(game)]


@pytest.mark.parametrize(("game", "name"), _cases())
def test_a_reading_picked_on_the_race_page_reaches_the_race_options(
    game: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    face = get_face(game)
    reading = next(r for r in readings_of(game) if r.name == name)
    seen: list[dict[str, Any]] = []
    build = type(face).race_options

    def watched(self: Any, players: int, policies: Any, content: Any, chosen: Any) -> Any:
        seen.append(dict(chosen))
        return build(self, players, policies, content, chosen)

    monkeypatch.setattr(type(face), "race_options", watched)
    prefix = f"{look_of(game).address}race"
    page = "race" if not look_of(game).address else f"{look_of(game).address}race"
    at = AppTest.from_string(
        f"from trackkit.app.home_page import page_function\npage_function({page!r})()\n",
        default_timeout=TIMEOUT,
    ).run()
    key = f"{prefix}-{name.replace('_', '-')}"
    other = reading.values[1]
    if reading.option.kind == "switch":
        at.checkbox(key=key).set_value(other).run()
    else:
        at.selectbox(key=key).set_value(other).run()
    assert not at.exception
    assert seen and seen[-1][name] == other
