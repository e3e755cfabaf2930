"""A turn and a round of a Snow Tails race: race position and the turn order, a turn
played from its plan (rulebook B, steps 1-5, with the buildings around the refill), a
repair, the finish line, and the placings at the end (SNOWTAILS.md §3.2-§3.12).

The engine (:mod:`.engine`) plays races of these turns, each sled's plan chosen by its
policy; a planning sled (:mod:`.planning`) plays the same turns in its playouts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import BOTHY, CHAPEL, KENNELS, TAVERN, Board
from trackkit.games.snowtails.core.cards import (
    add_held_back_card,
    discard_dog_card,
    draw_up_to,
    hand_count,
    play_cards,
    repair,
)
from trackkit.games.snowtails.core.movement import (
    STOP_NONE,
    STOP_REPAIR,
    bonus_move,
    place_sled,
    run_schedule,
)
from trackkit.games.snowtails.core.policies import (
    bothy_discards,
    card_to_discard,
    takes_chapel,
    takes_kennels,
)
from trackkit.games.snowtails.core.rules import (
    bonus_die_update,
    drift_kind,
    is_balanced,
    speed,
    tavern_die,
)
from trackkit.games.snowtails.core.state import (
    ENDING,
    FIRST_CROSSER,
    LEADER,
    LOG_BONUS,
    LOG_CARDS,
    LOG_CODE,
    LOG_DIE,
    LOG_FROM,
    LOG_PLAY,
    LOG_PLAYER,
    LOG_ROUND,
    LOG_STOP,
    LOG_TO,
    LOG_VALUE,
    OVER,
    PLAN_BONUS,
    PLAN_CODE,
    PLAN_PLAY,
    PLAN_START,
    PLAN_VALUE,
    ROUND,
    STAT_BUILDINGS,
    STAT_FIRST_CROSSING,
    VALUES,
    Race,
    Setup,
    Sleds,
)
from trackkit.games.unmanaged import no_runtime

MAX_ROUNDS = 200  # a race still running then is stopped and counted as capped


# --- race position and turn order (rulebook B, SNOWTAILS.md §3.2, §3.11) ------------------


@njit(cache=True, inline="always")
def space_rank(rank: np.ndarray, where: np.ndarray, p: int) -> int:
    """The rank of sled ``p``'s space (``where`` is :attr:`.Sleds.node`); -1 before it
    has chosen a start space."""
    node = where[p]
    return rank[node] if node >= 0 else -1


@njit(cache=True, inline="always")
def ahead_in_race(rank: np.ndarray, where: np.ndarray, slot: np.ndarray, q: int, p: int) -> bool:
    """Whether ``q`` is ahead of ``p``: the further space, then the earlier start slot."""
    rank_q, rank_p = space_rank(rank, where, q), space_rank(rank, where, p)
    if rank_q != rank_p:
        return rank_q > rank_p
    return slot[q] < slot[p]


@njit(cache=True, inline="always")
def race_position(rank: np.ndarray, where: np.ndarray, slot: np.ndarray, p: int) -> int:
    """Sled ``p``'s race position, 1 for the leader (every sled, repairing or not)."""
    position = 1
    for q in range(where.shape[0]):
        if q != p and ahead_in_race(rank, where, slot, q, p):
            position += 1
    return position


@no_runtime
def start_round(board: Board, race: Race, sleds: Sleds) -> None:
    """The start of a round: snapshot the turn order by race position (the start order in
    round 1), and release a repairing sled that is last (rulebook C)."""
    rank, where, slot, order = board.rank, sleds.node, sleds.slot, race.order
    n = where.shape[0]
    for p in range(n):
        order[race_position(rank, where, slot, p) - 1] = p
    last = order[n - 1]
    if sleds.repairing[last] != 0:
        sleds.repairing[last] = 0
    race.status[LEADER] = order[0]


# --- the end of the turn (rulebook B.5, F) ----------------------------------------------------


@njit(cache=True, inline="always")
def buildings_before_refill(board: Board, sleds: Sleds, p: int) -> None:
    """The Chapel (discard every collision card) and the Bothy (discard dog cards) of the
    space the movement ended on, before the refill (rulebook F)."""
    trigger = board.trigger[sleds.node[p]]
    policy = sleds.policy[p]
    if trigger & CHAPEL and takes_chapel(policy):
        sleds.collisions[p] = 0
        sleds.stats[p, STAT_BUILDINGS] |= CHAPEL
    if trigger & BOTHY:
        for value in range(VALUES):
            if bothy_discards(policy, value) and sleds.hand[p, value] > 0:
                sleds.stats[p, STAT_BUILDINGS] |= BOTHY
                while sleds.hand[p, value] > 0:
                    discard_dog_card(sleds.hand, sleds.under, p, value)


@njit(cache=True, inline="always")
def refill(sleds: Sleds, p: int, hand_size: int, stream: np.ndarray) -> None:
    """Step 5: discard dog cards (the player's choice) down to the hand size, or draw up
    to it (rulebook B.5)."""
    hand, collisions = sleds.hand, sleds.collisions
    while hand_count(hand, collisions, p) > hand_size:
        value = card_to_discard(sleds.policy[p], hand[p])
        if value < 0:
            break  # only collision cards left: a 5th would have meant repairs
        discard_dog_card(hand, sleds.under, p, value)
    draw_up_to(sleds, p, hand_size, stream)


