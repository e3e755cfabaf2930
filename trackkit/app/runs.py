"""Heavy work for a page (races, a small sweep), run off the script thread so that one
visitor does not stall the others.

The work runs in a thread of its own (the race engines release the interpreter lock while
they race), and the page follows it: a progress bar and a Cancel button, redrawn a few
times a second until it ends. A click anywhere reruns the page and the work goes on; the
page picks it up again. Each session runs one piece of work at a time, and the server at
most ``TRACKKIT_APP_HEAVY_RUNS`` at once (the operator's choice; 1 by default on a 2-core
machine: one core races while the other serves pages). Work over the cap waits its turn,
and the page says so.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from trackkit.errors import TrackkitError, shown
from trackkit.explore.profile import MAX_PROFILE_RACES, reference_tracks
from trackkit.limits import SIMULATION_COST
from trackkit.sim.montecarlo import MAX_RACES, check_cost, most_races, race_cost, simulate

HEAVY_RUNS_VARIABLE = "TRACKKIT_APP_HEAVY_RUNS"
DEFAULT_HEAVY_RUNS = 1
POLL_SECONDS = 0.25
MIN_RACES = 100  # the Races input's least value
# the most races of each track in a page's reference ("an average track", against which a
# profile measures balance): its tracks are raced alike, so this bounds the extra racing
REFERENCE_RACES = 2_000
Progress = Callable[[int, int], None]

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """Raised in a run's progress report once Cancel was pressed: the work stops there."""


@dataclass(eq=False)
class Run:
    """One piece of heavy work of one session, and where it stands. ``state`` is
    "waiting" (for a free slot), "running", "finished", "failed" or "cancelled"."""

    session: str
    what: str  # what the work does, for the page's messages: "the races"
    unit: str  # what its progress counts: "races"
    key: Any  # what the page ran
    state: str = "waiting"
    done: int = 0
    total: int = 0
    result: Any = None
    error: str = ""
    _cancel: threading.Event = field(default_factory=threading.Event)
    _ended: threading.Event = field(default_factory=threading.Event)

    @property
    def live(self) -> bool:
        return not self._ended.is_set()

    def progress(self, done: int, total: int) -> None:
        """The work's progress report: records it, and stops the work once cancelled."""
        if self._cancel.is_set():
            raise Cancelled
        self.done, self.total = done, total

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the run to end; whether it has."""
        return self._ended.wait(timeout)


class HeavyRuns:
    """The server's heavy runs: one per session at a time, at most ``slots`` at once."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._free = threading.Semaphore(slots)
        self._lock = threading.Lock()
        self._runs: dict[str, Run] = {}

    def current(self, session: str) -> Run | None:
        """The session's run, going or ended but not yet shown."""
        with self._lock:
            return self._runs.get(session)

    def start(
        self, session: str, what: str, unit: str, key: Any, work: Callable[[Progress], Any]
    ) -> Run:
        """Start ``work(progress)`` in a thread of its own for ``session``; a session whose
        run is still going gets that run back, and no other starts."""
        with self._lock:
            current = self._runs.get(session)
            if current is not None and current.live:
                return current
            run = Run(session, what, unit, key)
            self._runs[session] = run
        threading.Thread(
            target=self._work, args=(run, work), name=f"trackkit-run-{session[:8]}", daemon=True
        ).start()
        return run

    def forget(self, run: Run) -> None:
        """Forget an ended run (its page has shown how it ended)."""
        with self._lock:
            if not run.live and self._runs.get(run.session) is run:
                del self._runs[run.session]

    def running(self) -> int:
        """Runs holding a slot now."""
        with self._lock:
            return sum(1 for r in self._runs.values() if r.live and r.state == "running")

    def _work(self, run: Run, work: Callable[[Progress], Any]) -> None:
        try:
            while not self._free.acquire(timeout=POLL_SECONDS):
                if run.cancelled:
                    raise Cancelled
            try:
                run.state = "running"
                run.progress(0, run.total)  # cancelled while it waited: stop here
                run.result = work(run.progress)
            finally:
                self._free.release()
            run.state = "finished"
        except Cancelled:
            run.state = "cancelled"
        except TrackkitError as error:
            run.error, run.state = str(error), "failed"
        except Exception as error:  # shown in one line; the server's log has the rest
            log.exception("a heavy run failed")
            run.error, run.state = f"the run failed: {type(error).__name__}", "failed"
        finally:
            run._ended.set()


