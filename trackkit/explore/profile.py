"""A track's profile: the figures that tell a designer how long, how fair, how dramatic and
how rough a race on it is. Each figure is defined once, in :data:`FIGURES`, and explained
in the README; every sampled figure comes with its 95% interval (``KEY_low``/``KEY_high``).

**What is measured, and how.** A profile races the track with the game's profile options
(Yummell: greedy racers who choose their start path freely at their first move, as the
rulebook says) and races the reference, "an average track", with the same options, the same
seed and the same number of races: 30 tracks drawn uniformly from the game's space of legal
tracks for that many players (a fixed draw; the presets where there is no such space).
Race ``r`` of a seed is dealt, shuffled and ordered alike on every track (common random
numbers), so the roster's own strengths and the luck of the deal fall out of the
difference, and what remains is what the track does.

- ``unfairness``, the headline, in points of win share: how far the track moves a racer's
  chance of winning from fair, the root mean square over its characters (each against an
  average track: ``unfairness_character``) and its start (Yummell's order of first moves,
  Snow Tails' start slots, each against the fair share: ``unfairness_start``), each move's
  square less its noise (:mod:`trackkit.explore.paired`); no threshold inside.
- ``balance`` is one minus ``unfair_character``: the share of all wins that this track
  moves between characters compared with an average track, beyond two standard errors
  (:func:`~trackkit.explore.fairness.moved_wins`); kept as a column, no longer the
  headline (on a near-fair roster it sits at 1).
- ``character_tilt``: how far the track moves the win rate of the character it moves most
  (0.06: by 6 points, up or down), with an interval from simultaneous intervals of every
  character; the character, and which way, are in the profile's ``characters`` table and
  its verdict.
- ``path_rounds_a``…, ``path_spread``: the exact expected rounds of the reference racer
  forced onto each start path, and the slowest minus the fastest: no sampling error; a
  path slower alone that the racers almost never choose is a dead choice (``dead_paths``).
- ``character_rounds_spread``: the exact expected rounds of the slowest character minus the
  fastest (each with the reference advantage, solo, on the greedy route), with each
  character's in the profile's ``character_rounds``.

**A game that says what applies.** A game with a
:class:`~trackkit.games.base.ProfileSpec` (Snow Tails) is profiled by the figures that
apply to it. Its races have no characters, so its fairness is its start group's (Snow
Tails: the start slot, the random turn order of round 1, which also sets each sled's die):
``start_balance``, ``unfair_start`` and ``start_tilt``, measured as the characters' are
against an average track (its presets), and ``start_spread``, the best label's win rate
minus the worst's (against the fair share: the game's own first-mover edge included); the
table ``start_slots`` has each slot's win rate with its Wilson interval, the fair share,
its win rate on the average track and the difference. Its own tallies are figures (mean
per race, with their intervals) in the families it gives them. Figures of :data:`FIGURES`
that do not apply (characters, the exact solver's, a tile game's tallies, figures of the
track itself) are left out of ``values``, never given a made-up number, and each is listed
in ``not_applicable`` with why.

**Intervals.** Means use the normal approximation; win rates and their moves against an
average track are taken race by race, paired with the average track's races
(:mod:`trackkit.explore.paired`); the headline a score interval of its square; a largest
move or a spread simultaneous intervals; the length's spread and percentiles a parametric
bootstrap (:data:`~trackkit.explore.fairness.BOOTSTRAP_DRAWS` draws seeded from the
profile's seed). Every estimate lies inside its interval.

**Precision you choose.** With ``precision``, races are added (doubling) until the balance
interval's half-width (``start_balance``'s for a game without characters) is at most
``precision`` or ``max_races`` are run; the profile says how many races it used.

>>> from trackkit.games import get_ruleset
>>> load_preset = get_ruleset().load_preset  # the first game's (Yummell's)
>>> settings = ProfileSettings(races=500, seed=1)
>>> profile = profile_track(load_preset("first-run"), settings, players=3)
>>> 0 <= profile["balance_low"] <= profile["balance"] <= profile["balance_high"] <= 1
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from trackkit.errors import TrackkitError
from trackkit.explore.fairness import (
    CHARACTERS,
    GroupFairness,
    dead_paths,
    fairness_measures,
    group_fairness,
    reference,
    share_rows,
    start_path_table,
    start_table,
    unfairness_figures,
    wilson,
)

# the reference panel, still importable from here, where the app and sweeps take it
from trackkit.explore.fairness import REFERENCE_DRAW as REFERENCE_DRAW
from trackkit.explore.fairness import REFERENCE_TRACKS as REFERENCE_TRACKS
from trackkit.explore.fairness import reference_tracks as reference_tracks
from trackkit.explore.ladder import average_skill, skill_pairs, skill_step
from trackkit.explore.length import length_figures
from trackkit.explore.paired import Paired, paired_headline, paired_mean
from trackkit.games.base import ready
from trackkit.sim.montecarlo import RACES_PER_BATCH, SimulationResult, extend, simulate

Better = Literal["high", "low", "target", "none"]
Kind = Literal["sampled", "exact", "track"]

PROFILE_RACES = 2_000  # races of a profile, a sweep's and a search's, unless told
MAX_PROFILE_RACES = 1_000_000
PRECISION_RACES = 100_000  # the most races of one profile with a precision, unless told
INTERVAL = (
    "95%: normal approximation for means, and for win rates and their moves race by race "
    "(paired with an average track's races); the headline's from its unbiased square; a "
    "largest move or spread from simultaneous intervals; a parametric bootstrap for the "
    "length's spread and percentiles"
)


@dataclass(frozen=True)
class Figure:
    """One figure of a profile: its key (the column of a sweep's table), what it says,
    its family (length, balance, drama, friction, track), which way is better, and whether
    it is sampled (then it has an interval: ``KEY_low``, ``KEY_high``), exact or the
    track's own."""

    key: str
    title: str
    family: str
    better: Better = "none"
    kind: Kind = "sampled"


FIGURES: tuple[Figure, ...] = (
    Figure(
        "exact_rounds",
        "Exact expected rounds of a solo race (reference racer)",
        "length",
        kind="exact",
    ),
    Figure("rounds_mean", "Mean rounds of a race with the players", "length", "target"),
    Figure("rounds_std", "Standard deviation of the rounds", "length", "low"),
    Figure("rounds_p10", "10th percentile of the rounds", "length"),
    Figure("rounds_p90", "90th percentile of the rounds", "length"),
    Figure(
        "unfairness",
        "Unfairness: points a racer's win chance is moved from fair",
        "balance",
        "low",
    ),
    Figure(
        "unfairness_character",
        "Unfairness from the characters (against an average track)",
        "balance",
        "low",
    ),
    Figure(
        "balance",
        "Balance, 0-1: 1 - the wins the track moves between characters",
        "balance",
        "high",
    ),
    Figure(
        "unfair_character",
        "Wins moved between characters, against an average track",
        "balance",
        "low",
    ),
    Figure("character_tilt", "Most-moved character's win rate here minus on average", "balance"),
    Figure(
        "path_spread",
        "Exact rounds: slowest start path minus fastest",
        "balance",
        "low",
        kind="exact",
    ),
    Figure(
        "character_rounds_spread",
        "Exact rounds: slowest character minus fastest",
        "balance",
        "low",
        kind="exact",
    ),
    Figure(
        "skill",
        "Skill: the top policy's win rate minus the game's own, in points",
        "skill",
        "high",
    ),
    Figure("lead_changes", "Lead changes per race", "drama", "high"),
    Figure("last_round", "Share of races decided in the last round", "drama", "high"),
    Figure("winner_gap", "Winner's lead over the runner-up, in squares", "drama", "low"),
    Figure(
        "seat_advantage", "Win rate of the first to move in the last round, minus fair", "drama"
    ),
    Figure("bounces", "Characters sent back off a full square, per race", "friction"),
    Figure("challenges_lost", "Challenges lost per race", "friction"),
    Figure("mp_per_square", "Mean MP to enter a square of the track", "friction", kind="track"),
    Figure("squares", "Squares on the track", "track", kind="track"),
)
# the fairness of a game's start group (a :class:`~trackkit.games.base.ProfileSpec`'s: Snow
# Tails' start slots), against an average track and the fair share; ``{starts}`` is said
# in the game's words
START_FIGURES: tuple[Figure, ...] = (
    Figure(
        "unfairness_start",
        "Unfairness from the {starts} (against the fair share)",
        "balance",
        "low",
    ),
    Figure(
        "start_balance",
        "Balance, 0-1: 1 - the wins the track moves between {starts}",
        "balance",
        "high",
    ),
    Figure(
        "unfair_start", "Wins moved between {starts}, against an average track", "balance", "low"
    ),
    Figure("start_tilt", "Most-moved {start}'s win rate here minus on average", "balance"),
    Figure("start_spread", "Win rate of the best {start} minus the worst", "balance", "low"),
)
BY_KEY = {f.key: f for f in (*FIGURES, *START_FIGURES)}


def interval_keys(key: str) -> tuple[str, str]:
    return f"{key}_low", f"{key}_high"


FIGURE_KEYS = tuple(
    k
    for f in FIGURES
    for k in ((f.key, *interval_keys(f.key)) if f.kind == "sampled" else (f.key,))
)
FAIRNESS_KEYS = tuple(f.key for f in FIGURES if f.family == "balance")
DRAMA_AND_FRICTION = ("lead_changes", "last_round", "winner_gap", "bounces", "challenges_lost")
CHARACTER_KEYS = (
    "unfairness_character",
    "balance",
    "unfair_character",
    "character_tilt",
    "character_rounds_spread",
)


@dataclass(frozen=True)
class TrackProfile:
    """The figures of one track (``values``: :data:`FIGURE_KEYS`, the exact per-path
    rounds ``path_rounds_<letter>`` and the terrain mix ``terrain_<name>``: a sweep's
    columns), and the tables behind them (``details``: per character and per start path,
    with the reference and intervals; the exact per-character rounds).

    ``figures`` are the figures it has, in order, titled in its game's words (a game that
    declares a :class:`~trackkit.games.base.ProfileSpec`: its start figures and its own
    tallies); ``not_applicable`` says why each figure of :data:`FIGURES` it lacks does
    not apply to its game (a Snow Tails race has no characters, no exact solver…):
    absent, never a made-up value."""

    track: str
    players: int
    races: int
    seed: int
    values: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)
    figures: tuple[Figure, ...] = FIGURES
    not_applicable: dict[str, str] = field(default_factory=dict)
    # figures to compare with other profiles of the same races (not in the JSON):
    # ``unfairness``'s square and ``rounds_mean``, each with its per-race influence
    paired: dict[str, Paired] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, key: str) -> float:
        return self.values[key]

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "players": self.players,
            "races": self.races,
            "seed": self.seed,
            "intervals": INTERVAL,
            "figures": dict(self.values),
            **({"not_applicable": dict(self.not_applicable)} if self.not_applicable else {}),
            **self.details,
        }


