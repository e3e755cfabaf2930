"""Race: simulate many races on a track, see how long and how fair they are, replay one."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.common import MAX_RACES, pick_track
from trackkit.errors import TrackkitError
from trackkit.race.content import load_content
from trackkit.race.montecarlo import SimulationResult, simulate
from trackkit.race.record import RaceRecord, record_race
from trackkit.race.setup import RaceOptions
from trackkit.render import track_figure
from trackkit.track import Track

KEEP_RUNS = 32


@st.cache_resource
def _results() -> dict[tuple[Any, ...], tuple[SimulationResult, RaceRecord]]:
    """Finished runs, keyed on the track's content, the options and the seed."""
    return {}


def page() -> None:
    st.title("Race")
    track = pick_track("race")
    content = load_content()
    left, right = st.columns(2)
    players = left.slider("Players", 1, 8, 5)
    policy = left.selectbox(
        "Policy",
        ["greedy", "smart"],
        help="greedy: SPEC §4's reference player; smart: a good player",
    )
    deck = left.selectbox("Deck", ["finite", "infinite"])
    encounters = left.checkbox("Encounters", value=True)
    races = right.number_input("Races", min_value=100, max_value=MAX_RACES, value=5_000, step=1_000)
    seed = right.number_input("Seed", min_value=0, value=0, step=1)
    characters = right.multiselect(
        f"Characters (pick {players}, or none to deal at random)",
        content.character_names,
        max_selections=players,
    )
    advantages = right.multiselect(
        f"Advantages (pick {players}, or none to deal at random)",
        content.advantage_names,
        max_selections=players,
    )
    if track is None:
        return
    try:
        options = RaceOptions(
            players=players,
            characters=tuple(characters),
            advantages=tuple(advantages),
            deck=deck,
            encounters=encounters,
            policy=policy,
            content=content,
        )
    except TrackkitError as error:
        st.info(str(error))
        return
    key = (
        track.to_toml(),
        players,
        tuple(characters),
        tuple(advantages),
        deck,
        encounters,
        policy,
        int(races),
        int(seed),
    )
    cache = _results()
    st.caption("The first race after installing compiles the race engine: about 100 s, once.")
    if st.button("Run races", type="primary") or key in cache:
        if key not in cache:
            while len(cache) >= KEEP_RUNS:  # the oldest run goes first
                cache.pop(next(iter(cache)))
            bar = st.progress(0.0, text="Racing…")
            try:
                result = simulate(
                    track,
                    options,
                    races=int(races),
                    seed=int(seed),
                    progress=lambda done, total: bar.progress(
                        done / total, text=f"{done:,} of {total:,} races"
                    ),
                )
                record = record_race(track, options, seed=int(seed))
            except TrackkitError as error:
                st.error(str(error))
                return
            bar.empty()
            cache[key] = (result, record)
        result, record = cache[key]
        _show(track, result, record)


def _show(track: Track, result: SimulationResult, record: RaceRecord) -> None:
    low, high = result.ci95
    a, b, c = st.columns(3)
    a.metric("Expected race length", f"{result.mean_rounds:.2f} rounds")
    b.metric("95% interval", f"{low:.2f} – {high:.2f}")
    c.metric("Races", f"{result.races:,}")
    if result.capped:
        st.warning(f"{result.capped} race(s) reached the round limit and were stopped.")
    hist = result.histogram()
    st.plotly_chart(
        go.Figure(go.Bar(x=list(hist), y=list(hist.values()))).update_layout(
            title="Race length (rounds)", xaxis_title="rounds", yaxis_title="races", height=300
        ),
        width="stretch",
    )
    chars, paths = st.columns(2)
    with chars:
        rows = [r for r in result.by_character() if r["entries"]]
        st.plotly_chart(
            go.Figure(
                go.Bar(
                    x=[r["win_rate"] for r in rows], y=[r["name"] for r in rows], orientation="h"
                )
            ).update_layout(title="Win rate by character", height=320, xaxis_tickformat=".0%"),
            width="stretch",
        )
    with paths:
        st.write("**Start paths**")
        st.dataframe(
            [
                {k: r[k] for k in ("name", "share", "win_rate", "mean_placing")}
                for r in result.by_start_path()
            ],
            hide_index=True,
        )
        st.write("**Turn order of the last round**")
        st.dataframe(result.by_turn_order(), hide_index=True)
    st.write("**Where characters pile up** (turns ended on each square per race)")
    heat = {row["square"]: row["turns_per_race"] for row in result.congestion()}
    st.plotly_chart(track_figure(track, heat=heat), width="stretch")
    _replay(record)
    data = result.to_json()
    st.download_button(
        "Download results (JSON)",
        json.dumps(data, indent=2),
        file_name="race-results.json",
        mime="application/json",
    )
    st.download_button(
        "Download race lengths (CSV)", _csv(result), file_name="race-lengths.csv", mime="text/csv"
    )


def _replay(record: RaceRecord) -> None:
    st.subheader(f"A sample race: {record.rounds} rounds")
    st.caption(
        ", ".join(f"{c} ({a})" for c, a in zip(record.characters, record.advantages, strict=True))
    )
    shown = st.slider("Round", 1, max(record.rounds, 1), 1, key="replay-round")
    for step in record.steps:
        if step.round == shown:
            st.write(f"- {step.text}")
    order = sorted(zip(record.placings, record.characters, strict=True))
    st.write("Placings: " + ", ".join(f"{p}. {c}" for p, c in order))


def _csv(result: SimulationResult) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["race", "rounds", *[f"placing_{p + 1}" for p in range(result.placing.shape[1])]]
    )
    for i, (rounds, placing) in enumerate(zip(result.rounds, result.placing, strict=True)):
        writer.writerow([i, int(rounds), *map(int, placing)])
    return out.getvalue()
