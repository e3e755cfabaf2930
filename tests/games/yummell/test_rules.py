"""The rulebook's worked examples (SPEC.md §1), against the engine's rule functions."""

from __future__ import annotations

import numpy as np
from conftest import HILLS, advantage, character, race_state, stand, straight_board

from trackkit.games.yummell.core.content import CARD_CHALLENGE, CARD_CHAR, Effect
from trackkit.games.yummell.core.movement import fall_back, furthest
from trackkit.games.yummell.core.policies import choose_challenge_card
from trackkit.games.yummell.core.rules import (
    can_host,
    challenge_total,
    challenge_won,
    overtaking_toll,
    presence_cost,
    rest,
    terrain_cost,
)
from trackkit.games.yummell.core.state import Tables

NO_CURSE = np.zeros(4, dtype=np.int64)
NO_CARDS = np.zeros((0, 8), dtype=np.int64)  # movement reads no card


def _move(
    squares: str,
    mp: int,
    occupied: dict[int, int] | None = None,
    mover: np.ndarray | None = None,
    others: np.ndarray | None = None,
) -> int:
    """How far a character standing on the first square gets with ``mp`` MP."""
    board = straight_board(squares)
    count = 1 + sum((occupied or {}).values())
    players, _, tally = race_state(board, count)
    characters = np.array(
        [mover if mover is not None else character()]
        + [others if others is not None else character()] * (count - 1)
    )
    advantages = np.array([advantage()] * count)
    players.toll[:] = [int(c[4] == int(Effect.TOLL)) for c in characters]
    stand(board, players, tally, 0, 0)
    q = 1
    for index, n in (occupied or {}).items():
        for _ in range(n):
            stand(board, players, tally, q, index)
            q += 1
    return furthest(board, players, tally, Tables(NO_CARDS, characters, advantages), 0, 0, 0, mp)


def test_a_to_c_over_two_hills_costs_4() -> None:
    # A (plain) → B (hills) → C (hills), then more squares
    assert _move("PHHPPP", 4) == 2
    assert _move("PHHPPP", 3) == 1


def test_d_to_e_a_hill_holding_one_character_costs_3() -> None:
    assert _move("PHHPPP", 3, occupied={1: 1}) == 1
    assert _move("PHHPPP", 2, occupied={1: 1}) == 0


def test_d_to_f_through_that_square_and_onto_another_hill_costs_5() -> None:
    assert _move("PHHPPP", 5, occupied={1: 1}) == 2
    assert _move("PHHPPP", 4, occupied={1: 1}) == 1


def test_squares_holding_two_can_be_passed_through() -> None:
    # plain with two characters costs 1 + 2
    assert _move("PPPPPP", 4, occupied={1: 2}) == 2


def test_climbing_and_hill_guide_on_a_hill_cost_1() -> None:
    climbing = advantage(Effect.TERRAIN_COST, HILLS, -1)
    hill_guide = np.zeros(4, dtype=np.int64)
    hill_guide[HILLS] = -1
    assert terrain_cost(2, HILLS, character(), climbing, NO_CURSE, hill_guide) == 1


def test_climbing_mushroom_curse_and_hill_guide_cost_1() -> None:
    climbing = advantage(Effect.TERRAIN_COST, HILLS, -1)
    curse = np.zeros(4, dtype=np.int64)
    curse[HILLS] = 1
    hill_guide = np.zeros(4, dtype=np.int64)
    hill_guide[HILLS] = -1
    assert terrain_cost(2, HILLS, character(), climbing, curse, hill_guide) == 1
    # without the guide the curse and the advantage cancel out
    assert terrain_cost(2, HILLS, character(), climbing, curse, NO_CURSE) == 2


def test_a_square_costs_at_least_1() -> None:
    discount = np.zeros(4, dtype=np.int64)
    discount[0] = -3
    assert terrain_cost(1, 0, character(), advantage(), NO_CURSE, discount) == 1


def test_flamm_passing_the_troll_pays_1() -> None:
    # p. 9: "When the Dragon surpasses the Troll, he spends 1 additional Movement Point":
    # fluttering cancels the +1 for company, not the Troll's toll
    assert presence_cost(others=1, fluttering=True) == 0
    assert presence_cost(others=1, fluttering=False) == 1
    assert overtaking_toll(1) == 1
    flamm = character(ability=Effect.FLUTTERING)
    troll = character(ability=Effect.TOLL)
    # plains, the Troll on square 1: Flamm enters it for 1 and leaves it for 1 + 1
    assert _move("PPPPPP", 3, occupied={1: 1}, mover=flamm, others=troll) == 2
    assert _move("PPPPPP", 2, occupied={1: 1}, mover=flamm, others=troll) == 1
    assert _move("PPPPPP", 1, occupied={1: 1}, mover=flamm) == 1  # plain company: free