@dataclass(frozen=True)
class ProfileSettings:
    """How a track is profiled, the same for one track, a sweep and a search.

    ``races`` races from ``seed`` (race ``r`` of a seed is dealt, shuffled and ordered
    alike on every track: common random numbers); the exact solver's figures (``exact``)
    and each character's exact solo rounds (``characters``, with ``exact``; None: yes for
    one profile, no for a sweep, where they cost eight solves a track). With ``precision``,
    races are added until the balance interval's half-width is at most this, up to
    ``max_races`` (None: :data:`PRECISION_RACES` for one profile, 10 × ``races`` for a
    sweep, whose bound on races counts it for every track). ``content`` (a folder or a
    bundled content's name) is the game content raced when no options are given (None:
    the game's bundled). ``skill``: the skill figure too (its ladder's top rung against its
    own policy at mixed tables, ``skill_races`` race pairs on the same seed, by default the
    game's ``skill_share`` of the races, half for Yummell, a quarter for Snow Tails;
    left out, NaN):
    ``trackkit profile``, a sweep, ``compare`` and the Race page measure it, unless told not
    to.

    >>> ProfileSettings(races=500, seed=1).races
    500
    """

    races: int = PROFILE_RACES
    seed: int = 0
    exact: bool = True
    characters: bool | None = None
    precision: float | None = None
    max_races: int | None = None
    content: str | None = None
    skill: bool = False
    skill_races: int | None = None


