"""The Snow Tails race engine: rounds, turns, the end of the race, placings, batches of
races and tournaments (SNOWTAILS.md §3.1-§3.13).

One implementation, compiled by numba; with ``NUMBA_DISABLE_JIT=1`` the same code runs as
plain Python and plays the same races from the same generator. The turn (rulebook B):

1. play one dog card, or two of one value (the plan comes from the sled's policy,
   :func:`.policies.choose_plan`);
2. update the bonus die (balanced, not in round 1: :func:`.rules.bonus_die_update`);
3. move along the drift schedule (:func:`.movement.run_schedule`);
4. use the bonus die (optional, only after a move that was not stopped);
5. refill the hand to 5 (:func:`refill`), with the buildings of the final space around it
   (:func:`buildings_before_refill`, :func:`buildings_after_refill`).

**Rounds.** Turns follow race position, leader first, snapshotted at the start of each
round (a move changes only the mover's place among those still to move, §3.2); the first
round follows the random start order, each sled choosing its start space when its turn
comes. A sled under repair sits out until it is last at the start of a round.

**Race position** is the rank of the space (:attr:`.board.Board.rank`); sleds on one
space (only possible on the start row) are told apart by start order [R].

**The end.** The round in which a sled first crosses the finish line is the last; it is
completed, and the placings are the race positions at its end (sleds on one space share
a placing). With 2 players, a 5th collision card places that sled 2nd and ends the race
at once (rulebook C). A race still running after :data:`MAX_ROUNDS` rounds is stopped.

**Modelling decisions** where SNOWTAILS.md marks a rule unknown or leaves it open:

- race position is the rank key of :mod:`.position` [R]; sleds on one space (only on the
  start row) are ordered by start slot for the turn order and the die, and share a
  placing at the end;
- the round-1 start spaces are the start row; a sled may choose an occupied one [S];
- the bonus die may be used in round 1 (``RaceOptions.bonus_first_round``, default on);
- a collision card is not taken for a tree on a space beyond the finish line (entering it
  is crossing the line); an edge beyond the line gives none either [S];
- the collision-card supply never runs out (4 per sled, 32 in the box);
- a 5th collision card ends the turn at once: no bonus, no refill other than the
  repair's, and no building effect; the dog cards in hand are kept and the hand drawn up to
  5 [R] (``RaceOptions.repair_draw = "fresh"``: discarded, and 5 drawn); with 2 players
  the race ends at once, that sled 2nd [S/D];
- a repairing sled is released at the start of a round in which it is last; only the last
  sled can be, so two repairing sleds are released one round apart;
- buildings act on the space the turn ends on, also after a collision [D]: Chapel and
  Bothy before the refill, Kennels and Tavern after it; a 5 "in the deck" for the Kennels
  means out of the box;
- when the hand holds too many cards, the policy chooses the dog card discarded (both
  policies: the lowest);
- "decided in the last round" means the winner was not first in the turn order (the race
  leader) when the last round began.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.snowtails.core.board import BOTHY, CHAPEL, KENNELS, TAVERN, Board
from trackkit.games.snowtails.core.cards import (
    add_held_back_card,
    carry_over,
    deal,
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
    choose_plan,
    takes_chapel,
    takes_kennels,
)
from trackkit.games.snowtails.core.rules import (
    bonus_die_update,
    drift_kind,
    is_balanced,
    speed,
    starting_die,
    tavern_die,
    tournament_points,
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
    STATS,
    VALUES,
    Race,
    Scratch,
    Setup,
    Sleds,
    rand_below,
    top_up_stream,
    unmanaged_state,
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
def take_turn(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    p: int,
) -> int:
    """Sled ``p`` chooses its plan by its policy and plays it."""
    position = race_position(board.rank, sleds.node, sleds.slot, p)
    choose_plan(board, setup, race, sleds, scratch, p, position)
    return play_turn(board, setup, race, sleds, p, scratch.plan, position)


# --- a race ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def turn_draws(sleds: Sleds) -> int:
    """The most random draws a turn makes: a reshuffle of the deck while refilling (or
    repairing) and the Kennels' shuffle, each of at most a colour's cards."""
    return 2 * sleds.deck.shape[1]


@njit(cache=True, inline="always")
def setup_draws(sleds: Sleds) -> int:
    """The most random draws before a race: the start order, then every deck shuffled
    (dealt, or carried over between the races of a tournament)."""
    players = sleds.node.shape[0]
    return players * (sleds.deck.shape[1] + 1)


@no_runtime
def random_start_order(sleds: Sleds, stream: np.ndarray) -> None:
    """Start slots drawn at random (rulebook A.6): a shuffled 0..P-1."""
    n = sleds.slot.shape[0]
    for i in range(n):
        sleds.slot[i] = i
    for i in range(n - 1, 0, -1):
        j = rand_below(stream, i + 1)
        sleds.slot[i], sleds.slot[j] = sleds.slot[j], sleds.slot[i]


@no_runtime
def setup_race(board: Board, race: Race, sleds: Sleds) -> None:
    """A fresh race on ``board`` for sleds whose start slots and cards are set: the trees
    stand, no sled is on the track, the dice show their start slot (rulebook A.7)."""
    for node in range(board.trees.shape[0]):  # a loop: a slice copy would allocate
        race.trees[node] = board.trees[node]
    race.occupancy[:] = 0
    race.status[:] = 0
    race.status[LEADER] = -1
    race.status[FIRST_CROSSER] = -1
    race.log_n[0] = 0
    for p in range(sleds.node.shape[0]):
        sleds.node[p] = -1
        sleds.repairing[p] = 0
        sleds.forced[p] = 0
        sleds.stats[p, :] = 0
        sleds.die[p] = starting_die(sleds.slot[p])


@no_runtime
def play_race(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    rng: np.random.Generator,
) -> int:
    """Play a set-up race to its end; the number of rounds (MAX_ROUNDS + 1 if stopped)."""
    n = sleds.node.shape[0]
    for rnd in range(1, MAX_ROUNDS + 1):
        race.status[ROUND] = rnd
        start_round(board, race, sleds)
        for k in range(n):
            p = race.order[k]
            if sleds.repairing[p] != 0:
                continue
            top_up_stream(rng, race.stream, turn_draws(sleds))
            take_turn(board, setup, race, sleds, scratch, p)
            if race.status[OVER] != 0:
                return rnd
        if race.status[ENDING] != 0:
            return rnd
    return MAX_ROUNDS + 1


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


@njit(cache=True, inline="always")
def placed_before(placing: np.ndarray, sleds: Sleds, q: int, p: int) -> bool:
    """``q`` before ``p`` in the finishing order: a better placing, then the earlier start
    slot (for sleds sharing a placing)."""
    if placing[q] != placing[p]:
        return placing[q] < placing[p]
    return sleds.slot[q] < sleds.slot[p]


@no_runtime
def finishing_order(placing: np.ndarray, sleds: Sleds, out: np.ndarray) -> None:
    """The sleds first to last: by placing, then start slot (sleds sharing a placing)."""
    n = placing.shape[0]
    for p in range(n):
        before = 0
        for q in range(n):
            if placed_before(placing, sleds, q, p):
                before += 1
        out[before] = p


@no_runtime
def winner(placing: np.ndarray, sleds: Sleds) -> int:
    best = 0
    for p in range(1, placing.shape[0]):
        if placed_before(placing, sleds, p, best):
            best = p
    return best


# --- batches ---------------------------------------------------------------------------------


class BatchResults(NamedTuple):
    """What a batch of single races writes, race by race (R races of P sleds)."""

    rounds: np.ndarray  # (R,) rounds played
    placing: np.ndarray  # (R, P) each sled's placing
    slot: np.ndarray  # (R, P) each sled's start slot
    stats: np.ndarray  # (R, P, STATS) each sled's tallies (:data:`.state.STATS` columns)
    decided: np.ndarray  # (R,) 1 when decided in the last round


def new_batch_results(races: int, players: int) -> BatchResults:
    """Zeroed results for ``races`` races of ``players`` sleds."""
    return BatchResults(
        rounds=np.zeros(races, dtype=np.int64),
        placing=np.zeros((races, players), dtype=np.int64),
        slot=np.zeros((races, players), dtype=np.int64),
        stats=np.zeros((races, players, STATS), dtype=np.int64),
        decided=np.zeros(races, dtype=np.int64),
    )


class TournamentResults(NamedTuple):
    """What a batch of tournaments writes, tournament by tournament (T of P sleds)."""

    rounds: np.ndarray  # (T, 3) rounds of each race
    placing: np.ndarray  # (T, 3, P) each race's placings
    slot: np.ndarray  # (T, 3, P) each race's start slots
    points: np.ndarray  # (T, P) each sled's points
    champion: np.ndarray  # (T,) the champion
    order: np.ndarray  # (P,) working space: the last race's finishing order


def new_tournament_results(tournaments: int, players: int) -> TournamentResults:
    """Zeroed results for ``tournaments`` tournaments of ``players`` sleds."""
    return TournamentResults(
        rounds=np.zeros((tournaments, 3), dtype=np.int64),
        placing=np.zeros((tournaments, 3, players), dtype=np.int64),
        slot=np.zeros((tournaments, 3, players), dtype=np.int64),
        points=np.zeros((tournaments, players), dtype=np.int64),
        champion=np.zeros(tournaments, dtype=np.int64),
        order=np.zeros(players, dtype=np.int64),
    )


# nogil: a batch races without holding the interpreter lock, so the app's other
# visitors (and its health check) are served while it runs
@njit(cache=True, nogil=True)
def play_batch(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    rng: np.random.Generator,
    out: BatchResults,
) -> None:
    """Play ``out.rounds.shape[0]`` single races one after another from one random stream.

    Writes per race its rounds, whether it was decided in its last round (the winner was
    not the leader when that round began), and per sled its placing, start slot and
    tallies (:class:`BatchResults`); ``race.node_hits`` adds up the collisions per space
    over the batch.
    """
    board, setup, race, sleds, scratch = unmanaged_state(board, setup, race, sleds, scratch)
    placing = out.placing
    for r in range(out.rounds.shape[0]):
        top_up_stream(rng, race.stream, setup_draws(sleds))
        random_start_order(sleds, race.stream)
        for p in range(sleds.node.shape[0]):
            deal(sleds, p, setup, race.stream)
        setup_race(board, race, sleds)
        out.rounds[r] = play_race(board, setup, race, sleds, scratch, rng)
        placings(board, sleds, placing[r])
        out.slot[r] = sleds.slot
        out.stats[r] = sleds.stats
        out.decided[r] = 1 if winner(placing[r], sleds) != race.status[LEADER] else 0


# nogil: a batch races without holding the interpreter lock, so the app's other
# visitors (and its health check) are served while it runs
@njit(cache=True, nogil=True)
def play_tournament_batch(
    boards: tuple[Board, Board, Board],
    races: tuple[Race, Race, Race],
    setup: Setup,
    sleds: Sleds,
    scratch: Scratch,
    rng: np.random.Generator,
    out: TournamentResults,
) -> None:
    """Play ``out.points.shape[0]`` tournaments of 3 races (rulebook E) on ``boards``
    from one random stream (the three ``races`` share it: their ``stream`` is one array).

    The first race starts in random order with fresh decks; before each later race the
    cards are carried over (:func:`.cards.carry_over`) and the start order is the reverse
    of the last finishing order. Writes per tournament each race's rounds, placings and
    start slots, each sled's points, and the champion: the most points, ties broken by
    the placings of the last race.
    """
    board_1, setup, race_1, sleds, scratch = unmanaged_state(
        boards[0], setup, races[0], sleds, scratch
    )
    board_2, _, race_2, _, _ = unmanaged_state(boards[1], setup, races[1], sleds, scratch)
    board_3, _, race_3, _, _ = unmanaged_state(boards[2], setup, races[2], sleds, scratch)
    rounds, placing, slot, points, order = out.rounds, out.placing, out.slot, out.points, out.order
    n = sleds.node.shape[0]
    for t in range(points.shape[0]):
        points[t, :] = 0
        for i in range(3):
            board = board_1 if i == 0 else (board_2 if i == 1 else board_3)
            race = race_1 if i == 0 else (race_2 if i == 1 else race_3)
            top_up_stream(rng, race.stream, setup_draws(sleds))
            if i == 0:
                random_start_order(sleds, race.stream)
                for p in range(n):
                    deal(sleds, p, setup, race.stream)
            else:
                for k in range(n):  # the last finisher starts first
                    sleds.slot[order[n - 1 - k]] = k
                for p in range(n):
                    carry_over(sleds, p, setup.hand_size, race.stream)
            setup_race(board, race, sleds)
            slot[t, i] = sleds.slot
            rounds[t, i] = play_race(board, setup, race, sleds, scratch, rng)
            placings(board, sleds, placing[t, i])
            finishing_order(placing[t, i], sleds, order)
            for p in range(n):
                points[t, p] += tournament_points(placing[t, i, p])
        out.champion[t] = tournament_champion(points[t], placing[t, 2])


@no_runtime
def tournament_champion(points: np.ndarray, last_placing: np.ndarray) -> int:
    """The most points; a tie goes to the better placing in the last race (rulebook E)."""
    best = 0
    for p in range(1, points.shape[0]):
        if points[p] > points[best] or (
            points[p] == points[best] and last_placing[p] < last_placing[best]
        ):
            best = p
    return best
