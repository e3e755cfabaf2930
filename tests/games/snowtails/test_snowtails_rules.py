"""The small rules of a turn: plays, speed and drift, forced drift, schedules, the bonus
die, the Tavern, start dice and tournament points (SNOWTAILS.md §3, the §3.15 cases
T01, T01a-c, T04, T09a, T12, T16 (points), T17, T20-T22)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from snowtails_race_fixtures import counts

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.board import AHEAD, DRIFT_LEFT, DRIFT_RIGHT
from trackkit.games.snowtails.core.content import load_deck
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.rules import (
    bonus_die_update,
    complete_schedule,
    die_after_sled_crash,
    drift,
    drift_kind,
    legal_plays,
    must_drift,
    schedule_code,
    schedule_is_legal,
    schedule_text,
    speed,
    starting_die,
    tavern_die,
    tournament_points,
    valid_starting_pair,
)

# --- the bonus die update: T01, T01a, T01b, T01c ----------------------------------------------


@pytest.mark.parametrize("die", [0, 1, 2, 3])
def test_t01_a_balanced_fourth_turns_a_spent_or_lower_die_to_4(die: int) -> None:
    assert bonus_die_update(die, position=4, rnd=2, balanced=True) == 4


def test_t01a_the_die_is_never_turned_lower() -> None:
    assert bonus_die_update(5, position=4, rnd=2, balanced=True) == 5


@pytest.mark.parametrize("position", [7, 8])
def test_t01b_the_die_is_capped_at_6(position: int) -> None:
    assert bonus_die_update(0, position=position, rnd=3, balanced=True) == 6
    assert bonus_die_update(2, position=position, rnd=3, balanced=True) == 6


@pytest.mark.parametrize("die", [0, 1, 4])
def test_t01c_no_update_in_round_1(die: int) -> None:
    assert bonus_die_update(die, position=5, rnd=1, balanced=True) == die


def test_no_update_when_the_sled_is_not_balanced() -> None:
    assert bonus_die_update(1, position=5, rnd=4, balanced=False) == 1
    assert bonus_die_update(0, position=5, rnd=4, balanced=False) == 0


# --- speed and drift: T02 (numbers), T03 (numbers), T20 ---------------------------------------


def test_t02_roberta_4_1_moves_5_and_drifts_3_left() -> None:
    assert (speed(4, 1), drift(4, 1), drift_kind(4, 1)) == (5, 3, DRIFT_LEFT)


def test_t03_daniele_4_2_moves_6_and_drifts_2_left() -> None:
    assert (speed(4, 2), drift(4, 2), drift_kind(4, 2)) == (6, 2, DRIFT_LEFT)


def test_t20_0_3_moves_3_and_drifts_3_right_every_step() -> None:
    assert (speed(0, 3), drift(0, 3), drift_kind(0, 3)) == (3, 3, DRIFT_RIGHT)
    assert [s for s in ("SSS", "DSS", "DDS", "DDD") if schedule_is_legal(s, 0, 3)] == ["DDD"]


def test_a_balanced_sled_does_not_drift() -> None:
    assert (speed(3, 3), drift(3, 3), drift_kind(3, 3)) == (6, 0, AHEAD)


# --- forced drift and schedules: T04 ------------------------------------------------------------


def test_t04_with_2_drift_left_and_2_steps_to_go_both_must_drift() -> None:
    assert must_drift(steps_left=2, drifts_left=2)
    assert not must_drift(steps_left=3, drifts_left=2)
    assert schedule_is_legal("SSSSDD", 4, 2)
    assert not schedule_is_legal("SSSSSD", 4, 2)  # S at step 5 with 2 drift to use
    assert not schedule_is_legal("SSSSDS", 4, 2)


def test_t04_every_legal_schedule_has_exactly_the_drift_steps() -> None:
    legal = [
        "".join("D" if i in chosen else "S" for i in range(6))
        for chosen in combinations(range(6), 2)
    ]
    assert all(schedule_is_legal(s, 4, 2) for s in legal)
    assert not schedule_is_legal("SDSSSS", 4, 2)  # one drift short
    assert not schedule_is_legal("DDDSSS", 4, 2)  # one too many
    assert not schedule_is_legal("SSDSD", 4, 2)  # one step short


def test_schedule_codes_compare_as_text() -> None:
    texts = ["DDSS", "DS", "DSDS", "S", "SDSD", "SSDD", "D", "DDD"]
    assert sorted(texts, key=schedule_code) == sorted(texts)
    for text in texts:
        assert schedule_text(schedule_code(text)) == text


def test_a_move_cut_short_is_recorded_as_its_smallest_completion() -> None:
    cut = complete_schedule(schedule_code("SS"), done=2, drifts_left=2, steps=6)
    assert schedule_text(cut) == "SSDDSS"


def test_a_schedule_is_up_to_ten_letters_s_or_d() -> None:
    with pytest.raises(ValueError, match="S or D"):
        schedule_code("SSX")


# --- plays: T21, T22 ----------------------------------------------------------------------------


def test_t21_dogs_2_2_and_hand_0_1_3_3_4_give_nine_plays() -> None:
    plays = legal_plays(2, 2, counts([0, 1, 3, 3, 4]))
    assert len(plays) == 9
    assert {v for kind, v in plays if kind == "left"} == {0, 1, 3, 4}
    assert {v for kind, v in plays if kind == "right"} == {0, 1, 3, 4}
    assert [v for kind, v in plays if kind == "both"] == [3]


def test_a_card_equal_to_the_dog_may_be_played() -> None:
    assert ("left", 2) in legal_plays(2, 2, counts([2]))


def test_t22_the_expert_start_is_two_equal_dogs_not_0() -> None:
    assert valid_starting_pair(3, 3) and valid_starting_pair(1, 1)
    assert not valid_starting_pair(0, 0)
    assert not valid_starting_pair(2, 3)
    deck = load_deck()
    RaceOptions(starting_value=3).check(deck)
    for wrong in (0, 5):
        with pytest.raises(TrackkitError, match="1 to 4"):
            RaceOptions(starting_value=wrong).check(deck)


# --- dice: T09a, T12, T17 -----------------------------------------------------------------------


def test_t09a_a_sled_crash_takes_1_from_the_die_0_means_spent() -> None:
    assert die_after_sled_crash(4) == 3
    assert die_after_sled_crash(1) == 0
    assert die_after_sled_crash(0) == 0


def test_t12_eight_start_slots_get_dice_1_1_2_2_3_3_4_4() -> None:
    assert [starting_die(slot) for slot in range(8)] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_t17_the_tavern_adds_2_up_to_6_and_brings_a_spent_die_back_on_2() -> None:
    assert tavern_die(5) == 6
    assert tavern_die(3) == 5
    assert tavern_die(0) == 2


# --- tournament points: T16 -----------------------------------------------------------------------


def test_t16_points_by_placing() -> None:
    assert [tournament_points(placing) for placing in range(1, 9)] == [10, 7, 5, 4, 3, 2, 1, 0]
    assert np.array_equal([tournament_points(p) for p in (1, 2, 3, 4)], [10, 7, 5, 4])  # A, B, C, D
