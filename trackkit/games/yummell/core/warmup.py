"""Compiling the race engine before the first race needs it.

numba compiles the engine the first time a race runs on a machine (one to two minutes on a
small one) and keeps the result in its on-disk cache. :func:`start_warmup` compiles it in a
separate process, so an app or a command can start it early, keep responding meanwhile,
and tell the user what is happening while a race waits for it.

>>> status = start_warmup()      # at most one warm-up per process; later calls return it
>>> status.wait(timeout=600.0)   # doctest: +SKIP
True
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

# One line a user reads while waiting: why the wait, and that it happens once.
COMPILING = "Compiling the race engine (once per machine): {seconds:.0f} s…"
# the child that compiles: this module run as a script
COMMAND = (sys.executable, "-m", "trackkit.games.yummell.core.warmup")


def engine_compiled() -> bool:
    """Whether the race engine and the exact solver are compiled in this process or held
    compiled in numba's cache for their current source (so the next race starts at once)."""
    return all(_ready(dispatcher) for dispatcher in _dispatchers())


def _dispatchers() -> list[object]:
    # The entry points Python calls: compiled, they hold everything they call. Imported
    # here: importing the engine is cheap, but the app imports this module at start-up.
    from trackkit.games.yummell.core import engine, exact

    entry_points = [getattr(engine, "play_batch", None), getattr(exact, "_solve", None)]
    return [dispatcher for dispatcher in entry_points if dispatcher is not None]


def _ready(dispatcher: object) -> bool:
    if getattr(dispatcher, "signatures", None):
        return True
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:  # caching off (e.g. NUMBA_DISABLE_JIT): nothing to compile
        return True
    try:
        # numba's index is empty when the source changed since it was written
        return bool(cache_file._load_index())
    except Exception:  # an unreadable cache is one numba will rebuild: treat it as cold
        return False


def warm() -> None:
    """Compile the engine and the exact solver (or load them from the cache): one tiny race
    and one exact solve of the smallest preset. Warm-ups started together on one machine
    (app servers, test runs) take turns, so the engine compiles once, not once each."""
    with _machine_lock():
        if not engine_compiled():
            _compile()


@contextmanager
def _machine_lock() -> Iterator[None]:
    path = Path(tempfile.gettempdir()) / f"trackkit-warmup-{_cache_key()}.lock"
    with open(path, "a+b") as handle:
        try:
            import fcntl
        except ImportError:  # Windows: no lock, at worst two compiles at once
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _cache_key() -> str:
    # one lock per cache: compiles into different caches need not wait for each other
    where = os.environ.get("NUMBA_CACHE_DIR") or str(Path(__file__).parent)
    return hashlib.sha256(where.encode()).hexdigest()[:12]


def _compile() -> None:
    from trackkit.games.yummell.core.course import race_board
    from trackkit.games.yummell.core.exact import exact_solo
    from trackkit.games.yummell.core.options import RaceOptions
    from trackkit.games.yummell.core.presets import load_preset
    from trackkit.games.yummell.core.ruleset import play_batch

    track = load_preset("first-run")
    play_batch(race_board(track), RaceOptions(players=2), seed=0, batch=0, races=1)
    exact_solo(track, character=0, advantage=0, workers=1)


@dataclass
class Warmup:
    """A warm-up running in a child process, and what became of it."""

    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    error: str | None = None
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def elapsed(self) -> float:
        """Seconds since the warm-up started (until it finished, once it has)."""
        return (self.finished or time.monotonic()) - self.started

    def message(self) -> str:
        return COMPILING.format(seconds=self.elapsed)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the end of the warm-up; True once it has ended (well or not)."""
        return self._done.wait(timeout)

    def _run(self) -> None:
        with tempfile.TemporaryFile() as errors:
            try:
                code = subprocess.run(
                    list(COMMAND),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=errors,
                    check=False,
                ).returncode
            except OSError as exc:
                code, errors_text = -1, str(exc)
            else:
                errors.seek(0)
                errors_text = errors.read().decode("utf-8", "replace").strip()
        if code != 0:
            last = errors_text.splitlines()[-1] if errors_text else f"exit code {code}"
            self.error = f"the race engine could not be compiled ahead: {last}"
        self.finished = time.monotonic()
        self._done.set()


_lock = threading.Lock()
_current: Warmup | None = None


def start_warmup() -> Warmup:
    """Start compiling the engine in a child process unless it is compiled or compiling;
    returns the running (or finished) warm-up. Already compiled, a finished one at once."""
    global _current
    with _lock:
        stale = _current is not None and _current.done and not _current.error
        if _current is None or (stale and not engine_compiled()):
            _current = Warmup()
            if engine_compiled():
                _current.finished = _current.started
                _current._done.set()
            else:
                # a thread only waits on the child, so the caller keeps working meanwhile
                threading.Thread(target=_current._run, name="trackkit-warmup", daemon=True).start()
        return _current


def current_warmup() -> Warmup | None:
    """The warm-up started in this process, if any."""
    return _current


if __name__ == "__main__":
    warm()
