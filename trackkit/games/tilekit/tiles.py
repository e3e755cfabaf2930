"""Tiles: squares with terrain, the path links between them and the junctions on their edges.

A tile is stored once, in one canonical orientation, in a TOML file of a tile set (see
``tiles/README.md``). Code rotates it by quarter turns and decides which way its path is
walked from the side it is entered by.

A square's own fields besides ``id`` and ``at`` (Yummell: ``terrain``) belong to the game:
the tile set names its game (``game = "yummell"``; none named means Yummell), and the
game's square schema checks them when the set is read (:func:`read_tileset`).

>>> from trackkit.games import load_tileset
>>> tileset = load_tileset()
>>> tileset[7].role, len(tileset[7].squares)
(<TileRole.PATH: 'path'>, 7)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from trackkit.board.datafile import check_folder, files_in, first_problem, read_toml, validated
from trackkit.errors import TileFileError, TrackkitError
from trackkit.games.tilekit.geometry import Side, edge_middle, rotate_cell
from trackkit.games.tilekit.track import DEFAULT_GAME

TILESET_FILE = "tileset.toml"


class TileRole(StrEnum):
    """What a tile is for: the start tile (1), the finish tile (2), or a path tile."""

    START = "start"
    PATH = "path"
    FINISH = "finish"


# The number of junctions each role has: the start tile one exit, the finish tile one
# entry, a path tile one entry and one exit (either way round).
JUNCTIONS_PER_ROLE: dict[TileRole, int] = {TileRole.START: 1, TileRole.PATH: 2, TileRole.FINISH: 1}


SquareSchema = type[BaseModel]
# a game's name -> the pydantic model that checks a square's fields in that game
SchemaFor = Callable[[str], SquareSchema]


@dataclass(frozen=True)
class Square:
    """One square of a tile, at a cell of the tile's grid in canonical orientation, with the
    attributes its game gives it (checked by the game's square schema; Yummell: terrain and
    its cost)."""

    id: str
    cell: tuple[int, int]
    attributes: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __getitem__(self, name: str) -> Any:
        return self.attributes[name]


@dataclass(frozen=True)
class Junction:
    """A junction symbol: the square in the middle of ``side`` where tiles join."""

    side: Side
    square: str


@dataclass(frozen=True)
class Traversal:
    """A tile as walked in one placement: its links pointed from entry towards exit."""

    links: tuple[tuple[str, str], ...]
    entry: Junction | None
    exit: Junction | None
    reversed: bool


@dataclass(frozen=True)
class Tile:
    """A tile in canonical orientation (rotation 0)."""

    number: int
    role: TileRole
    name: str
    grid: int
    squares: tuple[Square, ...]
    links: tuple[tuple[str, str], ...]
    junctions: tuple[Junction, ...]
    reconstructed: bool
    provenance: str
    source: str

    @cached_property
    def square_by_id(self) -> dict[str, Square]:
        return {square.id: square for square in self.squares}

    @cached_property
    def sources(self) -> tuple[str, ...]:
        """Squares no link leads to, in file order (for the start tile: its start paths)."""
        targets = {b for _, b in self.links}
        return tuple(s.id for s in self.squares if s.id not in targets)

    @cached_property
    def sinks(self) -> tuple[str, ...]:
        """Squares no link leaves, in file order (for the finish tile: the finish square)."""
        origins = {a for a, _ in self.links}
        return tuple(s.id for s in self.squares if s.id not in origins)

    def cell(self, square: str, rotation: int) -> tuple[int, int]:
        """Where ``square`` sits inside the tile once it is turned ``rotation`` degrees."""
        column, row = self.square_by_id[square].cell
        return rotate_cell(column, row, self.grid, rotation)

    def junction_sides(self, rotation: int) -> tuple[Side, ...]:
        """The edges carrying a junction once the tile is turned ``rotation`` degrees."""
        return tuple(j.side.rotated(rotation) for j in self.junctions)

    def traversal(self, rotation: int, entry_side: Side | None) -> Traversal:
        """How the tile is walked when placed at ``rotation`` and entered across ``entry_side``.

        A path tile can be walked either way: entered by the junction that starts its
        canonical path, its links keep their direction; entered by the other, they are
        reversed. ``entry_side`` None (or a side without a junction) keeps the canonical
        direction. The start tile is never entered; the finish tile is entered by its only
        junction.
        """
        entered = next(
            (j for j in self.junctions if entry_side and j.side.rotated(rotation) == entry_side),
            None,
        )
        if self.role is TileRole.START:
            return Traversal(self.links, None, self.junctions[0], reversed=False)
        if self.role is TileRole.FINISH:
            return Traversal(self.links, entered or self.junctions[0], None, reversed=False)
        forward_entry, forward_exit = self._path_junctions
        if entered is forward_exit:
            reversed_links = tuple((b, a) for a, b in self.links)
            return Traversal(reversed_links, forward_exit, forward_entry, reversed=True)
        return Traversal(self.links, forward_entry, forward_exit, reversed=False)

    @cached_property
    def _path_junctions(self) -> tuple[Junction, Junction]:
        """A path tile's junctions as (canonical entry, canonical exit)."""
        first, second = self.junctions
        return (first, second) if first.square in self.sources else (second, first)

    @property
    def shape(self) -> str:
        """``straight`` or ``curve`` for a path tile, else its role."""
        if self.role is not TileRole.PATH:
            return self.role.value
        a, b = (j.side for j in self.junctions)
        return "straight" if a.opposite == b else "curve"


