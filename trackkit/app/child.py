"""The app's small sweep, in a process of its own, with its progress relayed and a cancel
that stops it.

The sweep's Dask scheduler, its worker thread, the profiles' Python and the exact solver
all want the interpreter lock; run in the server's process they stalled the other visitors
(measured: a 1.75 s health check as a sweep started); in a child process they cannot
(under 0.1 s). Dask's own worker processes cannot start on some hosts (its nanny fails),
and multiprocessing's ``spawn`` would run the app's script again in the child (Streamlit
makes it ``__main__``): the child is ``python -m trackkit.app.child``, which writes one
line per report on its standard output. Nothing here imports Streamlit.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from trackkit.errors import TrackkitError

POLL_SECONDS = 0.25
Progress = Callable[[int, int], None]
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds this trackkit


def run_small_sweep(
    folder: Path,
    players: int,
    sample: int,
    races: int,
    progress: Progress,
    game: str | None = None,
) -> None:
    """:func:`small_sweep` of ``game`` (None: the registry's first) in a child process, its
    reports relayed to ``progress``, which stops the child by raising (e.g. when the run is
    cancelled). The child's refusal is raised here as a :class:`TrackkitError` with its
    one-line message."""
    from trackkit.games import get_ruleset

    command = [sys.executable, "-m", "trackkit.app.child"]
    command += [str(folder), str(players), str(sample), str(races), get_ruleset(game).name]
    path = os.pathsep.join(p for p in (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")) if p)
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    outcome = "failed the small sweep's process stopped without saying why"
    last = (0, 0)
    try:
        while True:
            try:
                line = lines.get(timeout=POLL_SECONDS)
            except queue.Empty:
                progress(*last)  # nothing new: reported again, so that a cancel stops it now
                continue
            if line is None:
                break
            kind, _, rest = line.rstrip("\n").partition(" ")
            if kind == "progress":
                done, total = (int(n) for n in rest.split())
                last = (done, total)
                progress(done, total)
            elif kind in ("done", "failed"):
                outcome = line.rstrip("\n")
    finally:
        if child.poll() is None:
            child.terminate()  # cancelled, or the page's run failed: stop the work now
        child.wait(timeout=30)
    kind, _, message = outcome.partition(" ")
    if kind != "done":
        raise TrackkitError(message)


def small_sweep(
    folder: Path, game: str, players: int, sample: int, races: int, progress: Progress
) -> None:
    """Profile a uniform sample of ``sample`` of ``game``'s legal tracks of ``players``
    into ``folder`` with ``races`` races each (and, for a game with an exact solver, each
    character's exact solo rounds), on one Dask worker thread of this process. The sweep
    draws the sample from the game's space (``space.sample_ranks``: every rank of a dense
    space is legal; of another, legal designs are drawn by rejection)."""
    from trackkit.explore.profile import ProfileSettings
    from trackkit.explore.sweep import Cluster, dask_client, run_sweep
    from trackkit.explore.sweep_plan import space_of

    with dask_client(1, processes=False) as client:
        run_sweep(
            space_of(game, players),
            folder,
            ProfileSettings(races=races, seed=0, characters=True),
            sample=sample,
            partition_size=max(1, sample // 10),
            cluster=Cluster(client=client),
            progress=progress,
        )


def main(argv: list[str]) -> int:
    """The child: ``FOLDER PLAYERS SAMPLE RACES [GAME]`` (the registry's first game without
    one); writes ``progress DONE TOTAL`` lines, then ``done`` or ``failed MESSAGE``."""
    from trackkit import limits

    limits.serve_app_limits()  # the app's work: the app's limits

    def report(done: int, total: int) -> None:
        print(f"progress {done} {total}", flush=True)

    try:
        from trackkit.games import get_ruleset

        folder, players, sample, races = Path(argv[0]), *(int(a) for a in argv[1:4])
        game = get_ruleset(argv[4] if len(argv) > 4 else None).name
        small_sweep(folder, game, players, sample, races, report)
    except TrackkitError as error:
        print("failed " + " ".join(str(error).split()), flush=True)
        return 2
    except Exception as error:  # one line for the page
        print(f"failed the small sweep failed: {type(error).__name__}", flush=True)
        return 1
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
