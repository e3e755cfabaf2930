"""The design space of legal tracks as a ranked, streamable, uniformly samplable space.

Every legal track for a number of players under the building rule (the start tile at
(0, 0), rotation 0, as :func:`~trackkit.games.yummell.core.check.explore_design_space` fixes
it) has a rank: its place in the depth-first order that walk takes (path tiles in tile-set
order, then rotations in ``ROTATIONS`` order). A rank gives its track and a track its rank
without walking the tracks before it, because the walk has counted the tracks below every
shape of path (:class:`~trackkit.games.yummell.core.check.BuildingTree`). So tracks can be
streamed in order from any rank, and drawn uniformly — every complete legal track equally
likely — by drawing ranks.

>>> space = TrackSpace(3)
>>> len(space)
2676
>>> space.track(0).tiles
(1, 3, 4, 5, 2)
>>> space.rank(space.track(1234))
1234
"""

from __future__ import annotations

import itertools
import json
import operator
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from trackkit.errors import TrackkitError, shown
from trackkit.games import load_tileset
from trackkit.games.tilekit.geometry import Side
from trackkit.games.tilekit.tiles import TileSet, bundled_tiles_folder, tileset_fingerprint
from trackkit.games.tilekit.track import MAX_COORDINATE, MAX_PLACEMENTS, Placement, Track
from trackkit.games.yummell.core.check import BuildingTree, Step, building_tree, orientations

GAME = "yummell"


