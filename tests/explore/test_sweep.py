"""Sweeps: the same table whatever the partitioning, the workers or the cluster; killed
sweeps resume to every track exactly once; a folder holding another sweep is refused; the
space is streamed a partition at a time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from sweep_spaces import BrokenSpace, PresetSpace

from trackkit.errors import TrackkitError
from trackkit.explore.profile import FIGURE_KEYS, ProfileSettings
from trackkit.explore.sweep import (
    MANIFEST,
    Cluster,
    partition_file,
    partitions,
    plan_sweep,
    prepare_folder,
    read_sweep,
    run_sweep,
    space_of,
    sweep_status,
)

pytestmark = pytest.mark.slow  # sweeps start Dask clusters: seconds a test

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
RACES = 20


def _env() -> dict[str, str]:
    """Subprocesses import this worktree's trackkit and the test spaces."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}


def _table(folder: Path) -> pa.Table:
    swept = read_sweep(folder)
    assert swept.complete
    return swept.table


def test_partitions_cover_every_rank_once_and_are_made_lazily() -> None:
    plan = plan_sweep(PresetSpace(size=40), partition_size=7)
    ranks = [r for p in partitions(plan) for r in range(p.start, p.stop)]
    assert ranks == list(range(40)) and plan.partitions == 6
    sampled = plan_sweep(PresetSpace(size=40), sample=10, partition_size=4)
    parts = list(partitions(sampled, list(range(0, 40, 4))))
    assert [p.ranks for p in parts] == [(0, 4, 8, 12), (16, 20, 24, 28), (32, 36)]
    # a space of a billion tracks (as many races as the command line's sweep_races limit
    # allows): the first partitions come at once
    huge = plan_sweep(PresetSpace(size=10**9), ProfileSettings(races=2), partition_size=500)
    first = list(islice(partitions(huge), 2))
    assert [(p.start, p.stop) for p in first] == [(0, 500), (500, 1000)]


def test_the_same_table_whatever_the_partitioning_and_the_workers(
    tmp_path: Path, dask_client: Any
) -> None:
    space = PresetSpace(size=40)
    one = run_sweep(
        space,
        tmp_path / "a",
        ProfileSettings(races=RACES, seed=5),
        partition_size=7,
        cluster=Cluster(workers=1),
    )
    two = run_sweep(
        space,
        tmp_path / "b",
        ProfileSettings(races=RACES, seed=5),
        partition_size=13,
        cluster=Cluster(client=dask_client),
    )
    assert (one.workers, two.workers) == (1, 2)
    assert one.status.partitions == 6 and two.status.partitions == 4
    a, b = _table(tmp_path / "a"), _table(tmp_path / "b")
    assert a.equals(b)
    assert a["rank"].to_pylist() == list(range(40))
    assert a.column_names[:5] == ["rank", "players", "name", "seed", "placements"]
    assert set(FIGURE_KEYS) <= set(a.column_names)
    assert all(a.schema.field(k).type == pa.float64() for k in FIGURE_KEYS)
    # every rank races the sweep's races (common random numbers): the same preset at
    # ranks 0 and 6 gives the same figures, and another preset others
    rows = a.to_pylist()
    assert rows[0]["placements"] == rows[6]["placements"]
    assert {k: rows[0][k] for k in FIGURE_KEYS} == {k: rows[6][k] for k in FIGURE_KEYS}
    assert rows[0]["rounds_mean"] != rows[1]["rounds_mean"]
    assert {row["seed"] for row in rows} == {5} and {row["races"] for row in rows} == {RACES}


def test_a_sample_is_the_same_whatever_the_partitioning(tmp_path: Path, dask_client: Any) -> None:
    space = PresetSpace(size=40)
    for name, size in (("a", 4), ("b", 12)):
        run_sweep(
            space,
            tmp_path / name,
            ProfileSettings(races=RACES),
            sample=12,
            partition_size=size,
            cluster=Cluster(client=dask_client),
        )
    a, b = _table(tmp_path / "a"), _table(tmp_path / "b")
    assert a.equals(b)
    assert a["rank"].to_pylist() == space.sample_ranks(12, 0, distinct=True)


REPEATED_SWEEPS = """
import sys
from distributed import Client, LocalCluster
from sweep_spaces import PresetSpace
from trackkit.explore.profile import ProfileSettings
from trackkit.explore.sweep import Cluster, run_sweep
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            for n in range(12):
                run_sweep(PresetSpace(size=6), f"{sys.argv[1]}/{n}", ProfileSettings(races=4),
                          partition_size=2, cluster=Cluster(client=client))
    print("done")
"""


def test_sweeps_of_one_space_one_after_another_on_one_client(tmp_path: Path) -> None:
    """The space goes to the workers under a key of its own: under its content's hash, a
    sweep could reuse the key the sweep before was still releasing and wait for ever (it
    did, in 3 runs out of 4 of thirty such sweeps). In a process of its own, so a hang
    fails the test instead of stopping the suite."""
    script = tmp_path / "repeated.py"
    script.write_text(REPEATED_SWEEPS)
    process = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path)],
        cwd=ROOT,
        env=_env(),
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = process.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("twelve sweeps of one space on one client did not finish in 150 s")
    assert process.returncode == 0 and output.strip().endswith("done"), output


