"""The planning musher: it weighs the other policies' options by playouts, does not peek
at what it cannot see, draws nothing from the race's own stream, plays the same races
from the same seed (compiled or not, on any number of workers), and refuses a budget out
of bounds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from snowtails_race_fixtures import STRAIGHT, plain_python, table

from trackkit.errors import TrackkitError
from trackkit.games.snowtails.core.content import load_deck
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.planning import O_WORTH, plan_turn
from trackkit.games.snowtails.core.policies import LADDER, POLICIES, SMART, choose_plan_as
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.race import prepare, seed_planners, simulate
from trackkit.games.snowtails.core.ruleset import RULESET
from trackkit.games.snowtails.core.state import PLANNER_BUDGET, PLANNER_MASTER, RANDOM_BUFFER
from trackkit.limits import CostLimitError
from trackkit.sim.montecarlo import RACES_PER_BATCH
from trackkit.sim.montecarlo import simulate as simulate_many

OVAL = load_preset("husky-oval")
MIXED = ("planner", "smart", "smart")


def planning_table(seed: int = 4):
    """Three sleds in round 2 on the base straight, the first a planner with a budget of
    4: hands, dogs and decks such that smart, greedy and bold disagree."""
    t = table(players=3, policy=MIXED, seed=seed, **STRAIGHT)
    t.engine.scratch.planning.state[PLANNER_BUDGET] = 4
    t.engine.scratch.planning.state[PLANNER_MASTER] = 12345
    for p, lane in enumerate((2, 3, 4)):
        t.put(p, ("a", lane, 2 + p))
        t.give(p, hand=[0, 1, 3, 4, 4], dogs=(2, 3), die=3, deck=[0, 1, 2, 2, 3, 3, 4, 1, 2])
    t.trees(("a", 2, 6), ("a", 3, 9), ("a", 4, 8))
    return t


def plan_of(t) -> tuple[list[int], list[int]]:
    e = t.engine
    plan_turn(t.board, e.setup, t.race, t.sleds, e.scratch, 0, 3)
    worth = e.scratch.planning.outcome[O_WORTH].tolist()
    return e.scratch.plan.tolist(), worth


def test_the_planner_is_the_ladders_top_rung() -> None:
    assert LADDER[-1].policy == "planner" and "planner" in POLICIES
    assert [r.policy for r in LADDER] == ["greedy", "smart", "planner"]


def test_it_weighs_several_options_and_plays_one_of_them() -> None:
    t = planning_table()
    plan, worth = plan_of(t)
    assert sum(1 for w in worth if w > 0) >= 2  # playouts of two options or more
    options = t.engine.scratch.planning.options.tolist()
    assert plan in options


def test_it_does_not_peek_at_decks_or_rivals_hands() -> None:
    """The deck orders and the rivals' hands changed (keeping what each holds in all):
    the same playouts, the same choice."""
    t = planning_table()
    first = plan_of(t)
    u = planning_table()
    u.give(0, deck=[4, 3, 3, 2, 2, 2, 1, 1, 0])  # its own deck in another order
    u.give(1, hand=[2, 2, 3, 4, 1], deck=[0, 4, 3, 3, 1, 0, 2, 4, 1])  # cards swapped
    u.give(2, hand=[1, 1, 2, 2, 3], deck=[4, 4, 4, 0, 0, 3, 2, 3, 3])
    assert plan_of(u) == first
    v = planning_table()
    v.give(0, hand=[0, 1, 2, 4, 4])  # its own hand is known: another hand, other playouts
    assert plan_of(v)[1] != first[1]


def test_it_draws_nothing_from_the_race_stream() -> None:
    t = planning_table()
    before = t.race.stream.copy()
    plan_of(t)
    assert np.array_equal(t.race.stream, before)
    assert t.race.stream[RANDOM_BUFFER] == before[RANDOM_BUFFER]


def test_its_default_option_is_smarts_plan() -> None:
    t = planning_table()
    e = t.engine
    choose_plan_as(t.board, e.setup, t.race, t.sleds, e.scratch, 0, 3, SMART)
    smart = e.scratch.plan.tolist()
    assert e.scratch.planning.options.shape[0] >= 3
    plan_turn(t.board, e.setup, t.race, t.sleds, e.scratch, 0, 3)
    assert e.scratch.planning.options[0].tolist() == smart


def test_the_same_seed_plays_the_same_races_another_seed_others() -> None:
    options = RaceOptions(players=3, policy=MIXED, budget=2)
    a, b = simulate(OVAL, options, 12, 5), simulate(OVAL, options, 12, 5)
    c = simulate(OVAL, options, 12, 6)
    assert np.array_equal(a.placing, b.placing) and np.array_equal(a.stats, b.stats)
    assert not np.array_equal(a.stats, c.stats)


def test_the_planners_seed_depends_on_the_simulation_seed_and_batch() -> None:
    engine = prepare(OVAL, RaceOptions(players=3, policy=MIXED))
    keys = set()
    for seed, batch in ((0, 0), (0, 1), (1, 0)):
        seed_planners(engine, seed, batch)
        keys.add(int(engine.scratch.planning.state[PLANNER_MASTER]))
    assert len(keys) == 3


def test_a_batch_plays_alike_alone_or_within_a_simulation() -> None:
    """A worker given batch 1 alone plays what batch 1 of the whole simulation plays."""
    options = RaceOptions(players=3, policy=MIXED, budget=1)
    whole = simulate_many(OVAL, options, races=RACES_PER_BATCH + 6, seed=7)
    prepared = RULESET.prepare(OVAL, options)
    alone = RULESET.play_batch(prepared, options, 7, 1, 6)
    assert np.array_equal(whole.placing[RACES_PER_BATCH:], alone.placing)


@pytest.mark.slow  # two simulations of 260 races, one forking two workers: about 4 s
def test_workers_play_the_same_races() -> None:
    options = RaceOptions(players=3, policy=MIXED, budget=1)
    one = simulate_many(OVAL, options, races=260, seed=3, workers=1)
    two = simulate_many(OVAL, options, races=260, seed=3, workers=2)
    assert np.array_equal(one.placing, two.placing)


@pytest.mark.parametrize("budget", [0, -3])
def test_a_budget_below_one_is_refused(budget: int) -> None:
    with pytest.raises(TrackkitError, match="budget"):
        RaceOptions(players=3, policy=MIXED, budget=budget).check(load_deck())
    with pytest.raises(TrackkitError, match="budget"):
        simulate(OVAL, RaceOptions(players=3, policy=MIXED, budget=budget), 1, 0)


def test_a_budget_over_the_limit_is_refused() -> None:
    with pytest.raises(CostLimitError, match="a planning player's budget would need 257"):
        RaceOptions(players=3, budget=257).check(load_deck())


@pytest.mark.slow  # the planner as plain Python: about 3 s
def test_compiled_and_plain_python_plan_alike() -> None:
    code = (
        "import json\n"
        "from trackkit.games.snowtails.core.presets import load_preset\n"
        "from trackkit.games.snowtails.core.race import record_race, simulate\n"
        "from trackkit.games.snowtails.core.options import RaceOptions\n"
        f"options = RaceOptions(players=3, policy={MIXED!r}, budget=2)\n"
        "record = record_race(load_preset('husky-oval'), options, seed=4).to_json()\n"
        "batch = simulate(load_preset('husky-oval'), options, 2, 9)\n"
        "print(json.dumps({'record': record, 'stats': batch.stats.tolist()}))\n"
    )
    plain = plain_python(code)
    from trackkit.games.snowtails.core.race import record_race

    options = RaceOptions(players=3, policy=MIXED, budget=2)
    record = record_race(OVAL, options, seed=4).to_json()
    assert plain["record"] == json.loads(json.dumps(record))
    assert plain["stats"] == simulate(OVAL, options, 2, 9).stats.tolist()
