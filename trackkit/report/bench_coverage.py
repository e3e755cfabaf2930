"""The coverage benchmark: do a profile's 95% intervals hold the truth 95% of the time?

``trackkit bench --coverage`` profiles tracks at the defaults (:data:`PROFILE_RACES`
races; track ``k`` with seed ``SEEDS[0] + k``) and profiles the same tracks again
:data:`TRUTH_FACTOR` times longer on another seed (``SEEDS[1]``, kept away from the
profiles'), which stands for the truth. Every interval of the first profile is
checked against the second's estimate, and coverage is reported per family of figures (the
headline, each character's move against an average track, each start path's or slot's
win rate, the length…). A family whose coverage is far under 95% claims a certainty the
races do not have; far over, it wastes the races (a too-wide interval). It also counts
estimates that fall outside their own interval (there should be none).

The tracks: Yummell's drawn uniformly from the space of legal tracks for
:data:`COVERAGE_PLAYERS` players (the draw is seeded), and Snow Tails' demo boards at
:data:`SNOW_SLEDS` sleds, each profiled on :data:`SNOW_SEEDS` seeds (there are only four),
against one truth. The truth has its own noise (1/√20 of the profile's), so
coverage measured this way is a little under the true coverage.

>>> Tally().add("length", True).add("length", False).rate("length")
0.5
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from trackkit.errors import TrackkitError
from trackkit.explore.profile import PROFILE_RACES, ProfileSettings, TrackProfile, profile_track

COVERAGE_PLAYERS = 4
COVERAGE_TRACKS = 24
SNOW_SLEDS = 5
# the demo boards are only four: each is profiled on this many seeds (against one truth),
# so that a Snow Tails family counts enough intervals to tell 90% from 95%
SNOW_SEEDS = 10
MAX_SNOW_SEEDS = 100
TRUTH_FACTOR = 20
SEEDS = (1_000, 2)  # the first profile's (then one more a track), the truth's
# figure families: a profile value's key (its interval ``key_low``/``key_high``) by family
FAMILIES: dict[str, tuple[str, ...]] = {
    "headline (unfairness)": ("unfairness",),
    "unfairness parts": ("unfairness_character", "unfairness_start"),
    "length: mean rounds": ("rounds_mean",),
    "length: standard deviation": ("rounds_std",),
    "length: 10th and 90th percentiles": ("rounds_p10", "rounds_p90"),
    "largest move and spread": ("character_tilt", "start_tilt", "start_spread"),
    "skill (smart over the game's own)": ("skill",),
    "drama and friction": (
        "lead_changes",
        "last_round",
        "winner_gap",
        "bounces",
        "challenges_lost",
        "seat_advantage",
    ),
}
# the per-label tables: (details key, estimate, low, high, family)
TABLES = (
    ("characters", "difference", "character's move against an average track"),
    ("start_slots", "difference", "start slot's move against an average track"),
    ("start_slots", "win_rate", "start path's or slot's win rate"),
    ("start_paths", "win_rate", "start path's or slot's win rate"),
)


@dataclass
class Tally:
    """Intervals checked, per family: how many held the truth, how many did not, and how
    many estimates fell outside their own interval."""

    held: dict[str, int] = field(default_factory=dict)
    checked: dict[str, int] = field(default_factory=dict)
    outside: int = 0
    estimates: int = 0

    def add(self, family: str, covered: bool) -> Tally:
        self.checked[family] = self.checked.get(family, 0) + 1
        self.held[family] = self.held.get(family, 0) + int(covered)
        return self

    def rate(self, family: str) -> float:
        return self.held.get(family, 0) / self.checked[family]

    def to_json(self) -> dict[str, Any]:
        return {
            "coverage": {
                family: {"held": self.held[family], "checked": n, "coverage": self.rate(family)}
                for family, n in self.checked.items()
            },
            "estimates_outside_their_interval": self.outside,
            "estimates_checked": self.estimates,
        }


def compare_profiles(profile: TrackProfile, truth: TrackProfile, tally: Tally) -> None:
    """Check every interval of ``profile`` against ``truth``'s estimates into ``tally``."""
    for family, key, low, high, true in _intervals(profile, truth):
        tally.estimates += 1
        if not low - 1e-12 <= _estimate(profile, family, key) <= high + 1e-12:
            tally.outside += 1
        tally.add(family, low - 1e-12 <= true <= high + 1e-12)


def _estimate(profile: TrackProfile, family: str, key: str) -> float:
    if "/" in key:  # a table row: table/row/column
        table, row, column = key.split("/")
        return profile.details[table][int(row)][column]
    return profile.values[key]


