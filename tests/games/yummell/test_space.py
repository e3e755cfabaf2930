"""The design space as a ranked, streamable, uniformly samplable space of tracks."""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import tracemalloc
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from trackkit.errors import TrackkitError
from trackkit.games import load_tileset
from trackkit.games.tilekit.geometry import Side
from trackkit.games.tilekit.tiles import TileSet
from trackkit.games.tilekit.track import Placement, Track
from trackkit.games.yummell.core.check import (
    Step,
    building_tree,
    explore_design_space,
    next_placements,
    orientations,
)
from trackkit.games.yummell.core.presets import load_preset
from trackkit.games.yummell.core.ruleset import RULESET
from trackkit.games.yummell.core.space import TrackSpace, generate
from trackkit.validate import validate

ROOT = Path(__file__).resolve().parents[3]
SPEC = {3: 2_676, 4: 26_640, 5: 210_240, 6: 1_244_160, 7: 4_838_400, 8: 9_400_320}


@pytest.mark.parametrize("players", sorted(SPEC))
def test_the_size_is_the_specs(players: int) -> None:
    """SPEC.md §2 (building the space takes milliseconds, so every count is checked)."""
    assert len(TrackSpace(players)) == SPEC[players]


@pytest.mark.parametrize("players", range(2, 9))
def test_the_size_is_the_design_space_count(tileset: TileSet, players: int) -> None:
    space = TrackSpace(players, tileset)
    assert len(space) == explore_design_space(players, tileset).legal_tracks
    assert space.players == players and space.tileset is tileset


def test_the_order_is_the_depth_first_walk_of_next_placements(tileset: TileSet) -> None:
    """Every 3-player track, in the order the rule's own next_placements lists them (path
    tiles in tile-set order, then rotations in ROTATIONS order; the finish last)."""
    walked: list[tuple[Placement, ...]] = []

    def walk(track: Track) -> None:
        for option in next_placements(track, tileset, players=3):
            if not option.legal or option.completable is False:
                continue
            longer = track.placed(option.placement)
            if option.placement.tile == tileset.finish.number:
                walked.append(longer.placements)
            else:
                walk(longer)

    walk(Track("t", (Placement(tileset.start.number, 0, 0, 0),)))
    assert [track.placements for _, track in TrackSpace(3, tileset).tracks()] == walked


def test_every_rank_of_a_small_space_round_trips() -> None:
    space = TrackSpace(3)
    seen = set()
    for rank, streamed in space.tracks():
        track = space.track(rank)
        assert track == streamed and space.rank(track) == rank
        assert track.name == f"3-player track #{rank}" and track.game == "yummell"
        seen.add(track.placements)
    assert len(seen) == len(space)


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_generated_tracks_pass_every_check(players: int) -> None:
    space = TrackSpace(players)
    draws = random.Random(players).sample(range(len(space)), 60)
    for rank in [0, len(space) - 1, *draws]:
        track = space.track(rank)
        assert not RULESET.check_track(track, players=players).problems, rank
        assert validate(track, players=players).ok
        assert track.placements[0] == Placement(1, 0, 0, 0)
        assert track.placements[-1].tile == 2
        assert space.track(rank) == track  # equal ranks give equal tracks


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 8), st.floats(0, 1, exclude_max=True))
def test_a_random_rank_gives_a_legal_track_of_that_rank(players: int, where: float) -> None:
    space = TrackSpace(players)
    rank = int(where * len(space))
    track = space.track(rank)
    assert space.rank(track) == rank
    assert not RULESET.check_track(track, players=players).problems


@pytest.mark.parametrize(
    ("players", "start", "stop"),
    [(3, 0, 40), (3, 2_600, 2_676), (5, 100_000, 100_300), (8, 4_700_000, 4_700_150)],
)
def test_streaming_a_slice_gives_the_tracks_of_those_ranks(
    players: int, start: int, stop: int
) -> None:
    space = TrackSpace(players)
    streamed = list(space.tracks(start, stop))
    assert streamed == [(rank, space.track(rank)) for rank in range(start, stop)]


def test_slices_past_the_end_or_empty() -> None:
    space = TrackSpace(3)
    assert [rank for rank, _ in space.tracks(2_670, 10**9)] == list(range(2_670, 2_676))
    assert list(space.tracks(10, 10)) == [] and list(space.tracks(3_000)) == []
    with pytest.raises(TrackkitError, match="cannot be < 0"):
        list(space.tracks(-1))


