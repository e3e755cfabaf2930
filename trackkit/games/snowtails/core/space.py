"""Snow Tails' design space: the lane tracks a designer varies, to count, draw and name.

A design is a course of parametric boards (SNOWTAILS.md §5.6) built as follows:

- ``grid``, a straight of 6 rows (the start row is its first row as driven), then
  ``pieces``: 1 to 3 pieces from :data:`PIECES` (``S`` a straight of 4 rows, ``T`` a
  straight of 8 rows, ``L``/``R`` a 90° corner turning left/right as driven with
  2, 3, … spaces per lane from the inside, ``l``/``r`` a tight 180° hairpin with 3, 5, 7, …
  spaces per lane), then ``sprint``, a straight of 10 rows whose finish line leaves 3 rows
  of run-off;
- a lane count (4 or 5) and a direction (``forward``, or ``reversed``: the same pieces
  as driven, listed in the file in the other board order with each corner's turn flipped,
  as the demo board Reversed ridge does);
- 0 to 3 trees on distinct spaces (numbered 0.. over the board's spaces: segments in
  board order, lanes from 1, rows or spaces from 0; see :meth:`SnowSpace.spaces`);
- buildings, one option of :data:`BUILDINGS`: none, a Tavern beside the sprint or a
  Bothy on the middle lanes of the sprint.

A design is legal when Snow Tails' validator (:func:`.validation.validate_track`, the one
the Design page refuses a board with) finds no error; warnings are allowed.

:meth:`SnowSpace.sample` draws uniformly among the legal designs: a rank uniform over
every raw design (``random.Random(seed)``, so the same seed gives the same designs in
any process), decoded, and redrawn while the validator refuses it. :meth:`SnowSpace.count`
counts the legal designs exactly by enumeration for a small space and estimates them
otherwise (the raw count times the legal share of a fixed sample; ``count_is_estimate``
says which).

>>> space = SnowSpace(pieces=(1,), lanes=(4,), trees=(0,), buildings=("none",))
>>> space.raw_count
12
>>> design = space.sample(1, seed=3)[0]
>>> space.from_key(space.key(design)) == design
True
"""

from __future__ import annotations

import bisect
import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import product
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.track import Address, SnowTrack, parse_track

# piece letter: (kind, rows of a straight or turn as driven, tight)
PIECES: dict[str, tuple[str, int | str, bool]] = {
    "S": ("straight", 4, False),
    "T": ("straight", 8, False),
    "L": ("corner", "left", False),
    "R": ("corner", "right", False),
    "l": ("corner", "left", True),
    "r": ("corner", "right", True),
}
BUILDINGS: tuple[str, ...] = ("none", "tavern", "bothy")
DIRECTIONS: tuple[str, ...] = ("forward", "reversed")
GRID_ROWS, SPRINT_ROWS, RUNOFF_ROWS = 6, 10, 3
ESTIMATE_DRAWS = 400  # the raw draws whose legal share estimates a large space's count
EXACT_LIMIT = 5_000  # raw designs up to which count() enumerates
MAX_TRIES = 200  # raw draws per legal design before sample() gives up


@dataclass(frozen=True, order=True)
class Design:
    """One design: ``lanes``, ``direction``, the middle ``pieces`` (letters of
    :data:`PIECES`, as driven), the ``trees`` (space numbers, ascending) and the
    ``building`` option (:data:`BUILDINGS`)."""

    lanes: int
    direction: str
    pieces: str
    trees: tuple[int, ...] = ()
    building: str = "none"