class TrackSpace:
    """Every legal track for ``players`` under the optional building rule, with the start
    tile fixed where :func:`~trackkit.games.yummell.core.check.explore_design_space` fixes it
    (the tile set's start tile at cell (0, 0), rotation 0), in one canonical order (the
    depth-first order that walk takes: path tiles in tile-set order, then rotations in
    ``ROTATIONS`` order), each with a rank 0..N-1.

    >>> space = TrackSpace(4)
    >>> len(space), space.track(26_639).name
    (26640, '4-player track #26639')
    """

    def __init__(self, players: int, tileset: TileSet | None = None) -> None:
        self.tileset = tileset if tileset is not None else load_tileset(game=GAME)
        if self.tileset.game != GAME:
            raise TrackkitError(
                f"the tile set {shown(self.tileset.name)!r} is for {shown(self.tileset.game)}; "
                "the building rule's design space is Yummell's"
            )
        self._tree: BuildingTree = building_tree(players, self.tileset)
        self.players = players
        self._start = Placement(self.tileset.start.number, 0, 0, 0)
        finish = self.tileset.finish
        # the finish goes last, entered from the last path tile's exit (as next_placements)
        self._finish_rotation = {
            side: turns[0][0] for side in Side if (turns := orientations(finish, side))
        }
        self._folder = _track_folder(self.tileset)

    game = GAME
    dense = True  # every rank 0 .. len - 1 is a legal track: a sweep may take them all

    def __len__(self) -> int:
        return self._tree.legal_tracks

    @property
    def name(self) -> str:
        """What a sweep's plan records of the space: its tile set's name."""
        return self.tileset.name

    @property
    def folder(self) -> str | None:
        """The tile set's folder, resolved; None for the bundled tiles (the same tiles
        anywhere on disk count as bundled)."""
        own = load_tileset(game=GAME)
        if tileset_fingerprint(own) == self.fingerprint():
            return None
        return str(Path(self.tileset.folder).resolve())

    def fingerprint(self) -> str:
        """A short hash of the tile set's tiles (:func:`.tiles.tileset_fingerprint`)."""
        return tileset_fingerprint(self.tileset)

    def legal_count(self) -> tuple[int, bool]:
        """The legal tracks, counted exactly."""
        return len(self), False

    summary_words = "tiles in placing order"

    def summary(self, rank: int, track: Track) -> str:
        return " ".join(str(tile) for tile in track.tiles)

    def mutate(self, rank: int, rng: np.random.Generator) -> int:
        """A track sharing the first tiles of the track of ``rank`` (how many: drawn
        uniformly; the start and 0 or more tiles) and the rest drawn uniformly among the
        legal ways to finish it, for the search."""
        placements = self.track(rank).placements
        kept = int(rng.integers(1, len(placements) - 1))
        low, high = self._subtree(rank, placements[:kept])
        return int(rng.integers(low, high))

    def _subtree(self, rank: int, prefix: tuple[Placement, ...]) -> tuple[int, int]:
        """The ranks of the tracks that begin with ``prefix`` (the placements of the track
        of ``rank``): one interval, since the canonical order is depth-first."""
        depth = len(prefix)

        def begins(r: int) -> bool:
            return self.track(r).placements[:depth] == prefix

        low, high = 0, rank  # the first rank with the prefix
        while low < high:
            middle = (low + high) // 2
            if begins(middle):
                high = middle
            else:
                low = middle + 1
        first = low
        low, high = rank + 1, len(self)  # the first rank after them
        while low < high:
            middle = (low + high) // 2
            if begins(middle):
                low = middle + 1
            else:
                high = middle
        return first, low

    def features(self, rank: int) -> dict[str, float]:
        """None beyond the profile's (its ``track_figures``: squares, terrain)."""
        return {}

    def design_text(self, rank: int, track: Track) -> str:
        """What a sweep's row holds of a track: its placements (:func:`placements_text`)."""
        return placements_text(track)

    def __repr__(self) -> str:
        return f"TrackSpace(players={self.players}, tracks={len(self):,})"

    # --- one track ---------------------------------------------------------------------

    def track(self, rank: int) -> Track:
        """The track of rank ``rank`` (its name says the players and the rank)."""
        rank = self._checked_rank(rank)
        tree = self._tree
        cell, entry, shape = tree.first, tree.first_entry, ()
        occupied, used = {(0, 0), cell}, set[int]()
        placements = [self._start]
        skip = rank
        for _ in range(tree.wanted):
            for option in tree.options(cell, entry, occupied, used, shape):
                if skip < option.completions:
                    break
                skip -= option.completions
            placements.append(Placement(option.tile, *cell, option.rotation))
            used.add(option.tile)
            cell, entry, shape = option.cell, option.entry, option.shape
            occupied.add(cell)
        placements.append(self._finish(cell, entry))
        return self._make(rank, tuple(placements))

    def rank(self, track: Track) -> int:
        """The rank of ``track`` in this space; a :class:`TrackkitError` saying why if it
        is not one of its tracks (another game, the start placed elsewhere, another number
        of path tiles, a placement the building rule forbids or that leads nowhere)."""
        tree = self._tree
        said = shown(track.name, 60)
        if track.game != GAME:
            raise TrackkitError(f"{said} is a {shown(track.game)} track, not a Yummell one")
        placements = track.placements
        if not placements or placements[0] != self._start:
            first = placements[0].describe() if placements else "no tile"
            raise TrackkitError(
                f"{said} starts with {first}; the design space fixes the start: "
                f"{self._start.describe()}"
            )
        expected = tree.wanted + 2
        if len(placements) != expected:
            raise TrackkitError(
                f"{said} has {len(placements)} tiles; a {self.players}-player track has "
                f"{expected} (the start, {tree.wanted} path tiles, the finish)"
            )
        cell, entry, shape = tree.first, tree.first_entry, ()
        occupied, used = {(0, 0), cell}, set[int]()
        rank = 0
        for index, placement in enumerate(placements[1:-1], start=2):
            for option in tree.options(cell, entry, occupied, used, shape):
                if (option.tile, option.rotation) == (placement.tile, placement.rotation) and (
                    placement.cell == cell
                ):
                    break
                rank += option.completions
            else:
                raise TrackkitError(
                    f"{said}: placement {index} ({placement.describe()}) is not a legal next "
                    f"placement under the building rule for {self.players} players"
                )
            if option.completions == 0:
                raise TrackkitError(
                    f"{said}: after placement {index} ({placement.describe()}) the path tiles left "
                    "cannot complete the track (a dead end)"
                )
            used.add(option.tile)
            cell, entry, shape = option.cell, option.entry, option.shape
            occupied.add(cell)
        finish = self._finish(cell, entry)
        if placements[-1] != finish:
            raise TrackkitError(
                f"{said} ends with {placements[-1].describe()}; after its path tiles the "
                f"finish goes last: {finish.describe()}"
            )
        return rank

    # --- many tracks -------------------------------------------------------------------

    def tracks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, Track]]:
        """Ranks ``start`` to ``stop`` (excluded; None: the last) and their tracks, in rank
        order, one at a time: memory does not grow with the number streamed.

        >>> [rank for rank, _ in TrackSpace(3).tracks(5, 8)]
        [5, 6, 7]
        """
        size = len(self)
        start = _whole(start, "start")
        stop = size if stop is None else min(_whole(stop, "stop"), size)
        if start < 0 or stop < 0:
            raise TrackkitError(f"ranks run from 0 to {size - 1:,}; start and stop cannot be < 0")
        if start >= stop:
            return
        tree = self._tree
        cell = tree.first
        walk = self._walk(cell, tree.first_entry, (), {(0, 0), cell}, set(), [self._start], start)
        for rank, placements in zip(range(start, stop), walk, strict=False):
            yield rank, self._make(rank, placements)

    def _walk(
        self,
        cell: tuple[int, int],
        entry: Side,
        shape: tuple[Step, ...],
        occupied: set[tuple[int, int]],
        used: set[int],
        placed: list[Placement],
        skip: int,
    ) -> Iterator[tuple[Placement, ...]]:
        """The placements of each track below this point of the walk, in rank order,
        after the first ``skip`` of them."""
        if len(placed) == self._tree.wanted + 1:
            yield (*placed, self._finish(cell, entry))
            return
        for option in self._tree.options(cell, entry, occupied, used, shape):
            if skip >= option.completions:
                skip -= option.completions
                continue
            used.add(option.tile)
            occupied.add(option.cell)
            placed.append(Placement(option.tile, *cell, option.rotation))
            yield from self._walk(
                option.cell, option.entry, option.shape, occupied, used, placed, skip
            )
            skip = 0
            placed.pop()
            occupied.discard(option.cell)
            used.discard(option.tile)

    def sample_ranks(self, count: int, seed: int, *, distinct: bool = False) -> list[int]:
        """``count`` ranks drawn uniformly (with replacement; ``distinct``: without) from a
        generator seeded ``seed``: the same seed gives the same ranks in any process.

        >>> TrackSpace(8).sample_ranks(3, seed=1) == TrackSpace(8).sample_ranks(3, seed=1)
        True
        """
        count = _whole(count, "count")
        seed = _whole(seed, "seed")
        size = len(self)
        if count < 0 or seed < 0:
            raise TrackkitError("the count and the seed are whole numbers from 0 up")
        if distinct and count > size:
            raise TrackkitError(
                f"{count:,} distinct tracks asked for; {self.players} players have only "
                f"{size:,} legal tracks"
            )
        if count and not size:
            raise TrackkitError(f"no legal track exists for {self.players} players to draw")
        generator = random.Random(seed)
        if distinct:
            # sample() of a range keeps a set of what it drew, not the whole range
            return generator.sample(range(size), count)
        return [generator.randrange(size) for _ in range(count)]

    def sample(self, count: int, seed: int) -> list[Track]:
        """``count`` tracks drawn uniformly with replacement (see :meth:`sample_ranks`)."""
        return [self.track(rank) for rank in self.sample_ranks(count, seed)]

    def finish_key(self, track: Track) -> tuple[tuple[int, int], ...]:
        """A key that sorts tracks ending in the same tiles, turned the same way, next to
        each other: each tile from the finish back, with its turn against the tile after it.
        A sweep profiles its tracks in this order, so that the exact solver reuses the rows
        of a route that ends alike (the figures do not depend on the order).

        >>> space = TrackSpace(3)
        >>> space.finish_key(space.track(0))[0]
        (2, 0)
        """
        placed = track.placements
        turns = [(p.rotation - q.rotation) % 360 for p, q in itertools.pairwise(placed)]
        return tuple(
            (p.tile, turn) for p, turn in zip(placed[::-1], [0, *turns[::-1]], strict=True)
        )

    # --- helpers -----------------------------------------------------------------------

    def _checked_rank(self, rank: int) -> int:
        rank = _whole(rank, "rank")
        if not 0 <= rank < len(self):
            raise TrackkitError(
                f"rank {rank:,} is not in the space: {self.players} players have "
                f"{len(self):,} legal tracks, ranked 0 to {len(self) - 1:,}"
            )
        return rank

    def _finish(self, cell: tuple[int, int], entry: Side) -> Placement:
        return Placement(self.tileset.finish.number, *cell, self._finish_rotation[entry])

    def _make(self, rank: int, placements: tuple[Placement, ...]) -> Track:
        return Track(
            name=f"{self.players}-player track #{rank}",
            placements=placements,
            tileset=self._folder,
            game=GAME,
        )


