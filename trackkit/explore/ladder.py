"""How much playing well pays on a track: a game's ladder of policies, weakest first, each
raced against the one below at mixed tables.

**Mixed tables.** Of ``N`` seats, the upper rung plays the even seats (0, 2, …) in one run
and the odd ones in the other, the lower rung the rest, both runs on the same seed: common
random numbers, so the two runs deal the same characters and cards, roll the same dice and
draw the same start orders for as long as the players' choices let them agree. Every seat,
and whatever is dealt to it, is played by each rung once per race pair; a seat's own
advantage cancels out of the difference.

**The gain** of a step is the upper rung's win rate per player minus the lower rung's, in
points, averaged over the seats: ``(U − L) / (N · R)`` for ``U`` and ``L`` the wins of each
rung over both runs of ``R`` races (a shared first place split among its players). Its 95%
interval comes from the ``R`` paired differences (race ``i`` of both runs): the mean ± t ·
sd / √R. At 0 the step is tied: the stronger play wins no more often here.

>>> mixed_seats(3, "smart", "greedy")
(('smart', 'greedy', 'smart'), ('greedy', 'smart', 'greedy'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from trackkit.errors import TrackkitError
from trackkit.games.base import Ruleset, Rung, ready
from trackkit.limits import LADDER_RACES
from trackkit.sim.montecarlo import simulate

LADDER_RACE_COUNT = 4_000  # races a step, each on both seatings: ±1 point at 4 players
MIN_LADDER_RACES = 100  # fewer tell nothing (the interval's t needs a sample)


@dataclass(frozen=True)
class Step:
    """One step of a ladder: ``upper`` against ``lower`` at mixed tables of ``players``,
    ``races`` race pairs; ``gain`` (points) with its 95% interval ``low``–``high``, and
    each rung's win rate per player (0 to 1)."""

    lower: str
    upper: str
    players: int
    races: int
    gain: float
    low: float
    high: float
    upper_rate: float
    lower_rate: float
    # each race pair's difference (the upper rung's wins less the lower's, per player)
    pairs: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)

    @property
    def beyond_noise(self) -> bool:
        """Whether the upper rung wins more often than the lower beyond noise."""
        return self.low > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "lower": self.lower,
            "upper": self.upper,
            "gain": round(self.gain, 3),
            "gain_low": round(self.low, 3),
            "gain_high": round(self.high, 3),
            "upper_win_rate": round(self.upper_rate, 4),
            "lower_win_rate": round(self.lower_rate, 4),
        }


