"""The rules of events, artefacts, abilities, advantages and the deck, one by one.

Each test plays one engine function on a hand-made position and checks it against the
rulebook's words (pp. 3-7, quoted). Cards are made here, not read from the reconstructed
deck, so a change to the deck cannot hide a rule.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import HILLS, advantage, character, race_state, stand, straight_board

from trackkit.games.yummell.core.content import ARTEFACT, CREATURE, EVENT, TERRAINS, Effect
from trackkit.games.yummell.core.deck import draw
from trackkit.games.yummell.core.policies import GREEDY, SMART
from trackkit.games.yummell.core.rules import terrain_cost
from trackkit.games.yummell.core.state import Tables, start_race
from trackkit.games.yummell.core.turn import encounter, play_against, steal_artefact, take_turn

PLAIN, WOODS = TERRAINS.index("plain"), TERRAINS.index("woods")


def card(
    number: int,
    kind: int,
    effect: Effect = Effect.NONE,
    terrain: int = -1,
    param: int = 1,
    arrow: bool = False,
    characteristic: int = 0,
    challenge: int = 0,
) -> list[int]:
    """A row of the cards table: number, type, characteristic, challenge, effect, terrain,
    parameter, arrow."""
    return [number, kind, characteristic, challenge, int(effect), terrain, param, int(arrow)]


WIND = 0  # back if on a plain, arrow
SNEEZE = 1  # back, arrow
MUSHROOM = 2  # hills +1 until rest, arrow
SCALES_EVENT = 3  # discard 1, arrow
SCALES = 4  # artefact: a rival discards 1
WARD = 5
MORE_MP = 6  # artefact: +2 MP once
OGRE = 7  # creature, Strength 6
FILLER = 8  # cards 8..15: numbers 1..8, plain creatures used for their numbers
CARDS = np.array(
    [
        card(1, EVENT, Effect.BACK_IF_TERRAIN, PLAIN, arrow=True),
        card(2, EVENT, Effect.BACK, arrow=True),
        card(1, EVENT, Effect.CURSE, HILLS, 1, arrow=True),
        card(3, EVENT, Effect.DISCARD, arrow=True),
        card(3, ARTEFACT, Effect.DISCARD),
        card(4, ARTEFACT, Effect.WARD),
        card(5, ARTEFACT, Effect.MP_BONUS, param=2),
        card(2, CREATURE, characteristic=0, challenge=6),
    ]
    + [card(n, CREATURE, characteristic=0, challenge=99) for n in range(1, 9)],
    dtype=np.int64,
)


def number(n: int) -> int:
    """The filler card carrying number ``n``."""
    return FILLER + n - 1


# an ability and an advantage that change nothing (+0 in challenges): not steady, so push-backs bite
PLAIN_CHARACTER = character(ability=Effect.CHALLENGE_BONUS, param=0)
PLAIN_ADVANTAGE = advantage(Effect.CHALLENGE_BONUS, param=0)


def _setup(squares: str, n: int, policies: list[int] | None = None):  # type: ignore[no-untyped-def]
    board = straight_board(squares)
    players, deck, tally = race_state(board, n)
    players.policy[:] = policies or [GREEDY] * n
    characters = np.array([PLAIN_CHARACTER] * n)
    advantages = np.array([PLAIN_ADVANTAGE] * n)
    return board, players, deck, tally, characters, advantages


def _hand(players, p: int, *cards: int) -> None:  # type: ignore[no-untyped-def]
    players.hand[p, : len(cards)] = cards
    players.hand_n[p] = len(cards)


def _active(players, p: int, *cards: int) -> None:  # type: ignore[no-untyped-def]
    players.active[p, : len(cards)] = cards
    players.active_n[p] = len(cards)


def _against(card_id: int, target: int, state) -> None:  # type: ignore[no-untyped-def]
    board, players, deck, tally, characters, advantages = state
    tables = Tables(CARDS, characters, advantages)
    play_against(card_id, target, board, players, deck, tally, tables, 1)


# --- events played against a character (p. 6-7) ----------------------------------------


def test_wind_sends_back_a_character_on_a_plain_only() -> None:
    # "Wind, an Event that pushes back a character who is located in the plains ... If the
    # character is in a Plain square, he/she must backtrack. Otherwise it will have no effect"
    state = _setup("PPWPPP", 3)
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 3)
    stand(board, players, tally, 1, 2)  # on woods
    _against(WIND, 0, state)
    assert players.pos[0] == 2  # back to the first square behind that can host
    _against(WIND, 1, state)
    assert players.pos[1] == 2  # woods: no effect
    # "the other characters, even those who find themselves in the same square, are immune"
    assert players.pos[0] == 2


def test_a_push_back_skips_full_squares() -> None:
    state = _setup("PPPPPP", 4)
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 4)
    stand(board, players, tally, 1, 3)
    stand(board, players, tally, 2, 3)
    _against(SNEEZE, 0, state)
    assert players.pos[0] == 2
    assert tally.occupancy[4] == 0 and tally.occupancy[2] == 1


def test_a_steady_character_is_not_pushed_back() -> None:
    state = _setup("PPPPPP", 1)
    board, players, _, tally, characters, _ = state
    characters[0] = character(ability=Effect.STEADY)
    stand(board, players, tally, 0, 3)
    _against(SNEEZE, 0, state)
    assert players.pos[0] == 3
    characters[0] = character(ability=Effect.FLUTTERING)
    _against(SNEEZE, 0, state)
    assert players.pos[0] == 2


def test_a_curse_lasts_until_the_character_rests() -> None:
    # Mushroom Curse: "all Hills square cost 1 Movement Point more until you stop to rest"
    state = _setup("PHHPPP", 1)
    board, players, _, tally, characters, advantages = state
    stand(board, players, tally, 0, 0)
    _against(MUSHROOM, 0, state)
    _against(MUSHROOM, 0, state)  # curses stack
    no_event = np.zeros(4, dtype=np.int64)
    assert terrain_cost(2, HILLS, characters[0], advantages[0], players.curse[0], no_event) == 4
    assert players.curse[0, HILLS] == 2


def test_a_discard_event_takes_the_lowest_card_and_spares_an_empty_hand() -> None:
    state = _setup("PPPPPP", 2)
    _, players, deck, _, _, _ = state
    _hand(players, 0, number(7), number(2), number(5))
    _against(SCALES_EVENT, 0, state)
    assert sorted(CARDS[players.hand[0, : players.hand_n[0]], 0]) == [5, 7]
    assert deck.discard[deck.counts[1] - 1] == number(2)
    _against(SCALES_EVENT, 1, state)  # nothing to discard: nothing happens
    assert players.hand_n[1] == 0


def test_a_finished_character_is_immune() -> None:
    # "When a character reaches the final square, he/she becomes immune to events"
    state = _setup("PPPPPP", 1)
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 5)
    players.arrival[0] = 1
    _hand(players, 0, number(3))
    _against(SNEEZE, 0, state)
    _against(SCALES_EVENT, 0, state)
    assert players.pos[0] == 5 and players.hand_n[0] == 1


# --- wards (reconstructed artefact) and the smart policy (ISSUE 7 item 7) ---------------


def test_a_smart_character_spends_its_ward_only_on_an_event_that_hurts() -> None:
    state = _setup("PPWPPP", 1, [SMART])
    board, players, deck, tally, _, _ = state
    stand(board, players, tally, 0, 2)  # on woods
    _active(players, 0, WARD)
    _against(WIND, 0, state)  # would do nothing on woods: the ward is kept
    assert players.active_n[0] == 1
    _against(SNEEZE, 0, state)  # would push it back: the ward cancels it
    assert players.pos[0] == 2 and players.active_n[0] == 0
    assert deck.discard[deck.counts[1] - 1] == WARD  # used once, then discarded


def test_a_ward_is_kept_against_a_curse_on_terrain_left_behind_and_an_empty_discard() -> None:
    state = _setup("PHPPPP", 1, [SMART])
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 2)  # the only hill is behind
    _active(players, 0, WARD)
    _against(MUSHROOM, 0, state)
    _against(SCALES_EVENT, 0, state)  # an empty hand
    assert players.active_n[0] == 1
    _hand(players, 0, number(4))
    _against(SCALES_EVENT, 0, state)
    assert players.active_n[0] == 0 and players.hand_n[0] == 1


def test_greedy_never_uses_a_ward() -> None:
    state = _setup("PPPPPP", 1, [GREEDY])
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 3)
    _active(players, 0, WARD)
    _against(SNEEZE, 0, state)
    assert players.pos[0] == 2 and players.active_n[0] == 1


# --- encounters: artefacts, Scales of Ftoll (ISSUE 7 item 2) ---------------------------


def _encounter_with(top: int, state, p: int = 0) -> None:  # type: ignore[no-untyped-def]
    """Face ``top`` as the encounter card (the next card of the draw pile)."""
    board, players, deck, tally, characters, advantages = state
    deck.counts[2] = 0
    deck.pile[0] = top
    deck.counts[0], deck.counts[1] = 1, 0
    start_race(tally.dice, np.uint64(0))
    encounter(p, board, players, deck, tally, Tables(CARDS, characters, advantages), 1)


def test_an_artefact_drawn_joins_the_active_artefacts() -> None:
    # "When an Artefact card is drawn, the player ... places it amongst his/her active
    # Artefacts." Scales of Ftoll is an artefact: drawn, it hurts nobody.
    state = _setup("PPPPPP", 1)
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 2)
    _hand(players, 0, number(3), number(4))
    _encounter_with(SCALES, state)
    assert list(players.active[0, : players.active_n[0]]) == [SCALES]
    assert players.hand_n[0] == 2


def test_a_challenge_lost_sends_back_and_won_advances() -> None:
    # Strength 5 against a Strength 6 creature: a card of 2 wins (7 > 6), a 1 loses
    state = _setup("PPPPPP", 1)
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 2)
    _hand(players, 0, number(1))
    _encounter_with(OGRE, state)
    assert players.pos[0] == 1 and players.hand_n[0] == 0
    _hand(players, 0, number(2), number(8))
    _encounter_with(OGRE, state)
    assert players.pos[0] == 2  # the lowest winning card, the 2
    assert CARDS[players.hand[0, 0], 0] == 8
    players.hand_n[0] = 0  # no card: lost ("even if the player does not have a card")
    _encounter_with(OGRE, state)
    assert players.pos[0] == 1


def _turn(state, p: int, encounters: bool = False, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
    board, players, deck, tally, characters, advantages = state
    start_race(tally.dice, np.uint64(seed))
    tables = Tables(CARDS, characters, advantages)
    take_turn(p, board, players, deck, tally, tables, encounters, 1)


def _pile(deck, *cards: int) -> None:  # type: ignore[no-untyped-def]
    """A finite draw pile whose next draws are ``cards``, in this order."""
    deck.counts[2] = 0
    deck.pile[: len(cards)] = cards[::-1]
    deck.counts[0], deck.counts[1] = len(cards), 0


def test_a_smart_player_uses_scales_of_ftoll_on_the_rival_ahead() -> None:
    # "Choose a player to discard 1 card. Discard after use."
    state = _setup("PPPPPPPPPP", 2, [SMART, GREEDY])
    board, players, deck, tally, _, _ = state
    stand(board, players, tally, 0, 1)
    stand(board, players, tally, 1, 6)
    _hand(players, 0, number(2), number(2), number(2), number(2))
    _hand(players, 1, number(1), number(6), number(8), number(8))
    _active(players, 0, SCALES)
    _pile(deck, *[number(2)] * 10)
    _turn(state, 0)
    assert players.active_n[0] == 0
    assert sorted(CARDS[players.hand[1, : players.hand_n[1]], 0]) == [6, 8, 8]
    assert SCALES in deck.discard[: deck.counts[1]]


def test_scales_of_ftoll_is_kept_when_it_would_not_bite() -> None:
    state = _setup("PPPPPPPPPP", 2, [SMART, GREEDY])
    board, players, deck, tally, _, _ = state
    stand(board, players, tally, 0, 1)
    stand(board, players, tally, 1, 6)
    _hand(players, 0, number(2), number(2), number(2), number(2))
    _active(players, 0, SCALES)  # the rival ahead holds no card
    _pile(deck, *[number(2)] * 10)
    _turn(state, 0)
    assert list(players.active[0, : players.active_n[0]]) == [SCALES]


def test_greedy_never_uses_an_artefact() -> None:
    state = _setup("PPPPPPPPPP", 2, [GREEDY, GREEDY])
    board, players, deck, tally, _, _ = state
    stand(board, players, tally, 0, 1)
    stand(board, players, tally, 1, 6)
    _hand(players, 0, number(2), number(2), number(2), number(2))
    _hand(players, 1, number(1), number(6))
    _active(players, 0, SCALES, MORE_MP)
    _pile(deck, *[number(2)] * 10)
    _turn(state, 0)
    assert players.active_n[0] == 2 and players.hand_n[1] == 2


# --- activating artefacts (p. 5) ---------------------------------------------------------


def test_an_artefact_played_from_the_hand_is_active_only_after_replenishment() -> None:
    # "begin to activate an Artefact from his hand ... which will not be functional until
    # the end of the card replenishment phase of the same player's turn"
    state = _setup("PPPPPPPPPP", 1, [SMART])
    _, players, deck, _, _, _ = state
    _hand(players, 0, MORE_MP, number(1), number(1), number(8))
    _pile(deck, *[number(1)] * 10)
    _turn(state, 0)
    # moved with its 8 alone: the artefact was being activated, not usable, this turn
    assert players.pos[0] == 7
    assert list(players.active[0, : players.active_n[0]]) == [MORE_MP]
    assert players.pending_n[0] == 0


# --- Cleptomania and the thief's advantage (pp. 2, 5, 7) --------------------------------


def test_cleptomania_takes_an_active_artefact_from_a_character_on_its_square() -> None:
    state = _setup("PPPPPP", 3)
    board, players, _, tally, _, _ = state
    stand(board, players, tally, 0, 2)
    stand(board, players, tally, 1, 2)
    stand(board, players, tally, 2, 3)
    _active(players, 1, WARD)
    _active(players, 2, MORE_MP)
    steal_artefact(board, players, tally, 0, 1)
    assert list(players.active[0, : players.active_n[0]]) == [WARD]
    assert players.active_n[1] == 0 and players.active_n[2] == 1  # not from another square


@pytest.mark.parametrize(
    ("ability", "edge"),
    [(Effect.CLEPTOMANIA, Effect.STEADY), (Effect.STEADY, Effect.STEAL_ARTEFACT)],
)
def test_stopping_by_a_rival_after_moving_takes_its_artefact(ability: Effect, edge: Effect) -> None:
    # Fulmergh's Cleptomania, and the advantage "taking an artefact when stopping on an
    # occupied square": at the end of the movement
    state = _setup("PPPPPPPP", 2, [GREEDY, GREEDY])
    board, players, deck, tally, characters, advantages = state
    characters[0] = character(ability=ability)
    advantages[0] = advantage(edge)
    stand(board, players, tally, 0, 0)
    stand(board, players, tally, 1, 3)
    _active(players, 1, WARD)
    _hand(players, 0, number(4), number(1), number(1), number(1))
    _pile(deck, number(1), number(1), number(1))
    _turn(state, 0)  # the 4: two plains, then a plain with the rival for 1 + 1
    assert players.pos[0] == 3  # 1 + 1 + (1 + 1)
    assert list(players.active[0, : players.active_n[0]]) == [WARD]
    assert players.active_n[1] == 0


# --- the hand: Preparation, draw-two-keep-one, Replenishment, the deck (pp. 3, 5) -------


def test_replenishment_draws_up_to_four_and_discards_down_to_four() -> None:
    state = _setup("PPPPPPPPPP", 1)
    _, players, deck, _, _, _ = state
    _hand(players, 0, number(3), number(3))
    _pile(deck, number(5), number(6), number(7), number(8))
    _turn(state, 0)  # draws the 5, moves with it, then draws 6 and 7 back to four
    assert sorted(CARDS[players.hand[0, : players.hand_n[0]], 0]) == [3, 3, 6, 7]


def test_draw_two_keep_one_comes_on_top_of_the_preparation_draw() -> None:
    # "At the start of the turn the player draws 2 cards and keeps 1": the Preparation draw
    # first, then the advantage (README, modelling decisions). Six cards before moving.
    state = _setup("PPPPPPPPPPPPPPPPPPPP", 1)
    _, players, deck, _, _, advantages = state
    advantages[0] = advantage(Effect.DRAW_TWO_KEEP_ONE)
    _hand(players, 0, number(1), number(1), number(1), number(1))
    _pile(deck, number(2), number(3), number(5))  # Preparation 2; then 3 and 5: keep 5
    _turn(state, 0)
    assert players.pos[0] == 4  # moved with the 5
    # five cards left after moving: the lowest is discarded at Replenishment
    assert sorted(CARDS[players.hand[0, : players.hand_n[0]], 0]) == [1, 1, 1, 2]
    assert sorted(CARDS[deck.discard[: deck.counts[1]], 0]) == [1, 3, 5]


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() -> None:
    # "Once there are no more cards to draw from the draw pile, the discard pile must be
    # shuffled in order to make a new draw pile"
    state = _setup("PPPPPP", 1)
    _, _, deck, tally, _, _ = state
    deck.counts[2] = 0
    deck.counts[0] = 0
    deck.discard[:3] = [number(1), number(2), number(3)]
    deck.counts[1] = 3
    start_race(tally.dice, np.uint64(5))
    drawn = [draw(deck, CARDS, tally) for _ in range(3)]
    assert sorted(drawn) == [number(1), number(2), number(3)]
    assert deck.counts[1] == 0
    assert draw(deck, CARDS, tally) == -1  # every card in a hand or in play
