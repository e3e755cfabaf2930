"""Cards on the move (rulebook p. 3-5): drawn from the deck, into and out of a hand and a
player's artefacts, to the discard pile, and the discard pile shuffled back."""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.unmanaged import no_runtime
from trackkit.games.yummell.core.content import CARD_EFFECT
from trackkit.games.yummell.core.state import (
    ACTIVE_N,
    HAND_N,
    MAX_HAND,
    Deck,
    Players,
    Tally,
    rand_below,
    shuffle,
)


@njit(cache=True, inline="always")
def draw(deck: Deck, cards: np.ndarray, tally: Tally) -> int:
    """Draw a card id; -1 if every card is in a hand or in play."""
    if deck.counts[2]:
        return rand_below(tally.dice, cards.shape[0])
    if deck.counts[0] == 0 and not reshuffle(deck, tally.dice):
        return -1
    deck.counts[0] -= 1
    return deck.pile[deck.counts[0]]


@no_runtime(wraparound=False)
def reshuffle(deck: Deck, dice: np.ndarray) -> bool:
    """The discard pile is shuffled into a new draw pile (p. 3); False if it is empty.

    Compiled on its own, not inlined: it runs once per pass through the deck, and each
    inlined copy would lengthen the compiled turn (and its compile time) for nothing; it
    takes only the arrays it needs, as passing a state tuple to a call costs one argument
    per array."""
    n = deck.counts[1]
    if n == 0:
        return False
    for i in range(n):
        deck.pile[i] = deck.discard[i]
    deck.counts[0], deck.counts[1] = n, 0
    shuffle(deck.pile, n, dice)
    return True


@njit(cache=True, inline="always")
def discard(deck: Deck, card: int) -> None:
    if not deck.counts[2] and card >= 0:
        deck.discard[deck.counts[1]] = card
        deck.counts[1] += 1


@njit(cache=True, inline="always")
def pop_at(values: np.ndarray, info: np.ndarray, count: int, p: int, index: int) -> int:
    """Take the card at ``index`` of player ``p``'s row (a hand, its artefacts), whose
    length is column ``count`` of ``info``."""
    card = values[p, index]
    last = info[p, count] - 1
    values[p, index] = values[p, last]
    info[p, count] = last
    return card


@njit(cache=True, inline="always")
def take_from_hand(players: Players, p: int, index: int) -> int:
    return pop_at(players.hand, players.info, HAND_N, p, index)


@njit(cache=True, inline="always")
def add_to_hand(players: Players, p: int, card: int) -> None:
    if card >= 0 and players.info[p, HAND_N] < MAX_HAND:
        players.hand[p, players.info[p, HAND_N]] = card
        players.info[p, HAND_N] += 1


@njit(cache=True, inline="always")
def take_artefact(players: Players, p: int, index: int) -> int:
    return pop_at(players.active, players.info, ACTIVE_N, p, index)


@njit(cache=True, inline="always")
def find_artefact(players: Players, cards: np.ndarray, p: int, effect: int) -> int:
    for i in range(players.info[p, ACTIVE_N]):
        if cards[players.active[p, i], CARD_EFFECT] == effect:
            return i
    return -1
