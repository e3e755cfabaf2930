"""A sled's own cards (SNOWTAILS.md §3.1, §3.3, §3.8-§3.10, §3.13): dealing the personal
deck, playing onto the dogs, drawing and reshuffling, discarding, collision cards and
repairs, the Kennels' 5s and the carry-over between the races of a tournament.

Where a player chooses (which card to discard), the engine asks the policy and calls these
functions with the choice; nothing here decides for the player.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.rules import cards_needed, dogs_after_play
from trackkit.games.snowtails.core.state import PLAY_LEFT, PLAY_RIGHT, VALUES, Setup, Sleds, shuffle
from trackkit.games.unmanaged import no_runtime


@njit(cache=True, inline="always")
def hand_count(hand: np.ndarray, collisions: np.ndarray, p: int) -> int:
    """Cards in sled ``p``'s hand (``hand`` and ``collisions`` are the :class:`Sleds`
    arrays): dog cards and collision cards together (rulebook B.5)."""
    total = collisions[p]
    for value in range(VALUES):
        total += hand[p, value]
    return total


@no_runtime
def deal(sleds: Sleds, p: int, setup: Setup, stream: np.ndarray) -> None:
    """Setup (rulebook A.5): two dogs of the starting value face up (the value of the
    sled's start slot), the held-back 5s in the box, the rest shuffled into the draw deck,
    and a hand drawn."""
    start_value = setup.start_values[sleds.slot[p]]
    n = 0
    for value in range(VALUES):
        count = setup.deck_counts[value]
        if value == start_value:
            count -= 2
        if value == setup.held_back:
            sleds.boxed[p] = count
            count = 0
        for _ in range(count):
            sleds.deck[p, n] = value
            n += 1
        sleds.hand[p, value] = 0
        sleds.under[p, value] = 0
    sleds.deck_n[p] = n
    sleds.left[p] = start_value
    sleds.right[p] = start_value
    sleds.collisions[p] = 0
    shuffle(sleds.deck[p], n, stream)
    draw_up_to(sleds, p, setup.hand_size, stream)


@njit(cache=True, inline="always")
def play_cards(sleds: Sleds, p: int, play: int, value: int) -> None:
    """Step 1 (rulebook B.1): the card(s) leave the hand and cover the dog(s); the covered
    cards are now under the dogs."""
    sleds.hand[p, value] -= cards_needed(play)
    if play != PLAY_RIGHT:  # the left dog is covered
        sleds.under[p, sleds.left[p]] += 1
    if play != PLAY_LEFT:  # the right dog is covered
        sleds.under[p, sleds.right[p]] += 1
    sleds.left[p], sleds.right[p] = dogs_after_play(sleds.left[p], sleds.right[p], play, value)


@no_runtime
def reshuffle(sleds: Sleds, p: int, stream: np.ndarray) -> None:
    """An empty deck is rebuilt from every dog card except the two on top, shuffled
    (rulebook B.5)."""
    n = sleds.deck_n[p]
    for value in range(VALUES):
        for _ in range(sleds.under[p, value]):
            sleds.deck[p, n] = value
            n += 1
        sleds.under[p, value] = 0
    sleds.deck_n[p] = n
    shuffle(sleds.deck[p], n, stream)


@no_runtime
def draw_card(sleds: Sleds, p: int, stream: np.ndarray) -> int:
    """Draw the top card into the hand, reshuffling an empty deck first; its value, or -1
    when there is no card to draw even then (SNOWTAILS.md §3.8: stop drawing)."""
    if sleds.deck_n[p] == 0:
        reshuffle(sleds, p, stream)
        if sleds.deck_n[p] == 0:
            return -1
    n = sleds.deck_n[p] - 1
    value = sleds.deck[p, n]
    sleds.deck_n[p] = n
    sleds.hand[p, value] += 1
    return value


@no_runtime
def draw_up_to(sleds: Sleds, p: int, hand_size: int, stream: np.ndarray) -> int:
    """Step 5: draw until the hand (dog and collision cards) holds ``hand_size``; the
    number of cards drawn."""
    hand, collisions = sleds.hand, sleds.collisions
    drawn = 0
    while hand_count(hand, collisions, p) < hand_size:
        if draw_card(sleds, p, stream) < 0:
            break
        drawn += 1
    return drawn


@njit(cache=True, inline="always")
def discard_dog_card(hand: np.ndarray, under: np.ndarray, p: int, value: int) -> None:
    """A discarded dog card goes under the sled's dogs (rulebook B.5); ``hand`` and
    ``under`` are the :class:`Sleds` arrays."""
    hand[p, value] -= 1
    under[p, value] += 1


@no_runtime
def repair(sleds: Sleds, p: int, hand_size: int, fresh: int, stream: np.ndarray) -> None:
    """A 5th collision card (rulebook C): every collision card is discarded, the hand is
    filled with dog cards, and the sled sits out until it is last at the start of a round.

    The rulebook says "draw 5 new dog cards". By default (the reading ``repair_draw =
    "keep"``) a dog card still in hand is kept and the hand drawn up to 5 [R] (SNOWTAILS.md
    §3.10); with ``fresh`` (``"fresh"``, the literal text) the dog cards in hand are
    discarded under the dogs first, as a discard is (rulebook B.5), and 5 are drawn.
    """
    sleds.collisions[p] = 0
    if fresh != 0:
        for value in range(VALUES):
            while sleds.hand[p, value] > 0:
                discard_dog_card(sleds.hand, sleds.under, p, value)
    draw_up_to(sleds, p, hand_size, stream)
    sleds.repairing[p] = 1


@no_runtime
def add_held_back_card(sleds: Sleds, p: int, held_back: int, stream: np.ndarray) -> bool:
    """The Kennels (rulebook F): a 5 from the box goes into the draw deck, which is then
    shuffled. Nothing happens once both 5s have left the box; whether a 5 is "in the deck"
    is read as "out of the box", wherever it is now [R]."""
    if sleds.boxed[p] == 0:
        return False
    sleds.boxed[p] -= 1
    n = sleds.deck_n[p]
    sleds.deck[p, n] = held_back
    sleds.deck_n[p] = n + 1
    shuffle(sleds.deck[p], n + 1, stream)
    return True


@no_runtime
def carry_over(sleds: Sleds, p: int, hand_size: int, stream: np.ndarray) -> None:
    """Between the races of a tournament (rulebook E, steps 1-3): collision cards are
    discarded; the dog cards under the two dogs are shuffled and put under the draw deck
    (the dogs stay in play, gained 5s stay); the hand is filled to 5."""
    sleds.collisions[p] = 0
    under = 0
    for value in range(VALUES):
        under += sleds.under[p, value]
    n = sleds.deck_n[p]
    deck = sleds.deck[p]
    for i in range(n - 1, -1, -1):  # make room at the bottom (index 0 is the bottom)
        deck[i + under] = deck[i]
    k = 0
    for value in range(VALUES):
        for _ in range(sleds.under[p, value]):
            deck[k] = value
            k += 1
        sleds.under[p, value] = 0
    shuffle(deck, under, stream)
    sleds.deck_n[p] = n + under
    draw_up_to(sleds, p, hand_size, stream)
