"""Snow Tails race: many races on a track, how long and how fair they are, where sleds
collide, and one race turn by turn."""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.fairness import win_rates_figure
from trackkit.app.runs import (
    MIN_RACES,
    RacesAsked,
    cached_run,
    keep_within,
    races_allowed,
    races_help,
)
from trackkit.app.snow_common import GAME_TITLE, RECONSTRUCTED, choose_track
from trackkit.games.base import get_ruleset
from trackkit.games.snowtails.face.replay import positions_by_round
from trackkit.games.snowtails.policies import POLICIES
from trackkit.games.snowtails.race import RaceOptions, RaceRecord, record_race
from trackkit.games.snowtails.ruleset import PLAYERS
from trackkit.games.snowtails.track import Address, SnowTrack
from trackkit.limits import CostLimitError
from trackkit.render.lanes import lane_figure
from trackkit.render.overlays import race_animation
from trackkit.report.export import download_name
from trackkit.sim.montecarlo import MAX_RACES, SimulationResult

KEEP_RUNS = 16
MIXED = "mixed: greedy and smart in turn"


@st.cache_resource
def _results() -> dict[tuple[Any, ...], tuple[SimulationResult, RaceRecord, None]]:
    """Finished runs, keyed on the track's file, the options and the seed."""
    return {}


def page() -> None:
    st.title(f"Race a {GAME_TITLE} track")
    st.caption(RECONSTRUCTED)
    track = choose_track("snow-race")
    left, right = st.columns(2)
    players = int(
        left.slider("Sleds", PLAYERS.race_min, PLAYERS.race_max, 5, key="snow-race-players")
    )
    policy = left.selectbox(
        "Policy",
        [*POLICIES, MIXED],
        key="snow-race-policy",
        help="greedy: the reference musher, fixed so results compare: the move that ends "
        "furthest ahead, each collision card or hit counted against it; smart: plays as a "
        "good musher would",
    )
    starting = left.selectbox(
        "Starting dogs",
        [2, 1, 3, 4],
        key="snow-race-start",
        help="2 + 2 in the rulebook; the expert rule lets players agree another value (A.5)",
    )
    bonus = left.checkbox("Bonus die in round 1", True, key="snow-race-bonus")
    names = tuple(list(POLICIES)[k % 2] for k in range(players)) if policy == MIXED else policy
    options = RaceOptions(
        players=players, policy=names, starting_value=int(starting), bonus_first_round=bonus
    )
    # at most what one run may cost on this board with these sleds (the app's limit)
    most = MAX_RACES if track is None else races_allowed(track, options)
    keep_within(most, "snow-races")
    st.session_state.setdefault("snow-races", min(5_000, most))  # as a value: no warning
    races = right.number_input(
        "Races",
        min_value=MIN_RACES,
        max_value=most,
        step=1_000,
        key="snow-races",
        help=races_help(most),
    )
    seed = right.number_input("Seed", min_value=0, value=0, step=1, key="snow-race-seed")
    if track is None:
        return
    key = (track.to_toml(), players, names, int(starting), bonus, int(races), int(seed))
    cache = _results()
    start = st.button("Run races", type="primary", key="snow-run")
    asked = RacesAsked(track, options, int(races), int(seed), record_race)
    run = cached_run(cache, KEEP_RUNS, key, asked, start)
    if run is not None:
        _show(track, *run[:2])


