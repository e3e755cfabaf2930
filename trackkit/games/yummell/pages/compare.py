"""Compare: the presets and the design being edited, side by side: how long and how fair,
each figure with its interval or exact."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from trackkit.app.choices import kept, players_slider
from trackkit.app.fairness import interval_bars
from trackkit.app.glossary import column_help
from trackkit.app.runs import REFERENCE_RACES, check_profile_cost, reference_races
from trackkit.errors import TrackkitError
from trackkit.explore.profile import profile_options
from trackkit.games.yummell.face.compare import Solved, TrackFigures
from trackkit.games.yummell.face.compare_cache import SolvedKey, compare_tracks_kept
from trackkit.games.yummell.pages.choices import current_design, wait_for_engine, warn_if_illegal
from trackkit.games.yummell.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.ruleset import RULESET as YUMMELL

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
def _solved() -> dict[SolvedKey, Solved]:
    """Exact solo figures and static figures, kept across seeds, races and player counts."""
    return {}


def _label(key: str) -> str:
    return "Your design (Design page)" if key == YOURS else load_preset(key).name


def page() -> None:
    st.title("Compare tracks")
    st.caption(
        "Every track is raced with the same seed, so race 1 deals, shuffles and orders "
        "alike on each (common random numbers), with the start paths dealt in turn. "
        "Simulated length and balance come with their 95% interval; balance is measured "
        "against an average track (30 tracks drawn once from the space, raced alike). Exact: "
        "one racer alone, "
        "infinite deck, greedy (an exact Markov chain), solved once per track."
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
    players = players_slider(left)
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
    warn_if_illegal(list(tracks.values()), players)
    key = (tuple((k, t.to_toml()) for k, t in tracks.items()), players, int(races), int(seed))
    cache = _runs()
    options = profile_options(YUMMELL, players)
    reference = reference_races(int(races))
    if st.button("Compare", type="primary") or key in cache:
        if key not in cache:
            try:  # each track's races and its average track's: within the limit
                for track in tracks.values():
                    check_profile_cost(track, options, int(races), reference)
            except TrackkitError as error:
                st.error(str(error))
                return
            wait_for_engine()
            while len(cache) >= KEEP_RUNS:
                cache.pop(next(iter(cache)))
            solved = _solved()
            while len(solved) >= KEEP_SOLVED:
                solved.pop(next(iter(solved)))
            bar = st.progress(0.0, text="Solving and racing…")
            try:
                cache[key] = compare_tracks_kept(
                    tracks,
                    options,
                    solved,
                    races=int(races),
                    seed=int(seed),
                    reference_races=reference,
                    progress=lambda done, total: bar.progress(
                        done / total, text=f"{done} of {total} tracks"
                    ),
                )
            except TrackkitError as error:
                st.error(str(error))
                return
            finally:
                bar.empty()
        _show(cache[key])
        st.caption(
            f"The average track: each of its tracks raced {reference:,} times with the same "
            f"options and seed (the app races at most {REFERENCE_RACES:,} of each)."
        )


def _show(rows: list[TrackFigures]) -> None:
    def name(row: TrackFigures) -> str:
        return f"★ {row.name} (your design)" if row.key == YOURS else row.name

    table = pd.DataFrame([_row(r, name(r)) for r in rows])
    yours = [r.key == YOURS for r in rows]
    st.dataframe(
        table.style.format({c: "{:.2f}" for c in ROUNDS_COLUMNS} | {"Balance": "{:.3f}"}).apply(
            lambda row: [f"background-color: {YOUR_ROW}" if yours[row.name] else ""] * len(row),
            axis=1,
        ),
        hide_index=True,
        column_config=column_help(table),
    )
    st.plotly_chart(compare_figure(rows, [name(r) for r in rows]), width="stretch")
    low = _balance_axis(rows)[0]
    st.caption(
        "Bars: simulated length and balance, each with its 95% interval; dots: the exact "
        f"solo length. The balance axis starts at {low:.2f}, not 0, to show the differences."
    )


ROUNDS_COLUMNS = (
    "Exact solo (rounds)",
    "Simulated (rounds)",
    "MP per square",
    "Start path spread (exact rounds)",
    "Character spread (exact rounds)",
)


def _row(r: TrackFigures, name: str) -> dict[str, Any]:
    """A track's line of the table, its intervals beside its figures."""
    return {
        "Rank": r.rank,
        "Track": name,
        "Exact solo (rounds)": r.exact_solo_rounds,
        "Simulated (rounds)": r.mean_rounds,
        "95% interval": f"{r.ci95[0]:.2f} – {r.ci95[1]:.2f}",
        "Balance": r.balance,
        "Balance, 95%": f"{r.balance_low:.3f} – {r.balance_high:.3f}",
        "Most-moved character": r.tilted_character,
        "Its win rate, here minus average": f"{100 * r.tilted_difference:+.1f} points",
        "Tilt, 95%": f"{100 * r.character_tilt_low:.1f} – {100 * r.character_tilt_high:.1f}",
        "Start path spread (exact rounds)": r.path_spread,
        "Character spread (exact rounds)": r.character_rounds_spread,
        "MP per square": r.mp_per_square,
        **{t.capitalize(): f"{100 * share:.0f}%" for t, share in r.terrain_mix.items()},
    }


def _balance_axis(rows: list[TrackFigures]) -> tuple[float, float]:
    """The balance axis: from a little under the lowest interval to 1."""
    low = min(r.balance_low for r in rows)
    return max(0.0, round(low - 0.02, 2)), 1.0


def compare_figure(rows: list[TrackFigures], names: list[str]) -> go.Figure:
    """One bar per track for its simulated length and one for its balance, each with its
    95% interval; the exact solo length as a dot; the design being edited in its own
    colour."""
    colours = [YOUR_BAR if r.key == YOURS else BAR for r in rows]
    figure = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        subplot_titles=("Race length, longest first", "Balance (1: like an average track)"),
    )
    figure.add_trace(
        go.Bar(
            y=names,
            x=[r.mean_rounds for r in rows],
            orientation="h",
            name="simulated length (95% interval)",
            marker_color=colours,
            error_x=interval_bars(
                [r.mean_rounds for r in rows], [r.ci95[0] for r in rows], [r.ci95[1] for r in rows]
            ),
        ),
        row=1,
        col=1,
    )
    figure.add_trace(
        go.Scatter(
            y=names,
            x=[r.exact_solo_rounds for r in rows],
            mode="markers",
            name="exact solo length",
            marker=dict(size=12, color="#2c3e50"),
        ),
        row=1,
        col=1,
    )
    figure.add_trace(
        go.Bar(
            y=names,
            x=[r.balance for r in rows],
            orientation="h",
            name="balance (95% interval)",
            marker_color=colours,
            opacity=0.8,
            error_x=interval_bars(
                [r.balance for r in rows],
                [r.balance_low for r in rows],
                [r.balance_high for r in rows],
            ),
        ),
        row=1,
        col=2,
    )
    figure.update_xaxes(title_text="rounds", row=1, col=1)
    figure.update_xaxes(title_text="balance", range=list(_balance_axis(rows)), row=1, col=2)
    figure.update_yaxes(autorange="reversed")
    figure.update_layout(
        height=max(360, 170 + 45 * len(rows)),
        legend=dict(orientation="h", yanchor="bottom", y=1.12, x=0),
        margin=dict(t=110),
    )
    return figure
