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

from trackkit.sim.montecarlo import SimulationResult, simulate

BOOTSTRAP_DRAWS = 200  # each end of a 95% interval to about 5% of its width (one standard error)

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
        if _drawn_from_space(ruleset, players):
            space = ruleset.track_space(players)
            _PANELS[key] = tuple(space.sample(REFERENCE_TRACKS, REFERENCE_DRAW))
        else:
            _PANELS[key] = tuple(ruleset.load_preset(slug) for slug in ruleset.presets())
    return _PANELS[key]


def reference_words(ruleset: Any, players: int) -> str:
    """What the average track of ``players`` is, in words (a caption's).

    >>> from trackkit.games import get_ruleset
    >>> reference_words(get_ruleset("snowtails"), 5)
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
    space = getattr(ruleset, "track_space", None)
    return space is not None and bounds.build_min <= players <= bounds.build_max


_PANELS: dict[tuple[str, int], tuple[Any, ...]] = {}


def reference(
    ruleset: Any, options: Any, races: int, seed: int, group: str = "character"
) -> tuple[np.ndarray, np.ndarray]:
    """Entries and wins of each character (or label of another ``group`` that means the
    same on every track: a start slot) on an average track (:func:`reference_tracks`),
    each track raced ``races`` times with ``options`` and ``seed``: the very races the
    profiled track runs (common random numbers), so the luck they share cancels from the
    difference. Kept: a sweep asks for the same one for every track."""
    content = getattr(options, "content", None)
    key = (ruleset.name, options, str(getattr(content, "folder", "")), races, seed, group)
    if key not in _REFERENCE:
        entries, wins = 0, 0
        for track in reference_tracks(ruleset, options.players):
            result = simulate(track, options, races=races, seed=seed)
            table = result.totals.groups[group]
            entries, wins = entries + table[0], wins + table[1]
        if len(_REFERENCE) >= KEEP_REFERENCES:
            del _REFERENCE[next(iter(_REFERENCE))]
        _REFERENCE[key] = (np.asarray(entries), np.asarray(wins))
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
    measure: Measure
    values: dict[str, float]
    rows: list[dict[str, Any]]


def character_fairness(
    result: SimulationResult, ref: tuple[np.ndarray, np.ndarray]
) -> GroupFairness:
    """``balance``, ``unfair_character`` and ``character_tilt`` with their intervals, and
    per character: entries, win rate here and on the reference, the difference and its
    interval."""
    return group_fairness(result, ref, CHARACTERS)


def group_fairness(
    result: SimulationResult, ref: tuple[np.ndarray, np.ndarray], measure: Measure
) -> GroupFairness:
    """The fairness of ``measure``'s group against an average track (``ref``): its
    balance, wins moved and tilt (for characters ``balance``, ``unfair_character``,
    ``character_tilt``) with their intervals, its spread if it has one, and per label:
    entries, win rate here and on the reference, the difference and its interval."""
    entries, wins = (result.totals.groups[measure.group][i].astype(float) for i in (0, 1))
    ref_entries, ref_wins = (a.astype(float) for a in ref)
    races = float(result.races)
    rate = np.divide(wins, entries, out=np.zeros_like(wins), where=entries > 0)
    ref_rate = np.divide(ref_wins, ref_entries, out=np.zeros_like(ref_wins), where=ref_entries > 0)
    raced = entries > 0
    moved = float(moved_wins(entries, rate, ref_rate, races))
    delta = np.where(raced, rate - ref_rate, 0.0)
    most = int(np.argmax(np.abs(delta)))
    # the bootstrap: wins redrawn on the track and on the reference
    rng = np.random.default_rng([result.seed, measure.stream, result.races])
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
    low = percentiles(moved_wins(entries, rates_b, ref_rates, races))[0]
    high = percentiles(moved_wins(entries, rates_b, ref_rates, races, noise_errors=0.0))[1]
    balance, unfair, tilt = measure.balance, measure.unfair, measure.tilt
    values = {
        balance: 1.0 - moved,
        f"{balance}_low": max(0.0, 1.0 - high),
        f"{balance}_high": min(1.0, 1.0 - low),
        unfair: moved,
        f"{unfair}_low": low,
        f"{unfair}_high": high,
        tilt: float(abs(delta[most])),
    }
    tilt_b = np.abs(delta_b).max(axis=1)
    values[f"{tilt}_low"], values[f"{tilt}_high"] = percentiles(tilt_b)
    if measure.spread is not None:  # pushed up by noise, as the tilt is
        spread = measure.spread
        values[spread] = float(rate[raced].max() - rate[raced].min())
        spread_b = rates_b[:, raced].max(axis=1) - rates_b[:, raced].min(axis=1)
        values[f"{spread}_low"], values[f"{spread}_high"] = percentiles(spread_b)
    names = result.group(measure.group).labels
    rows = []
    for c, name in enumerate(names):
        d_low, d_high = percentiles(delta_b[:, c])
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
    return GroupFairness(measure, values, rows)


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
    """Per label of a start group (:func:`group_fairness`'s rows): also its win rate's 95%
    interval (Wilson) and the fair share, one win in ``players``."""
    table = []
    for row in rows:
        if row["win_rate"] is None:
            continue
        low, high = wilson(row["win_rate"], row["entries"])
        table.append({**row, "win_rate_low": low, "win_rate_high": high, "fair_share": 1 / players})
    return table


def wilson(rate: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate seen in ``n`` trials."""
    z = 1.959963984540054
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
