"""The bold policy (issue 24): a musher who takes collision cards when the places gained are
worth it, and so sometimes a 5th card and repairs. Registered, deterministic, the same
compiled and as plain Python; its choices in constructed positions; repairs in races."""

from __future__ import annotations

import numpy as np
import pytest
from snowtails_race_fixtures import STRAIGHT, Table, plain_python, table
from test_snowtails_policies import brute_force, random_table

from trackkit.games.snowtails.core.board import CHAPEL
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.policies import BOLD, POLICIES, choose_plan
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.race import simulate
from trackkit.games.snowtails.core.rules import schedule_text
from trackkit.games.snowtails.core.ruleset import SnowTails
from trackkit.games.snowtails.core.scores import (
    BOLD_CARD,
    BOLD_CARD_HELD,
    BOLD_DIE,
    BOLD_HAND,
    BOLD_LOSS,
    BOLD_PACE,
    BOLD_PLACE,
    SMART_DIE,
    SMART_HAND,
    SMART_SPACE,
    SmartContext,
    smart_worth,
)
from trackkit.games.snowtails.core.state import (
    ENDING,
    OVER,
    PLAN_BONUS,
    PLAN_CODE,
    PLAN_PLAY,
    PLAN_START,
    PLAN_VALUE,
    ROUND,
    STAT_REPAIRS,
    VALUES,
)

REPAIR = 3  # movement.STOP_REPAIR


def play_chosen(t: Table, p: int = 0, position: int = 1) -> int:
    """Sled ``p`` chooses its plan by its policy and plays it; why the move stopped."""
    e = t.engine
    choose_plan(t.board, e.setup, t.race, t.sleds, e.scratch, p, position)
    plan = e.scratch.plan
    return t.play(
        p,
        ["left", "right", "both"][int(plan[PLAN_PLAY])],
        int(plan[PLAN_VALUE]),
        schedule_text(int(plan[PLAN_CODE])),
        int(plan[PLAN_BONUS]),
        position,
    )


def tree_ahead(policy: str, held: int, players: int = 3) -> Table:
    """Sled 0 on lane 3 with dogs 3/3 and a 3 and a 1 in hand, a tree 2 rows ahead: 3 on
    a dog runs 6 spaces straight through the tree (a card); 1 on the right dog drifts
    round it (DDSS) and ends 2 rows short."""
    t = table(players=players, policy=policy, **STRAIGHT)
    t.trees(("a", 3, 6))
    t.put(0, ("a", 3, 4))
    t.give(0, hand=[3, 1], dogs=(3, 3), die=0, collisions=held)
    return t


def bold_score(t: Table, p: int, outcome: tuple, left: int, right: int, play: int, value: int):
    """The bold score of an outcome, from the module docstring."""
    _, _, node, cards, stop, die_left = outcome
    board, sleds, players = t.board, t.sleds, t.sleds.node.shape[0]
    rank, scale = int(board.rank[node]), board.rank.shape[0]
    if stop == REPAIR:
        behind = sum(
            1
            for q in range(players)
            if q != p and (sleds.node[q] < 0 or board.rank[sleds.node[q]] < rank)
        )
        lost = BOLD_LOSS if players == 2 else behind
    if t.race.status[ENDING]:
        return rank - (BOLD_LOSS * scale if stop == REPAIR and players == 2 else 0)
    hand = sleds.hand[p].copy()
    hand[value] -= 2 if play == 2 else 1
    pips = int(sum(v * hand[v] for v in range(VALUES)))
    held, trigger, togo = int(sleds.collisions[p]), int(board.trigger[node]), int(board.togo[node])
    if stop == REPAIR:
        worth = -SMART_SPACE * togo + BOLD_DIE * die_left + BOLD_HAND * pips - BOLD_PLACE * lost
    else:
        context = SmartContext(held, int(sleds.boxed[p]), pips, int(hand[0] + hand[1]))
        worth = smart_worth(togo, trigger, 0, stop, die_left, context)
        worth += (BOLD_HAND - SMART_HAND) * pips  # bold weighs the hand's pips, smart not
        worth += (BOLD_DIE - SMART_DIE) * die_left  # and the die left over, smart not
        if not trigger & CHAPEL:
            worth -= (BOLD_CARD + BOLD_CARD_HELD * held) * cards
    return (worth + BOLD_PACE * (left + right)) * scale + rank


