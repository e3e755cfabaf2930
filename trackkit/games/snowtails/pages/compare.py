"""Snow Tails compare: the demo boards and the design being edited, side by side."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.games.snowtails.face.texts import SnowFigures, compare_tracks
from trackkit.games.snowtails.pages.common import GAME_TITLE, RECONSTRUCTED, history
from trackkit.games.snowtails.presets import PRESET_SLUGS, load_preset
from trackkit.games.snowtails.race import RaceOptions
from trackkit.games.snowtails.ruleset import PLAYERS
from trackkit.games.snowtails.validation import validate_track

YOURS = "current design"
KEEP_RUNS = 8
BAR = "#7f8c8d"
YOUR_BAR = "#c0392b"


@st.cache_resource
def _runs() -> dict[tuple[Any, ...], list[SnowFigures]]:
    return {}


def page() -> None:
    st.title(f"Compare {GAME_TITLE} tracks")
    st.caption(RECONSTRUCTED)
    design = history().track
    valid = validate_track(design).ok
    choices = [*PRESET_SLUGS, *([YOURS] if valid else [])]
    chosen = st.multiselect(
        "Tracks",
        choices,
        default=choices,
        format_func=lambda k: "Your design (Design page)" if k == YOURS else load_preset(k).name,
        key="snow-compare-tracks",
    )
    if not valid:
        st.caption("Your design breaks a rule, so it is not offered: see the Design page.")
    left, middle, right = st.columns(3)
    players = int(
        left.slider("Sleds", PLAYERS.race_min, PLAYERS.race_max, 5, key="snow-compare-players")
    )
    races = int(
        middle.number_input(
            "Races per track", 200, 20_000, 2_000, step=500, key="snow-compare-races"
        )
    )
    seed = int(right.number_input("Seed", min_value=0, value=0, key="snow-compare-seed"))
    if not chosen:
        st.info("Choose at least one track.")
        return
    tracks = {k: design if k == YOURS else load_preset(k) for k in chosen}
    key = (tuple(t.to_toml() for t in tracks.values()), players, races, seed)
    runs = _runs()
    if st.button("Compare", type="primary", key="snow-compare-run") or key in runs:
        if key not in runs:
            while len(runs) >= KEEP_RUNS:
                runs.pop(next(iter(runs)))
            bar = st.progress(0.0, text="Racing…")
            runs[key] = compare_tracks(
                tracks,
                RaceOptions(players=players),
                races=races,
                seed=seed,
                progress=lambda done, total: bar.progress(
                    done / total, text=f"{done} of {total} tracks"
                ),
            )
            bar.empty()
        _show(runs[key])


def labels(rows: list[SnowFigures]) -> list[str]:
    """One name per row, told apart: the design is "(yours)", and two tracks of one name
    are numbered, so a chart gives each its own bar."""
    names = [r.name + (" (yours)" if r.key == YOURS else "") for r in rows]
    seen: dict[str, int] = {}
    told = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        told.append(name if names.count(name) == 1 else f"{name} ({seen[name]})")
    return told


def length_figure(rows: list[SnowFigures]) -> go.Figure:
    """Each track's expected length with its 95% interval: one bar per track."""
    figure = go.Figure(
        go.Bar(
            x=[r.mean_rounds for r in rows],
            y=labels(rows),
            orientation="h",
            marker_color=[YOUR_BAR if r.key == YOURS else BAR for r in rows],
            error_x=dict(
                type="data",
                array=[r.ci95[1] - r.mean_rounds for r in rows],
                arrayminus=[r.mean_rounds - r.ci95[0] for r in rows],
            ),
        )
    )
    figure.update_layout(
        title="Expected race length (rounds)",
        height=120 + 40 * len(rows),
        yaxis=dict(autorange="reversed"),
    )
    return figure


def _show(rows: list[SnowFigures]) -> None:
    st.dataframe(
        [
            {
                "#": r.rank,
                "Track": label,
                "Rounds": round(r.mean_rounds, 2),
                "95% interval": f"{r.ci95[0]:.2f} – {r.ci95[1]:.2f}",
                "Steps to the line": r.steps_to_finish,
                "Collision cards / race": round(r.collisions, 2),
                "Trees hit / race": round(r.trees_hit, 2),
                "Start-slot spread": f"{100 * r.slot_spread:.1f}%",
                "Decided in the last round": f"{100 * r.last_round:.1f}%",
            }
            for r, label in zip(rows, labels(rows), strict=True)
        ],
        hide_index=True,
    )
    st.caption(
        "Start-slot spread: the best start slot's win rate minus the worst's (0 is fair). "
        "Collisions and trees: all sleds together."
    )
    figure = length_figure(rows)
    st.plotly_chart(figure, width="stretch")
