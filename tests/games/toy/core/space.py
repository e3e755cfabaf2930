"""The toy game's design space: every lane of :data:`LENGTHS` spaces with 0 to
:data:`MOST_MUD` mud spaces, ranked by length, then by how many mud spaces, then by
where (colexicographic). Every rank is a legal track (``dense``), so a sweep may take them
all. It exists to show that a new game's design space is a module of its own folder:
``generate``, ``sweep``, ``find``, ``search`` and the Explore page work for it with no
change to shared code.

>>> space = ToySpace(3)
>>> len(space), space.design_text(0, space.track(0)), space.design_text(5, space.track(5))
(4396, 'L10-m', 'L10-m5')
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from tests.games.toy.core.ruleset import ToyTrack
from trackkit.errors import TrackkitError

LENGTHS = range(10, 31)
MOST_MUD = 2


def _subset(rank: int, size: int, k: int) -> tuple[int, ...]:
    """The ``rank``-th ``k``-subset of ``1 .. size`` in colexicographic order."""
    out = []
    for j in range(k, 0, -1):
        c = j - 1
        while comb(c + 1, j) <= rank:
            c += 1
        out.append(c)
        rank -= comb(c, j)
    return tuple(sorted(c + 1 for c in out))


def _subset_rank(subset: tuple[int, ...]) -> int:
    return sum(comb(c - 1, j) for j, c in enumerate(sorted(subset), start=1))


def _count(length: int) -> int:
    """Lanes of ``length``: mud on 0 to :data:`MOST_MUD` of spaces 1 .. length - 1."""
    return sum(comb(length - 1, k) for k in range(MOST_MUD + 1))


def key(length: int, mud: tuple[int, ...]) -> str:
    return f"L{length}-m{'.'.join(str(m) for m in mud)}"


def from_key(text: str) -> tuple[int, tuple[int, ...]]:
    """The lane a :func:`key` names; ValueError otherwise."""
    try:
        head, tail = text.split("-")
        length = int(head[1:])
        mud = tuple(int(m) for m in tail[1:].split(".")) if tail != "m" else ()
    except ValueError:
        raise ValueError(f"{text[:60]!r} is not a toy lane's key") from None
    if (
        not head.startswith("L")
        or length not in LENGTHS
        or len(mud) > MOST_MUD
        or key(length, tuple(sorted(set(mud)))) != text
        or any(not 0 < m < length for m in mud)
    ):
        raise ValueError(f"{text[:60]!r} is not a toy lane's key")
    return length, mud


class ToySpace:
    """Every toy lane (see the module docstring) for ``players`` racers."""

    game = "toy"
    dense = True
    folder: str | None = None
    name = "toy lanes"
    summary_words = "the lane's length and mud spaces"

    def __init__(self, players: int) -> None:
        self.players = players
        self._starts = [0]
        for length in LENGTHS:
            self._starts.append(self._starts[-1] + _count(length))

    def __len__(self) -> int:
        return self._starts[-1]

    def fingerprint(self) -> str:
        text = repr((tuple(LENGTHS), MOST_MUD))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def legal_count(self) -> tuple[int, bool]:
        return len(self), False

    def lane(self, rank: int) -> tuple[int, tuple[int, ...]]:
        if not 0 <= rank < len(self):
            raise TrackkitError(f"rank {rank} is outside the toy space (0-{len(self) - 1})")
        at = max(i for i, start in enumerate(self._starts) if start <= rank)
        length, rank = LENGTHS[at], rank - self._starts[at]
        for k in range(MOST_MUD + 1):
            if rank < comb(length - 1, k):
                return length, _subset(rank, length - 1, k)
            rank -= comb(length - 1, k)
        raise AssertionError("unreachable")

    def rank(self, length: int, mud: tuple[int, ...]) -> int:
        before = sum(comb(length - 1, k) for k in range(len(mud)))
        return self._starts[LENGTHS.index(length)] + before + _subset_rank(mud)

    def track(self, rank: int) -> ToyTrack:
        length, mud = self.lane(rank)
        return ToyTrack(f"Toy lane #{rank}", length, mud)

    def tracks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ToyTrack]]:
        for rank in range(start, len(self) if stop is None else min(stop, len(self))):
            yield rank, self.track(rank)

    def sample_ranks(self, count: int, seed: int, *, distinct: bool = False) -> list[int]:
        rng = random.Random(seed)
        if distinct:
            return rng.sample(range(len(self)), count)
        return [rng.randrange(len(self)) for _ in range(count)]

    def sample(self, count: int, seed: int) -> list[ToyTrack]:
        return [self.track(rank) for rank in self.sample_ranks(count, seed)]

    def finish_key(self, track: ToyTrack) -> tuple[Any, ...]:
        return ()

    def design_text(self, rank: int, track: ToyTrack) -> str:
        return key(*self.lane(rank))

    def summary(self, rank: int, track: ToyTrack) -> str:
        return self.design_text(rank, track)

    def features(self, rank: int) -> dict[str, float]:
        length, mud = self.lane(rank)
        return {"lane_length": float(length), "lane_mud": float(len(mud))}

    def mutate(self, rank: int, rng: np.random.Generator) -> int:
        """A lane one step longer or shorter, or with one mud space moved, added or gone."""
        length, mud = self.lane(rank)
        for _ in range(20):
            new_length = min(max(length + int(rng.integers(-1, 2)), LENGTHS[0]), LENGTHS[-1])
            new_mud = {m for m in mud if m < new_length}
            if new_mud and rng.random() < 0.5:
                new_mud.discard(sorted(new_mud)[int(rng.integers(len(new_mud)))])
            if len(new_mud) < MOST_MUD and rng.random() < 0.5:
                new_mud.add(int(rng.integers(1, new_length)))
            child = self.rank(new_length, tuple(sorted(new_mud)))
            if child != rank:
                return child
        return int(rng.integers(len(self)))


class ToyCodec:
    """A toy lane as a sweep's row holds it (its key) and the track it names."""

    def encode(self, track: ToyTrack) -> str | None:
        try:
            return key(*from_key(key(track.length, tuple(track.mud))))
        except ValueError:
            return None  # a lane outside the space

    def decode(self, value: Any) -> str:
        if not isinstance(value, str) or len(value) > 100:
            raise ValueError("is not a toy lane's key")
        from_key(value)
        return value

    def track(self, value: Any, name: str, tileset_folder: str | None) -> ToyTrack:
        length, mud = from_key(self.decode(value))
        return ToyTrack(name, length, mud)

    def file_text(self, track: ToyTrack, folder: Path) -> str:
        return track.to_toml()
