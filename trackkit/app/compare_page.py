"""Compare: the presets and the design being edited, side by side."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from trackkit.app.choices import current_design, kept, players_slider, wait_for_engine
from trackkit.games.yummell.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.setup import RaceOptions
from trackkit.report.compare import TrackFigures
from trackkit.report.compare_cache import SolvedKey, compare_tracks_kept

YOURS = "current design"  # the key of the design being edited among the tracks
KEEP_RUNS = 8
KEEP_SOLVED = 64
BAR = "#7f8c8d"
YOUR_BAR = "#c0392b"
YOUR_ROW = "rgba(192, 57, 43, 0.15)"


@st.cache_resource
def _runs() -> dict[tuple[Any, ...], list[TrackFigures]]:
    return {}


@st.cache_resource
def _solved() -> dict[SolvedKey, TrackFigures]:
    """Exact solo lengths and static figures, kept across seeds, races and player counts."""
    return {}


def _label(key: str) -> str:
    return "Your design (Design page)" if key == YOURS else load_preset(key).name


def page() -> None:
    st.title("Compare tracks")
    st.caption(
        "Exact solo length: one character dealt at random, infinite deck, greedy "
        "(an exact Markov chain), solved once per track. Simulated: the races below, "
        "with a 95% interval."
    )
    mine, why_not = current_design()
    choices = [*PRESET_SLUGS, *([YOURS] if mine is not None else [])]
    earlier = st.session_state.get("compare-tracks", st.session_state.get("kept:compare-tracks"))
    if earlier is not None:
        # a design that stopped being valid leaves the choice; one just completed joins it
        earlier = [k for k in earlier if k in choices]
        if mine is not None and not st.session_state.get("compare-offered-design"):
            earlier.append(YOURS)
        st.session_state["compare-tracks"] = earlier
    st.session_state["compare-offered-design"] = mine is not None
    chosen = kept(
        st.multiselect,
        "Tracks",
        "compare-tracks",
        choices,
        options=choices,
        format_func=_label,
    )
    if mine is None:
        st.caption(f"Your design is not among them: {why_not}.")
    left, right = st.columns(2)
    players = players_slider(left, "compare-players")
    races = kept(
        right.number_input,
        "Races per track",
        "compare-races",
        2_000,
        min_value=500,
        max_value=20_000,
        step=500,
    )
    seed = kept(right.number_input, "Seed", "compare-seed", 0, min_value=0, step=1)
    if not chosen:
        st.info("Choose at least one track.")
        return
    tracks = {key: mine if key == YOURS else load_preset(key) for key in chosen}
    key = (tuple((k, t.to_toml()) for k, t in tracks.items()), players, int(races), int(seed))
    cache = _runs()
    if st.button("Compare", type="primary") or key in cache:
        if key not in cache:
            wait_for_engine()
            while len(cache) >= KEEP_RUNS:
                cache.pop(next(iter(cache)))
            solved = _solved()
            while len(solved) >= KEEP_SOLVED:
                solved.pop(next(iter(solved)))
            bar = st.progress(0.0, text="Solving and racing…")
            cache[key] = compare_tracks_kept(
                tracks,
                RaceOptions(players=players),
                solved,
                races=int(races),
                seed=int(seed),
                progress=lambda done, total: bar.progress(
                    done / total, text=f"{done} of {total} tracks"
                ),
            )
            bar.empty()
        _show(cache[key])


def _show(rows: list[TrackFigures]) -> None:
    def name(row: TrackFigures) -> str:
        return f"★ {row.name} (your design)" if row.key == YOURS else row.name

    table = pd.DataFrame(
        [
            {
                "Rank": r.rank,
                "Track": name(r),
                "Exact solo (rounds)": r.exact_solo_rounds,
                "Simulated (rounds)": r.mean_rounds,
                "95% interval": f"{r.ci95[0]:.2f} – {r.ci95[1]:.2f}",
                "MP per square": r.mp_per_square,
                **{t.capitalize(): f"{100 * share:.0f}%" for t, share in r.terrain_mix.items()},
            }
            for r in rows
        ]
    )
    yours = [r.key == YOURS for r in rows]
    st.dataframe(
        table.style.format(
            {c: "{:.2f}" for c in ("Exact solo (rounds)", "Simulated (rounds)", "MP per square")}
        ).apply(
            lambda row: [f"background-color: {YOUR_ROW}" if yours[row.name] else ""] * len(row),
            axis=1,
        ),
        hide_index=True,
    )
    figure = go.Figure()
    figure.add_trace(
        go.Bar(
            y=[name(r) for r in rows],
            x=[r.mean_rounds for r in rows],
            orientation="h",
            name="simulated",
            marker_color=[YOUR_BAR if r.key == YOURS else BAR for r in rows],
            error_x=dict(type="data", array=[r.ci95[1] - r.mean_rounds for r in rows]),
        )
    )
    figure.add_trace(
        go.Scatter(
            y=[name(r) for r in rows],
            x=[r.exact_solo_rounds for r in rows],
            mode="markers",
            name="exact solo",
            marker=dict(size=12, color="#2c3e50"),
        )
    )
    figure.update_layout(
        title="Race length, longest first",
        xaxis_title="rounds",
        yaxis=dict(autorange="reversed"),
        height=max(300, 120 + 45 * len(rows)),
    )
    st.plotly_chart(figure, width="stretch")
