"""The state of a race as integer arrays grouped in named tuples, and its random stream.

Arrays rather than objects so that numba compiles the engine; named tuples so the code
still reads ``players.pos[p]``. A race is a pure function of these arrays and its
key: a 64-bit number from which its draws are made (:func:`rand_below`, SplitMix64), so the
same key gives the same race compiled or interpreted (``NUMBA_DISABLE_JIT=1``), after any
other races and on any track (common random numbers: two tracks raced with one seed are
compared on the same deals, shuffles and turn orders as far as their races run alike).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.unmanaged import unmanaged, unmanaged_rows
from trackkit.games.yummell.core.content import ADV_FIELDS, CARD_FIELDS, CHAR_FIELDS, TERRAIN_COUNT

MAX_HAND = 12
MAX_ARTEFACTS = 24
STREAMS = 6  # Tally.dice: three streams, each a key and a counter

# What a recorded race's rows say (column 2 of the log).
LOG_MOVE, LOG_REST, LOG_BOUNCE, LOG_CHALLENGE, LOG_ARTEFACT, LOG_EVENT = 0, 1, 2, 3, 4, 5
LOG_PLAY_EVENT, LOG_ACTIVATE, LOG_STEAL, LOG_FINISH, LOG_USE_ARTEFACT, LOG_ROUTE = (
    6,
    7,
    8,
    9,
    10,
    11,
)
LOG_USE_ON_RIVAL = 12
LOG_FIELDS = 9  # round, player, action, card, value, from, to, other

# What a race counts (Tally.race, one row per race in a batch's ``stats``): lead changes,
# 1 if decided in the last round, the winner's lead in squares over the runner-up,
# characters sent back off a full square, challenges lost. RACE_LEADERS is working space.
STAT_LEAD_CHANGES, STAT_LAST_ROUND, STAT_WINNER_GAP, STAT_BOUNCES, STAT_LOST = 0, 1, 2, 3, 4
RACE_STATS = 5
RACE_LEADERS = RACE_STATS  # the characters leading when the round began, as a bit mask

# What ``Tables.rules`` holds: how the race reads each rule the rulebook leaves open (the
# readings of :mod:`trackkit.games.yummell.face.readings`), one code per reading, 0 the
# default reading (SPEC.md §4).
RULE_CROWDING = 0  # CROWD_*: which squares entered cost +1 MP per character on them
RULE_ENCOUNTER = 1  # ENCOUNTER_*: what "advanced at least one square" asks of a move
RULE_CHALLENGE_FINISH = 2  # CHALLENGE_*: a challenge won next to the finish
RULE_TOLL = 3  # TOLL_*: when getting past the Troll costs its extra MP
RULE_DRAW_TWO = 4  # DRAW_TWO_*: draw-two-keep-one and the Preparation draw
RULE_FLUTTER_END = 5  # FLUTTER_*: whether fluttering spares the company where a move ends
RULES = 6
CROWD_EVERY, CROWD_END = 0, 1  # every square entered, passed through too / the last only
ENCOUNTER_AHEAD, ENCOUNTER_ENTERED = 0, 1  # the move ends ahead / it entered a square
CHALLENGE_FINISHES, CHALLENGE_STAYS = 0, 1  # the advance reaches the finish / stops short
TOLL_LEAVING, TOLL_ENTERING = 0, 1  # on leaving the Troll's square / on entering it
DRAW_TWO_EXTRA, DRAW_TWO_INSTEAD = 0, 1  # on top of the Preparation draw / instead of it
FLUTTER_FREE, FLUTTER_END_PAYS = 0, 1  # no company paid anywhere / paid where the move ends
DEFAULT_RULES = np.zeros(RULES, dtype=np.int64)  # every rule as SPEC.md §4 reads it


class Board(NamedTuple):
    """A track as arrays: each start route's squares, their terrain and base MP."""

    route_nodes: np.ndarray  # (routes, longest) node index, -1 past the end
    route_len: np.ndarray  # (routes,)
    route_cost: np.ndarray  # (routes,) total base MP of the route
    route_suffix: np.ndarray  # (routes, longest + 1): base MP from index i to the finish
    node_terrain: np.ndarray  # (nodes,) terrain code
    node_base: np.ndarray  # (nodes,) MP of the terrain
    finish: int