def _segments(lanes: int, direction: str, pieces: str) -> list[dict[str, Any]]:
    """The track file's segments, in board order."""
    driven = [("grid", "S", GRID_ROWS)]
    driven += [(f"p{i + 1}", letter, 0) for i, letter in enumerate(pieces)]
    driven.append(("sprint", "S", SPRINT_ROWS))
    reverse = direction == "reversed"
    out = []
    for ident, letter, rows in reversed(driven) if reverse else driven:
        kind, size, tight = PIECES[letter]
        if kind == "straight":
            out.append({"id": ident, "rows": rows or size})
            continue
        turn = size if not reverse else {"left": "right", "right": "left"}[str(size)]
        spaces = [3 + 2 * i for i in range(lanes)] if tight else [2 + i for i in range(lanes)]
        seg: dict[str, Any] = {"id": ident, "turn": turn, "spaces_per_lane": spaces}
        if tight:
            seg |= {"angle": 180, "tight": True}
        out.append(seg)
    return out


def _spaces(lanes: int, segments: list[dict[str, Any]]) -> list[Address]:
    """Every space of ``segments`` in board order: segment, lane, row or space."""
    out = []
    for seg in segments:
        for lane in range(1, lanes + 1):
            if "rows" in seg:
                count = seg["rows"]
            else:
                ring = lane - 1 if seg["turn"] == "left" else lanes - lane
                count = seg["spaces_per_lane"][ring]
            out.extend(Address(seg["id"], lane, i) for i in range(count))
    return out


def _building(option: str, lanes: int) -> list[dict[str, Any]]:
    rows = [4, 5]
    if option == "tavern":
        return [{"kind": "tavern", "segment": "sprint", "side": "left", "rows": rows}]
    if option == "bothy":
        middle = (lanes + 1) // 2
        return [{"kind": "bothy", "segment": "sprint", "lanes": [middle, middle + 1], "rows": rows}]
    return []


def _rank_subset(subset: Sequence[int]) -> int:
    """The colexicographic rank of a subset (:func:`_unrank_subset`'s inverse).

    >>> _rank_subset(_unrank_subset(17, 9, 3))
    17
    """
    return sum(comb(c, j) for j, c in enumerate(sorted(subset), start=1))


def _unrank_subset(rank: int, size: int, k: int) -> tuple[int, ...]:
    """The ``rank``-th ``k``-subset of ``range(size)`` in colexicographic order."""
    out = []
    for j in range(k, 0, -1):
        c = j - 1
        while comb(c + 1, j) <= rank:
            c += 1
        out.append(c)
        rank -= comb(c, j)
    return tuple(sorted(out))


