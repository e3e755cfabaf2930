"""Search a design space too large to sweep for the fairest tracks of a target length
(lowest unfairness): MAP-Elites (quality-diversity search) over cells of length × unfairness.

The archive is ``ribs``' :class:`~ribs.archives.GridArchive`: each cell of (mean rounds,
unfairness) keeps the best track found for it, by :func:`fitness`. New candidates are
mutations of elites drawn from the archive, each made by the game's space
(``space.mutate``): Yummell's keeps a track's first tiles (how many: drawn uniformly) and
finishes it anew among the legal ways; Snow Tails' changes one thing of a design. Now and
then a fresh uniform draw keeps the search from settling. Every candidate
is profiled once, with the search's seed (the same profile a sweep with that seed
computes, on the same races as every other candidate: common random numbers). The best
tracks are then profiled again with more races and another seed, because with few races
the best of many looks better than it is.

:func:`random_search` spends the same budget on uniform draws, as the baseline that
``trackkit bench --search`` compares with.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.explore.profile import (
    DEFAULT_PROFILE,
    PRECISION_RACES,
    PROFILE_RACES,
    ProfileSettings,
    profile_track,
)
from trackkit.explore.seeds import draw_seed

Method = Literal["map-elites", "random"]
LENGTH_CELLS, FAIRNESS_CELLS = 24, 20
# unfairness, in points of win share, lies within this range on the bundled spaces (1 to
# 10 at 3 and 4 players): the archive's rows span it, and more shares the last row
FAIRNESS_RANGE = (0.0, 15.0)
# the figures a map's second axis may be, each with the range its rows span (skill, in
# points: -10 to +55 on the bundled presets and demo boards at 3 to 5 players)
AXES: dict[str, tuple[float, float]] = {"unfairness": FAIRNESS_RANGE, "skill": (-20.0, 60.0)}
FRESH = 0.1  # share of candidates drawn uniformly rather than mutated
TOURNAMENT = 4  # elites drawn for each parent chosen by fitness
PENALTY = 5.0  # fitness (points of unfairness) lost per round of length beyond the tolerance
CHECK_DRAW = 1 << 20  # the draw number of the best tracks' last, longer profile
RETRY_SHARE = 0.25  # share of a MAP-Elites batch spent profiling promising tracks again
MAX_PROFILES = 8  # profiles of one track a search pools at most
Progress = Callable[[int, int], None]


def fitness(values: dict[str, float], target: float, tolerance: float) -> float:
    """Minus the unfairness (points), less :data:`PENALTY` per round the mean length lies
    beyond ``tolerance`` of ``target``: within the tolerance, the fairest track is the
    best."""
    miss = max(0.0, abs(values["rounds_mean"] - target) - tolerance)
    return -values["unfairness"] - PENALTY * miss


@dataclass(frozen=True)
class SearchSettings:
    """What a search looks for and how: tracks whose mean length is within ``tolerance``
    rounds of ``target_length``, the fairest first; ``budget`` profiles spent by
    ``method`` (MAP-Elites in batches of ``batch`` candidates, or uniform draws), and the
    ``top`` tracks found profiled again with ``check_races`` races."""

    target_length: float
    tolerance: float = 0.5
    budget: int = 500
    method: Method = "map-elites"
    top: int = 5
    check_races: int = 5 * PROFILE_RACES
    batch: int = 10
    axis: str = "unfairness"  # the map's second axis (:data:`AXES`); the first is the length


@dataclass(frozen=True)
class Found:
    """A track the search found: its rank, its profile's figures, its fitness, and its
    figures and fitness profiled again with more races (``checked``)."""

    rank: int
    name: str
    values: dict[str, float]
    fitness: float
    profiles: int = 1  # profiles pooled in ``values`` (their mean)
    checked: dict[str, float] = field(default_factory=dict)
    checked_fitness: float = math.nan

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "name": self.name,
            "fitness": self.fitness,
            "profiles": self.profiles,
            "checked_fitness": self.checked_fitness,
            "figures": self.values,
            "checked_figures": self.checked,
        }


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best tracks by fitness, and how the search went."""

    method: Method
    players: int
    target_length: float
    tolerance: float
    budget: int
    seed: int
    races: int
    best: tuple[Found, ...]
    evaluated: int  # distinct tracks profiled (some more than once)
    cells: int  # cells of the length × unfairness map holding a track
    history: tuple[float, ...]  # best fitness after each candidate
    check_races: int = 0  # races of the second profile of the best tracks

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "players": self.players,
            "target_length": self.target_length,
            "tolerance": self.tolerance,
            "budget": self.budget,
            "seed": self.seed,
            "races": self.races,
            "check_races": self.check_races,
            "profiles": len(self.history),
            "evaluated": self.evaluated,
            "cells": self.cells,
            "best": [f.to_json() for f in self.best],
        }


