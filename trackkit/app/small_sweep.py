"""The Explore page's small sweep: with no sweep to explore (or none for the page's
player count), a uniform sample of the legal tracks for that count, profiled in a process
of its own (:mod:`trackkit.app.child`) with progress and a Cancel button."""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from trackkit.app import common
from trackkit.app.child import run_small_sweep
from trackkit.app.runs import Progress, heavy_run, heavy_runs, session_id
from trackkit.errors import TrackkitError
from trackkit.explore.profile import REFERENCE_TRACKS, reference_tracks
from trackkit.games import get_ruleset
from trackkit.games.face import games_with
from trackkit.limits import SWEEP_RACES

# 70 tracks × 2,000 races and the 30 of the average track every balance is measured against
# × 2,000: 200,000 races, the app's sweep limit; some seconds on two cores. Its players: the
# page's count (within the building rule's), "players" without one
SMALL_SWEEP = {"players": 4, "sample": 70, "races": 2_000}


def explored() -> str:
    """The game whose legal tracks this page explores: the first with a track space."""
    return games_with("track_space")[0]


def offer_small_sweep(root: Path) -> None:
    """A button that sweeps a uniform sample of the tracks for the page's player count
    into a folder of this visitor's own under ``root`` (two visitors sweeping at once must
    not share one), off the script thread with progress and a Cancel button
    (:func:`~trackkit.app.runs.heavy_run`)."""
    size, players = SMALL_SWEEP, small_sweep_players(common.players())
    legal = len(get_ruleset(explored()).track_space(players))
    st.write(
        f"A small sweep profiles {size['sample']} of the {legal:,} legal {players}-player "
        f"tracks, drawn uniformly, with {size['races']:,} races each, and races the "
        f"{REFERENCE_TRACKS} tracks of the average track as often (every balance is measured "
        f"against it): {small_sweep_races(players):,} races in all, within the app's limit of "
        f"{SWEEP_RACES.value():,} for a sweep. For 4 players about ten seconds on two cores "
        "(the first run on a new machine also compiles the race engine)."
    )
    start = st.button("Run a small sweep", icon=":material/play_arrow:", key="explore-run")
    if start:
        try:
            SWEEP_RACES.check(small_sweep_races(players), "the small sweep with its average track")
        except TrackkitError as error:
            st.error(str(error))
            return
        common.editor(explored()).ready()
    folder = small_sweep_folder(root, session_id(), players)

    def work(progress: Progress) -> None:
        # in a process of its own: run in the server's, the sweep's threads stalled the
        # other visitors (trackkit.app.child)
        run_small_sweep(folder, players, size["sample"], size["races"], progress)

    going = heavy_runs().current(session_id())
    if not start and (going is None or going.key != folder):
        return  # another run of this visitor's (a profile) is followed where it was started
    run = heavy_run("the small sweep", "tracks", folder, start, work)
    if run is not None and run.state == "finished":
        for key in ("explore-sweep", "kept:explore-sweep"):  # the new sweep is chosen
            st.session_state.pop(key, None)
        st.rerun()


def small_sweep_players(count: int | None) -> int:
    """The small sweep's players: ``count`` (the page's) brought within the building
    rule's bounds, :data:`SMALL_SWEEP`'s without one."""
    if count is None:
        return SMALL_SWEEP["players"]
    bounds = get_ruleset(explored()).players
    return min(max(count, bounds.build_min), bounds.build_max)


def small_sweep_races(players: int | None = None) -> int:
    """The races of the small sweep of ``players`` (default :data:`SMALL_SWEEP`'s) in all:
    its tracks' and its average track's (the reference), each raced as often."""
    size = SMALL_SWEEP
    average = len(reference_tracks(get_ruleset(explored()), players or size["players"]))
    return (size["sample"] + average) * size["races"]


def small_sweep_folder(root: Path, session: str, players: int | None = None) -> Path:
    """The small sweep's folder of ``players`` (default :data:`SMALL_SWEEP`'s) for the
    visitor of ``session``: named after the sweep and a short digest of the session (not
    the session itself, which the folder name would show to every visitor)."""
    size = SMALL_SWEEP
    visitor = hashlib.sha256(session.encode()).hexdigest()[:10]
    return root / f"{players or size['players']}p-sample{size['sample']}-{visitor}"