class SnowSpace:
    """The Snow Tails design space (see the module docstring); each argument narrows it:
    ``pieces`` the middle piece counts, ``lanes``, ``directions``, ``trees`` the tree
    counts, ``buildings`` the building options, ``kinds`` the piece letters.

    >>> SnowSpace(pieces=(1,), lanes=(4,), trees=(0,), buildings=("none",)).count()
    12
    """

    def __init__(
        self,
        pieces: Sequence[int] = (1, 2, 3),
        lanes: Sequence[int] = (4, 5),
        directions: Sequence[str] = DIRECTIONS,
        trees: Sequence[int] = (0, 1, 2, 3),
        buildings: Sequence[str] = BUILDINGS,
        kinds: str = "STLRlr",
    ) -> None:
        bad = [str(b) for b in buildings if b not in BUILDINGS]
        bad += [d for d in directions if d not in DIRECTIONS]
        bad += [k for k in kinds if k not in PIECES]
        bad += [str(n) for n in (*pieces, *trees) if not 0 <= n <= 10]
        bad += [str(n) for n in lanes if not 2 <= n <= 9]
        if bad:
            raise TrackkitError(f"a Snow Tails design space cannot have {', '.join(bad)}")
        self.pieces, self.lanes, self.trees = tuple(pieces), tuple(lanes), tuple(trees)
        self.directions, self.buildings, self.kinds = tuple(directions), tuple(buildings), kinds
        self._legal: dict[Design, bool] = {}
        self._count: int | None = None
        self.count_is_estimate = False

    # --- the raw designs, by rank -----------------------------------------------------

    @cached_property
    def _courses(self) -> tuple[list[tuple[int, str, str, int]], list[int]]:
        """Each course (lanes, direction, pieces, spaces) and the cumulative raw count."""
        courses, totals, total = [], [], 0
        for n in self.pieces:
            for lanes, direction, letters in product(
                self.lanes, self.directions, product(self.kinds, repeat=n)
            ):
                pieces = "".join(letters)
                size = len(_spaces(lanes, _segments(lanes, direction, pieces)))
                total += len(self.buildings) * sum(comb(size, k) for k in self.trees)
                courses.append((lanes, direction, pieces, size))
                totals.append(total)
        return courses, totals

    @property
    def raw_count(self) -> int:
        """Every design of the parameters, legal or not."""
        totals = self._courses[1]
        return totals[-1] if totals else 0

    def design(self, rank: int) -> Design:
        """The raw design of ``rank`` (0 ≤ rank < :attr:`raw_count`)."""
        if not 0 <= rank < self.raw_count:
            raise TrackkitError(f"rank {rank} is outside the design space (0-{self.raw_count - 1})")
        courses, totals = self._courses
        at = bisect.bisect_right(totals, rank)
        lanes, direction, pieces, size = courses[at]
        rank -= totals[at - 1] if at else 0
        rank, option = divmod(rank, len(self.buildings))
        for k in self.trees:
            if rank < comb(size, k):
                trees = _unrank_subset(rank, size, k)
                return Design(lanes, direction, pieces, trees, self.buildings[option])
            rank -= comb(size, k)
        raise AssertionError("unreachable: the course's count covers its ranks")

    def rank(self, design: Design) -> int:
        """The raw rank of ``design`` (:meth:`design`'s inverse); a TrackkitError for a
        design outside the space.

        >>> space = SnowSpace()
        >>> space.rank(space.design(123_456_789))
        123456789
        """
        courses, totals = self._courses
        at = self._course_index.get((design.lanes, design.direction, design.pieces))
        size = courses[at][3] if at is not None else 0
        if (
            at is None
            or len(design.trees) not in self.trees
            or design.building not in self.buildings
            or any(not 0 <= t < size for t in design.trees)
            or len(set(design.trees)) != len(design.trees)
        ):
            raise TrackkitError(f"{key(design)} is not a design of this space")
        before = 0
        for k in self.trees:
            if k == len(design.trees):
                break
            before += comb(size, k)
        within = (before + _rank_subset(design.trees)) * len(self.buildings)
        base = totals[at - 1] if at else 0
        return base + within + self.buildings.index(design.building)

    @cached_property
    def _course_index(self) -> dict[tuple[int, str, str], int]:
        return {c[:3]: i for i, c in enumerate(self._courses[0])}

    def neighbour(self, design: Design, rng: random.Random) -> Design | None:
        """A design that differs from ``design`` in one thing a designer changes: a
        piece (changed, added or taken away), the lanes, the direction, a tree (moved,
        added or taken away) or the buildings; None when the change drawn is not one this
        space allows (the caller draws again)."""
        pieces, trees = design.pieces, list(design.trees)
        change = rng.choice(("piece", "lanes", "direction", "tree", "building"))
        lanes, direction, building = design.lanes, design.direction, design.building
        if change == "piece":
            at = rng.randrange(len(pieces) + 1)
            letter = rng.choice(self.kinds)
            options = [pieces[:at] + letter + pieces[at:]]  # added
            if at < len(pieces):
                options += [pieces[:at] + letter + pieces[at + 1 :], pieces[:at] + pieces[at + 1 :]]
            pieces = rng.choice(options)
        elif change == "lanes":
            lanes = rng.choice(self.lanes)
        elif change == "direction":
            direction = rng.choice(self.directions)
        elif change == "building":
            building = rng.choice(self.buildings)
        size = len(_spaces(lanes, _segments(lanes, direction, pieces))) if pieces else 0
        trees = [t for t in trees if t < size]
        if change == "tree" and size:
            if trees and rng.random() < 0.5:
                trees.pop(rng.randrange(len(trees)))
            if rng.random() < 0.5 or not trees:
                trees.append(rng.randrange(size))
        found = Design(lanes, direction, pieces, tuple(sorted(set(trees))), building)
        if (
            len(found.pieces) not in self.pieces
            or len(found.trees) not in self.trees
            or found == design
        ):
            return None
        return found

    # --- legality, drawing, counting ----------------------------------------------------

    def track(self, design: Design) -> SnowTrack:
        """The track file of ``design``, read as :func:`.track.parse_track` reads one."""
        segments = _segments(design.lanes, design.direction, design.pieces)
        spaces = _spaces(design.lanes, segments)
        first, last = segments[0], segments[-1]
        reverse = design.direction == "reversed"
        data = {
            "game": "snowtails",
            "name": f"Design {key(design)}",
            "lanes": design.lanes,
            "direction": design.direction,
            "start": {
                "segment": first["id"] if not reverse else last["id"],
                "row": GRID_ROWS - 1 if reverse else 0,
            },
            "finish": {
                "segment": "sprint",
                "runoff_rows": RUNOFF_ROWS,
                "line": RUNOFF_ROWS if reverse else SPRINT_ROWS - RUNOFF_ROWS,
            },
            "trees": [list(spaces[t]) for t in design.trees],
            "segments": segments,
            "buildings": _building(design.building, design.lanes),
        }
        return parse_track(data, source=f"design {key(design)}")

    def legal(self, design: Design) -> bool:
        """Whether Snow Tails' validator finds no error in ``design`` (remembered)."""
        if design not in self._legal:
            self._legal[design] = validate_track(self.track(design)).ok
        return self._legal[design]

    def sample(self, n: int, seed: int) -> list[Design]:
        """``n`` legal designs drawn uniformly (with replacement) from ``seed``."""
        rng, out = random.Random(seed), []
        for _ in range(n):
            for _ in range(MAX_TRIES):
                design = self.design(rng.randrange(self.raw_count))
                if self.legal(design):
                    out.append(design)
                    break
            else:
                raise TrackkitError(f"no legal design in {MAX_TRIES} draws from this space")
        return out

    def count(self) -> int:
        """The legal designs: exact up to :data:`EXACT_LIMIT` raw designs, else estimated
        from :data:`ESTIMATE_DRAWS` raw draws (seed 0); :attr:`count_is_estimate` says which."""
        if self._count is None:
            if self.raw_count <= EXACT_LIMIT:
                self._count = sum(self.legal(self.design(r)) for r in range(self.raw_count))
            else:
                rng = random.Random(0)
                draws = [self.design(rng.randrange(self.raw_count)) for _ in range(ESTIMATE_DRAWS)]
                share = sum(self.legal(d) for d in draws) / ESTIMATE_DRAWS
                self._count = round(self.raw_count * share)
                self.count_is_estimate = True
        return self._count

    def from_key(self, text: str) -> Design:
        """The design named ``text`` (:func:`key`)."""
        return from_key(text)

    def key(self, design: Design) -> str:
        return key(design)

    def features(self, design: Design) -> dict[str, float]:
        return features(design)


