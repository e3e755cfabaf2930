"""A player's turn (rulebook p. 5-7), its phases in the rulebook's order: Preparation
(draw), Movement (an event or an artefact first, then a card played or a rest), Encounter,
Replenishment; and the effects of events and artefacts on a character.

Every function here is inlined into the compiled race (:func:`~.engine.play_race`): a call
would pass the whole state, about 36 arrays, one argument per array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trackkit.games.yummell.core.content import (
    ADV_EFFECT,
    ARTEFACT,
    CARD_ARROW,
    CARD_EFFECT,
    CARD_NUMBER,
    CARD_PARAM,
    CARD_TERRAIN,
    CARD_TYPE,
    CHAR_ABILITY,
    E_BACK,
    E_BACK_IF_TERRAIN,
    E_CHALLENGE_BONUS,
    E_CLEPTOMANIA,
    E_CURSE,
    E_DISCARD,
    E_DRAW_TWO_KEEP_ONE,
    E_EXTRA_MP,
    E_STEAL_ARTEFACT,
    E_TERRAIN_COST,
    EVENT,
)
from trackkit.games.yummell.core.deck import (
    add_to_hand,
    discard,
    draw,
    find_artefact,
    take_artefact,
    take_from_hand,
)
from trackkit.games.yummell.core.movement import fall_back, furthest, leader, node_of
from trackkit.games.yummell.core.policies import (
    GREEDY,
    MOVE_RANKS,
    PLAN_QUIET,
    PLAN_REST,
    choose_challenge_card,
    greedy_route,
    highest_card,
    keep_of_two,
    lowest_card,
    ranked_card,
    smart_artefact_to_activate,
    smart_event,
    smart_move_card,
    smart_mp_bonus,
    smart_rival_artefact,
    smart_route,
    smart_should_rest,
    smart_ward,
)
from trackkit.games.yummell.core.rules import (
    HAND_SIZE,
    can_host,
    challenge_total,
    challenge_won,
    is_steady,
    rest,
)
from trackkit.games.yummell.core.state import (
    ACTIVE_N,
    ADVANTAGE,
    ARRIVAL,
    CHALLENGE_STAYS,
    CHARACTER,
    DRAW_TWO_INSTEAD,
    ENCOUNTER_ENTERED,
    FIRST_MOVE,
    FREE,
    HAND_N,
    LOG_ACTIVATE,
    LOG_ARTEFACT,
    LOG_BOUNCE,
    LOG_CHALLENGE,
    LOG_EVENT,
    LOG_FINISH,
    LOG_MOVE,
    LOG_PLAY_EVENT,
    LOG_REST,
    LOG_ROUTE,
    LOG_STEAL,
    LOG_USE_ARTEFACT,
    LOG_USE_ON_RIVAL,
    MAX_ARTEFACTS,
    PENDING_N,
    PLAN,
    POLICY,
    POS,
    REACHED,
    ROUTE,
    RULE_CHALLENGE_FINISH,
    RULE_DRAW_TWO,
    RULE_ENCOUNTER,
    STAT_BOUNCES,
    STAT_LOST,
    TOLL,
    Board,
    Deck,
    Players,
    Tables,
    Tally,
    note,
)

NO_SQUARES = (-1, -1)  # a log row about no move

# --- positions -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def place(board: Board, players: Players, tally: Tally, p: int, index: int, rnd: int) -> None:
    """Move ``p`` to ``index`` on its route, keeping square occupancy; finishing if it is
    the last square."""
    old = node_of(board, players, p)
    toll = players.info[p, TOLL]
    if old >= 0:
        tally.occupancy[old] -= 1
        tally.tolls[old] -= toll
    players.info[p, POS] = index
    new = node_of(board, players, p)
    if new != old:
        tally.clock[0] += 1
        players.info[p, REACHED] = tally.clock[0]
    if new >= 0:
        tally.occupancy[new] += 1
        tally.tolls[new] += toll
    if new == board.finish and players.info[p, ARRIVAL] == 0:
        arrived = 1
        for q in range(players.info.shape[0]):
            if players.info[q, ARRIVAL] > 0:
                arrived += 1
        players.info[p, ARRIVAL] = arrived
        note(tally, rnd, p, LOG_FINISH, -1, arrived, (index, index), -1)


@njit(cache=True, inline="always")
def send_back(board: Board, players: Players, tally: Tally, p: int, rnd: int) -> None:
    """Back to the first square behind that can host (losing a challenge, some events)."""
    if players.info[p, POS] < 0:
        return
    behind = fall_back(board, tally, players.info[p, ROUTE], players.info[p, POS] - 1, -1)
    place(board, players, tally, p, behind, rnd)


# --- events and artefacts against a character ------------------------------------------


@njit(cache=True, inline="always")
def play_against(
    card: int,
    target: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    rnd: int,
) -> None:
    """The effect of ``card`` on ``target``: an event drawn as an encounter or played by a
    rival, or an artefact a rival uses on it (Scales of Ftoll).

    Inlined in its three callers: a call would pass the whole state, about 36 arrays, and
    measured 5-7 % slower races than the longer compile of three copies."""
    if players.info[target, ARRIVAL] > 0:
        return  # immune once finished (p. 7)
    ward = smart_ward(card, target, board, players, tables)
    if ward >= 0:
        discard(deck, take_artefact(players, target, ward))
        note(tally, rnd, target, LOG_USE_ARTEFACT, card, 0, NO_SQUARES, -1)
        return
    cards = tables.cards
    effect = cards[card, CARD_EFFECT]
    character = tables.characters[players.info[target, CHARACTER]]
    advantage = tables.advantages[players.info[target, ADVANTAGE]]
    if effect in (E_BACK_IF_TERRAIN, E_BACK):
        node = node_of(board, players, target)
        if node < 0 or is_steady(character, advantage):
            return
        if effect == E_BACK or board.node_terrain[node] == cards[card, CARD_TERRAIN]:
            send_back(board, players, tally, target, rnd)
    elif effect == E_CURSE:
        players.curse[target, cards[card, CARD_TERRAIN]] += cards[card, CARD_PARAM]
    elif effect == E_DISCARD:
        for _ in range(cards[card, CARD_PARAM]):
            if players.info[target, HAND_N] > 0:
                lowest = lowest_card(players.hand[target], players.info[target, HAND_N], cards)
                discard(deck, take_from_hand(players, target, lowest))
    # terrain-cost and extra-mp help only the one who plays them before moving


# --- a turn ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def take_turn(
    p: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    encounters: bool,
    rnd: int,
) -> None:
    """Player ``p``'s turn in round ``rnd`` (p. 5): greedy plays no card for its effect
    and never rests; a planner plays what it planned for the turn (``PLAN``), else as
    smart (:mod:`~trackkit.games.yummell.core.policies`)."""
    smart = players.info[p, POLICY] != GREEDY
    plan = players.info[p, PLAN]
    prepare(p, players, deck, tally, tables)
    extra_mp = 0
    if smart:  # actions at the start of the movement phase
        if plan != PLAN_QUIET:
            extra_mp = play_event_or_activate(p, board, players, deck, tally, tables, rnd)
        use_on_rival(p, board, players, deck, tally, tables, rnd)
    if plan >= 0 and plan < MOVE_RANKS:
        resting = players.info[p, HAND_N] == 0
    elif plan == PLAN_REST:
        resting = True
    else:
        resting = smart and smart_should_rest(p, board, players, tally, tables, extra_mp)
    if resting:
        lifted = rest(players.curse[p])
        here = players.info[p, POS]
        note(tally, rnd, p, LOG_REST, -1, lifted, (here, here), -1)
    elif players.info[p, HAND_N] > 0:
        advanced = move(p, board, players, deck, tally, tables, extra_mp, rnd)
        if players.info[p, ARRIVAL] > 0:
            return  # no encounter on the last square
        steal_on_arrival(p, board, players, tally, tables, rnd)
        # 3. Encounter, when the character advanced at least one square
        if encounters and advanced:
            encounter(p, board, players, deck, tally, tables, rnd)
            if players.info[p, ARRIVAL] > 0:
                return
    replenish(p, board, players, deck, tally, tables)


@njit(cache=True, inline="always")
def prepare(p: int, players: Players, deck: Deck, tally: Tally, tables: Tables) -> None:
    """1. Preparation: draw a card (and two more, keeping one, with that advantage; or,
    read as ``DRAW_TWO_INSTEAD``, only those two). This turn's terrain events start at
    none."""
    tally.turn_delta[:] = 0
    two = tables.advantages[players.info[p, ADVANTAGE], ADV_EFFECT] == E_DRAW_TWO_KEEP_ONE
    if not (two and tables.rules[RULE_DRAW_TWO] == DRAW_TWO_INSTEAD):
        add_to_hand(players, p, draw(deck, tables.cards, tally))
    if two:
        draw_two_keep_one(players, deck, tables.cards, tally, p)


@njit(cache=True, inline="always")
def draw_two_keep_one(
    players: Players, deck: Deck, cards: np.ndarray, tally: Tally, p: int
) -> None:
    """The fourth advantage: "At the start of the turn the player draws 2 cards and keeps 1".

    Read as an action on top of the Preparation draw, not instead of it (a modelling
    decision, README "Modelling decisions"): an advantage is an action, actions come only
    at the start or end of a phase and "the player may not take action before" the
    Preparation phase, and the card does not say "instead"; so the player draws its card,
    then uses the advantage at the end of the Preparation phase. The other card is
    discarded; the hand goes back to four at Replenishment as always. Read instead of the
    Preparation draw (the ``draw_two`` reading ``instead``), :func:`prepare` makes no
    draw of its own before it.
    """
    first = draw(deck, cards, tally)
    second = draw(deck, cards, tally)
    kept, dropped = keep_of_two(first, second, cards)
    add_to_hand(players, p, kept)
    discard(deck, dropped)


@njit(cache=True, inline="always")
def play_event_or_activate(
    p: int, board: Board, players: Players, deck: Deck, tally: Tally, tables: Tables, rnd: int
) -> int:
    """At the start of the movement phase a smart player plays one event from its hand,
    else starts activating one artefact. Returns the extra MP the event gives this move."""
    played = smart_event(p, board, players, tally, tables)
    if played >= 0:
        return play_event(p, played, board, players, deck, tally, tables, rnd)
    cards = tables.cards
    artefact = smart_artefact_to_activate(players.hand[p], players.info[p, HAND_N], cards)
    if artefact >= 0 and players.info[p, PENDING_N] < MAX_ARTEFACTS:
        card = take_from_hand(players, p, artefact)
        players.pending[p, players.info[p, PENDING_N]] = card
        players.info[p, PENDING_N] += 1
        note(tally, rnd, p, LOG_ACTIVATE, card, 0, NO_SQUARES, -1)
    return 0


@njit(cache=True, inline="always")
def play_event(
    p: int,
    index: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    rnd: int,
) -> int:
    """Play the event at ``index`` of the hand: a terrain discount or more MP for this
    move, or against the rival nearest the finish. Returns its extra MP."""
    cards = tables.cards
    event_card = take_from_hand(players, p, index)
    effect = cards[event_card, CARD_EFFECT]
    extra_mp = 0
    here = players.info[p, POS]
    if effect == E_TERRAIN_COST:
        tally.turn_delta[cards[event_card, CARD_TERRAIN]] += cards[event_card, CARD_PARAM]
        note(tally, rnd, p, LOG_PLAY_EVENT, event_card, 0, (here, here), p)
    elif effect == E_EXTRA_MP:
        extra_mp += cards[event_card, CARD_PARAM]
        note(tally, rnd, p, LOG_PLAY_EVENT, event_card, 0, (here, here), p)
    else:
        target = leader(p, board, players)
        before = players.info[target, POS]
        play_against(event_card, target, board, players, deck, tally, tables, rnd)
        after = players.info[target, POS]
        note(tally, rnd, p, LOG_PLAY_EVENT, event_card, 0, (before, after), target)
    discard(deck, event_card)
    return extra_mp


@njit(cache=True, inline="always")
def use_on_rival(
    p: int, board: Board, players: Players, deck: Deck, tally: Tally, tables: Tables, rnd: int
) -> None:
    """Active artefacts that hurt a rival, each used once on the rival nearest the finish
    and discarded (no limit per turn)."""
    target = leader(p, board, players)
    used = smart_rival_artefact(p, target, board, players, tables)
    while used >= 0:
        artefact = take_artefact(players, p, used)
        before = players.info[target, POS]
        play_against(artefact, target, board, players, deck, tally, tables, rnd)
        after = players.info[target, POS]
        note(tally, rnd, p, LOG_USE_ON_RIVAL, artefact, 0, (before, after), target)
        discard(deck, artefact)
        used = smart_rival_artefact(p, target, board, players, tables)


@njit(cache=True, inline="always")
def first_moves(players: Players) -> int:
    """How many characters have made their first move."""
    count = 0
    for q in range(players.info.shape[0]):
        if players.info[q, FIRST_MOVE] >= 0:
            count += 1
    return count


@njit(cache=True, inline="always")
def move(
    p: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    extra_mp: int,
    rnd: int,
) -> bool:
    """2. Movement: a start path chosen on the first move, a card played (and an artefact's
    MP added) and as far as its MP carry, falling back off a full square. Returns whether
    the character advanced at least one square, as the race reads it: it ends ahead of
    where it began (``ENCOUNTER_AHEAD``), or it entered a square, even one it fell back
    from (``ENCOUNTER_ENTERED``)."""
    cards = tables.cards
    smart = players.info[p, POLICY] != GREEDY
    if players.info[p, FIRST_MOVE] < 0:  # its place among the first moves: the commit order
        players.info[p, FIRST_MOVE] = first_moves(players)
    if players.info[p, ROUTE] < 0:
        if smart or players.info[p, ROUTE] == FREE:
            players.info[p, ROUTE] = smart_route(p, board, players, tally, tables, extra_mp)
        else:
            players.info[p, ROUTE] = greedy_route(board)
        note(tally, rnd, p, LOG_ROUTE, -1, players.info[p, ROUTE], NO_SQUARES, -1)
    route = players.info[p, ROUTE]
    plan = players.info[p, PLAN]
    if plan >= 0 and plan < MOVE_RANKS:
        index = ranked_card(players.hand[p], players.info[p, HAND_N], cards, plan)
    elif smart:
        index = smart_move_card(p, board, players, tally, tables, extra_mp)
    else:
        index = highest_card(players.hand[p], players.info[p, HAND_N], cards)
    card = take_from_hand(players, p, index)
    mp = cards[card, CARD_NUMBER] + extra_mp
    if smart:
        bonus = smart_mp_bonus(p, route, mp, board, players, tally, tables)
        if bonus >= 0:
            used = take_artefact(players, p, bonus)
            mp += cards[used, CARD_PARAM]
            discard(deck, used)
            note(tally, rnd, p, LOG_USE_ARTEFACT, used, cards[used, CARD_PARAM], NO_SQUARES, -1)
    discard(deck, card)
    start = players.info[p, POS]
    reached = furthest(board, players, tally, tables, p, route, start, mp)
    end = fall_back(board, tally, route, reached, node_of(board, players, p))
    if end < reached:
        tally.node_bounce[board.route_nodes[route, reached]] += 1
        tally.race[STAT_BOUNCES] += 1
        note(tally, rnd, p, LOG_BOUNCE, -1, 0, (reached, end), -1)
    note(tally, rnd, p, LOG_MOVE, card, mp, (start, end), -1)
    place(board, players, tally, p, end, rnd)
    if tables.rules[RULE_ENCOUNTER] == ENCOUNTER_ENTERED:
        return reached > start
    return end > start


@njit(cache=True, inline="always")
def steal_on_arrival(
    p: int, board: Board, players: Players, tally: Tally, tables: Tables, rnd: int
) -> None:
    """Cleptomania and the thief's advantage, each once where the character ends its move."""
    if tables.characters[players.info[p, CHARACTER], CHAR_ABILITY] == E_CLEPTOMANIA:
        steal_artefact(board, players, tally, p, rnd)
    if tables.advantages[players.info[p, ADVANTAGE], ADV_EFFECT] == E_STEAL_ARTEFACT:
        steal_artefact(board, players, tally, p, rnd)


