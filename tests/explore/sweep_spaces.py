"""A small stand-in for a game's track space (the TrackSpace interface of
:mod:`trackkit.explore.sweep`): the six Yummell presets over and over, each rank its own
track name, so sweeps in the tests are quick and their tracks legal."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from trackkit.games import load_tileset
from trackkit.games.tilekit.tiles import TileSet, tileset_fingerprint
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.core.space import placements_text


class PresetSpace:
    """``size`` tracks ranked 0..size-1: rank r is preset r % 6 under its own name.
    ``widest``: the most tracks one call of :meth:`tracks` may ask for (a sweep must
    stream a partition at a time, never the whole space); ``delay``: seconds each track
    takes to give (a slow sweep, to kill one mid-run)."""

    def __init__(
        self, players: int = 4, size: int = 40, widest: int | None = None, delay: float = 0.0
    ) -> None:
        self.players = players
        self.size = size
        self.widest = widest
        self.delay = delay
        self.tileset: TileSet = load_tileset()
        self._presets = [load_preset(slug) for slug in PRESET_SLUGS]

    game = "yummell"
    dense = True
    folder = None

    def __len__(self) -> int:
        return self.size

    @property
    def name(self) -> str:
        return self.tileset.name

    def fingerprint(self) -> str:
        return tileset_fingerprint(self.tileset)

    def legal_count(self) -> tuple[int, bool]:
        return self.size, False

    summary_words = "tiles in placing order"

    def summary(self, rank: int, track: Track) -> str:
        return " ".join(str(tile) for tile in track.tiles)

    def features(self, rank: int) -> dict[str, float]:
        return {}

    def design_text(self, rank: int, track: Track) -> str:
        return placements_text(track)

    def track(self, rank: int) -> Track:
        if not 0 <= rank < self.size:
            raise IndexError(rank)
        if self.delay:
            time.sleep(self.delay)
        preset = self._presets[rank % len(self._presets)]
        return replace(preset, name=f"{self.players}-player track #{rank}")

    def rank(self, track: Track) -> int:
        return int(track.name.rsplit("#", 1)[1])

    def tracks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, Track]]:
        stop = self.size if stop is None else min(stop, self.size)
        if self.widest is not None and stop - start > self.widest:
            raise AssertionError(f"asked for {stop - start} tracks at once")
        for rank in range(start, stop):
            yield rank, self.track(rank)

    def sample_ranks(self, count: int, seed: int, *, distinct: bool = False) -> list[int]:
        generator = np.random.default_rng([seed, self.size])
        return sorted(int(r) for r in generator.choice(self.size, count, replace=not distinct))

    def finish_key(self, track: Track) -> tuple[int, ...]:
        # backwards by rank: a worker's order of profiling is not the table's
        return (-self.rank(track),)


class BrokenSpace(PresetSpace):
    """A space whose track ``broken`` has a tile no tile set holds."""

    def __init__(self, broken: int, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.broken = broken

    def track(self, rank: int) -> Track:
        track = super().track(rank)
        if rank != self.broken:
            return track
        wrong = replace(track.placements[1], tile=99)
        return replace(track, placements=(track.placements[0], wrong, *track.placements[2:]))
