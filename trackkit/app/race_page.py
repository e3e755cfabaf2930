"""Race, for every game: simulate many races on a track, see how long and how fair they
are, replay one.

The page knows no game. Its widgets are built from the game's face (the players' bounds,
its policies, its own race options as :class:`~trackkit.games.face.Argument`); its
figures come from the simulation (length, win rates by each group the game declares, its
per-race tallies). A game adds what only it has through a :class:`RaceView` in its
``pages`` package (Yummell: the verdict against an average track, the characters'
tables, the replay with cards; Snow Tails: where sleds collide, the replay on the lanes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import plotly.graph_objects as go
import streamlit as st

from trackkit.app.choices import kept, players_slider
from trackkit.app.common import read_upload_of
from trackkit.app.fairness import against_average_table, plain, win_rates_figure
from trackkit.app.glossary import column_help
from trackkit.app.runs import (
    MIN_RACES,
    REFERENCE_RACES,
    RacesAsked,
    cached_run,
    keep_within,
    profile_races_allowed,
    races_allowed,
    races_help,
    reference_races,
)
from trackkit.app.sheet import remember_profile
from trackkit.errors import TrackkitError
from trackkit.explore.fairness import reference_words
from trackkit.explore.profile import ProfileSettings, TrackProfile, profile_track
from trackkit.games.base import get_ruleset
from trackkit.games.face import Argument, Game, get_face
from trackkit.report.export import download_name, races_csv
from trackkit.report.verdict import verdict
from trackkit.sim.montecarlo import MAX_RACES, SimulationResult

KEEP_RUNS = 32
MIXED = "mixed"  # the policies in turn, racer by racer

Profiled = TrackProfile | str  # the races' profile, or why there is none


class RaceChoices(NamedTuple):
    """What the reader chose on the page: the players, their policies, the game's own
    options by name, how many races and from which seed."""

    players: int
    policies: tuple[str, ...]
    chosen: tuple[tuple[str, Any], ...]
    races: int
    seed: int


@dataclass(frozen=True)
class RaceView:
    """What a game adds to the Race page, every part optional.

    ``title``: the page's heading; ``profile``: the races profiled against an average
    track (:func:`races_profile`), their verdict in words above the figures and the
    reference's races counted against the app's limit; ``choose_track(key)``: the track
    to race (default: a preset or an uploaded file); ``record(track, options, seed=)``:
    race 0 told turn by turn (default: none, and the face tells it); ``before(track,
    players)``: notes above the options (a warning, downloads); ``most(track, options)``:
    the most races a run may have; ``on_start()``: run when a run starts (the engine's
    warm-up); ``fairness(result, profile)``, ``heat(track, result)``, ``replay(track,
    record)``: sections that replace the page's own (win rates by group; nothing; the
    race's text).
    """

    title: str | None = None
    profile: bool = False
    choose_track: Callable[[str], Any] | None = None
    record: Callable[..., Any] | None = None
    before: Callable[[Any, int], None] | None = None
    most: Callable[[Any, Any], int] | None = None
    on_start: Callable[[], None] | None = None
    fairness: Callable[[SimulationResult, Any], None] | None = None
    heat: Callable[[Any, SimulationResult], None] | None = None
    replay: Callable[[Any, Any], None] | None = None


@st.cache_resource
def _results() -> dict[tuple[Any, ...], tuple[SimulationResult, Any, Any]]:
    """Finished runs, keyed on the game, the track's content, the choices and the seed."""
    return {}


def page(game: Game, view: RaceView | None = None) -> None:
    """The Race page of ``game``, with the hooks ``view`` its pages add (none: the page
    alone)."""
    view = RaceView() if view is None else view
    ruleset, face = game.ruleset, game.face
    st.title(view.title or f"Race a {ruleset.title} track")
    key = f"{game.look.address}race"
    track = (view.choose_track or _preset_or_upload(game))(key)
    content = ruleset.load_content()
    choices = _choices(game, view, track, content)
    if track is None:
        return
    if view.before is not None:
        view.before(track, choices.players)
    try:
        options = face.race_options(choices.players, choices.policies, None, dict(choices.chosen))
    except TrackkitError as error:
        st.info(str(error))
        return
    run_key = (game.name, track.to_toml(), *choices)
    cache = _results()
    start = st.button("Run races", type="primary", key=f"{key}-run")
    if start and run_key not in cache and view.on_start is not None:
        view.on_start()
    reference = reference_races(choices.races) if view.profile else 0

    def profiled(result: SimulationResult) -> Profiled:
        return races_profile(track, result, reference)

    then = profiled if view.profile else None
    asked = RacesAsked(track, options, choices.races, choices.seed, view.record or _no_record)
    run = cached_run(cache, KEEP_RUNS, run_key, asked, start, then=then, reference=reference)
    if run is not None:
        show(view, track, *run)


def _no_record(track: Any, options: Any, *, seed: int) -> None:
    return None


