"""What a worker of a sweep does: profile the tracks of one partition into one Parquet
table, one row per track (:func:`profile_partition`)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa

from trackkit.errors import TrackkitError, shown
from trackkit.explore.profile import FIGURE_KEYS, ProfileSettings, profile_options, profile_track
from trackkit.explore.sweep_plan import Partition, SweepPlan, TrackSpace


class SweepTrackError(TrackkitError):
    """A track of a sweep could not be profiled (which partition, which rank, why)."""


def profile_partition(space: TrackSpace, plan: SweepPlan, partition: Partition) -> pa.Table:
    """Profile the tracks of ``partition`` (on a worker): one row per track, in rank order."""
    from trackkit.games import get_ruleset  # the registry, not a game

    options = profile_options(get_ruleset(plan.game), plan.players, plan.content)
    if partition.ranks is None:
        tracks = space.tracks(partition.start, partition.stop)
    else:
        tracks = ((rank, space.track(rank)) for rank in partition.ranks)
    settings = plan.profile
    rows: list[tuple[int, Any, dict[str, float], int]] = []
    rank = partition.start
    try:
        for batch in _batches(space, tracks):
            for rank, track in batch:
                # every track raced with the sweep's seed: the same deals, shuffles and turn
                # orders (common random numbers), so tracks differ by what they do, not luck
                profile = profile_track(track, settings, players=plan.players, options=options)
                values = {
                    **profile.values,
                    **space.features(rank),
                    "races": float(profile.races),
                }
                rows.append((rank, track, values, plan.seed))
    except TrackkitError as error:
        raise SweepTrackError(f"{partition.describe()}, track rank {rank}: {error}") from None
    except Exception as error:
        raise SweepTrackError(
            f"{partition.describe()}, track rank {rank}: the profile failed "
            f"({shown(error, 200) or 'no detail'})"
        ) from None
    rows.sort(key=lambda row: row[0])  # back in rank order
    if len(rows) != partition.size:
        raise SweepTrackError(
            f"{partition.describe()}: the space gave {len(rows)} tracks, not {partition.size}"
        )
    return rows_table(plan, rows, space)


BATCH = 1_000  # tracks a worker holds to sort by how they end (:func:`_batches`)


def _batches(
    space: TrackSpace, tracks: Iterable[tuple[int, Any]]
) -> Iterator[list[tuple[int, Any]]]:
    """``tracks`` in batches of :data:`BATCH`, each sorted by how its tracks end (the
    space's ``finish_key``): a track's figures do not depend on the order it is profiled in,
    and the exact solver reuses the rows of a route that ends as the one before it did."""
    tracks = iter(tracks)
    while batch := list(itertools.islice(tracks, BATCH)):
        yield sorted(batch, key=lambda ranked: space.finish_key(ranked[1]))


def figure_columns(values: dict[str, float]) -> list[str]:
    """The figure columns of a table, in order: :data:`FIGURES`, then the game's own
    figures (terrain shares…) by name."""
    return [*FIGURE_KEYS, *sorted(set(values) - set(FIGURE_KEYS))]


def rows_table(
    plan: SweepPlan, rows: list[tuple[int, Any, dict[str, float], int]], space: TrackSpace
) -> pa.Table:
    """The Parquet table of profiled tracks: ``rank``, ``players``, ``name``, ``seed``
    (of the track's profile: the sweep's), ``placements`` (the design as ``space`` writes
    it: Yummell's placements as JSON, a Snow Tails design's key) and one float64 column per
    figure (null where it was not measured, e.g. ``--no-exact``)."""
    columns = figure_columns(rows[0][2]) if rows else list(FIGURE_KEYS)
    data: dict[str, pa.Array] = {
        "rank": pa.array([r[0] for r in rows], pa.int64()),
        "players": pa.array([plan.players] * len(rows), pa.int64()),
        "name": pa.array([r[1].name for r in rows], pa.string()),
        "seed": pa.array([r[3] for r in rows], pa.int64()),
        "placements": pa.array([space.design_text(r[0], r[1]) for r in rows], pa.string()),
    }
    for key in columns:
        values = [r[2].get(key, math.nan) for r in rows]
        data[key] = pa.array([None if math.isnan(v) else float(v) for v in values], pa.float64())
    return pa.table(data)


def warm_worker(track: Any, players: int, exact: bool) -> float:
    """Compile (or load from numba's cache) what a profile runs, on one worker; seconds."""
    start = time.perf_counter()
    settings = ProfileSettings(races=2, seed=0, exact=exact, characters=exact)
    profile_track(track, settings, players=players)
    return time.perf_counter() - start