@pytest.mark.parametrize("slug", ["long-trail", "reversed-ridge", "chicane"])
def test_bold_finds_the_best_option_of_all(slug: str) -> None:
    """choose_plan against every option scored from the docstring, on random positions of
    4 sleds (up to 4 cards held, so repairs are among the options)."""
    rng = np.random.default_rng(len(slug))
    for case in range(12):
        rnd = 1 if case == 0 else 2 + case % 3
        t = random_table(rng, slug, "bold", rnd)
        p, position = case % 4, 1 + case % 4
        e = t.engine
        choose_plan(t.board, e.setup, t.race, t.sleds, e.scratch, p, position)
        fields = (PLAN_START, PLAN_PLAY, PLAN_VALUE, PLAN_CODE, PLAN_BONUS)
        got = tuple(int(e.scratch.plan[f]) for f in fields)
        assert got == brute_force(t, p, position, bold_score), case


def test_bold_is_a_registered_policy() -> None:
    assert POLICIES["bold"] == BOLD
    assert "bold" in SnowTails.policies
    RaceOptions(players=5, policy="bold").check(RaceOptions().the_deck())


def test_bold_takes_a_collision_card_that_gains_two_rows_smart_does_not() -> None:
    """With 3 cards held a card costs smart 3 spaces and bold under one: the tree route
    gains 2 rows. In round 1, where balanced dogs earn no die pip (a pip more would make
    it a tie for smart, which the rank then settles for the tree)."""
    taken = {}
    for policy in ("smart", "bold"):
        t = tree_ahead(policy, held=3)
        t.race.status[ROUND] = 1
        play_chosen(t)
        taken[policy] = int(t.sleds.collisions[0]) - 3
    assert taken == {"smart": 0, "bold": 1}


def test_bold_avoids_a_collision_card_that_gains_nothing() -> None:
    """A sled 3 rows ahead on lane 3 cuts the tree route short where the drift round the
    tree ends anyway: the card would buy no row."""
    t = tree_ahead("bold", held=3)
    t.put(1, ("a", 3, 9))
    play_chosen(t)
    assert t.sleds.collisions[0] == 3


def test_bold_takes_a_5th_card_only_when_no_sled_is_behind_it() -> None:
    """A repair costs the places of the sleds behind (they pass it before it moves again):
    last, it costs nothing and the tree on the 6th step gains 2 rows (the repair stops the
    sled on it); with both others behind, it avoids the tree."""
    last = tree_ahead("bold", held=4)
    last.trees(("a", 3, 10))
    last.put(1, ("a", 1, 12))
    last.put(2, ("a", 5, 12))
    assert play_chosen(last) == REPAIR
    assert last.sleds.stats[0, STAT_REPAIRS] == 1 and last.sleds.repairing[0] == 1
    assert last.sleds.collisions[0] == 0

    leading = tree_ahead("bold", held=4)
    leading.trees(("a", 3, 10))
    leading.put(1, ("a", 1, 0))
    leading.put(2, ("a", 5, 0))
    assert play_chosen(leading) != REPAIR
    assert leading.sleds.collisions[0] == 4


def test_with_2_sleds_a_5th_card_under_bold_ends_the_race_with_that_sled_2nd() -> None:
    """Every play of the hand runs into the tree: the 5th card ends the race (rulebook C)."""
    t = table(players=2, policy="bold", **STRAIGHT)
    t.trees(("a", 3, 6))
    t.put(0, ("a", 3, 4))
    t.put(1, ("a", 2, 2))
    t.give(0, hand=[3], dogs=(3, 3), die=0, collisions=4)
    assert play_chosen(t) == REPAIR
    assert t.race.status[OVER] == 1
    assert list(t.sleds.forced) == [2, 1]