def test_the_troll_is_paid_for_getting_past_it_not_for_stopping_beside_it() -> None:
    troll = character(ability=Effect.TOLL)
    # stopping on the Troll's square costs the company (+1) and no toll: 2 MP
    assert _move("PPPPPP", 2, occupied={1: 1}, others=troll) == 1
    # going on past it: 2 to enter its square, then 1 + 1 toll to leave it behind
    assert _move("PPPPPP", 3, occupied={1: 1}, others=troll) == 1
    assert _move("PPPPPP", 4, occupied={1: 1}, others=troll) == 2
    # an ordinary character is passed for the company only
    assert _move("PPPPPP", 3, occupied={1: 1}) == 2


def test_leaving_a_square_shared_with_the_troll_costs_the_toll() -> None:
    board = straight_board("PPPPPP")
    players, _, tally = race_state(board, 2)
    characters = np.array([character(), character(ability=Effect.TOLL)])
    advantages = np.array([advantage()] * 2)
    players.toll[:] = [0, 1]
    stand(board, players, tally, 0, 1)
    stand(board, players, tally, 1, 1)
    # from the Troll's square: 1 + 1 toll to the next square
    tables = Tables(NO_CARDS, characters, advantages)
    assert furthest(board, players, tally, tables, 0, 0, 1, 1) == 1
    assert furthest(board, players, tally, tables, 0, 0, 1, 2) == 2
    # the Troll itself pays nothing to leave its own square
    assert furthest(board, players, tally, tables, 1, 0, 1, 1) == 2


def test_strength_5_against_the_salamander_of_mount_ohrk() -> None:
    salamander = np.zeros(8, dtype=np.int64)
    salamander[CARD_CHAR], salamander[CARD_CHALLENGE] = 0, 9  # Strength 9
    hero = character(strength=5)
    assert challenge_won(challenge_total(hero, advantage(), salamander, 5), salamander)
    assert not challenge_won(challenge_total(hero, advantage(), salamander, 4), salamander)


def test_heroism_without_a_card_still_loses_to_horrgrup() -> None:
    horrgrup = np.zeros(8, dtype=np.int64)
    horrgrup[CARD_CHAR], horrgrup[CARD_CHALLENGE] = 0, 7
    heroism = advantage(Effect.CHALLENGE_BONUS, -1, 4)
    cards = np.array([[1, 0, 0, 0, 0, -1, 0, 0]], dtype=np.int64)  # one card numbered 1
    empty = np.zeros(4, dtype=np.int64)
    assert choose_challenge_card(0, empty, 0, cards, character(5), heroism, horrgrup) == -1
    # with any card, Strength 5 + 4 + 1 beats 7
    assert challenge_won(challenge_total(character(5), heroism, horrgrup, 1), horrgrup)


def test_the_lowest_winning_card_is_played_else_the_lowest() -> None:
    creature = np.zeros(8, dtype=np.int64)
    creature[CARD_CHAR], creature[CARD_CHALLENGE] = 0, 9
    cards = np.array([[n, 0, 0, 0, 0, -1, 0, 0] for n in range(9)], dtype=np.int64)
    hand = np.array([8, 6, 5, 2], dtype=np.int64)  # card id = its number here
    assert hand[choose_challenge_card(0, hand, 4, cards, character(5), advantage(), creature)] == 5
    creature[CARD_CHALLENGE] = 20
    assert hand[choose_challenge_card(0, hand, 4, cards, character(5), advantage(), creature)] == 2


def test_a_square_holds_two_the_finish_any_number() -> None:
    assert can_host(1, False) and not can_host(2, False)
    assert can_host(7, True)


def test_ending_on_a_full_square_goes_back_to_the_first_that_can_host() -> None:
    board = straight_board("PPPPPPP")
    players, _, tally = race_state(board, 6)
    for p, index in ((1, 3), (2, 3), (3, 2), (4, 2), (5, 1)):
        stand(board, players, tally, p, index)
    assert fall_back(board, tally, 0, 3, -1) == 1
    assert fall_back(board, tally, 0, 4, -1) == 4
    stand(board, players, tally, 0, 1)  # the mover itself on square 1 does not count
    assert fall_back(board, tally, 0, 3, board.route_nodes[0, 1]) == 1
    tally.occupancy[0] = tally.occupancy[1] = 2
    assert fall_back(board, tally, 0, 3, -1) == -1  # off the board hosts anyone


def test_resting_removes_every_curse() -> None:
    curse = np.array([0, 0, 2, 1], dtype=np.int64)
    assert rest(curse) == 3
    assert not curse.any()
