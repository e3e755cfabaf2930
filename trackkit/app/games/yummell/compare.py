"""Yummell's Compare page: what it adds to the shared page (:mod:`trackkit.app.compare_page`):
each track profiled against an average track, its exact solo figures solved once and kept,
the building rule's warning, and its table and chart: how long and how fair, each figure
with its interval or exact."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from trackkit.app.compare_page import BAR, YOUR_BAR, YOURS, CompareView
from trackkit.app.fairness import interval_bars
from trackkit.app.games.yummell.choices import wait_for_engine, warn_if_illegal
from trackkit.app.glossary import column_help
from trackkit.app.runs import REFERENCE_RACES, check_profile_cost, reference_races
from trackkit.explore.profile import profile_options
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.ruleset import RULESET as YUMMELL
from trackkit.games.yummell.face.compare import Solved, TrackFigures, track_orderings
from trackkit.games.yummell.face.compare_cache import SolvedKey, compare_tracks_kept
from trackkit.report.orderings import orderings_text

KEEP_SOLVED = 64
YOUR_ROW = "rgba(192, 57, 43, 0.15)"


@st.cache_resource
def _solved() -> dict[SolvedKey, Solved]:
    """Exact solo figures and static figures, kept across seeds, races and player counts."""
    return {}


CAPTION = (
    "Every track is raced with the same seed, so race 1 deals, shuffles and orders alike on "
    "each (common random numbers), the racers choosing their start paths freely (the "
    "rulebook). Simulated length and unfairness come with their 95% interval; unfairness is "
    "how far the track moves a racer's chance of winning from fair, in points: its "
    "characters against an average track (30 tracks drawn once from the space, raced "
    "alike) and its start (the order of first moves) against the fair share. A track is "
    "said fairer or shorter than another only beyond noise (Holm-corrected); otherwise "
    "tied. Exact: one racer alone, infinite deck, greedy (an exact Markov chain), solved "
    "once per track."
)


def _options(players: int) -> RaceOptions:
    return profile_options(YUMMELL, players)


def _check(tracks: Mapping[str, Track], options: RaceOptions, races: int) -> None:
    """Each track's races and its average track's, within the app's limit."""
    for track in tracks.values():
        check_profile_cost(track, options, races, reference_races(races))


def _run(
    tracks: Mapping[str, Track], options: RaceOptions, races: int, seed: int, progress: Any
) -> list[TrackFigures]:
    """Every track profiled alike, its exact figures solved once (kept across runs)."""
    solved = _solved()
    while len(solved) >= KEEP_SOLVED:
        solved.pop(next(iter(solved)))
    return compare_tracks_kept(
        dict(tracks),
        options,
        solved,
        races=races,
        seed=seed,
        reference_races=reference_races(races),
        progress=progress,
    )


def _show(rows: list[TrackFigures], races: int) -> None:
    def name(row: TrackFigures) -> str:
        return f"★ {row.name} (your design)" if row.key == YOURS else row.name

    table = pd.DataFrame([_row(r, name(r)) for r in rows])
    yours = [r.key == YOURS for r in rows]
    for line in orderings_text(track_orderings(rows)):
        st.markdown(line)
    st.dataframe(
        table.style.format(
            {c: "{:.2f}" for c in ROUNDS_COLUMNS}
            | {"Unfairness": "{:.1f}", "Skill (points)": "{:+.1f}"}
        ).apply(
            lambda row: [f"background-color: {YOUR_ROW}" if yours[row.name] else ""] * len(row),
            axis=1,
        ),
        hide_index=True,
        column_config=column_help(table),
    )
    st.plotly_chart(compare_figure(rows, [name(r) for r in rows]), width="stretch")
    st.caption(
        "Bars: simulated length and unfairness, each with its 95% interval; dots: the exact "
        "solo length. Skill: a smart player's win rate minus a greedy one's, each raced "
        "against the other at mixed tables."
    )
    st.caption(
        f"The average track: each of its tracks raced {reference_races(races):,} times with "
        f"the same options and seed (the app races at most {REFERENCE_RACES:,} of each)."
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
        "Unfairness": r.unfairness,
        "Unfairness, 95%": f"{r.unfairness_low:.1f} – {r.unfairness_high:.1f}",
        "From the characters": f"{r.unfairness_character:.1f}",
        "From the start": f"{r.unfairness_start:.1f}",
        "Most-moved character": r.tilted_character,
        "Its win rate, here minus average": f"{100 * r.tilted_difference:+.1f} points",
        "Its move, 95%": f"{100 * r.tilted_low:+.1f} to {100 * r.tilted_high:+.1f}",
        "Skill (points)": r.skill,
        "Skill, 95%": f"{r.skill_low:+.1f} – {r.skill_high:+.1f}",
        "Start path spread (exact rounds)": r.path_spread,
        "Character spread (exact rounds)": r.character_rounds_spread,
        "MP per square": r.mp_per_square,
        **{t.capitalize(): f"{100 * share:.0f}%" for t, share in r.terrain_mix.items()},
    }


def compare_figure(rows: list[TrackFigures], names: list[str]) -> go.Figure:
    """One bar per track for its simulated length and one for its unfairness, each with its
    95% interval; the exact solo length as a dot; the design being edited in its own
    colour."""
    colours = [YOUR_BAR if r.key == YOURS else BAR for r in rows]
    figure = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        subplot_titles=("Race length, longest first", "Unfairness (points from fair; 0: fair)"),
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
            x=[r.unfairness for r in rows],
            orientation="h",
            name="unfairness (95% interval)",
            marker_color=colours,
            opacity=0.8,
            error_x=interval_bars(
                [r.unfairness for r in rows],
                [r.unfairness_low for r in rows],
                [r.unfairness_high for r in rows],
            ),
        ),
        row=1,
        col=2,
    )
    figure.update_xaxes(title_text="rounds", row=1, col=1)
    figure.update_xaxes(title_text="points", rangemode="tozero", row=1, col=2)
    figure.update_yaxes(autorange="reversed")
    figure.update_layout(
        height=max(360, 170 + 45 * len(rows)),
        legend=dict(orientation="h", yanchor="bottom", y=1.12, x=0),
        margin=dict(t=110),
    )
    return figure


VIEW = CompareView(
    title="Compare tracks",
    caption=CAPTION,
    options=_options,
    before=warn_if_illegal,
    check=_check,
    on_start=wait_for_engine,
    run=_run,
    show=_show,
)
"""The hooks of Yummell's Compare page."""
