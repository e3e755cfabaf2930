"""Widgets every page shares: settings kept across page switches, and the player count of
a game (one count for all its pages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trackkit.app.common import PLAYERS_KEY
from trackkit.games.base import get_ruleset
from trackkit.games.face import look_of


def kept(widget: Callable[..., Any], label: str, key: str, default: Any, **options: Any) -> Any:
    """``widget(label, key=key, **options)`` showing the value last chosen in this session.

    Streamlit forgets a widget's value when its page is not shown; the value is also kept
    under ``kept:<key>`` and given back when the widget is drawn again. It is given as the
    widget's own starting value (``value``, ``index``, ``default``), on every run, never put
    into the session state: a widget the browser draws afresh during a rerun starts from
    its starting value, and with none given Streamlit's is the slider's minimum, an
    unticked box, the first option (the player count once jumped to 1 so, and the building
    rule was once unticked).
    """
    store = f"kept:{key}"
    current = st.session_state.get(key, st.session_state.get(store, default))
    value = widget(label, key=key, **_starting(widget, current, options))
    st.session_state[store] = value
    return value


def _starting(widget: Callable[..., Any], current: Any, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with ``current`` as the widget's starting value, by its kind."""
    kind = getattr(widget, "__name__", "")
    if kind in ("selectbox", "radio"):
        choices = list(options.get("options", ()))
        return {**options, "index": choices.index(current)} if current in choices else options
    if kind == "multiselect":
        choices = list(options.get("options", ()))
        picked = [c for c in (current or ()) if c in choices]
        return {**options, "default": picked}
    return {**options, "value": current}


def players_slider(column: Any, game: str | None = None, default: int = 5) -> int:
    """How many players race: a slider over the game's race bounds, one count per game
    shared by its pages (Yummell's also kept in the address: a count chosen on one page
    holds on the others)."""
    ruleset = get_ruleset(game)
    look = look_of(game)
    bounds = ruleset.players
    return int(
        kept(
            column.slider,
            look.racers,
            f"{look.address}{PLAYERS_KEY}",
            min(max(default, bounds.race_min), bounds.race_max),
            min_value=bounds.race_min,
            max_value=bounds.race_max,
            help=look.players_help or None,
        )
    )
