"""The base rules of a Yummell race (rulebook pp. 5-7, SPEC.md §1 and §4), each in one place.

These functions are compiled with numba and shared by the race engine and the exact
solver; with ``NUMBA_DISABLE_JIT=1`` they run as plain Python (the benchmark's baseline).
They read the state arrays of :mod:`trackkit.games.yummell.core.state`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.yummell.core.content import (
    ADV_EFFECT,
    ADV_PARAM,
    ADV_TERRAIN,
    CARD_CHALLENGE,
    CARD_CHAR,
    CARD_NUMBER,
    CHAR_ABILITY,
    CHAR_PARAM,
    CHAR_TERRAIN,
    E_CHALLENGE_BONUS,
    E_STEADY,
    E_TERRAIN_COST,
)

CAPACITY = 2  # a square holds at most two characters (p. 3)
HAND_SIZE = 4  # replenish to four cards (p. 5)
OFF_BOARD = -1  # position before the first square of a start path


@njit(cache=True, inline="always")
def terrain_cost(
    base: int,
    terrain: int,
    character: np.ndarray,
    advantage: np.ndarray,
    curse: np.ndarray,
    turn_delta: np.ndarray,
) -> int:
    """MP to enter a square of ``terrain`` for one character, before other characters.

    The terrain's cost, plus the character's ability and advantage, its curses and the
    events of this turn; never less than 1 ("a square must cost a minimum of 1 MP").
    """
    cost = base + curse[terrain] + turn_delta[terrain]
    if character[CHAR_ABILITY] == E_TERRAIN_COST and character[CHAR_TERRAIN] == terrain:
        cost += character[CHAR_PARAM]
    if advantage[ADV_EFFECT] == E_TERRAIN_COST and advantage[ADV_TERRAIN] == terrain:
        cost += advantage[ADV_PARAM]
    return max(cost, 1)


@njit(cache=True, inline="always")
def presence_cost(others: int, fluttering: bool) -> int:
    """Extra MP for the characters on a square being entered (p. 6): +1 per character there,
    unless the mover flutters (Flamm)."""
    return 0 if fluttering else others


@njit(cache=True, inline="always")
def overtaking_toll(trolls_left_behind: int) -> int:
    """Extra MP for getting past a Troll (p. 9): "to overcome a Troll, characters must spend
    1 extra Movement Point" (Italian: *per superarlo*, to get past it).

    It is paid on the step that leaves the Troll's square behind, not on entering it: a
    character that stops beside the Troll pays nothing for it, one that leaves a square it
    shares with the Troll pays 1. Fluttering does not cancel it (both abilities apply: "When
    the Dragon surpasses the Troll, he spends 1 additional Movement Point").
    """
    return trolls_left_behind


@njit(cache=True, inline="always")
def can_host(occupants: int, is_finish: bool) -> bool:
    """A square holds two characters; the finish square and the off-board start any number."""
    return is_finish or occupants < CAPACITY


@njit(cache=True, inline="always")
def challenge_total(
    character: np.ndarray, advantage: np.ndarray, creature: np.ndarray, card_number: int
) -> int:
    """The character's challenge score: characteristic + card (+ ability and advantage)."""
    total = character[creature[CARD_CHAR]] + card_number
    if character[CHAR_ABILITY] == E_CHALLENGE_BONUS:
        total += character[CHAR_PARAM]
    if advantage[ADV_EFFECT] == E_CHALLENGE_BONUS:
        total += advantage[ADV_PARAM]
    return total


@njit(cache=True, inline="always")
def challenge_won(total: int, creature: np.ndarray) -> bool:
    """The character wins when its total is greater than the creature's value (p. 7)."""
    return total > creature[CARD_CHALLENGE]


@njit(cache=True, inline="always")
def rest(curse: np.ndarray) -> int:
    """Resting removes every curse on the character (p. 6); returns the MP lifted."""
    lifted = 0
    for terrain in range(curse.shape[0]):
        lifted += curse[terrain]
        curse[terrain] = 0
    return lifted


@njit(cache=True, inline="always")
def card_number(cards: np.ndarray, card: int) -> int:
    return cards[card, CARD_NUMBER]


@njit(cache=True, inline="always")
def is_steady(character: np.ndarray, advantage: np.ndarray) -> bool:
    """Immune to the events that push a character back."""
    return character[CHAR_ABILITY] == E_STEADY or advantage[ADV_EFFECT] == E_STEADY
