"""Snow Tails' Compare page: what it adds to the shared page
(:mod:`trackkit.app.compare_page`): its table's columns in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from trackkit.app.compare_page import CompareView, labels, length_figure
from trackkit.app.games.snowtails.common import RECONSTRUCTED
from trackkit.app.glossary import column_help
from trackkit.app.runs import check_profile_cost, reference_races
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.track import SnowTrack
from trackkit.games.snowtails.face.texts import SnowFigures, compare_tracks
from trackkit.report.orderings import orderings, orderings_text


def _show(rows: list[SnowFigures], races: int) -> None:
    told = labels([r.name for r in rows], [r.key for r in rows])
    for line in orderings_text(orderings({r.name: r.paired for r in rows})):
        st.markdown(line)
    table = [
        {
            "#": r.rank,
            "Track": label,
            "Rounds": round(r.mean_rounds, 2),
            "95% interval": f"{r.ci95[0]:.2f} – {r.ci95[1]:.2f}",
            "Steps to the line": r.steps_to_finish,
            "Collision cards / race": round(r.collisions, 2),
            "Trees hit / race": round(r.trees_hit, 2),
            "Unfairness (points)": round(r.unfairness, 1),
            "Unfairness, 95%": f"{r.unfairness_low:.1f} – {r.unfairness_high:.1f}",
            "Start-slot spread (points)": round(100 * r.slot_spread, 1),
            "Spread, 95%": f"{100 * r.slot_spread_low:.1f} – {100 * r.slot_spread_high:.1f}",
            "Decided in the last round": f"{100 * r.last_round:.1f}%",
            "Skill (points)": round(r.skill, 1),
            "Skill, 95%": f"{r.skill_low:+.1f} – {r.skill_high:+.1f}",
        }
        for r, label in zip(rows, told, strict=True)
    ]
    st.dataframe(table, hide_index=True, column_config=column_help(table))
    st.caption(
        "Unfairness: how far a sled's chance of winning is moved from fair by its start slot, "
        "in points (root mean square over the slots, each slot's noise taken out). "
        "Start-slot spread: the best start slot's win rate minus the worst's (0 is fair), its "
        "interval from simultaneous intervals of the slots. A track is said fairer or shorter "
        "than another only beyond noise (Holm-corrected); otherwise tied. Collisions and "
        "trees: all sleds together. Skill: a smart musher's win rate minus a greedy one's, "
        "each raced against the other at mixed tables."
    )
    figure = length_figure(
        [r.name for r in rows],
        [r.key for r in rows],
        [r.mean_rounds for r in rows],
        [r.ci95 for r in rows],
    )
    st.plotly_chart(figure, width="stretch")


def _check(tracks: Mapping[str, SnowTrack], options: RaceOptions, races: int) -> None:
    """Each track's races and its average track's (the demo boards), within the app's limit."""
    for track in tracks.values():
        check_profile_cost(track, options, races, reference_races(races))


def _run(
    tracks: Mapping[str, SnowTrack], options: RaceOptions, races: int, seed: int, progress: Any
) -> list[SnowFigures]:
    return compare_tracks(
        dict(tracks),
        options,
        races=races,
        seed=seed,
        reference_races=reference_races(races),
        progress=progress,
    )


VIEW = CompareView(caption=RECONSTRUCTED, check=_check, run=_run, show=_show)
"""The hooks of Snow Tails' Compare page."""
