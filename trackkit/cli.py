"""The ``trackkit`` command line: a thin shell over the library.

Every command takes a preset slug or a track file, prints readable text (JSON with
``--json``) and exits 0 on success, 1 when a validation finds problems and 2 on unusable
input, with a one-line error and no traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from trackkit.board.datafile import output_path
from trackkit.board.track import Track, save_track
from trackkit.errors import ExistingFileError, TrackkitError, shown
from trackkit.explore.profile import PROFILE_RACES
from trackkit.games import DEFAULT_GAME, get_ruleset, load_tileset, rulesets, tileset_of
from trackkit.games.base import find_preset, is_tile_track, load_track
from trackkit.games.yummell import PLAYERS as YUMMELL
from trackkit.games.yummell.building import explore_design_space, next_placements
from trackkit.games.yummell.space import TrackSpace
from trackkit.report.generate import generate_lines, generate_text, write_track_files
from trackkit.report.races import bench_text, exact_text, race_text, simulate_text
from trackkit.report.tracks import (
    presets_summary,
    presets_text,
    show_summary,
    show_text,
    tiles_summary,
    tiles_text,
)
from trackkit.report.validation import (
    next_summary,
    next_text,
    space_summary,
    space_text,
    validate_text,
)
from trackkit.validate import validate

EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes what was typed: escape it, it may hold control characters
        self.exit(
            EXIT_UNUSABLE,
            f"trackkit: error: {shown(message, 500)} (see {shown(self.prog)} --help)\n",
        )


def _all_presets() -> str:
    return "; ".join(
        f"{get_ruleset(game).title}: {', '.join(get_ruleset(game).presets())}"
        for game in rulesets()
    )


def resolve_track(name: str, tileset: str | None = None) -> Any:
    """A track of any game from a file path or a preset slug; ``tileset`` overrides the
    tile set of a tile game's track."""
    # lexists is False for any path the system refuses (too long, a NUL byte): such a
    # name that looks like a file goes to load_track, which says what is wrong with it
    exists = os.path.lexists(name)
    preset = None if exists else find_preset(name)
    if preset is not None:
        ruleset, slug = preset
        track = ruleset.load_preset(slug)
    elif exists or name.endswith(".toml") or "/" in name or "\x00" in name:
        track = load_track(name)
    else:
        raise TrackkitError(
            f"{shown(name)!r} is neither a track file nor a preset; presets: {_all_presets()}"
        )
    if tileset is not None:
        if not is_tile_track(track):
            raise TrackkitError(
                f"{get_ruleset(track.game).title} tracks have no tiles: --tileset is for "
                "Yummell tracks"
            )
        track = replace(track, tileset=Path(tileset))
    return track


def _tile_track(track: Any, command: str) -> Track:
    """``track`` if it is made of tiles; else an error naming the command and the game."""
    if not is_tile_track(track):
        raise TrackkitError(
            f"`trackkit {command}` is for tile tracks (Yummell); {shown(track.name)} is a "
            f"{get_ruleset(track.game).title} track"
        )
    return track


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, indent=2) if args.json else text)


# --- commands --------------------------------------------------------------------------


def cmd_presets(args: argparse.Namespace) -> int:
    if args.game == "snowtails":
        from trackkit.report import snowtails

        rows = snowtails.presets_summary()
        _emit(args, rows, snowtails.presets_text(rows))
        return EXIT_OK
    rows = presets_summary()
    _emit(args, rows, presets_text(rows))
    return EXIT_OK


def cmd_tiles(args: argparse.Namespace) -> int:
    tileset = load_tileset(args.tileset)
    data = tiles_summary(tileset)
    _emit(args, data, tiles_text(data, provenance=tileset.provenance))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    track = resolve_track(args.track, args.tileset)
    if not is_tile_track(track):
        from trackkit.report import snowtails

        data = snowtails.show_summary(track)
        _emit(args, data, snowtails.show_text(data))
        return EXIT_OK
    tileset = tileset_of(track)
    data = show_summary(track, tileset)
    _emit(args, data, show_text(data, tileset_name=tileset.name))
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    track = resolve_track(args.track, args.tileset)
    if args.partial and not is_tile_track(track):
        raise TrackkitError(
            "--partial is for tile tracks still being built; a Snow Tails track describes "
            "its whole board"
        )
    report = validate(track, players=args.players, partial=args.partial)
    _emit(args, report.to_json(), validate_text(report))
    return EXIT_OK if report.ok else EXIT_PROBLEMS