DEFAULT_PROFILE = ProfileSettings()


def profile_options(ruleset: Any, players: int, content: str | None = None) -> Any:
    """The options a profile races with unless told: the game's own for profiles (Yummell:
    the rulebook's free choice of start path), else its defaults; with ``content`` (a
    folder or a bundled content's name), that content."""
    choices = dict(ruleset.profile_choices)
    if content is not None:
        choices["content"] = ruleset.load_content(content)
    return ruleset.options(players=players, **choices)


def profile_track(
    track: Any,
    settings: ProfileSettings = DEFAULT_PROFILE,
    *,
    players: int = 4,
    options: Any = None,
    simulated: SimulationResult | None = None,
    reference_races: int | None = None,
) -> TrackProfile:
    """Profile ``track`` as ``settings`` say (:class:`ProfileSettings`): its races of
    ``players`` (:func:`profile_options`, or ``options``) beside the same races on an
    average track (:func:`~trackkit.explore.fairness.reference`), the exact solo figures
    of the reference racer on each start path and of each character.

    A game that declares a :class:`~trackkit.games.base.ProfileSpec` (Snow Tails) gets the
    figures that apply to it: the length, the fairness of its start group against the
    fair share and an average track, its own tallies, and characters, exact figures and
    figures of the track only if it has them; the rest is marked not applicable.

    ``simulated`` is a simulation already run with these options and the settings' seed,
    to profile without racing again. ``reference_races``: the races of each preset in the
    reference (default: as many as the track's; fewer costs less and adds the reference's
    noise to the intervals, which include it).
    """
    from trackkit.games import get_ruleset  # the registry, not a game

    races, seed, precision = settings.races, settings.seed, settings.precision
    characters = settings.characters is not False
    ruleset = get_ruleset(track.game)
    spec = ruleset.profile_spec
    max_races = _most_races(ruleset, spec, settings)
    if options is None:
        options = profile_options(ruleset, players, settings.content)
    raced = ready(track, options)  # checked and prepared once for its races and its skill's
    result = simulated or simulate(raced, options, races=races, seed=seed)
    measures = fairness_measures(result, spec)

    def against_reference(result: SimulationResult) -> list[GroupFairness]:
        most = reference_races or result.races
        return [
            group_fairness(result, reference(ruleset, options, most, seed, m.group), m)
            for m in measures
        ]

    # the precision is the first measure's: characters where a race has them
    fairness = against_reference(result)
    while precision is not None and _half_width(fairness[0]) > precision:
        more = min(max_races, RACES_PER_BATCH * math.ceil(2 * result.races / RACES_PER_BATCH))
        if more <= result.races:
            break  # the cap: the profile says how many races it used
        result = extend(result, more)
        fairness = against_reference(result)
    values: dict[str, float] = {}
    if ruleset.exact_solo is not None:  # not run (a sweep, --no-exact): shown as such
        values |= {"exact_rounds": math.nan, "path_spread": math.nan}
        values["character_rounds_spread"] = math.nan
    details: dict[str, Any] = {"options": options.summary()}
    # a reading of the races' the exact solver cannot take leaves its figures out, said why
    refused = ruleset.exact_refusal(options) if ruleset.exact_refusal is not None else None
    if refused and settings.exact:
        details["exact_left_out"] = refused
    elif settings.exact and ruleset.exact_solo is not None:
        content = getattr(options, "content", None)
        values.update(
            exact_figures(ruleset, track, result.board, characters, details, content, options)
        )
    values.update(length_figures(result, seed))
    headline_values, moves = unfairness_figures(result, fairness, spec)
    values.update(headline_values)
    paired = {"rounds_mean": paired_mean(result.rounds.astype(float), result.races)}
    if moves is not None:
        paired["unfairness"] = paired_headline(moves)
    for measure, measured in zip(measures, fairness, strict=True):
        values.update(measured.values)
        if measure is CHARACTERS:
            details["characters"] = measured.rows
        else:
            group = result.group(measure.group)
            details["start"] = {"group": group.key, "noun": spec.start_noun, "table": group.report}
            details[group.report] = start_table(measured.rows, result.options.players)
    details |= start_details(result, spec, details.get("path_rounds"))
    tallies = DRAMA_AND_FRICTION if spec is None else tuple(key for key, _ in spec.tallies)
    for key in tallies:
        tally = result.tally(key)
        values[key] = tally["mean"]
        values[f"{key}_low"], values[f"{key}_high"] = tally["ci95"]
    if "order_pos" in result.totals.groups:
        values.update(seat_figures(result, seed))
    if ruleset.track_figures is not None:
        values.update(ruleset.track_figures(result.board))
    values |= _skill(raced, options, settings, details, paired)
    figures, missing = FIGURES, {}
    if spec is not None:
        figures = profile_figures(ruleset, spec, values)
        missing = not_applicable(ruleset, result, values)
    players = options.players
    return TrackProfile(
        track.name, players, result.races, seed, values, details, figures, missing, paired
    )