def test_the_space_is_streamed_a_partition_at_a_time(tmp_path: Path, dask_client: Any) -> None:
    """The space refuses to give more than a partition's tracks in one call."""
    space = PresetSpace(size=30, widest=8)
    with pytest.raises(AssertionError):
        list(space.tracks(0, 9))
    run = run_sweep(
        space,
        tmp_path / "s",
        ProfileSettings(races=RACES),
        partition_size=8,
        cluster=Cluster(client=dask_client),
    )
    assert run.status.complete and run.tracks_profiled == 30


def test_progress_counts_tracks_up_to_the_total(tmp_path: Path, dask_client: Any) -> None:
    seen: list[tuple[int, int]] = []
    run_sweep(
        PresetSpace(size=12),
        tmp_path / "s",
        ProfileSettings(races=RACES),
        partition_size=5,
        progress=lambda done, total: seen.append((done, total)),
        cluster=Cluster(client=dask_client),
    )
    assert seen[0] == (0, 12) and seen[-1] == (12, 12)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_no_exact_leaves_the_exact_length_empty(tmp_path: Path, dask_client: Any) -> None:
    run_sweep(
        PresetSpace(size=6),
        tmp_path / "s",
        ProfileSettings(races=RACES, exact=False),
        cluster=Cluster(client=dask_client),
    )
    table = _table(tmp_path / "s")
    assert table["exact_rounds"].null_count == 6
    assert table["rounds_mean"].null_count == 0


def test_a_different_sweep_in_the_folder_is_refused_and_left_alone(tmp_path: Path) -> None:
    space = PresetSpace(size=40)
    folder = tmp_path / "s"
    assert prepare_folder(folder, plan_sweep(space, ProfileSettings(races=20))) is False
    manifest = (folder / MANIFEST).read_text()
    assert (
        prepare_folder(folder, plan_sweep(space, ProfileSettings(races=20))) is True
    )  # the same: resumed
    with pytest.raises(TrackkitError, match=r"different sweep.*races 20 vs 30"):
        prepare_folder(folder, plan_sweep(space, ProfileSettings(races=30)))
    with pytest.raises(TrackkitError, match=r"seed 0 vs 1.*sample None vs 5"):
        prepare_folder(folder, plan_sweep(space, ProfileSettings(races=20, seed=1), sample=5))
    with pytest.raises(TrackkitError, match="partition_size 500 vs 7"):
        prepare_folder(folder, plan_sweep(space, ProfileSettings(races=20), partition_size=7))
    assert (folder / MANIFEST).read_text() == manifest


def test_a_folder_of_other_files_is_refused_untouched(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(TrackkitError, match="holds files but no sweep.json"):
        prepare_folder(tmp_path, plan_sweep(PresetSpace()))
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    with pytest.raises(TrackkitError, match="is a file"):
        prepare_folder(tmp_path / "notes.txt", plan_sweep(PresetSpace()))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sample": 41}, "a sample is 1 to 40 tracks"),
        ({"profile": ProfileSettings(races=1)}, "a profile runs 2 to 1,000,000 races, not 1"),
        ({"profile": ProfileSettings(races=1_000_001)}, "a profile runs 2 to 1,000,000 races"),
        ({"profile": ProfileSettings(seed=2**64)}, "the seed is a whole number from 0 to 2"),
        ({"partition_size": 0}, "a partition holds 1 to 100,000 tracks, not 0"),
    ],
)
def test_impossible_sweeps_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(TrackkitError, match=message):
        plan_sweep(PresetSpace(size=40), **options)


def test_a_track_that_cannot_be_profiled_is_named(tmp_path: Path, dask_client: Any) -> None:
    space = BrokenSpace(7, size=12)
    with pytest.raises(TrackkitError, match=r"^partition 1 \(ranks 5-9\), track rank 7: ") as info:
        run_sweep(
            space,
            tmp_path / "s",
            ProfileSettings(races=RACES),
            partition_size=5,
            cluster=Cluster(client=dask_client),
        )
    assert "Traceback" not in str(info.value)
    # the partitions that did finish are kept; the broken one is not written
    assert not (tmp_path / "s" / partition_file(1)).exists()


def test_read_sweep_says_how_complete_a_sweep_is(tmp_path: Path, dask_client: Any) -> None:
    folder = tmp_path / "s"
    run_sweep(
        PresetSpace(size=12),
        folder,
        ProfileSettings(races=RACES),
        partition_size=5,
        cluster=Cluster(client=dask_client),
    )
    (folder / partition_file(1)).unlink()
    swept = read_sweep(folder, columns=["balance"])
    assert not swept.complete
    assert (swept.status.partitions_done, swept.status.partitions) == (2, 3)
    assert swept.status.tracks_done == 7
    assert swept.table.column_names == ["rank", "balance"]
    assert swept.table["rank"].to_pylist() == [0, 1, 2, 3, 4, 10, 11]
    assert len(swept.to_pandas()) == 7
    with pytest.raises(TrackkitError, match="holds no sweep"):
        read_sweep(tmp_path)


