"""Snow Tails behind the ruleset interface: what a batch reports adds up."""

from __future__ import annotations

import numpy as np
import pytest

from trackkit.games import get_ruleset
from trackkit.games.snowtails.core.ruleset import BUILDINGS, space_name
from trackkit.games.snowtails.core.track import Address

RULESET = get_ruleset("snowtails")


def test_a_space_is_named_as_its_track_file_numbers_it() -> None:
    assert space_name(Address("run-in", 5, 0)) == "run-in:5:0"


@pytest.mark.parametrize("slug", ["long-trail", "chicane"])
def test_collisions_per_space_add_up_to_the_collisions_per_race(slug: str) -> None:
    options = RULESET.options(players=5)
    prepared = RULESET.prepare(RULESET.load_preset(slug), options)
    batch = RULESET.play_batch(prepared, options, seed=3, batch=0, races=300)
    for node, tally in (("tree", "trees"), ("side", "side"), ("sled", "sleds")):
        assert batch.node_counts[node].sum() == batch.tallies[tally].sum() > 0
    # every collision hands out a card, but a 5th card is no card in hand
    assert batch.tallies["collisions"].sum() <= sum(
        batch.tallies[k].sum() for k in ("trees", "side", "sleds")
    )
    # on a track with all four buildings, some sleds use each, never more than the sleds
    used = np.array([batch.tallies[b] for b in BUILDINGS])
    assert ((used >= 0) & (used <= 5)).all()
    if slug == "long-trail":
        assert (used.sum(axis=1) > 0).sum() >= 3
    assert set(np.unique(batch.tallies["decided_last_round"])) <= {0, 1}


def test_the_policy_column_appears_only_when_policies_differ() -> None:
    track = RULESET.load_preset("husky-oval")
    same = RULESET.options(players=3)
    mixed = RULESET.options(players=3, policy=("greedy", "smart", "greedy"))
    assert [g.key for g in RULESET.groups(RULESET.prepare(track, same), same)] == ["slot"]
    groups = RULESET.groups(RULESET.prepare(track, mixed), mixed)
    assert [g.key for g in groups] == ["slot", "policy"]
    batch = RULESET.play_batch(RULESET.prepare(track, mixed), mixed, seed=1, batch=0, races=20)
    assert (batch.groups["policy"] == np.array([0, 1, 0])).all()
