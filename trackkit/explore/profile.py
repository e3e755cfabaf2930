"""A track's profile: the figures that tell a designer how long, how fair, how dramatic and
how rough a race on it is. Each figure is defined once, in :data:`FIGURES`, and explained
in the README; every sampled figure comes with its 95% interval (``KEY_low``/``KEY_high``).

**What is measured, and how.** A profile races the track with the game's profile options
(Yummell: greedy racers whose start paths are *dealt* in turn, so every path starts as many
racers) and races the reference, "an average track", with the same options, the same seed
and the same number of races: 30 tracks drawn uniformly from the game's space of legal
tracks for that many players (a fixed draw; the presets where there is no such space).
Race ``r`` of a seed is dealt, shuffled and ordered alike on every track (common random
numbers), so the roster's own strengths and the luck of the deal fall out of the
difference, and what remains is what the track does.

- ``balance`` is one minus ``unfair_character``: the share of all wins that this track
  moves between characters compared with an average track, beyond noise (half the sum over
  characters of ``entries / races × max(0, |win rate here - win rate there| - 2 se)``,
  :func:`moved_wins`). 1 is a track that treats every character as an average track does,
  as far as the races can tell; 0.9 moves one win in ten. It measures the track, not the
  roster: a roster that is unbalanced everywhere leaves it at 1.
- ``character_tilt``: how far the track moves the win rate of the character it moves most
  (0.06: by 6 points, up or down); the character, and which way, are in the profile's
  ``characters`` table and its verdict.
- ``path_rounds_a``…, ``path_spread``: the exact expected rounds of the reference racer
  forced onto each start path, and the slowest minus the fastest: no sampling error.
- ``character_rounds_spread``: the exact expected rounds of the slowest character minus the
  fastest (each with the reference advantage, solo, on the greedy route), with each
  character's in the profile's ``character_rounds``.

**Intervals.** Means (rounds, per-race counts) use the normal approximation; every other
sampled figure a parametric bootstrap (:data:`BOOTSTRAP_DRAWS` draws seeded from the
profile's seed): wins redrawn as binomials from each label's entries and win rate, on the
track and on the reference, race lengths as a multinomial over the lengths seen. The
bootstrap treats the track and the reference as independent, so the interval is a little
wide where common numbers make them move together. ``unfair_character`` (and so
``balance``) takes its low end from the noise-corrected figure's draws and its high end
from the plain distance's: each is pushed its own way by noise, so the interval is wide on
purpose and never claims a certainty the races do not have.

**Precision you choose.** With ``precision``, races are added (doubling) until the balance
interval's half-width is at most ``precision`` or ``max_races`` are run; the profile says
how many races it used.

>>> from trackkit.games.yummell.presets import load_preset
>>> settings = ProfileSettings(races=500, seed=1)
>>> profile = profile_track(load_preset("first-run"), settings, players=3)
>>> 0 <= profile["balance_low"] <= profile["balance"] <= profile["balance_high"] <= 1
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.sim.montecarlo import RACES_PER_BATCH, SimulationResult, extend, simulate

Better = Literal["high", "low", "target", "none"]
Kind = Literal["sampled", "exact", "track"]

PROFILE_RACES = 2_000  # races of a profile, a sweep's and a search's, unless told
MAX_PROFILE_RACES = 1_000_000
PRECISION_RACES = 100_000  # the most races of one profile with a precision, unless told
BOOTSTRAP_DRAWS = 200  # each end of a 95% interval to about 5% of its width (one standard error)
INTERVAL = "95%: normal approximation for means, parametric bootstrap for the rest"


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
BY_KEY = {f.key: f for f in FIGURES}


def interval_keys(key: str) -> tuple[str, str]:
    return f"{key}_low", f"{key}_high"


FIGURE_KEYS = tuple(
    k
    for f in FIGURES
    for k in ((f.key, *interval_keys(f.key)) if f.kind == "sampled" else (f.key,))
)
FAIRNESS_KEYS = tuple(f.key for f in FIGURES if f.family == "balance")
DRAMA_AND_FRICTION = ("lead_changes", "last_round", "winner_gap", "bounces", "challenges_lost")


@dataclass(frozen=True)
class TrackProfile:
    """The figures of one track (``values``: :data:`FIGURE_KEYS`, the exact per-path
    rounds ``path_rounds_<letter>`` and the terrain mix ``terrain_<name>``: a sweep's
    columns), and the tables behind them (``details``: per character and per start path,
    with the reference and intervals; the exact per-character rounds)."""

    track: str
    players: int
    races: int
    seed: int
    values: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)

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
    sweep, whose bound on races counts it for every track).

    >>> ProfileSettings(races=500, seed=1).races
    500
    """

    races: int = PROFILE_RACES
    seed: int = 0
    exact: bool = True
    characters: bool | None = None
    precision: float | None = None
    max_races: int | None = None


