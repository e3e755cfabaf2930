"""The ``trackkit`` command line: a thin shell over the library.

Every command takes a preset slug or a track file, prints readable text (JSON with
``--json``) and exits 0 on success, 1 when a validation finds problems and 2 on unusable
input, with a one-line error and no traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from trackkit.board.datafile import output_path
from trackkit.board.graph import TrackGraph, compose
from trackkit.board.track import Track, load_track, save_track
from trackkit.errors import TrackkitError, shown
from trackkit.games import load_tileset, tileset_of
from trackkit.games.yummell.building import explore_design_space, next_placements
from trackkit.games.yummell.presets import PRESET_SLUGS, list_presets, load_preset
from trackkit.games.yummell.terrain import route_cost, terrain_totals
from trackkit.validate import validate

EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2
TERRAIN_LETTER = {"plain": "P", "woods": "W", "hills": "H", "swamp": "S"}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes what was typed: escape it, it may hold control characters
        self.exit(
            EXIT_UNUSABLE,
            f"trackkit: error: {shown(message, 500)} (see {shown(self.prog)} --help)\n",
        )


def resolve_track(name: str, tileset: str | None = None) -> Track:
    """A track from a file path or a preset slug; ``tileset`` overrides its tile set."""
    # lexists is False for any path the system refuses (too long, a NUL byte): such a
    # name that looks like a file goes to load_track, which says what is wrong with it
    exists = os.path.lexists(name)
    if name in PRESET_SLUGS and not exists:
        track = load_preset(name)
    elif exists or name.endswith(".toml") or "/" in name or "\x00" in name:
        track = load_track(name)
    else:
        raise TrackkitError(
            f"{shown(name)!r} is neither a track file nor a preset; presets: "
            f"{', '.join(PRESET_SLUGS)}"
        )
    if tileset is not None:
        track = replace(track, tileset=Path(tileset))
    return track


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, indent=2) if args.json else text)


def _start_labels(composed: TrackGraph) -> dict[str, str]:
    return {s: chr(ord("A") + i) for i, s in enumerate(composed.start_squares)}


# --- commands --------------------------------------------------------------------------


def cmd_presets(args: argparse.Namespace) -> int:
    rows = []
    for preset in list_presets():
        composed = compose(preset.track, tileset_of(preset.track))
        rows.append(
            {
                "slug": preset.slug,
                "name": preset.track.name,
                "tiles": len(preset.track.placements),
                "path_tiles": len(preset.track.placements) - 2,
                "squares": composed.graph.number_of_nodes(),
                "description": preset.track.description,
            }
        )
    lines = [f"{'slug':<20} {'tiles':>5} {'squares':>7}  name"]
    lines += [f"{r['slug']:<20} {r['tiles']:>5} {r['squares']:>7}  {r['name']}" for r in rows]
    _emit(args, rows, "\n".join(lines))
    return EXIT_OK


def cmd_tiles(args: argparse.Namespace) -> int:
    tileset = load_tileset(args.tileset)
    rows = [
        {
            "number": t.number,
            "role": t.role.value,
            "shape": t.shape,
            "squares": len(t.squares),
            "mp": sum(s["cost"] for s in t.squares),
            "terrain": "".join(TERRAIN_LETTER[s["terrain"]] for s in t.squares),
            "reconstructed": t.reconstructed,
            "file": t.source,
        }
        for t in tileset.values()
    ]
    lines = [f"{shown(tileset.name)} ({shown(tileset.folder)})", shown(tileset.provenance), ""]
    lines.append(f"{'tile':>4} {'shape':<8} {'squares':>7} {'MP':>3}  terrain (P W H S)")
    for r in rows:
        mark = "  (reconstructed)" if r["reconstructed"] else ""
        lines.append(
            f"{r['number']:>4} {r['shape']:<8} {r['squares']:>7} {r['mp']:>3}  {r['terrain']}{mark}"
        )
    _emit(args, {"name": tileset.name, "folder": tileset.folder, "tiles": rows}, "\n".join(lines))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    track = resolve_track(args.track, args.tileset)
    tileset = tileset_of(track)
    composed = compose(track, tileset)
    graph = composed.graph
    labels = _start_labels(composed)
    routes = []
    for route in composed.routes():
        routes.append(
            {
                "start_path": labels[route[0]],
                "squares": len(route),
                "mp": route_cost(composed, route),
                "route": route,
            }
        )
    data = composed.to_json()
    data["tiles"] = [
        {
            "tile": p.tile,
            "x": p.x,
            "y": p.y,
            "rotation": p.rotation,
            "shape": tileset[p.tile].shape if p.tile in tileset else None,
        }
        for p in track.placements
    ]
    data["routes"] = routes
    data["terrain"] = terrain_totals(composed)

    lines = [f"{track.name}: {len(track.placements)} tiles, {graph.number_of_nodes()} squares"]
    lines.append(f"Tile set: {tileset.name}")
    lines.append("Tiles in placing order:")
    for n, tile_row in enumerate(data["tiles"], 1):
        shape = tile_row["shape"] or "unknown"
        lines.append(
            f"  {n}. tile {tile_row['tile']:>2} {shape:<8} at ({tile_row['x']}, {tile_row['y']})"
            f" rotated {tile_row['rotation']}°"
        )
    for route in routes:
        lines.append(
            f"Start path {route['start_path']}: {route['squares']} squares, {route['mp']} MP"
        )
        by_tile: dict[int, list[str]] = {}
        for node in route["route"]:
            attrs = graph.nodes[node]
            cell = f"{attrs['square']}:{TERRAIN_LETTER[attrs['terrain']]}{attrs['cost']}"
            by_tile.setdefault(attrs["tile"], []).append(cell)
        for tile_number, cells in by_tile.items():
            lines.append(f"  tile {tile_number:>2}  " + " ".join(cells))
    if not routes:
        lines.append("No route reaches the finish: run `trackkit validate` to see why.")
    lines.append("Terrain over the whole track:")
    for terrain, totals in data["terrain"].items():
        lines.append(f"  {terrain:<6} {totals['squares']:>3} squares {totals['mp']:>4} MP")
    lines.append("(squares written id:terrain+cost, e.g. a1:P1 = square a1, plain, 1 MP)")
    _emit(args, data, "\n".join(lines))
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    track = resolve_track(args.track, args.tileset)
    report = validate(track, players=args.players, partial=args.partial)
    rule = f" under the building rule for {args.players} players" if args.players else ""
    if report.ok:
        text = f"{track.name}: valid{rule}."
        if args.partial:
            text += " It can still be completed." if report.completable else ""
    else:
        text = f"{track.name}: {len(report.problems)} problem(s){rule}:\n"
        text += "\n".join(f"  {problem}" for problem in report.problems)
    _emit(args, report.to_json(), text)
    return EXIT_OK if report.ok else EXIT_PROBLEMS


def cmd_next(args: argparse.Namespace) -> int:
    track = resolve_track(args.track, args.tileset)
    options = next_placements(track, players=args.players)
    rows = [
        {
            "tile": o.placement.tile,
            "x": o.placement.x,
            "y": o.placement.y,
            "rotation": o.placement.rotation,
            "legal": o.legal,
            "problem": o.problem,
            "completable": o.completable,
        }
        for o in options
    ]
    if not rows:
        text = f"{track.name}: no tile can be placed next (finished, or the path is blocked)."
    else:
        text = f"{track.name}: next placements\n"
        for r in rows:
            verdict = "legal" if r["legal"] else f"illegal ({r['problem']})"
            if r["completable"] is False:
                verdict += ", but the track could not be completed after it"
            text += (
                f"  tile {r['tile']:>2} at ({r['x']}, {r['y']}) rotated {r['rotation']:>3}°: "
                f"{verdict}\n"
            )
    _emit(args, rows, text.rstrip())
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    output_path(args.output, overwrite=args.force, suffixes=(".toml",))
    track = resolve_track(args.track, args.tileset)
    path = save_track(track, args.output, overwrite=args.force)
    _emit(args, {"written": str(path)}, f"Wrote {shown(path, 4200)}")
    return EXIT_OK


def cmd_render(args: argparse.Namespace) -> int:
    from trackkit.render import render_to_file  # Plotly and drawsvg load only when drawing

    # checked here too: render_to_file does not guard against pipes and unusable names
    output_path(args.output, overwrite=args.force, suffixes=(".svg", ".html"))
    track = resolve_track(args.track, args.tileset)
    path = render_to_file(track, args.output, overwrite=args.force)
    _emit(args, {"written": str(path)}, f"Wrote {shown(path, 4200)}")
    return EXIT_OK


def cmd_space(args: argparse.Namespace) -> int:
    space = explore_design_space(args.players, load_tileset(args.tileset))
    data = {
        "players": space.players,
        "legal_tracks": space.legal_tracks,
        "dead_ends": space.dead_ends,
    }
    text = (
        f"{space.players} players: {space.legal_tracks:,} legal tracks; {space.dead_ends:,} "
        "placing sequences obey the rule at every step and still reach a dead end"
    )
    _emit(args, data, text)
    return EXIT_OK


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
        deck=getattr(args, "deck", "finite"),
        encounters=not getattr(args, "no_encounters", False),
        policy=getattr(args, "policy", "greedy")
        if "," not in getattr(args, "policy", "")
        else "greedy",
        policies=names(getattr(args, "policy", None)) if "," in getattr(args, "policy", "") else (),
        content=load_content(getattr(args, "content", None)),
    )


def _progress(args: argparse.Namespace, total: int) -> Any:
    """A progress bar on a terminal (stderr), nothing otherwise."""
    if args.json or not sys.stderr.isatty():
        return None, None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="race", file=sys.stderr, leave=False)

    def update(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    return bar, update


def _percent(value: float | None) -> str:
    return "   -  " if value is None else f"{100 * value:5.1f}%"


def cmd_simulate(args: argparse.Namespace) -> int:
    from trackkit.sim.montecarlo import simulate

    track = resolve_track(args.track, args.tileset)
    options = _race_options(args)
    bar, update = _progress(args, args.races)
    try:
        result = simulate(
            track,
            options,
            races=args.races,
            seed=args.seed,
            workers=args.workers,
            progress=update,
        )
    finally:
        if bar is not None:
            bar.close()
    low, high = result.ci95
    lines = [
        f"{track.name}: {result.races:,} races, {options.players} players, policy "
        f"{options.policy}, {options.deck} deck, encounters {'on' if options.encounters else 'off'}"
        f", seed {args.seed}",
        f"Race length: {result.mean_rounds:.2f} rounds (95% CI {low:.2f} to {high:.2f})",
    ]
    if result.capped:
        lines.append(f"  {result.capped} race(s) stopped at the round limit")
    hist = result.histogram()
    peak = max(hist.values())
    lines.append("Rounds  races")
    for rounds, count in hist.items():
        lines.append(f"  {rounds:>4}  {count:>6}  {'#' * max(1, round(40 * count / peak))}")
    for title, rows in ((group.title, result.by_group(group.key)) for group in result.groups):
        lines.append(f"{title:<28} {'races':>7} {'wins':>7} {'mean place':>10}")
        for row in rows:
            mean = "-" if row["mean_placing"] is None else f"{row['mean_placing']:.2f}"
            lines.append(
                f"  {row['name']:<26} {row['entries']:>7} {_percent(row['win_rate'])} {mean:>10}"
            )
    crowded = sorted(result.congestion(), key=lambda r: -r["turns_per_race"])[:5]
    lines.append("Most crowded squares (turns ended there per race, fall-backs)")
    for row in crowded:
        lines.append(f"  {row['square']:<8} {row['turns_per_race']:6.2f} {row['bounces']:>7}")
    _emit(args, result.to_json(), "\n".join(lines))
    return EXIT_OK


def cmd_race(args: argparse.Namespace) -> int:
    from trackkit.games.yummell.record import record_race

    track = resolve_track(args.track, args.tileset)
    record = record_race(track, _race_options(args), seed=args.seed)
    lines = [f"{track.name}, seed {args.seed}: {record.rounds} rounds"]
    for who, advantage in zip(record.characters, record.advantages, strict=True):
        lines.append(f"  {who} with {advantage}")
    current = 0
    for step in record.steps:
        if step.round != current:
            current = step.round
            lines.append(f"Round {current}")
        lines.append(f"  {step.text}")
    lines.append(
        "Placings: "
        + ", ".join(
            f"{p}. {who}" for p, who in sorted(zip(record.placings, record.characters, strict=True))
        )
    )
    _emit(args, record.to_json(), "\n".join(lines))
    return EXIT_OK


def cmd_exact(args: argparse.Namespace) -> int:
    from trackkit.games.yummell.content import load_content
    from trackkit.games.yummell.exact import exact_solo

    track = resolve_track(args.track, args.tileset)
    result = exact_solo(
        track,
        character=_one_name(args.character),
        advantage=_one_name(args.advantage),
        encounters=not args.no_encounters,
        content=load_content(args.content),
    )
    text = (
        f"{track.name}: a solo race lasts {result.expected_rounds:.4f} rounds on average "
        f"(exact; character {result.character}, advantage {result.advantage}, encounters "
        f"{'on' if result.encounters else 'off'})\n"
    )
    if result.never_finishes > 0:
        text += (
            f"A race never ends with probability {result.never_finishes:.3g} (curses make a "
            "square ahead dearer than any card, and greedy never rests); it counts as "
            "the simulator's round limit + 1\n"
        )
    text += (
        f"Markov chain: {result.states:,} states, {result.curse_levels} curse level(s); "
        f"covers {result.covers}"
    )
    _emit(args, result.to_json(), text)
    return EXIT_OK


def _one_name(text: str | None) -> str | None:
    """A ``--character``/``--advantage`` as typed: the library resolves names, prefixes and
    numbers and refuses empty or ambiguous ones."""
    return text


def cmd_compare(args: argparse.Namespace) -> int:
    from trackkit.report.compare import compare_tracks

    tracks = {slug: load_preset(slug) for slug in PRESET_SLUGS}
    for extra in args.track or []:
        track = resolve_track(extra, args.tileset)
        tracks[extra] = track
    options = _race_options(args)
    bar, update = _progress(args, len(tracks))
    try:
        rows = compare_tracks(tracks, options, races=args.races, seed=args.seed, progress=update)
    finally:
        if bar is not None:
            bar.close()
    lines = [
        f"{len(rows)} tracks, {options.players} players, {args.races:,} races each, seed "
        f"{args.seed}; ranked from the longest race",
        f"{'#':>2} {'track':<32} {'exact solo':>10} {'simulated (95% CI)':>24} {'MP/sq':>6}  "
        "plain woods hills swamp",
    ]
    for row in rows:
        mix = " ".join(
            f"{100 * row.terrain_mix[t]:4.0f}%" for t in ("plain", "woods", "hills", "swamp")
        )
        lines.append(
            f"{row.rank:>2} {row.name[:32]:<32} {row.exact_solo_rounds:>10.2f} "
            f"{row.mean_rounds:>8.2f} ({row.ci95[0]:.2f}-{row.ci95[1]:.2f})  "
            f"{row.mp_per_square:>6.2f}  {mix}"
        )
    lines.append(
        "exact solo: one character dealt at random, infinite deck, greedy (trackkit exact)"
    )
    _emit(args, [row.to_json() for row in rows], "\n".join(lines))
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from trackkit.games.yummell.bench import run_bench

    result = run_bench(races=args.races, repeats=args.repeat)
    text = "\n".join(
        [
            f"Workload: {result.workload}",
            f"Compile or cache load: {result.warmup_seconds:.1f} s",
            f"Compiled engine: {result.compiled_median:,.0f} races/s (median of "
            f"{len(result.compiled_rates)} runs of {result.compiled_races:,} races: "
            + ", ".join(f"{r:,.0f}" for r in result.compiled_rates)
            + ")",
            f"Same code as plain Python: {result.interpreted_median:,.0f} races/s (median of "
            f"{len(result.interpreted_rates)} runs of {result.interpreted_races} races)",
            f"Speed-up: {result.speedup:,.0f}x",
            f"Six presets x 10,000 races: {result.compare_seconds:.1f} s",
        ]
    )
    _emit(args, result.to_json(), text)
    return EXIT_OK


# --- parser ----------------------------------------------------------------------------


_WHOLE = re.compile(r"[+-]?[0-9]+")
MAX_SEED = 2**64  # seeds feed numpy's SeedSequence; 64 bits is more than enough
MAX_WORKERS = 64
MAX_BENCH_RACES = 1_000_000
MAX_BENCH_REPEAT = 20


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


_players = _bounded(2, 8, "the building rule is for {low} to {high} players")
_race_players = _bounded(1, 8, "a race has {low} to {high} players")
_seed = _bounded(0, MAX_SEED - 1, "the seed is a whole number from {low} to {high} (2**64 - 1)")
_workers = _bounded(1, MAX_WORKERS, "workers run from {low} to {high}")
_bench_races = _bounded(1, MAX_BENCH_RACES, "the benchmark runs {low} to {high} races")
_bench_repeat = _bounded(1, MAX_BENCH_REPEAT, "the benchmark repeats {low} to {high} times")


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
        p.add_argument("track", help=f"a track file (.toml) or a preset: {', '.join(PRESET_SLUGS)}")
        p.add_argument("--tileset", metavar="DIR", help="use the tile set in DIR")

    command("presets", cmd_presets, "list the rulebook's preset tracks")
    p = command("tiles", cmd_tiles, "list the tiles of a tile set")
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    p = command("show", cmd_show, "tiles, squares along each start path, terrain totals")
    track_argument(p)
    p = command("validate", cmd_validate, "check a track (and the building rule with --players)")
    track_argument(p)
    p.add_argument("--players", type=_players, help="apply the track-building rule (2-8)")
    p.add_argument("--partial", action="store_true", help="the track is still being built")
    p = command("next", cmd_next, "where the next tile can go")
    track_argument(p)
    p.add_argument("--players", type=_players, help="apply the track-building rule (2-8)")
    p = command("export", cmd_export, "write a track (or preset) to a TOML track file")
    track_argument(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.toml")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p = command("render", cmd_render, "draw a track as it lies on the table (SVG, PNG or HTML)")
    track_argument(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.svg|FILE.png|FILE.html")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    def race_arguments(p: argparse.ArgumentParser, players: bool = True) -> None:
        if players:
            p.add_argument("--players", type=_race_players, default=5, help="1 to 8 (default 5)")
        p.add_argument("--characters", help="comma-separated names or numbers, one per player")
        p.add_argument("--advantages", help="comma-separated names or numbers, one per player")
        p.add_argument(
            "--policy",
            default="greedy",
            help="greedy or smart, or one per player separated by commas (smart,greedy,...)",
        )
        p.add_argument("--deck", choices=["finite", "infinite"], default="finite")
        p.add_argument("--no-encounters", action="store_true", help="skip encounters")
        p.add_argument("--content", metavar="DIR", help="your own deck/characters/advantages")
        p.add_argument("--seed", type=_seed, default=0, help="0 to 2**64 - 1")

    p = command("simulate", cmd_simulate, "Monte Carlo: race length, fairness, congestion")
    track_argument(p)
    race_arguments(p)
    p.add_argument("--races", type=_races, default=10_000)
    p.add_argument("--workers", type=_workers, default=1, help=f"1 to {MAX_WORKERS}")
    p = command("race", cmd_race, "play one race and print it turn by turn")
    track_argument(p)
    race_arguments(p)
    p = command("exact", cmd_exact, "the exact expected length of a solo race")
    track_argument(p)
    p.add_argument("--character", help="name or number (default: dealt at random)")
    p.add_argument("--advantage", help="name or number (default: dealt at random)")
    p.add_argument("--no-encounters", action="store_true")
    p.add_argument("--content", metavar="DIR", help="your own deck/characters/advantages")
    p = command("compare", cmd_compare, "the six presets (and your tracks) side by side")
    p.add_argument("track", nargs="*", help="track files to compare with the presets")
    p.add_argument("--tileset", metavar="DIR", help="use the tile set in DIR")
    race_arguments(p)
    p.add_argument("--races", type=_races, default=10_000)
    p = command("bench", cmd_bench, "the standard speed benchmark")
    p.add_argument("--races", type=_bench_races, default=20_000)
    p.add_argument("--repeat", type=_bench_repeat, default=5)
    p = command("space", cmd_space, "count every legal track under the building rule")
    p.add_argument("--players", type=_players, required=True)
    p.add_argument("--tileset", metavar="DIR", help="a custom tile set folder")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
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
