"""Yummell's Race page: what it adds to the shared page (:mod:`trackkit.app.race_page`):
the verdict in words against an average track, the characters' and start paths' tables
beside an average track's, where characters pile up, and one race replayed on the board
with its cards."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.app.choices import kept
from trackkit.app.fairness import (
    characters_table,
    percent,
    rate_interval,
    start_paths_table,
    win_rates_figure,
)
from trackkit.app.games.yummell.choices import choose_track, wait_for_engine, warn_if_illegal
from trackkit.app.glossary import column_help
from trackkit.app.picture import picture_downloads
from trackkit.app.race_page import Profiled, RaceView
from trackkit.explore.profile import TrackProfile
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.record import RaceRecord, record_race
from trackkit.games.yummell.face.replay import positions_by_round, readable, square_name
from trackkit.limits import CostLimitError
from trackkit.render.layout import build_scene
from trackkit.render.overlays import heat_figure, race_animation
from trackkit.sim.montecarlo import SimulationResult

HEAT_UNIT = "turns ended here per race"


def _before(track: Track, players: int) -> None:
    """The track's picture to download, and a warning when the building rule for
    ``players`` forbids it (raced all the same)."""
    picture_downloads(track, key="race")
    warn_if_illegal([track], players)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _placing(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _table(rows: list[dict[str, Any]], first: str, *, share: bool = False) -> list[dict[str, Any]]:
    """Win rates by ``first`` (a character, an advantage: once a race at most, so its
    entries are races; with ``share``, a start path: several racers of a race may start on
    one, so its entries are racers, and its win rate is theirs)."""
    table = []
    for r in rows:
        line: dict[str, Any] = {first: r["name"]}
        if share:
            line["Started"] = percent(r["share"])
            line["Racers started"] = r["entries"]
        else:
            line["Races entered"] = r["entries"]
        line["Win rate"] = percent(r["win_rate"])
        interval = rate_interval(r)
        line["95% interval"] = "–" if interval is None else " – ".join(map(percent, interval))
        line["Mean placing"] = _placing(r["mean_placing"])
        table.append(line)
    return table


def _heat(track: Track, result: SimulationResult) -> None:
    st.subheader("Where characters pile up")
    heat = {row["square"]: row["turns_per_race"] for row in result.congestion()}
    try:
        st.plotly_chart(heat_figure(build_scene(track), heat, HEAT_UNIT), width="stretch")
    except CostLimitError as error:  # a board too big to plot in the app: say so, go on
        st.warning(f"The heat map is not drawn: {error}")


def _fairness(result: SimulationResult, profiled: Profiled) -> None:
    """Who wins: by character and start path (:func:`_characters_and_paths`), then by
    place in the turn order and by advantage."""
    players = result.options.players
    _characters_and_paths(result, profiled if isinstance(profiled, TrackProfile) else None)
    order = [
        {**r, "name": f"{_ordinal(int(r['name']))} to play"} for r in result.by_group("order_pos")
    ]
    by_order, by_advantage = st.tabs(["Turn order", "Advantages"])
    by_order.plotly_chart(
        win_rates_figure(order, "Win rate by place in the last round's turn order", players),
        width="stretch",
    )
    advantages = _table([r for r in result.by_group("advantage") if r["entries"]], "Advantage")
    by_advantage.dataframe(advantages, hide_index=True, column_config=column_help(advantages))


def _characters_and_paths(result: SimulationResult, profile: TrackProfile | None) -> None:
    """Win rates by character (beside an average track's) and by start path, each with its
    interval and the fair share; the profile's tables below them."""
    players = result.options.players
    st.subheader("Who wins: characters and start paths")
    measured = profile.details.get("characters", []) if profile is not None else []
    average = {r["name"]: r["reference_win_rate"] for r in measured}
    characters = [
        {**r, **({"reference_win_rate": average[r["name"]]} if r["name"] in average else {})}
        for r in result.by_group("character")
        if r["entries"]
    ]
    paths = [r for r in result.by_group("route") if r["entries"]]
    left, right = st.columns(2)
    left.plotly_chart(
        win_rates_figure(characters, "Win rate by character", players), width="stretch"
    )
    right.plotly_chart(win_rates_figure(paths, "Win rate by start path", players), width="stretch")
    st.caption(
        "Bars: the share of the races entered that each character won, and of the racers "
        "started on each path that won, with its 95% interval (a tie for first counts as a "
        "win for each in it). Diamonds: the same character on an average track. The dashed "
        "line is what each would win in a perfectly fair race."
    )
    if profile is None:
        for table in (
            _table(characters, "Character"),
            _table(result.by_group("route"), "Start path", share=True),
        ):
            st.dataframe(table, hide_index=True, column_config=column_help(table))
        return
    placing = {r["name"]: _placing(r["mean_placing"]) for r in characters}
    for table in (
        [{**row, "Mean placing": placing[row["Character"]]} for row in characters_table(profile)],
        start_paths_table(profile),
    ):
        st.dataframe(table, hide_index=True, column_config=column_help(table))
    if profile.details.get("path_rounds"):
        st.caption(
            "Exact solo rounds: the expected rounds of one racer alone on the track (the "
            "reference racer on each start path; each character with the reference "
            "advantage on the cheapest path), infinite deck, greedy: no sampling error."
        )


@st.fragment  # moving through the rounds redraws the replay, not the whole page
def _replay(track: Track, record: RaceRecord) -> None:
    st.subheader(f"A sample race: {record.rounds} rounds")
    seats = [
        f"{seat}. {c} ({a})"
        for seat, (c, a) in enumerate(zip(record.characters, record.advantages, strict=True), 1)
    ]
    st.caption("Seats: " + ", ".join(seats))
    positions = positions_by_round(record)
    last = max(record.rounds, 1)
    for name in ("race-round", "kept:race-round"):  # a shorter race than the one before
        if st.session_state.get(name, 1) > last:
            st.session_state[name] = last
    shown = kept(st.slider, "Round", "race-round", 1, min_value=1, max_value=last)
    shown = min(shown, len(positions) - 1)
    where = positions[shown]
    board, story = st.columns([3, 2])
    try:
        figure = race_animation(build_scene(track), positions, record.characters, shown)
        board.plotly_chart(figure, width="stretch")
    except CostLimitError as error:  # a race too long to animate in the app: say so, go on
        board.warning(f"The board is not drawn: {error}")
    with story:
        st.write(f"**Round {shown}**")
        st.markdown("\n".join(f"- {readable(s.text)}" for s in record.steps if s.round == shown))
        standings = ", ".join(
            f"{seat}. {name}: {square_name(square)}"
            for seat, (name, square) in enumerate(zip(record.characters, where, strict=True), 1)
        )
        st.caption(f"At the end of the round: {standings}.")
    order = sorted(zip(record.placings, record.characters, strict=True))
    st.write("Placings: " + ", ".join(f"{p}. {c}" for p, c in order))


VIEW = RaceView(
    title="Race",
    choose_track=choose_track,
    record=record_race,
    before=_before,
    on_start=wait_for_engine,
    profile=True,
    fairness=_fairness,
    heat=_heat,
    replay=_replay,
)
"""The hooks of Yummell's Race page."""
