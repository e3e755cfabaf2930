"""Race: simulate many races on a track, see how long and how fair they are (in words
first: the verdict of the races' profile against an average track), replay one."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.choices import (
    choose_track,
    kept,
    players_slider,
    wait_for_engine,
    warn_if_illegal,
)
from trackkit.app.fairness import (
    characters_table,
    percent,
    plain,
    rate_interval,
    start_paths_table,
    win_rates_figure,
)
from trackkit.app.glossary import column_help
from trackkit.app.picture import picture_downloads
from trackkit.app.runs import (
    MIN_RACES,
    REFERENCE_RACES,
    RacesAsked,
    cached_run,
    keep_within,
    profile_races_allowed,
    races_help,
    reference_races,
)
from trackkit.board.track import Track
from trackkit.errors import TrackkitError
from trackkit.explore.profile import ProfileSettings, TrackProfile, profile_track
from trackkit.games.yummell.content import load_content
from trackkit.games.yummell.face.replay import positions_by_round, readable, square_name
from trackkit.games.yummell.record import RaceRecord, record_race
from trackkit.games.yummell.ruleset import RULESET as YUMMELL
from trackkit.games.yummell.setup import DECK_MODELS, RaceOptions
from trackkit.limits import CostLimitError
from trackkit.render.layout import build_scene
from trackkit.render.overlays import heat_figure, race_animation
from trackkit.report.export import download_name, races_csv
from trackkit.report.verdict import verdict
from trackkit.sim.montecarlo import MAX_RACES, SimulationResult

KEEP_RUNS = 32
HEAT_UNIT = "turns ended here per race"
# how racers get their start path; dealt by default: every path starts as many racers, so
# the start paths' fairness is measured (greedy racers who choose all take the cheapest)
PATH_CHOICES = {
    "dealt": "dealt in turn (every path as often)",
    "chosen": "chosen by each racer's policy",
}

Profiled = TrackProfile | str  # the races' profile, or why there is none


@st.cache_resource
def _results() -> dict[tuple[Any, ...], tuple[SimulationResult, RaceRecord, Profiled]]:
    """Finished runs, keyed on the track's content, the options and the seed."""
    return {}


class RaceChoices(NamedTuple):
    """What the reader chose on the page: the players and the rules of the races, how
    many and from which seed, and the characters and advantages named."""

    players: int
    policy: str
    deck: str
    encounters: bool
    start_paths: str
    races: int
    seed: int
    characters: tuple[str, ...]
    advantages: tuple[str, ...]


def page() -> None:
    st.title("Race")
    track = choose_track("race")
    if track is not None:
        picture_downloads(track, key="race")
    content = load_content()
    chosen = _choices(track, content)
    if track is None:
        return
    warn_if_illegal([track], chosen.players)
    try:
        options = RaceOptions(
            players=chosen.players,
            characters=chosen.characters,
            advantages=chosen.advantages,
            deck=chosen.deck,
            encounters=chosen.encounters,
            policy=chosen.policy,
            start_paths=chosen.start_paths,
            content=content,
        )
    except TrackkitError as error:
        st.info(str(error))
        return
    key = (track.to_toml(), *chosen)
    cache = _results()
    start = st.button("Run races", type="primary")
    if start and key not in cache:
        wait_for_engine()
    reference = reference_races(chosen.races)

    def profiled(result: SimulationResult) -> Profiled:
        return races_profile(track, result, reference)

    asked = RacesAsked(track, options, chosen.races, chosen.seed, record_race)
    run = cached_run(cache, KEEP_RUNS, key, asked, start, then=profiled, reference=reference)
    if run is not None:
        _show(track, *run)


