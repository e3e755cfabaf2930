"""A whole turn played with a given plan: the die update, the bonus, the refill and its
reshuffle, collision cards and repairs, the buildings (SNOWTAILS.md §3.3-§3.10; the §3.15
cases T01 in play, T07, T09 (the turn), T13-T15, T17-T19)."""

from __future__ import annotations

import numpy as np
import pytest
from snowtails_race_fixtures import STRAIGHT, counts, table

from trackkit.games.snowtails.core.cards import deal
from trackkit.games.snowtails.core.content import load_deck
from trackkit.games.snowtails.core.movement import STOP_NONE, STOP_REPAIR, STOP_SIDE, STOP_SLED
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.race import make_setup
from trackkit.games.snowtails.core.state import (
    OVER,
    STAT_BUILDINGS,
    STAT_REPAIRS,
    VALUES,
    Sleds,
)


def cards_of(sleds: Sleds, p: int) -> int:
    """Every dog card of sled ``p`` wherever it is: deck, hand, dogs, under, box."""
    return int(sleds.deck_n[p] + sleds.hand[p].sum() + 2 + sleds.under[p].sum() + sleds.boxed[p])


# --- step 1, step 2 -----------------------------------------------------------------------------


def test_a_played_card_covers_the_dog_and_the_covered_card_goes_under() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[4, 1, 1, 2, 2], dogs=(2, 3), deck=[1, 1, 1])
    t.play(0, "left", 4, "SSSSSSD")
    assert (t.sleds.left[0], t.sleds.right[0]) == (4, 3)
    assert t.sleds.under[0, 2] == 1
    t.play(0, "both", 2, "SSSS")
    assert (t.sleds.left[0], t.sleds.right[0]) == (2, 2)
    assert t.sleds.under[0, 4] == 1 and t.sleds.under[0, 3] == 1


def test_t01_in_play_a_balanced_fourth_turns_the_die_to_4_before_moving() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[1, 1, 1, 1, 1], dogs=(1, 2), die=0, deck=[0, 0, 0])
    t.play(0, "right", 1, "SS", position=4)
    assert t.sleds.die[0] == 4


def test_t01c_in_play_round_1_leaves_the_die_alone() -> None:
    t = table(rnd=1, **STRAIGHT)
    t.give(0, hand=[2, 1, 1, 1, 1], dogs=(2, 2), die=1, deck=[0, 0])
    t.play(0, "left", 2, "SSSS", position=4, start=("a", 3, 0))
    assert t.sleds.die[0] == 1 and t.where(0) == ("a", 3, 4)


# --- T07, T09: a turn ended by a collision -------------------------------------------------------


def test_t07_eva_stays_before_the_edge_takes_a_card_and_draws_nothing() -> None:
    t = table()
    t.put(0, ("a", 2, 0))
    t.give(0, hand=[4, 0, 1, 2, 3], dogs=(3, 1), die=3, deck=[2, 2, 2])
    assert t.play(0, "left", 4, "DDDSS", bonus=2) == STOP_SIDE
    assert t.where(0) == ("a", 1, 1)
    assert t.sleds.collisions[0] == 1 and t.sleds.hand[0].sum() == 4
    assert t.sleds.deck_n[0] == 3  # 4 dog cards + 1 collision card = 5: no draw
    assert t.sleds.die[0] == 3  # the turn ended: no bonus


def test_t09_gianni_hits_eva_loses_a_pip_and_his_turn_ends() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.put(1, ("a", 3, 3))
    t.give(0, hand=[2, 1, 1, 1, 1], dogs=(2, 2), die=4, deck=[0, 0])
    assert t.play(0, "left", 2, "SSSS", bonus=3) == STOP_SLED
    assert t.where(0) == ("a", 3, 2) and t.sleds.die[0] == 3  # no bonus used
    assert t.sleds.collisions[0] == 0


def test_the_bonus_is_used_after_a_full_move() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[2, 1, 1, 1, 1], dogs=(2, 2), die=4, deck=[0, 0])
    assert t.play(0, "left", 2, "SSSS", bonus=3) == STOP_NONE
    assert t.where(0) == ("a", 3, 7) and t.sleds.die[0] == 0


# --- step 5: the refill (T13, T14) ----------------------------------------------------------------


def test_t13_two_trees_push_the_hand_to_6_and_the_lowest_dog_card_goes_under() -> None:
    t = table(**STRAIGHT)
    t.trees(("a", 3, 1), ("a", 3, 3))
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[2, 4, 3, 1, 3], dogs=(2, 2), deck=[0, 0])
    t.play(0, "left", 2, "SSSS")
    assert t.sleds.collisions[0] == 2
    assert list(t.sleds.hand[0]) == list(counts([4, 3, 3]))  # the 1 is discarded
    assert t.sleds.under[0, 1] == 1 and t.sleds.under[0, 2] == 1  # the 1 and the covered 2
    assert t.sleds.deck_n[0] == 2  # draws 0