DEFAULT_PROFILE = ProfileSettings()


def profile_options(ruleset: Any, players: int) -> Any:
    """The options a profile races with unless told: the game's own for profiles (Yummell:
    start paths dealt, so every path is raced), else its defaults."""
    return ruleset.options(players=players, **getattr(ruleset, "profile_choices", {}))


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
    average track (:func:`reference`), the exact solo figures of the reference racer on
    each start path and of each character.

    ``simulated`` is a simulation already run with these options and the settings' seed,
    to profile without racing again. ``reference_races``: the races of each preset in the
    reference (default: as many as the track's; fewer costs less and adds the reference's
    noise to the intervals, which include it).
    """
    from trackkit.games import get_ruleset  # the registry, not a game

    races, seed, precision = settings.races, settings.seed, settings.precision
    max_races = settings.max_races
    if max_races is None:
        max_races = max(races, PRECISION_RACES)
    characters = settings.characters is not False

    ruleset = get_ruleset(track.game)
    if ruleset.track_figures is None:
        raise TrackkitError(
            f"profiles cover tile games with a drama and friction count; {ruleset.title} "
            "has none yet: use `trackkit simulate` for its figures"
        )
    if races < 2:
        raise TrackkitError(f"a profile needs at least 2 races, not {races}")
    if precision is not None and not 0 < precision < 1:
        raise TrackkitError(f"the precision is a half-width between 0 and 1, not {precision}")
    if not races <= max_races <= MAX_PROFILE_RACES:
        raise TrackkitError(
            f"the most races of a profile is {races:,} to {MAX_PROFILE_RACES:,}, not {max_races:,}"
        )
    options = options if options is not None else profile_options(ruleset, players)
    result = simulated or simulate(track, options, races=races, seed=seed)

    def against_reference(result: SimulationResult) -> CharacterFairness:
        most = reference_races or result.races
        return character_fairness(result, reference(ruleset, options, most, seed))

    fairness = against_reference(result)
    while precision is not None and _half_width(fairness) > precision:
        more = min(max_races, RACES_PER_BATCH * math.ceil(2 * result.races / RACES_PER_BATCH))
        if more <= result.races:
            break  # the cap: the profile says how many races it used
        result = extend(result, more)
        fairness = against_reference(result)
    values: dict[str, float] = {"exact_rounds": math.nan, "path_spread": math.nan}
    values["character_rounds_spread"] = math.nan
    details: dict[str, Any] = {"options": options.summary()}
    if settings.exact and ruleset.exact_solo is not None:
        values.update(exact_figures(ruleset, track, result.board, characters, details))
    values.update(length_figures(result, seed))
    values.update(fairness.values)
    details["characters"] = fairness.rows
    details["start_paths"] = start_path_table(result, seed)
    for key in DRAMA_AND_FRICTION:
        tally = result.tally(key)
        values[key] = tally["mean"]
        values[f"{key}_low"], values[f"{key}_high"] = tally["ci95"]
    values.update(seat_figures(result, seed))
    values.update(ruleset.track_figures(result.board))
    return TrackProfile(track.name, options.players, result.races, seed, values, details)


def _half_width(fairness: CharacterFairness) -> float:
    low, high = fairness.values["balance_low"], fairness.values["balance_high"]
    return (high - low) / 2


def exact_figures(
    ruleset: Any, track: Any, board: Any, characters: bool, details: dict[str, Any]
) -> dict[str, float]:
    """The exact solo figures: the reference racer's rounds on the greedy route and on each
    start path, and (``characters``) each character's; the tables go into ``details``."""
    reference_racer = ruleset.exact_reference()
    # every path at once (one full solve, then each other path on its own squares); the
    # length of the greedy route, ``exact_solo``'s, is one of them
    paths = ruleset.exact_paths(track, prepared=board, **reference_racer)
    values = {"exact_rounds": paths[ruleset.greedy_path(board)]}
    for letter, rounds in paths.items():
        values[f"path_rounds_{letter.lower()}"] = rounds
    values["path_spread"] = max(paths.values()) - min(paths.values())
    details["path_rounds"] = paths
    if characters:
        by_character = ruleset.exact_characters(
            track, prepared=board, advantage=reference_racer["advantage"]
        )
        values["character_rounds_spread"] = max(by_character.values()) - min(by_character.values())
        details["character_rounds"] = by_character
    return values