def cmd_next(args: argparse.Namespace) -> int:
    track = _tile_track(resolve_track(args.track, args.tileset), "next")
    rows = next_summary(next_placements(track, players=args.players))
    _emit(args, rows, next_text(rows, track_name=track.name))
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    output_path(args.output, overwrite=args.force, suffixes=(".toml",))
    track = resolve_track(args.track, args.tileset)
    if not is_tile_track(track):
        from trackkit.board.datafile import write_text
        from trackkit.games.snowtails.presets import PRESET_SLUGS as SNOW_PRESETS
        from trackkit.games.snowtails.presets import preset_text

        if args.track not in SNOW_PRESETS:
            raise TrackkitError(
                f"{shown(args.track)} is already a Snow Tails track file: copy it to keep a copy"
            )
        path = output_path(args.output, overwrite=args.force, suffixes=(".toml",))
        path = write_text(path, preset_text(args.track))
        _emit(args, {"written": str(path)}, f"Wrote {shown(path, 4200)}")
        return EXIT_OK
    path = save_track(track, args.output, overwrite=args.force)
    _emit(args, {"written": str(path)}, f"Wrote {shown(path, 4200)}")
    return EXIT_OK


def cmd_render(args: argparse.Namespace) -> int:
    from trackkit.render import SUFFIXES, render_to_file  # Plotly and drawsvg load on drawing

    # checked before the track is read, so a wrong name is said first
    output_path(args.output, overwrite=args.force, suffixes=SUFFIXES)
    track = resolve_track(args.track, args.tileset)
    path = render_to_file(track, args.output, overwrite=args.force)
    _emit(args, {"written": str(path)}, f"Wrote {shown(path, 4200)}")
    return EXIT_OK


def cmd_space(args: argparse.Namespace) -> int:
    data = space_summary(explore_design_space(args.players, load_tileset(args.tileset)))
    _emit(args, data, space_text(data))
    return EXIT_OK


def cmd_generate(args: argparse.Namespace) -> int:
    space = TrackSpace(args.players, load_tileset(args.tileset))
    ranks = space.sample_ranks(args.count, args.seed)
    if args.output is not None:
        files = write_track_files(space, ranks, args.output)
        _emit(args, files.to_json(), shown(files.text(), 4200))
        return EXIT_OK
    if args.json:
        lines = generate_lines(space, ranks)
    else:
        lines = generate_text(space, ranks, seed=args.seed)
    for line in lines:
        print(line)
    return EXIT_OK


YUMMELL_ONLY = {
    "characters": "--characters",
    "advantages": "--advantages",
    "deck": "--deck",
    "no_encounters": "--no-encounters",
    "start_paths": "--start-paths",
}
SNOWTAILS_ONLY = {
    "starting_dogs": "--starting-dogs",
    "no_first_round_bonus": "--no-first-round-bonus",
}


def _refuse(args: argparse.Namespace, flags: dict[str, str], game: str) -> None:
    """An error for the first option of ``flags`` given, which ``game``'s races do not take."""
    for attribute, flag in flags.items():
        if getattr(args, attribute, None) not in (None, False):
            raise TrackkitError(f"{flag} is not an option of {get_ruleset(game).title} races")


def _options_for(track: Any, args: argparse.Namespace, players: int | None = None) -> Any:
    """The race options of ``track``'s game from the command line."""
    if is_tile_track(track):
        _refuse(args, SNOWTAILS_ONLY, track.game)
        return _race_options(args, players)
    _refuse(args, YUMMELL_ONLY, track.game)
    from trackkit.games.snowtails.race import RaceOptions as SnowOptions

    policy = getattr(args, "policy", "greedy")
    content = get_ruleset("snowtails").load_content(getattr(args, "content", None))
    return SnowOptions(
        players=players if players is not None else args.players,
        policy=tuple(n.strip() for n in policy.split(",")) if "," in policy else policy,
        starting_value=getattr(args, "starting_dogs", None),
        bonus_first_round=not getattr(args, "no_first_round_bonus", False),
        deck=content.deck,
        components=content.components,
    )


