"""The commands every game shares, each reading its game from the track (or ``--game``)
and showing what the game's face gives: no command here knows a game."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from trackkit.board.datafile import output_path, write_bytes, write_text
from trackkit.cli.races import progress_bar, race_options
from trackkit.cli.tracks import resolve_track
from trackkit.errors import TrackkitError, shown
from trackkit.games import get_ruleset
from trackkit.games.base import is_tile_track
from trackkit.games.face import Game, Shown, chosen_values, face_of, game_of, get_face, policies_of


def presets(args: argparse.Namespace) -> Shown:
    return get_face(args.game).presets_table()


def show(args: argparse.Namespace) -> Shown:
    track = resolve_track(args.track, args.tileset)
    return face_of(track).show(track)


def validate(args: argparse.Namespace) -> tuple[Shown, int]:
    from trackkit.report.validation import validate_text
    from trackkit.validate import validate as check

    track = resolve_track(args.track, args.tileset)
    if args.partial and not is_tile_track(track):
        raise TrackkitError(
            f"--partial is for tile tracks still being built; a {get_ruleset(track.game).title} "
            "track describes its whole board"
        )
    report = check(track, players=args.players, partial=args.partial)
    return Shown(report.to_json(), validate_text(report)), 0 if report.ok else 1


def export(args: argparse.Namespace) -> Shown:
    from trackkit.report.sheet import DEFAULT_APP, sheet_pdf, sheet_profile

    if args.output is None and args.sheet is None:
        raise TrackkitError("name what to write: -o FILE.toml, --sheet FILE.pdf or both")
    if args.sheet is None and (args.players, args.profile, args.app) != (None, None, DEFAULT_APP):
        raise TrackkitError("--players, --profile and --app are for a build sheet: add --sheet")
    # the outputs checked before the track is read, so a wrong name is said first
    paths = {
        key: output_path(name, overwrite=args.force, suffixes=(suffix,))
        for key, name, suffix in (("written", args.output, ".toml"), ("sheet", args.sheet, ".pdf"))
        if name is not None
    }
    track = resolve_track(args.track, args.tileset)
    if "sheet" in paths:  # made first: a refusal (a profile file) leaves nothing written
        profile = sheet_profile(track, args.profile, args.players)
        pdf = sheet_pdf(track, players=args.players, profile=profile, app=args.app)
    if "written" in paths:
        path = paths["written"]
        write_text(path, face_of(track).track_text(track, path.parent))
    if "sheet" in paths:
        write_bytes(paths["sheet"], pdf)
    data = {key: str(path) for key, path in paths.items()}
    return Shown(data, "\n".join(f"Wrote {shown(path, 4200)}" for path in paths.values()))


def render(args: argparse.Namespace) -> Shown:
    from trackkit.render import SUFFIXES, render_to_file  # Plotly and drawsvg load on drawing

    # checked before the track is read, so a wrong name is said first
    output_path(args.output, overwrite=args.force, suffixes=SUFFIXES)
    track = resolve_track(args.track, args.tileset)
    path = render_to_file(track, args.output, overwrite=args.force)
    return Shown({"written": str(path)}, f"Wrote {shown(path, 4200)}")


def simulate(args: argparse.Namespace) -> Shown:
    from trackkit.report.races import simulate_text
    from trackkit.sim.montecarlo import simulate as run

    track = resolve_track(args.track, args.tileset)
    options = race_options(game_of(track.game), args)
    with progress_bar(args, args.races) as update:
        result = run(
            track, options, races=args.races, seed=args.seed, workers=args.workers, progress=update
        )
    return Shown(result.to_json(), simulate_text(result))


def profile(args: argparse.Namespace) -> Shown:
    from trackkit.explore.profile import ProfileSettings, profile_track
    from trackkit.report.profile import profile_text
    from trackkit.report.verdict import verdict_json

    track = resolve_track(args.track, args.tileset)
    game = game_of(track.game)
    if args.robust:
        return _robust(args, game, {"track": track}, profile=True)
    options = race_options(game, args, game.ruleset.profile_choices)
    settings = ProfileSettings(
        races=args.races,
        seed=args.seed,
        exact=not args.no_exact,
        characters=not args.no_exact,
        precision=args.precision,
        max_races=max(args.races, args.max_races),
        skill=not args.no_skill,
    )
    result = profile_track(track, settings, options=options)
    return Shown({**result.to_json(), "verdict": verdict_json(result)}, profile_text(result))


def ladder(args: argparse.Namespace) -> Shown:
    from trackkit.explore.ladder import run_ladder, rungs_of
    from trackkit.report.ladder import ladder_json, ladder_text

    track = resolve_track(args.track, args.tileset)
    game = game_of(track.game)
    if args.policy:
        raise TrackkitError(
            "the ladder seats the policies itself: leave out --policy (--rungs picks the rungs)"
        )
    rungs = rungs_of(game.ruleset, policies_of(args.rungs) if args.rungs else None)
    options = race_options(game, args)  # refuses another game's flag, a wrong player count

    with progress_bar(args, len(rungs) - 1, unit="step") as update:
        steps = run_ladder(
            track,
            rungs,
            options,
            races=args.races,
            seed=args.seed,
            progress=update,
        )
    budget = getattr(options, "budget", None)
    data = ladder_json(track.name, game.name, rungs, steps, seed=args.seed, budget=budget)
    return Shown(data, ladder_text(data, game.title))


def race(args: argparse.Namespace) -> Shown:
    track = resolve_track(args.track, args.tileset)
    game = game_of(track.game)
    return game.face.race(track, race_options(game, args), args.seed)


def compare(args: argparse.Namespace) -> Shown:
    extra = {name: resolve_track(name, args.tileset) for name in args.track or []}
    games = {track.game for track in extra.values()}
    game = game_of(args.game or (games.pop() if len(games) == 1 else None))
    for name, track in extra.items():
        if track.game != game.name:
            raise TrackkitError(
                f"{shown(name)} is a {get_ruleset(track.game).title} track: compare tracks of "
                f"one game (here {game.title})"
            )
    ruleset = game.ruleset
    tracks = _distinct(extra) if extra else {s: ruleset.load_preset(s) for s in ruleset.presets()}
    if args.robust:
        return _robust(args, game, tracks, profile=False)
    options = race_options(game, args, ruleset.profile_choices)
    races = args.races or 10_000
    with progress_bar(args, len(tracks)) as update:
        return game.face.compare(tracks, options, races=races, seed=args.seed, progress=update)


def _distinct(named: dict[str, Any]) -> dict[str, Any]:
    """The tracks named, each once: a copy of a track named before it (an exported preset
    beside the preset) is said on stderr and left out."""
    kept: dict[str, str] = {}  # a track's text -> the name it was first given
    for name, track in named.items():
        text = track.to_toml()
        if text in kept:
            print(
                f"trackkit: {shown(name)} is the same track as {shown(kept[text])}: compared once",
                file=sys.stderr,
            )
        else:
            kept[text] = name
    return {name: named[name] for name in kept.values()}


def _robust(args: argparse.Namespace, game: Game, tracks: dict[str, Any], profile: bool) -> Shown:
    """``compare --robust`` and ``profile --robust``: the tracks profiled under every
    combination of the readings (and policies) varied."""
    from trackkit.explore.robust import product_of, run_robust, verdicts
    from trackkit.games import readings
    from trackkit.report import robust as report

    race_options(game, args)  # refuses another game's flag, a wrong player count
    ruleset, name = game.ruleset, game.name
    fixed = chosen_values(game.face.options, vars(args))
    picked = None if args.robust == "all" else [n for n in args.robust.split(",") if n.strip()]
    varies = readings.varied(name, picked, fixed=fixed, policy_fixed=args.policy is not None)
    policies = policies_of(args.policy) if args.policy else None
    chosen = {**ruleset.profile_choices, **fixed}
    with progress_bar(args, None, unit="profile") as update:
        run = run_robust(
            tracks,
            name,
            variants=product_of(varies),
            options_for=readings.options_for(name, args.players, policies, args.content, chosen),
            settings=_robust_settings(args),
            words=readings.value_words(name),
            named=readings.reading_phrases(name),
            progress=update,
        )
    if profile:
        return Shown(
            report.robust_profile_json(run, "track"), report.robust_profile_text(run, "track")
        )
    found = verdicts(run)
    return Shown(report.robust_compare_json(run, found), report.robust_compare_text(run, found))


def _robust_settings(args: argparse.Namespace) -> Any:
    """A robustness run's profile settings: ``profile``'s ``--precision`` and
    ``--max-races`` hold for every track under every combination."""
    from trackkit.explore.profile import PROFILE_RACES, ProfileSettings

    races = args.races or PROFILE_RACES
    precision = getattr(args, "precision", None)
    most = getattr(args, "max_races", None) if precision is not None else None
    return ProfileSettings(
        races=races,
        seed=args.seed,
        precision=precision,
        max_races=max(races, most) if most else None,
    )


def readings(args: argparse.Namespace) -> Shown:
    from trackkit.games.readings import readings_of
    from trackkit.report.robust import readings_json, readings_text

    ruleset = get_ruleset(args.game)
    found = readings_of(args.game)
    return Shown(
        readings_json(ruleset.name, found, ruleset.policies),
        readings_text(ruleset.title, found, ruleset.policies),
    )


def _space(args: argparse.Namespace) -> Any:
    from trackkit.explore.sweep import space_of

    return space_of(args.game, args.players, args.tileset)


def generate(args: argparse.Namespace) -> Shown:
    from trackkit.report.generate import generate_lines, generate_text, write_track_files

    space = _space(args)
    ranks = space.sample_ranks(args.count, args.seed)
    if args.output is not None:
        files = write_track_files(space, ranks, args.output)
        return Shown(files.to_json(), shown(files.text(), 4200))
    lines: Iterator[str] = generate_lines(space, ranks)
    return Shown(lines, generate_text(space, ranks, seed=args.seed))


def search(args: argparse.Namespace) -> Shown:
    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.search import SearchSettings
    from trackkit.explore.search import search as run
    from trackkit.report.search import search_text

    space = _space(args)
    wanted = SearchSettings(
        target_length=args.target_length,
        tolerance=args.tolerance,
        budget=args.budget,
        method=args.method,
        top=args.top,
        axis=args.axis,
    )
    settings = ProfileSettings(
        races=args.races,
        seed=args.seed,
        precision=args.precision,
        max_races=max(args.races, args.max_races),
    )
    with progress_bar(args, args.budget, unit="track") as update:
        result = run(space, wanted, settings, progress=update)
    if args.export:
        from trackkit.report.generate import write_track_files

        write_track_files(space, [found.rank for found in result.best], args.export)
    from trackkit.report.search import best_tie_groups

    data = result.to_json()
    data["tie_groups"] = best_tie_groups(result)  # which of the best the races tell apart
    return Shown(data, search_text(result))


def sweep(args: argparse.Namespace) -> Shown:
    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.sweep import Cluster, run_sweep
    from trackkit.report.sweep import sweep_text

    if args.scheduler is not None and args.workers is not None:
        raise TrackkitError(
            "--workers starts a local cluster; the cluster at --scheduler has its own workers"
        )
    space = _space(args)
    with progress_bar(args, None, unit="track") as update:
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
                content=args.content,
                skill=not args.no_skill,
            ),
            sample=args.sample,
            sample_seed=args.sample_seed,
            partition_size=args.partition_size,
            cluster=Cluster(workers=args.workers, scheduler=args.scheduler),
            progress=update,
        )
    return Shown(run.to_json(), sweep_text(run))


def find(args: argparse.Namespace) -> Shown:
    from trackkit.explore.find import (
        TrackQuery,
        export_tracks,
        find_tracks,
        parse_filter,
        parse_range,
    )
    from trackkit.report.orderings import row_tie_groups
    from trackkit.report.sweep import find_text

    filters = [("rounds_mean", parse_range(args.length, "--length"))] if args.length else []
    filters += [parse_filter(text) for text in args.filter]
    query = TrackQuery(tuple(filters), sort=args.sort, descending=args.descending, top=args.top)
    found = find_tracks(args.folder, query)
    exported = export_tracks(found, args.export) if args.export is not None else None
    data = found.to_json()
    data["tie_groups"] = row_tie_groups(found.rows, found.sort_key, descending=found.descending)
    if exported is not None:
        data["exported"] = [str(path) for path in exported]
    return Shown(data, find_text(found, exported))


def tune(args: argparse.Namespace) -> tuple[Shown, int]:
    import shlex

    from trackkit.report.tune import write_tune_report
    from trackkit.tune.plan import TuneSettings
    from trackkit.tune.search import tune as run
    from trackkit.tune.spec import read_tune

    spec = read_tune(args.file)
    given = [a for a in getattr(args, "argv", []) if a != "--json"]
    mark = "trackkit " + shlex.join(given) if given else None
    with progress_bar(args, args.budget or spec.budget, unit="candidate") as update:

        def progress(done: int, budget: int, best: float, met: bool) -> None:
            if update is not None:
                update(done, budget)

        settings = TuneSettings(
            content=args.content,
            budget=args.budget,
            seconds=args.seconds,
            seed=args.seed,
            races=args.races,
            confirm_races=args.confirm_races,
            workers=args.workers,
        )
        result = run(spec, args.out, settings, progress, mark)
    code = 130 if result.stopped == "interrupted" else 0 if result.met else 1
    return Shown(result.to_json(), write_tune_report(result)), code
