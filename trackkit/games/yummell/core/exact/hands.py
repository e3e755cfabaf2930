"""The exact solver's hands (:mod:`trackkit.games.yummell.core.exact`): every hand of cards as
a sorted multiset of card numbers, indexed, and the tables of how a greedy turn's cards
go (drawn, played, lost, refilled), made once per deck and advantage."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.yummell.core.content import MAX_CARD_NUMBER

HAND = 4
# the two values solved for every state: the chance of finishing, and the rounds of the
# races that finish (``q`` and ``m`` of the package docstring)
CHANCE, ROUNDS = range(2)
VALUES = 2


class TurnTables(NamedTuple):
    """How a turn's cards go (:func:`_turn_tables`): per hand of four and draw outcome,
    its chance, the MP played and the hand held after moving; per hand held and card lost,
    the hand it leaves; per hand held, the hand of four kept when none is lost."""

    prob: np.ndarray  # (hands of four, outcomes) packed first, in ascending MP
    mp: np.ndarray  # (hands of four, outcomes)
    after: np.ndarray  # (hands of four, outcomes) index of the hand held after moving
    held: np.ndarray  # (hands held, cards) the hands held after moving
    lost: np.ndarray  # (hands held, cards)
    keep: np.ndarray  # (hands held,)


def _hands(size: int) -> np.ndarray:
    """Every multiset of ``size`` card numbers, sorted ascending, one per row."""
    return np.array(
        list(combinations_with_replacement(range(1, MAX_CARD_NUMBER + 1), size)), dtype=np.int64
    )


def _code(hand: np.ndarray) -> int:
    code = 0
    for number in hand:
        code = code * 9 + number
    return code


HANDS5, HANDS4, HANDS3 = _hands(5), _hands(4), _hands(3)
INDEX5 = np.full(9**5, -1, dtype=np.int64)
INDEX4 = np.full(9**4, -1, dtype=np.int64)
INDEX3 = np.full(9**3, -1, dtype=np.int64)
for _i, _h in enumerate(HANDS5):
    INDEX5[_code(_h)] = _i
for _i, _h in enumerate(HANDS4):
    INDEX4[_code(_h)] = _i
for _i, _h in enumerate(HANDS3):
    INDEX3[_code(_h)] = _i


@njit(cache=True)
def _index(hand: np.ndarray, table: np.ndarray) -> int:
    code = 0
    for number in hand:
        code = code * 9 + number
    return table[code]


@njit(cache=True)
def _without(hand: np.ndarray, position: int) -> np.ndarray:
    out = np.empty(hand.shape[0] - 1, dtype=np.int64)
    k = 0
    for i in range(hand.shape[0]):
        if i != position:
            out[k] = hand[i]
            k += 1
    return out


@njit(cache=True)
def _with(hand: np.ndarray, number: int) -> np.ndarray:
    """``hand`` (sorted) with ``number`` added, still sorted."""
    out = np.empty(hand.shape[0] + 1, dtype=np.int64)
    k = 0
    placed = False
    for value in hand:
        if not placed and number <= value:
            out[k] = number
            k += 1
            placed = True
        out[k] = value
        k += 1
    if not placed:
        out[k] = number
    return out


@njit(cache=True)
def _by_mp(prob: np.ndarray, mp: np.ndarray, after: np.ndarray) -> None:
    """Sort one hand's outcomes by the MP they play, ascending (an insertion sort: a few)."""
    for i in range(1, mp.shape[0]):
        j = i
        while j > 0 and mp[j - 1] > mp[j]:
            prob[j - 1], prob[j] = prob[j], prob[j - 1]
            mp[j - 1], mp[j] = mp[j], mp[j - 1]
            after[j - 1], after[j] = after[j], after[j - 1]
            j -= 1