class TileSet(Mapping[int, Tile]):
    """The tiles of one set, by number, all on one grid size."""

    def __init__(
        self,
        tiles: Mapping[int, Tile],
        *,
        name: str,
        grid: int,
        provenance: str,
        folder: str,
        game: str = DEFAULT_GAME,
    ) -> None:
        self._tiles = dict(sorted(tiles.items()))
        self.game = game
        self.name = name
        self.grid = grid
        self.provenance = provenance
        self.folder = folder

    def __getitem__(self, number: int) -> Tile:
        return self._tiles[number]

    def __iter__(self) -> Iterator[int]:
        return iter(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def by_role(self, role: TileRole) -> list[Tile]:
        return [tile for tile in self._tiles.values() if tile.role is role]

    @property
    def start(self) -> Tile:
        return self.by_role(TileRole.START)[0]

    @property
    def finish(self) -> Tile:
        return self.by_role(TileRole.FINISH)[0]

    @property
    def path_tiles(self) -> list[Tile]:
        return self.by_role(TileRole.PATH)


# --- file format -----------------------------------------------------------------------

_STRICT = ConfigDict(extra="forbid", frozen=True)


class _SquareSpec(BaseModel):
    # the fields a game gives a square are checked by the game's schema (read_tileset)
    model_config = ConfigDict(extra="allow", frozen=True)
    id: str = Field(pattern=r"^[A-Za-z0-9_]+$", max_length=20)
    at: tuple[int, int]


class _JunctionSpec(BaseModel):
    model_config = _STRICT
    edge: Side
    square: str


class _TileSpec(BaseModel):
    model_config = _STRICT
    number: int = Field(ge=1, le=99)
    role: TileRole
    name: str = ""
    reconstructed: bool
    provenance: str = Field(min_length=1)
    squares: list[_SquareSpec] = Field(min_length=1, max_length=100)
    paths: list[list[str]] = Field(min_length=1)
    junctions: list[_JunctionSpec]


class _TileSetSpec(BaseModel):
    model_config = _STRICT
    game: str = Field(default=DEFAULT_GAME, pattern=r"^[a-z][a-z0-9-]{0,39}$")
    name: str = Field(min_length=1)
    grid: int = Field(ge=3, le=15)
    provenance: str = Field(min_length=1)


_TILE_HINTS = {"extra_forbidden": "unknown field (check its spelling against tiles/README.md)"}


def parse_tile(
    data: dict[str, Any], *, grid: int, source: str, square_schema: SquareSchema
) -> Tile:
    """Build a :class:`Tile` from the parsed TOML of a tile file, checking every field
    (a square's game fields with ``square_schema``).

    Raises :class:`TileFileError` naming ``source``, the field and the problem.
    """
    spec = validated(_TileSpec, data, source, TileFileError, _TILE_HINTS)

    def fail(field: str, problem: str) -> TileFileError:
        return TileFileError(source, field, problem)

    attributes = _check_squares(spec, grid, square_schema, fail)
    links = _check_paths(spec, fail)
    link_graph = nx.DiGraph(links)
    link_graph.add_nodes_from(s.id for s in spec.squares)
    if not nx.is_directed_acyclic_graph(link_graph):
        cycle = " → ".join(a for a, _ in nx.find_cycle(link_graph))
        raise fail(
            "paths", f"the paths loop back on themselves ({cycle}); a race only goes forward"
        )
    _check_junctions(spec, grid, fail)
    _check_role(spec, link_graph, fail)
    return Tile(
        number=spec.number,
        role=spec.role,
        name=spec.name or f"Tile {spec.number}",
        grid=grid,
        squares=tuple(
            Square(s.id, s.at, attrs) for s, attrs in zip(spec.squares, attributes, strict=True)
        ),
        links=tuple(links),
        junctions=tuple(Junction(j.edge, j.square) for j in spec.junctions),
        reconstructed=spec.reconstructed,
        provenance=spec.provenance,
        source=source,
    )


Fail = Callable[[str, str], TileFileError]


def _check_squares(
    spec: _TileSpec, grid: int, square_schema: SquareSchema, fail: Fail
) -> list[dict[str, Any]]:
    """Each square's game fields (checked by the game's schema), a unique id, and a cell of
    its own inside the grid; returns the squares' game attributes."""
    ids: set[str] = set()
    cells: dict[tuple[int, int], str] = {}
    attributes: list[dict[str, Any]] = []
    for index, square in enumerate(spec.squares):
        try:
            game_fields = square_schema.model_validate(square.model_extra or {})
        except ValidationError as exc:
            field, problem = first_problem(exc, _TILE_HINTS)
            raise fail(f"squares[{index}].{field}", problem) from None
        attributes.append(game_fields.model_dump(mode="json"))
        if square.id in ids:
            raise fail(f"squares[{index}].id", f"square id {square.id!r} is used twice")
        ids.add(square.id)
        column, row = square.at
        if not (0 <= column < grid and 0 <= row < grid):
            raise fail(
                f"squares[{index}].at",
                f"cell {list(square.at)} lies outside the {grid}×{grid} tile grid "
                f"(columns and rows run 0 to {grid - 1})",
            )
        if square.at in cells:
            raise fail(
                f"squares[{index}].at",
                f"cell {list(square.at)} already holds square {cells[square.at]!r}",
            )
        cells[square.at] = square.id
    return attributes


def _check_paths(spec: _TileSpec, fail: Fail) -> list[tuple[str, str]]:
    """Paths of known squares, each step to a square sharing an edge, every square on one;
    returns the links, each once, in the order the paths give them."""
    at = {square.id: square.at for square in spec.squares}
    links: list[tuple[str, str]] = []
    linked: set[str] = set()
    for p, path in enumerate(spec.paths):
        if not path:
            raise fail(f"paths[{p}]", "a path lists at least one square")
        for s, square_id in enumerate(path):
            if square_id not in at:
                raise fail(f"paths[{p}][{s}]", f"no square has id {square_id!r}")
            linked.add(square_id)
            if s == 0:
                continue
            previous = path[s - 1]
            a, b = at[previous], at[square_id]
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise fail(
                    f"paths[{p}][{s}]",
                    f"square {square_id!r} at {list(b)} does not share an edge with the "
                    f"square before it, {previous!r} at {list(a)}",
                )
            if (previous, square_id) not in links:
                links.append((previous, square_id))
    for index, square in enumerate(spec.squares):
        if square.id not in linked:
            raise fail(f"squares[{index}]", f"square {square.id!r} is on no path")
    return links


def _check_junctions(spec: _TileSpec, grid: int, fail: Fail) -> None:
    """As many junctions as the role has, on different edges, each on a known square in
    the middle of its edge."""
    at = {square.id: square.at for square in spec.squares}
    expected = JUNCTIONS_PER_ROLE[spec.role]
    if len(spec.junctions) != expected:
        raise fail(
            "junctions",
            f"a {spec.role.value} tile has {expected} junction(s), this one has "
            f"{len(spec.junctions)}",
        )
    sides: set[Side] = set()
    for index, junction in enumerate(spec.junctions):
        if junction.square not in at:
            raise fail(f"junctions[{index}].square", f"no square has id {junction.square!r}")
        if junction.edge in sides:
            raise fail(f"junctions[{index}].edge", f"edge {junction.edge.value} has two junctions")
        sides.add(junction.edge)
        middle = edge_middle(junction.edge, grid)
        if at[junction.square] != middle:
            raise fail(
                f"junctions[{index}].square",
                f"square {junction.square!r} is at {list(at[junction.square])}, but a junction "
                f"on edge {junction.edge.value} sits in the middle of that edge, at "
                f"{list(middle)}",
            )


def _check_role(spec: _TileSpec, link_graph: nx.DiGraph, fail: Fail) -> None:
    """The paths run as the role wants: every start path to the exit junction, the finish
    tile from its entry to one finish square, a path tile from one junction to the other."""
    sources = [s.id for s in spec.squares if link_graph.in_degree(s.id) == 0]
    sinks = [s.id for s in spec.squares if link_graph.out_degree(s.id) == 0]
    junction_squares = [j.square for j in spec.junctions]
    if spec.role is TileRole.START:
        if sinks != junction_squares:
            raise fail(
                "paths",
                f"every start path must end on the exit junction square "
                f"{junction_squares[0]!r}; paths end on {sinks}",
            )
    elif spec.role is TileRole.FINISH:
        if sources != junction_squares:
            raise fail(
                "paths",
                f"the finish tile's paths must all begin on its entry junction square "
                f"{junction_squares[0]!r}; they begin on {sources}",
            )
        if len(sinks) != 1:
            raise fail("paths", f"the finish tile must end on one finish square, not {sinks}")
    elif sorted([*sources, *sinks]) != sorted(junction_squares) or len(sources) != 1:
        raise fail(
            "paths",
            f"a path tile's paths run from one junction square to the other "
            f"({' and '.join(map(repr, junction_squares))}); they begin on {sources} "
            f"and end on {sinks}",
        )


def bundled_tiles_folder() -> Path:
    """Where the bundled tile files (Yummell's) are on this installation: in a source
    checkout, the top-level tiles/ (trackkit/bundled_tiles links to it)."""
    return Path(str(resources.files("trackkit.bundled_tiles"))).resolve()


def read_tileset(folder: str | Path, schema_for: SchemaFor) -> TileSet:
    """Read a tile set: ``tileset.toml`` and one TOML file per tile in ``folder``; each
    square's game fields are checked by ``schema_for(game)``, the schema of the game the
    set names (:func:`trackkit.games.load_tileset` passes the registry's).

    Raises :class:`TileFileError` naming the file, the field and the problem.
    """
    folder = check_folder(Path(folder), TileFileError, "a tile set")
    header_path = folder / TILESET_FILE
    header = validated(
        _TileSetSpec,
        read_toml(
            header_path,
            TileFileError,
            missing=f"no such file; a tile set folder holds {TILESET_FILE} (name, grid, "
            "provenance of the set) and one TOML file per tile",
        ),
        str(header_path),
        TileFileError,
        _TILE_HINTS,
    )

    try:
        schema = schema_for(header.game)
    except TrackkitError as exc:
        raise TileFileError(str(header_path), "game", str(exc)) from None
    tiles: dict[int, Tile] = {}
    for path in files_in(folder, ".toml", TileFileError):
        if path.name == TILESET_FILE:
            continue
        tile = parse_tile(
            read_toml(path, TileFileError),
            grid=header.grid,
            source=str(path),
            square_schema=schema,
        )
        if tile.number in tiles:
            raise TileFileError(
                str(path),
                "number",
                f"tile {tile.number} is also defined in {tiles[tile.number].source}",
            )
        tiles[tile.number] = tile
    for role in (TileRole.START, TileRole.FINISH):
        holders = [t for t in tiles.values() if t.role is role]
        if len(holders) != 1:
            raise TileFileError(
                str(folder),
                None,
                f"a tile set needs exactly one {role.value} tile; found {len(holders)}"
                + (f" ({', '.join(str(t.number) for t in holders)})" if holders else ""),
            )
    return TileSet(
        tiles,
        name=header.name,
        grid=header.grid,
        provenance=header.provenance,
        folder=str(folder),
        game=header.game,
    )


def tileset_fingerprint(tileset: TileSet) -> str:
    """A short hash of a tile set's tiles: two folders with the same tiles give the same
    fingerprint, so a sweep resumes wherever the set lies on disk."""
    text = repr((tileset.grid, [(number, tileset[number]) for number in tileset]))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
