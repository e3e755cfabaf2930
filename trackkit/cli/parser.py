"""The ``trackkit`` parser: the shared commands, then each game's own, their flags built
from what the games declare."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from trackkit.cli import commands
from trackkit.cli.arguments import (
    MAX_WORKERS,
    Parser,
    add_argument,
    bounded,
    number,
    precision,
)
from trackkit.cli.races import add_race_arguments, build_players, race_options, seed_type
from trackkit.cli.tracks import all_presets, of_game, resolve_track
from trackkit.explore.ladder import LADDER_RACE_COUNT, MIN_LADDER_RACES
from trackkit.explore.profile import PROFILE_RACES
from trackkit.games import DEFAULT_GAME, rulesets
from trackkit.games.face import Command, Shown, game_of, games_with, get_face
from trackkit.report.sheet import DEFAULT_APP

Handler = Callable[[argparse.Namespace], Shown | tuple[Shown, int]]


def _races(text: str) -> int:
    from trackkit.sim.montecarlo import MAX_RACES

    return bounded(1, MAX_RACES, "races run from {low} to {high}")(text)


_workers = bounded(1, MAX_WORKERS, "workers run from {low} to {high}")
_profile_races = bounded(2, 1_000_000, "a profile runs {low} to {high} races")


class _Commands:
    """Adds commands to the parser, each with ``--json`` and its handler."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def add(
        self, name: str, handler: Handler, help: str, epilog: str | None = None
    ) -> argparse.ArgumentParser:
        p = self.sub.add_parser(name, help=help, description=help, epilog=epilog)
        p.add_argument("--json", action="store_true", help="print JSON for other programs")
        p.set_defaults(handler=handler)
        return p


MAX_GENERATE = 1_000_000  # tracks one `generate` draws (a file each with -o)


def _track(p: argparse.ArgumentParser, *, tileset: bool = True) -> None:
    p.add_argument("track", help=f"a track file (.toml) or a preset: {all_presets()}")
    if tileset:
        p.add_argument("--tileset", metavar="DIR", help="use the tile set in DIR (tile games)")


