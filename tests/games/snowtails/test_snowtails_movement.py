"""Movement and collisions on the engine's arrays (SNOWTAILS.md §3.5-§3.7, the §3.15 cases
T02, T03, T05, T06, T08, T09, T09a, T11a, T20; run-off rules of rulebook D)."""

from __future__ import annotations

from itertools import combinations

import pytest
from snowtails_race_fixtures import STRAIGHT, Table, table

from trackkit.games.snowtails.core.board import AHEAD, DRIFT_LEFT, DRIFT_RIGHT
from trackkit.games.snowtails.core.movement import (
    STOP_NONE,
    STOP_SIDE,
    STOP_SLED,
    bonus_move,
    run_schedule,
)
from trackkit.games.snowtails.core.rules import drift, drift_kind, schedule_code, speed
from trackkit.games.snowtails.core.state import (
    HIT_SIDE,
    HIT_SLED,
    HIT_TREE,
    STAT_CARDS,
    STAT_SIDE,
    STAT_SLEDS,
    STAT_TREES,
)


def move(t: Table, p: int, left: int, right: int, schedule: str) -> int:
    """Run sled ``p``'s move with the dogs ``left``/``right`` along ``schedule``."""
    assert len(schedule) == speed(left, right) and schedule.count("D") == drift(left, right)
    return int(
        run_schedule(
            t.board,
            t.race,
            t.sleds,
            p,
            drift_kind(left, right),
            speed(left, right),
            schedule_code(schedule),
        )
    )


def schedules(steps: int, drifts: int) -> list[str]:
    return [
        "".join("D" if i in chosen else "S" for i in range(steps))
        for chosen in combinations(range(steps), drifts)
    ]


# --- T02: "Corners like a dream" ---------------------------------------------------------------


def test_t02_drifting_at_the_start_of_the_corner_ends_one_space_further() -> None:
    ends = {}
    for plan in ("DDDSS", "SSDDD"):
        t = table()
        t.put(0, ("a", 4, 5))
        assert move(t, 0, 4, 1, plan) == STOP_NONE
        ends[plan] = t.where(0)
    assert ends == {"DDDSS": ("c", 1, 0), "SSDDD": ("bend", 1, 1)}
    t = table()
    assert t.board.move[t.node(ends["SSDDD"]), AHEAD] == t.node(ends["DDDSS"])


def test_t02_six_schedules_end_like_dddss_four_like_ssddd() -> None:
    ends = {}
    for plan in schedules(5, 3):
        t = table()
        t.put(0, ("a", 4, 5))
        move(t, 0, 4, 1, plan)
        ends[plan] = t.where(0)
    assert sorted(p for p, end in ends.items() if end == ("c", 1, 0)) == sorted(
        p for p in ends if p[0] == "D"
    )
    assert len([p for p, end in ends.items() if end == ("bend", 1, 1)]) == 4


# --- T03, T05, T20: straights ----------------------------------------------------------------------

TREE_HUGGER = {"segments": [{"id": "a", "rows": 12}, {"id": "c", "rows": 6}]}
HUGGED = (("a", 2, 2), ("a", 3, 3), ("a", 1, 5))


def test_t03_tree_hugger_drifts_on_steps_3_and_6_between_the_trees() -> None:
    t = table(**TREE_HUGGER)
    t.trees(*HUGGED)
    t.put(0, ("a", 3, 0))
    assert move(t, 0, 4, 2, "SSDSSD") == STOP_NONE
    assert t.where(0) == ("a", 1, 6)
    assert t.sleds.collisions[0] == 0 and t.race.trees.sum() == 3


def test_t03_only_ssdssd_of_the_15_schedules_hits_no_tree() -> None:
    clean = []
    for plan in schedules(6, 2):
        t = table(**TREE_HUGGER)
        t.trees(*HUGGED)
        t.put(0, ("a", 3, 0))
        move(t, 0, 4, 2, plan)
        if t.sleds.stats[0, STAT_TREES] == 0:
            clean.append(plan)
    assert clean == ["SSDSSD"]