KILLED_SWEEP = """
import sys
from sweep_spaces import PresetSpace
from trackkit.explore.profile import ProfileSettings
from trackkit.explore.sweep import Cluster, run_sweep

run_sweep(PresetSpace(size=60, delay=0.1), sys.argv[1], ProfileSettings(races=20),
          partition_size=5, cluster=Cluster(workers=2))
"""


def test_a_killed_sweep_resumes_with_every_track_exactly_once(
    tmp_path: Path, dask_client: Any
) -> None:
    folder = tmp_path / "killed"
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED_SWEEP, str(folder)],
        cwd=ROOT,
        env=_env(),
        start_new_session=True,  # its own group: the sweep and its workers die together
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 180
        while not list(folder.glob("part-*.parquet")):
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "no partition written in 3 minutes"
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = sweep_status(folder)
    assert 1 <= before.partitions_done < before.partitions
    (folder / f".{partition_file(11)}.12345.tmp").write_bytes(b"half a file")
    run = run_sweep(
        PresetSpace(size=60),
        folder,
        ProfileSettings(races=20),
        partition_size=5,
        cluster=Cluster(client=dask_client),
    )
    assert run.resumed and run.tracks_profiled == 60 - before.tracks_done
    resumed = _table(folder)
    assert sorted(resumed["rank"].to_pylist()) == list(range(60))
    assert not list(folder.glob(".*.tmp"))
    whole = tmp_path / "whole"
    run_sweep(
        PresetSpace(size=60),
        whole,
        ProfileSettings(races=20),
        partition_size=5,
        cluster=Cluster(client=dask_client),
    )
    assert resumed.equals(_table(whole))


@pytest.fixture
def external_cluster(tmp_path: Path) -> Iterator[str]:
    """A ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1; its address."""
    scheduler_file = tmp_path / "scheduler.json"
    processes: list[subprocess.Popen[bytes]] = []

    def start(*argv: str, log: str) -> None:
        with open(tmp_path / log, "wb") as output:
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", *argv],
                    cwd=ROOT,
                    env=_env(),
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    try:
        start(
            "distributed.cli.dask_scheduler",
            "--host=127.0.0.1",
            "--port=0",
            "--no-dashboard",
            "--dashboard-address=:0",
            f"--scheduler-file={scheduler_file}",
            log="scheduler.log",
        )
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert time.monotonic() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        for n in range(2):
            start(
                "distributed.cli.dask_worker",
                address,
                "--nworkers=1",
                "--nthreads=1",
                "--host=127.0.0.1",
                "--no-dashboard",
                log=f"worker-{n}.log",
            )
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_an_external_cluster_gives_the_same_table(
    tmp_path: Path, dask_client: Any, external_cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`trackkit sweep --scheduler` on a scheduler and two workers started apart, over a
    sample of the real 4-player space: the same table as a local cluster's."""
    from distributed import Client

    from trackkit.cli import main

    with Client(external_cluster, timeout="30s") as client:  # the workers join in their time
        client.wait_for_workers(2, timeout=120)
    remote = tmp_path / "remote"
    sweep = ["sweep", "--players", "4", "--sample", "24", "--races", str(RACES)]
    code = main(
        [*sweep, "--partition-size", "5", "--scheduler", external_cluster, "--out", str(remote)]
    )
    out = capsys.readouterr().out
    assert code == 0 and "24 tracks in" in out and "on 2 workers" in out
    local = tmp_path / "local"
    space = space_of("yummell", 4)
    run_sweep(
        space,
        local,
        ProfileSettings(races=RACES, skill=True),  # as the command line sweeps: with skill
        sample=24,
        partition_size=9,
        cluster=Cluster(client=dask_client),
    )
    table = _table(remote)
    assert table.num_rows == 24 and table["rank"].to_pylist() == sorted(
        space.sample_ranks(24, 0, distinct=True)
    )
    assert table.equals(_table(local))


def test_a_game_without_a_track_space_cannot_be_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    from trackkit.games import get_ruleset

    ruleset = get_ruleset("snowtails")
    monkeypatch.setattr(type(ruleset), "track_space", None)  # Snow Tails, had it no space
    with pytest.raises(TrackkitError, match="Snow Tails 2 has no space of legal tracks to sweep"):
        space_of("snowtails", 4)


def test_an_unreachable_scheduler_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from trackkit.explore import sweep_dask

    monkeypatch.setattr(sweep_dask, "CONNECT_SECONDS", 2)
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TrackkitError, match="cannot reach the Dask scheduler at tcp://127"):
        run_sweep(
            PresetSpace(size=6),
            tmp_path / "s",
            cluster=Cluster(scheduler=f"tcp://127.0.0.1:{port}"),
        )