def _precision(p: argparse.ArgumentParser, most: int | None) -> None:
    p.add_argument(
        "--precision",
        type=precision,
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


def _space_game(p: argparse.ArgumentParser) -> None:
    games = games_with("track_space")
    p.add_argument("--game", choices=games, default=games[0], help="the game (default %(default)s)")
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")


def _tracks(p: argparse.ArgumentParser) -> None:
    _track(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")


def _export(p: argparse.ArgumentParser) -> None:
    _track(p)
    p.add_argument("-o", "--output", metavar="FILE", help="the track file to write (.toml)")
    p.add_argument(
        "--sheet", metavar="FILE", help="a build sheet to print (.pdf): picture, pieces, link"
    )
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    sheet = p.add_argument_group("the build sheet (with --sheet)")
    add_argument(sheet, build_players())
    sheet.add_argument(
        "--profile",
        nargs="?",
        const="",
        metavar="FILE.json",
        help="the verdict of a profile: alone, a quick profile at the defaults; with a file, "
        "the one `trackkit profile TRACK --json` wrote (default: not profiled)",
    )
    sheet.add_argument(
        "--app",
        default=DEFAULT_APP,
        metavar="URL",
        help="the app's address the sheet's link begins with (default %(default)s)",
    )


def _shared(add: _Commands) -> None:
    p = add.add("presets", commands.presets, "list a game's preset tracks")
    p.add_argument("--game", choices=rulesets(), default=DEFAULT_GAME, help="the game")
    _track(add.add("show", commands.show, "a track's layout: its parts, squares or spaces"))
    p = add.add(
        "validate", commands.validate, "check a track (and the building rule with --players)"
    )
    _track(p)
    add_argument(p, build_players())
    p.add_argument("--partial", action="store_true", help="the track is still being built")
    _export(add.add("export", commands.export, "write a track file, a build sheet (PDF) or both"))
    _tracks(add.add("render", commands.render, "draw a track (SVG, PNG or HTML, by FILE's suffix)"))
    p = add.add("simulate", commands.simulate, "Monte Carlo: race length, fairness, congestion")
    _track(p)
    add_race_arguments(p)
    p.add_argument("--races", type=_races, default=10_000)
    p.add_argument("--workers", type=_workers, default=1, help=f"1 to {MAX_WORKERS}")
    p = add.add("profile", commands.profile, "a track's length, fairness, drama and friction")
    _track(p)
    add_race_arguments(p, players=4)
    p.add_argument("--races", type=_races, default=PROFILE_RACES, help=f"default {PROFILE_RACES:,}")
    p.add_argument("--no-exact", action="store_true", help="skip the exact solo figures")
    p.add_argument("--no-skill", action="store_true", help="skip the skill figure (its races)")
    _precision(p, most=100_000)
    _robust(p, "each figure's range across them")
    p = add.add("ladder", commands.ladder, "how much playing well pays: a ladder of policies")
    _track(p)
    add_race_arguments(p, players=4)
    p.add_argument(
        "--races",
        type=bounded(MIN_LADDER_RACES, 10_000_000, "a ladder step races {low} to {high} pairs"),
        default=LADDER_RACE_COUNT,
        help=f"race pairs a step (default {LADDER_RACE_COUNT:,})",
    )
    p.add_argument("--rungs", metavar="A,B", help="the rungs, weakest first (default: all)")
    p = add.add("race", commands.race, "play one race and print it turn by turn")
    _track(p)
    add_race_arguments(p)
    p = add.add("compare", commands.compare, "tracks side by side (default: a game's presets)")
    p.add_argument(
        "track", nargs="*", help="the tracks to compare, presets or files (default: the presets)"
    )
    p.add_argument("--game", choices=rulesets(), help="the game (default: your tracks' game)")
    p.add_argument("--tileset", metavar="DIR", help="use the tile set in DIR (tile games)")
    add_race_arguments(p)
    p.add_argument("--races", type=_races, help=f"default 10,000; {PROFILE_RACES:,} with --robust")
    _robust(p, "what holds under all of them")
    p = add.add("readings", commands.readings, "a game's rules open to more than one reading")
    p.add_argument("--game", choices=rulesets(), default=DEFAULT_GAME, help="the game")
    _design_space(add)
    _tune(add.add("tune", commands.tune, "balance game content: fit characters, advantages, deck"))


def _robust(p: argparse.ArgumentParser, says: str) -> None:
    p.add_argument(
        "--robust",
        nargs="?",
        const="all",
        metavar="NAMES",
        help="repeat under every combination of the game's readings and policies, the "
        "what-ifs left out (or those NAMES, comma-separated, each once, what-ifs among them: "
        f"see trackkit readings) and say {says}",
    )


def _tune(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="TUNE", help="a tune file (.toml): what may move, targets")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="the tune's folder (resumed)")
    p.add_argument(
        "--content",
        metavar="DIR",
        help="the content to start from: a folder or a bundled content's name (default: the "
        "tune file's, else the bundled)",
    )
    p.add_argument(
        "--budget",
        type=bounded(1, 100_000, "the budget runs from {low} to {high} candidates"),
        help="candidates to race in all (default: the tune file's)",
    )
    p.add_argument(
        "--seconds",
        type=number("the time limit", 1, 10**7),
        help="stop after this long (what was raced is kept: run again to go on)",
    )
    p.add_argument(
        "--races",
        type=bounded(100, 1_000_000, "races per track and count run from {low} to {high}"),
        help="races per track and player count for each candidate (default: the file's)",
    )
    p.add_argument(
        "--confirm-races",
        type=bounded(100, 1_000_000, "confirmation races run from {low} to {high}"),
        help="races per track and count confirming the best (default: the file's, or 10 × races)",
    )
    p.add_argument("--seed", type=bounded(0, 2**32 - 1, "the seed runs from {low} to {high}"))
    p.add_argument(
        "--workers", type=_workers, default=1, help="processes racing side by side (same numbers)"
    )


def _design_space(add: _Commands) -> None:
    _generate(
        add.add(
            "generate",
            commands.generate,
            "draw legal tracks uniformly at random (every legal track equally likely)",
            epilog="--json prints JSON Lines: one object per track (name, players, rank, "
            "placements: Yummell's tiles placed, a Snow Tails design's key); with -o, the "
            "files written",
        )
    )
    p = add.add("search", commands.search, "find balanced tracks of a target length (MAP-Elites)")
    add_argument(p, build_players(required=True))
    _space_game(p)
    p.add_argument(
        "--target-length",
        type=number("the target length", 0.5, 400),
        required=True,
        help="mean rounds wanted",
    )
    p.add_argument(
        "--tolerance",
        type=number("the tolerance", 0, 400),
        default=0.5,
        help="rounds either way (0.5)",
    )
    p.add_argument(
        "--budget",
        type=bounded(1, 10_000_000, "the budget runs from {low} to {high} profiles"),
        default=500,
        help="tracks profiled (default 500)",
    )
    p.add_argument(
        "--races", type=_races, default=PROFILE_RACES, help=f"races per profile ({PROFILE_RACES:,})"
    )
    _precision(p, most=100_000)
    p.add_argument("--seed", type=seed_type, default=0, help="0 to 2**64 - 1")
    p.add_argument("--method", choices=["map-elites", "random"], default="map-elites")
    p.add_argument(
        "--axis",
        choices=["unfairness", "skill"],
        default="unfairness",
        help="the map's second axis, beside the length (default unfairness)",
    )
    p.add_argument(
        "--top",
        type=bounded(1, 1_000, "--top runs from {low} to {high}"),
        default=5,
        help="tracks to report (default 5)",
    )
    p.add_argument("--export", metavar="DIR", help="write the tracks found as track files")
    _sweep(add.add("sweep", commands.sweep, "profile every legal track (or a sample) into Parquet"))
    _find(add.add("find", commands.find, "query a sweep: filter, sort, export the best tracks"))


def _sweep(p: argparse.ArgumentParser) -> None:
    add_argument(p, build_players(required=True))
    _space_game(p)
    p.add_argument(
        "--sample",
        type=bounded(1, 10**9, "a sample is {low} to {high} tracks"),
        metavar="K",
        help="a uniform sample of K tracks",
    )
    p.add_argument(
        "--sample-seed",
        type=seed_type,
        help="draws the sample (default: --seed), so two sweeps of one sample can race others",
    )
    p.add_argument(
        "--races",
        type=_profile_races,
        default=PROFILE_RACES,
        help=f"races per track (default {PROFILE_RACES:,})",
    )
    p.add_argument("--seed", type=seed_type, default=0, help="0 to 2**64 - 1")
    p.add_argument("--no-exact", action="store_true", help="skip the exact solo figures")
    p.add_argument("--no-skill", action="store_true", help="skip the skill figure (its races)")
    _precision(p, most=None)
    p.add_argument(
        "--characters",
        action="store_true",
        help="also each character's exact solo rounds (8 more solves a track: slower)",
    )
    p.add_argument(
        "--workers", type=_workers, help="local worker processes (default: one per core)"
    )
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="an existing Dask cluster")
    p.add_argument(
        "--content", metavar="DIR", help="race this content folder or bundled content's name"
    )
    p.add_argument("--out", required=True, metavar="DIR", help="the sweep's folder")
    p.add_argument(
        "--partition-size",
        type=bounded(1, 100_000, "a partition holds {low} to {high} tracks"),
        default=500,
        help="tracks per Parquet file",
    )