@pytest.mark.slow  # 22,000 tracks streamed under tracemalloc: about 3 s
def test_streaming_does_not_grow_with_the_number_of_tracks() -> None:
    space = TrackSpace(8)

    def peak(count: int) -> int:
        gc.collect()  # garbage of earlier tests is not this stream's
        tracemalloc.start()
        for _ in space.tracks(1_000_000, 1_000_000 + count):
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    peak(
        2_000
    )  # caches filled on first use (in a full run, perhaps by another test) are not growth
    # holding 20,000 tracks would take megabytes; a stream holds one at a time
    assert peak(20_000) < 2 * peak(2_000) + 100_000


def test_rank_refuses_a_track_outside_the_space(tileset: TileSet) -> None:
    space = TrackSpace(4)
    track = space.track(1234)
    with pytest.raises(TrackkitError, match="fixes the start"):
        space.rank(load_preset("first-run"))  # its start tile is elsewhere
    moved = tuple(replace(p, x=p.x + 1) for p in track.placements)
    with pytest.raises(TrackkitError, match="fixes the start"):
        space.rank(replace(track, placements=moved))
    with pytest.raises(TrackkitError, match="a 3-player track has 5"):
        TrackSpace(3).rank(track)  # a 4-player track
    repeated = list(track.placements)
    repeated[3] = replace(repeated[3], tile=repeated[2].tile)  # a tile placed twice
    with pytest.raises(TrackkitError, match="placement 4 .* is not a legal next placement"):
        space.rank(replace(track, placements=tuple(repeated)))
    finish = track.placements[-1]
    wrong_finish = (*track.placements[:-1], replace(finish, rotation=(finish.rotation + 90) % 360))
    with pytest.raises(TrackkitError, match="the finish goes last"):
        space.rank(replace(track, placements=wrong_finish))
    with pytest.raises(TrackkitError, match="not a Yummell one"):
        space.rank(replace(track, game="snowtails"))


def test_rank_refuses_a_dead_end() -> None:
    space = TrackSpace(5)
    with pytest.raises(TrackkitError, match="dead end"):
        space.rank(_a_dead_end_track(space))


def _a_dead_end_track(space: TrackSpace) -> Track:
    """A 5-player track whose path tiles obey the rule at every step, one of them leaving
    the tiles left no way to go on (tiles after it only make up the count)."""
    tree = building_tree(space.players, space.tileset)

    def search(
        cell: tuple[int, int],
        entry: Side,
        shape: tuple[Step, ...],
        occupied: frozenset[tuple[int, int]],
        used: frozenset[int],
        placed: list[Placement],
    ) -> list[Placement] | None:
        for option in tree.options(cell, entry, occupied, used, shape):
            step = [*placed, Placement(option.tile, *cell, option.rotation)]
            if option.completions == 0:
                return step
            found = search(
                option.cell,
                option.entry,
                option.shape,
                occupied | {option.cell},
                used | {option.tile},
                step,
            )
            if found:
                return found
        return None

    start = [Placement(1, 0, 0, 0)]
    placed = search(
        tree.first, tree.first_entry, (), frozenset({(0, 0), tree.first}), frozenset(), start
    )
    assert placed is not None
    filler = [Placement(2, 50 + n, 50, 0) for n in range(tree.wanted + 2 - len(placed))]
    return Track("dead end", (*placed, *filler))


def test_ranks_out_of_range_and_bad_numbers_are_refused() -> None:
    space = TrackSpace(3)
    for wrong in (-1, 2_676):
        with pytest.raises(TrackkitError, match="ranked 0 to 2,675"):
            space.track(wrong)
    with pytest.raises(TrackkitError, match="whole number"):
        space.track(True)
    with pytest.raises(TrackkitError, match="whole number"):
        space.track(1.5)  # type: ignore[arg-type]
    with pytest.raises(TrackkitError, match="only 2,676 legal tracks"):
        space.sample_ranks(3_000, seed=1, distinct=True)
    with pytest.raises(TrackkitError, match="from 0 up"):
        space.sample_ranks(3, seed=-1)
    with pytest.raises(TrackkitError, match="2 to 8 players"):
        TrackSpace(9)


def test_sampling_is_reproducible_and_distinct_when_asked() -> None:
    space = TrackSpace(8)
    assert space.sample_ranks(500, seed=3) == space.sample_ranks(500, seed=3)
    assert space.sample_ranks(500, seed=3) != space.sample_ranks(500, seed=4)
    tracemalloc.start()
    distinct = space.sample_ranks(50_000, seed=5, distinct=True)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(set(distinct)) == 50_000 and all(0 <= r < len(space) for r in distinct)
    assert peak < 20_000_000  # a set of what was drawn, never the 9.4 million ranks
    assert space.sample(20, seed=9) == [space.track(r) for r in space.sample_ranks(20, seed=9)]
    assert generate(8, 20, seed=9) == space.sample(20, seed=9)