def _intervals(
    profile: TrackProfile, truth: TrackProfile
) -> Iterator[tuple[str, str, float, float, float]]:
    values, true = profile.values, truth.values
    for family, keys in FAMILIES.items():
        for key in keys:
            if key in values and f"{key}_low" in values and key in true:
                if math.isnan(values[key]) or math.isnan(true[key]):
                    continue
                yield family, key, values[f"{key}_low"], values[f"{key}_high"], true[key]
    for table, column, family in TABLES:
        rows, true_rows = profile.details.get(table), truth.details.get(table)
        if not rows or not true_rows:
            continue
        truths = {row["name"]: row for row in true_rows}
        for i, row in enumerate(rows):
            other = truths.get(row["name"], {})
            if row.get(column) is None or other.get(column) is None:
                continue
            low, high = row.get(f"{column}_low"), row.get(f"{column}_high")
            if low is None or high is None:
                continue
            yield family, f"{table}/{i}/{column}", low, high, other[column]


@dataclass(frozen=True)
class Coverage:
    """What the benchmark measured: the tracks, the races, and the tally."""

    what: str
    races: int
    truth_races: int
    tally: Tally

    def to_json(self) -> dict[str, Any]:
        return {
            "what": self.what,
            "races": self.races,
            "truth_races": self.truth_races,
            **self.tally.to_json(),
        }


def bench_coverage(
    tracks: int = COVERAGE_TRACKS,
    races: int = PROFILE_RACES,
    snow: bool = True,
    draw: int = 0,
    snow_seeds: int = SNOW_SEEDS,
) -> Coverage:
    """Profile ``tracks`` uniformly drawn 4-player Yummell tracks (drawn with ``draw``) and,
    with ``snow``, Snow Tails' demo boards at 5 sleds (each on ``snow_seeds`` seeds), each
    profile at ``races`` races against :data:`TRUTH_FACTOR` times as many on another seed."""
    from trackkit.games import all_rulesets

    if not 1 <= snow_seeds <= MAX_SNOW_SEEDS:
        raise TrackkitError(
            f"the coverage benchmark profiles each Snow Tails board on 1 to {MAX_SNOW_SEEDS} seeds"
        )
    panel: list[tuple[Any, int, int]] = []
    drawn = ruleset_drawn = None
    for ruleset in all_rulesets():
        # a game whose average track is drawn from its space: tracks drawn from it; a game
        # measured against its presets: the presets, each on several seeds
        if ruleset.average_track == "space" and ruleset.track_space is not None:
            space = ruleset.track_space(COVERAGE_PLAYERS)
            if not 1 <= tracks <= len(space):
                raise TrackkitError(f"the coverage benchmark profiles 1 to {len(space):,} tracks")
            panel += [(t, COVERAGE_PLAYERS, 1) for t in space.sample(tracks, draw)]
            drawn, ruleset_drawn = tracks, ruleset.title
        elif snow and ruleset.profile_spec is not None:
            panel += [(ruleset.load_preset(s), SNOW_SLEDS, snow_seeds) for s in ruleset.presets()]
    tally = Tally()
    truth_races = TRUTH_FACTOR * races
    k = 0
    for track, players, repeats in panel:
        truth = profile_track(track, _settings(truth_races, SEEDS[1]), players=players)
        for _ in range(repeats):
            # each profile its own seed: the average track's noise, which a profile's
            # difference keeps in part, is then not shared by every check (one seed for all
            # would move every track's coverage together); the truth shares one seed
            profile = profile_track(track, _settings(races, SEEDS[0] + k), players=players)
            compare_profiles(profile, truth, tally)
            k += 1
    what = f"{drawn} uniformly drawn {COVERAGE_PLAYERS}-player {ruleset_drawn} tracks"
    if snow:
        what += f" and Snow Tails' demo boards at {SNOW_SLEDS} sleds, each on {snow_seeds} seeds"
    return Coverage(what, races, truth_races, tally)


def _settings(races: int, seed: int) -> ProfileSettings:
    # the skill as a sweep measures it: the game's share of the races in race pairs (the
    # truth's, 20 times)
    return ProfileSettings(races=races, seed=seed, exact=False, characters=False, skill=True)


def coverage_text(coverage: Coverage) -> str:
    """The benchmark as a table: each family's coverage, and estimates outside."""
    tally = coverage.tally
    lines = [
        f"Coverage: {coverage.what}; profiles of {coverage.races:,} races (profile k: seed "
        f"{SEEDS[0]} + k) against {coverage.truth_races:,} races (seed {SEEDS[1]}) as the "
        "truth",
        f"  {'family':<50} {'held':>6} {'of':>6} {'coverage':>9}",
    ]
    for family, n in tally.checked.items():
        lines.append(f"  {family:<50} {tally.held[family]:>6} {n:>6} {tally.rate(family):>9.3f}")
    lines.append(
        f"Estimates outside their own interval: {tally.outside} of {tally.estimates} "
        "(95% intervals should hold about 95 in 100; none should exclude its estimate)"
    )
    return "\n".join(lines)