def test_t14_an_empty_deck_is_rebuilt_from_the_cards_under_the_dogs() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[1, 1, 0, 0], dogs=(2, 2), under=[3, 3, 4, 4, 0, 0], deck=[])
    t.play(0, "left", 1, "DSS")  # 3 dog cards left: 2 to draw, from 7 under-cards
    assert (t.sleds.left[0], t.sleds.right[0]) == (1, 2)  # the two top cards stay
    assert t.sleds.hand[0].sum() == 5
    assert t.sleds.deck_n[0] == 5 and t.sleds.under[0].sum() == 0
    rebuilt = counts([3, 3, 4, 4, 0, 0, 2])  # the covered 2 went under before the refill
    drawn = t.sleds.hand[0] - counts([1, 0, 0])
    deck = counts(t.sleds.deck[0, :5])
    assert list(drawn + deck) == list(rebuilt)


def test_when_no_card_is_left_to_draw_the_hand_stays_short() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[1], dogs=(1, 1), under=[], deck=[])
    t.play(0, "left", 1, "SS")
    assert t.sleds.hand[0].sum() == 1  # the covered 1 was the only card to draw


# --- collision cards and repairs (T15) ------------------------------------------------------------


def test_t15_the_fifth_collision_card_stops_the_sled_for_repairs() -> None:
    t = table(players=3, **STRAIGHT)
    t.trees(("a", 3, 1), ("a", 3, 2))
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[2, 4], dogs=(2, 2), collisions=3, deck=[0, 1, 1, 3, 3, 3])
    assert t.play(0, "left", 2, "SSSS", bonus=1) == STOP_REPAIR
    assert t.where(0) == ("a", 3, 2)  # in the second tree's space: no further step
    assert t.sleds.collisions[0] == 0 and t.sleds.repairing[0] == 1
    assert t.sleds.hand[0].sum() == 5 and t.sleds.hand[0, 4] == 1  # kept the 4, drew 4
    assert t.sleds.stats[0, STAT_REPAIRS] == 1
    assert t.race.status[OVER] == 0 and list(t.sleds.forced) == [0, 0, 0]


def test_t15_with_two_players_the_fifth_card_places_that_sled_2nd_and_ends_the_race() -> None:
    t = table(players=2, **STRAIGHT)
    t.trees(("a", 3, 1), ("a", 3, 2))
    t.put(0, ("a", 3, 0))
    t.give(0, hand=[2, 4], dogs=(2, 2), collisions=3, deck=[0, 1, 1, 3, 3, 3])
    assert t.play(0, "left", 2, "SSSS") == STOP_REPAIR
    assert t.race.status[OVER] == 1 and list(t.sleds.forced) == [2, 1]


def test_a_side_collision_can_be_the_fifth_card() -> None:
    t = table(players=3)
    t.put(0, ("a", 2, 0))
    t.give(0, hand=[4], dogs=(3, 1), collisions=4, deck=[1, 1, 1, 1, 1])
    assert t.play(0, "left", 4, "DDDSS") == STOP_REPAIR
    assert t.where(0) == ("a", 1, 1) and t.sleds.repairing[0] == 1


def test_a_turn_ended_by_repairs_takes_no_building_effect() -> None:
    t = table(
        players=3,
        buildings=[{"kind": "tavern", "segment": "a", "side": "left", "rows": [0, 5]}],
    )
    t.put(0, ("a", 2, 0))
    t.give(0, hand=[4], dogs=(3, 1), collisions=4, die=2, deck=[1, 1, 1, 1, 1])
    t.play(0, "left", 4, "DDDSS")
    assert t.where(0) == ("a", 1, 1) and t.sleds.die[0] == 2


# --- buildings (T17, T18, T19) ------------------------------------------------------------------

TAVERN = {"kind": "tavern", "segment": "a", "side": "left", "rows": [3, 4]}
KENNELS = {"kind": "kennels", "segment": "a", "lanes": [2, 3], "rows": [4, 5]}
CHAPEL = {"kind": "chapel", "segment": "a", "lanes": [2, 3], "rows": [4, 5]}
BOTHY = {"kind": "bothy", "segment": "a", "lanes": [2, 3], "rows": [4, 5]}


@pytest.mark.parametrize(("die", "after"), [(5, 6), (0, 2), (2, 4)])
def test_t17_ending_the_turn_on_a_tavern_trigger(die: int, after: int) -> None:
    t = table(buildings=[TAVERN], **STRAIGHT)
    t.put(0, ("a", 2, 0))
    t.give(0, hand=[2, 2, 2, 2, 2], dogs=(1, 1), die=die, deck=[0, 0])
    t.play(0, "left", 2, "SSD")  # unbalanced: no die update
    assert t.where(0) == ("a", 1, 3)
    assert t.sleds.die[0] == after
    assert t.sleds.stats[0, STAT_BUILDINGS] == 8  # TAVERN