@pytest.mark.slow  # a process of its own: about 2 s
def test_the_same_seed_gives_the_same_ranks_in_another_process() -> None:
    code = (
        "import json; from trackkit.games.yummell.core.space import TrackSpace; "
        "s = TrackSpace(7); print(json.dumps([s.sample_ranks(200, 11), "
        "s.sample_ranks(200, 11, distinct=True)]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    space = TrackSpace(7)
    expected = [space.sample_ranks(200, 11), space.sample_ranks(200, 11, distinct=True)]
    assert json.loads(done.stdout) == expected


def test_a_custom_tile_set_goes_with_its_tracks(tile_folder: Path) -> None:
    tileset = load_tileset(tile_folder)
    space = RULESET.track_space(4, tileset)
    track = space.track(500)
    assert track.tileset == tile_folder
    assert validate(track, players=4).ok and space.rank(track) == 500
    assert TrackSpace(4).track(500).tileset is None  # the bundled tiles need no folder


# --- uniformity ---------------------------------------------------------------------------

# The check: draws of 3-player tracks counted per track (all 2,676) and per finish cell (7
# cells), each with a chi-square test. A sampler that picks uniformly among the placing
# choices at each step is at most 9% off per track, too little for 2,676 cells to show
# without millions of draws; its bias gathers by where the path ends, which 200,000 draws
# show. The check passes when both p-values exceed 0.001.
DRAWS = 200_000


def _p_values(drawn: list[tuple[Placement, ...]], space: TrackSpace) -> tuple[float, float]:
    every = [track.placements for _, track in space.tracks()]
    counts = Counter(drawn)
    assert set(counts) <= set(every), "a draw is not a legal track"
    per_track = chisquare([counts[placements] for placements in every]).pvalue
    finish_share = Counter(placements[-1].cell for placements in every)
    finish_drawn = Counter(placements[-1].cell for placements in drawn)
    cells = sorted(finish_share)
    expected = [finish_share[cell] * len(drawn) / len(every) for cell in cells]
    per_finish = chisquare([finish_drawn[cell] for cell in cells], expected).pvalue
    return float(per_track), float(per_finish)


def test_sampling_is_uniform_over_tracks() -> None:
    space = TrackSpace(3)
    by_rank = [track.placements for _, track in space.tracks()]
    # sample() is track(rank) of sample_ranks(), checked above; the table saves the time
    drawn = [by_rank[rank] for rank in space.sample_ranks(DRAWS, seed=2024)]
    assert len(set(drawn)) == len(space)
    assert min(_p_values(drawn, space)) > 0.001


def _step_by_step(space: TrackSpace, count: int, seed: int) -> list[tuple[Placement, ...]]:
    """A deliberately biased sampler: at each step, any legal placement that can still be
    completed, all equally likely (so tracks below fewer choices come up more often)."""
    tree = building_tree(space.players, space.tileset)
    finish = space.tileset.finish
    choices: dict[tuple[Placement, ...], list[tuple[Placement, ...]]] = {}

    def after(placed: tuple[Placement, ...]) -> list[tuple[Placement, ...]]:
        """The tracks one step longer than ``placed`` (the finish added after the last)."""
        cell, entry, shape = tree.first, tree.first_entry, ()
        occupied, used = {(0, 0), cell}, set()
        for placement in placed[1:]:  # replay the steps to where the path stands
            option = next(
                o
                for o in tree.options(cell, entry, occupied, used, shape)
                if (o.tile, o.rotation) == (placement.tile, placement.rotation)
            )
            used.add(option.tile)
            cell, entry, shape = option.cell, option.entry, option.shape
            occupied.add(cell)
        if len(placed) == tree.wanted + 1:
            [(rotation, _)] = orientations(finish, entry)
            return [(*placed, Placement(finish.number, *cell, rotation))]
        return [
            (*placed, Placement(o.tile, *cell, o.rotation))
            for o in tree.options(cell, entry, occupied, used, shape)
            if o.completions
        ]

    generator = random.Random(seed)
    drawn = []
    for _ in range(count):
        placed: tuple[Placement, ...] = (Placement(1, 0, 0, 0),)
        while len(placed) < tree.wanted + 2:
            if placed not in choices:
                choices[placed] = after(placed)
            placed = generator.choice(choices[placed])
        drawn.append(placed)
    return drawn


@pytest.mark.slow  # checks the check of test_sampling_is_uniform_over_tracks: about 3 s
def test_the_uniformity_check_catches_a_step_by_step_sampler() -> None:
    space = TrackSpace(3)
    drawn = _step_by_step(space, DRAWS, seed=2024)
    assert min(_p_values(drawn, space)) < 0.001