def test_with_2_sleds_bold_avoids_a_5th_card_it_could_avoid() -> None:
    t = tree_ahead("bold", held=4, players=2)
    t.trees(("a", 3, 10))
    t.put(1, ("a", 2, 12))  # ahead: with 3 sleds a repair would cost it nothing
    assert play_chosen(t) != REPAIR
    assert t.race.status[OVER] == 0


def test_bold_sleds_repair_on_long_trail_greedy_ones_do_not() -> None:
    """Measured over 400 races of 5 sleds (seed 1): 17 repairs under bold, 0 under greedy
    and smart. Long trail (9 rounds) is the preset where a sled can gather 5
    cards; on the 4-5 round presets no policy repairs (see docs/snowtails.md)."""
    track = load_preset("long-trail")
    repairs = {
        policy: int(
            simulate(track, RaceOptions(players=5, policy=policy), 400, 1).stat("repairs").sum()
        )
        for policy in ("greedy", "smart", "bold")
    }
    assert repairs["bold"] >= 5
    assert repairs["greedy"] == 0 and repairs["smart"] == 0


def test_bold_repairs_in_mixed_races_and_with_2_sleds_a_repair_places_that_sled_2nd() -> None:
    track = load_preset("long-trail")
    mixed = simulate(
        track,
        RaceOptions(players=5, policy=("bold", "smart", "greedy", "greedy", "greedy")),
        400,
        2,
    )
    assert mixed.stat("repairs")[:, 0].sum() > 0
    duel = simulate(track, RaceOptions(players=2, policy="bold"), 300, 3)
    assert duel.stat("repairs").sum() > 0  # 11 measured: sleds with 4 cards and no way out
    for r in np.flatnonzero(duel.stat("repairs").sum(axis=1) > 0):
        loser = int(np.flatnonzero(duel.stat("repairs")[r])[0])
        assert duel.placing[r, loser] == 2


def test_the_same_seed_plays_the_same_bold_races_another_seed_others() -> None:
    track = load_preset("long-trail")
    options = RaceOptions(players=5, policy="bold")
    a, b, c = (simulate(track, options, 200, seed) for seed in (4, 4, 5))
    for name in ("rounds", "placing", "slot", "stats", "node_hits", "decided_last_round"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert not np.array_equal(a.stats, c.stats)


@pytest.mark.slow  # bold sleds as plain Python in a new process: 1-2 s
def test_compiled_and_plain_python_play_the_same_bold_races() -> None:
    """With numba's JIT disabled the same code plays the same races, repairs included."""
    code = (
        "import json\n"
        "from trackkit.games.snowtails.core.presets import load_preset\n"
        "from trackkit.games.snowtails.core.race import simulate\n"
        "from trackkit.games.snowtails.core.options import RaceOptions\n"
        "options = RaceOptions(players=5, policy=('bold', 'bold', 'smart', 'bold', 'greedy'))\n"
        "batch = simulate(load_preset('long-trail'), options, 12, 7)\n"
        "print(json.dumps({'placing': batch.placing.tolist(), 'stats': batch.stats.tolist(),\n"
        "                  'rounds': batch.rounds.tolist()}))\n"
    )
    plain = plain_python(code)
    options = RaceOptions(players=5, policy=("bold", "bold", "smart", "bold", "greedy"))
    batch = simulate(load_preset("long-trail"), options, 12, 7)  # seed 7: a repair among them
    assert batch.stat("repairs").sum() > 0
    assert plain["placing"] == batch.placing.tolist()
    assert plain["stats"] == batch.stats.tolist()
    assert plain["rounds"] == batch.rounds.tolist()
