"""The race engine: plays the full base rules of Yummell for 1-8 characters on a track.

One implementation, compiled by numba. A race deals the characters, advantages and cards
(:func:`deal`), plays rounds of turns in an order drawn every round (the turn, its phases in
the rulebook's order, is in :mod:`trackkit.games.yummell.core.turn`) and places the characters
(:func:`placings`). Rules that the exact
solver shares live in :mod:`trackkit.games.yummell.core.rules`; the choices a player makes live in
:mod:`trackkit.games.yummell.core.policies`. State is a handful of integer arrays grouped in named
tuples (:class:`Board`, :class:`Players`, :class:`Deck`, :class:`Tally`; the content's tables
:class:`Tables`), so a race is a pure function of its inputs and a random stream.

Randomness comes from each race's key (:mod:`trackkit.games.yummell.core.state`, SplitMix64
streams), so the same key gives the same race compiled or interpreted
(``NUMBA_DISABLE_JIT=1``), and race ``r`` of a seed is dealt, shuffled and ordered alike on
every track (common random numbers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.unmanaged import no_runtime
from trackkit.games.yummell.core.content import (
    ADV_FIELDS,
    CARD_FIELDS,
    CHAR_ABILITY,
    CHAR_FIELDS,
    E_TOLL,
)
from trackkit.games.yummell.core.deck import add_to_hand, draw
from trackkit.games.yummell.core.movement import node_of, remaining
from trackkit.games.yummell.core.rules import HAND_SIZE, OFF_BOARD
from trackkit.games.yummell.core.state import (
    ACTIVE_N,
    ADVANTAGE,
    ARRIVAL,
    CHARACTER,
    DEALT,
    FIRST_MOVE,
    HAND_N,
    LOG_ROUTE,
    ORDER_POS,
    ORDERS,
    PENDING_N,
    PLAN,
    POS,
    RACE_LEADERS,
    RACE_STATS,
    REACHED,
    ROUTE,
    STAT_LAST_ROUND,
    STAT_LEAD_CHANGES,
    STAT_WINNER_GAP,
    TOLL,
    UNPLANNED,
    BatchOut,
    Board,
    Deck,
    Players,
    Setup,
    Tables,
    Tally,
    fixed_table_widths,
    fixed_widths,
    note,
    rand_below,
    shuffle,
    start_race,
    unmanaged,
    unmanaged_state,
    unmanaged_tables,
)
from trackkit.games.yummell.core.turn import take_turn

MAX_ROUNDS = 400  # a race still running then is stopped and counted as capped


@njit(cache=True, inline="always")
def ahead_of(board: Board, players: Players, q: int, p: int) -> bool:
    """Is ``q`` placed before ``p`` at the end of the race (p. 7)?

    Finishers come first, in order of arrival ("it is the first to arrive who will be deemed
    the winner"); then the positions reached are the arrival spaces: fewer squares to go is
    better, and before the start tile is behind every square. "Should two characters be
    side by side in the same square, it will be considered a draw": a draw only on one
    square. Two characters on different squares with as many
    squares to go (on different start paths) are told apart by who reached their square
    first, as finishers are (a modelling decision: the rulebook is silent).
    """
    if players.info[p, ARRIVAL] > 0:
        return 0 < players.info[q, ARRIVAL] < players.info[p, ARRIVAL]
    if players.info[q, ARRIVAL] > 0:
        return True
    if players.info[q, POS] < 0 or players.info[p, POS] < 0:
        # before the start is behind every square; two there share one place
        return players.info[p, POS] < 0 <= players.info[q, POS]
    if node_of(board, players, q) == node_of(board, players, p):
        return False
    left_q, left_p = remaining(board, players, q), remaining(board, players, p)
    if left_q != left_p:
        return left_q < left_p
    return first_reached(board, players, q) < first_reached(board, players, p)


@njit(cache=True, inline="always")
def first_reached(board: Board, players: Players, p: int) -> int:
    """When the first of the characters now on ``p``'s square reached it: characters who
    draw share one place, so they share one arrival."""
    node = node_of(board, players, p)
    first = players.info[p, REACHED]
    for q in range(players.info.shape[0]):
        if players.info[q, ARRIVAL] == 0 and node_of(board, players, q) == node:
            first = min(first, players.info[q, REACHED])
    return first


@no_runtime(wraparound=False)
def placings(board: Board, players: Players, out: np.ndarray) -> None:
    """Placings at the end (p. 7): 1 + how many are placed before each character."""
    n = players.info.shape[0]
    for p in range(n):
        better = 0
        for q in range(n):
            if q != p and ahead_of(board, players, q, p):
                better += 1
        out[p] = better + 1


@no_runtime(wraparound=False)
def play_race(
    board: Board, players: Players, deck: Deck, tally: Tally, tables: Tables, encounters: bool
) -> int:
    """Play one race from the dealt state to the end of the round in which the first
    character finishes. Returns the number of rounds (MAX_ROUNDS + 1 if stopped).

    Compiled on its own, without numba's runtime (:func:`~trackkit.games.unmanaged.no_runtime`),
    and called once per race: the turn is inlined here. Its arrays' rows have lengths known
    when compiling (:func:`fixed_widths`; ``play_batch`` checks the content tables')."""
    players, tally = fixed_widths(players, tally)
    tables = fixed_table_widths(tables)
    n = players.info.shape[0]
    order = tally.order
    for k in range(n):
        order[k] = k
    tally.race[RACE_LEADERS] = leaders(board, players)  # before the start: everyone
    for rnd in range(1, MAX_ROUNDS + 1):
        shuffle(order, n, tally.dice, ORDERS)  # the turn order is drawn from the bag every round
        for k in range(n):
            p = order[k]
            players.info[p, ORDER_POS] = k
            if players.info[p, ARRIVAL] == 0:
                take_turn(p, board, players, deck, tally, tables, encounters, rnd)
        for p in range(n):
            if players.info[p, ARRIVAL] == 1:
                race_end(board, players, tally, p)
                return rnd
        leading = leaders(board, players)
        if leading & tally.race[RACE_LEADERS] == 0:
            tally.race[STAT_LEAD_CHANGES] += 1
        tally.race[RACE_LEADERS] = leading
    return MAX_ROUNDS + 1


@njit(cache=True, inline="always")
def leaders(board: Board, players: Players) -> int:
    """The characters leading now, as a bit mask: those with the fewest squares to go
    (characters level on squares share the lead; before the start everyone leads)."""
    best, mask = 1 << 30, 0
    for p in range(players.info.shape[0]):
        left = remaining(board, players, p)
        if left < best:
            best, mask = left, 1 << p
        elif left == best:
            mask |= 1 << p
    return mask


@njit(cache=True, inline="always")
def race_end(board: Board, players: Players, tally: Tally, winner: int) -> None:
    """What a race counts when ``winner`` has won it: whether it was decided in the last
    round (the winner did not lead when that round began), and the winner's lead in squares
    over the runner-up (0 if the runner-up finished too, or raced alone)."""
    if tally.race[RACE_LEADERS] & (1 << winner) == 0:
        tally.race[STAT_LAST_ROUND] = 1
    n = players.info.shape[0]
    gap = 1 << 30 if n > 1 else 0
    for q in range(n):
        if q != winner:
            gap = min(gap, remaining(board, players, q))
    tally.race[STAT_WINNER_GAP] = gap


@no_runtime(wraparound=False)
def deal(
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    setup: Setup,
    routes: int,
    key: np.uint64,
) -> None:
    """Set up race ``key`` (:func:`~trackkit.games.yummell.core.state.start_race`):
    characters and advantages (given, or dealt at random), start paths (given, dealt, or
    left to the policy), a shuffled deck, empty squares, and four cards each."""
    start_race(tally.dice, key)
    cards, characters = tables.cards, tables.characters
    n, n_characters, n_advantages = (
        players.info.shape[0],
        characters.shape[0],
        tables.advantages.shape[0],
    )
    pool = tally.pool
    if setup.characters[0] < 0:
        for i in range(n_characters):
            pool[i] = i
        shuffle(pool, n_characters, tally.dice)
        for i in range(n):
            players.info[i, CHARACTER] = pool[i]
    else:
        for i in range(n):
            players.info[i, CHARACTER] = setup.characters[i]
    if setup.advantages[0] < 0:
        for i in range(n_advantages):
            pool[i] = i
        shuffle(pool, n_advantages, tally.dice)
        for i in range(n):
            players.info[i, ADVANTAGE] = pool[i]
    else:
        for i in range(n):
            players.info[i, ADVANTAGE] = setup.advantages[i]
    # start paths: chosen by the policy at the first move (CHOSEN), given, or DEALT in
    # turn from a random first one, so that every path starts as many racers
    first = rand_below(tally.dice, routes) if setup.routes[0] == DEALT else 0
    for p in range(n):
        given = setup.routes[p]
        players.info[p, ROUTE] = (first + p) % routes if given == DEALT else given
        if players.info[p, ROUTE] >= 0:  # given or dealt; CHOSEN and FREE at the first move
            note(tally, 0, p, LOG_ROUTE, -1, players.info[p, ROUTE], (-1, -1), -1)
    players.info[:, POS] = OFF_BOARD
    players.info[:, ARRIVAL] = 0
    players.info[:, HAND_N] = 0
    players.info[:, ACTIVE_N] = 0
    players.info[:, PENDING_N] = 0
    players.curse[:, :] = 0
    players.info[:, ORDER_POS] = 0
    players.info[:, REACHED] = 0
    players.info[:, FIRST_MOVE] = -1
    players.info[:, PLAN] = UNPLANNED
    tally.clock[0] = 0
    tally.race[:] = 0
    for p in range(n):
        troll = characters[players.info[p, CHARACTER], CHAR_ABILITY] == E_TOLL
        players.info[p, TOLL] = 1 if troll else 0
    tally.occupancy[:] = 0
    tally.tolls[:] = 0
    total = cards.shape[0]
    for i in range(total):
        deck.pile[i] = i
    deck.counts[0], deck.counts[1] = total, 0
    if not deck.counts[2]:
        shuffle(deck.pile, total, tally.dice)
    for p in range(n):
        for _ in range(HAND_SIZE):
            add_to_hand(players, p, draw(deck, cards, tally))


@njit(cache=True, inline="always")
def batch_state(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    setup: Setup,
    keys: np.ndarray,
) -> tuple[Board, Players, Deck, Tally, Tables, Setup, np.ndarray]:
    """A batch's inputs over :func:`unmanaged` views, once the content tables are checked
    to have content.py's columns (the compiled race reads them at those widths)."""
    widths = tables.cards.shape[1], tables.characters.shape[1], tables.advantages.shape[1]
    if widths[0] != CARD_FIELDS or widths[1] != CHAR_FIELDS or widths[2] != ADV_FIELDS:
        raise ValueError("content tables with other columns than content.py's")
    board, players, deck, tally = unmanaged_state(board, players, deck, tally)
    u = unmanaged
    setup = Setup(u(setup.characters), u(setup.advantages), u(setup.routes), setup.encounters)
    return board, players, deck, tally, unmanaged_tables(tables), setup, u(keys)


# nogil: a batch races without holding the interpreter lock, so the app's other
# visitors (and its health check) are served while it runs
@njit(cache=True, nogil=True)
def play_batch(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    setup: Setup,
    keys: np.ndarray,
    out: BatchOut,
) -> None:
    """Play ``out.rounds.shape[0]`` races, race ``r`` from its key ``keys[r]``, writing
    each race's row of ``out``."""
    board, players, deck, tally, tables, setup, keys = batch_state(
        board, players, deck, tally, tables, setup, keys
    )
    rounds = out.rounds
    for r in range(rounds.shape[0]):
        deal(players, deck, tally, tables, setup, board.route_len.shape[0], keys[r])
        rounds[r] = play_race(board, players, deck, tally, tables, setup.encounters)
        keep_race(board, players, tally, out, r)


@njit(cache=True, inline="always")
def keep_race(board: Board, players: Players, tally: Tally, out: BatchOut, r: int) -> None:
    """Write race ``r``'s row of ``out`` (but its rounds) from its state at the end."""
    # arrays taken out of the tuple once: each access would cost a reference-count round trip
    _, placing, route, character, advantage, order_pos, first_move, stats = out
    placings(board, players, placing[r])
    route[r] = players.info[:, ROUTE]
    character[r] = players.info[:, CHARACTER]
    advantage[r] = players.info[:, ADVANTAGE]
    order_pos[r] = players.info[:, ORDER_POS]
    first_move[r] = players.info[:, FIRST_MOVE]
    for k in range(RACE_STATS):
        stats[r, k] = tally.race[k]
