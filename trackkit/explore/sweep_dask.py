"""A sweep's partitions profiled on a Dask cluster: a local one, or one reached at its
scheduler's address, at most a few partitions in flight per worker, the space sent to
each worker once."""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pyarrow as pa

from trackkit.errors import TrackkitError, shown
from trackkit.explore.sweep_plan import Partition, SweepPlan, TrackSpace
from trackkit.explore.sweep_worker import SweepTrackError, profile_partition, warm_worker

IN_FLIGHT_PER_WORKER = 3  # partitions queued per worker: enough to keep each one busy
CONNECT_SECONDS = 20  # how long to try to reach a scheduler


@contextlib.contextmanager
def dask_client(
    workers: int | None = None, scheduler: str | None = None, *, processes: bool = True
) -> Iterator[Any]:
    """A ``distributed.Client``: on the cluster at ``scheduler`` (``tcp://HOST:PORT``), or
    on a local cluster of ``workers`` single-threaded processes (None: one per core).

    ``processes=False``: the local workers are threads of this process, for a small sweep
    from a program that has the engine loaded already (the app), with no processes to
    start."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
        except (OSError, TimeoutError, ValueError) as error:
            raise TrackkitError(
                f"cannot reach the Dask scheduler at {shown(scheduler)}: {error}"
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    count = workers or os.cpu_count() or 1
    if count < 1:
        raise TrackkitError(f"a sweep needs at least 1 worker, not {count}")
    import dask

    # Dask sets MALLOC_TRIM_THRESHOLD_ in its workers to hand memory back early; that also
    # stops glibc from raising its mmap threshold, and the solver's arrays are then mapped
    # and unmapped track after track: a tenth of the time in page faults. A profile's
    # memory is small and bounded, so the workers keep glibc's own behaviour.
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
        cluster = LocalCluster(
            n_workers=count,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=":0",  # no fixed port: several sweeps may run at once
            silence_logs=logging.CRITICAL,  # a worker's failure is reported here, in one line
        )
    try:
        with Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def warm_workers(client: Any, track: Any, plan: SweepPlan) -> float:
    """Profile one track on every worker, so the engine is compiled or loaded from numba's
    cache before the sweep is timed; seconds taken."""
    start = time.perf_counter()
    try:
        client.run(warm_worker, track, plan.players, plan.exact)
    except Exception as error:
        raise TrackkitError(
            f"the Dask workers could not profile a track ({shown(error, 200) or 'no detail'})"
        ) from None
    return time.perf_counter() - start


def profiled_partitions(
    client: Any,
    space: TrackSpace,
    plan: SweepPlan,
    first: Partition,
    todo: Iterator[Partition],
    in_flight: int,
) -> Iterator[tuple[Partition, pa.Table]]:
    """Each partition's table as workers finish them, at most ``in_flight`` partitions
    submitted at a time (``first``, then ``todo`` lazily); the space is sent to each
    worker once. An error stops the rest."""
    from distributed import as_completed

    # a key of its own (not the data's hash): a second sweep of the same space on this
    # client must not share the key the first one is releasing (its tasks would wait on it)
    [shared] = client.scatter([space], broadcast=True, hash=False)
    running: dict[str, tuple[Any, Partition]] = {}
    queue = as_completed()

    def submit(partition: Partition) -> None:
        future = client.submit(_partition_task, shared, plan, partition, pure=False)
        running[future.key] = (future, partition)
        queue.add(future)

    for partition in (first, *islice(todo, in_flight - 1)):
        submit(partition)
    try:
        for future in queue:
            _, partition = running.pop(future.key)
            outcome = _result(future, partition)
            future.release()
            if isinstance(outcome, str):
                raise SweepTrackError(outcome)
            yield partition, outcome
            following = next(todo, None)
            if following is not None:
                submit(following)
    finally:
        if running:  # stopped early: cancel the rest, keep what is written
            with contextlib.suppress(Exception):
                client.cancel([future for future, _ in running.values()])
        shared.release()


def _partition_task(space: TrackSpace, plan: SweepPlan, partition: Partition) -> pa.Table | str:
    """:func:`profile_partition` as a Dask task: a track that cannot be profiled comes back
    as its message (a worker would log a raised error with its traceback)."""
    try:
        return profile_partition(space, plan, partition)
    except SweepTrackError as error:
        return str(error)


def _result(future: Any, partition: Partition) -> pa.Table | str:
    """A partition's outcome, or one clear error for what went wrong on the worker."""
    try:
        return future.result()
    except TrackkitError as error:
        raise TrackkitError(f"{partition.describe()}: {error}") from None
    except Exception as error:
        name = type(error).__name__
        if name == "KilledWorker":
            raise TrackkitError(
                f"{partition.describe()}: the Dask workers running it died (out of memory, "
                "or killed); the partitions written so far are kept: run the sweep again to "
                "resume"
            ) from None
        raise TrackkitError(
            f"{partition.describe()}: the Dask workers failed on it "
            f"({shown(error, 200) or 'no detail'})"
        ) from None