def test_t17_a_turn_ended_by_a_collision_on_a_trigger_still_counts() -> None:
    t = table(buildings=[TAVERN], **STRAIGHT)
    t.put(0, ("a", 1, 1))
    t.put(1, ("a", 1, 4))
    t.give(0, hand=[2, 2, 2, 2, 2], dogs=(2, 2), die=3, deck=[0, 0])
    assert t.play(0, "left", 2, "SSSS") == STOP_SLED
    assert t.where(0) == ("a", 1, 3) and t.sleds.die[0] == 4  # 3 - 1, then + 2


def test_t18_the_kennels_add_a_5_to_the_deck_after_the_refill() -> None:
    t = table(buildings=[KENNELS], **STRAIGHT)
    t.put(0, ("a", 1, 2))
    t.give(0, hand=[1, 1, 1, 1, 1], dogs=(1, 1), deck=[0, 0, 0], boxed=2)
    t.play(0, "left", 1, "SS")
    assert t.where(0) == ("a", 1, 4)
    assert t.sleds.boxed[0] == 1 and t.sleds.hand[0, 5] == 0
    assert t.sleds.deck_n[0] == 3 and 5 in t.sleds.deck[0, :3]  # drew 1, then a 5 went in


def test_t18_with_both_5s_out_of_the_box_the_kennels_do_nothing() -> None:
    t = table(buildings=[KENNELS], **STRAIGHT)
    t.put(0, ("a", 1, 2))
    t.give(0, hand=[1, 1, 1, 1, 1], dogs=(1, 1), deck=[0, 0, 0], boxed=0)
    t.play(0, "left", 1, "SS")
    assert t.sleds.boxed[0] == 0 and t.sleds.deck_n[0] == 2
    assert t.sleds.stats[0, STAT_BUILDINGS] == 0


def test_t19_the_chapel_takes_every_collision_card_before_the_refill() -> None:
    t = table(buildings=[CHAPEL], **STRAIGHT)
    t.put(0, ("a", 1, 2))
    t.give(0, hand=[1, 3], dogs=(1, 1), collisions=3, deck=[0, 0, 2, 2, 4, 4])
    t.play(0, "left", 1, "SS")
    assert t.where(0) == ("a", 1, 4)
    assert t.sleds.collisions[0] == 0 and t.sleds.hand[0].sum() == 5  # drew 4


@pytest.mark.parametrize("policy", ["greedy", "smart"])
def test_t19_the_bothy_swaps_dog_cards_only(policy: str) -> None:
    t = table(policy=policy, buildings=[BOTHY], **STRAIGHT)
    t.put(0, ("a", 1, 1))
    t.give(0, hand=[2, 0, 1, 4], dogs=(2, 2), collisions=1, deck=[3, 3, 3, 3])
    t.play(0, "left", 2, "SSSS")
    assert t.where(0) == ("a", 1, 5)  # beside the Bothy (lanes 2-3, rows 4-5)
    assert t.sleds.collisions[0] == 1  # never discarded here
    if policy == "smart":  # smart swaps its 0s and 1s
        assert list(t.sleds.hand[0]) == list(counts([4, 3, 3, 3]))
        assert t.sleds.under[0, 0] == 1 and t.sleds.under[0, 1] == 1
    else:  # greedy keeps its hand
        assert list(t.sleds.hand[0]) == list(counts([0, 1, 4, 3]))


# --- setup (rulebook A.5) ------------------------------------------------------------------------


def test_setup_deals_two_2s_as_dogs_holds_the_5s_back_and_draws_5() -> None:
    t = table(**STRAIGHT)
    setup = make_setup(RaceOptions(), load_deck())
    deal(t.sleds, 0, setup, t.race.stream)
    sleds = t.sleds
    assert (sleds.left[0], sleds.right[0]) == (2, 2)
    assert sleds.boxed[0] == 2 and sleds.hand[0].sum() == 5 and sleds.deck_n[0] == 11
    assert sleds.hand[0, 5] == 0 and 5 not in sleds.deck[0, :11]
    everything = sleds.hand[0] + counts(sleds.deck[0, :11]) + counts([2, 2, 5, 5])
    assert list(everything) == [2, 4, 4, 4, 4, 2]  # deck.toml's counts


def test_the_expert_start_deals_the_chosen_pair() -> None:
    t = table(**STRAIGHT)
    setup = make_setup(RaceOptions(starting_value=3), load_deck())
    deal(t.sleds, 0, setup, t.race.stream)
    assert (t.sleds.left[0], t.sleds.right[0]) == (3, 3)
    assert cards_of(t.sleds, 0) == 20


def test_cards_are_neither_made_nor_lost_in_a_turn() -> None:
    t = table(buildings=[KENNELS], **STRAIGHT)
    t.trees(("a", 1, 3))
    t.put(0, ("a", 1, 0))
    t.give(0, hand=[1, 3, 0, 2], dogs=(1, 1), deck=[4, 4], under=[0, 1, 2], boxed=2)
    before = cards_of(t.sleds, 0)
    t.play(0, "right", 3, "DSDS")
    assert cards_of(t.sleds, 0) == before
    assert np.all(t.sleds.hand[0] >= 0) and t.sleds.hand.shape[1] == VALUES