@njit(cache=True, inline="always")
def steal_artefact(board: Board, players: Players, tally: Tally, p: int, rnd: int) -> None:
    """Cleptomania / the thief's advantage: take an active artefact from a character on
    the same square."""
    node = node_of(board, players, p)
    if node < 0 or node == board.finish:
        return
    for q in range(players.info.shape[0]):
        if q != p and players.info[q, ARRIVAL] == 0 and node_of(board, players, q) == node:
            if players.info[q, ACTIVE_N] > 0 and players.info[p, ACTIVE_N] < MAX_ARTEFACTS:
                card = take_artefact(players, q, players.info[q, ACTIVE_N] - 1)
                players.active[p, players.info[p, ACTIVE_N]] = card
                players.info[p, ACTIVE_N] += 1
                here = players.info[p, POS]
                note(tally, rnd, p, LOG_STEAL, card, 0, (here, here), q)
                return


@njit(cache=True, inline="always")
def encounter(
    p: int, board: Board, players: Players, deck: Deck, tally: Tally, tables: Tables, rnd: int
) -> None:
    """3. Encounter: draw a card and face it (p. 6-7): a creature's challenge, an
    artefact, an event."""
    cards = tables.cards
    card = draw(deck, cards, tally)
    if card < 0:
        return
    kind = cards[card, CARD_TYPE]
    here = players.info[p, POS]
    if kind == ARTEFACT:
        if players.info[p, ACTIVE_N] < MAX_ARTEFACTS:
            players.active[p, players.info[p, ACTIVE_N]] = card
            players.info[p, ACTIVE_N] += 1
        note(tally, rnd, p, LOG_ARTEFACT, card, 0, (here, here), -1)
    elif kind == EVENT:
        if cards[card, CARD_ARROW]:  # arrow: played against the one who drew it
            play_against(card, p, board, players, deck, tally, tables, rnd)
        note(tally, rnd, p, LOG_EVENT, card, 0, (here, players.info[p, POS]), -1)
        discard(deck, card)
    else:
        challenge(p, card, board, players, deck, tally, tables, rnd)