def _preset_or_upload(game: Game) -> Callable[[str], Any]:
    """A track of ``game``: one of its presets, or a file the reader uploads."""

    def choose(key: str) -> Any:
        ruleset = game.ruleset
        source = st.radio("Track", ["A preset", "A track file"], horizontal=True, key=f"{key}-src")
        if source == "A preset":
            slugs = ruleset.presets()
            slug = kept(
                st.selectbox,
                "Preset",
                f"{key}-preset",
                slugs[0],
                options=slugs,
                format_func=lambda s: ruleset.load_preset(s).name,
            )
            return ruleset.load_preset(slug)
        return read_upload_of(game.name, key)

    return choose


def _choices(game: Game, view: RaceView, track: Any, content: Any) -> RaceChoices:
    """The page's widgets, each kept across pages, and what they hold."""
    face, look = game.face, game.look
    left, right = st.columns(2)
    players = players_slider(left, game.name)
    policies = _policies(game, players, left)
    chosen = tuple(
        (argument.name, _widget(argument, f"{look.address}race", (left, right), players, content))
        for argument in face.options
    )
    most = MAX_RACES if track is None else _most(game, view, track, players, policies, chosen)
    races_key = f"{look.address}race-races"
    keep_within(most, races_key, f"kept:{races_key}")
    races = kept(
        right.number_input,
        "Races",
        races_key,
        min(5_000, most),
        min_value=MIN_RACES,
        max_value=most,
        step=1_000,
        help=races_help(most),
    )
    seed = kept(right.number_input, "Seed", f"{look.address}race-seed", 0, min_value=0, step=1)
    return RaceChoices(players, policies, chosen, int(races), int(seed))


def _policies(game: Game, players: int, column: Any) -> tuple[str, ...]:
    """The policy every racer plays, or several in turn (``mixed``)."""
    ruleset, look = game.ruleset, game.look
    offered = [*ruleset.policies, *([MIXED] if len(ruleset.policies) > 1 else [])]
    policy = kept(
        column.selectbox,
        "Policy",
        f"{look.address}race-policy",
        offered[0],
        options=offered,
        format_func=lambda p: (
            f"mixed: {' and '.join(ruleset.policies)} in turn" if p == MIXED else p
        ),
        help=look.policy_help or None,
    )
    if policy == MIXED:
        return tuple(ruleset.policies[k % len(ruleset.policies)] for k in range(players))
    return (policy,)


def _most(
    game: Game,
    view: RaceView,
    track: Any,
    players: int,
    policies: tuple[str, ...],
    chosen: Sequence[Any],
) -> int:
    """The most races one run may have on ``track`` with these choices (the app's limit)."""
    face = game.face
    try:
        options = face.race_options(players, policies, None, dict(chosen))
    except TrackkitError:  # said when the races are asked for
        return MIN_RACES
    if view.most is not None:
        return view.most(track, options)
    return (profile_races_allowed if view.profile else races_allowed)(track, options)


def _widget(
    argument: Argument, prefix: str, columns: tuple[Any, Any], players: int, content: Any
) -> Any:
    """The widget of one race option, built from its declaration, and its value."""
    key = f"{prefix}-{argument.name.replace('_', '-')}"
    left, right = columns
    helped = {"help": argument.app_help or argument.help}
    if argument.kind == "switch":
        return kept(left.checkbox, argument.title, key, bool(argument.default), **helped)
    if argument.kind == "names":
        names = list(getattr(content, argument.among)) if argument.among else []
        # a smaller table keeps the first names chosen (a multiselect refuses more than its max)
        earlier = st.session_state.get(key, st.session_state.get(f"kept:{key}", []))
        st.session_state[key] = [n for n in earlier if n in names][:players]
        picked = kept(
            right.multiselect,
            f"{argument.title} (pick {players}, or none to deal at random)",
            key,
            [],
            options=names,
            max_selections=players,
            **helped,
        )
        return tuple(picked)
    offered = argument.offered or argument.choices
    if offered:
        return kept(
            left.selectbox,
            argument.title,
            key,
            argument.default if argument.default in offered else offered[0],
            options=list(offered),
            format_func=argument.say,
            **helped,
        )
    if argument.kind in ("int", "float"):
        number = int if argument.kind == "int" else float
        low = None if argument.low is None else number(argument.low)
        high = None if argument.high is None else number(argument.high)
        # no default: the field starts empty, and the game's own value (its content's) holds
        start = None if argument.default is None else number(argument.default)
        value = kept(
            left.number_input,
            argument.title,
            key,
            start,
            min_value=low,
            max_value=high,
            placeholder="the game's own",
            **helped,
        )
        return None if value is None else number(value)
    text = kept(left.text_input, argument.title, key, argument.default or "", **helped)
    return (argument.parse or str)(text) if text else None


def show(view: RaceView, track: Any, result: SimulationResult, record: Any, then: Any) -> None:
    """The races' figures, the game's sections, and the downloads."""
    if view.profile:
        _verdict(track, then)
        if isinstance(then, TrackProfile):  # the Design page's build sheet reports it
            remember_profile(track, then)
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
    (view.fairness or _win_rates)(result, then)
    _tallies(result)
    if view.heat is not None:
        view.heat(track, result)
    if view.replay is not None and record is not None:
        view.replay(track, record)
    elif record is None:
        _race_text(track, result)
    _downloads(track, result, record)


