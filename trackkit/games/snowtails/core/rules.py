"""The small rules of a Snow Tails turn (SNOWTAILS.md §3), each in one function named
after it: playing dog cards, speed and drift, the forced drift, the bonus die, the
Tavern, start slots and tournament points.

Compiled with numba and shared by the engine and the policies; with ``NUMBA_DISABLE_JIT=1``
they run as plain Python. Bigger rules live beside them: movement and collisions in
:mod:`.movement`, cards, refills and repairs in :mod:`.cards`, rounds and the end of the
race in :mod:`.engine`.

**Drift schedules.** A move is a schedule of ``speed`` steps, each ``S`` (straight
ahead) or ``D`` (a lane change toward the faster dog), with exactly ``drift`` D steps
(rulebook B.3). A schedule is coded as an integer whose base-3 digits, most significant
first, are its steps (D = 1, S = 2), padded with 0 to :data:`MAX_STEPS` digits: comparing
codes compares the schedules as text (``"DDS" < "DS" < "S"``), the order the greedy
policy's last tie-break uses.

>>> schedule_text(schedule_code("SSDSSD"))
'SSDSSD'
>>> schedule_code("DDDSS") < schedule_code("DDSDS") < schedule_code("SSDDD")
True
>>> speed(4, 1), drift(4, 1), drift_kind(4, 1) == DRIFT_LEFT
(5, 3, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.snowtails import MAX_COLLISIONS
from trackkit.games.snowtails.core.board import AHEAD, DRIFT_LEFT, DRIFT_RIGHT
from trackkit.games.snowtails.core.state import PLAY_BOTH, PLAY_LEFT, PLAY_RIGHT, VALUES
from trackkit.games.unmanaged import no_runtime

MAX_DIE = 6  # a bonus die shows 1-6 (rulebook B.2: "fino ad un massimo di 6")
MAX_STEPS = 10  # the fastest move: two dogs of 5
DIGIT_D, DIGIT_S = 1, 2
TOURNAMENT_POINTS = np.array([10, 7, 5, 4, 3, 2, 1, 0], dtype=np.int64)  # rulebook E
PLAY_NAMES = ("left", "right", "both")


# --- step 1: play dog cards (rulebook B.1) -----------------------------------------------


@njit(cache=True, inline="always")
def cards_needed(play: int) -> int:
    """One card on one dog, or two of the same value, one on each."""
    return 2 if play == PLAY_BOTH else 1


@njit(cache=True, inline="always")
def can_play(hand: np.ndarray, play: int, value: int) -> bool:
    """Whether ``hand`` (counts by value) holds the card(s) for ``play`` of ``value``.
    A card equal to the dog's current value may be played (SNOWTAILS.md §3.3)."""
    return hand[value] >= cards_needed(play)


@njit(cache=True, inline="always")
def dogs_after_play(left: int, right: int, play: int, value: int) -> tuple[int, int]:
    """The dogs' values once the played card(s) cover the old ones."""
    if play == PLAY_LEFT:
        return value, right
    if play == PLAY_RIGHT:
        return left, value
    return value, value


def legal_plays(left: int, right: int, hand: np.ndarray) -> list[tuple[str, int]]:
    """Every play the hand allows, as (``"left"``/``"right"``/``"both"``, value).

    >>> legal_plays(2, 2, np.array([1, 1, 0, 2, 1, 0]))   # T21: hand {0, 1, 3, 3, 4}
    ... # doctest: +NORMALIZE_WHITESPACE
    [('left', 0), ('left', 1), ('left', 3), ('left', 4), ('right', 0), ('right', 1),
     ('right', 3), ('right', 4), ('both', 3)]
    """
    return [
        (PLAY_NAMES[play], value)
        for play in (PLAY_LEFT, PLAY_RIGHT, PLAY_BOTH)
        for value in range(VALUES)
        if can_play(hand, play, value)
    ]


def valid_starting_pair(left: int, right: int) -> bool:
    """The optional expert start (rulebook A.5): any two dogs of one value, not 0."""
    return left == right and 0 < left < VALUES


# --- speed and drift (rulebook B.3) -----------------------------------------------------


@njit(cache=True, inline="always")
def speed(left: int, right: int) -> int:
    """Steps of the move: the sum of the two dogs (no brakes, no speed limits)."""
    return left + right


@njit(cache=True, inline="always")
def drift(left: int, right: int) -> int:
    """Lane changes the move must make: the difference between the dogs."""
    return abs(left - right)


@njit(cache=True, inline="always")
def drift_kind(left: int, right: int) -> int:
    """The step a drift makes: toward the faster dog (AHEAD when balanced)."""
    if left > right:
        return DRIFT_LEFT
    if right > left:
        return DRIFT_RIGHT
    return AHEAD


@njit(cache=True, inline="always")
def is_balanced(left: int, right: int) -> bool:
    return left == right