@njit(cache=True, inline="always")
def challenge(
    p: int,
    card: int,
    board: Board,
    players: Players,
    deck: Deck,
    tally: Tally,
    tables: Tables,
    rnd: int,
) -> None:
    """A creature's challenge (p. 6-7): a card played against it (with a challenge
    artefact when that turns a loss into a win); won, one square ahead if it can host (the
    finish too, unless the race reads that a challenge stops short of it:
    ``CHALLENGE_STAYS``); lost, back to the first square behind that can."""
    cards = tables.cards
    character = tables.characters[players.info[p, CHARACTER]]
    advantage = tables.advantages[players.info[p, ADVANTAGE]]
    creature = cards[card]
    bonus = 0
    hand, held = players.hand[p], players.info[p, HAND_N]
    choice = choose_challenge_card(
        players.info[p, POLICY], hand, held, cards, character, advantage, creature
    )
    if players.info[p, POLICY] != GREEDY:
        bonus_index = find_artefact(players, cards, p, E_CHALLENGE_BONUS)
        if bonus_index >= 0 and choice >= 0:
            number = cards[players.hand[p, choice], CARD_NUMBER]
            total = challenge_total(character, advantage, creature, number)
            extra = cards[players.active[p, bonus_index], CARD_PARAM]
            if not challenge_won(total, creature) and challenge_won(total + extra, creature):
                bonus = extra
                discard(deck, take_artefact(players, p, bonus_index))
                note(tally, rnd, p, LOG_USE_ARTEFACT, card, extra, NO_SQUARES, -1)
    played, won = -1, False
    if choice >= 0:  # no card to play: the challenge is lost (p. 7)
        played = take_from_hand(players, p, choice)
        total = challenge_total(character, advantage, creature, cards[played, CARD_NUMBER])
        won = challenge_won(total + bonus, creature)
        discard(deck, played)
    if not won:
        tally.race[STAT_LOST] += 1
    before = players.info[p, POS]
    after = before
    if won:
        node = board.route_nodes[players.info[p, ROUTE], before + 1]
        short = node == board.finish and tables.rules[RULE_CHALLENGE_FINISH] == CHALLENGE_STAYS
        if can_host(tally.occupancy[node], node == board.finish) and not short:
            after = before + 1
    elif before >= 0:
        after = fall_back(board, tally, players.info[p, ROUTE], before - 1, -1)
    note(tally, rnd, p, LOG_CHALLENGE, card, 1 if won else 0, (before, after), played)
    place(board, players, tally, p, after, rnd)
    discard(deck, card)


@njit(cache=True, inline="always")
def replenish(
    p: int, board: Board, players: Players, deck: Deck, tally: Tally, tables: Tables
) -> None:
    """4. Replenishment: discard down to or draw up to four; artefacts being activated
    become active; the turn ends on the square (counted)."""
    cards = tables.cards
    while players.info[p, HAND_N] > HAND_SIZE:
        lowest = lowest_card(players.hand[p], players.info[p, HAND_N], cards)
        discard(deck, take_from_hand(players, p, lowest))
    while players.info[p, HAND_N] < HAND_SIZE:
        card = draw(deck, cards, tally)
        if card < 0:
            break
        add_to_hand(players, p, card)
    for i in range(players.info[p, PENDING_N]):
        if players.info[p, ACTIVE_N] < MAX_ARTEFACTS:
            players.active[p, players.info[p, ACTIVE_N]] = players.pending[p, i]
            players.info[p, ACTIVE_N] += 1
    players.info[p, PENDING_N] = 0
    node = node_of(board, players, p)
    if node >= 0:
        tally.node_time[node] += 1
