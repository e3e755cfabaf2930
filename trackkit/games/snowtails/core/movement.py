"""Moving a sled and its collisions (SNOWTAILS.md §3.5-§3.7, rulebook B.3, B.4, C, D).

A move executes a full drift schedule step by step (the forced drift is part of every
legal schedule: :func:`.rules.schedule_is_legal`) and stops early only on a collision:

- **side** (the track edge, a marker, a building, the end of the run-off): the sled stays
  where it is, takes a collision card, and the turn ends;
- **tree**: the tree is removed, the sled enters its space, takes a collision card and
  goes on (several trees, one card each);
- **sled**: the sled stays where it is, its bonus die loses 1 (0 = spent), no card, and
  the turn ends;
- a **5th collision card** ends the turn at once: the sled goes to repair
  (:func:`.cards.repair`), in the tree's space if a tree gave it the card.

No collision cards are taken once the sled has crossed the finish line (rulebook D);
entering a space beyond the line counts as having crossed it, so a tree there gives no
card [D]. The bonus move (:func:`bonus_move`) goes straight ahead and collides the same way.

:func:`step_target` is the one place that says what a step meets, and :func:`gives_card`
whether it gives a card; the policies use them to try schedules without changing anything,
the engine to move (:func:`run_schedule`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import AHEAD, Board
from trackkit.games.snowtails.core.rules import (
    DIGIT_D,
    complete_schedule,
    die_after_sled_crash,
    needs_repair,
    schedule_digit,
    takes_collision_card,
)
from trackkit.games.snowtails.core.state import (
    HIT_SIDE,
    HIT_SLED,
    HIT_TREE,
    STAT_CARDS,
    STAT_REPAIRS,
    STAT_SIDE,
    STAT_SLEDS,
    STAT_TREES,
    Race,
    Sleds,
)
from trackkit.games.unmanaged import no_runtime

# what a step meets
MEET_NOTHING, MEET_TREE, MEET_SIDE, MEET_SLED = 0, 1, 2, 3
# why a move ended
STOP_NONE, STOP_SIDE, STOP_SLED, STOP_REPAIR = 0, 1, 2, 3
STOP_NAMES = ("none", "side", "sled", "repair")


@njit(cache=True, inline="always")
def step_target(
    move: np.ndarray, trees: np.ndarray, occupancy: np.ndarray, node: int, kind: int
) -> tuple[int, int]:
    """Where a step of ``kind`` from ``node`` ends and what it meets: the side and sleds
    leave the sled where it was; a tree is entered. (``move`` is :attr:`.Board.move`,
    ``trees`` and ``occupancy`` the race's.)"""
    target = move[node, kind]
    if target < 0:
        return node, MEET_SIDE
    if occupancy[target] > 0:
        return node, MEET_SLED
    if trees[target] != 0:
        return target, MEET_TREE
    return target, MEET_NOTHING


@njit(cache=True, inline="always")
def gives_card(beyond: np.ndarray, node: int, meets: int) -> bool:
    """Whether meeting ``meets`` with the sled then on ``node`` (the tree's space for a
    tree) gives a collision card: side collisions and trees do, before the line."""
    if meets in (MEET_SIDE, MEET_TREE):
        return takes_collision_card(beyond[node] != 0)
    return False


@njit(cache=True, inline="always")
def place_sled(occupancy: np.ndarray, where: np.ndarray, p: int, node: int) -> None:
    """Put sled ``p`` on ``node`` (``where`` is :attr:`.Sleds.node`), keeping the count
    of sleds per space."""
    old = where[p]
    if old >= 0:
        occupancy[old] -= 1
    where[p] = node
    occupancy[node] += 1


@njit(cache=True, inline="always")
def take_collision_card(collisions: np.ndarray, stats: np.ndarray, p: int) -> bool:
    """A collision card into sled ``p``'s hand; True when it is the 5th (repairs)."""
    collisions[p] += 1
    stats[p, STAT_CARDS] += 1
    if needs_repair(collisions[p]):
        stats[p, STAT_REPAIRS] += 1
        return True
    return False


@no_runtime
def run_schedule(
    board: Board, race: Race, sleds: Sleds, p: int, drift_step: int, steps: int, code: int
) -> int:
    """Step 3 (rulebook B.3): move sled ``p`` along the schedule ``code`` of ``steps``
    steps, each D a ``drift_step``, making each step's collision, until the schedule ends
    or a collision stops it; why it stopped (STOP_NONE: it did not)."""
    move, beyond = board.move, board.beyond
    trees, occupancy, hits = race.trees, race.occupancy, race.node_hits
    where, die, collisions, stats = sleds.node, sleds.die, sleds.collisions, sleds.stats
    for step in range(steps):
        kind = drift_step if schedule_digit(code, step) == DIGIT_D else AHEAD
        here = where[p]
        target, meets = step_target(move, trees, occupancy, here, kind)
        if meets == MEET_SIDE:
            hits[here, HIT_SIDE] += 1
            stats[p, STAT_SIDE] += 1
            if gives_card(beyond, here, meets) and take_collision_card(collisions, stats, p):
                return STOP_REPAIR
            return STOP_SIDE
        if meets == MEET_SLED:
            hits[here, HIT_SLED] += 1
            stats[p, STAT_SLEDS] += 1
            die[p] = die_after_sled_crash(die[p])
            return STOP_SLED
        place_sled(occupancy, where, p, target)
        if meets == MEET_TREE:
            trees[target] = 0
            hits[target, HIT_TREE] += 1
            stats[p, STAT_TREES] += 1
            if gives_card(beyond, target, meets) and take_collision_card(collisions, stats, p):
                return STOP_REPAIR
    return STOP_NONE


@no_runtime
def bonus_move(board: Board, race: Race, sleds: Sleds, p: int, spaces: int) -> int:
    """Step 4 (rulebook B.4): spend the whole die and go straight ahead ``spaces`` spaces
    (1 up to the die), colliding as in a move; the stop. The die is spent first, so a sled
    hit during the bonus costs nothing more [D]."""
    sleds.die[p] = 0
    straight = complete_schedule(0, 0, 0, spaces)
    return run_schedule(board, race, sleds, p, AHEAD, spaces, straight)