def search(
    space: Any,
    settings: SearchSettings,
    profile: ProfileSettings = DEFAULT_PROFILE,
    *,
    progress: Progress | None = None,
) -> SearchResult:
    """Spend ``settings.budget`` profiles on ``space`` (a track space: ``len``,
    ``track(rank)``, ``sample_ranks``) looking for tracks whose mean length is within the
    tolerance of the target length the fairest (:class:`SearchSettings`); profile
    the top ones found again with ``check_races`` races. Every candidate is profiled with
    ``profile``'s races, seed and precision, without the exact figures (the search ranks
    sampled ones). ``progress(done, budget)`` counts profiles."""
    players, budget, races = space.players, settings.budget, profile.races
    target_length, tolerance = settings.target_length, settings.tolerance
    if not 1 <= budget <= len(space):
        raise TrackkitError(f"the budget is 1 to {len(space):,} profiles (the space), not {budget}")
    if target_length <= 0 or tolerance < 0:
        raise TrackkitError(
            "the target length is a positive number of rounds, the tolerance 0 or more"
        )
    if races < 2 or settings.check_races < 2:
        raise TrackkitError("a profile needs at least 2 races")
    if settings.axis not in AXES:
        raise TrackkitError(
            f"the map's second axis is one of {', '.join(AXES)}, not {settings.axis!r}"
        )
    if settings.axis == "skill":  # the candidates' skill is measured to place them
        profile = replace(profile, skill=True)
    most = profile.max_races if profile.max_races is not None else PRECISION_RACES
    candidates = replace(profile, exact=False, max_races=max(races, most))
    profiles = _Profiles(space, settings, candidates, progress)
    if settings.method == "random":
        for rank in space.sample_ranks(budget, profile.seed, distinct=True):
            profiles.profile(rank)
        cells = len({_cell(profiles.values(r), settings) for r in profiles.counts})
    elif settings.method == "map-elites":
        cells = _map_elites(space, profiles, profile.seed, settings.batch)
    else:
        raise TrackkitError(f"the search method is map-elites or random, not {settings.method!r}")
    best = tuple(_checked(space, profiles, rank) for rank in profiles.ranked()[: settings.top])
    return SearchResult(
        method=settings.method,
        players=players,
        target_length=target_length,
        tolerance=tolerance,
        budget=budget,
        seed=profile.seed,
        races=races,
        best=best,
        evaluated=len(profiles.counts),
        cells=cells,
        history=tuple(profiles.history),
        check_races=settings.check_races,
    )


def _checked(space: Any, profiles: _Profiles, rank: int) -> Found:
    """A track the search found, profiled again with the check's races and another seed
    (with the exact figures), because with few races the best of many looks better than
    it is."""
    settings = profiles.settings
    track = space.track(rank)
    check = ProfileSettings(
        races=settings.check_races, seed=draw_seed(profiles.profile_settings.seed, CHECK_DRAW)
    )
    checked = profile_track(track, check, players=space.players)
    values = profiles.values(rank)
    target, tolerance = settings.target_length, settings.tolerance
    return Found(
        rank=rank,
        name=track.name,
        values=values,
        fitness=fitness(values, target, tolerance),
        profiles=profiles.counts[rank],
        checked=checked.values,
        checked_fitness=fitness(checked.values, target, tolerance),
    )


def random_search(
    space: Any,
    settings: SearchSettings,
    profile: ProfileSettings = DEFAULT_PROFILE,
    *,
    progress: Progress | None = None,
) -> SearchResult:
    """The baseline: the same budget spent on uniform draws of distinct tracks."""
    return search(space, replace(settings, method="random"), profile, progress=progress)


def _length_range(target: float) -> tuple[float, float]:
    return (target / 2, target * 2)


def _cell(values: dict[str, float], settings: SearchSettings) -> tuple[int, int]:
    low, high = _length_range(settings.target_length)
    length = (values["rounds_mean"] - low) / (high - low)
    column = min(LENGTH_CELLS - 1, max(0, int(length * LENGTH_CELLS)))
    low, high = AXES[settings.axis]
    share = (values[settings.axis] - low) / (high - low)
    row = min(FAIRNESS_CELLS - 1, max(0, int(share * FAIRNESS_CELLS)))
    return column, row


