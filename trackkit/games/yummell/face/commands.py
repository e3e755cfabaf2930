"""Yummell's commands of its own: its tile set, the building rule's next placements and
design space, uniform random tracks, the exact solo solver and the speed benchmarks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from trackkit.games.face import Argument, Command, Shown
from trackkit.games.yummell import PLAYERS
from trackkit.games.yummell.face.readings import CHALLENGE_FINISH, DRAW_TWO

MAX_BENCH_RACES = 1_000_000
MAX_BENCH_REPEAT = 20

TILESET = Argument("tileset", "a custom tile set folder", metavar="DIR")
TRACK = Argument("track", "a Yummell track file (.toml) or preset", positional=True)
BUILD_PLAYERS = Argument(
    "players",
    f"{PLAYERS.build_min} to {PLAYERS.build_max}: apply the track-building rule",
    "int",
    low=PLAYERS.build_min,
    high=PLAYERS.build_max,
    rule="the building rule is for {low} to {high} players",
)


def _tiles(values: Mapping[str, Any]) -> Shown:
    from trackkit.games.base import load_tileset
    from trackkit.games.yummell.face.texts import tiles_summary, tiles_text

    tileset = load_tileset(values["tileset"], "yummell")
    data = tiles_summary(tileset)
    return Shown(data, tiles_text(data, provenance=tileset.provenance))


def _next(values: Mapping[str, Any]) -> Shown:
    from trackkit.games.yummell.core.check import next_placements
    from trackkit.games.yummell.face.building import next_summary, next_text

    track = values["track"]
    rows = next_summary(next_placements(track, players=values["players"]))
    return Shown(rows, next_text(rows, track_name=track.name))


def _space(values: Mapping[str, Any]) -> Shown:
    from trackkit.games.base import load_tileset
    from trackkit.games.yummell.core.check import explore_design_space
    from trackkit.games.yummell.face.building import space_summary, space_text

    space = explore_design_space(values["players"], load_tileset(values["tileset"], "yummell"))
    data = space_summary(space)
    return Shown(data, space_text(data))


def _exact(values: Mapping[str, Any]) -> Shown:
    from trackkit.games.yummell.core.content import load_content
    from trackkit.games.yummell.core.exact import SoloRules, exact_solo
    from trackkit.games.yummell.face.races import exact_text

    result = exact_solo(
        values["track"],
        character=values["character"],
        advantage=values["advantage"],
        path=values["path"],
        content=load_content(values["content"]),
        rules=SoloRules(
            values["challenge_finish"] or CHALLENGE_FINISH.default,
            values["draw_two"] or DRAW_TWO.default,
            encounters=values["encounters"] is not False,
        ),
    )
    return Shown(result.to_json(), exact_text(result))


def _bench(values: Mapping[str, Any]) -> Shown:
    from trackkit.games.base import get_ruleset

    if values["search"]:
        from trackkit.report.bench_search import SEARCH_PLAYERS, bench_search, bench_search_text

        searched = bench_search(get_ruleset("yummell").track_space(SEARCH_PLAYERS))
        return Shown(searched.to_json(), bench_search_text(searched))
    if values["coverage"]:
        from trackkit.report.bench_coverage import bench_coverage, coverage_text

        coverage = bench_coverage(
            tracks=values["coverage_tracks"], snow_seeds=values["coverage_snow_seeds"]
        )
        return Shown(coverage.to_json(), coverage_text(coverage))
    if values["reliability"] or values["retest"]:
        from trackkit.report.bench_reliability import (
            bench_reliability,
            retest_sweeps,
            retest_text,
        )

        if values["retest"]:
            retest = retest_sweeps(*values["retest"])
        else:
            retest = bench_reliability(tracks=values["reliability_tracks"])
        return Shown(retest.to_json(), retest_text(retest))
    if values["sweep"]:
        from trackkit.games.yummell.face.bench import sweep_bench_text, time_sweep

        bench = time_sweep(values["sweep_tracks"])
        return Shown(bench.to_json(), sweep_bench_text(bench))
    from trackkit.games.yummell.face.bench import bench_text, run_bench

    result = run_bench(
        races=values["races"],
        repeats=values["repeat"],
        scaling_races=values["scaling_races"],
        cold=values["cold"],
    )
    return Shown(result.to_json(), bench_text(result))


COMMANDS = (
    Command("tiles", "list the tiles of a tile set", (TILESET,), _tiles),
    Command(
        "next",
        "where the next tile can go",
        (TRACK, TILESET, BUILD_PLAYERS),
        _next,
    ),
    Command(
        "space",
        "count every legal track under the building rule",
        (replace(BUILD_PLAYERS, required=True), TILESET),
        _space,
    ),
    Command(
        "exact",
        "the exact expected length of a solo race",
        (
            TRACK,
            TILESET,
            Argument("character", "name or number (default: dealt at random)"),
            Argument("advantage", "name or number (default: dealt at random)"),
            Argument(
                "path",
                "the start path raced: A, B… (default: the greedy one)",
                metavar="LETTER",
            ),
            Argument("encounters", "skip encounters", "switch", default=True),
            # the readings that change a solo race besides the deck (the solver's is the
            # infinite one): face/readings.py
            CHALLENGE_FINISH.option,
            DRAW_TWO.option,
            Argument("content", "your own deck/characters/advantages", metavar="DIR"),
        ),
        _exact,
    ),
    Command(
        "bench",
        "the speed benchmark (engine, workers, exact solver)",
        (
            Argument(
                "races",
                "races of each timed run (default 20,000)",
                "int",
                default=20_000,
                low=1,
                high=MAX_BENCH_RACES,
                rule="the benchmark runs {low} to {high} races",
            ),
            Argument(
                "repeat",
                "runs of each workload (default 5)",
                "int",
                default=5,
                low=1,
                high=MAX_BENCH_REPEAT,
                rule="the benchmark repeats {low} to {high} times",
            ),
            Argument(
                "scaling_races",
                "races of the one- and two-worker simulations",
                "int",
                default=200_000,
                low=1,
                high=MAX_BENCH_RACES,
                rule="the benchmark runs {low} to {high} races",
            ),
            Argument(
                "cold",
                "also time the first compile with an empty numba cache (one to two minutes)",
                "switch",
                default=False,
            ),
            Argument(
                "search",
                "compare the search (MAP-Elites) with uniform random sampling instead (a minute)",
                "switch",
                default=False,
            ),
            Argument(
                "sweep",
                "time sweeps instead: tracks/s on 1 and 2 local workers, full sweeps extrapolated",
                "switch",
                default=False,
            ),
            Argument(
                "sweep_tracks",
                "4-player tracks of each timed sweep (default 300)",
                "int",
                default=300,
                low=16,
                high=100_000,
                rule="the sweep benchmark profiles {low} to {high} tracks",
            ),
            Argument(
                "reliability",
                "profile 4-player tracks twice (other seeds): each figure's rank correlation "
                "and the CPU seconds a profile, against the baseline of a seed per track",
                "switch",
                default=False,
            ),
            Argument(
                "reliability_tracks",
                "tracks the reliability benchmark profiles (default 100)",
                "int",
                default=100,
                low=3,
                high=26_640,
                rule="the reliability benchmark profiles {low} to {high} tracks",
            ),
            Argument(
                "coverage",
                "profile 4-player tracks and Snow Tails' demo boards against the same raced "
                "20 times longer on another seed: each interval family's coverage",
                "switch",
                default=False,
            ),
            Argument(
                "coverage_tracks",
                "Yummell tracks the coverage benchmark profiles (default 24)",
                "int",
                default=24,
                low=1,
                high=26_640,
                rule="the coverage benchmark profiles {low} to {high} tracks",
            ),
            Argument(
                "coverage_snow_seeds",
                "seeds each Snow Tails demo board is profiled on in the coverage benchmark "
                "(default 10: there are only four boards)",
                "int",
                default=10,
                low=1,
                high=100,
                rule="the coverage benchmark profiles each Snow Tails board on {low} to {high} "
                "seeds",
            ),
            Argument(
                "retest",
                "two sweeps of the same tracks with other seeds: each figure's rank correlation",
                count=2,
                metavar="DIR",
            ),
        ),
        _bench,
    ),
)