# Columns of ``Players.info``: the numbers each player has one of, kept in one array (the
# compiled turn keeps fewer arrays live than with one array per number, so it runs faster).
CHARACTER = 0  # row of the characters table
ADVANTAGE = 1  # row of the advantages table
POLICY = 2
ROUTE = 3  # start route: CHOSEN (-1) until the policy chooses at the first move, or given
# start paths (RaceOptions.start_paths): left to the policy, dealt, or FREE: the rulebook's
# free choice, each racer taking the path most advantageous at its first move (smart_route)
CHOSEN, DEALT, FREE = -1, -2, -3
POS = 4  # index along the route, -1 off the board
ARRIVAL = 5  # 0 while racing, then 1 for the first to finish, 2 ...
HAND_N = 6  # cards in the hand
ACTIVE_N = 7  # active artefacts
PENDING_N = 8  # artefacts being activated
TOLL = 9  # 1 for a character others pay to overtake (the Troll)
ORDER_POS = 10  # place in the turn order of the last round played
REACHED = 11  # when it reached the square it stands on (Tally.clock)
FIRST_MOVE = 12  # its place in the order of first moves (the start paths' commit order), -1
PLAN = 13  # what a planning player chose for this turn (policies.PLAN_*), UNPLANNED between
UNPLANNED = -1
BUDGET = 14  # a planning player's playouts of each option (RaceOptions.budget)
PLAYER_FIELDS = 15


class Players(NamedTuple):
    """Each player's numbers (``info[p, POS]``, columns above) and card rows.

    Outside compiled code the columns also read as attributes (``players.pos[p]``), views
    of ``info``."""

    info: np.ndarray  # (P, PLAYER_FIELDS)
    hand: np.ndarray  # (P, MAX_HAND) card ids
    active: np.ndarray  # (P, MAX_ARTEFACTS) active artefacts
    pending: np.ndarray  # (P, MAX_ARTEFACTS) artefacts being activated
    curse: np.ndarray  # (P, 4) MP added to each terrain until the character rests

    character = property(lambda self: self.info[:, CHARACTER])
    advantage = property(lambda self: self.info[:, ADVANTAGE])
    policy = property(lambda self: self.info[:, POLICY])
    route = property(lambda self: self.info[:, ROUTE])
    pos = property(lambda self: self.info[:, POS])
    arrival = property(lambda self: self.info[:, ARRIVAL])
    hand_n = property(lambda self: self.info[:, HAND_N])
    active_n = property(lambda self: self.info[:, ACTIVE_N])
    pending_n = property(lambda self: self.info[:, PENDING_N])
    toll = property(lambda self: self.info[:, TOLL])
    order_pos = property(lambda self: self.info[:, ORDER_POS])
    reached = property(lambda self: self.info[:, REACHED])
    first_move = property(lambda self: self.info[:, FIRST_MOVE])
    budget = property(lambda self: self.info[:, BUDGET])


class Tables(NamedTuple):
    """The content the engine reads (:class:`~trackkit.games.yummell.core.content.Content`'s
    arrays): one row per card, per character, per advantage (columns in content.py); and
    how the rules the rulebook leaves open are read (``rules``: a code per RULE_* column,
    by default SPEC.md §4's)."""

    cards: np.ndarray  # (cards, CARD_FIELDS)
    characters: np.ndarray  # (characters, CHAR_FIELDS)
    advantages: np.ndarray  # (advantages, ADV_FIELDS)
    rules: np.ndarray = DEFAULT_RULES  # (RULES,)