def generate(players: int, count: int, seed: int, tileset: TileSet | None = None) -> list[Track]:
    """``count`` legal tracks for ``players`` drawn uniformly with replacement, in the
    order drawn; the same seed gives the same tracks anywhere.

    >>> [t.name for t in generate(5, 2, seed=7)] == [t.name for t in generate(5, 2, seed=7)]
    True
    """
    return TrackSpace(players, tileset).sample(count, seed)


def _whole(value: int, name: str) -> int:
    """``value`` as an int (numpy's ints too); a TrackkitError for anything else."""
    if isinstance(value, bool):
        raise TrackkitError(f"the {name} is a whole number, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TrackkitError(f"the {name} is a whole number, not {shown(repr(value), 40)}") from None


def _track_folder(tileset: TileSet) -> Path | None:
    """What a track's ``tileset`` says for ``tileset``: None for the bundled tiles."""
    folder = Path(tileset.folder)
    try:
        bundled = folder.resolve() == bundled_tiles_folder().resolve()
    except OSError:
        bundled = False
    return None if bundled else folder


# --- a design as a sweep's row holds it ----------------------------------------------------

MAX_PLACEMENTS_TEXT = 20_000  # a row's placements as JSON: ten tiles take some 400


class _RowPlacement(BaseModel):
    """One placement of a sweep's row, as :func:`placements_text` writes it (the track
    file's fields)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    tile: StrictInt = Field(ge=0, le=10_000)
    x: StrictInt = Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    y: StrictInt = Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)
    rotation: StrictInt = Field(default=0, ge=0, le=359)


_PLACEMENTS = TypeAdapter(list[_RowPlacement])


def placements_text(track: Track) -> str:
    """A track's placements as a sweep's ``placements`` column holds them (the track
    file's list, as compact JSON): equal texts, the same track on the table."""
    return json.dumps(track.to_dict()["placements"], separators=(",", ":"))


class PlacementsCodec:
    """A Yummell track as a sweep's row holds it (its placements) and the track it names."""

    def encode(self, track: Track) -> str:
        return placements_text(track)

    def decode(self, value: Any) -> list[dict[str, int]]:
        """A row's placements (the JSON text, or the list) checked: a list of at most
        :data:`~trackkit.games.tilekit.track.MAX_PLACEMENTS` placements of whole numbers in range;
        a ValueError saying what is wrong otherwise."""
        if isinstance(value, str):
            if len(value) > MAX_PLACEMENTS_TEXT:
                raise ValueError(f"is {len(value):,} characters")
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                raise ValueError("is not JSON") from None
        if not isinstance(value, list) or len(value) > MAX_PLACEMENTS:
            raise ValueError(f"is not a list of at most {MAX_PLACEMENTS} placements")
        try:
            checked = _PLACEMENTS.validate_python(value)
        except ValidationError:
            raise ValueError("is not a list of placements (tile, x, y, rotation)") from None
        return [p.model_dump() for p in checked]

    def track(self, value: Any, name: str, tileset_folder: str | None) -> Track:
        """The track of the placements ``value``, called ``name``, on the plan's tiles."""
        return Track(
            name=name,
            placements=tuple(Placement(**p) for p in self.decode(value)),
            tileset=Path(tileset_folder) if tileset_folder else None,
            game=GAME,
        )

    def file_text(self, track: Track, folder: Path) -> str:
        return track.to_toml(relative_to=folder)