class _Profiles:
    """The profiles a search has spent: each track's figures pooled over its profiles
    (their mean; the k-th profile of every track races with ``draw_seed(seed, k)``, the
    first one with the seed a sweep gives it: common random numbers), and the best fitness
    after each profile."""

    def __init__(
        self,
        space: Any,
        settings: SearchSettings,
        profile_settings: ProfileSettings,
        progress: Progress | None,
    ) -> None:
        self.space, self.settings, self.profile_settings = space, settings, profile_settings
        self.target, self.tolerance = settings.target_length, settings.tolerance
        self.budget, self.progress = settings.budget, progress
        self.sums: dict[int, dict[str, float]] = {}
        self.counts: dict[int, int] = {}
        self.history: list[float] = []

    @property
    def spent(self) -> int:
        return len(self.history)

    def profile(self, rank: int) -> None:
        draw = self.counts.get(rank, 0)
        track = self.space.track(rank)
        settings = replace(self.profile_settings, seed=draw_seed(self.profile_settings.seed, draw))
        figures = profile_track(track, settings, players=self.space.players).values
        if draw == 0:
            self.sums[rank] = dict(figures)
        else:
            for key, value in figures.items():
                self.sums[rank][key] += value
        self.counts[rank] = draw + 1
        best = max(self.fitness(rank), self.history[-1] if self.history else -math.inf)
        self.history.append(best)
        if self.progress:
            self.progress(self.spent, self.budget)

    def values(self, rank: int) -> dict[str, float]:
        return {key: total / self.counts[rank] for key, total in self.sums[rank].items()}

    def fitness(self, rank: int) -> float:
        return fitness(self.values(rank), self.target, self.tolerance)

    def ranked(self) -> list[int]:
        """Every track profiled, the fittest first (by pooled figures; ties by rank)."""
        return sorted(self.counts, key=lambda r: (-self.fitness(r), r))


def _map_elites(space: Any, profiles: _Profiles, seed: int, batch: int) -> int:
    """Fill a length × unfairness archive: a uniform start, then batches of mutations of its
    elites, a quarter of each batch profiling the fittest tracks again (their figures
    pooled) so that a lucky first profile does not stay on top. Returns the cells filled."""
    from ribs.archives import GridArchive  # loaded only by a search

    budget = profiles.budget
    archive = GridArchive(
        solution_dim=1,
        dims=(LENGTH_CELLS, FAIRNESS_CELLS),
        ranges=(_length_range(profiles.target), AXES[profiles.settings.axis]),
        seed=seed,
        dtype=np.float64,
    )
    rng = np.random.Generator(np.random.PCG64(seed))

    def refill() -> None:
        """The archive again from every track's pooled figures (a second profile may
        lower a track's figures; an archive only ever raises a cell's)."""
        archive.clear()
        ranks = list(profiles.counts)
        values = [profiles.values(r) for r in ranks]
        archive.add(
            np.array([[float(r)] for r in ranks]),
            np.array([profiles.fitness(r) for r in ranks]),
            np.array([[v["rounds_mean"], v[profiles.settings.axis]] for v in values]),
        )

    for rank in space.sample_ranks(min(budget, max(batch, budget // 5)), seed, distinct=True):
        profiles.profile(rank)
    refill()
    while profiles.spent < budget:
        wanted = min(batch, budget - profiles.spent)
        again = [r for r in profiles.ranked() if profiles.counts[r] < MAX_PROFILES]
        again = again[: int(RETRY_SHARE * wanted)]
        children: list[int] = []
        for parent in _parents(archive, wanted - len(again), rng):
            child = _mutate(space, parent, rng, profiles.counts, children)
            if child is not None:
                children.append(child)
        if not children and not again:  # the neighbourhood is exhausted: draw uniformly
            children = _fresh(space, rng, profiles.counts, wanted)
        if not children and not again:
            break  # every track has been profiled
        for rank in again + children:
            profiles.profile(rank)
        refill()
    return int(archive.stats.num_elites)


def _parents(archive: Any, count: int, rng: np.random.Generator) -> list[int]:
    """Elites to mutate: half drawn uniformly over the filled cells (diversity), half the
    fittest of :data:`TOURNAMENT` drawn so (towards the target)."""
    drawn = archive.sample_elites(count * TOURNAMENT)
    ranks = drawn["solution"][:, 0].astype(np.int64).reshape(count, TOURNAMENT)
    scores = drawn["objective"].reshape(count, TOURNAMENT)
    chosen = []
    for i in range(count):
        best = int(np.argmax(scores[i])) if rng.random() < 0.5 else 0
        chosen.append(int(ranks[i, best]))
    return chosen


def _mutate(
    space: Any,
    parent: int,
    rng: np.random.Generator,
    seen: dict[int, Any],
    taken: list[int],
) -> int | None:
    """A track near ``parent`` (the space's ``mutate``: Yummell keeps its first tiles and
    finishes it anew, Snow Tails changes one thing of the design), or now and then a
    uniform track; never one already profiled or chosen (None after a few tries)."""
    for _ in range(32):
        child = _draw(space, rng) if rng.random() < FRESH else space.mutate(parent, rng)
        if child not in seen and child not in taken:
            return child
    return None


def _draw(space: Any, rng: np.random.Generator) -> int:
    """A uniform legal rank: any rank of a space whose ranks are all legal, else the
    space's own draw."""
    if space.dense:
        return int(rng.integers(len(space)))
    return space.sample_ranks(1, int(rng.integers(2**62)))[0]


def _fresh(space: Any, rng: np.random.Generator, seen: dict[int, Any], count: int) -> list[int]:
    found: list[int] = []
    while len(found) < count and len(seen) + len(found) < len(space):
        child = _draw(space, rng)
        if child not in seen and child not in found:
            found.append(child)
    return found
