"""A track's profile: the figures that tell a designer how long, how fair, how dramatic and
how rough a race on it is, computed from a simulation (and the exact solo solver where the
game has one). Each figure is defined once, in :data:`FIGURES`, and explained in the README.

Balance, in one number: for each source of unfairness the game names (Yummell: the
character, the start path, the seat in the turn order), the *total variation distance*
between who wins and who takes part: half the sum over the group's labels of
``|share of wins - share of entries|``. It is the share of wins that would have to change
hands for that source to be fair (0: perfectly fair, 1: one label takes every win though
others race). ``balance`` is one minus the worst of them, so 1 is a track where no
character, start path or seat wins more than its share, and a track is only as balanced
as its least fair source. With few races the distance is biased upward by noise (about
``sqrt(labels / races)`` in size), equally for every track profiled with the same races,
so profiles compare with each other, not with 0.

>>> from trackkit.games.yummell.presets import load_preset
>>> profile = profile_track(load_preset("first-run"), players=3, races=250, seed=1)
>>> 0 <= profile["balance"] <= 1
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.sim.montecarlo import SimulationResult, simulate

Better = Literal["high", "low", "target", "none"]


@dataclass(frozen=True)
class Figure:
    """One figure of a profile: its key (the column of a sweep's table), what it says,
    its family (length, balance, drama, friction, track) and which way is better."""

    key: str
    title: str
    family: str
    better: Better = "none"


FIGURES: tuple[Figure, ...] = (
    Figure("exact_rounds", "Exact expected rounds of a solo race (reference racer)", "length"),
    Figure("rounds_mean", "Mean rounds of a race with the players", "length", "target"),
    Figure("rounds_ci_low", "95% interval of the mean rounds: low end", "length"),
    Figure("rounds_ci_high", "95% interval of the mean rounds: high end", "length"),
    Figure("rounds_std", "Standard deviation of the rounds", "length", "low"),
    Figure("rounds_p10", "10th percentile of the rounds", "length"),
    Figure("rounds_p90", "90th percentile of the rounds", "length"),
    Figure("balance", "Balance score, 0-1: 1 - the worst unfairness below", "balance", "high"),
    Figure("unfair_character", "Wins not matching entries, by character (0-1)", "balance", "low"),
    Figure("unfair_start_path", "Wins not matching entries, by start path", "balance", "low"),
    Figure("unfair_seat", "Wins not matching entries, by turn-order seat", "balance", "low"),
    Figure("character_spread", "Best minus worst character's win rate", "balance", "low"),
    Figure("character_spread_low", "95% interval of the spread: low end", "balance"),
    Figure("character_spread_high", "95% interval of the spread: high end", "balance"),
    Figure("seat_advantage", "First seat's win rate minus the fair share", "balance", "low"),
    Figure("start_path_spread", "Best minus worst start path's win rate (paths used)", "balance"),
    Figure("start_paths_used", "Start paths taken by at least 5% of the racers", "balance"),
    Figure("lead_changes", "Lead changes per race", "drama", "high"),
    Figure("last_round", "Share of races decided in the last round", "drama", "high"),
    Figure("winner_gap", "Winner's lead over the runner-up, in squares", "drama", "low"),
    Figure("bounces", "Characters sent back off a full square, per race", "friction"),
    Figure("challenges_lost", "Challenges lost per race", "friction"),
    Figure("mp_per_square", "Mean MP to enter a square of the track", "friction"),
    Figure("squares", "Squares on the track", "track"),
)
FIGURE_KEYS = tuple(f.key for f in FIGURES)

# the groups whose unfairness the balance score weighs, by the name the profile gives them
FAIRNESS = {"character": "character", "route": "start_path", "order_pos": "seat"}
DRAMA_AND_FRICTION = ("lead_changes", "last_round", "winner_gap", "bounces", "challenges_lost")
USED_SHARE = 0.05  # a start path counts as used when 5% of the racers took it


@dataclass(frozen=True)
class TrackProfile:
    """The figures of one track (:data:`FIGURES`, plus the terrain mix ``terrain_<name>``)."""

    track: str
    players: int
    races: int
    seed: int
    values: dict[str, float]

    def __getitem__(self, key: str) -> float:
        return self.values[key]

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "players": self.players,
            "races": self.races,
            "seed": self.seed,
            "figures": dict(self.values),
        }


def profile_track(
    track: Any,
    *,
    players: int = 4,
    races: int = 200,
    seed: int = 0,
    exact: bool = True,
    options: Any = None,
    simulated: SimulationResult | None = None,
) -> TrackProfile:
    """Profile ``track``: ``races`` races of ``players`` (the game's default options,
    or ``options``), and the exact solo length of the reference racer (``exact``).

    ``simulated`` is a simulation already run with these options, to profile without
    racing again.
    """
    from trackkit.games import get_ruleset  # the registry, not a game

    ruleset = get_ruleset(track.game)
    if ruleset.track_figures is None:
        raise TrackkitError(
            f"profiles cover tile games with a drama and friction count; {ruleset.title} "
            "has none yet: use `trackkit simulate` for its figures"
        )
    if races < 2:
        raise TrackkitError(f"a profile needs at least 2 races, not {races}")
    options = options if options is not None else ruleset.options(players=players)
    result = simulated or simulate(track, options, races=races, seed=seed)
    values: dict[str, float] = {"exact_rounds": math.nan}
    if exact and ruleset.exact_solo is not None:
        # the simulation's board: the track is composed once per profile
        solved = ruleset.exact_solo(track, prepared=result.board, **ruleset.exact_reference())
        values["exact_rounds"] = solved.expected_rounds
    values.update(length_figures(result))
    values.update(balance_figures(result))
    for key in DRAMA_AND_FRICTION:
        values[key] = result.tally(key)["mean"]
    values.update(ruleset.track_figures(result.board))
    return TrackProfile(track.name, options.players, result.races, seed, values)


def length_figures(result: SimulationResult) -> dict[str, float]:
    """Mean rounds with its interval, standard deviation, 10th and 90th percentiles."""
    low, high = result.ci95
    counts = result.totals.rounds_count
    lengths = np.arange(counts.shape[0])
    mean = result.mean_rounds
    std = math.sqrt(float(np.dot((lengths - mean) ** 2, counts)) / max(1, result.races - 1))
    cumulative = np.cumsum(counts)
    return {
        "rounds_mean": mean,
        "rounds_ci_low": low,
        "rounds_ci_high": high,
        "rounds_std": std,
        "rounds_p10": float(np.searchsorted(cumulative, 0.1 * result.races)),
        "rounds_p90": float(np.searchsorted(cumulative, 0.9 * result.races)),
    }


def unfairness(rows: list[dict[str, Any]]) -> float:
    """Total variation distance between the shares of wins and of entries of a group's
    labels (rows of :meth:`SimulationResult.by_group`): 0 when each wins its share."""
    entries = np.array([r["entries"] for r in rows], dtype=float)
    wins = np.array([(r["win_rate"] or 0.0) * r["entries"] for r in rows])
    if entries.sum() == 0 or wins.sum() == 0:
        return 0.0
    return float(0.5 * np.abs(wins / wins.sum() - entries / entries.sum()).sum())


def balance_figures(result: SimulationResult) -> dict[str, float]:
    """Unfairness by character, start path and seat, the balance score, the spread of the
    characters' win rates with an interval, the first seat's edge and the start paths'."""
    rows = {name: result.by_group(key) for key, name in FAIRNESS.items()}
    values = {f"unfair_{name}": unfairness(group) for name, group in rows.items()}
    values["balance"] = 1.0 - max(values.values())
    raced = [r for r in rows["character"] if r["entries"]]
    best = max(raced, key=lambda r: r["win_rate"])
    worst = min(raced, key=lambda r: r["win_rate"])
    spread = best["win_rate"] - worst["win_rate"]
    # the two extremes' binomial errors combined (it ignores that they were picked as the
    # extremes, so the interval is a little narrow when characters are alike)
    variance = sum(r["win_rate"] * (1 - r["win_rate"]) / r["entries"] for r in (best, worst))
    error = math.sqrt(variance)
    values["character_spread"] = spread
    values["character_spread_low"] = max(0.0, spread - 1.96 * error)
    values["character_spread_high"] = min(1.0, spread + 1.96 * error)
    seats = rows["seat"]
    fair = 1.0 / len(seats)
    values["seat_advantage"] = (seats[0]["win_rate"] or 0.0) - fair
    total = sum(r["entries"] for r in rows["start_path"])
    used = [r for r in rows["start_path"] if r["entries"] >= USED_SHARE * total]
    rates = [r["win_rate"] for r in used]
    values["start_path_spread"] = max(rates) - min(rates) if rates else 0.0
    values["start_paths_used"] = float(len(used))
    return values