def races_profile(track: Any, result: SimulationResult, reference: int) -> Profiled:
    """The profile of the races the page ran (:func:`~trackkit.explore.profile.profile_track`
    on them, beside ``reference`` races of each track of the average track raced alike), or
    why there is none: the races are shown either way."""
    try:
        return profile_track(
            track,
            ProfileSettings(
                races=result.races, seed=result.seed, max_races=result.races, skill=True
            ),
            options=result.options,
            simulated=result,
            reference_races=reference,
        )
    except TrackkitError as error:
        return str(error)


def _verdict(track: Any, profile: Profiled) -> None:
    """The races in one paragraph, and what they were measured against."""
    if not isinstance(profile, TrackProfile):
        st.warning(f"No verdict for these races: {profile}")
        return
    ruleset = get_ruleset(track.game)
    exact = ruleset.exact_solo is not None
    with st.container(border=True):
        st.markdown(plain(verdict(profile)))
        st.caption(
            f"An average track: {reference_words(ruleset, profile.players)}, raced with these "
            "options and seed, "
            f"{reference_races(profile.races):,} races each (the app races at most "
            f"{REFERENCE_RACES:,} of each). More than noise: the 95% interval leaves out "
            "no difference." + (_EXACT.format(players=profile.players) if exact else "")
        )


# why a solo race's exact length is longer than the races' expected length: play_race ends
# a race with the round in which its first racer finishes
_EXACT = (
    " Exact: solved, not sampled (one racer alone, infinite deck). A solo race's exact "
    "length exceeds a full race's because a race ends with the round in which its first "
    "racer finishes: its length is the shortest of {players} racers' times, not one racer's."
)


def _win_rates(result: SimulationResult, then: Any) -> None:
    """Win rates by each group the game declares (start slot, path, character…), with
    their intervals and the fair share; the group a profile measured against an average
    track (``then``, when it is one) beside that track's, with its table."""
    groups = [g for g in result.groups if any(r["entries"] for r in result.by_group(g.key))]
    if not groups:
        return
    measured = _measured_group(then)
    st.subheader("Who wins")
    for tab, group in zip(st.tabs([g.title for g in groups]), groups, strict=True):
        rows = [r for r in result.by_group(group.key) if r["entries"]]
        here = measured if measured is not None and measured.group == group.key else None
        if here is not None:
            average = {r["name"]: r["reference_win_rate"] for r in here.rows}
            rows = [{**r, "reference_win_rate": average.get(r["name"])} for r in rows]
        tab.plotly_chart(
            win_rates_figure(rows, f"Win rate by {group.title.lower()}", result.options.players),
            width="stretch",
        )
        if here is not None:
            table = against_average_table(here.rows, group.title, here.entered)
            tab.dataframe(table, hide_index=True, column_config=column_help(table))
    st.caption(
        "A tie for first counts as a win for each in it; the bars' whiskers are 95% "
        "intervals, and the dashed line is what each would win in a perfectly fair race."
        + (" Diamonds: the same on an average track." if measured is not None else "")
    )


class MeasuredGroup(NamedTuple):
    """The group a profile measured against an average track: its key, the profile's rows
    for it, and the words for how often a label entered (``Sleds started``)."""

    group: str
    rows: list[dict[str, Any]]
    entered: str


def _measured_group(then: Any) -> MeasuredGroup | None:
    """The profile's start group (a game that declares one), or None without a profile."""
    if not isinstance(then, TrackProfile) or not then.details.get("start"):
        return None
    start = then.details["start"]
    racers = then.details.get("racers", "racers")
    return MeasuredGroup(
        start["group"], then.details[start["table"]], f"{racers.capitalize()} started"
    )


def _tallies(result: SimulationResult) -> None:
    """The game's per-race counts, each with its interval."""
    tallies = result.tallies()
    if not tallies:
        return
    st.subheader("Per race")
    st.dataframe(
        [
            {
                "What": tally["title"],
                "Mean per race": round(tally["mean"], 3),
                "95% interval": f"{tally['ci95'][0]:.3f} – {tally['ci95'][1]:.3f}",
            }
            for tally in tallies.values()
        ],
        hide_index=True,
    )


def _race_text(track: Any, result: SimulationResult) -> None:
    """Race 0 told as the command line tells it, for a game without a replay of its own."""
    try:
        told = get_face(track.game).race(track, result.options, result.seed).text
    except TrackkitError as error:
        st.caption(f"The sample race is not told: {error}")
        return
    st.subheader("A sample race")
    st.code(told if isinstance(told, str) else "\n".join(told), language=None)


def _downloads(track: Any, result: SimulationResult, record: Any) -> None:
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
    if record is not None and hasattr(record, "to_json"):
        downloads[2].download_button(
            "Download the sample race (JSON)",
            lambda: json.dumps(record.to_json(), indent=2),
            file_name=download_name(track, seed, "sample-race", "json"),
            mime="application/json",
            on_click="ignore",
        )