def start_details(
    result: SimulationResult, spec: Any, path_rounds: dict[str, float] | None
) -> dict[str, Any]:
    """A profile's tables of the start: a tile game's start paths (each the track's own)
    with its dead choices and its order of first moves; a game with a ``ProfileSpec``, the
    word for its racers (its start group's table is the fairness measure's)."""
    if spec is not None:
        return {"racers": spec.racers}
    details: dict[str, Any] = {"start_paths": start_path_table(result, result.seed)}
    details["dead_paths"] = dead_paths(details["start_paths"], path_rounds)
    order = result.ruleset.start_order_group
    if order is not None:
        details["first_moves"] = start_table(share_rows(result, order), result.options.players)
    return details


def _most_races(ruleset: Any, spec: Any, settings: ProfileSettings) -> int:
    """The most races ``settings`` allow; a :class:`TrackkitError` for settings or a game a
    profile cannot take."""
    races, precision, max_races = settings.races, settings.precision, settings.max_races
    if max_races is None:
        max_races = max(races, PRECISION_RACES)
    if ruleset.track_figures is None and spec is None:
        raise TrackkitError(
            f"profiles cover games that say what a profile measures; {ruleset.title} "
            "does not yet: use `trackkit simulate` for its figures"
        )
    if races < 2:
        raise TrackkitError(f"a profile needs at least 2 races, not {races}")
    if precision is not None and not 0 < precision < 1:
        raise TrackkitError(f"the precision is a half-width between 0 and 1, not {precision}")
    if not races <= max_races <= MAX_PROFILE_RACES:
        raise TrackkitError(
            f"the most races of a profile is {races:,} to {MAX_PROFILE_RACES:,}, not {max_races:,}"
        )
    return max_races