def _race_options(args: argparse.Namespace, players: int | None = None) -> Any:
    from trackkit.games.yummell.content import load_content
    from trackkit.games.yummell.setup import RaceOptions

    def names(text: str | None) -> tuple[str, ...]:
        # names, prefixes and numbers are resolved by the library (RaceOptions)
        if text is None:
            return ()
        return tuple(n.strip() for n in text.split(","))

    return RaceOptions(
        players=players if players is not None else args.players,
        characters=names(getattr(args, "characters", None)),
        advantages=names(getattr(args, "advantages", None)),
        deck=getattr(args, "deck", None) or "finite",
        encounters=not getattr(args, "no_encounters", False),
        start_paths=getattr(args, "start_paths", None) or getattr(args, "paths_default", "chosen"),
        policy=getattr(args, "policy", "greedy")
        if "," not in getattr(args, "policy", "")
        else "greedy",
        policies=names(getattr(args, "policy", None)) if "," in getattr(args, "policy", "") else (),
        content=load_content(getattr(args, "content", None)),
    )


@contextmanager
def _progress(
    args: argparse.Namespace, total: int | None, unit: str = "race"
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on a terminal (stderr), closed however the work ends; yields the
    callback to give the work (``None``, no bar, for ``--json`` or when not a terminal)."""
    if args.json or not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, file=sys.stderr, leave=False)

    def update(done: int, total_now: int) -> None:
        bar.total = total_now
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        bar.close()


def cmd_simulate(args: argparse.Namespace) -> int:
    from trackkit.sim.montecarlo import simulate

    track = resolve_track(args.track, args.tileset)
    options = _options_for(track, args)
    with _progress(args, args.races) as update:
        result = simulate(
            track,
            options,
            races=args.races,
            seed=args.seed,
            workers=args.workers,
            progress=update,
        )
    _emit(args, result.to_json(), simulate_text(result))
    return EXIT_OK


def cmd_profile(args: argparse.Namespace) -> int:
    from trackkit.explore.profile import ProfileSettings, profile_track
    from trackkit.report.profile import profile_text
    from trackkit.report.verdict import verdict_json

    track = resolve_track(args.track, args.tileset)
    settings = ProfileSettings(
        races=args.races,
        seed=args.seed,
        exact=not args.no_exact,
        characters=not args.no_exact,
        precision=args.precision,
        max_races=max(args.races, args.max_races),
    )
    profile = profile_track(track, settings, options=_options_for(track, args))
    _emit(args, {**profile.to_json(), "verdict": verdict_json(profile)}, profile_text(profile))
    return EXIT_OK


def cmd_search(args: argparse.Namespace) -> int:
    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.search import SearchSettings, search
    from trackkit.report.search import search_text

    ruleset = get_ruleset(DEFAULT_GAME)
    space = ruleset.track_space(args.players, load_tileset(args.tileset))
    with _progress(args, args.budget, unit="track") as update:
        result = search(
            space,
            SearchSettings(
                target_length=args.target_length,
                tolerance=args.tolerance,
                budget=args.budget,
                method=args.method,
                top=args.top,
            ),
            ProfileSettings(
                races=args.races,
                seed=args.seed,
                precision=args.precision,
                max_races=max(args.races, args.max_races),
            ),
            progress=update,
        )
    if args.export:
        from trackkit.report.generate import write_track_files

        write_track_files(space, [found.rank for found in result.best], args.export)
    _emit(args, result.to_json(), search_text(result))
    return EXIT_OK


def cmd_race(args: argparse.Namespace) -> int:
    from trackkit.games.yummell.record import record_race

    track = resolve_track(args.track, args.tileset)
    options = _options_for(track, args)
    if not is_tile_track(track):
        from trackkit.games.snowtails.race import record_race as record_sled_race
        from trackkit.report.snowtails import race_text as sled_race_text

        sleds = record_sled_race(track, options, seed=args.seed)
        data = {"track": track.name, "seed": args.seed, **sleds.to_json()}
        _emit(args, data, sled_race_text(sleds, track=track.name, seed=args.seed))
        return EXIT_OK
    record = record_race(track, options, seed=args.seed)
    _emit(args, record.to_json(), race_text(record))
    return EXIT_OK


def cmd_exact(args: argparse.Namespace) -> int:
    from trackkit.games.yummell.content import load_content
    from trackkit.games.yummell.exact import exact_solo

    track = _tile_track(resolve_track(args.track, args.tileset), "exact")
    result = exact_solo(
        track,
        character=_one_name(args.character),
        advantage=_one_name(args.advantage),
        path=args.path,
        encounters=not args.no_encounters,
        content=load_content(args.content),
    )
    _emit(args, result.to_json(), exact_text(result))
    return EXIT_OK


def _one_name(text: str | None) -> str | None:
    """A ``--character``/``--advantage`` as typed: the library resolves names, prefixes and
    numbers and refuses empty or ambiguous ones."""
    return text


def cmd_compare(args: argparse.Namespace) -> int:
    extra = {name: resolve_track(name, args.tileset) for name in args.track or []}
    games = {track.game for track in extra.values()}
    game = args.game or (games.pop() if len(games) == 1 else DEFAULT_GAME)
    for name, track in extra.items():
        if track.game != game:
            raise TrackkitError(
                f"{shown(name)} is a {get_ruleset(track.game).title} track: compare tracks of "
                f"one game (here {get_ruleset(game).title})"
            )
    ruleset = get_ruleset(game)
    tracks = {slug: ruleset.load_preset(slug) for slug in ruleset.presets()} | extra
    options = _options_for(next(iter(tracks.values())), args)
    with _progress(args, len(tracks)) as update:
        if game == "snowtails":
            from trackkit.report import snowtails

            rows: list[Any] = snowtails.compare_tracks(
                tracks, options, races=args.races, seed=args.seed, progress=update
            )
            text = snowtails.compare_text(
                rows, players=options.players, races=args.races, seed=args.seed
            )
        else:
            from trackkit.report.compare import compare_text, compare_tracks

            # every track profiled with the same seed: common random numbers
            rows = compare_tracks(
                tracks, options, races=args.races, seed=args.seed, progress=update
            )
            text = compare_text(rows, players=options.players, races=args.races, seed=args.seed)
    _emit(args, [row.to_json() for row in rows], text)
    return EXIT_OK


def cmd_tournament(args: argparse.Namespace) -> int:
    from trackkit.games.snowtails.race import play_tournaments
    from trackkit.report.snowtails import tournament_summary, tournament_text

    tracks = [resolve_track(name) for name in args.track]
    for name, track in zip(args.track, tracks, strict=True):
        if is_tile_track(track):
            raise TrackkitError(f"{shown(name)}: a tournament is of Snow Tails tracks")
        report = validate(track)
        if not report.ok:
            raise TrackkitError(f"{shown(name)}: {report.problems[0]}")
    options = _options_for(tracks[0], args)
    batch = play_tournaments(tracks, options, args.tournaments, seed=args.seed)
    data = tournament_summary(
        batch, [t.name for t in tracks], players=options.players, seed=args.seed
    )
    _emit(args, data, tournament_text(data))
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from trackkit.report.bench import run_bench

    if args.search:
        from trackkit.report.bench_search import SEARCH_PLAYERS, bench_search, bench_search_text

        searched = bench_search(get_ruleset(DEFAULT_GAME).track_space(SEARCH_PLAYERS))
        _emit(args, searched.to_json(), bench_search_text(searched))
        return EXIT_OK
    if args.reliability or args.retest:
        from trackkit.report.bench_reliability import (
            bench_reliability,
            retest_sweeps,
            retest_text,
        )

        if args.retest:
            retest = retest_sweeps(*args.retest)
        else:
            retest = bench_reliability(tracks=args.reliability_tracks)
        _emit(args, retest.to_json(), retest_text(retest))
        return EXIT_OK
    if args.sweep:
        from trackkit.report.bench import time_sweep
        from trackkit.report.sweep import sweep_bench_text

        bench = time_sweep(args.sweep_tracks)
        _emit(args, bench.to_json(), sweep_bench_text(bench))
        return EXIT_OK

    result = run_bench(
        races=args.races,
        repeats=args.repeat,
        scaling_races=args.scaling_races,
        cold=args.cold,
    )
    _emit(args, result.to_json(), bench_text(result))
    return EXIT_OK


def cmd_sweep(args: argparse.Namespace) -> int:
    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.sweep import Cluster, run_sweep, space_of
    from trackkit.report.sweep import sweep_text

    if args.scheduler is not None and args.workers is not None:
        raise TrackkitError(
            "--workers starts a local cluster; the cluster at --scheduler has its own workers"
        )
    space = space_of(DEFAULT_GAME, args.players, args.tileset)
    with _progress(args, None, unit="track") as update:
        run = run_sweep(
            space,
            args.out,
            ProfileSettings(
                races=args.races,
                seed=args.seed,
                exact=not args.no_exact,
                characters=args.characters,
                precision=args.precision,
                max_races=args.max_races,
            ),
            sample=args.sample,
            sample_seed=args.sample_seed,
            partition_size=args.partition_size,
            cluster=Cluster(workers=args.workers, scheduler=args.scheduler),
            progress=update,
        )
    _emit(args, run.to_json(), sweep_text(run))
    return EXIT_OK


def cmd_find(args: argparse.Namespace) -> int:
    from trackkit.explore.find import (
        TrackQuery,
        export_tracks,
        find_tracks,
        parse_filter,
        parse_range,
    )
    from trackkit.report.sweep import find_text

    filters = [("rounds_mean", parse_range(args.length, "--length"))] if args.length else []
    filters += [parse_filter(text) for text in args.filter]
    query = TrackQuery(tuple(filters), sort=args.sort, descending=args.descending, top=args.top)
    found = find_tracks(args.folder, query)
    exported = export_tracks(found, args.export) if args.export is not None else None
    data = found.to_json()
    if exported is not None:
        data["exported"] = [str(path) for path in exported]
    _emit(args, data, find_text(found, exported))
    return EXIT_OK


# --- parser ----------------------------------------------------------------------------


_WHOLE = re.compile(r"[+-]?[0-9]+")
MAX_SEED = 2**64  # seeds feed numpy's SeedSequence; 64 bits is more than enough
MAX_WORKERS = 64
MAX_BENCH_RACES = 1_000_000
MAX_BENCH_REPEAT = 20
MAX_GENERATE = 1_000_000  # tracks one `generate` draws (a file each with -o)


def _whole(text: str) -> int:
    """A whole number in ASCII digits (``int`` would also take "١٢" and "1_000")."""
    stripped = text.strip()
    if not _WHOLE.fullmatch(stripped):
        raise argparse.ArgumentTypeError(f"{shown(text, 40)!r} is not a whole number")
    if len(stripped) > 4000:  # int() refuses 4,300 digits
        raise argparse.ArgumentTypeError(f"{shown(text, 40)} is far too large")
    return int(stripped)


def _bounded(low: int, high: int, rule: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; ``rule`` says the range
    in words, with ``{low}`` and ``{high}``."""

    def parse(text: str) -> int:
        value = _whole(text)
        if not low <= value <= high:
            said = rule.format(low=f"{low:,}", high=f"{high:,}")
            raise argparse.ArgumentTypeError(f"{said}, not {shown(f'{value:,}', 60)}")
        return value

    return parse


_players = _bounded(
    YUMMELL.build_min, YUMMELL.build_max, "the building rule is for {low} to {high} players"
)
BUILD_HELP = f"apply the track-building rule ({YUMMELL.build_min}-{YUMMELL.build_max})"
_race_players = _bounded(YUMMELL.race_min, YUMMELL.race_max, "a race has {low} to {high} players")
_tournaments = _bounded(1, 200_000, "tournaments run from {low} to {high}")
_starting_dogs = _bounded(1, 4, "the starting dogs are valued {low} to {high} (rulebook A.5)")
_seed = _bounded(0, MAX_SEED - 1, "the seed is a whole number from {low} to {high} (2**64 - 1)")
_workers = _bounded(1, MAX_WORKERS, "workers run from {low} to {high}")
_bench_races = _bounded(1, MAX_BENCH_RACES, "the benchmark runs {low} to {high} races")
_bench_repeat = _bounded(1, MAX_BENCH_REPEAT, "the benchmark repeats {low} to {high} times")
_generate_count = _bounded(1, MAX_GENERATE, "generate draws {low} to {high} tracks")
_sample = _bounded(1, 10**9, "a sample is {low} to {high} tracks")
_profile_races = _bounded(2, 1_000_000, "a profile runs {low} to {high} races")


def _precision(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the precision is a number, not {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"the precision is between 0 and 1, not {text}")
    return value


def _start_paths(text: str) -> str:
    from trackkit.games.yummell.setup import START_PATHS

    if text in START_PATHS or (len(text) == 1 and "A" <= text.upper() <= "Z"):
        return text if text in START_PATHS else text.upper()
    raise argparse.ArgumentTypeError(
        f"start paths are chosen, dealt or a path's letter (A, B, C), not {text!r}"
    )


_partition_size = _bounded(1, 100_000, "a partition holds {low} to {high} tracks")
_find_top = _bounded(1, 1_000_000, "--top is {low} to {high}")


_budget = _bounded(1, 10_000_000, "the budget runs from {low} to {high} profiles")
_top = _bounded(1, 1_000, "--top runs from {low} to {high}")


def _positive(what: str, low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{what} is a number from {low:g} to {high:g}, not {text!r}"
            )
        return value

    return parse


_rounds = _positive("the target length", 0.5, 400)
_tolerance = _positive("the tolerance", 0, 400)


def _races(text: str) -> int:
    from trackkit.sim.montecarlo import MAX_RACES

    return _bounded(1, MAX_RACES, "races run from {low} to {high}")(text)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="trackkit", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, handler: Callable[[argparse.Namespace], int], help: str) -> Any:
        p = sub.add_parser(name, help=help, description=help)
        p.add_argument("--json", action="store_true", help="print JSON for other programs")
        p.set_defaults(handler=handler)
        return p

    def track_argument(p: argparse.ArgumentParser) -> None:
        p.add_argument("track", help=f"a track file (.toml) or a preset: {_all_presets()}")
        p.add_argument("--tileset", metavar="DIR", help="use the tile set in DIR")

    p = command("presets", cmd_presets, "list a game's preset tracks")
    p.add_argument("--game", choices=rulesets(), default=DEFAULT_GAME, help="the game")
    p = command("tiles", cmd_tiles, "list the tiles of a tile set")
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    p = command("show", cmd_show, "tiles, squares along each start path, terrain totals")
    track_argument(p)
    p = command("validate", cmd_validate, "check a track (and the building rule with --players)")
    track_argument(p)
    p.add_argument("--players", type=_players, help=BUILD_HELP)
    p.add_argument("--partial", action="store_true", help="the track is still being built")
    p = command("next", cmd_next, "where the next tile can go")
    track_argument(p)
    p.add_argument("--players", type=_players, help=BUILD_HELP)
    p = command("export", cmd_export, "write a track (or preset) to a TOML track file")
    track_argument(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.toml")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p = command("render", cmd_render, "draw a track as it lies on the table (SVG, PNG or HTML)")
    track_argument(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.svg|FILE.png|FILE.html")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    def precision_arguments(p: argparse.ArgumentParser, most: int | None) -> None:
        p.add_argument(
            "--precision",
            type=_precision,
            metavar="H",
            help="race on until balance's 95%% interval is ±H (e.g. 0.005), or --max-races",
        )
        p.add_argument(
            "--max-races",
            type=_profile_races,
            default=most,
            help="the most races of a track with --precision (default "
            + (f"{most:,})" if most else "10 × --races)"),
        )

    def race_arguments(p: argparse.ArgumentParser, players: bool = True) -> None:
        if players:
            p.add_argument(
                "--players",
                type=_race_players,
                default=5,
                help=f"{YUMMELL.race_min} to {YUMMELL.race_max} (default 5)",
            )
        p.add_argument("--characters", help="comma-separated names or numbers, one per player")
        p.add_argument("--advantages", help="comma-separated names or numbers, one per player")
        p.add_argument(
            "--policy",
            default="greedy",
            help="greedy or smart, or one per player separated by commas (smart,greedy,...)",
        )
        p.add_argument("--deck", choices=["finite", "infinite"], help="Yummell (default finite)")
        p.add_argument("--no-encounters", action="store_true", help="Yummell: skip encounters")
        p.add_argument(
            "--start-paths",
            type=_start_paths,
            help="Yummell: chosen (by each racer's policy), dealt (every path as often) or a "
            "path's letter (every racer on it); default chosen, for profiles dealt",
        )
        p.add_argument(
            "--starting-dogs",
            type=_starting_dogs,
            metavar="1-4",
            help="Snow Tails: the value of both starting dogs (default: the deck's, 2)",
        )
        p.add_argument(
            "--no-first-round-bonus",
            action="store_true",
            help="Snow Tails: no bonus die in round 1",
        )
        p.add_argument("--content", metavar="DIR", help="your own deck/characters/advantages")
        p.add_argument("--seed", type=_seed, default=0, help="0 to 2**64 - 1")

    p = command("simulate", cmd_simulate, "Monte Carlo: race length, fairness, congestion")
    track_argument(p)
    race_arguments(p)
    p.add_argument("--races", type=_races, default=10_000)
    p.add_argument("--workers", type=_workers, default=1, help=f"1 to {MAX_WORKERS}")
    p = command("profile", cmd_profile, "a track's length, balance, drama and friction figures")
    track_argument(p)
    race_arguments(p, players=False)
    p.add_argument(
        "--players",
        type=_race_players,
        default=4,
        help=f"{YUMMELL.race_min} to {YUMMELL.race_max} (default 4)",
    )
    p.add_argument("--races", type=_races, default=PROFILE_RACES, help=f"default {PROFILE_RACES:,}")
    p.add_argument("--no-exact", action="store_true", help="skip the exact solo figures")
    precision_arguments(p, most=100_000)
    p.set_defaults(paths_default="dealt")
    p = command("search", cmd_search, "find balanced tracks of a target length (MAP-Elites)")
    p.add_argument("--players", type=_players, required=True, help=BUILD_HELP)
    p.add_argument("--target-length", type=_rounds, required=True, help="mean rounds wanted")
    p.add_argument("--tolerance", type=_tolerance, default=0.5, help="rounds either way (0.5)")
    p.add_argument("--budget", type=_budget, default=500, help="tracks profiled (default 500)")
    p.add_argument(
        "--races", type=_races, default=PROFILE_RACES, help=f"races per profile ({PROFILE_RACES:,})"
    )
    precision_arguments(p, most=100_000)
    p.add_argument("--seed", type=_seed, default=0, help="0 to 2**64 - 1")
    p.add_argument("--method", choices=["map-elites", "random"], default="map-elites")
    p.add_argument("--top", type=_top, default=5, help="tracks to report (default 5)")
    p.add_argument("--export", metavar="DIR", help="write the tracks found as track files")
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    p = command("race", cmd_race, "play one race and print it turn by turn")
    track_argument(p)
    race_arguments(p)
    p = command("exact", cmd_exact, "the exact expected length of a solo race")
    track_argument(p)
    p.add_argument("--character", help="name or number (default: dealt at random)")
    p.add_argument("--advantage", help="name or number (default: dealt at random)")
    p.add_argument(
        "--path", metavar="LETTER", help="the start path raced: A, B… (default: the greedy one)"
    )
    p.add_argument("--no-encounters", action="store_true")
    p.add_argument("--content", metavar="DIR", help="your own deck/characters/advantages")
    p = command("compare", cmd_compare, "a game's presets (and your tracks) side by side")
    p.add_argument("track", nargs="*", help="track files to compare with the presets")
    p.add_argument(
        "--game", choices=rulesets(), help="the game (default: your tracks' game, or yummell)"
    )
    p.add_argument("--tileset", metavar="DIR", help="use the tile set in DIR")
    race_arguments(p)
    p.add_argument("--races", type=_races, default=10_000)
    p.set_defaults(paths_default="dealt")  # Yummell: profiled, every start path raced
    p = command("tournament", cmd_tournament, "Snow Tails: tournaments of three races (rulebook E)")
    p.add_argument("track", nargs=3, help="the three tracks, in race order")
    race_arguments(p)
    p.add_argument("--tournaments", type=_tournaments, default=2_000)
    p = command("bench", cmd_bench, "the speed benchmark (engine, workers, exact solver)")
    p.add_argument("--races", type=_bench_races, default=20_000)
    p.add_argument("--repeat", type=_bench_repeat, default=5)
    p.add_argument(
        "--scaling-races",
        type=_bench_races,
        default=200_000,
        help="races of the one- and two-worker simulations",
    )
    p.add_argument(
        "--cold",
        action="store_true",
        help="also time the first compile with an empty numba cache (one to two minutes)",
    )
    p.add_argument(
        "--search",
        action="store_true",
        help="compare the search (MAP-Elites) with uniform random sampling instead (a minute)",
    )
    p.add_argument(
        "--sweep",
        action="store_true",
        help="time sweeps instead: tracks/s on 1 and 2 local workers, full sweeps extrapolated",
    )
    p.add_argument(
        "--sweep-tracks",
        type=_bounded(16, 100_000, "the sweep benchmark profiles {low} to {high} tracks"),
        default=300,
        help="4-player tracks of each timed sweep (default 300)",
    )
    p.add_argument(
        "--reliability",
        action="store_true",
        help="profile 4-player tracks twice (other seeds): each figure's rank correlation "
        "and the CPU seconds a profile, against the baseline of a seed per track",
    )
    p.add_argument(
        "--reliability-tracks",
        type=_bounded(3, 26_640, "the reliability benchmark profiles {low} to {high} tracks"),
        default=100,
        help="tracks the reliability benchmark profiles (default 100)",
    )
    p.add_argument(
        "--retest",
        nargs=2,
        metavar="DIR",
        help="two sweeps of the same tracks with other seeds: each figure's rank correlation",
    )
    p = command("sweep", cmd_sweep, "profile every legal track (or a sample) into Parquet")
    p.add_argument("--players", type=_players, required=True)
    p.add_argument("--sample", type=_sample, metavar="K", help="a uniform sample of K tracks")
    p.add_argument(
        "--sample-seed",
        type=_seed,
        help="draws the sample (default: --seed), so two sweeps of one sample can race others",
    )
    p.add_argument(
        "--races",
        type=_profile_races,
        default=PROFILE_RACES,
        help=f"races per track (default {PROFILE_RACES:,})",
    )
    p.add_argument("--seed", type=_seed, default=0, help="0 to 2**64 - 1")
    p.add_argument("--no-exact", action="store_true", help="skip the exact solo figures")
    precision_arguments(p, most=None)
    p.add_argument(
        "--characters",
        action="store_true",
        help="also each character's exact solo rounds (8 more solves a track: slower)",
    )
    p.add_argument(
        "--workers", type=_workers, help="local worker processes (default: one per core)"
    )
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="an existing Dask cluster")
    p.add_argument("--out", required=True, metavar="DIR", help="the sweep's folder")
    p.add_argument(
        "--partition-size", type=_partition_size, default=500, help="tracks per Parquet file"
    )
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    p = command("find", cmd_find, "query a sweep: filter, sort, export the best tracks")
    p.add_argument("folder", metavar="DIR", help="a sweep's folder (trackkit sweep --out)")
    p.add_argument("--length", metavar="A..B", help="mean rounds from A to B (A.. or ..B)")
    p.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="KEY=A..B",
        help="a figure from A to B (repeatable)",
    )
    p.add_argument(
        "--sort",
        default="balance",
        help="a figure or balance, drama, length, exact, friction (default balance)",
    )
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--ascending", dest="descending", action="store_false", default=None)
    direction.add_argument("--descending", dest="descending", action="store_true", default=None)
    p.add_argument("--top", type=_find_top, default=10, help="tracks to show (default 10)")
    p.add_argument("--export", metavar="DIR", help="write the tracks shown as track files")
    p = command("space", cmd_space, "count every legal track under the building rule")
    p.add_argument("--players", type=_players, required=True)
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    p = command(
        "generate",
        cmd_generate,
        "draw legal Yummell tracks uniformly at random (every legal track equally likely)",
    )
    p.add_argument(
        "--players",
        type=_players,
        required=True,
        help=f"{YUMMELL.build_min} to {YUMMELL.build_max}: the building rule's tracks for so many",
    )
    p.add_argument(
        "--count", type=_generate_count, default=10, help=f"1 to {MAX_GENERATE:,} (default 10)"
    )
    p.add_argument("--seed", type=_seed, default=0, help="0 to 2**64 - 1 (default 0)")
    p.epilog = (
        "--json prints JSON Lines: one object per track (name, players, rank, placements); "
        "with -o, the files written"
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        help="write each track to DIR/track-RANK.toml (DIR is made if missing)",
    )
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except ExistingFileError as error:
        # the library says the file exists; how to replace it is this shell's --force
        print(f"trackkit: error: {shown(f'{error} or pass --force', 2000)}", file=sys.stderr)
        return EXIT_UNUSABLE
    except TrackkitError as error:
        # one line, whatever a path or a name in the message holds
        print(f"trackkit: error: {shown(error, 2000)}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        print("trackkit: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
