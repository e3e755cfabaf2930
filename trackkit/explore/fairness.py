"""Fairness against an average track and against the fair share: the figures of a
profile's balance family (:mod:`trackkit.explore.profile`, which explains them).

The reference, "an average track", is a fixed panel: :data:`REFERENCE_TRACKS` tracks drawn
uniformly from the game's space of legal tracks for that many players, or its presets
where it has no such space (Snow Tails). A group whose labels mean the same on every
track (Yummell's characters, Snow Tails' start slots) is raced on the panel with the
profiled track's options, seed and races (common random numbers), and :func:`group_fairness`
says how many wins the track moves between its labels, beyond noise, with a parametric
bootstrap interval (:data:`BOOTSTRAP_DRAWS` draws, seeded from the races' seed and the
measure's own stream). A label's win rate against the fair share has a Wilson interval.

>>> low, high = wilson(0.25, 400)
>>> round(low, 3), round(high, 3)
(0.21, 0.295)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from trackkit.explore.paired import (
    Estimate,
    Moves,
    Rates,
    against_share,
    combined,
    difference,
    headline,
    largest_move,
    per_race,
    rate_spread,
    rates,
    signed_interval,
)
from trackkit.sim.montecarlo import SimulationResult, simulate

BOOTSTRAP_DRAWS = 200  # each end of a 95% interval to about 5% of its width (one standard error)

# --- the reference: an average track, raced alike -------------------------------------------

REFERENCE_TRACKS = 30  # tracks of the panel that stands for the space's average track
REFERENCE_DRAW = 20261125  # the panel's fixed draw: the same reference for every profile
_REFERENCE: dict[tuple[Any, ...], Panel] = {}
KEEP_REFERENCES = 16


def reference_tracks(ruleset: Any, players: int) -> tuple[Any, ...]:
    """The tracks that stand for an average track of ``players``: :data:`REFERENCE_TRACKS`
    drawn uniformly (a fixed draw) from the game's space of legal tracks for that many
    players, or the game's presets when it has no such space."""
    key = (ruleset.name, players)
    if key not in _PANELS:
        if _drawn_from_space(ruleset, players):
            space = ruleset.track_space(players)
            _PANELS[key] = tuple(space.sample(REFERENCE_TRACKS, REFERENCE_DRAW))
        else:
            _PANELS[key] = tuple(ruleset.load_preset(slug) for slug in ruleset.presets())
    return _PANELS[key]


def reference_words(ruleset: Any, players: int) -> str:
    """What the average track of ``players`` is, in words (a caption's).

    >>> from trackkit.games import all_rulesets
    >>> reference_words(all_rulesets()[-1], 5)  # Snow Tails
    'the 4 preset tracks of Mush! Mush! Snow Tails 2'
    """
    if _drawn_from_space(ruleset, players):
        return (
            f"{REFERENCE_TRACKS} tracks drawn once from the space of legal tracks for "
            f"{players} players"
        )
    return f"the {len(ruleset.presets())} preset tracks of {ruleset.title}"


def _drawn_from_space(ruleset: Any, players: int) -> bool:
    bounds = ruleset.players
    return ruleset.average_track == "space" and bounds.build_min <= players <= bounds.build_max


_PANELS: dict[tuple[str, int], tuple[Any, ...]] = {}


@dataclass(frozen=True)
class Panel:
    """A group's races on an average track: each label's entries and wins per track of the
    panel (totals over its races, averaged over its tracks), and the same per kept race
    (races × labels, averaged over the tracks: race ``r`` is the profiled track's race
    ``r``, so the two pair up), from ``races`` races a track."""

    entries: np.ndarray
    wins: np.ndarray
    kept_entries: np.ndarray
    kept_wins: np.ndarray
    races: int
    tracks: int

    def rates(self) -> Rates:
        return rates(self.entries, self.wins, self.kept_entries, self.kept_wins, self.races)