def test_t03_ddssss_ends_there_too_but_hits_the_tree_at_1_5() -> None:
    t = table(**TREE_HUGGER)
    t.trees(*HUGGED)
    t.put(0, ("a", 3, 0))
    assert move(t, 0, 4, 2, "DDSSSS") == STOP_NONE
    assert t.where(0) == ("a", 1, 6)
    assert t.sleds.collisions[0] == 1 and t.sleds.stats[0, STAT_CARDS] == 1
    assert t.race.trees[t.node(("a", 1, 5))] == 0  # removed
    assert t.race.node_hits[t.node(("a", 1, 5)), HIT_TREE] == 1


def test_t05_a_drift_on_a_straight_is_diagonal() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 4))
    move(t, 0, 2, 1, "SSD")
    assert t.where(0) == ("a", 2, 7)
    t.put(0, ("a", 3, 4))
    move(t, 0, 1, 2, "DSS")
    assert t.where(0) == ("a", 4, 7)


def test_t20_0_3_changes_lane_on_every_step() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 1, 0))
    assert move(t, 0, 0, 3, "DDD") == STOP_NONE
    assert t.where(0) == ("a", 4, 3)


# --- collisions: T07 (the move), T08, T09, T09a, T11a ---------------------------------------------


def test_t07_drifting_into_the_side_stops_before_it_with_a_card() -> None:
    t = table()
    t.put(0, ("a", 2, 0))
    assert move(t, 0, 4, 1, "DDDSS") == STOP_SIDE
    assert t.where(0) == ("a", 1, 1)
    assert t.sleds.collisions[0] == 1 and t.sleds.stats[0, STAT_SIDE] == 1
    assert t.race.node_hits[t.node(("a", 1, 1)), HIT_SIDE] == 1


def test_t08_two_trees_are_removed_for_two_cards_and_the_move_goes_on() -> None:
    t = table(**STRAIGHT)
    t.trees(("a", 3, 2), ("a", 3, 4), ("a", 2, 9))
    t.put(0, ("a", 3, 0))
    assert move(t, 0, 3, 3, "SSSSSS") == STOP_NONE
    assert t.where(0) == ("a", 3, 6)
    assert t.sleds.collisions[0] == 2 and t.sleds.stats[0, STAT_TREES] == 2
    assert t.race.trees[t.node(("a", 3, 2))] == 0 and t.race.trees[t.node(("a", 3, 4))] == 0
    assert t.race.trees[t.node(("a", 2, 9))] == 1


def test_t09_hitting_a_sled_from_behind_stops_before_it_and_costs_a_die_pip() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))  # Gianni
    t.put(1, ("a", 3, 3))  # Eva
    t.give(0, die=4)
    t.give(1, die=2)
    assert move(t, 0, 2, 2, "SSSS") == STOP_SLED
    assert t.where(0) == ("a", 3, 2) and t.sleds.die[0] == 3
    assert t.sleds.collisions[0] == 0  # no card
    assert t.where(1) == ("a", 3, 3) and t.sleds.die[1] == 2  # Eva unaffected
    assert t.sleds.stats[0, STAT_SLEDS] == 1
    assert t.race.node_hits[t.node(("a", 3, 2)), HIT_SLED] == 1


@pytest.mark.parametrize(("die", "after"), [(1, 0), (0, 0)])
def test_t09a_the_die_goes_from_1_to_spent_and_a_spent_die_stays_spent(
    die: int, after: int
) -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.put(1, ("a", 3, 1))
    t.give(0, die=die)
    assert move(t, 0, 1, 1, "SS") == STOP_SLED
    assert t.where(0) == ("a", 3, 0) and t.sleds.die[0] == after


def test_a_drift_into_a_sled_is_a_sled_collision() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.put(1, ("a", 2, 1))
    assert move(t, 0, 2, 1, "DSS") == STOP_SLED
    assert t.where(0) == ("a", 3, 0)


def test_a_sled_passes_diagonally_between_two_sleds() -> None:
    t = table(players=3, **STRAIGHT)
    t.put(0, ("a", 3, 0))
    t.put(1, ("a", 2, 0))
    t.put(2, ("a", 3, 1))
    assert move(t, 0, 1, 0, "D") == STOP_NONE
    assert t.where(0) == ("a", 2, 1)