class Setup(NamedTuple):
    """What every race of a batch is given: each player's character, advantage and start
    path (a row index, or -1 in column 0 to deal them at random; start paths: a route,
    CHOSEN or DEALT), and whether encounters are played."""

    characters: np.ndarray  # (P,)
    advantages: np.ndarray  # (P,)
    routes: np.ndarray  # (P,)
    encounters: bool


class BatchOut(NamedTuple):
    """What a batch writes, one row per race: its rounds, its counts (STAT_* columns) and
    each player's placing, start path, character, advantage and place in the last round's
    turn order."""

    rounds: np.ndarray  # (races,)
    placing: np.ndarray  # (races, P)
    route: np.ndarray  # (races, P)
    character: np.ndarray  # (races, P)
    advantage: np.ndarray  # (races, P)
    order_pos: np.ndarray  # (races, P)
    first_move: np.ndarray  # (races, P) place in the order of first moves (-1: never moved)
    stats: np.ndarray  # (races, RACE_STATS)


class Deck(NamedTuple):
    pile: np.ndarray  # draw pile, drawn from the end
    discard: np.ndarray
    counts: np.ndarray  # [cards in pile, cards in discard, infinite model (0/1)]


class Tally(NamedTuple):
    occupancy: np.ndarray  # (nodes,) characters on each square now
    tolls: np.ndarray  # (nodes,) Trolls on each square now (overtaking one costs 1 MP)
    node_time: np.ndarray  # (nodes,) turns ended on each square, summed over races
    node_bounce: np.ndarray  # (nodes,) characters sent back off each full square
    log: np.ndarray  # (rows, LOG_FIELDS) recorded turns; zero rows when not recording
    log_n: np.ndarray  # [rows written]
    dice: np.ndarray  # (STREAMS,) the race's random streams (:func:`start_race`)
    clock: np.ndarray  # [placements made in this race]: orders arrivals on squares
    race: np.ndarray  # (RACE_STATS + 1,) this race's counts (STAT_*), then RACE_LEADERS
    # working space, allocated once with the rest so the compiled turn allocates nothing
    order: np.ndarray  # (P,) the players in this round's turn order
    turn_delta: np.ndarray  # (terrains,) MP this turn's events add to each terrain
    pool: np.ndarray  # (characters or advantages, whichever more): dealing them out


# --- randomness ------------------------------------------------------------------------


# the streams of a race's draws: the race's own (deal, deck, encounters); its turn orders,
# apart so that a race that draws more cards still draws the same turn orders; and a
# planning player's (its guesses at what it cannot see, and its playouts' draws), apart so
# that planning changes no other draw: a table that seats a planner is dealt, shuffled and
# ordered as one that does not, as far as the players' choices agree
MAIN, ORDERS, PLAN_STREAM = 0, 2, 4
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
PLAN_SALT = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output function (Steele, Lea and Flood 2014): a well-mixed 64-bit
    value from a 64-bit counter."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def start_race(dice: np.ndarray, key: np.uint64) -> None:
    """Start the streams of a race from its key (``Tally.dice``): the same key, the same
    draws, whatever races came before it in the batch and on whatever track. (The engine
    sees its arrays as int64: the 64-bit words are stored as such and read back unsigned.)"""
    word = np.uint64(key)  # the engine's unmanaged view of the keys is int64 too
    dice[MAIN], dice[MAIN + 1] = np.int64(word), 0
    dice[ORDERS], dice[ORDERS + 1] = np.int64(mix(word ^ GOLDEN)), 0
    dice[PLAN_STREAM], dice[PLAN_STREAM + 1] = np.int64(mix(word ^ PLAN_SALT)), 0


