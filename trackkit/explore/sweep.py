"""Sweeping a design space: every legal track (or a uniform sample) profiled on a Dask
cluster, the results in partitioned Parquet, one row per track.

A sweep is what its manifest ``DIR/sweep.json`` records (:class:`SweepPlan`): the game,
the players, the tile set, the races and seed of each profile, the sample (or every track)
and whether the exact solver runs. Its tracks, in rank order (or the sorted sample), are
cut into partitions of ``partition_size`` consecutive tracks; partition ``i`` becomes
``DIR/part-{i:06d}.parquet``, written under a temporary name and renamed into place, so a
sweep that is killed leaves only whole partitions, and starting it again profiles only
the partitions missing. Every track is profiled with the sweep's seed (common random
numbers: race ``r`` is dealt, shuffled and ordered alike on every track, so tracks differ
by what they do rather than by luck, :mod:`trackkit.explore.profile`), so the table is the
same whatever the partitioning, the number of workers or the cluster, and a row is what
``trackkit profile TRACK --seed SEED --races RACES`` gives.

Memory stays flat however large the space: partitions are described lazily, at most a few
per worker are in flight, and each worker streams its partition's tracks from the space.

The parts live in their own modules, re-exported here: the plan and its partitions
(:mod:`.sweep_plan`), the folder and its files (:mod:`.sweep_folder`), a worker's profiles
(:mod:`.sweep_worker`) and the Dask cluster (:mod:`.sweep_dask`).

>>> partition_file(12)
'part-000012.parquet'
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trackkit.errors import TrackkitError
from trackkit.explore.profile import ProfileSettings
from trackkit.explore.sweep_dask import (
    CONNECT_SECONDS,
    IN_FLIGHT_PER_WORKER,
    dask_client,
    profiled_partitions,
    warm_workers,
)
from trackkit.explore.sweep_folder import (
    MANIFEST,
    MANIFEST_MAX_BYTES,
    MANIFEST_MAX_DEPTH,
    PART_NAME,
    ROW_COLUMNS,
    SweepParts,
    SweepStatus,
    SweepTable,
    checked_parts,
    finished_partitions,
    json_depth,
    partition_file,
    partition_paths,
    prepare_folder,
    read_manifest,
    read_sweep,
    sweep_status,
    write_partition,
)
from trackkit.explore.sweep_plan import (
    MANIFEST_FORMAT,
    MAX_PARTITION,
    MAX_RACES,
    MAX_SEED,
    MAX_SPACE,
    PARTITION_SIZE,
    REDO,
    SWEEP_PROFILE,
    Partition,
    SweepFolderError,
    SweepPlan,
    TrackSpace,
    partitions,
    plan_sweep,
    sample_of,
    space_of,
    trackkit_version,
)
from trackkit.explore.sweep_worker import (
    SweepTrackError,
    figure_columns,
    profile_partition,
    rows_table,
    warm_worker,
)

__all__ = [
    "CONNECT_SECONDS",
    "IN_FLIGHT_PER_WORKER",
    "MANIFEST",
    "MANIFEST_FORMAT",
    "MANIFEST_MAX_BYTES",
    "MANIFEST_MAX_DEPTH",
    "MAX_PARTITION",
    "MAX_RACES",
    "MAX_SEED",
    "MAX_SPACE",
    "PARTITION_SIZE",
    "PART_NAME",
    "REDO",
    "ROW_COLUMNS",
    "SWEEP_PROFILE",
    "Cluster",
    "Partition",
    "Progress",
    "SweepFolderError",
    "SweepParts",
    "SweepPlan",
    "SweepRun",
    "SweepStatus",
    "SweepTable",
    "SweepTrackError",
    "TrackSpace",
    "checked_parts",
    "dask_client",
    "figure_columns",
    "finished_partitions",
    "json_depth",
    "partition_file",
    "partition_paths",
    "partitions",
    "plan_sweep",
    "prepare_folder",
    "profile_partition",
    "read_manifest",
    "read_sweep",
    "rows_table",
    "run_sweep",
    "sample_of",
    "space_of",
    "sweep_status",
    "trackkit_version",
    "warm_worker",
    "write_partition",
]

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Cluster:
    """Where a sweep runs: through ``client`` (a ``distributed.Client`` already
    connected), else on the Dask cluster at ``scheduler`` (``tcp://HOST:PORT``), else on a
    local cluster of ``workers`` single-threaded processes (None: one per core)."""

    workers: int | None = None
    scheduler: str | None = None
    client: Any = None


@dataclass(frozen=True)
class SweepRun:
    """What one run of a sweep did: tracks profiled now (the rest were done before), the
    workers, and the seconds spent starting the cluster, warming the workers and sweeping."""

    folder: str
    plan: SweepPlan
    resumed: bool
    workers: int
    tracks_profiled: int
    partitions_written: int
    status: SweepStatus
    start_seconds: float
    warmup_seconds: float
    sweep_seconds: float

    @property
    def tracks_per_second(self) -> float:
        return self.tracks_profiled / self.sweep_seconds if self.sweep_seconds else math.nan

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "sweep": self.plan.to_json(),
            "resumed": self.resumed,
            "workers": self.workers,
            "tracks_profiled": self.tracks_profiled,
            "partitions_written": self.partitions_written,
            "tracks_done": self.status.tracks_done,
            "partitions_done": self.status.partitions_done,
            "partitions": self.status.partitions,
            "complete": self.status.complete,
            "start_seconds": self.start_seconds,
            "warmup_seconds": self.warmup_seconds,
            "sweep_seconds": self.sweep_seconds,
            "tracks_per_second": self.tracks_per_second,
        }


def run_sweep(
    space: TrackSpace,
    folder: str | Path,
    profile: ProfileSettings = SWEEP_PROFILE,
    *,
    sample: int | None = None,
    sample_seed: int | None = None,
    partition_size: int = PARTITION_SIZE,
    cluster: Cluster = Cluster(),
    progress: Progress | None = None,
) -> SweepRun:
    """Profile every track of ``space`` (or a uniform sample of ``sample``) into
    ``folder`` as ``profile`` says, resuming a sweep there with the same plan
    (:func:`plan_sweep`).

    Runs on ``cluster`` (:class:`Cluster`: by default a local Dask cluster of one
    single-threaded worker per core). ``progress(done, total)`` counts tracks as
    partitions are written.
    """
    plan = plan_sweep(
        space,
        profile,
        sample=sample,
        sample_seed=sample_seed,
        partition_size=partition_size,
    )
    folder = Path(folder)
    started = time.perf_counter()
    resumed = prepare_folder(folder, plan)
    if cluster.client is not None:
        return _sweep_with(cluster.client, space, folder, plan, resumed, progress, started)
    with dask_client(cluster.workers, cluster.scheduler) as own:
        return _sweep_with(own, space, folder, plan, resumed, progress, started)


def _sweep_with(
    client: Any,
    space: TrackSpace,
    folder: Path,
    plan: SweepPlan,
    resumed: bool,
    progress: Progress | None,
    started: float,
) -> SweepRun:
    try:
        client.wait_for_workers(1, timeout=60)
    except TimeoutError:
        raise TrackkitError("the Dask cluster has no worker (waited 60 s)") from None
    workers = max(1, sum(client.nthreads().values()))  # single-threaded workers: one each
    start_seconds = time.perf_counter() - started
    done = {i for i in finished_partitions(folder) if i < plan.partitions}
    todo = (p for p in partitions(plan, sample_of(space, plan)) if p.index not in done)
    tracks_done = sweep_status(folder).tracks_done
    if progress:
        progress(tracks_done, plan.tracks)
    first = next(todo, None)
    warmup_seconds = 0.0
    profiled = written = 0
    sweep_start = time.perf_counter()
    if first is not None:
        warmup_seconds = warm_workers(client, space.track(first.start), plan)
        sweep_start = time.perf_counter()
        in_flight = IN_FLIGHT_PER_WORKER * workers
        for partition, table in profiled_partitions(client, space, plan, first, todo, in_flight):
            write_partition(folder, partition.index, table)
            written += 1
            profiled += table.num_rows
            tracks_done += table.num_rows
            if progress:
                progress(tracks_done, plan.tracks)
    return SweepRun(
        folder=str(folder),
        plan=plan,
        resumed=resumed,
        workers=workers,
        tracks_profiled=profiled,
        partitions_written=written,
        status=sweep_status(folder),
        start_seconds=start_seconds,
        warmup_seconds=warmup_seconds,
        sweep_seconds=time.perf_counter() - sweep_start,
    )