def key(design: Design) -> str:
    """A short canonical name: ``5f-LSr-t3.40-bothy`` (lanes, direction, pieces, trees,
    building).

    >>> key(Design(5, "forward", "LSr", (3, 40), "bothy"))
    '5f-LSr-t3.40-bothy'
    """
    trees = ".".join(str(t) for t in sorted(design.trees))
    return f"{design.lanes}{design.direction[0]}-{design.pieces}-t{trees}-{design.building}"


def from_key(text: str) -> Design:
    """The design a :func:`key` names; a malformed key raises :class:`TrackkitError`.

    >>> from_key("4r-T-t-none")
    Design(lanes=4, direction='reversed', pieces='T', trees=(), building='none')
    """
    try:
        head, pieces, trees, building = text.split("-")
        direction = {"f": "forward", "r": "reversed"}[head[-1]]
        numbers = tuple(int(t) for t in trees[1:].split(".")) if trees != "t" else ()
        design = Design(int(head[:-1]), direction, pieces, numbers, building)
    except (ValueError, KeyError, IndexError):
        raise TrackkitError(f"{text!r} is not a Snow Tails design key") from None
    if (
        not trees.startswith("t")
        or building not in BUILDINGS
        or any(p not in PIECES for p in pieces)
        or key(design) != text
    ):
        raise TrackkitError(f"{text!r} is not a Snow Tails design key")
    return design


