"""Tracks side by side: how long and how fair, ranked, as data and as the text
``trackkit compare`` prints.

Every track is profiled (:func:`~trackkit.explore.profile.profile_track`) with the same
options, races and seed, so race ``r`` is dealt, shuffled and ordered alike on every track
(common random numbers) and the tracks differ by what they do, not by luck. A row holds:

- length: the mean rounds with its 95% interval, and the exact solo rounds of the
  profile's reference racer on the greedy start path (no sampling error);
- fairness against an average track (30 tracks drawn from the space, raced alike):
  ``balance`` with its interval, the character the track moves most
  (``tilted_character``, its difference in win rate, signed) and ``character_tilt``
  (that move, unsigned, with its interval);
  exact: ``path_rounds`` (the reference racer forced onto each start path),
  ``path_spread`` (slowest path minus fastest) and ``character_rounds_spread`` (slowest
  character minus fastest, alone);
- the track itself: squares, MP and terrain mix along the greedy start path.

The figures that come from the track alone (:class:`Solved`) do not change with the
players, races or seed; :func:`compare_tracks` takes a ``solve`` that may keep them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from trackkit.errors import TrackkitError
from trackkit.explore.profile import (
    MAX_PROFILE_RACES,
    ProfileSettings,
    exact_figures,
    profile_track,
)
from trackkit.games.base import race_ready
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.policies import greedy_route
from trackkit.games.yummell.core.terrain import Terrain, route_cost
from trackkit.report.ladder import skill_table, step_words_of
from trackkit.report.orderings import Orderings, orderings, orderings_text

MIX_COLUMNS = ("plain", "woods", "hills", "swamp")  # the terrain mix's columns, in order


@dataclass(frozen=True)
class Solved:
    """What a track's row takes from the track alone: squares, MP and terrain mix along
    the greedy start path, and the exact solo figures (the profile's
    :func:`~trackkit.explore.profile.exact_figures`: ``exact`` its values, ``details`` its
    tables, ``path_rounds`` and ``character_rounds``)."""

    squares: int
    mp: int
    terrain_mix: dict[str, float]
    exact: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TrackFigures:
    """One track's row of the comparison (the module's docstring says what each is)."""

    key: str
    name: str
    squares: int  # along the greedy start path
    mp: int
    mp_per_square: float
    terrain_mix: dict[str, float]  # share of squares per terrain along that path
    exact_solo_rounds: float  # the profile's reference racer, greedy start path
    mean_rounds: float
    ci95: tuple[float, float]
    unfairness: float  # points a racer's win chance is moved from fair (the headline)
    unfairness_low: float
    unfairness_high: float
    unfairness_character: float
    unfairness_start: float
    balance: float
    balance_low: float
    balance_high: float
    character_tilt: float
    character_tilt_low: float
    character_tilt_high: float
    tilted_character: str
    tilted_difference: float  # its win rate here minus on an average track
    tilted_low: float  # and that difference's 95% interval (signed)
    tilted_high: float
    path_spread: float
    path_rounds: dict[str, float]
    character_rounds_spread: float
    skill: float = math.nan  # the top policy's win rate minus greedy's, points (mixed tables)
    skill_low: float = math.nan
    skill_high: float = math.nan
    skill_step: str = ""  # "smart over greedy"
    rank: int = 0
    # the profile's figures to order tracks by (not in the JSON)
    paired: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        data = asdict(replace(self, paired={}))
        del data["paired"]
        data["ci95"] = list(self.ci95)
        return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in data.items()}


def solve_track(track: Track, options: RaceOptions) -> Solved:
    """The figures of ``track`` that no race changes (refuses a track its rules reject)."""
    board = race_ready(track, options)
    route = board.routes[greedy_route(board.board)]
    graph = board.composed.graph
    terrains = [graph.nodes[s]["terrain"] for s in route]
    details: dict[str, Any] = {}
    refused = options.ruleset.exact_refusal(options)
    if refused:  # a reading the solver cannot take: the figures left out, said why
        details["exact_left_out"] = refused
        exact = dict.fromkeys(("exact_rounds", "path_spread", "character_rounds_spread"), math.nan)
    else:
        exact = exact_figures(
            options.ruleset, track, board, True, details, options.content, options
        )
    return Solved(
        squares=len(route),
        mp=route_cost(board.composed, list(route)),
        terrain_mix={t.value: terrains.count(t.value) / len(route) for t in Terrain},
        exact=exact,
        details=details,
    )


def track_figures(
    key: str,
    track: Track,
    options: RaceOptions,
    races: int,
    seed: int,
    *,
    solved: Solved | None = None,
    reference_races: int | None = None,
) -> TrackFigures:
    """The row of ``track``: its profile's figures (``races`` races with ``seed``, beside
    ``reference_races`` of each track of the average track, default as many) and what
    ``solved`` holds (solved now when None)."""
    solved = solved or solve_track(track, options)
    settings = ProfileSettings(races=races, seed=seed, exact=False, max_races=races, skill=True)
    profile = profile_track(track, settings, options=options, reference_races=reference_races)
    v = profile.values
    raced = [r for r in profile.details["characters"] if r["difference"] is not None]
    tilted = max(raced, key=lambda r: abs(r["difference"]))
    return TrackFigures(
        key=key,
        name=track.name,
        squares=solved.squares,
        mp=solved.mp,
        mp_per_square=solved.mp / solved.squares,
        terrain_mix=solved.terrain_mix,
        exact_solo_rounds=solved.exact["exact_rounds"],
        mean_rounds=v["rounds_mean"],
        ci95=(v["rounds_mean_low"], v["rounds_mean_high"]),
        unfairness=v["unfairness"],
        unfairness_low=v["unfairness_low"],
        unfairness_high=v["unfairness_high"],
        unfairness_character=v["unfairness_character"],
        unfairness_start=v.get("unfairness_start", math.nan),
        balance=v["balance"],
        balance_low=v["balance_low"],
        balance_high=v["balance_high"],
        character_tilt=v["character_tilt"],
        character_tilt_low=v["character_tilt_low"],
        character_tilt_high=v["character_tilt_high"],
        tilted_character=tilted["name"],
        tilted_difference=tilted["difference"],
        tilted_low=tilted["difference_low"],
        tilted_high=tilted["difference_high"],
        path_spread=solved.exact["path_spread"],
        path_rounds=dict(solved.details.get("path_rounds", {})),
        character_rounds_spread=solved.exact["character_rounds_spread"],
        skill=v.get("skill", math.nan),
        skill_low=v.get("skill_low", math.nan),
        skill_high=v.get("skill_high", math.nan),
        skill_step=step_words_of(profile.details.get("skill")),
        paired=profile.paired,
    )


def compare_tracks(
    tracks: dict[str, Track],
    options: RaceOptions | None = None,
    *,
    races: int = 10_000,
    seed: int = 0,
    reference_races: int | None = None,
    solve: Callable[[Track, RaceOptions], Solved] = solve_track,
    progress: Callable[[int, int], None] | None = None,
) -> list[TrackFigures]:
    """Figures for every track, each profiled with ``options`` (default: the profile's,
    start paths chosen freely), ``races`` and ``seed``, ranked from the longest race to the
    shortest. ``solve`` gives each track's :class:`Solved` (e.g. kept from an earlier
    comparison)."""
    if not 2 <= races <= MAX_PROFILE_RACES:
        raise TrackkitError(
            f"compare profiles every track with 2 to {MAX_PROFILE_RACES:,} races, not {races:,}"
        )
    options = options or RaceOptions(start_paths="free")
    rows = []
    for done, (key, track) in enumerate(tracks.items(), 1):
        solved = solve(track, options)
        rows.append(
            track_figures(
                key, track, options, races, seed, solved=solved, reference_races=reference_races
            )
        )
        if progress:
            progress(done, len(tracks))
    ranked = sorted(rows, key=lambda row: -row.mean_rounds)
    return [replace(row, rank=rank) for rank, row in enumerate(ranked, 1)]


def compare_summary(rows: list[TrackFigures]) -> dict[str, Any]:
    """The ranked rows as JSON-able data (``tracks``, one dict per track) and the orderings
    the comparison states (``orderings``: only those beyond noise, with the tie groups)."""
    return {"tracks": [row.to_json() for row in rows], **track_orderings(rows).to_json()}


def track_orderings(rows: list[TrackFigures]) -> Orderings:
    """What the comparison may say of its tracks beyond noise (fairer, shorter)."""
    return orderings({row.name: row.paired for row in rows})


def compare_text(rows: list[TrackFigures], *, players: int, races: int, seed: int) -> str:
    """Two ranked tables: length (exact solo, simulated with its 95% interval, MP per
    square and terrain mix along the greedy start path), then fairness (balance and the
    most-moved character with their intervals, the exact spreads of the start paths and
    the characters); ``players``, ``races`` and ``seed`` are those the rows were profiled
    with."""
    lines = [
        f"{len(rows)} tracks, {players} players, {races:,} races each, seed "
        f"{seed}; ranked from the longest race",
        f"{'#':>2} {'track':<32} {'exact solo':>10} {'simulated (95% CI)':>24} {'MP/sq':>6}  "
        + " ".join(MIX_COLUMNS),
    ]
    for row in rows:
        mix = " ".join(f"{100 * row.terrain_mix[t]:4.0f}%" for t in MIX_COLUMNS)
        lines.append(
            f"{row.rank:>2} {row.name[:32]:<32} {row.exact_solo_rounds:>10.2f} "
            f"{row.mean_rounds:>8.2f} ({row.ci95[0]:.2f}-{row.ci95[1]:.2f})  "
            f"{row.mp_per_square:>6.2f}  {mix}"
        )
    lines += [
        "",
        "Fairness: unfairness in points (characters against an average track, the start "
        "against the fair share)",
        f"{'#':>2} {'track':<32} {'unfairness (95% CI)':>20} {'chars':>5} {'start':>5}  "
        f"{'most-moved character':<24} {'points (95% CI)':>20}  {'path spread':>11}  "
        f"{'character spread':>16}",
    ]
    for row in sorted(rows, key=lambda row: row.unfairness):
        unfair = f"{row.unfairness:.1f} ({row.unfairness_low:.1f}-{row.unfairness_high:.1f})"
        moved = (
            f"{100 * row.tilted_difference:+.1f} ({100 * row.tilted_low:+.1f} to "
            f"{100 * row.tilted_high:+.1f})"
        )
        lines.append(
            f"{row.rank:>2} {row.name[:32]:<32} {unfair:>20} {row.unfairness_character:>5.1f} "
            f"{row.unfairness_start:>5.1f}  {row.tilted_character[:24]:<24} {moved:>20}  "
            f"{_exact(row.path_spread):>11}  {_exact(row.character_rounds_spread):>16}"
        )
    lines += skill_table(rows)
    lines += ["", *orderings_text(track_orderings(rows))]
    lines += [
        "exact solo: the profile's reference racer on the greedy start path, infinite deck, "
        "greedy (trackkit exact); spreads: exact solo rounds, slowest start path or "
        "character minus fastest",
        "unfairness: how far the track moves a racer's chance of winning from fair, in "
        "points (root mean square over the characters and the order of first moves); the "
        "most-moved character's move is signed, with its signed interval",
    ]
    return "\n".join(lines)


def _exact(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"
