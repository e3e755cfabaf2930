"""How characters choose (SPEC.md §4 for greedy; the module docstring for smart).

Cards are made here: card id n < 9 is a plain card numbered n, the named ones follow.
"""

from __future__ import annotations

import numpy as np
from conftest import HILLS, advantage, character, race_state, stand, straight_board

from trackkit.games.yummell.core.content import ARTEFACT, CREATURE, EVENT, TERRAINS, Effect
from trackkit.games.yummell.core.policies import (
    GREEDY,
    SMART,
    choose_challenge_card,
    effect_bites,
    greedy_route,
    highest_card,
    keep_of_two,
    lowest_card,
    smart_event,
    smart_move_card,
    smart_mp_bonus,
    smart_rival_artefact,
    smart_route,
    smart_should_rest,
    smart_ward,
)
from trackkit.games.yummell.core.state import Board, Tables, start_race
from trackkit.games.yummell.core.turn import take_turn

PLAIN, WOODS = TERRAINS.index("plain"), TERRAINS.index("woods")


def _card(
    n: int, kind: int, effect: Effect = Effect.NONE, terrain: int = -1, param: int = 1
) -> list[int]:
    return [n, kind, 0, 99, int(effect), terrain, param, int(kind == EVENT)]


SNEEZE, WIND, MUSHROOM, SCALES_EVENT, HASTE, GUIDE, HEAVY, SCALES, WARD, BOOTS = range(9, 19)
CARDS = np.array(
    [_card(n, CREATURE) for n in range(9)]
    + [
        _card(2, EVENT, Effect.BACK),
        _card(1, EVENT, Effect.BACK_IF_TERRAIN, PLAIN),
        _card(1, EVENT, Effect.CURSE, HILLS),
        _card(3, EVENT, Effect.DISCARD),
        _card(3, EVENT, Effect.EXTRA_MP, param=2),
        _card(1, EVENT, Effect.TERRAIN_COST, HILLS, -1),  # Hill Guide
        _card(1, EVENT, Effect.TERRAIN_COST, HILLS, 1),  # dearer hills: no use to oneself
        _card(3, ARTEFACT, Effect.DISCARD),  # Scales of Ftoll
        _card(4, ARTEFACT, Effect.WARD),
        _card(5, ARTEFACT, Effect.MP_BONUS, param=2),
    ],
    dtype=np.int64,
)
# an ability and an advantage that change nothing: not steady, so push-backs bite
RACER = character(ability=Effect.CHALLENGE_BONUS, param=0)
EDGE = advantage(Effect.CHALLENGE_BONUS, param=0)


def _hand(*cards: int) -> np.ndarray:
    return np.array(cards, dtype=np.int64)


def _race(board: Board, n: int, policy: int = SMART):  # type: ignore[no-untyped-def]
    players, deck, tally = race_state(board, n)
    players.policy[:] = policy
    return players, deck, tally, np.array([RACER] * n), np.array([EDGE] * n)


def _give(players, p: int, *cards: int, active: bool = False) -> None:  # type: ignore[no-untyped-def]
    rows, counts = (players.active, players.active_n) if active else (players.hand, players.hand_n)
    rows[p, : len(cards)] = cards
    counts[p] = len(cards)


def _forked(paths: list[str], tail: str) -> Board:
    """Start paths of terrain letters merging into ``tail``, whose last square is the finish."""
    flat = straight_board("".join(paths) + tail)  # every square's terrain and MP, in order
    ends = np.cumsum([0, *map(len, paths)])
    squares = len(flat.node_base)
    routes = [[*range(ends[r], ends[r + 1]), *range(ends[-1], squares)] for r in range(len(paths))]
    width = max(map(len, routes))
    suffix = [[flat.node_base[route[i:]].sum() for i in range(width + 1)] for route in routes]
    return flat._replace(
        route_nodes=np.array([route + [-1] * (width - len(route)) for route in routes]),
        route_len=np.array([len(route) for route in routes]),
        route_cost=np.array([row[0] for row in suffix]),
        route_suffix=np.array(suffix, dtype=np.int64),
    )


# --- greedy (SPEC.md §4) -----------------------------------------------------------------


def test_lowest_and_highest_card_take_the_first_of_equals_within_the_hand() -> None:
    hand = _hand(5, 2, 8, 2, 8, 0)  # the 0 is past the hand's end
    assert lowest_card(hand, 5, CARDS) == 1
    assert highest_card(hand, 5, CARDS) == 2
    assert lowest_card(hand, 6, CARDS) == 5


def test_drawing_two_keeps_the_higher_card() -> None:
    assert keep_of_two(3, 6, CARDS) == (6, 3)
    assert keep_of_two(6, 3, CARDS) == (6, 3)
    assert keep_of_two(WIND, 1, CARDS) == (WIND, 1)  # equal numbers: the first
    assert keep_of_two(-1, 4, CARDS) == (4, -1)  # the pile gave only one card