def mixed_seats(players: int, upper: str, lower: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two seatings of a mixed table: ``upper`` on the even seats, then on the odd."""
    first = tuple(upper if seat % 2 == 0 else lower for seat in range(players))
    return first, tuple(lower if policy == upper else upper for policy in first)


def rungs_of(ruleset: Ruleset, names: Sequence[str] | None = None) -> tuple[Rung, ...]:
    """The rungs of ``ruleset``'s ladder, or those ``names`` picks from it (at least two,
    each once, kept in the ladder's order); a :class:`TrackkitError` naming the ladder for
    a name not on it."""
    ladder = ruleset.ladder
    if len(ladder) < 2:
        raise TrackkitError(f"{ruleset.title} has no ladder of policies to race")
    if names is None:
        return ladder
    known = {rung.policy: rung for rung in ladder}
    order = ", ".join(rung.policy for rung in ladder)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise TrackkitError(
            f"{unknown[0]!r} is not a rung of {ruleset.title}'s ladder; its rungs, weakest "
            f"first: {order}"
        )
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise TrackkitError(f"name two rungs or more, each once, from: {order}")
    return tuple(rung for rung in ladder if rung.policy in names)


def check_ladder_races(races: int) -> None:
    """Refuse a step of fewer race pairs than tell anything, or more than the limit in
    force (:data:`~trackkit.limits.LADDER_RACES`, within the pairs a result keeps)."""
    if races < MIN_LADDER_RACES:
        raise TrackkitError(
            f"a ladder step needs at least {MIN_LADDER_RACES:,} race pairs; "
            f"{races:,} were asked for"
        )
    LADDER_RACES.check(races, "a ladder step")


def ladder_step(
    track: Any,
    upper: str,
    lower: str,
    options: Any,
    *,
    races: int = LADDER_RACE_COUNT,
    seed: int = 0,
) -> Step:
    """``upper`` against ``lower`` on ``track`` at mixed tables (:func:`mixed_seats`) of
    ``options``' players, raced with ``options`` but for the policies."""
    check_ladder_races(races)
    ruleset, players = options.ruleset, options.players
    if players < 2 or upper == lower:
        raise TrackkitError(
            f"a ladder step races two policies at one table of 2 players or more, not "
            f"{upper} against {lower} at {players}"
        )
    seatings = mixed_seats(players, upper, lower)
    track = ready(track, options)  # checked and prepared once: the seatings differ in policy
    wins_up, wins_low = [], []
    for seating in seatings:
        seated = ruleset.with_policies(options, seating)
        result = simulate(track, seated, races=races, seed=seed)
        first = result.placing == 1
        share = first / np.maximum(first.sum(axis=1, keepdims=True), 1)
        is_upper = np.array([policy == upper for policy in seating])
        wins_up.append(share[:, is_upper].sum(axis=1))
        wins_low.append(share[:, ~is_upper].sum(axis=1))
    upper_wins, lower_wins = sum(wins_up), sum(wins_low)
    paired = (upper_wins - lower_wins) / players  # per race pair, in win rate per player
    mean = float(paired.mean())
    spread = float(paired.std(ddof=1)) / np.sqrt(races) if races > 1 else 0.0
    half = float(stats.t.ppf(0.975, races - 1)) * spread
    return Step(
        lower,
        upper,
        players,
        races,
        100 * mean,
        100 * (mean - half),
        100 * (mean + half),
        float(upper_wins.mean()) / players,
        float(lower_wins.mean()) / players,
        paired,
    )


def run_ladder(
    track: Any,
    rungs: Sequence[Rung],
    options: Any,
    *,
    races: int = LADDER_RACE_COUNT,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Step, ...]:
    """Each rung of ``rungs`` (weakest first) against the one below at mixed tables,
    raced with ``options`` but for the policies, on one seed."""
    check_ladder_races(races)
    steps = []
    for k in range(1, len(rungs)):
        steps.append(
            ladder_step(
                track,
                rungs[k].policy,
                rungs[k - 1].policy,
                options,
                races=races,
                seed=seed,
            )
        )
        if progress is not None:
            progress(k, len(rungs) - 1)
    return tuple(steps)


def skill_pairs(races: int, ruleset: Ruleset) -> int:
    """The race pairs of a profile's skill figure when not told: the game's
    ``skill_share`` of its races (Yummell half: the two seatings race as many as the
    profile; Snow Tails, whose smart races cost more, a quarter), so that a sweep with the
    skill costs at most twice one without; at least :data:`MIN_LADDER_RACES`."""
    return max(MIN_LADDER_RACES, int(races * ruleset.skill_share))


def skill_rungs(ruleset: Ruleset) -> tuple[Rung, Rung]:
    """The two rungs a skill figure races: the game's own policy (its ladder's first) and
    the strongest rung that does not plan (a planning rung costs tens to hundreds of races
    a race: a sweep with the skill would cost far more than twice one without)."""
    ladder = ruleset.ladder
    return ladder[0], [rung for rung in ladder if not rung.plans][-1]


def skill_step(track: Any, options: Any, *, races: int = 1_000, seed: int = 0) -> Step:
    """A track's skill: the upper of its game's :func:`skill_rungs` against the game's own
    policy at mixed tables, raced with ``options`` but for the policies."""
    lower, upper = skill_rungs(options.ruleset)
    return ladder_step(track, upper.policy, lower.policy, options, races=races, seed=seed)


_AVERAGE: dict[tuple[Any, ...], Step] = {}
AVERAGE_SKILL_RACES = MIN_LADDER_RACES  # race pairs on each of the average track's tracks


def average_skill(options: Any, *, seed: int = 0) -> Step:
    """The skill of an average track (:func:`~trackkit.explore.fairness.reference_tracks`):
    its tracks' gains averaged, its interval from theirs (independent tracks), each track
    raced :data:`AVERAGE_SKILL_RACES` race pairs with ``options`` and ``seed``. Kept: a
    sweep's profiles ask for the same one."""
    from trackkit.explore.fairness import reference_tracks

    ruleset = options.ruleset
    content = getattr(options, "content", None)
    key = (ruleset.name, options, str(getattr(content, "folder", "")), seed)
    if key not in _AVERAGE:
        steps = [
            skill_step(track, options, races=AVERAGE_SKILL_RACES, seed=seed)
            for track in reference_tracks(ruleset, options.players)
        ]
        n = len(steps)
        gain = sum(s.gain for s in steps) / n
        # each track's half-width is ~1.96 standard errors: the mean's, independent tracks
        half = float(np.sqrt(sum(((s.high - s.low) / 2) ** 2 for s in steps))) / n
        first = steps[0]
        _AVERAGE[key] = Step(
            first.lower,
            first.upper,
            first.players,
            AVERAGE_SKILL_RACES * n,
            gain,
            gain - half,
            gain + half,
            sum(s.upper_rate for s in steps) / n,
            sum(s.lower_rate for s in steps) / n,
        )
    return _AVERAGE[key]


def monotone(steps: Sequence[Step]) -> bool:
    """Whether each rung wins more often than the one below (each step's gain > 0)."""
    return all(step.gain > 0 for step in steps)