@njit(cache=True)
def _turn_tables(
    hands4: np.ndarray,
    hands5: np.ndarray,
    index5: np.ndarray,
    index4: np.ndarray,
    index3: np.ndarray,
    draw: np.ndarray,
    kept: np.ndarray,
    two: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How a turn's cards go, once per deck and advantage.

    Before moving, a hand of four draws one card (``draw``) and, with draw-two-keep-one
    (``two``), keeps one more (``kept``); greedy moves with the highest. The hand left
    after moving (four cards, or five with the advantage) is indexed in ``hands4`` or
    ``hands5``. Returns, per hand of four and draw outcome (packed first, in ascending
    MP): probability, MP played and the hand after moving; per hand after moving and card
    lost (to a challenge or a discard) the hand it leaves (of three to refill, or of four
    with the advantage), and the hand of four kept at Replenishment when no card is lost
    (itself, or the best four of five).
    """
    n4 = hands4.shape[0]
    outcomes = MAX_CARD_NUMBER * (MAX_CARD_NUMBER if two else 1)
    prob = np.zeros((n4, outcomes))
    mp = np.zeros((n4, outcomes), dtype=np.int64)
    after = np.zeros((n4, outcomes), dtype=np.int64)
    for h in range(n4):
        k = 0
        for first in range(1, MAX_CARD_NUMBER + 1):
            seconds = MAX_CARD_NUMBER if two else 1
            for j in range(seconds):
                second = j + 1
                chance = draw[first] * (kept[second] if two else 1.0)
                hand = _with(hands4[h], first)
                if two:
                    hand = _with(hand, second)
                if chance == 0.0:
                    continue
                size = hand.shape[0]
                left = _index(hand[: size - 1], index5) if two else _index(hand[:-1], index4)
                # draws that leave the same hand and MP are one outcome: the outcomes of a
                # hand are packed first, the rest left at chance 0
                same = k
                for j in range(k):
                    if mp[h, j] == hand[size - 1] and after[h, j] == left:
                        same = j
                        break
                prob[h, same] += chance
                mp[h, same] = hand[size - 1]
                after[h, same] = left
                if same == k:
                    k += 1
        _by_mp(prob[h, :k], mp[h, :k], after[h, :k])
    held = hands5 if two else hands4
    size = held.shape[1]
    lost = np.zeros((held.shape[0], size), dtype=np.int64)
    keep = np.zeros(held.shape[0], dtype=np.int64)
    for m in range(held.shape[0]):
        for c in range(size):
            rest = _without(held[m], c)
            lost[m, c] = _index(rest, index4) if two else _index(rest, index3)
        keep[m] = lost[m, 0] if two else m
    return prob, mp, after, held, lost, keep


@njit(cache=True)
def _refill_table(hands3: np.ndarray, index4: np.ndarray) -> np.ndarray:
    """The hand of four a hand of three becomes with each number drawn."""
    refilled = np.zeros((hands3.shape[0], MAX_CARD_NUMBER + 1), dtype=np.int64)
    for h in range(hands3.shape[0]):
        for number in range(1, MAX_CARD_NUMBER + 1):
            refilled[h, number] = _index(_with(hands3[h], number), index4)
    return refilled


@lru_cache(maxsize=1)
def _refilled() -> np.ndarray:
    return _refill_table(HANDS3, INDEX4)


@lru_cache(maxsize=4)
def _turns(draw: bytes, kept: bytes, two: bool) -> TurnTables:
    """:func:`_turn_tables` for the chances of each number drawn (``draw``) and of each
    kept of two (``kept``), as bytes (a cache key)."""
    tables = _turn_tables(
        HANDS4,
        HANDS5,
        INDEX5,
        INDEX4,
        INDEX3,
        np.frombuffer(draw),
        np.frombuffer(kept),
        two,
    )
    return TurnTables(*tables)


def _hand_probabilities(refill: np.ndarray) -> np.ndarray:
    """Probability of each starting hand of four independent draws."""
    key = refill.tobytes()
    if key not in _STARTING_HANDS:
        _STARTING_HANDS[key] = _starting_hands(refill)
    return _STARTING_HANDS[key]


_STARTING_HANDS: dict[bytes, np.ndarray] = {}


def _starting_hands(refill: np.ndarray) -> np.ndarray:
    out = np.zeros(len(HANDS4))
    for i, hand in enumerate(HANDS4):
        counts = np.bincount(hand, minlength=MAX_CARD_NUMBER + 1)
        ways = factorial(HAND) / np.prod([factorial(c) for c in counts])
        out[i] = ways * np.prod(refill[hand])
    return out