@njit(cache=True, inline="always")
def rand_below(dice: np.ndarray, n: int, stream: int = MAIN) -> int:
    """A uniform integer in [0, n) (n far below 2**32), the next draw of ``stream`` of the
    race (SplitMix64: the stream's key plus a counter, mixed)."""
    counter = np.uint64(dice[stream + 1]) + GOLDEN
    dice[stream + 1] = np.int64(counter)
    high = mix(np.uint64(dice[stream]) + counter) >> np.uint64(32)
    return np.int64((high * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def shuffle(values: np.ndarray, n: int, dice: np.ndarray, stream: int = MAIN) -> None:
    """Fisher-Yates shuffle of ``values[:n]`` in place, from ``stream`` of the race."""
    for i in range(n - 1, 0, -1):
        j = rand_below(dice, i + 1, stream)
        values[i], values[j] = values[j], values[i]


# --- recording -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def note(
    tally: Tally,
    rnd: int,
    p: int,
    action: int,
    card: int,
    value: int,
    squares: tuple[int, int],
    other: int,
) -> None:
    """A row of the race's log (when recording): round, player, action (LOG_*), card,
    value, the squares ``(from, to)`` and the other player concerned (-1 for none)."""
    a, b = squares
    n = tally.log_n[0]
    if n < tally.log.shape[0]:
        row = tally.log[n]
        row[0], row[1], row[2], row[3], row[4] = rnd, p, action, card, value
        row[5], row[6], row[7], row[8] = a, b, other, 0
        tally.log_n[0] = n + 1


@njit(cache=True)
def unmanaged_state(
    board: Board, players: Players, deck: Deck, tally: Tally
) -> tuple[Board, Players, Deck, Tally]:
    """The four state tuples over :func:`unmanaged` views of their arrays."""
    u = unmanaged
    return (
        Board(
            u(board.route_nodes),
            u(board.route_len),
            u(board.route_cost),
            u(board.route_suffix),
            u(board.node_terrain),
            u(board.node_base),
            board.finish,
        ),
        Players(
            u(players.info),
            u(players.hand),
            u(players.active),
            u(players.pending),
            u(players.curse),
        ),
        Deck(u(deck.pile), u(deck.discard), u(deck.counts)),
        Tally(
            u(tally.occupancy),
            u(tally.tolls),
            u(tally.node_time),
            u(tally.node_bounce),
            u(tally.log),
            u(tally.log_n),
            u(tally.dice),
            u(tally.clock),
            u(tally.race),
            u(tally.order),
            u(tally.turn_delta),
            u(tally.pool),
        ),
    )


@njit(cache=True, inline="always")
def unmanaged_tables(tables: Tables) -> Tables:
    """:class:`Tables` over :func:`unmanaged` views of its arrays."""
    u = unmanaged
    return Tables(u(tables.cards), u(tables.characters), u(tables.advantages), u(tables.rules))


@njit(cache=True, inline="always")
def fixed_table_widths(tables: Tables) -> Tables:
    """:class:`Tables` whose rows' lengths are compile-time constants (as
    :func:`fixed_widths`): the caller checks that the tables have content.py's columns."""
    r = unmanaged_rows
    return Tables(
        r(tables.cards, CARD_FIELDS),
        r(tables.characters, CHAR_FIELDS),
        r(tables.advantages, ADV_FIELDS),
        tables.rules,
    )


@njit(cache=True, inline="always")
def fixed_widths(players: Players, tally: Tally) -> tuple[Players, Tally]:
    """The same state, with the length of each 2-D array's rows a compile-time constant
    (:func:`~trackkit.games.unmanaged.unmanaged_rows`): inlined at the start of a race, it
    turns every ``players.hand[p, i]`` into a multiplication by a constant."""
    r = unmanaged_rows
    return (
        Players(
            r(players.info, PLAYER_FIELDS),
            r(players.hand, MAX_HAND),
            r(players.active, MAX_ARTEFACTS),
            r(players.pending, MAX_ARTEFACTS),
            r(players.curse, TERRAIN_COUNT),
        ),
        Tally(
            tally.occupancy,
            tally.tolls,
            tally.node_time,
            tally.node_bounce,
            r(tally.log, LOG_FIELDS),
            tally.log_n,
            tally.dice,
            tally.clock,
            tally.race,
            tally.order,
            tally.turn_delta,
            tally.pool,
        ),
    )