def features(design: Design) -> dict[str, float]:
    """Numbers a map's axes can use.

    >>> features(Design(4, "forward", "L"))["spaces"]
    78.0
    """
    segments = _segments(design.lanes, design.direction, design.pieces)
    straight_rows = sum(s.get("rows", 0) for s in segments)
    return {
        "spaces": float(len(_spaces(design.lanes, segments))),
        "straight_rows": float(straight_rows),
        "lanes": float(design.lanes),
        "pieces": float(len(design.pieces)),
        "corners": float(sum(p in "LR" for p in design.pieces)),
        "tight_corners": float(sum(p in "lr" for p in design.pieces)),
        "trees": float(len(design.trees)),
        "buildings": float(design.building != "none"),
        "reversed": float(design.direction == "reversed"),
    }


# --- the space as a sweep sees it ---------------------------------------------------------

SPACE_NAME = "Snow Tails parametric boards"
_COUNTS: dict[str, tuple[int, bool]] = {}  # a space's legal count, by its fingerprint
MUTATE_TRIES = 20  # changes drawn for a legal neighbour before a uniform draw
MAX_KEY = 200  # characters of a design key a sweep's row may hold (3 pieces, 3 trees: ~25)


class SnowTrackSpace:
    """Snow Tails' design space (the default :class:`SnowSpace`) for ``players`` sleds, as
    a sweep, ``find``, ``generate`` and the search use a game's space of tracks: a design's
    **rank** is its raw rank (:meth:`SnowSpace.design`), so ``len`` counts raw designs,
    legal or not, and only the legal ranks are tracks. The ranks are not all legal
    (``dense`` False): a sweep of this space is a uniform sample of its legal designs
    (:meth:`sample_ranks`, by rejection), never every rank.

    >>> space = SnowTrackSpace(5)
    >>> rank = space.sample_ranks(1, seed=1)[0]
    >>> space.design_text(rank, space.track(rank)) == key(space.designs.design(rank))
    True
    """

    game = "snowtails"
    dense = False
    folder: str | None = None

    def __init__(self, players: int, designs: SnowSpace | None = None) -> None:
        self.players = players
        self.designs = designs if designs is not None else SnowSpace()
        self.name = SPACE_NAME

    def __len__(self) -> int:
        return self.designs.raw_count

    def __repr__(self) -> str:
        return f"SnowTrackSpace(players={self.players}, raw designs={len(self):,})"

    def fingerprint(self) -> str:
        """A short hash of what the space's parameters are: a sweep resumes only on the
        same space."""
        d = self.designs
        text = repr((d.pieces, d.lanes, d.directions, d.trees, d.buildings, d.kinds, PIECES))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def legal_count(self) -> tuple[int, bool]:
        """The legal designs and whether that count is an estimate (:meth:`SnowSpace.count`,
        worked out once a process for each space)."""
        known = _COUNTS.get(self.fingerprint())
        if known is None:
            known = _COUNTS[self.fingerprint()] = (
                self.designs.count(),
                self.designs.count_is_estimate,
            )
        return known

    def track(self, rank: int) -> SnowTrack:
        """The track of the legal design of ``rank``; a clear error for an illegal one."""
        design = self.designs.design(rank)
        if not self.designs.legal(design):
            raise TrackkitError(
                f"rank {rank} ({key(design)}) is not a legal design: Snow Tails' validator "
                "refuses it"
            )
        return self.designs.track(design)

    def tracks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, SnowTrack]]:
        """The legal designs' ranks and tracks from ``start`` to ``stop`` (illegal ranks
        are skipped)."""
        stop = len(self) if stop is None else min(stop, len(self))
        for rank in range(max(0, start), stop):
            design = self.designs.design(rank)
            if self.designs.legal(design):
                yield rank, self.designs.track(design)

    def sample_ranks(self, count: int, seed: int, *, distinct: bool = False) -> list[int]:
        """``count`` legal ranks drawn uniformly (``distinct``: without replacement) from a
        generator seeded ``seed``: a raw rank uniform over the raw designs, redrawn while
        the validator refuses it (so uniform among the legal designs); the same seed gives
        the same ranks in any process."""
        if count < 0 or seed < 0:
            raise TrackkitError("the count and the seed are whole numbers from 0 up")
        legal, estimate = self.legal_count()
        if distinct and count > legal:
            about = "about " if estimate else ""
            raise TrackkitError(
                f"{count:,} distinct designs asked for; the space holds {about}{legal:,} "
                "legal designs"
            )
        rng, drawn, seen = random.Random(seed), [], set()
        tries = 0
        while len(drawn) < count:
            rank = rng.randrange(len(self))
            tries += 1
            if tries > MAX_TRIES * max(1, count):
                raise TrackkitError(
                    f"only {len(drawn):,} legal designs found in {tries - 1:,} draws"
                )
            if (distinct and rank in seen) or not self.designs.legal(self.designs.design(rank)):
                continue
            seen.add(rank)
            drawn.append(rank)
        return drawn

    def sample(self, count: int, seed: int) -> list[SnowTrack]:
        """``count`` legal designs' tracks drawn uniformly (:meth:`sample_ranks`)."""
        return [self.track(rank) for rank in self.sample_ranks(count, seed)]

    def finish_key(self, track: SnowTrack) -> tuple[Any, ...]:
        """No order helps a Snow Tails profile (it has no solver to share rows)."""
        return ()

    summary_words = "the design's key (lanes and direction, pieces, trees, buildings)"

    def summary(self, rank: int, track: SnowTrack) -> str:
        return key(self.designs.design(rank))

    def mutate(self, rank: int, rng: np.random.Generator) -> int:
        """A legal design one change away from the design of ``rank``
        (:meth:`SnowSpace.neighbour`), for the search; a uniform legal draw when a few
        changes give none."""
        draw = random.Random(int(rng.integers(2**62)))
        design = self.designs.design(rank)
        for _ in range(MUTATE_TRIES):
            found = self.designs.neighbour(design, draw)
            if found is not None and self.designs.legal(found):
                return self.designs.rank(found)
        return self.sample_ranks(1, draw.randrange(2**62))[0]

    def design_text(self, rank: int, track: SnowTrack) -> str:
        """What a sweep's row holds of the design of ``rank``: its key (:func:`key`)."""
        return key(self.designs.design(rank))

    def features(self, rank: int) -> dict[str, float]:
        """The design's numbers a map's axes can use (:func:`features`), each named
        ``design_…`` (a profile's ``trees`` counts trees hit; ``design_trees`` those
        standing)."""
        return {f"design_{k}": v for k, v in features(self.designs.design(rank)).items()}


class SnowDesignCodec:
    """A Snow Tails design as a sweep's row holds it (its key) and the track it names."""

    def encode(self, track: SnowTrack) -> None:
        """A board does not say which design it is (its name may say anything)."""
        return None

    def decode(self, text: str) -> str:
        """The key in a row, checked: a ValueError saying what is wrong otherwise."""
        if not isinstance(text, str) or len(text) > MAX_KEY:
            raise ValueError("is not a Snow Tails design key")
        try:
            from_key(text)
        except TrackkitError:
            raise ValueError(f"{text[:60]!r} is not a Snow Tails design key") from None
        return text

    def track(self, value: Any, name: str, tileset_folder: str | None) -> SnowTrack:
        """The track of the design ``value`` names, called ``name``."""
        design = from_key(self.decode(value))
        track = SnowSpace().track(design)
        return replace(track, name=name)

    def file_text(self, track: SnowTrack, folder: Path) -> str:
        return track.to_toml()