@njit(cache=True, inline="always")
def buildings_after_refill(
    board: Board,
    setup: Setup,
    sleds: Sleds,
    p: int,
    stream: np.ndarray,
) -> None:
    """The Kennels (a 5 into the deck) and the Tavern (+2 on the die) of the space the
    turn ended on, after the refill (rulebook F)."""
    trigger = board.trigger[sleds.node[p]]
    if trigger & KENNELS and takes_kennels(sleds.policy[p]):
        if add_held_back_card(sleds, p, setup.held_back, stream):
            sleds.stats[p, STAT_BUILDINGS] |= KENNELS
    if trigger & TAVERN:
        sleds.die[p] = tavern_die(sleds.die[p])
        sleds.stats[p, STAT_BUILDINGS] |= TAVERN


@njit(cache=True, inline="always")
def send_to_repair(race: Race, setup: Setup, sleds: Sleds, p: int) -> None:
    """A 5th collision card (rulebook C): repairs; with 2 players this sled is 2nd and
    the race ends at once."""
    repair(sleds, p, setup.hand_size, setup.fresh_repair, race.stream)
    if sleds.node.shape[0] == 2:
        sleds.forced[p] = 2
        sleds.forced[1 - p] = 1
        race.status[OVER] = 1


@njit(cache=True, inline="always")
def note_crossing(board: Board, race: Race, sleds: Sleds, p: int) -> None:
    """A sled beyond the finish line makes this round the last (rulebook D)."""
    if board.beyond[sleds.node[p]] != 0 and sleds.stats[p, STAT_FIRST_CROSSING] == 0:
        sleds.stats[p, STAT_FIRST_CROSSING] = race.status[ROUND]
        race.status[ENDING] = 1
        if race.status[FIRST_CROSSER] < 0:
            race.status[FIRST_CROSSER] = p


@njit(cache=True, inline="always")
def note_turn(
    race: Race, sleds: Sleds, p: int, plan: np.ndarray, before: int, stop: int, cards: int
) -> None:
    n = race.log_n[0]
    if n < race.log.shape[0]:
        row = race.log[n]
        row[LOG_ROUND], row[LOG_PLAYER], row[LOG_FROM] = race.status[ROUND], p, before
        row[LOG_TO], row[LOG_PLAY] = sleds.node[p], plan[PLAN_PLAY]
        row[LOG_VALUE] = plan[PLAN_VALUE]
        row[LOG_CODE], row[LOG_BONUS], row[LOG_STOP] = plan[PLAN_CODE], plan[PLAN_BONUS], stop
        row[LOG_DIE], row[LOG_CARDS] = sleds.die[p], cards
        race.log_n[0] = n + 1


# --- a turn ----------------------------------------------------------------------------------


@no_runtime
def play_turn(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    p: int,
    plan: np.ndarray,
    position: int,
) -> int:
    """Play sled ``p``'s turn as ``plan`` says (steps 1-5, module docstring); ``position``
    is its race position at the start of the turn. Returns why the move stopped."""
    rnd = race.status[ROUND]
    if plan[PLAN_START] >= 0:  # round 1: the sled is put on its start space
        place_sled(race.occupancy, sleds.node, p, plan[PLAN_START])
    before = sleds.node[p]
    cards_before = sleds.stats[p, 0]
    play_cards(sleds, p, plan[PLAN_PLAY], plan[PLAN_VALUE])
    left, right = sleds.left[p], sleds.right[p]
    sleds.die[p] = bonus_die_update(sleds.die[p], position, rnd, is_balanced(left, right))
    stop = run_schedule(
        board, race, sleds, p, drift_kind(left, right), speed(left, right), plan[PLAN_CODE]
    )
    bonus_allowed = rnd > 1 or setup.bonus_first_round != 0
    if stop == STOP_NONE and plan[PLAN_BONUS] > 0 and bonus_allowed and sleds.die[p] > 0:
        stop = bonus_move(board, race, sleds, p, min(plan[PLAN_BONUS], sleds.die[p]))
    if stop == STOP_REPAIR:
        send_to_repair(race, setup, sleds, p)
    else:
        buildings_before_refill(board, sleds, p)
        refill(sleds, p, setup.hand_size, race.stream)
        buildings_after_refill(board, setup, sleds, p, race.stream)
    note_crossing(board, race, sleds, p)
    note_turn(race, sleds, p, plan, before, stop, sleds.stats[p, 0] - cards_before)
    return stop


@njit(cache=True, inline="always")
def turn_draws(sleds: Sleds) -> int:
    """The most random draws a turn makes: a reshuffle of the deck while refilling (or
    repairing) and the Kennels' shuffle, each of at most a colour's cards."""
    return 2 * sleds.deck.shape[1]


@no_runtime
def placings(board: Board, sleds: Sleds, out: np.ndarray) -> None:
    """Placings at the end (rulebook D): 1 + the sleds on a further space; sleds on one
    space share a placing; a placing forced by the 2-player exception stands."""
    rank, where, forced = board.rank, sleds.node, sleds.forced
    n = where.shape[0]
    for p in range(n):
        if forced[p] != 0:
            out[p] = forced[p]
            continue
        better = 0
        for q in range(n):
            if q != p and space_rank(rank, where, q) > space_rank(rank, where, p):
                better += 1
        out[p] = better + 1
