"""The planning player (policy ``planner``, the top of the ladder): before each of its
turns it plays the race out from there, once for each option it weighs and ``budget``
times over, and takes the option that wins most often.

**The options** (:data:`~.policies.PLANS`): the smart player's turn; moving with the card
of each rank in the hand (the lowest to the highest, after its events); resting; the smart
turn but keeping its events and artefacts in hand. Everything else in the turn (the start
path, the challenge card, a ward, a rival's artefact) is the smart player's choice.

**A playout** starts from what the planner knows: where everyone stands, its own hand,
every active artefact and curse, the discard pile. What it cannot see is guessed afresh for
each playout (:func:`guess_unseen`): its rivals' hands and the draw pile's order are dealt
again from the cards it has not seen, and the rest of the round's turn order is drawn again
from those still to play. The race then runs to its end with every player playing as smart
(the planner too, after this turn). **The same guesses and the same later draws serve
every option** (common random numbers), so that options are compared on the same futures.
An option's worth in a playout is the planner's share of first place (a shared first place
split) plus a quarter of its place share, (P − placing) / (P − 1) (:data:`PLACE`: a near
miss is worth more than a rout, which steadies the comparison at large tables), averaged
over the playouts.

**It spends its playouts where they tell options apart**: every :data:`SCREEN` guesses,
an option that played exactly as the smart turn in every playout so far (the same card, or
no event to keep) or that lost to it by more than :data:`SWITCH_Z` standard errors leaves
the running, and the guesses go on for those left until the turn's playouts (``budget`` ×
PLANS, as if every option ran to the end) are spent: the few options that differ get
several times the budget each, and a turn where none differs ends after SCREEN guesses.

**It changes its mind only beyond noise**: the best option left replaces the smart turn only
when its paired difference with it over the playouts is more than :data:`SWITCH_Z` standard
errors above 0, so that a small budget plays as smart rather than as the luckiest of eight
options. Measured (``ladder_step`` planner over smart, budget 32, 1,000 race pairs, seed 0,
5 players; forest-run, horrgrups-path): a switch at 1 standard error lost 3.3 and 1.8
points on first-run at 3 and 5 players (budget 8), at 1.5 -1.1 and +1.0, at 2 +0.4 and
+1.1, at 2.5 +0.4 and +0.2; the place share at 1/4 of a win against 1/100: +0.4 and +1.1
against -0.3 and 0.0.

**Its guesses and playouts draw from a stream of the race's own** (``PLAN_STREAM``): a table
that seats a planner is dealt, shuffled and ordered as the same table of smart players, as
far as their choices agree (common random numbers for the ladder). A planned race is
played turn by turn by :func:`advance`, which stops at each planner's turn to plan it.

**Its cost**: a planner's turn plays about ``budget`` × :data:`~.policies.PLANS` races out
from there (``trackkit bench``'s figures are in the README's skill section).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.unmanaged import no_runtime
from trackkit.games.yummell.core.engine import (
    MAX_ROUNDS,
    batch_state,
    deal,
    keep_race,
    leaders,
    placings,
    race_end,
)
from trackkit.games.yummell.core.policies import (
    PLAN_SMART,
    PLANNER,
    PLANS,
)
from trackkit.games.yummell.core.state import (
    ARRIVAL,
    BUDGET,
    GOLDEN,
    HAND_N,
    MAIN,
    ORDER_POS,
    ORDERS,
    PLAN,
    PLAN_STREAM,
    POLICY,
    RACE_LEADERS,
    STAT_LEAD_CHANGES,
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
    mix,
    rand_below,
    shuffle,
    unmanaged,
    unmanaged_state,
)
from trackkit.games.yummell.core.turn import take_turn

WIN = 1000  # an option's worth in a playout: WIN for first place (shared: split), ...
PLACE = 250  # ... plus PLACE × its place share, (P − placing) / (P − 1): 1 first, 0 last
SWITCH_Z = 2.0  # standard errors an option must gain over the smart turn to replace it
# (or lose to it, to leave the running)
SCREEN = 8  # guesses between two looks at which options are still worth playing out
MAX_SHARE = 4  # at most MAX_SHARE × budget guesses a turn, however few options are left
# the cursor of a race played turn by turn (advance): its round, the place in that round's
# turn order of the next to play, and whether that round's order is drawn yet
C_ROUND, C_TURN, C_BEGUN = 0, 1, 2
S_PLACE, S_SWITCH_Z = 0, 1  # Scratch.settings


class Scratch(NamedTuple):
    """A planner's working space, allocated once a batch: the state a playout starts from
    (``base_*``), the one it plays (``play_*``), their cursors, each option's worth in
    each playout, the cards it has not seen, and placings."""

    base_players: Players
    base_deck: Deck
    base_tally: Tally
    play_players: Players
    play_deck: Deck
    play_tally: Tally
    cursor: np.ndarray  # (3,) the race's own
    base_cursor: np.ndarray  # (3,)
    play_cursor: np.ndarray  # (3,)
    worth: np.ndarray  # (PLANS, MAX_SHARE × budget): each option's worth in each playout
    alive: np.ndarray  # (PLANS,): 1 for an option still in the running
    unseen: np.ndarray  # (cards + players × hand + cards,): the cards it has not seen, counts
    placing: np.ndarray  # (players,)
    settings: np.ndarray  # [PLACE, SWITCH_Z × 100] (S_*)


class Planned(NamedTuple):
    """What a batch that seats a planner writes (as the engine's) and plans in."""

    out: BatchOut
    scratch: Scratch


@no_runtime(wraparound=False)
def advance(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    encounters: bool,
    cursor: np.ndarray,
    stop: bool,
) -> int:
    """Play a race on from ``cursor`` as :func:`~.engine.play_race` plays it, turn by turn.
    With ``stop``, stop before the turn of a planner that has not planned it (returns 0;
    the cursor points at it); else, or at the end, return the race's rounds (MAX_ROUNDS +
    1 if stopped there). A planner's plan lasts one turn."""
    players, tally = fixed_widths(players, tally)
    tables = fixed_table_widths(tables)
    n = players.info.shape[0]
    order = tally.order
    while cursor[C_ROUND] <= MAX_ROUNDS:
        rnd = cursor[C_ROUND]
        if cursor[C_BEGUN] == 0:
            shuffle(order, n, tally.dice, ORDERS)
            cursor[C_BEGUN] = 1
        while cursor[C_TURN] < n:
            p = order[cursor[C_TURN]]
            if players.info[p, ARRIVAL] == 0:
                planner = players.info[p, POLICY] == PLANNER
                if stop and planner and players.info[p, PLAN] == UNPLANNED:
                    return 0
                players.info[p, ORDER_POS] = cursor[C_TURN]
                take_turn(p, board, players, deck, tally, tables, encounters, rnd)
                players.info[p, PLAN] = UNPLANNED
            else:
                players.info[p, ORDER_POS] = cursor[C_TURN]
            cursor[C_TURN] += 1
        for p in range(n):
            if players.info[p, ARRIVAL] == 1:
                race_end(board, players, tally, p)
                return rnd
        leading = leaders(board, players)
        if leading & tally.race[RACE_LEADERS] == 0:
            tally.race[STAT_LEAD_CHANGES] += 1
        tally.race[RACE_LEADERS] = leading
        cursor[C_ROUND] += 1
        cursor[C_TURN] = 0
        cursor[C_BEGUN] = 0
    return MAX_ROUNDS + 1


@no_runtime(wraparound=False)
def copy_state(
    players: Players,
    deck: Deck,
    tally: Tally,
    cursor: np.ndarray,
    to_players: Players,
    to_deck: Deck,
    to_tally: Tally,
    to_cursor: np.ndarray,
) -> None:
    """Copy what a race plays on from one state to another (not what it sums over a
    batch, nor its log: a playout counts nothing)."""
    for a, b in (
        (players.info, to_players.info),
        (players.hand, to_players.hand),
        (players.active, to_players.active),
        (players.pending, to_players.pending),
        (players.curse, to_players.curse),
    ):
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                b[i, j] = a[i, j]
    for a1, b1 in (
        (deck.pile, to_deck.pile),
        (deck.discard, to_deck.discard),
        (deck.counts, to_deck.counts),
        (tally.occupancy, to_tally.occupancy),
        (tally.tolls, to_tally.tolls),
        (tally.dice, to_tally.dice),
        (tally.clock, to_tally.clock),
        (tally.race, to_tally.race),
        (tally.order, to_tally.order),
        (cursor, to_cursor),
    ):
        for i in range(a1.shape[0]):
            b1[i] = a1[i]


@no_runtime(wraparound=False)
def guess_unseen(
    p: int,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    cursor: np.ndarray,
    unseen: np.ndarray,
    key: np.uint64,
) -> None:
    """Deal again what ``p`` cannot see, in a state copied for a playout: its rivals'
    hands and the draw pile's order from the cards it has not seen (any card, with the
    infinite deck), and the rest of this round's turn order; then start the playout's own
    draws from ``key``."""
    dice = tally.dice
    dice[MAIN], dice[MAIN + 1] = np.int64(key), 0
    dice[ORDERS], dice[ORDERS + 1] = np.int64(mix(key ^ GOLDEN)), 0
    n = players.info.shape[0]
    if deck.counts[2]:
        for q in range(n):
            if q != p:
                for i in range(players.info[q, HAND_N]):
                    players.hand[q, i] = rand_below(dice, tables.cards.shape[0])
    else:
        # how many of each card it has not seen, then those cards in the order of their
        # ids: what it knows, whatever order the pile and the hands hold them in
        count = unseen[unseen.shape[0] - tables.cards.shape[0] :]
        for c in range(count.shape[0]):
            count[c] = 0
        for i in range(deck.counts[0]):
            count[deck.pile[i]] += 1
        for q in range(n):
            if q != p:
                for i in range(players.info[q, HAND_N]):
                    count[players.hand[q, i]] += 1
        m = 0
        for c in range(count.shape[0]):
            for _ in range(count[c]):
                unseen[m] = c
                m += 1
        shuffle(unseen, m, dice)
        m = 0
        for q in range(n):
            if q != p:
                for i in range(players.info[q, HAND_N]):
                    players.hand[q, i] = unseen[m]
                    m += 1
        for i in range(deck.counts[0]):
            deck.pile[i] = unseen[m]
            m += 1
    # those still to play this round are drawn from the bag in an order nobody knows yet
    later = cursor[C_TURN] + 1
    for i in range(n - 1, later, -1):
        j = later + rand_below(dice, i - later + 1, ORDERS)
        tally.order[i], tally.order[j] = tally.order[j], tally.order[i]


@njit(cache=True, inline="always")
def paired_gain(worth: np.ndarray, option: int, samples: int) -> tuple[float, float]:
    """An option's mean gain over the smart turn (option 0) in the first ``samples``
    playouts, in wins, and its standard error (paired: the same futures)."""
    mean, square = 0.0, 0.0
    for s in range(samples):
        d = float(worth[option, s] - worth[0, s])
        mean += d
        square += d * d
    mean /= samples * WIN
    spread = 0.0
    if samples > 1:
        square /= samples * WIN * WIN
        spread = np.sqrt(max(square - mean * mean, 0.0) / (samples - 1))
    return mean, spread


@no_runtime(wraparound=False)
def plan_turn(
    p: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    encounters: bool,
    scratch: Scratch,
) -> int:
    """The option ``p`` plays this turn (a :data:`~.policies.PLANS` code), from its
    playouts (module docstring): every option still in the running is played out on each
    guess; every :data:`SCREEN` guesses an option that played as the smart turn in all of
    them, or lost to it beyond noise, leaves the running; it stops when the turn's
    playouts (``budget`` × PLANS) are spent, when only the smart turn is left, or at
    :data:`MAX_SHARE` × ``budget`` guesses."""
    budget = players.info[p, BUDGET]
    worth, alive = scratch.worth, scratch.alive
    base_p, base_d, base_t = scratch.base_players, scratch.base_deck, scratch.base_tally
    play_p, play_d, play_t = scratch.play_players, scratch.play_deck, scratch.play_tally
    n = players.info.shape[0]
    z = scratch.settings[S_SWITCH_Z] / 100
    for option in range(PLANS):
        alive[option] = 1
    running, spent, samples = PLANS, 0, 0
    while samples < worth.shape[1] and spent + running <= budget * PLANS and running > 1:
        copy_state(
            players, deck, tally, scratch.cursor, base_p, base_d, base_t, scratch.base_cursor
        )
        high = np.uint64(rand_below(tally.dice, 1 << 30, PLAN_STREAM))
        low = np.uint64(rand_below(tally.dice, 1 << 30, PLAN_STREAM))
        key = mix((high << np.uint64(30)) | low)
        guess_unseen(p, base_p, base_d, base_t, tables, scratch.base_cursor, scratch.unseen, key)
        for option in range(PLANS):
            if alive[option] == 0:
                continue
            copy_state(
                base_p,
                base_d,
                base_t,
                scratch.base_cursor,
                play_p,
                play_d,
                play_t,
                scratch.play_cursor,
            )
            for q in range(n):  # every player plays as smart in a playout, p as planned
                play_p.info[q, PLAN] = UNPLANNED
            play_p.info[p, PLAN] = PLAN_SMART if option == 0 else option - 1
            advance(board, play_p, play_d, play_t, tables, encounters, scratch.play_cursor, False)
            placings(board, play_p, scratch.placing)
            first = 0
            for q in range(n):
                if scratch.placing[q] == 1:
                    first += 1
            share = WIN // first if scratch.placing[p] == 1 else 0
            place = scratch.settings[S_PLACE] * (n - scratch.placing[p]) // max(n - 1, 1)
            worth[option, samples] = share + place
        spent += running
        samples += 1
        if samples % SCREEN == 0:
            for option in range(1, PLANS):
                if alive[option] == 0:
                    continue
                same = True
                for s in range(samples):
                    same = same and worth[option, s] == worth[0, s]
                mean, spread = paired_gain(worth, option, samples)
                if same or mean + z * spread < 0:
                    alive[option] = 0
                    running -= 1
    best, best_gain = PLAN_SMART, 0.0
    for option in range(1, PLANS):
        if alive[option] == 1 and samples > 0:
            mean, spread = paired_gain(worth, option, samples)
            if mean > z * spread and mean > best_gain:
                best, best_gain = option - 1, mean
    return best


@no_runtime(wraparound=False)
def play_planned_race(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    encounters: bool,
    scratch: Scratch,
) -> int:
    """Play one race from the dealt state, as :func:`~.engine.play_race` does, each
    planner planning its turns. Returns the number of rounds (MAX_ROUNDS + 1 if stopped)."""
    n = players.info.shape[0]
    for k in range(n):
        tally.order[k] = k
    tally.race[RACE_LEADERS] = leaders(board, players)
    cursor = scratch.cursor
    cursor[C_ROUND], cursor[C_TURN], cursor[C_BEGUN] = 1, 0, 0
    while True:
        rounds = advance(board, players, deck, tally, tables, encounters, cursor, True)
        if rounds > 0:
            return rounds
        p = tally.order[cursor[C_TURN]]
        players.info[p, PLAN] = plan_turn(
            p, board, players, deck, tally, tables, encounters, scratch
        )


# nogil: as engine.play_batch
@njit(cache=True, nogil=True)
def play_planned_batch(
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    setup: Setup,
    keys: np.ndarray,
    planned: Planned,
) -> None:
    """:func:`~.engine.play_batch` for a table that seats a planner: it writes
    ``planned.out`` and plans in ``planned.scratch`` (:func:`new_scratch`)."""
    out, scratch = planned
    board, players, deck, tally, tables, setup, keys = batch_state(
        board, players, deck, tally, tables, setup, keys
    )
    base_p, base_d, base_t = unmanaged_state(
        board, scratch.base_players, scratch.base_deck, scratch.base_tally
    )[1:]
    play_p, play_d, play_t = unmanaged_state(
        board, scratch.play_players, scratch.play_deck, scratch.play_tally
    )[1:]
    u = unmanaged
    scratch = Scratch(
        base_p,
        base_d,
        base_t,
        play_p,
        play_d,
        play_t,
        u(scratch.cursor),
        u(scratch.base_cursor),
        u(scratch.play_cursor),
        u(scratch.worth),
        u(scratch.alive),
        u(scratch.unseen),
        u(scratch.placing),
        u(scratch.settings),
    )
    rounds = out.rounds
    for r in range(rounds.shape[0]):
        deal(players, deck, tally, tables, setup, board.route_len.shape[0], keys[r])
        rounds[r] = play_planned_race(
            board, players, deck, tally, tables, setup.encounters, scratch
        )
        keep_race(board, players, tally, out, r)


def new_scratch(players: Players, deck: Deck, tally: Tally, budget: int) -> Scratch:
    """A planner's working space for a batch on this state (:class:`Scratch`)."""

    def like(state: tuple[np.ndarray, ...], kind: type) -> object:
        return kind(*(np.zeros_like(a) for a in state))

    def state() -> tuple[Players, Deck, Tally]:
        t = like(tally, Tally)
        return (
            like(players, Players),
            like(deck, Deck),
            t._replace(log=np.zeros((0, tally.log.shape[1]), dtype=np.int64)),
        )

    base, play = state(), state()
    n = players.info.shape[0]
    ints = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
    return Scratch(
        *base,
        *play,
        ints(3),
        ints(3),
        ints(3),
        ints(PLANS, MAX_SHARE * max(budget, 1)),
        ints(PLANS),
        ints(2 * deck.pile.shape[0] + n * players.hand.shape[1]),
        ints(n),
        np.array([PLACE, round(SWITCH_Z * 100)], dtype=np.int64),
    )