def reference(ruleset: Any, options: Any, races: int, seed: int, group: str = "character") -> Panel:
    """Entries and wins of each character (or label of another ``group`` that means the
    same on every track: a start slot) on an average track (:func:`reference_tracks`),
    each track raced ``races`` times with ``options`` and ``seed``: the very races the
    profiled track runs (common random numbers), so the luck they share cancels from the
    difference. Kept: a sweep asks for the same one for every track."""
    content = getattr(options, "content", None)
    key = (ruleset.name, options, str(getattr(content, "folder", "")), races, seed, group)
    if key not in _REFERENCE:
        tracks = reference_tracks(ruleset, options.players)
        sums: list[Any] = [0, 0, 0, 0]
        for track in tracks:
            result = simulate(track, options, races=races, seed=seed)
            table = result.totals.groups[group]
            size = table.shape[1]
            kept = per_race(result.column(group), result.placing, size)
            for i, part in enumerate((table[0], table[1], *kept)):
                sums[i] = sums[i] + np.asarray(part, dtype=float)
        if len(_REFERENCE) >= KEEP_REFERENCES:
            del _REFERENCE[next(iter(_REFERENCE))]
        _REFERENCE[key] = Panel(
            *(np.asarray(x) / len(tracks) for x in sums), races=races, tracks=len(tracks)
        )
    return _REFERENCE[key]


# --- a group against the reference ------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """A group whose fairness a profile measures against an average track, and the keys
    of its figures; ``stream`` seeds its bootstrap apart from any other measure's."""

    group: str
    balance: str
    unfair: str
    tilt: str
    stream: int
    spread: str | None = None  # the best label's win rate minus the worst's


CHARACTERS = Measure("character", "balance", "unfair_character", "character_tilt", 0xB007)


def start_measure(group: str) -> Measure:
    """The start group of a :class:`~trackkit.games.base.ProfileSpec` (Snow Tails: the
    start slots), measured as characters are, and by its spread."""
    return Measure(group, "start_balance", "unfair_start", "start_tilt", 0x57A7, "start_spread")


def fairness_measures(result: SimulationResult, spec: Any) -> list[Measure]:
    """What a profile measures against an average track: the characters where a race has
    them, and a declared start group."""
    measures = [CHARACTERS] if "character" in result.totals.groups else []
    if spec is not None:
        measures.append(start_measure(spec.start_group))
    return measures


@dataclass(frozen=True)
class GroupFairness:
    """A group's figures against an average track (``values``), a row per label, and the
    moves behind them (``moves``: each label's win rate here minus on the average track,
    paired race by race), from which a profile's headline is built."""

    measure: Measure
    values: dict[str, float]
    rows: list[dict[str, Any]]
    moves: Moves | None = None


def character_fairness(result: SimulationResult, ref: Panel) -> GroupFairness:
    """``balance``, ``unfair_character`` and ``character_tilt`` with their intervals, and
    per character: entries, win rate here and on the reference, the difference and its
    interval."""
    return group_fairness(result, ref, CHARACTERS)


def track_rates(result: SimulationResult, group: str) -> Rates:
    """The win rates of ``group``'s labels in ``result``'s races, with each kept race's
    influence on them (:mod:`trackkit.explore.paired`)."""
    table = result.totals.groups[group]
    kept = per_race(result.column(group), result.placing, table.shape[1])
    return rates(table[0], table[1], *kept, result.races)


def rate_variances(here: Rates) -> np.ndarray:
    """The variance of each label's win rate, race by race: racers of one race who share a
    label (two on one start path) are not independent trials (one winner a race), so a
    binomial interval is too wide there."""
    return (here.influence * here.influence).sum(axis=0)


def share_rows(result: SimulationResult, group: str) -> list[dict[str, Any]]:
    """Per label of ``group`` (Yummell's order of first moves): entries, win rate and its
    95% interval (race by race), and its move from the fair share with its interval."""
    here = track_rates(result, group)
    moves = against_share(here, 1.0 / result.options.players)
    variances = rate_variances(here)
    rows = []
    for c, name in enumerate(result.group(group).labels):
        if here.entries[c] <= 0:
            continue
        won = signed_interval(here.rate[c], variances[c])
        move = signed_interval(moves.d[c], variances[c])
        rows.append(
            {
                "name": name,
                "entries": int(here.entries[c]),
                "win_rate": float(here.rate[c]),
                "win_rate_low": max(0.0, won.low),
                "win_rate_high": min(1.0, won.high),
                "difference": move.value,
                "difference_low": move.low,
                "difference_high": move.high,
            }
        )
    return rows


