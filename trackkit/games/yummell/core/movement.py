"""Movement along a route (rulebook p. 5-6): how far MP carry a character, falling back
off a full square, and where characters stand relative to the finish."""

from __future__ import annotations

from numba import njit

from trackkit.games.yummell.core.content import CHAR_ABILITY, E_FLUTTERING
from trackkit.games.yummell.core.rules import (
    OFF_BOARD,
    can_host,
    overtaking_toll,
    presence_cost,
    terrain_cost,
)
from trackkit.games.yummell.core.state import (
    ADVANTAGE,
    ARRIVAL,
    CHARACTER,
    CROWD_END,
    FLUTTER_END_PAYS,
    POS,
    ROUTE,
    RULE_CROWDING,
    RULE_FLUTTER_END,
    RULE_TOLL,
    TOLL,
    TOLL_ENTERING,
    Board,
    Players,
    Tables,
    Tally,
)


@njit(cache=True, inline="always")
def node_of(board: Board, players: Players, p: int) -> int:
    if players.info[p, POS] < 0:
        return -1
    return board.route_nodes[players.info[p, ROUTE], players.info[p, POS]]


@njit(cache=True, inline="always")
def furthest(
    board: Board,
    players: Players,
    tally: Tally,
    tables: Tables,
    p: int,
    route: int,
    start: int,
    mp: int,
) -> int:
    """How far along ``route`` from index ``start`` the MP carry ``p`` (p. 5-6).

    It advances while it can pay for the next square: the terrain (with its modifiers),
    +1 per character there, and +1 per Troll on the square it leaves behind (other than
    itself); unused MP are lost. This turn's events change terrain costs
    (``tally.turn_delta``). Read with the crowding only where the move ends
    (``CROWD_END``), the squares passed through cost their terrain and Trolls alone, and
    the character stops on the furthest square whose characters it can still pay for.
    A fluttering mover (Flamm) pays for no company on the squares it moves through; read
    with fluttering sparing only those (``FLUTTER_END_PAYS``), it pays for the company
    on the square its move ends on, as the crowding only where a move ends reads it for
    everyone. Read with the Troll's toll paid on entering its square (``TOLL_ENTERING``),
    +1 per Troll on the square entered instead of the square left behind.
    """
    # arrays taken out of the tuples once: each access inside the loop would cost a
    # reference-count round trip
    character = tables.characters[players.info[p, CHARACTER]]
    advantage = tables.advantages[players.info[p, ADVANTAGE]]
    curse, turn_delta = players.curse[p], tally.turn_delta
    nodes = board.route_nodes[route]
    node_base, node_terrain = board.node_base, board.node_terrain
    occupancy, tolls = tally.occupancy, tally.tolls
    fluttering = character[CHAR_ABILITY] == E_FLUTTERING
    own_toll = players.info[p, TOLL]
    here = node_of(board, players, p)
    crowd_at_end = tables.rules[RULE_CROWDING] == CROWD_END
    if fluttering:  # company costs it nothing, or (FLUTTER_END_PAYS) only where it stops
        crowd_at_end = tables.rules[RULE_FLUTTER_END] == FLUTTER_END_PAYS
    toll_on_entry = tables.rules[RULE_TOLL] == TOLL_ENTERING
    i = stop = start
    length = board.route_len[route]
    while i + 1 < length:
        node = nodes[i + 1]
        cost = terrain_cost(
            node_base[node], node_terrain[node], character, advantage, curse, turn_delta
        )
        crowd = 0
        if node != board.finish:  # characters on the finish are out of play
            crowd = presence_cost(occupancy[node], fluttering and not crowd_at_end)
        if not crowd_at_end:
            cost += crowd
        if toll_on_entry:
            if node != board.finish:  # (the mover never enters its own square)
                cost += overtaking_toll(tolls[node])
        elif i >= 0:  # the off-board start is not a square: no Troll is overtaken there
            behind = nodes[i]
            trolls = tolls[behind] - (own_toll if behind == here else 0)
            cost += overtaking_toll(trolls)
        if cost > mp:
            break
        mp -= cost
        i += 1
        if not crowd_at_end or crowd <= mp:
            stop = i
    return stop


@njit(cache=True, inline="always")
def fall_back(board: Board, tally: Tally, route: int, index: int, self_node: int) -> int:
    """The first square at or behind ``index`` that can host one more character.

    ``self_node`` is where the mover still stands (it does not count against itself).
    The off-board start hosts anyone.
    """
    nodes, occupancy = board.route_nodes[route], tally.occupancy
    while index >= 0:
        node = nodes[index]
        occupants = occupancy[node] - (1 if node == self_node else 0)
        if can_host(occupants, node == board.finish):
            return index
        index -= 1
    return OFF_BOARD


@njit(cache=True, inline="always")
def landing(
    board: Board, players: Players, tally: Tally, tables: Tables, p: int, route: int, mp: int
) -> int:
    """Where ``p`` ends its movement with ``mp`` MP, falling back off a full square."""
    start = players.info[p, POS] if players.info[p, ROUTE] == route else OFF_BOARD
    reached = furthest(board, players, tally, tables, p, route, start, mp)
    self_node = node_of(board, players, p)
    return fall_back(board, tally, route, reached, self_node)


@njit(cache=True, inline="always")
def remaining(board: Board, players: Players, p: int) -> int:
    """Squares still to go: the race's measure of position (different start paths differ
    in length, so squares to go, not squares done, compare characters)."""
    if players.info[p, ROUTE] < 0:
        longest = 0
        for r in range(board.route_len.shape[0]):
            longest = max(longest, board.route_len[r])
        return longest
    return board.route_len[players.info[p, ROUTE]] - 1 - players.info[p, POS]


@njit(cache=True, inline="always")
def leader(p: int, board: Board, players: Players) -> int:
    """The rival still racing with the fewest squares to go (-1 if none)."""
    best, best_left = -1, 1 << 30
    for q in range(players.info.shape[0]):
        if q != p and players.info[q, ARRIVAL] == 0:
            left = remaining(board, players, q)
            if left < best_left:
                best, best_left = q, left
    return best