def _choices(track: Track | None, content: Any) -> RaceChoices:
    """The page's widgets, each kept across pages, and what they hold."""
    left, right = st.columns(2)
    players = players_slider(left)
    policy = kept(
        left.selectbox,
        "Policy",
        "race-policy",
        YUMMELL.policies[0],
        options=list(YUMMELL.policies),
        help="greedy: the reference player, fixed so results compare: the cheapest start path, "
        "its highest card as far as it goes, no rests, no events; smart: plays as a good "
        "player would",
    )
    deck = kept(left.selectbox, "Deck", "race-deck", DECK_MODELS[0], options=list(DECK_MODELS))
    encounters = kept(left.checkbox, "Encounters", "race-encounters", True)
    start_paths = kept(
        left.selectbox,
        "Start paths",
        "race-start-paths",
        "dealt",
        options=list(PATH_CHOICES),
        format_func=PATH_CHOICES.__getitem__,
        help="Dealt: the racers' start paths are dealt in turn from a random first path, so "
        "each path starts as many racers and the verdict can say whether one wins more "
        "(the analysis's choice). Chosen: each racer's policy picks (greedy: the cheapest).",
    )
    # at most what one run and its profile's reference may cost on this board with these
    # players (the app's limit)
    most = (
        MAX_RACES
        if track is None
        else profile_races_allowed(track, RaceOptions(players=players, content=content))
    )
    keep_within(most, "race-races", "kept:race-races")
    races = kept(
        right.number_input,
        "Races",
        "race-races",
        min(5_000, most),
        min_value=MIN_RACES,
        max_value=most,
        step=1_000,
        help=races_help(most)
        + f" The verdict races each track of its average track too, {REFERENCE_RACES:,} "
        "times at the most: counted in.",
    )
    seed = kept(right.number_input, "Seed", "race-seed", 0, min_value=0, step=1)
    # a smaller table keeps the first names chosen (a multiselect refuses more than its max)
    for name in ("race-characters", "race-advantages"):
        chosen = st.session_state.get(name, st.session_state.get(f"kept:{name}", []))
        st.session_state[name] = list(chosen)[:players]
    characters = kept(
        right.multiselect,
        f"Characters (pick {players}, or none to deal at random)",
        "race-characters",
        [],
        options=content.character_names,
        max_selections=players,
    )
    advantages = kept(
        right.multiselect,
        f"Advantages (pick {players}, or none to deal at random)",
        "race-advantages",
        [],
        options=content.advantage_names,
        max_selections=players,
    )
    return RaceChoices(
        players,
        policy,
        deck,
        encounters,
        start_paths,
        int(races),
        int(seed),
        tuple(characters),
        tuple(advantages),
    )


def races_profile(track: Track, result: SimulationResult, reference: int) -> Profiled:
    """The profile of the races the page ran (:func:`~trackkit.explore.profile.profile_track`
    on them, beside ``reference`` races of each track of the average track raced alike), or
    why there is none: the races are shown either way."""
    try:
        return profile_track(
            track,
            ProfileSettings(races=result.races, seed=result.seed, max_races=result.races),
            options=result.options,
            simulated=result,
            reference_races=reference,
        )
    except TrackkitError as error:
        return str(error)


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


def _show(track: Track, result: SimulationResult, record: RaceRecord, profile: Profiled) -> None:
    players = result.options.players
    if isinstance(profile, TrackProfile):
        _verdict(profile)
    else:
        st.warning(f"No verdict for these races: {profile}")
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
    _fairness(result, profile if isinstance(profile, TrackProfile) else None)
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
    st.subheader("Where characters pile up")
    heat = {row["square"]: row["turns_per_race"] for row in result.congestion()}
    try:
        st.plotly_chart(heat_figure(build_scene(track), heat, HEAT_UNIT), width="stretch")
    except CostLimitError as error:  # a board too big to plot in the app: say so, go on
        st.warning(f"The heat map is not drawn: {error}")
    _replay(track, record)
    seed = result.seed
    downloads = st.columns(3)
    downloads[0].download_button(
        "Download results (JSON)",
        lambda: json.dumps(result.to_json(), indent=2),
        file_name=download_name(track, seed, "results", "json"),
        mime="application/json",
        on_click="ignore",
    )
    downloads[1].download_button(
        "Download every race (CSV)",
        lambda: races_csv(result),  # made on the click: 50,000 rows take a moment
        file_name=download_name(track, seed, "races", "csv"),
        mime="text/csv",
        on_click="ignore",
    )
    downloads[2].download_button(
        "Download the sample race (JSON)",
        lambda: json.dumps(record.to_json(), indent=2),
        file_name=download_name(track, seed, "sample-race", "json"),
        mime="application/json",
        on_click="ignore",
    )


def _verdict(profile: TrackProfile) -> None:
    """The races in one paragraph, and what they were measured against."""
    with st.container(border=True):
        st.markdown(plain(verdict(profile)))
        st.caption(
            "An average track: 30 tracks drawn once from the space of legal tracks (the presets "
            "where there is none), raced with these options and seed, "
            f"{reference_races(profile.races):,} races each (the app races at most "
            f"{REFERENCE_RACES:,} of each). More than noise: the 95% interval leaves out "
            "no difference. Exact: solved, not sampled (one racer alone, infinite deck)."
        )


def _fairness(result: SimulationResult, profile: TrackProfile | None) -> None:
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
