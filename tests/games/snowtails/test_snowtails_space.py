"""Snow Tails' design space: drawing, naming, legality and the uniformity of the draw."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.check import validate_track
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.race import simulate
from trackkit.games.snowtails.core.space import (
    Design,
    SnowDesignCodec,
    SnowSpace,
    SnowTrackSpace,
    features,
    from_key,
    key,
)
from trackkit.games.snowtails.core.track import SnowTrack, parse_track_toml

SPACE = SnowSpace()  # shared: its legality cache keeps the tests quick
# a tiny space every raw design of which is enumerated: 2 courses, 0 or 1 tree, with or
# without a Bothy (a tree on the Bothy is illegal): 320 raw designs, 312 legal
TINY = SnowSpace(
    pieces=(1,),
    lanes=(4,),
    directions=("forward",),
    trees=(0, 1),
    buildings=("none", "bothy"),
    kinds="SL",
)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_sampled_keys_reopen_the_design(seed: int) -> None:
    for design in SPACE.sample(2, seed):
        assert from_key(key(design)) == design
        assert SPACE.from_key(SPACE.key(design)) == design


def test_every_sampled_design_is_legal_and_its_file_reads_back() -> None:
    for design in SPACE.sample(15, seed=7):
        track = SPACE.track(design)
        assert isinstance(track, SnowTrack)
        assert validate_track(track).ok
        again = parse_track_toml(track.to_toml(), source="again")
        assert validate_track(again).ok


def test_a_sampled_design_races() -> None:
    track = SPACE.track(SPACE.sample(1, seed=11)[0])
    result = simulate(track, RaceOptions(players=3), races=4, seed=1)
    assert result.placing.shape == (4, 3)


def test_same_seed_same_sample_in_another_process() -> None:
    here = [key(d) for d in SPACE.sample(5, seed=42)]
    assert here == [key(d) for d in SnowSpace().sample(5, seed=42)]
    code = (
        "from trackkit.games.snowtails.core.space import SnowSpace, key;"
        "print(' '.join(key(d) for d in SnowSpace().sample(5, seed=42)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == here
    assert here != [key(d) for d in SPACE.sample(5, seed=43)]


def test_the_draw_is_uniform_over_the_legal_designs_of_a_tiny_space() -> None:
    legal = [TINY.design(r) for r in range(TINY.raw_count) if TINY.legal(TINY.design(r))]
    assert (TINY.raw_count, len(legal), TINY.count(), TINY.count_is_estimate) == (
        320,
        312,
        312,
        False,
    )
    draws = Counter(TINY.sample(len(legal) * 10, seed=2026))
    assert set(draws) <= set(legal)
    assert chisquare([draws[d] for d in legal]).pvalue > 0.001


def test_the_uniformity_check_catches_a_skewed_draw() -> None:
    """The same test over a draw skewed to low ranks (the lesser of two uniform ranks)."""
    legal = [TINY.design(r) for r in range(TINY.raw_count) if TINY.legal(TINY.design(r))]
    rng = random.Random(2026)
    draws: Counter[Design] = Counter()
    while sum(draws.values()) < len(legal) * 10:
        design = TINY.design(min(rng.randrange(TINY.raw_count) for _ in range(2)))
        draws[design] += TINY.legal(design)
    assert chisquare([draws[d] for d in legal]).pvalue < 0.001


def test_ranks_decode_to_distinct_designs() -> None:
    designs = [TINY.design(r) for r in range(TINY.raw_count)]
    assert len(set(designs)) == TINY.raw_count
    with pytest.raises(TrackkitError):
        TINY.design(TINY.raw_count)


@pytest.mark.slow  # validates 400 drawn tracks: about 3 s
def test_a_large_space_estimates_its_count_and_says_so() -> None:
    assert SPACE.raw_count == 1_585_304_052
    assert 0 < SPACE.count() <= SPACE.raw_count
    assert SPACE.count_is_estimate


@pytest.mark.parametrize(
    "text",
    [
        "",
        "4f-S-t-none-x",
        "4x-S-t-none",
        "4f-Q-t-none",
        "4f-S-t2.1-none",
        "4f-S-3-none",
        "4f-S-t-hut",
        "Xf-S-t-none",
    ],
)
def test_a_malformed_key_is_refused(text: str) -> None:
    with pytest.raises(TrackkitError):
        from_key(text)


def test_a_space_with_unknown_parameters_is_refused() -> None:
    with pytest.raises(TrackkitError, match="hut"):
        SnowSpace(buildings=("hut",))


def test_features_count_the_course() -> None:
    found = features(Design(5, "reversed", "LlT", (1, 2), "tavern"))
    assert found["lanes"] == 5 and found["trees"] == 2 and found["buildings"] == 1
    assert (found["corners"], found["tight_corners"], found["straight_rows"]) == (1, 1, 24)
    # grid 6×5 + corner 2..6 + hairpin 3,5,..,11 + 8×5 + sprint 10×5
    assert found["spaces"] == 30 + 20 + 35 + 40 + 50


# --- the space as a sweep, generate and the search use it ----------------------------------

SPACE = SnowSpace()


@settings(max_examples=200, deadline=None)
@given(rank=st.integers(0, SnowSpace().raw_count - 1))
def test_a_design_ranks_back_to_its_rank(rank: int) -> None:
    assert SPACE.rank(SPACE.design(rank)) == rank


def test_a_design_outside_the_space_has_no_rank() -> None:
    with pytest.raises(TrackkitError, match="not a design of this space"):
        TINY.rank(Design(4, "forward", "SSSS"))
    with pytest.raises(TrackkitError, match="not a design of this space"):
        SnowSpace().rank(Design(4, "forward", "S", (10_000,)))


def test_the_sweeps_draw_is_uniform_over_the_legal_ranks_of_a_tiny_space() -> None:
    space = SnowTrackSpace(5, TINY)
    legal = [r for r in range(len(space)) if TINY.legal(TINY.design(r))]
    draws = Counter(space.sample_ranks(len(legal) * 10, seed=7))
    assert set(draws) <= set(legal)
    assert chisquare([draws[r] for r in legal]).pvalue > 0.001
    distinct = space.sample_ranks(len(legal), seed=7, distinct=True)
    assert sorted(distinct) == legal  # every legal design once
    with pytest.raises(TrackkitError, match="312 legal designs"):
        space.sample_ranks(len(legal) + 1, seed=7, distinct=True)


def test_an_illegal_rank_is_no_track_and_is_skipped_when_streamed() -> None:
    space = SnowTrackSpace(5, TINY)
    illegal = next(r for r in range(len(space)) if not TINY.legal(TINY.design(r)))
    with pytest.raises(TrackkitError, match="not a legal design"):
        space.track(illegal)
    ranks = [rank for rank, _ in space.tracks()]
    assert illegal not in ranks and len(ranks) == TINY.count()


@settings(max_examples=100, deadline=None)
@given(rank=st.integers(0, SPACE.raw_count - 1), seed=st.integers(0, 2**32 - 1))
def test_a_neighbour_differs_in_one_thing_a_designer_changes(rank: int, seed: int) -> None:
    before = SPACE.design(rank)
    after = SPACE.neighbour(before, random.Random(seed))
    if after is None:
        return
    assert after != before and SPACE.rank(after) >= 0  # a design of the space
    course = [
        before.lanes != after.lanes,
        before.direction != after.direction,
        before.pieces != after.pieces,
        before.building != after.building,
    ]
    if any(course):
        # one course change; trees that no longer fit the course are dropped
        assert sum(course) == 1 and set(after.trees) <= set(before.trees)
    else:
        # a tree moved, added or taken away
        assert len(set(before.trees) ^ set(after.trees)) in (1, 2)


def test_a_mutation_is_a_legal_design_near_its_parent() -> None:
    import numpy as np

    space = SnowTrackSpace(5)
    rng = np.random.default_rng(4)
    for parent in space.sample_ranks(20, seed=4):
        child = space.mutate(parent, rng)
        assert child != parent and space.designs.legal(space.designs.design(child))


def test_a_rows_design_reads_back_as_its_track() -> None:
    space = SnowTrackSpace(5)
    codec = SnowDesignCodec()
    for rank in space.sample_ranks(5, seed=3):
        track = space.track(rank)
        again = codec.track(codec.decode(space.design_text(rank, track)), track.name, None)
        assert again == track
    for bad in ("", "5f-X-t-none", "x" * 500, "5f-S-t-none-extra"):
        with pytest.raises(ValueError, match="design key"):
            codec.decode(bad)