def test_buildings_and_markers_stop_the_sled_like_the_side() -> None:
    t = table(
        buildings=[{"kind": "chapel", "segment": "a", "lanes": [2, 3], "rows": [2, 3]}],
        markers=[["a", 5, 4]],
    )
    t.put(0, ("a", 3, 0))
    assert move(t, 0, 1, 1, "SS") == STOP_SIDE
    assert t.where(0) == ("a", 3, 1) and t.sleds.collisions[0] == 1
    t.put(1, ("a", 5, 2))
    assert move(t, 1, 2, 2, "SSSS") == STOP_SIDE
    assert t.where(1) == ("a", 5, 3) and t.sleds.collisions[1] == 1


TIGHT = {
    "segments": [
        {"id": "a", "rows": 6},
        {"id": "bend", "turn": "left", "spaces_per_lane": [2, 3, 4, 5, 6], "tight": True},
        {"id": "c", "rows": 6},
    ]
}


def test_t11a_following_a_lane_through_a_tight_corner_hits_the_side() -> None:
    t = table(**TIGHT)
    t.put(0, ("a", 3, 5))
    assert move(t, 0, 5, 5, "S" * 10) == STOP_SIDE
    assert t.where(0) == ("bend", 3, 3) and t.sleds.collisions[0] == 1


def test_t11a_drifting_at_the_last_moment_gets_round_the_tight_corner() -> None:
    t = table(**TIGHT)
    t.put(0, ("a", 3, 5))
    assert move(t, 0, 3, 2, "SSSSD") == STOP_NONE
    assert t.where(0) == ("c", 2, 0)


# --- beyond the finish line (rulebook D) ------------------------------------------------------------


def test_beyond_the_line_the_edge_stops_the_sled_without_a_card() -> None:
    t = table(**STRAIGHT)  # the line lies after row 2 of "c"; rows 3-5 are the run-off
    t.put(0, ("c", 2, 2))
    assert move(t, 0, 3, 2, "SSSSD") == STOP_SIDE
    assert t.where(0) == ("c", 2, 5)
    assert t.sleds.collisions[0] == 0 and t.sleds.stats[0, STAT_SIDE] == 1


def test_beyond_the_line_a_tree_is_removed_without_a_card() -> None:
    t = table(**STRAIGHT)
    t.trees(("c", 2, 4))
    t.put(0, ("c", 2, 2))
    assert move(t, 0, 1, 1, "SS") == STOP_NONE
    assert t.where(0) == ("c", 2, 4)
    assert t.sleds.collisions[0] == 0 and t.race.trees.sum() == 0


def test_before_the_line_the_edge_gives_a_card() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("c", 1, 1))
    assert move(t, 0, 2, 1, "DSS") == STOP_SIDE
    assert t.sleds.collisions[0] == 1


# --- the bonus die: T06 -----------------------------------------------------------------------------


def test_t06_riccardo_uses_3_of_his_4_bonus_spaces_and_the_die_is_spent() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 10))  # Riccardo, after his move
    t.put(1, ("a", 3, 14))  # the red sled
    t.give(0, die=4)
    assert bonus_move(t.board, t.race, t.sleds, 0, 3) == STOP_NONE
    assert t.where(0) == ("a", 3, 13)
    assert t.sleds.die[0] == 0 and t.sleds.collisions[0] == 0


def test_a_bonus_into_a_sled_stops_before_it_and_the_spent_die_stays_spent() -> None:
    t = table(**STRAIGHT)
    t.put(0, ("a", 3, 10))
    t.put(1, ("a", 3, 14))
    t.give(0, die=5)
    assert bonus_move(t.board, t.race, t.sleds, 0, 5) == STOP_SLED
    assert t.where(0) == ("a", 3, 13) and t.sleds.die[0] == 0


def test_the_bonus_goes_straight_and_collides_like_a_move() -> None:
    t = table(**STRAIGHT)
    t.trees(("a", 4, 2))
    t.put(0, ("a", 4, 0))
    t.give(0, die=3)
    assert bonus_move(t.board, t.race, t.sleds, 0, 3) == STOP_NONE
    assert t.where(0) == ("a", 4, 3) and t.sleds.collisions[0] == 1


def test_drift_kinds_point_at_the_faster_dog() -> None:
    assert drift_kind(5, 0) == DRIFT_LEFT and drift_kind(0, 5) == DRIFT_RIGHT
