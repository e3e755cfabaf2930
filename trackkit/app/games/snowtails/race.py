"""Snow Tails' Race page: what it adds to the shared page (:mod:`trackkit.app.race_page`):
where sleds collide, of each kind, and the sample race replayed on the lanes with its turns
told in a table."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.games.snowtails.common import RECONSTRUCTED, choose_track
from trackkit.app.race_page import RaceView
from trackkit.games.base import get_ruleset
from trackkit.games.snowtails import GAME
from trackkit.games.snowtails.core.race import RaceRecord, record_race
from trackkit.games.snowtails.core.track import Address, SnowTrack
from trackkit.games.snowtails.face.lanes import lane_figure
from trackkit.games.snowtails.face.replay import positions_by_round
from trackkit.limits import CostLimitError
from trackkit.render.overlays import race_animation
from trackkit.sim.montecarlo import SimulationResult


def _choose(key: str) -> SnowTrack | None:
    st.caption(RECONSTRUCTED)
    return choose_track(key)


def _collisions(track: SnowTrack, result: SimulationResult) -> None:
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
            get_ruleset(GAME).scene(track), positions, sleds, shown, track.describe
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


# profiled: the verdict and the start slots against an average track (the four demo boards,
# at most 2,000 races each, counted against the run's limit: about 9 million of the app's
# 200 million, 5 sleds)
VIEW = RaceView(
    profile=True, choose_track=_choose, record=record_race, heat=_collisions, replay=_replay
)
"""The hooks of Snow Tails' Race page."""
