"""The Explore page's small sweep: with no sweep to explore (or none for the page's
player count), a uniform sample of the game's legal tracks for that count (a space whose
ranks are not all legal, Snow Tails', draws among its legal designs by rejection:
``space.sample_ranks``), profiled in a process of its own (:mod:`trackkit.app.child`)
with progress and a Cancel button."""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from trackkit.app import common
from trackkit.app.child import run_small_sweep
from trackkit.app.explore_map import widget_key
from trackkit.app.runs import Progress, heavy_run, heavy_runs, session_id
from trackkit.errors import TrackkitError
from trackkit.explore.fairness import reference_words
from trackkit.explore.profile import reference_tracks
from trackkit.explore.sweep_plan import space_of
from trackkit.games import get_ruleset
from trackkit.games.face import look_of
from trackkit.limits import SWEEP_RACES

# 70 tracks × 2,000 races and the tracks of the average track every balance is measured
# against (Yummell's 30) × 2,000: at most 200,000 races, the app's sweep limit; some seconds
# on two cores. Its players: the page's count (within the building rule's), "players"
# without one
SMALL_SWEEP = {"players": 4, "sample": 70, "races": 2_000}


def page_players(game: str | None = None) -> int | None:
    """The player count chosen on a page of ``game`` in this session (each game keeps
    one for its pages, :func:`~trackkit.app.choices.players_slider`)."""
    key = f"{look_of(game).address}{common.PLAYERS_KEY}"
    count = st.session_state.get(key, st.session_state.get(f"kept:{key}"))
    return None if count is None else int(count)


@st.cache_data(max_entries=16, show_spinner="Counting the legal tracks…")
def legal_count(game: str, players: int) -> tuple[int, bool]:
    """The legal tracks of ``game``'s space for ``players`` and whether that count is an
    estimate (counted once: an estimate races nothing but checks hundreds of designs)."""
    return space_of(game, players).legal_count()


def offer_small_sweep(root: Path, game: str | None = None) -> None:
    """A button that sweeps a uniform sample of ``game``'s tracks (None: the first game's)
    for the page's player count into a folder of this visitor's own under ``root`` (two
    visitors sweeping at once must not share one), off the script thread with progress
    and a Cancel button (:func:`~trackkit.app.runs.heavy_run`)."""
    ruleset = get_ruleset(game)
    size, players = SMALL_SWEEP, small_sweep_players(page_players(ruleset.name), ruleset.name)
    legal, estimate = legal_count(ruleset.name, players)
    st.write(
        f"A small sweep profiles {size['sample']} of {'about' if estimate else 'the'} "
        f"{legal:,} legal {players}-player tracks, drawn uniformly, with {size['races']:,} "
        f"races each, and races the average track as often ({reference_words(ruleset, players)}"
        f"; every balance is measured against it): {small_sweep_races(players, ruleset.name):,} "
        f"races in all, within the app's limit of {SWEEP_RACES.value():,} for a sweep. About "
        "ten seconds on two cores (the first run on a new machine also compiles the race "
        "engine)."
    )
    start = st.button(
        "Run a small sweep", icon=":material/play_arrow:", key=widget_key(ruleset.name, "run")
    )
    if start:
        try:
            races = small_sweep_races(players, ruleset.name)
            SWEEP_RACES.check(races, "the small sweep with its average track")
        except TrackkitError as error:
            st.error(str(error))
            return
        common.editor(ruleset.name).ready()
    folder = small_sweep_folder(root, session_id(), players, ruleset.name)

    def work(progress: Progress) -> None:
        # in a process of its own: run in the server's, the sweep's threads stalled the
        # other visitors (trackkit.app.child)
        run_small_sweep(folder, players, size["sample"], size["races"], progress, ruleset.name)

    going = heavy_runs().current(session_id())
    if not start and (going is None or going.key != folder):
        return  # another run of this visitor's (a profile) is followed where it was started
    run = heavy_run("the small sweep", "tracks", folder, start, work)
    if run is not None and run.state == "finished":
        chosen = widget_key(ruleset.name, "sweep")
        for key in (chosen, f"kept:{chosen}"):  # the new sweep is chosen
            st.session_state.pop(key, None)
        st.rerun()


def small_sweep_players(count: int | None, game: str | None = None) -> int:
    """The small sweep's players: ``count`` (the page's) brought within the building
    rule's bounds of ``game``, :data:`SMALL_SWEEP`'s without one."""
    if count is None:
        return SMALL_SWEEP["players"]
    bounds = get_ruleset(game).players
    return min(max(count, bounds.build_min), bounds.build_max)


def small_sweep_races(players: int | None = None, game: str | None = None) -> int:
    """The races of the small sweep of ``game`` for ``players`` (default
    :data:`SMALL_SWEEP`'s) in all: its tracks' and its average track's (the reference),
    each raced as often."""
    size = SMALL_SWEEP
    average = len(reference_tracks(get_ruleset(game), players or size["players"]))
    return (size["sample"] + average) * size["races"]


def small_sweep_folder(
    root: Path, session: str, players: int | None = None, game: str | None = None
) -> Path:
    """The small sweep's folder of ``game`` and ``players`` (default :data:`SMALL_SWEEP`'s)
    for the visitor of ``session``: named after the sweep (beginning as the game's pages'
    addresses do) and a short digest of the session (not the session itself, which the
    folder name would show to every visitor)."""
    size = SMALL_SWEEP
    visitor = hashlib.sha256(session.encode()).hexdigest()[:10]
    name = f"{players or size['players']}p-sample{size['sample']}-{visitor}"
    return root / f"{look_of(game).address}{name}"
