"""The ``trackkit`` command line: a thin shell over the library.

Every command takes a preset slug or a track file, prints readable text (JSON with
``--json``) and exits 0 on success, 1 when a validation finds problems and 2 on unusable
input, with a one-line error and no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from trackkit.building import explore_design_space, next_placements
from trackkit.errors import TrackkitError
from trackkit.graph import TrackGraph, compose
from trackkit.presets import PRESET_SLUGS, list_presets, load_preset
from trackkit.tiles import TileSet, load_tileset
from trackkit.track import Track, load_track, save_track
from trackkit.validate import validate

EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE = 0, 1, 2
TERRAIN_LETTER = {"plain": "P", "woods": "W", "hills": "H", "swamp": "S"}


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_UNUSABLE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def resolve_track(name: str, tileset: str | None = None) -> Track:
    """A track from a file path or a preset slug; ``tileset`` overrides its tile set."""
    path = Path(name)
    if path.is_file():
        track = load_track(path)
    elif name in PRESET_SLUGS:
        track = load_preset(name)
    elif path.suffix == ".toml" or "/" in name:
        raise TrackkitError(f"{name}: no such file")
    else:
        raise TrackkitError(
            f"{name!r} is neither a track file nor a preset; presets: {', '.join(PRESET_SLUGS)}"
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
        composed = compose(preset.track)
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
            "mp": sum(s.cost for s in t.squares),
            "terrain": "".join(TERRAIN_LETTER[s.terrain.value] for s in t.squares),
            "reconstructed": t.reconstructed,
            "file": t.source,
        }
        for t in tileset.values()
    ]
    lines = [f"{tileset.name} ({tileset.folder})", f"{tileset.provenance}", ""]
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
    tileset = track.load_tiles()
    composed = compose(track, tileset)
    graph = composed.graph
    labels = _start_labels(composed)
    routes = []
    for route in composed.routes():
        routes.append(
            {
                "start_path": labels[route[0]],
                "squares": len(route),
                "mp": composed.route_cost(route),
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
    data["terrain"] = composed.terrain_totals()

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
    track = resolve_track(args.track, args.tileset)
    path = save_track(track, args.output, overwrite=args.force)
    _emit(args, {"written": str(path)}, f"Wrote {path}")
    return EXIT_OK


def cmd_render(args: argparse.Namespace) -> int:
    from trackkit.render import render_to_file  # Plotly and drawsvg load only when drawing

    track = resolve_track(args.track, args.tileset)
    path = render_to_file(track, args.output, overwrite=args.force)
    _emit(args, {"written": str(path)}, f"Wrote {path}")
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


# --- parser ----------------------------------------------------------------------------


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 2 <= value <= 8:
        raise argparse.ArgumentTypeError(f"the building rule is for 2 to 8 players, not {value}")
    return value


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
    p = command("render", cmd_render, "draw a track as it lies on the table (SVG or HTML)")
    track_argument(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE.svg|FILE.html")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
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
        print(f"trackkit: error: {error}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