def start_moves(result: SimulationResult, group: str) -> Moves:
    """How far each label of a start group (Snow Tails' start slots) is from the fair
    share, one win in ``players``, race by race: the start part of a profile's headline."""
    return against_share(track_rates(result, group), 1.0 / result.options.players)


def group_fairness(result: SimulationResult, ref: Panel, measure: Measure) -> GroupFairness:
    """The fairness of ``measure``'s group against an average track (``ref``): each label's
    move (its win rate here minus there, paired race by race, with its 95% interval), the
    largest move (``tilt``, with simultaneous intervals), the wins moved beyond noise and
    the balance, its spread if it has one."""
    here = track_rates(result, measure.group)
    moves = difference(here, ref.rates())
    entries, rate, ref_rate = here.entries, here.rate, ref.rates().rate
    raced = entries > 0
    covariance = moves.covariance
    values = _moved_values(result, ref, measure, here)
    raced_index = np.flatnonzero(raced)
    _, tilt = largest_move(moves.d[raced_index], covariance[np.ix_(raced_index, raced_index)])
    values |= _figure(measure.tilt, tilt)
    if measure.spread is not None:
        values |= _figure(measure.spread, _spread(here, raced_index))
    names = result.group(measure.group).labels
    rows = []
    errors = rate_variances(here)
    for c, name in enumerate(names):
        move = signed_interval(moves.d[c], covariance[c, c])
        won = signed_interval(rate[c], errors[c])
        rows.append(
            {
                "name": name,
                "entries": int(entries[c]),
                "win_rate": float(rate[c]) if raced[c] else None,
                "win_rate_low": max(0.0, won.low) if raced[c] else None,
                "win_rate_high": min(1.0, won.high) if raced[c] else None,
                "reference_win_rate": float(ref_rate[c]),
                "difference": move.value if raced[c] else None,
                "difference_low": move.low if raced[c] else None,
                "difference_high": move.high if raced[c] else None,
            }
        )
    return GroupFairness(measure, values, rows, moves)


def _figure(key: str, estimate: Estimate) -> dict[str, float]:
    return {key: estimate.value, f"{key}_low": estimate.low, f"{key}_high": estimate.high}


def _spread(here: Rates, raced: np.ndarray) -> Estimate:
    """The best label's win rate minus the worst's (:func:`rate_spread`)."""
    influence = here.influence[:, raced]
    return rate_spread(here.rate[raced], influence.T @ influence)


def _moved_values(
    result: SimulationResult, ref: Panel, measure: Measure, here: Rates
) -> dict[str, float]:
    """The wins moved beyond noise (``unfair``) and the balance, one minus it, with their
    bootstrap intervals: the figures a profile led with before its headline, kept as
    columns (the estimate is thresholded at two standard errors, which is why it
    saturates on a balanced roster; see :func:`moved_wins`)."""
    entries, rate = here.entries, here.rate
    ref_entries = ref.entries.astype(float) * ref.tracks  # over every track of the panel
    ref_rate = ref.rates().rate
    races = float(result.races)
    moved = float(moved_wins(entries, rate, ref_rate, races))
    rng = np.random.default_rng([result.seed, measure.stream, result.races])
    n = entries.astype(np.int64)
    draws = rng.binomial(n, rate, size=(BOOTSTRAP_DRAWS, n.size)).astype(float)
    ref_draws = rng.binomial(
        np.rint(ref_entries).astype(np.int64), ref_rate, size=draws.shape
    ) / np.maximum(ref_entries, 1)
    rates_b = np.divide(draws, entries, out=np.zeros_like(draws), where=entries > 0)
    low = min(moved, percentiles(moved_wins(entries, rates_b, ref_draws, races))[0])
    high = max(moved, percentiles(moved_wins(entries, rates_b, ref_draws, races, 0.0))[1])
    return {
        measure.balance: 1.0 - moved,
        f"{measure.balance}_low": max(0.0, 1.0 - high),
        f"{measure.balance}_high": min(1.0, 1.0 - low),
        measure.unfair: moved,
        f"{measure.unfair}_low": low,
        f"{measure.unfair}_high": high,
    }


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