def heavy_run_slots() -> int:
    """How many heavy runs the server runs at once: ``TRACKKIT_APP_HEAVY_RUNS`` when set
    to a whole number of 1 or more, else 1."""
    raw = os.environ.get(HEAVY_RUNS_VARIABLE, "").strip()
    return int(raw) if raw.isdigit() and int(raw) >= 1 else DEFAULT_HEAVY_RUNS


@st.cache_resource
def heavy_runs() -> HeavyRuns:
    """The server's one registry of heavy runs, shared by every session."""
    return HeavyRuns(heavy_run_slots())


def session_id() -> str:
    """The visitor's session (one browser tab), as Streamlit names it."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "no-session"


def heavy_run(
    what: str, unit: str, key: Any, start: bool, work: Callable[[Progress], Any]
) -> Run | None:
    """This session's run, followed on the page until it ends: started now with ``work``
    when ``start`` (the page's button was pressed) and no run of the session is going,
    else the one going. None when there is none. An ended run is shown once: cancelled
    or failed, the page says so here."""
    runs, session = heavy_runs(), session_id()
    run = runs.current(session)
    if start:
        if run is not None and run.live:
            st.info(
                f"A run of yours is still going ({run.what}): one run at a time for each "
                "visitor. Wait for it to end, or cancel it."
            )
        else:
            run = runs.start(session, what, unit, key, work)
    if run is None:
        return None
    if run.live:
        _follow(run, runs.slots)
    runs.forget(run)
    if run.state == "cancelled":
        st.info(f"Cancelled: {run.what} stopped before the end, and nothing was kept.")
    elif run.state == "failed":
        st.error(run.error)
    return run


def _follow(run: Run, slots: int) -> None:
    """The run's progress and a Cancel button, redrawn until it ends."""
    shown = st.empty()
    with shown.container():
        bar = st.progress(0.0, text="Starting…")
        if st.button("Cancel", icon=":material/stop:", key="heavy-run-cancel"):
            run.cancel()
    while not run.wait(POLL_SECONDS):
        if run.cancelled:
            bar.progress(run.done / max(1, run.total), text="Cancelling…")
        elif run.state == "waiting":
            bar.progress(
                0.0,
                text=f"Waiting for a turn: this server runs {slots} heavy run(s) at a time "
                "and other visitors' runs are going; yours starts when one ends.",
            )
        elif run.total:
            bar.progress(run.done / run.total, text=f"{run.done:,} of {run.total:,} {run.unit}")
    shown.empty()


@st.cache_data(max_entries=64, show_spinner=False)
def _race_cost(text: str, players: int, _track: Any, _options: Any, planning: str = "") -> int:
    # keyed on the track's file, the players and the planners with their budget (``_``
    # arguments are not hashed)
    return race_cost(_options.ruleset.prepare(_track, _options), _options)


def _planning(options: Any) -> str:
    """What a race's cost depends on beside the track and the players: the policies and
    the planning player's budget."""
    policies = getattr(options, "policies", ())
    policies = policies() if callable(policies) else policies
    return f"{tuple(policies) or options.policy}/{getattr(options, 'budget', '')}"


def races_allowed(track: Any, options: Any) -> int:
    """The most races of ``options`` on ``track`` one run may have under the app's limit
    (:data:`~trackkit.limits.SIMULATION_COST`), at least :data:`MIN_RACES` (more is then
    refused when run, saying why); a board the engine cannot prepare gets the least, and
    the run then says what is wrong."""
    try:
        per_race = _race_cost(track.to_toml(), options.players, track, options, _planning(options))
    except TrackkitError:
        return MIN_RACES
    return max(MIN_RACES, most_races(per_race))


def reference_cost(options: Any) -> int:
    """What one race of ``options`` on every track of the average track costs in all, in
    the units of :data:`~trackkit.limits.SIMULATION_COST`: a profile's reference races each
    as often (:func:`~trackkit.explore.profile.reference_tracks`)."""
    total = 0
    for track in reference_tracks(options.ruleset, options.players):
        total += _race_cost(track.to_toml(), options.players, track, options, _planning(options))
    return total


def reference_races(races: int, most: int | None = REFERENCE_RACES) -> int:
    """The races of each reference track of a profile of ``races`` races: as many,
    or ``most`` at the most (None: no bound)."""
    return races if most is None else min(races, most)


def profile_races_allowed(track: Any, options: Any, most: int | None = REFERENCE_RACES) -> int:
    """The most races of ``options`` on ``track`` one profile may have under the app's limit
    when its reference (:func:`reference_races` with ``most``) counts with them, at least
    :data:`MIN_RACES` (the run then says what is over) and at most what a profile runs."""
    try:
        per_race = _race_cost(track.to_toml(), options.players, track, options, _planning(options))
    except TrackkitError:
        return MIN_RACES
    limit, presets = SIMULATION_COST.value(), reference_cost(options)
    if most is not None and most * (per_race + presets) <= limit:
        races = (limit - most * presets) // per_race  # the reference stops growing at most
    else:
        races = limit // (per_race + presets)
    return max(MIN_RACES, min(races, MAX_RACES, MAX_PROFILE_RACES))


def check_profile_cost(track: Any, options: Any, races: int, reference: int) -> None:
    """Refuse, before any race, a profile of ``races`` races on ``track`` beside
    ``reference`` races of each reference track when together they cost more than the limit in
    force (a :class:`~trackkit.limits.CostLimitError` saying so)."""
    per_race = _race_cost(track.to_toml(), options.players, track, options, _planning(options))
    cost = races * per_race + reference * reference_cost(options)
    doing = (
        f"{races:,} races of {options.players} players on {shown(track.name)} and "
        f"{reference:,} on each track of the average track it is measured against"
    )
    SIMULATION_COST.check(cost, doing)


def races_help(most: int) -> str:
    """The Races input's help: why it stops at ``most``."""
    return (
        f"At most {most:,} here: one run may cost {SIMULATION_COST.value():,} race steps "
        "(races × players × squares or spaces of the board), so that it takes seconds."
    )


def keep_within(most: int, *keys: str) -> None:
    """Lower a remembered Races value above ``most`` (the players or the board changed)
    before its input is drawn."""
    for name in keys:
        value = st.session_state.get(name)
        if isinstance(value, int | float) and value > most:
            st.session_state[name] = most


@dataclass(frozen=True)
class RacesAsked:
    """The races a page asks for: ``races`` races of ``track`` with ``options`` from
    ``seed``, race 0 recorded by ``record(track, options, seed=seed)``."""

    track: Any
    options: Any
    races: int
    seed: int
    record: Callable[..., Any]


def cached_run(
    cache: dict[Any, tuple[Any, Any, Any]],
    keep: int,
    key: Any,
    asked: RacesAsked,
    start: bool,
    *,
    then: Callable[[Any], Any] | None = None,
    reference: int = 0,
) -> tuple[Any, Any, Any] | None:
    """The run kept under ``key``, or the one going or started now (``start``: the page's
    button was pressed): the races ``asked`` for, race 0 recorded, and ``then(result)``
    (more work on the races' result, e.g. the Race page's profile; None without), kept in
    ``cache`` as ``(result, record, then's answer)`` (the oldest of ``keep`` runs goes
    first). When ``then`` races ``reference`` races on each reference track, they count
    with the run's against the limit. None, with the reason shown, when there is none yet
    or the races cannot run."""
    if key in cache:
        return cache[key]
    track, options, races, seed = asked.track, asked.options, asked.races, asked.seed
    if start:
        try:  # refused before a run starts: it would not take a slot, even for a moment
            per_race = _race_cost(
                track.to_toml(), options.players, track, options, _planning(options)
            )
            check_cost(track, options, races, per_race)
            if reference:
                check_profile_cost(track, options, races, reference)
        except TrackkitError as error:
            st.error(str(error))
            return None

    def work(progress: Progress) -> None:
        result = simulate(track, options, races=races, seed=seed, progress=progress)
        recorded = asked.record(track, options, seed=seed)
        after = then(result) if then is not None else None
        progress(races, races)  # cancelled while the rest was done: keep nothing
        with _CACHE_LOCK:
            while len(cache) >= keep:
                cache.pop(next(iter(cache)))
            cache[key] = (result, recorded, after)

    heavy_run("the races", "races", key, start, work)
    return cache.get(key)


_CACHE_LOCK = threading.Lock()