def test_a_challenge_counts_the_creatures_characteristic_and_the_bonuses() -> None:
    lizard = np.array(_card(1, CREATURE), dtype=np.int64)
    lizard[2], lizard[3] = 1, 9  # Agility 9
    hero = character(strength=9)  # Agility 3: needs a 7
    hand = _hand(8, 7, 6, 7)
    assert choose_challenge_card(GREEDY, hand, 4, CARDS, hero, advantage(), lizard) == 1
    heroism = advantage(Effect.CHALLENGE_BONUS, param=4)  # 3 + 4 + 3 beats 9
    assert choose_challenge_card(GREEDY, _hand(8, 3, 2), 3, CARDS, hero, heroism, lizard) == 1


def test_greedy_takes_the_cheapest_start_path_the_first_of_equals() -> None:
    assert greedy_route(_forked(["PSP", "PP", "SP"], "PP")) == 1
    assert greedy_route(_forked(["SPP", "HP", "PPP"], "PP")) == 1
    assert greedy_route(_forked(["HP", "PPP", "PH"], "PP")) == 0


def test_greedy_moves_with_its_highest_card_as_far_as_it_goes() -> None:
    board = _forked(["PPPPP", "SP"], "PPPPP")
    players, deck, tally, characters, advantages = _race(board, 1, GREEDY)
    players.route[0] = -1
    _give(players, 0, 2, 2, 6, 3)
    deck.pile[:3], deck.counts[:2] = [1, 1, 1], [3, 0]
    start_race(tally.dice, np.uint64(0))
    take_turn(0, board, players, deck, tally, Tables(CARDS, characters, advantages), False, 1)
    assert players.route[0] == 1  # S P costs 4 MP, five plains 5
    assert players.pos[0] == 3  # S P P P: the 6 spent
    assert sorted(players.hand[0, : players.hand_n[0]]) == [1, 2, 2, 3]


# --- smart -------------------------------------------------------------------------------


def test_smart_takes_the_start_path_leaving_the_fewest_mp_after_this_move() -> None:
    board = _forked(["PPPPP", "SP"], "PPPPP")  # greedy's path is the second
    players, _, tally, characters, advantages = _race(board, 1)
    players.route[0] = -1
    _give(players, 0, 2, 1)  # 2 MP: two plains, or nothing in front of the swamp
    args = (0, board, players, tally, Tables(CARDS, characters, advantages))
    assert smart_route(*args, 0) == 0
    assert smart_route(*args, 1) == 1  # 3 MP: swamp and the next plain


def test_smart_moves_with_the_lowest_card_that_lands_as_far_as_its_best() -> None:
    board = straight_board("PPPPPSP")
    players, _, tally, characters, advantages = _race(board, 3)
    stand(board, players, tally, 0, 0)
    stand(board, players, tally, 1, 3)
    stand(board, players, tally, 2, 3)
    args = (0, board, players, tally, Tables(CARDS, characters, advantages))
    _give(players, 0, 5, 3, 2)  # the 5 would reach full square 3 and fall back to 2
    assert smart_move_card(*args, 0) == 2
    _give(players, 0, 8, 7, 6, 2)  # 6 MP pass square 3 to square 4; 7 and 8 no further
    assert smart_move_card(*args, 0) == 2


def test_smart_uses_more_mp_only_when_it_reaches_further() -> None:
    board = straight_board("PPHPPP")
    players, _, tally, characters, advantages = _race(board, 3)
    stand(board, players, tally, 0, 0)
    _give(players, 0, WARD, BOOTS, active=True)
    args = (board, players, tally, Tables(CARDS, characters, advantages))
    assert smart_mp_bonus(0, 0, 1, *args) == 1
    stand(board, players, tally, 1, 2)
    stand(board, players, tally, 2, 2)  # the hill now costs 4: 3 MP still stop on square 1
    assert smart_mp_bonus(0, 0, 1, *args) == -1


def test_smart_rests_when_a_curse_makes_two_squares_just_ahead_dearer() -> None:
    board = straight_board("PPHPPPHPPPHP")
    players, _, tally, characters, advantages = _race(board, 1)
    stand(board, players, tally, 0, 0)
    _give(players, 0, 8, 8)
    args = (0, board, players, tally, Tables(CARDS, characters, advantages), 0)
    assert not smart_should_rest(*args)
    players.curse[0, HILLS] = 1
    assert smart_should_rest(*args)  # hills on squares 2 and 6, within six squares
    players.pos[0] = 2  # one hill within six squares (6); the one on 10 is further
    assert not smart_should_rest(*args)
    players.curse[0, HILLS], players.curse[0, WOODS] = 0, 1  # woods: none ahead
    assert not smart_should_rest(*args)


