"""The Explore page's table: the tracks its filters leave, one row each with its figures,
sorted by a click on a column's heading; a row picked opens its track as a dot does."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.app.explore_map import DEFAULT_AXES, widget_key


def tracks_table(
    frame: Any, titles: dict[str, str], game: str, first: tuple[str, ...] = DEFAULT_AXES[:2]
) -> int | None:
    """The rows of ``frame`` as a sortable table, its figures under their ``titles`` (the
    map's axes, ``first``, before every other), on ``game``'s page; the rank of a track
    just picked in it (None when the pick did not change)."""
    keys = [k for k in (*first, *titles) if k in frame.columns and k in titles]
    keys = list(dict.fromkeys(keys))
    table = frame[["rank", *keys]].rename(columns={"rank": "Track #", **titles})
    event = st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        on_select="rerun",
        selection_mode="single-row",
        key=widget_key(game, "table"),
        column_config={"Track #": st.column_config.NumberColumn(format="%d")},
    )
    st.caption("Click a heading to sort by it; pick a row to see its track.")
    rows = list(event.selection.rows) if event is not None else []
    picked = widget_key(game, "table-picked")  # the row last picked, told from a new pick
    if rows == st.session_state.get(picked, []):
        return None  # a map click since must not be undone by the table's old pick
    st.session_state[picked] = rows
    return int(frame.iloc[rows[0]]["rank"]) if rows else None