def _generate(p: argparse.ArgumentParser) -> None:
    add_argument(p, build_players(required=True))
    _space_game(p)
    p.add_argument(
        "--count",
        type=bounded(1, MAX_GENERATE, "generate draws {low} to {high} tracks"),
        default=10,
        help=f"1 to {MAX_GENERATE:,} (default 10)",
    )
    p.add_argument("--seed", type=seed_type, default=0, help="0 to 2**64 - 1")
    p.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        help="write each track to DIR/track-RANK.toml (DIR is made if missing)",
    )


def _find(p: argparse.ArgumentParser) -> None:
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
        default="unfairness",
        help="a figure or fairness, balance, drama, length, exact, friction (default "
        "unfairness, the fairest first; tied tracks are grouped)",
    )
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--ascending", dest="descending", action="store_false", default=None)
    direction.add_argument("--descending", dest="descending", action="store_true", default=None)
    p.add_argument(
        "--top",
        type=bounded(1, 1_000_000, "--top is {low} to {high}"),
        default=10,
        help="tracks to show (default 10)",
    )
    p.add_argument("--export", metavar="DIR", help="write the tracks shown as track files")


def _game_command(game: str, command: Command) -> Handler:
    """The handler of a game's own command: its tracks read (and of its game), its race
    options built when it races, then its ``run``."""

    def handle(args: argparse.Namespace) -> Shown | tuple[Shown, int]:
        values: dict[str, Any] = dict(vars(args))
        if "track" in values:
            named = values["track"]
            read = [
                of_game(resolve_track(name, values.get("tileset")), game, command.name)
                for name in (named if isinstance(named, list) else [named])
            ]
            values["track"] = read if isinstance(named, list) else read[0]
        if command.races:
            values["options"] = race_options(game_of(game), args)
        return command.run(values)

    return handle


def _own(add: _Commands) -> None:
    """Each game's own commands (a name two games declare goes to the first)."""
    taken = set(add.sub.choices)
    for game in rulesets():
        for command in get_face(game).commands:
            if command.name in taken:
                continue
            taken.add(command.name)
            p = add.add(command.name, _game_command(game, command), command.help)
            p.epilog = command.epilog
            for argument in command.arguments:
                add_argument(p, argument)
            if command.races:
                add_race_arguments(p, game=game)  # this game's flags only: none refused


def build_parser() -> argparse.ArgumentParser:
    """The whole ``trackkit`` parser."""
    from trackkit.cli import __doc__ as about

    parser = Parser(prog="trackkit", description=(about or "").splitlines()[0])
    add = _Commands(parser)
    _shared(add)
    _own(add)
    return parser