def _half_width(fairness: GroupFairness) -> float:
    low, high = (fairness.values[k] for k in interval_keys(fairness.measure.balance))
    return (high - low) / 2


def profile_figures(ruleset: Any, spec: Any, values: dict[str, float]) -> tuple[Figure, ...]:
    """The figures a profile of a game with a ``ProfileSpec`` has, in its words: those of
    :data:`FIGURES` it has, its start figures, then its tallies (titled as the game
    titles them, each a mean per race)."""
    from dataclasses import replace

    noun = spec.start_noun
    words = {"start": noun, "starts": f"{noun}s"}
    titles = {t.key: t.title for t in ruleset.tallies}
    return (
        *(f for f in FIGURES if f.key in values),
        *(replace(f, title=f.title.format(**words)) for f in START_FIGURES if f.key in values),
        *(Figure(key, f"Per race: {titles[key]}", family) for key, family in spec.tallies),
    )


def not_applicable(
    ruleset: Any, result: SimulationResult, values: dict[str, float]
) -> dict[str, str]:
    """Why each figure of :data:`FIGURES` a profile lacks does not apply to its game."""
    title, groups = ruleset.title, result.totals.groups
    tallies = {t.key for t in ruleset.tallies}
    reasons = {}
    for figure in FIGURES:
        if figure.key in values:
            continue
        if figure.key in CHARACTER_KEYS and "character" not in groups:
            reasons[figure.key] = f"a race of {title} has no characters"
        elif figure.kind == "exact":
            reasons[figure.key] = f"{title} has no exact solver"
        elif figure.key == "seat_advantage":
            reasons[figure.key] = "its races do not record the turn order of the deciding round"
        elif figure.kind == "track":
            reasons[figure.key] = f"{title} declares no figures of the track itself"
        elif figure.key not in tallies:
            reasons[figure.key] = f"not one of the tallies of {title} (its own are profiled)"
    return reasons