def test_smart_rests_when_no_card_can_move_it() -> None:
    board = straight_board("PSPPPP")
    players, _, tally, characters, advantages = _race(board, 3)
    stand(board, players, tally, 0, 0)
    args = (0, board, players, tally, Tables(CARDS, characters, advantages))
    _give(players, 0, 1, 2)
    assert smart_should_rest(*args, 0)  # the swamp costs 3
    assert not smart_should_rest(*args, 1)  # with one MP more
    _give(players, 0, 3)
    assert not smart_should_rest(*args, 0)
    stand(board, players, tally, 1, 1)
    stand(board, players, tally, 2, 1)  # the swamp is full: 5 MP to enter, then it must go on
    assert smart_should_rest(*args, 2)
    assert not smart_should_rest(*args, 3)
    players.hand_n[0] = 0
    assert smart_should_rest(*args, 8)


def test_an_effect_bites_only_where_it_would_change_something() -> None:
    board = straight_board("PWPHPP")
    players, _, tally, characters, advantages = _race(board, 2)
    stand(board, players, tally, 1, 1)  # on woods; player 0 is off the board

    def bites(card: int, target: int = 1) -> bool:
        return effect_bites(card, target, board, players, Tables(CARDS, characters, advantages))

    assert bites(SNEEZE) and not bites(WIND)
    assert not bites(SNEEZE, 0)  # nothing to push back off the board
    assert bites(MUSHROOM)  # a hill ahead
    assert not bites(SCALES_EVENT) and not bites(SCALES)  # an empty hand
    assert not bites(HASTE) and not bites(GUIDE)  # no harm to anyone
    characters[1] = character()  # steady
    assert not bites(SNEEZE)
    players.pos[1] = 4  # the hill is behind
    assert not bites(MUSHROOM)
    _give(players, 1, 1)
    assert bites(SCALES)
    players.arrival[1] = 1  # finished: immune
    assert not bites(SCALES)


def test_a_smart_target_spends_its_ward_only_on_an_effect_that_bites() -> None:
    board = straight_board("PPPPPP")
    players, _, tally, characters, advantages = _race(board, 1)
    stand(board, players, tally, 0, 2)
    _give(players, 0, BOOTS, WARD, active=True)
    args = (0, board, players, Tables(CARDS, characters, advantages))
    assert smart_ward(SNEEZE, *args) == 1  # the ward's place among the active artefacts
    assert smart_ward(WIND, *args) == 1
    assert smart_ward(MUSHROOM, *args) == -1  # no hill ahead
    _give(players, 0, BOOTS, active=True)
    assert smart_ward(SNEEZE, *args) == -1


def test_smart_uses_a_harmful_artefact_only_on_a_rival_ahead() -> None:
    board = straight_board("PPPPPPPP")
    players, _, tally, characters, advantages = _race(board, 3)
    stand(board, players, tally, 0, 3)
    stand(board, players, tally, 1, 5)
    stand(board, players, tally, 2, 3)
    _give(players, 0, WARD, BOOTS, SCALES, active=True)
    for q in (1, 2):
        _give(players, q, 4)
    args = (board, players, Tables(CARDS, characters, advantages))
    assert smart_rival_artefact(0, 1, *args) == 2
    assert smart_rival_artefact(0, 2, *args) == -1  # level with it
    assert smart_rival_artefact(1, 0, *args) == -1  # behind
    assert smart_rival_artefact(0, -1, *args) == -1
    players.hand_n[1] = 0
    assert smart_rival_artefact(0, 1, *args) == -1


def test_smart_plays_an_event_for_itself_first_then_against_the_leader_ahead() -> None:
    board = straight_board("PPPPPPPPPPPP")
    players, _, tally, characters, advantages = _race(board, 2)
    stand(board, players, tally, 0, 1)
    stand(board, players, tally, 1, 6)
    _give(players, 1, 2)

    def event(*cards: int) -> int:
        _give(players, 0, *cards)
        return smart_event(0, board, players, tally, Tables(CARDS, characters, advantages))

    assert event(8, SCALES_EVENT, MUSHROOM, SNEEZE) == 3  # a push-back before a discard
    assert event(8, SNEEZE, HASTE) == 2  # more MP before all
    assert event(2, HASTE) == -1  # never the single highest card
    assert event(HASTE) == -1
    assert event(8, GUIDE, HEAVY) == -1  # no hill ahead; dearer hills help nobody
    assert event(8, MUSHROOM) == -1  # no hill ahead of the rival either
    board.node_terrain[9] = HILLS
    assert event(8, GUIDE, MUSHROOM) == 1
    players.pos[:] = [7, 2]  # the rival is behind now
    assert event(8, SNEEZE, SCALES_EVENT) == -1