@njit(cache=True, inline="always")
def must_drift(steps_left: int, drifts_left: int) -> bool:
    """Forced drift (rulebook B.3): a sled must drift when its unused drift equals its
    remaining steps."""
    return drifts_left > 0 and drifts_left >= steps_left


@njit(cache=True, inline="always")
def may_go_straight(steps_left: int, drifts_left: int) -> bool:
    return steps_left > drifts_left


# --- schedules --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def digit_weight(step: int) -> int:
    """The place value of step ``step`` (0 = the first) in a schedule code."""
    weight = 1
    for _ in range(MAX_STEPS - 1 - step):
        weight *= 3
    return weight


@no_runtime
def schedule_digit(code: int, step: int) -> int:
    """DIGIT_D or DIGIT_S: step ``step`` of the schedule ``code``; 0 past its end."""
    return (code // digit_weight(step)) % 3


@njit(cache=True, inline="always")
def complete_schedule(code: int, done: int, drifts_left: int, steps: int) -> int:
    """A schedule whose first ``done`` steps are ``code``, completed with its remaining
    drifts first: the smallest completion, the one a move cut short by a collision is
    recorded as (every completion ends the same)."""
    for step in range(done, steps):
        digit = DIGIT_D if step - done < drifts_left else DIGIT_S
        code += digit * digit_weight(step)
    return code


def schedule_code(text: str) -> int:
    """The code of a schedule written as text, e.g. ``"SSDSSD"``."""
    if len(text) > MAX_STEPS or set(text) - {"S", "D"}:
        raise ValueError(f"a schedule is up to {MAX_STEPS} letters S or D, not {text!r}")
    return sum(
        (DIGIT_D if c == "D" else DIGIT_S) * 3 ** (MAX_STEPS - 1 - i) for i, c in enumerate(text)
    )


def schedule_text(code: int) -> str:
    """The schedule ``code`` as text (its digits up to the first 0)."""
    letters = []
    for step in range(MAX_STEPS):
        digit = int(schedule_digit(code, step))
        if digit == 0:
            break
        letters.append("D" if digit == DIGIT_D else "S")
    return "".join(letters)


def schedule_is_legal(text: str, left: int, right: int) -> bool:
    """Whether ``text`` is a schedule the dogs allow, checked step by step: ``speed``
    steps, a D only while drift is left, and a D wherever the drift is forced.

    >>> schedule_is_legal("SSSSDD", 4, 2), schedule_is_legal("SSSSSD", 4, 2)   # T04
    (True, False)
    """
    steps, drifts_left = speed(left, right), drift(left, right)
    if len(text) != steps:
        return False
    for done, letter in enumerate(text):
        steps_left = steps - done
        if letter == "D" and drifts_left == 0:
            return False
        if letter == "S" and must_drift(steps_left, drifts_left):
            return False
        drifts_left -= letter == "D"
    return drifts_left == 0


# --- step 2: the bonus die (rulebook A.7, B.2, C, F) -----------------------------------------


@njit(cache=True, inline="always")
def starting_die(slot: int) -> int:
    """The die a sled starts with by start slot (0 = first): 1st-2nd 1, 3rd-4th 2, 5th-6th 3,
    7th-8th 4 (rulebook A.7)."""
    return slot // 2 + 1


@njit(cache=True, inline="always")
def bonus_die_update(die: int, position: int, rnd: int, balanced: bool) -> int:
    """The die after step 2: a balanced sled, from round 2 on, turns its die to its race
    position (1 = leader), at most 6, and never lowers it; a spent die (0) comes back
    showing that value. Otherwise the die is unchanged."""
    if rnd <= 1 or not balanced:
        return die
    return max(die, min(position, MAX_DIE))


@njit(cache=True, inline="always")
def die_after_sled_crash(die: int) -> int:
    """A sled that hits another loses 1 from its die; at 0 the die is spent (rulebook C)."""
    return max(die - 1, 0)


@njit(cache=True, inline="always")
def tavern_die(die: int) -> int:
    """The Tavern: +2 (at most 6); a spent die comes back showing 2 (rulebook F)."""
    return min(die + 2, MAX_DIE) if die > 0 else 2


# --- collisions -----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def takes_collision_card(crossed: bool) -> bool:
    """No collision cards once the sled has crossed the finish line (rulebook D)."""
    return not crossed


@njit(cache=True, inline="always")
def needs_repair(collisions: int) -> bool:
    """A 5th collision card stops the sled for repairs (rulebook C)."""
    return collisions > MAX_COLLISIONS


# --- tournament (rulebook E) ----------------------------------------------------------------


@njit(cache=True, inline="always")
def tournament_points(placing: int) -> int:
    """Points for a placing (1 = first): 10, 7, 5, 4, 3, 2, 1, 0."""
    return TOURNAMENT_POINTS[min(placing, TOURNAMENT_POINTS.shape[0]) - 1]