def exact_figures(
    ruleset: Any,
    track: Any,
    board: Any,
    characters: bool,
    details: dict[str, Any],
    content: Any = None,
    options: Any = None,
) -> dict[str, float]:
    """The exact solo figures: the reference racer's rounds on the greedy route and on each
    start path, and (``characters``) each character's, with ``content`` (the races'; None:
    the game's bundled) and the readings of ``options`` that can change a solo race (the
    game's ``exact_rules``); the tables go into ``details``."""
    reference_racer = ruleset.exact_reference(content)
    rules = ruleset.exact_rules(options) if ruleset.exact_rules is not None else {}
    # every path at once (one full solve, then each other path on its own squares); the
    # length of the greedy route, ``exact_solo``'s, is one of them
    paths = ruleset.exact_paths(track, prepared=board, content=content, **reference_racer, **rules)
    values = {"exact_rounds": paths[ruleset.greedy_path(board)]}
    for letter, rounds in paths.items():
        values[f"path_rounds_{letter.lower()}"] = rounds
    values["path_spread"] = max(paths.values()) - min(paths.values())
    details["path_rounds"] = paths
    if characters:
        by_character = ruleset.exact_characters(
            track, prepared=board, advantage=reference_racer["advantage"], content=content, **rules
        )
        values["character_rounds_spread"] = max(by_character.values()) - min(by_character.values())
        details["character_rounds"] = by_character
    return values


def seat_figures(result: SimulationResult, seed: int) -> dict[str, float]:
    """The first mover's edge in the deciding round (the turn order is drawn anew every
    round, so no player holds a seat: this is luck, counted with the drama)."""
    seats = result.by_group("order_pos")
    fair = 1.0 / len(seats)
    first = seats[0]
    rate = first["win_rate"] or 0.0
    low, high = wilson(rate, max(1, first["entries"]))
    return {
        "seat_advantage": rate - fair,
        "seat_advantage_low": low - fair,
        "seat_advantage_high": high - fair,
    }


def _skill(
    track: Any,
    options: Any,
    settings: ProfileSettings,
    details: dict[str, Any],
    paired: dict[str, Paired],
) -> dict[str, float]:
    """The skill figure (:func:`~trackkit.explore.ladder.skill_step`), NaN when left out;
    nothing for a game without a ladder."""
    if len(options.ruleset.ladder) < 2:
        return {}
    if not settings.skill:
        return {"skill": math.nan, "skill_low": math.nan, "skill_high": math.nan}
    pairs = settings.skill_races or skill_pairs(settings.races, options.ruleset)
    step = skill_step(track, options, races=pairs, seed=settings.seed)
    average = average_skill(options, seed=settings.seed)
    details["skill"] = step.to_json() | {"average": average.to_json()}
    paired["skill"] = paired_mean(100 * step.pairs, step.races)  # race pair r alike anywhere
    return {"skill": step.gain, "skill_low": step.low, "skill_high": step.high}