# --- the reference: an average track, raced alike -------------------------------------------

REFERENCE_TRACKS = 30  # tracks of the panel that stands for the space's average track
REFERENCE_DRAW = 20261125  # the panel's fixed draw: the same reference for every profile
_REFERENCE: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}
KEEP_REFERENCES = 16


def reference_tracks(ruleset: Any, players: int) -> tuple[Any, ...]:
    """The tracks that stand for an average track of ``players``: :data:`REFERENCE_TRACKS`
    drawn uniformly (a fixed draw) from the game's space of legal tracks for that many
    players, or the game's presets when it has no such space."""
    key = (ruleset.name, players)
    if key not in _PANELS:
        bounds = ruleset.players
        space = getattr(ruleset, "track_space", None)
        if space is not None and bounds.build_min <= players <= bounds.build_max:
            _PANELS[key] = tuple(space(players).sample(REFERENCE_TRACKS, REFERENCE_DRAW))
        else:
            _PANELS[key] = tuple(ruleset.load_preset(slug) for slug in ruleset.presets())
    return _PANELS[key]


_PANELS: dict[tuple[str, int], tuple[Any, ...]] = {}


def reference(ruleset: Any, options: Any, races: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Entries and wins of each character on an average track (:func:`reference_tracks`),
    each track raced ``races`` times with ``options`` and ``seed``: the very races the
    profiled track runs (common random numbers), so the luck they share cancels from the
    difference. Kept: a sweep asks for the same one for every track."""
    content = getattr(options, "content", None)
    key = (ruleset.name, options, str(getattr(content, "folder", "")), races, seed)
    if key not in _REFERENCE:
        entries, wins = 0, 0
        for track in reference_tracks(ruleset, options.players):
            result = simulate(track, options, races=races, seed=seed)
            table = result.totals.groups["character"]
            entries, wins = entries + table[0], wins + table[1]
        if len(_REFERENCE) >= KEEP_REFERENCES:
            del _REFERENCE[next(iter(_REFERENCE))]
        _REFERENCE[key] = (np.asarray(entries), np.asarray(wins))
    return _REFERENCE[key]


# --- the figures ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CharacterFairness:
    values: dict[str, float]
    rows: list[dict[str, Any]]


def character_fairness(
    result: SimulationResult, ref: tuple[np.ndarray, np.ndarray]
) -> CharacterFairness:
    """``balance``, ``unfair_character`` and ``character_tilt`` with their intervals, and
    per character: entries, win rate here and on the reference, the difference and its
    interval."""
    entries, wins = (result.totals.groups["character"][i].astype(float) for i in (0, 1))
    ref_entries, ref_wins = (a.astype(float) for a in ref)
    races = float(result.races)
    rate = np.divide(wins, entries, out=np.zeros_like(wins), where=entries > 0)
    ref_rate = np.divide(ref_wins, ref_entries, out=np.zeros_like(ref_wins), where=ref_entries > 0)
    raced = entries > 0
    moved = float(moved_wins(entries, rate, ref_rate, races))
    delta = np.where(raced, rate - ref_rate, 0.0)
    most = int(np.argmax(np.abs(delta)))
    # the bootstrap: wins redrawn on the track and on the reference
    rng = np.random.default_rng([result.seed, 0xB007, result.races])
    n = entries.astype(np.int64)
    draws = rng.binomial(n, rate, size=(BOOTSTRAP_DRAWS, n.size)).astype(float)
    ref_draws = rng.binomial(
        ref_entries.astype(np.int64), ref_rate, size=(BOOTSTRAP_DRAWS, n.size)
    ).astype(float)
    ref_rates = np.divide(
        ref_draws, ref_entries, out=np.zeros_like(ref_draws), where=ref_entries > 0
    )
    rates_b = np.divide(draws, entries, out=np.zeros_like(draws), where=entries > 0)
    delta_b = np.where(raced, rates_b - ref_rates, 0.0)
    # the noise-corrected figure is pushed down by noise, the plain distance up: the low
    # end from the one, the high end from the other (wide on purpose, never [0, 0] where
    # the races cannot tell)
    low = _percentiles(moved_wins(entries, rates_b, ref_rates, races))[0]
    high = _percentiles(moved_wins(entries, rates_b, ref_rates, races, noise_errors=0.0))[1]
    values = {
        "balance": 1.0 - moved,
        "balance_low": max(0.0, 1.0 - high),
        "balance_high": min(1.0, 1.0 - low),
        "unfair_character": moved,
        "unfair_character_low": low,
        "unfair_character_high": high,
        "character_tilt": float(abs(delta[most])),
    }
    tilt_b = np.abs(delta_b).max(axis=1)
    values["character_tilt_low"], values["character_tilt_high"] = _percentiles(tilt_b)
    names = result.group("character").labels
    rows = []
    for c, name in enumerate(names):
        d_low, d_high = _percentiles(delta_b[:, c])
        rows.append(
            {
                "name": name,
                "entries": int(entries[c]),
                "win_rate": float(rate[c]) if raced[c] else None,
                "reference_win_rate": float(ref_rate[c]),
                "difference": float(delta[c]) if raced[c] else None,
                "difference_low": d_low if raced[c] else None,
                "difference_high": d_high if raced[c] else None,
            }
        )
    return CharacterFairness(values, rows)


NOISE_ERRORS = 2.0  # standard errors of each character's win rate counted as noise


def moved_wins(
    entries: np.ndarray,
    rate: np.ndarray,
    ref_rate: np.ndarray,
    races: float,
    noise_errors: float = NOISE_ERRORS,
) -> Any:
    """The share of wins a track moves between characters, beyond noise: half the sum over
        characters of ``entries / races × max(0, |rate - ref_rate| - noise_errors × se)``,
        ``se`` the binomial standard error of the rate in that many entries (the last axis runs
        over characters; leading axes are bootstrap draws). A character whose rate moved by
        less than noise could move it counts for nothing, so the figure says what the races can
        tell from luck; with more races it tends to the plain total variation distance (which
    ``noise_errors=0`` gives)."""
    se = np.sqrt(ref_rate * (1 - ref_rate) / np.maximum(entries, 1))
    beyond = np.maximum(0.0, np.abs(rate - ref_rate) - noise_errors * se)
    return 0.5 * (entries * np.where(entries > 0, beyond, 0.0)).sum(axis=-1) / races


def _percentiles(draws: np.ndarray) -> tuple[float, float]:
    low, high = np.percentile(draws, [2.5, 97.5])
    return float(low), float(high)


def start_path_table(result: SimulationResult, seed: int) -> list[dict[str, Any]]:
    """Per start path: racers that started on it, their win rate and its 95% interval
    (Wilson), and the exact-free verdict a designer reads: does it differ from the fair
    share by more than noise? (With dealt paths every path starts as many racers.)"""
    rows = []
    fair = 1.0 / result.options.players
    for row in result.by_group("route"):
        taken = row["entries"]
        if not taken:
            continue
        low, high = wilson(row["win_rate"], taken)
        rows.append(
            {
                "name": row["name"],
                "entries": taken,
                "win_rate": row["win_rate"],
                "win_rate_low": low,
                "win_rate_high": high,
                "fair_share": fair,
            }
        )
    return rows


def wilson(rate: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate seen in ``n`` trials."""
    z = 1.959963984540054
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


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


def length_figures(result: SimulationResult, seed: int) -> dict[str, float]:
    """Mean rounds with its interval, the standard deviation and the 10th and 90th
    percentiles, each with a bootstrap interval over the lengths seen."""
    low, high = result.ci95
    counts = result.totals.rounds_count
    values = {"rounds_mean": result.mean_rounds, "rounds_mean_low": low, "rounds_mean_high": high}
    point = _length_stats(counts[None, :])[0]
    rng = np.random.default_rng([result.seed, 0x1E46, result.races])
    draws = rng.multinomial(result.races, counts / counts.sum(), size=BOOTSTRAP_DRAWS)
    boot = _length_stats(draws)
    for i, key in enumerate(("rounds_std", "rounds_p10", "rounds_p90")):
        values[key] = float(point[i])
        values[f"{key}_low"], values[f"{key}_high"] = _percentiles(boot[:, i])
    return values


def _length_stats(counts: np.ndarray) -> np.ndarray:
    """Standard deviation, 10th and 90th percentile of each row of race-length counts."""
    lengths = np.arange(counts.shape[1])
    races = counts.sum(axis=1)
    mean = counts @ lengths / races
    variance = (counts * (lengths[None, :] - mean[:, None]) ** 2).sum(axis=1) / np.maximum(
        1, races - 1
    )
    cumulative = np.cumsum(counts, axis=1)
    p10 = (cumulative < 0.1 * races[:, None]).sum(axis=1)
    p90 = (cumulative < 0.9 * races[:, None]).sum(axis=1)
    return np.stack([np.sqrt(variance), p10, p90], axis=1).astype(float)
