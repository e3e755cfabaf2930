"""Compare: the six presets and the current design side by side."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.common import design, tiles
from trackkit.presets import PRESET_SLUGS, load_preset
from trackkit.race.compare import TrackFigures, compare_tracks
from trackkit.race.setup import RaceOptions
from trackkit.validate import validate


@st.cache_resource
def _runs() -> dict[tuple[Any, ...], list[TrackFigures]]:
    return {}


def page() -> None:
    st.title("Compare tracks")
    st.caption(
        "Exact solo length: one character dealt at random, infinite deck, greedy "
        "(an exact Markov chain). Simulated: the races below, with a 95% interval."
    )
    left, right = st.columns(2)
    players = left.slider("Players", 1, 8, 5, key="compare-players")
    races = right.number_input("Races per track", 500, 20_000, 2_000, step=500)
    seed = right.number_input("Seed", 0, value=0, key="compare-seed")
    tracks = {slug: load_preset(slug) for slug in PRESET_SLUGS}
    current = design().track
    if current.placements and validate(current, tiles()).ok:
        tracks["current design"] = current
    key = (tuple(t.to_toml() for t in tracks.values()), players, int(races), int(seed))
    cache = _runs()
    if st.button("Compare", type="primary") or key in cache:
        if key not in cache:
            while len(cache) >= 8:
                cache.pop(next(iter(cache)))
            bar = st.progress(0.0, text="Solving and racing…")
            cache[key] = compare_tracks(
                tracks,
                RaceOptions(players=players),
                races=int(races),
                seed=int(seed),
                progress=lambda done, total: bar.progress(
                    done / total, text=f"{done} of {total} tracks"
                ),
            )
            bar.empty()
        rows = cache[key]
        st.dataframe(
            [
                {
                    "rank": r.rank,
                    "track": r.name,
                    "exact solo (rounds)": round(r.exact_solo_rounds, 2),
                    "simulated (rounds)": round(r.mean_rounds, 2),
                    "95% interval": f"{r.ci95[0]:.2f} – {r.ci95[1]:.2f}",
                    "MP per square": round(r.mp_per_square, 2),
                    **{t: f"{100 * share:.0f}%" for t, share in r.terrain_mix.items()},
                }
                for r in rows
            ],
            hide_index=True,
        )
        figure = go.Figure()
        figure.add_trace(
            go.Bar(
                y=[r.name for r in rows],
                x=[r.mean_rounds for r in rows],
                orientation="h",
                name="simulated",
                error_x=dict(type="data", array=[r.ci95[1] - r.mean_rounds for r in rows]),
            )
        )
        figure.add_trace(
            go.Scatter(
                y=[r.name for r in rows],
                x=[r.exact_solo_rounds for r in rows],
                mode="markers",
                name="exact solo",
                marker=dict(size=12),
            )
        )
        figure.update_layout(
            title="Race length, longest first",
            xaxis_title="rounds",
            yaxis=dict(autorange="reversed"),
            height=420,
        )
        st.plotly_chart(figure, width="stretch")