def percentiles(draws: np.ndarray) -> tuple[float, float]:
    low, high = np.percentile(draws, [2.5, 97.5])
    return float(low), float(high)


def start_table(rows: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per label of a start group (:func:`group_fairness`'s rows, whose win rates carry
    their 95% intervals, race by race), with the fair share, one win in ``players``."""
    return [{**row, "fair_share": 1 / players} for row in rows if row["win_rate"] is not None]


def wilson(rate: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate seen in ``n`` trials."""
    z = 1.959963984540054
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# --- the headline, and the start paths of a tile game ------------------------------------


def unfairness_figures(
    result: SimulationResult, fairness: list[GroupFairness], spec: Any
) -> tuple[dict[str, float], Moves | None]:
    """The headline ``unfairness`` and its parts, each in points of win share with its 95%
    interval (:func:`~trackkit.explore.paired.headline`): how far the track moves a
    racer's chance of winning from fair, over every source the track controls that the
    profile races: the characters against an average track (``unfairness_character``)
    and the start against the fair share (``unfairness_start``: Snow Tails' start slots;
    Yummell's order of first moves, in which the racers commit to a start path). The
    parts add up in squares: ``unfairness² = character² + start²``. Also returns the
    moves behind the headline (None without any), to compare it with other profiles'."""
    parts = {}
    for measured in fairness:
        if measured.measure is CHARACTERS and measured.moves is not None:
            parts["unfairness_character"] = measured.moves
    start = spec.start_group if spec is not None else result.ruleset.start_order_group
    if start is not None:
        parts["unfairness_start"] = start_moves(result, start)
    values: dict[str, float] = {}
    for key, moves in parts.items():
        values |= estimate_values(key, headline(moves))
    if not parts:
        return values, None
    whole = combined(list(parts.values()))
    return values | estimate_values("unfairness", headline(whole)), whole


def estimate_values(key: str, estimate: Estimate) -> dict[str, float]:
    """A figure and its interval as a profile's values: ``key``, ``key_low``, ``key_high``."""
    return {key: estimate.value, f"{key}_low": estimate.low, f"{key}_high": estimate.high}


def start_path_table(result: SimulationResult, seed: int) -> list[dict[str, Any]]:
    """Per start path: racers that started on it, their win rate and its 95% interval
    (race by race: two racers of one race on one path are not independent trials), and
    the exact-free verdict a designer reads: does it differ from the fair share by more
    than noise? (With dealt paths every path starts as many racers.)"""
    rows = []
    fair = 1.0 / result.options.players
    variances = rate_variances(track_rates(result, "route"))
    for index, row in enumerate(result.by_group("route")):
        taken = row["entries"]
        if not taken:
            continue
        won = signed_interval(row["win_rate"], variances[index])
        low, high = max(0.0, won.low), min(1.0, won.high)
        rows.append(
            {
                "name": row["name"],
                "entries": taken,
                "win_rate": row["win_rate"],
                "win_rate_low": low,
                "win_rate_high": high,
                "fair_share": fair,
                "share": row.get("share", math.nan),
            }
        )
    return rows


DEAD_SHARE = 0.05  # a path fewer racers than this choose, of those free to choose it
DEAD_ROUNDS = 0.05  # and slower alone than the fastest by at least this many rounds


def dead_paths(raced: list[dict[str, Any]], exact: dict[str, float] | None) -> list[dict[str, Any]]:
    """The start paths no racer should take: slower alone than the fastest (exact, by at
    least :data:`DEAD_ROUNDS`) and taken by fewer than :data:`DEAD_SHARE` of the racers
    when they choose freely. A design flaw, not an unfairness between players (anyone may
    avoid it); each with its cost in rounds. Empty where the exact figures were not
    computed; with dealt paths every path is taken as often, so none is dead."""
    if not exact or not raced or "share" not in raced[0]:
        return []
    best = min(exact.values())
    shares = {row["name"]: row["share"] for row in raced}
    return [
        {"path": name, "cost_rounds": rounds - best, "share_taken": shares.get(name, 0.0)}
        for name, rounds in exact.items()
        if rounds - best >= DEAD_ROUNDS and shares.get(name, 0.0) < DEAD_SHARE
    ]
