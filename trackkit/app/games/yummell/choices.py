"""What Yummell's pages share: the choice of the track to analyse (the design, a preset or
a file), the building rule's warning, and waiting for the race engine to compile."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trackkit.app import common
from trackkit.app.choices import kept
from trackkit.app.common import tiles
from trackkit.app.fairness import plain
from trackkit.app.games.yummell.state import design, open_design, read_upload
from trackkit.games.tilekit.track import Track
from trackkit.games.yummell import GAME, PLAYERS
from trackkit.games.yummell.core.presets import PRESET_SLUGS, load_preset
from trackkit.games.yummell.core.warmup import start_warmup
from trackkit.validate import validate

CURRENT = "Current design"
PRESET = "Preset"
UPLOAD = "Upload a track file"

# app.py imports the pages, and so this module, when the server runs its first session:
# the engine starts compiling then, in a child process, long before anyone asks for a race
start_warmup()


def building_rule_applies(players: int) -> bool:
    """Whether the rulebook's track-building rule has a count for ``players``."""
    return PLAYERS.build_min <= players <= PLAYERS.build_max


def building_rule_problems(track: Track, players: int) -> tuple[Any, ...]:
    """What ``track`` breaks under the building rule for ``players`` (nothing when the rule
    has no count for them)."""
    if not building_rule_applies(players):
        return ()
    return validate(track, tiles(track.tileset), players).problems


def warn_if_illegal(tracks: list[Track], players: int) -> None:
    """A warning naming the ``tracks`` that the building rule for ``players`` forbids, and
    the first rule each breaks: they are raced all the same."""
    broken = {t.name: building_rule_problems(t, players) for t in tracks}
    lines = [
        f"- **{plain(name)}**: {problems[0].sentence}"
        for name, problems in broken.items()
        if problems
    ]
    if not lines:
        return
    if len(tracks) == 1:
        which = "This track is"
    else:
        which = "One of these tracks is" if len(lines) == 1 else f"{len(lines)} of these tracks are"
    st.warning(
        f"{which} not legal under the building rule for {players} players (the rulebook's "
        "rule that sets the track's path tiles by the count of players); raced all the "
        "same:\n\n" + "\n".join(lines),
        icon=":material/rule:",
    )


def current_design() -> tuple[Track | None, str]:
    """The design being edited when it is a complete, valid track, else None and why not."""
    track = design().track
    if not track.placements:
        return None, "the Design page's table is empty"
    try:
        report = validate(track, tiles(track.tileset))  # the design's own tile set
    except Exception:  # a design the validator cannot read is one we cannot race either
        return None, "the design on the Design page cannot be read"
    if not report.ok:
        return None, (
            f"the design on the Design page is not a complete, valid track yet "
            f"({len(report.problems)} problem(s)); finish it there"
        )
    return track, ""


def choose_track(key: str) -> Track | None:
    """The track to analyse: the design being edited by default (when it is a complete,
    valid track, else the first preset, saying why), a preset or an uploaded file."""
    mine, why_not = current_design()
    source_key, chosen_key = f"{key}-source", f"kept:{key}-source-chosen"
    # the person's own choice wins; unchosen, the design when it can be raced
    wanted = st.session_state.get(chosen_key, CURRENT)
    usable = PRESET if wanted == CURRENT and mine is None else wanted
    st.session_state[source_key] = usable  # before the radio is drawn: allowed, and kept
    source = st.radio(
        "Track",
        [CURRENT, PRESET, UPLOAD],
        horizontal=True,
        key=source_key,
        on_change=lambda: st.session_state.__setitem__(chosen_key, st.session_state[source_key]),
    )
    if source == CURRENT:
        return mine
    if source == PRESET:
        if mine is None:
            st.caption(f"A preset, because {why_not}.")
        slug = kept(
            st.selectbox,
            "Preset",
            f"{key}-preset",
            PRESET_SLUGS[0],
            options=PRESET_SLUGS,
            format_func=lambda s: load_preset(s).name,
        )
        return load_preset(slug)
    upload = st.file_uploader("Track file (.toml)", type=["toml"], key=f"{key}-upload")
    if upload is not None:
        track = read_upload(upload)
        st.session_state[f"kept:{key}-uploaded"] = track
        return track
    earlier = st.session_state.get(f"kept:{key}-uploaded")
    if earlier is not None:  # the file chosen before a page switch emptied the uploader
        st.caption(f"Using {earlier.name}, uploaded earlier.")
    return earlier


def wait_for_engine() -> None:
    """Wait, saying so with the time elapsed, while the race engine compiles."""
    warmup = start_warmup()
    if warmup.done:
        return
    note = st.empty()
    note.info(warmup.message(), icon=":material/hourglass_top:")
    while not warmup.wait(timeout=1.0):
        note.info(warmup.message(), icon=":material/hourglass_top:")
    if warmup.error:  # the race compiles the engine itself (numba's own fallback)
        note.warning(f"{warmup.error}. The first race compiles it now: this takes minutes.")
    else:
        note.caption(
            f"The race engine was compiled in {warmup.elapsed:.0f} s; "
            "later races on this machine start at once."
        )


common.edits(GAME, common.Editor(open_design, current_design, wait_for_engine, "design"))