def _show(track: SnowTrack, result: SimulationResult, record: RaceRecord) -> None:
    players = result.options.players
    low, high = result.ci95
    a, b, c = st.columns(3)
    a.metric("Expected race length", f"{result.mean_rounds:.2f} rounds")
    b.metric("95% interval", f"{low:.2f} – {high:.2f}")
    c.metric(
        "Decided in the last round", f"{100 * result.tally('decided_last_round')['mean']:.1f}%"
    )
    if result.capped:
        st.warning(f"{result.capped} race(s) reached the round limit and were stopped.")
    hist = result.histogram()
    left, right = st.columns(2)
    left.plotly_chart(
        go.Figure(go.Bar(x=list(hist), y=list(hist.values()))).update_layout(
            title="Race length (rounds)", xaxis_title="rounds", yaxis_title="races", height=320
        ),
        width="stretch",
    )
    slots = [{**r, "name": f"start slot {r['name']}"} for r in result.by_group("slot")]
    right.plotly_chart(
        win_rates_figure(slots, "Win rate by start slot (round 1's order)", players),
        width="stretch",
    )
    st.caption(
        "A tie for first counts as a win for each sled in it. The dashed line is what every "
        "slot would win in a perfectly fair race."
    )
    st.subheader("Per race")
    st.dataframe(
        [
            {
                "What": tally["title"],
                "Mean per race": round(tally["mean"], 3),
                "95% interval": f"{tally['ci95'][0]:.3f} – {tally['ci95'][1]:.3f}",
            }
            for tally in result.tallies().values()
        ],
        hide_index=True,
    )
    st.subheader("Where sleds collide")
    kind = st.radio(
        "Collisions",
        ["all", "side", "trees", "sleds"],
        horizontal=True,
        key="snow-heat-kind",
    )
    try:
        st.plotly_chart(_heat(track, result, kind), width="stretch")
    except CostLimitError as error:  # a board too big to plot in the app: say so, go on
        st.warning(f"The heat map is not drawn: {error}")
    _replay(track, record)
    st.download_button(
        "Download results (JSON)",
        lambda: json.dumps(result.to_json(), indent=2),
        file_name=download_name(track, result.seed, "results", "json"),
        mime="application/json",
        on_click="ignore",
    )


def _heat(track: SnowTrack, result: SimulationResult, kind: str) -> go.Figure:
    """Collisions per race on each space, of one kind or all."""
    columns = {"side": ("side_per_race",), "trees": ("trees_per_race",)}
    columns["sleds"] = ("sleds_per_race",)
    chosen = columns.get(kind, ("side_per_race", "trees_per_race", "sleds_per_race"))
    values: dict[Address, float] = {}
    for row in result.congestion():
        segment, lane, index = row["space"].rsplit(":", 2)
        values[Address(segment, int(lane), int(index))] = sum(row[c] for c in chosen)
    return lane_figure(track, values, title=f"{track.name}: collisions per race", unit="per race")


def _replay(track: SnowTrack, record: RaceRecord) -> None:
    st.subheader(f"A sample race: {record.rounds} rounds")
    sleds = [f"sled {k + 1}" for k in range(len(record.placings))]
    positions = positions_by_round(record)
    shown = st.slider("After round", 0, record.rounds, record.rounds, key="snow-replay-round")
    try:
        figure = race_animation(
            get_ruleset("snowtails").scene(track), positions, sleds, shown, track.describe
        )
    except CostLimitError as refusal:  # the table below tells the race all the same
        st.warning(f"The race is not drawn: {refusal}.")
    else:
        st.plotly_chart(figure, width="stretch", key="snow-replay")
        st.caption("Press ▶ to watch the sleds move round by round; the table tells each turn.")
    rows = [
        {
            "Round": turn.round,
            "Sled": turn.player + 1,
            "Play": f"{turn.play} {turn.value}",
            "Drift schedule": turn.schedule,
            "Bonus": turn.bonus,
            "From": "the start" if turn.start is None else track.describe(turn.start),
            "To": track.describe(turn.end),
            "Stopped by": "" if turn.stop == "none" else turn.stop,
            "Die left": turn.die,
            "Collision cards": turn.cards,
        }
        for turn in record.turns
    ]
    st.dataframe(rows, hide_index=True, height=300)
    placed = sorted(zip(record.placings, range(1, len(record.placings) + 1), strict=True))
    st.write("Placings: " + ", ".join(f"{p}. sled {who}" for p, who in placed))
