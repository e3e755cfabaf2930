"""How a musher chooses a turn: the start space (round 1), the card play, the drift
schedule and the bonus spaces, then which cards to discard and which building effects
to take (SNOWTAILS.md §5.4, §6).

**The search.** Every policy looks at every option: each start space (round 1), each
legal play (:func:`.rules.can_play`), each legal drift schedule and each bonus from 0 to
the die. Movement has no chance in it, so an option's outcome is known exactly
(:func:`.movement.step_target`, the rule the engine moves by). Schedules are searched step
by step with the ones that reach the same space with as many drifts used merged (what
follows is then the same): the one with fewer collision cards is kept, else the one that
reads first. A move cut short by a collision is one option, written as its smallest
completion (:func:`.rules.complete_schedule`). The greedy policy skips the plays that
cannot beat its best option (:func:`choose_plan`), which changes no choice, only the time
it takes: it finds exactly what looking at everything finds (the tests check it against a
brute force).

**Comparing options**, for every policy: the higher score; then the higher bonus die
left over; then the schedule that reads first (``"DDSS" < "DSDS" < "SSDD"``); then the
first in the order start space (lane 1 first), play (left, right, both), value (0 first),
bonus (0 first).

What an outcome is worth to each policy, and the weights named below, are in
:mod:`.scores`.

**greedy** (SNOWTAILS.md §6, a modelling decision): the score is the rank of the space the
sled ends on (after the move and the bonus; :attr:`.board.Board.rank`, about one step per
lane on a straight row, so ~5 per row on a 5-lane straight) minus fixed weights:
:data:`GREEDY_CARD` per collision card taken, :data:`GREEDY_SLED` for hitting a sled,
:data:`GREEDY_REPAIR` for being sent to repair. It takes the Chapel and the Kennels when it
ends on their trigger spaces (they cost nothing), discards no card at the Bothy, and when
it must discard it discards its lowest card.

**smart**: the score, in hundredths of a space, is the progress (minus 100 per step still
needed to cross the line, :attr:`.board.Board.togo`, so it values the inside of the next
corner), minus a collision card's cost that grows with the cards already held
(:data:`SMART_CARD` + :data:`SMART_CARD_HELD` per card held), minus :data:`SMART_REPAIR`
for a repair and :data:`SMART_SLED` for a sled hit, plus what a building on the final
space is worth (the Chapel's discarded collision cards, the Tavern's pips at
:data:`SMART_TAVERN`, a 5 from the Kennels, the 0s and 1s the Bothy takes); the rank breaks
ties. The die left over (:data:`SMART_DIE`, 40 a pip) and the hand's pips (:data:`SMART_HAND`,
5) weighed until issue 34 and settled ties first; now 0 (:mod:`.scores`, measured there).
In the last round (a sled has crossed the line) only the rank counts. It discards its
lowest card, and at the Bothy every 0 and 1.

**bold**, a musher who accepts risk (rulebook C: "players may collide on purpose"): smart's
score with three changes. (1) A collision card is cheap while few are held: it costs
:data:`BOLD_CARD` (the hand slot it fills) + :data:`BOLD_CARD_HELD` per card already held,
a seventh of smart's price for the first. (2) A repair (a 5th card) costs what it really
costs in places, no more: the sled moves again only when it is last at the start of a
round, so every sled behind the space it stops on passes it (:func:`.scores.repair_places`), each
place at :data:`BOLD_PLACE`; its collision cards go with the repair, so they cost nothing
then. A sled already last loses nothing but the stop and gets a clean hand, and takes the
5th card when the move gains more than that. With 2 sleds a repair ends the race and loses
it (rulebook C): :data:`BOLD_LOSS` places, taken only when every option repairs. In the last
round only the rank counts, as for smart (the race ends with the round, so a repair costs
only its stop), except the lost duel. (3) It values pace: :data:`BOLD_PACE` per pip of the
dogs' speed after the play (next turn one dog keeps its value: about half a space a pip),
so it keeps its dogs fast and accepts the walls and trees that brings. The Chapel takes
the cards it ends on away: they cost nothing there. It keeps the weights smart dropped in
issue 34: :data:`BOLD_DIE` a pip of die left over, :data:`BOLD_HAND` a pip kept in hand.
Cards and buildings as smart.

**planner** (:mod:`.planning`, where its measurements are), a musher who thinks ahead:
at each turn it plays the race out from the options smart, greedy and bold would play,
``budget`` times each (:data:`PLANNER_BUDGET` when not told), and plays the one that wins
most often; within noise, smart's. Cards and buildings as smart.

How the repair's price was measured (bold sleds, 5 sleds, 300 recorded races each of
long-trail and reversed-ridge): between two sleds next in the race order lie 2.70 and 2.02
spaces on average (so a place is worth 2.5 spaces, :data:`BOLD_PLACE`); over the 11
repairs of long-trail, the repaired sled ended 0.28 places below where it stood after the
repair, beyond what sleds in the same place and round drift by without one, against 0.27
sleds behind it by :func:`.scores.repair_places` (bold repairs almost only when last).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from trackkit.games.base import Rung
from trackkit.games.snowtails.core.board import (
    AHEAD,
    DRIFT_RIGHT,
    Board,
)
from trackkit.games.snowtails.core.movement import (
    MEET_SIDE,
    MEET_SLED,
    STOP_NONE,
    STOP_REPAIR,
    STOP_SIDE,
    STOP_SLED,
    gives_card,
    step_target,
)
from trackkit.games.snowtails.core.rules import (
    DIGIT_D,
    DIGIT_S,
    MAX_COLLISIONS,
    bonus_die_update,
    can_play,
    cards_needed,
    complete_schedule,
    die_after_sled_crash,
    digit_weight,
    dogs_after_play,
    drift,
    drift_kind,
    is_balanced,
    may_go_straight,
    speed,
)
from trackkit.games.snowtails.core.scores import (
    BOLD_LOSS,
    BOLD_PACE,
    SmartContext,
    bold_worth,
    greedy_score,
    repair_places,
    smart_worth,
)
from trackkit.games.snowtails.core.state import (
    BEST_BONUS,
    BEST_CODE,
    BEST_DIE,
    BEST_FOUND,
    BEST_ORDER,
    BEST_PLAY,
    BEST_SCORE,
    BEST_START,
    BEST_VALUE,
    C_BOUND,
    C_DIE,
    C_PLAY,
    C_START,
    C_VALUE,
    ENDING,
    L_BONUS,
    L_CARDS,
    L_CODE,
    L_DIE,
    L_NODE,
    L_STOP,
    MAX_LEAVES,
    MAX_STATES,
    PLAN_BONUS,
    PLAN_CODE,
    PLAN_PLAY,
    PLAN_START,
    PLAN_VALUE,
    PLAY_BOTH,
    PLAY_LEFT,
    ROUND,
    VALUES,
    Ground,
    Race,
    Scratch,
    Setup,
    Sleds,
)
from trackkit.games.unmanaged import no_runtime

GREEDY, SMART, BOLD, PLANNER = 0, 1, 2, 3
POLICIES: dict[str, int] = {"greedy": GREEDY, "smart": SMART, "bold": BOLD, "planner": PLANNER}
# the ladder (trackkit ladder, the skill figure): the policies weakest first, each with
# what it assumes of a musher. bold is a style (risk taken on purpose), not a step of skill:
# it is no rung
LADDER = (
    Rung(
        "greedy",
        "a musher who takes the move that ends furthest ahead, each collision card or hit "
        "counted against it at a fixed price",
    ),
    Rung(
        "smart",
        "a good musher: progress to the line, collision cards dearer the more are held, "
        "buildings weighed, the race position breaking ties",
    ),
    Rung(
        "planner",
        "a musher who thinks ahead: weighs the moves a good, a greedy and a bold musher would "
        "make by imagining the rest of the race from each, several times over, guessing the "
        "cards it cannot see",
        plans=True,
    ),
)

# a planning sled's playouts of each option when not told (RaceOptions.budget; the module
# docstring: budget 4 gained less than 16 at 3 sleds, half on long-trail)
PLANNER_BUDGET = 16

LOW_CARD = 1  # the Bothy: smart and bold discard cards up to this value

TAKEN = -(2**62)  # the bound of a candidate the greedy policy has searched

# state fields of the schedule search (Scratch.states[layer, field, i])
S_NODE, S_DRIFTS, S_CARDS, S_CODE = 0, 1, 2, 3


# --- comparing options -------------------------------------------------------------------


@njit(cache=True, inline="always")
def option_order(start_index: int, play: int, value: int, bonus: int) -> int:
    """The last tie-break: start space (lane 1 first), play (left, right, both), value
    and bonus spaces, smallest first."""
    return ((start_index * 3 + play) * VALUES + value) * 8 + bonus


class Candidate(NamedTuple):
    """A start space and a play being searched (:func:`choose_plan`)."""

    start: int  # the space the move starts from
    start_index: int  # its place in the start row (round 1; 0 later), for the tie-break
    play: int  # PLAY_LEFT, PLAY_RIGHT or PLAY_BOTH
    value: int  # the value of the card(s) played


@njit(cache=True, inline="always")
def consider(
    best: np.ndarray, score: int, die_left: int, code: int, candidate: Candidate, bonus: int
) -> None:
    """Keep the option (``candidate`` with ``bonus`` spaces) if it beats the best so far
    (see the module docstring)."""
    start, play, value = candidate.start, candidate.play, candidate.value
    order = option_order(candidate.start_index, play, value, bonus)
    if best[BEST_FOUND] != 0:
        if score != best[BEST_SCORE]:
            if score < best[BEST_SCORE]:
                return
        elif die_left != best[BEST_DIE]:
            if die_left < best[BEST_DIE]:
                return
        elif code != best[BEST_CODE]:
            if code > best[BEST_CODE]:
                return
        elif order >= best[BEST_ORDER]:
            return
    best[BEST_FOUND] = 1
    best[BEST_SCORE], best[BEST_DIE], best[BEST_CODE] = score, die_left, code
    best[BEST_ORDER], best[BEST_START], best[BEST_PLAY] = order, start, play
    best[BEST_VALUE], best[BEST_BONUS] = value, bonus


# --- scores --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def score_leaves(
    policy: int,
    ending: bool,
    board: Board,
    scratch: Scratch,
    candidate: Candidate,
    nodes: np.ndarray,
    p: int,
    pace: int,
) -> None:
    """Score the outcomes :func:`search_moves` found for ``candidate`` and offer each to
    :func:`consider`; ``scratch.context`` holds what the smart and bold scores read of the
    sled (:class:`SmartContext`: collision cards held, 5s in the box, pips and low cards
    left in hand); ``nodes`` holds every sled's space, ``p`` is the sled (the places a
    repair costs, :func:`.scores.repair_places`) and ``pace`` its dogs' speed after the
    play (bold values it)."""
    rank, togo, trigger = board.rank, board.togo, board.trigger
    leaves, count, best, context = scratch.leaves, scratch.count, scratch.best, scratch.context
    scale = rank.shape[0]  # the rank breaks ties within one worth
    smart = policy == SMART and not ending  # in the last round only the rank counts
    bold = policy == BOLD and not ending
    sled = SmartContext(context[0], context[1], context[2], context[3])
    for i in range(count[2]):
        node, cards, stop = leaves[L_NODE, i], leaves[L_CARDS, i], leaves[L_STOP, i]
        die_left, bonus = leaves[L_DIE, i], leaves[L_BONUS, i]
        if smart:
            worth = smart_worth(togo[node], trigger[node], cards, stop, die_left, sled)
            score = worth * scale + rank[node]
        elif bold:
            lost = repair_places(rank, nodes, p, node) if stop == STOP_REPAIR else 0
            worth = bold_worth(togo[node], trigger[node], cards, stop, die_left, sled, lost)
            worth += BOLD_PACE * pace
            score = worth * scale + rank[node]
        elif policy == BOLD:  # the last round: the rank (a repair ends only a duel at once)
            duel_lost = stop == STOP_REPAIR and nodes.shape[0] == 2
            score = rank[node] - (BOLD_LOSS * scale if duel_lost else 0)
        elif policy == SMART:
            score = rank[node]
        else:
            score = greedy_score(rank[node], cards, stop)
        consider(best, score, die_left, leaves[L_CODE, i], candidate, bonus)


@njit(cache=True, inline="always")
def smart_context(
    hand: np.ndarray, held: int, boxed: int, play: int, value: int, context: np.ndarray
) -> None:
    """What the smart score reads of a sled that plays ``play`` of ``value``."""
    hand_pips, low_cards = 0, 0
    for v in range(VALUES):
        count = hand[v] - (cards_needed(play) if v == value else 0)
        hand_pips += v * count
        if v <= LOW_CARD:
            low_cards += count
    context[0], context[1], context[2], context[3] = held, boxed, hand_pips, low_cards


# --- the search ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def add_leaf(
    leaves: np.ndarray,
    count: np.ndarray,
    node: int,
    cards: int,
    stop: int,
    die_left: int,
    code: int,
    bonus: int,
) -> None:
    """Record an outcome of the search (the buffer is sized for the longest search)."""
    i = count[2]
    if i < MAX_LEAVES:
        leaves[L_NODE, i], leaves[L_CARDS, i], leaves[L_STOP, i] = node, cards, stop
        leaves[L_DIE, i], leaves[L_CODE, i], leaves[L_BONUS, i] = die_left, code, bonus
        count[2] = i + 1


@njit(cache=True, inline="always")
def keep_state(
    states: np.ndarray, count: np.ndarray, at: int, node: int, drifts: int, cards: int, code: int
) -> None:
    """Add a state to layer ``at`` of the search, merging it with one on the same space
    with as many drifts used: fewer collision cards win, then the schedule that reads
    first."""
    for i in range(count[at]):
        if states[at, S_NODE, i] == node and states[at, S_DRIFTS, i] == drifts:
            if cards < states[at, S_CARDS, i] or (
                cards == states[at, S_CARDS, i] and code < states[at, S_CODE, i]
            ):
                states[at, S_CARDS, i] = cards
                states[at, S_CODE, i] = code
            return
    i = count[at]
    if i < MAX_STATES:  # cannot overflow: at most (drift + 1) * (steps + 1) states
        states[at, S_NODE, i], states[at, S_DRIFTS, i] = node, drifts
        states[at, S_CARDS, i], states[at, S_CODE, i] = cards, code
        count[at] = i + 1


@no_runtime
def search_moves(
    ground: Ground,
    scratch: Scratch,
    held: int,
    start: int,
    left: int,
    right: int,
    die: int,
    bonus_allowed: bool,
) -> None:
    """Every outcome of the dogs ``left``/``right`` from ``start`` into ``scratch``'s
    leaves: each schedule (merged as the module docstring says), and after a full move
    each bonus, none first. ``held`` collision cards are in hand before the move."""
    move, beyond, trees, occupancy = ground.move, ground.beyond, ground.trees, ground.occupancy
    states, count, leaves = scratch.states, scratch.count, scratch.leaves
    steps, drifts = speed(left, right), drift(left, right)
    drift_step = drift_kind(left, right)
    count[2] = 0
    cur = 0
    count[0] = 1
    states[0, S_NODE, 0], states[0, S_DRIFTS, 0] = start, 0
    states[0, S_CARDS, 0], states[0, S_CODE, 0] = 0, 0
    for step in range(steps):
        nxt = 1 - cur
        count[nxt] = 0
        weight = digit_weight(step)
        for i in range(count[cur]):
            node, used = states[cur, S_NODE, i], states[cur, S_DRIFTS, i]
            cards, code = states[cur, S_CARDS, i], states[cur, S_CODE, i]
            for digit in range(DIGIT_D, DIGIT_S + 1):
                if digit == DIGIT_D:
                    if used == drifts:
                        continue
                    kind, now_used = drift_step, used + 1
                else:
                    if not may_go_straight(steps - step, drifts - used):
                        continue
                    kind, now_used = AHEAD, used
                target, meets = step_target(move, trees, occupancy, node, kind)
                now_cards = cards + (1 if gives_card(beyond, target, meets) else 0)
                now_code = code + digit * weight
                repaired = held + now_cards > MAX_COLLISIONS
                if meets in (MEET_SIDE, MEET_SLED) or repaired:
                    stop = STOP_REPAIR if repaired else STOP_SIDE
                    die_left = die
                    if meets == MEET_SLED:
                        stop, die_left = STOP_SLED, die_after_sled_crash(die)
                    full = complete_schedule(now_code, step + 1, drifts - now_used, steps)
                    add_leaf(leaves, count, target, now_cards, stop, die_left, full, 0)
                else:
                    keep_state(states, count, nxt, target, now_used, now_cards, now_code)
        cur = nxt
    for i in range(count[cur]):
        node, cards, code = states[cur, S_NODE, i], states[cur, S_CARDS, i], states[cur, S_CODE, i]
        add_leaf(leaves, count, node, cards, STOP_NONE, die, code, 0)
        if not bonus_allowed:
            continue
        for spaces in range(1, die + 1):  # the bonus: straight ahead, spending the die
            target, meets = step_target(move, trees, occupancy, node, AHEAD)
            stop = STOP_NONE
            if gives_card(beyond, target, meets):
                cards += 1
                if held + cards > MAX_COLLISIONS:
                    stop = STOP_REPAIR
            if meets == MEET_SIDE and stop == STOP_NONE:
                stop = STOP_SIDE
            elif meets == MEET_SLED:
                stop = STOP_SLED
            node = target
            add_leaf(leaves, count, node, cards, stop, 0, code, spaces)
            if stop != STOP_NONE:
                break


@no_runtime
def list_candidates(
    board: Board,
    sleds: Sleds,
    p: int,
    rnd: int,
    position: int,
    bonus_allowed: bool,
    candidates: np.ndarray,
) -> int:
    """Every start space (round 1, when sled ``p`` is on none yet) and legal play of its
    hand on its dogs (step 1, then step 2's die update) as candidates, each with the
    highest rank it could reach (:attr:`.board.Board.reach`); their number."""
    reach, start_row, hand = board.reach, board.start, sleds.hand[p]
    dogs, die_now, here = (sleds.left[p], sleds.right[p]), sleds.die[p], sleds.node[p]
    starts = 1 if here >= 0 else start_row.shape[0]
    n = 0
    for start_index in range(starts):
        start = here if here >= 0 else start_row[start_index]
        for play in range(PLAY_LEFT, PLAY_BOTH + 1):
            for value in range(VALUES):
                if not can_play(hand, play, value):
                    continue
                left, right = dogs_after_play(dogs[0], dogs[1], play, value)
                die = bonus_die_update(die_now, position, rnd, is_balanced(left, right))
                side = 1 if drift_kind(left, right) == DRIFT_RIGHT else 0
                bonus = die if bonus_allowed else 0
                bound = reach[start, speed(left, right), drift(left, right), side, bonus]
                candidates[C_BOUND, n], candidates[C_START, n] = bound, start_index
                candidates[C_PLAY, n], candidates[C_VALUE, n] = play, value
                candidates[C_DIE, n] = die
                n += 1
    return n


@njit(cache=True, inline="always")
def next_candidate(candidates: np.ndarray, n: int, policy: int, done: int) -> int:
    """The candidate to search after ``done`` of them: in turn for the smart policy; the
    one with the highest bound left for the greedy policy (which then marks it taken)."""
    if policy != GREEDY:
        return done
    pick = -1
    for i in range(n):
        if candidates[C_BOUND, i] != TAKEN and (
            pick < 0 or candidates[C_BOUND, i] > candidates[C_BOUND, pick]
        ):
            pick = i
    return pick


@njit(cache=True, inline="always")
def cannot_win(
    best: np.ndarray,
    bound: int,
    die: int,
    left: int,
    right: int,
    start_index: int,
    play: int,
    value: int,
) -> bool:
    """Whether no option of a greedy candidate can beat the best so far: its score is at
    most ``bound``, its die left over at most ``die``, its schedule reads no earlier than
    all its drifts first, and its order is at least that of no bonus."""
    if bound != best[BEST_SCORE]:
        return bound < best[BEST_SCORE]
    if die != best[BEST_DIE]:
        return die < best[BEST_DIE]
    first = complete_schedule(0, 0, drift(left, right), speed(left, right))
    if first != best[BEST_CODE]:
        return first > best[BEST_CODE]
    return option_order(start_index, play, value, 0) >= best[BEST_ORDER]


@njit(cache=True, inline="always")
def plays_as(policy: int) -> int:
    """The policy whose option a sled of ``policy`` takes without planning: its own; a
    planner's is smart's (its default, :mod:`.planning`)."""
    return SMART if policy == PLANNER else policy


@no_runtime
def choose_plan(
    board: Board, setup: Setup, race: Race, sleds: Sleds, scratch: Scratch, p: int, position: int
) -> None:
    """Write sled ``p``'s plan for this turn into ``scratch.plan`` by its own policy
    (:func:`choose_plan_as`); ``position`` is its race position now (for the die update)."""
    policy = plays_as(sleds.policy[p])
    choose_plan_as(board, setup, race, sleds, scratch, p, position, policy)


@no_runtime
def choose_plan_as(
    board: Board,
    setup: Setup,
    race: Race,
    sleds: Sleds,
    scratch: Scratch,
    p: int,
    position: int,
    policy: int,
) -> None:
    """Write into ``scratch.plan`` the plan ``policy`` chooses for sled ``p`` this turn;
    ``position`` is its race position now (for the die update).

    Every candidate is searched; the greedy policy takes them best bound first and stops
    at the first whose bound is below its best score so far (with no penalty, the bound
    is the most it could score), and skips those that could at best tie it and then lose
    a tie-break."""
    best, candidates, context = scratch.best, scratch.candidates, scratch.context
    ground = Ground(board.move, board.beyond, race.trees, race.occupancy)
    best[BEST_FOUND] = 0
    rnd, ending = race.status[ROUND], race.status[ENDING] != 0
    bonus_allowed = rnd > 1 or setup.bonus_first_round != 0
    held, here = sleds.collisions[p], sleds.node[p]
    left_now, right_now, boxed, hand = sleds.left[p], sleds.right[p], sleds.boxed[p], sleds.hand[p]
    n = list_candidates(board, sleds, p, rnd, position, bonus_allowed, candidates)
    if n == 0:  # prepare() refuses decks too small to always leave a dog card in hand
        raise RuntimeError("a sled has no dog card to play")
    for done in range(n):
        i = next_candidate(candidates, n, policy, done)
        bound = candidates[C_BOUND, i]
        start_index, play = candidates[C_START, i], candidates[C_PLAY, i]
        value, die = candidates[C_VALUE, i], candidates[C_DIE, i]
        left, right = dogs_after_play(left_now, right_now, play, value)
        if policy == GREEDY:
            candidates[C_BOUND, i] = TAKEN
            if best[BEST_FOUND] != 0:
                if bound < best[BEST_SCORE]:
                    break  # the highest bound left: no candidate can score more
                if cannot_win(best, bound, die, left, right, start_index, play, value):
                    continue
        start = here if here >= 0 else board.start[start_index]
        search_moves(ground, scratch, held, start, left, right, die, bonus_allowed)
        smart_context(hand, held, boxed, play, value, context)
        candidate = Candidate(start, start_index, play, value)
        score_leaves(policy, ending, board, scratch, candidate, sleds.node, p, left + right)
    plan = scratch.plan
    plan[PLAN_START] = best[BEST_START] if here < 0 else -1
    plan[PLAN_PLAY], plan[PLAN_VALUE] = best[BEST_PLAY], best[BEST_VALUE]
    plan[PLAN_CODE], plan[PLAN_BONUS] = best[BEST_CODE], best[BEST_BONUS]


# --- cards and buildings -------------------------------------------------------------------


@njit(cache=True, inline="always")
def card_to_discard(policy: int, hand: np.ndarray) -> int:
    """The dog card to discard when the hand holds too many: the lowest (every policy)."""
    for value in range(VALUES):
        if hand[value] > 0:
            return value
    return -1


@njit(cache=True, inline="always")
def bothy_discards(policy: int, value: int) -> bool:
    """Whether to discard every card of ``value`` at the Bothy: smart and bold drop 0s
    and 1s."""
    return policy != GREEDY and value <= LOW_CARD


@njit(cache=True, inline="always")
def takes_chapel(policy: int) -> bool:
    """Discard every collision card at the Chapel: every policy (it costs nothing)."""
    return True


@njit(cache=True, inline="always")
def takes_kennels(policy: int) -> bool:
    """Add a 5 to the deck at the Kennels: every policy."""
    return True
