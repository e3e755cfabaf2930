"""The Compare page's "Under every reading": the tracks compared under every combination
of the readings (and policies) a user picks, and what holds under all of them
(:mod:`trackkit.explore.robust`). Knows no game: the readings are the face's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.choices import kept
from trackkit.errors import TrackkitError
from trackkit.explore.fairness import reference_tracks
from trackkit.explore.profile import ProfileSettings
from trackkit.explore.robust import RobustRun, product_of, run_robust, verdicts
from trackkit.games import readings as game_readings
from trackkit.games.base import get_ruleset
from trackkit.games.readings import POLICY, readings_of, varied_policies
from trackkit.limits import ROBUST_RACES
from trackkit.report.robust import HEADINGS, combinations_text, varied_text, verdict_range

KEEP = 4


@st.cache_resource
def _runs() -> dict[tuple[Any, ...], tuple[RobustRun, list[Any]]]:
    return {}


def robust_section(game: str, tracks: Mapping[str, Any], players: int, seed: int, key: str) -> None:
    """The section: what to vary, the cost, the button, and the verdicts."""
    readings, ruleset = readings_of(game), get_ruleset(game)
    policy = [POLICY] if len(varied_policies(ruleset.name)) > 1 else []
    # the readings of the text and the policy, varied unless unpicked; the what-ifs apart,
    # after them, varied only when picked
    usual = [r.name for r in readings if not r.what_if] + policy
    names = usual + [r.name for r in readings if r.what_if]
    if not names:
        return
    titles = {
        r.name: f"{'What-if — ' if r.what_if else ''}{r.option.title}: {r.question}"
        for r in readings
    }
    titles[POLICY] = (
        "Policy: how the racers play (" + ", ".join(varied_policies(ruleset.name)) + ")"
    )
    with st.expander("Under every reading: which conclusions hold whatever the unclear rules say"):
        st.caption(
            "The rulebook leaves some rules open, and some of the game's values are "
            "reconstructed. Here every chosen track is raced under every combination of the "
            "readings you pick, with the same seed, and the verdicts say what holds under all "
            "of them, what depends on one, and what cannot be told apart. The Glossary and the "
            "docs' Readings page list each reading with its rulebook passage."
        )
        if len(names) > len(usual):
            st.caption(
                "What-ifs, listed last, are not readings of the text but questions a designer "
                "may ask (what if the rule were otherwise?) or a model a tool needs; they are "
                "varied only when you pick them."
            )
        picked = kept(
            st.multiselect,
            "Vary",
            f"{key}-robust-vary",
            usual,
            options=names,
            format_func=titles.get,
        )
        races = kept(
            st.number_input,
            "Races per track and combination",
            f"{key}-robust-races",
            500,
            min_value=100,
            max_value=5_000,
            step=100,
        )
        if not picked:
            st.info("Pick at least one reading to vary.")
            return
        varies = game_readings.varied(game, list(picked))
        combinations = game_readings.combinations(varies)
        raced = len(tracks) + len(reference_tracks(ruleset, players))
        cost = combinations * raced * int(races)
        st.caption(
            f"{combinations} combinations × {raced} tracks (yours and the average track's) × "
            f"{int(races):,} races = {cost:,} races"
        )
        run_key = (game, tuple(tracks), tuple(picked), players, int(races), seed)
        runs = _runs()
        if run_key not in runs:
            if not st.button("Compare under the readings", key=f"{key}-robust-run"):
                return
            if not ROBUST_RACES.allows(cost):
                st.error(
                    f"This would race {cost:,} races; the app's limit is "
                    f"{ROBUST_RACES.value():,}: {ROBUST_RACES.fix}."
                )
                return
            found = _run(game, tracks, players, varies, int(races), seed)
            if found is None:
                return
            while len(runs) >= KEEP:
                runs.pop(next(iter(runs)))
            runs[run_key] = found
        _show(*runs[run_key])


def _run(
    game: str,
    tracks: Mapping[str, Any],
    players: int,
    varies: Any,
    races: int,
    seed: int,
) -> tuple[RobustRun, list[Any]] | None:
    bar = st.progress(0.0, text="Racing under every reading…")

    def progress(done: int, total: int) -> None:
        bar.progress(done / total, text=f"{done} of {total} profiles")

    try:
        chosen = dict(get_ruleset(game).profile_choices)
        run = run_robust(
            tracks,
            game,
            variants=product_of(varies),
            options_for=game_readings.options_for(game, players, None, None, chosen),
            settings=ProfileSettings(races=races, seed=seed),
            words=game_readings.value_words(game),
            named=game_readings.reading_phrases(game),
            progress=progress,
        )
    except TrackkitError as error:
        st.error(str(error))
        return None
    finally:
        bar.empty()
    return run, verdicts(run)


def _show(run: RobustRun, found: list[Any]) -> None:
    st.markdown(f"**Varied:** {varied_text(run)} — {combinations_text(run)}")
    for kind, heading in HEADINGS.items():
        chosen = [v for v in found if v.kind == kind]
        if not chosen:
            continue
        st.markdown(f"**{heading}** ({len(chosen)})")
        if kind == "unclear":
            st.caption("; ".join(v.text for v in chosen))
            continue
        st.markdown("\n".join(f"- {v.text} ({verdict_range(v, run.names)})" for v in chosen))
    st.plotly_chart(length_by_variant(run), width="stretch")


def length_by_variant(run: RobustRun) -> Any:
    """Each track's mean rounds with its 95% interval under each combination: one line of
    dots per track, so a crossing shows a conclusion that depends on the reading."""
    labels = [variant.label(run.words) for variant in run.variants]
    figure = go.Figure()
    for track in run.tracks:
        rows = [by_track[track] for by_track in run.values]
        means = [row["rounds_mean"] for row in rows]
        figure.add_trace(
            go.Scatter(
                x=labels,
                y=means,
                mode="markers+lines",
                name=run.names[track],
                error_y=dict(
                    type="data",
                    array=[row["rounds_mean_high"] - m for row, m in zip(rows, means, strict=True)],
                    arrayminus=[
                        m - row["rounds_mean_low"] for row, m in zip(rows, means, strict=True)
                    ],
                ),
            )
        )
    figure.update_layout(
        title="Expected race length (rounds) under each combination of readings",
        height=420,
        xaxis=dict(tickangle=-30),
    )
    return figure
