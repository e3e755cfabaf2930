"""The race engine: turn order, repairs, the end of the race and placings, batches,
tournaments, reproducibility, and one implementation compiled or not (SNOWTAILS.md
§3.2, §3.10, §3.12, §3.13; the §3.15 cases T10, T12, T16)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from snowtails_race_fixtures import STRAIGHT, plain_python, table

from trackkit.games.base import batch_stream
from trackkit.games.snowtails.core.cards import carry_over
from trackkit.games.snowtails.core.engine import (
    MAX_ROUNDS,
    new_batch_results,
    new_tournament_results,
    placings,
    play_batch,
    play_tournament_batch,
    setup_race,
    start_round,
)
from trackkit.games.snowtails.core.options import RaceOptions
from trackkit.games.snowtails.core.presets import load_preset
from trackkit.games.snowtails.core.race import play_tournaments, prepare, record_race, simulate
from trackkit.games.snowtails.core.rules import starting_die, tournament_points
from trackkit.games.snowtails.core.state import (
    ENDING,
    FIRST_CROSSER,
    HIT_SIDE,
    HIT_SLED,
    HIT_TREE,
    LEADER,
    STAT_SIDE,
    STAT_SLEDS,
    STAT_TREES,
)

# --- turn order (rulebook B, SNOWTAILS.md §3.2) -------------------------------------------------


def test_round_1_follows_the_start_order() -> None:
    t = table(players=4, rnd=1)
    t.sleds.slot[:] = [2, 0, 3, 1]
    start_round(t.board, t.race, t.sleds)
    assert list(t.race.order) == [1, 3, 0, 2]
    assert t.race.status[LEADER] == 1


def test_later_rounds_follow_race_position_leader_first() -> None:
    t = table(players=4, **STRAIGHT)
    t.put(0, ("a", 3, 2))
    t.put(1, ("a", 1, 9))
    t.put(2, ("a", 5, 9))  # level with 1: no corner ahead, the leftmost lane leads
    t.put(3, ("c", 2, 0))
    start_round(t.board, t.race, t.sleds)
    assert list(t.race.order) == [3, 1, 2, 0]


def test_sleds_on_one_space_are_ordered_by_start_slot() -> None:
    t = table(players=3, **STRAIGHT)
    t.sleds.slot[:] = [2, 0, 1]
    for p in range(3):
        t.put(p, ("a", 2, 0))
    start_round(t.board, t.race, t.sleds)
    assert list(t.race.order) == [1, 2, 0]


def test_a_repairing_sled_is_released_when_last_at_the_start_of_a_round() -> None:
    t = table(players=3, **STRAIGHT)
    t.put(0, ("a", 3, 9))
    t.put(1, ("a", 3, 5))
    t.put(2, ("a", 3, 1))
    t.sleds.repairing[:] = [0, 1, 1]
    start_round(t.board, t.race, t.sleds)
    assert list(t.sleds.repairing) == [0, 1, 0]  # 2 was last; 1 was not


def test_t12_setup_turns_each_die_to_its_start_slot() -> None:
    t = table(players=8, rnd=1)
    t.sleds.slot[:] = [5, 2, 7, 0, 1, 6, 3, 4]
    setup_race(t.board, t.race, t.sleds)
    assert [int(d) for d in t.sleds.die] == [starting_die(s) for s in t.sleds.slot]
    assert sorted(t.sleds.die) == [1, 1, 2, 2, 3, 3, 4, 4]


# --- the end of the race: T10 --------------------------------------------------------------------


def test_t10_postilly_pipped_blue_passes_yellow_after_the_line() -> None:
    t = table(players=3, **STRAIGHT)  # the line lies after row 2 of "c"
    yellow, blue, green = 0, 1, 2
    t.put(yellow, ("c", 1, 1))
    t.put(blue, ("c", 2, 0))
    t.put(green, ("a", 3, 15))
    t.give(yellow, hand=[1, 0, 0, 0, 0], dogs=(1, 1), deck=[0, 0])
    t.give(blue, hand=[3, 0, 0, 0, 0], dogs=(3, 2), deck=[0, 0])
    t.give(green, hand=[2, 0, 0, 0, 0], dogs=(2, 2), deck=[0, 0])
    start_round(t.board, t.race, t.sleds)
    assert list(t.race.order) == [yellow, blue, green]
    t.play(yellow, "left", 1, "SS")
    assert t.where(yellow) == ("c", 1, 3)  # across the line: this round is the last
    assert t.race.status[ENDING] == 1 and t.race.status[FIRST_CROSSER] == yellow
    t.play(blue, "left", 3, "SSSSD")
    assert t.where(blue) == ("c", 1, 5)  # further beyond the line
    t.play(green, "left", 2, "SSSS")
    assert t.where(green) == ("a", 3, 19)  # short of the line
    out = np.zeros(3, dtype=np.int64)
    placings(t.board, t.sleds, out)
    assert list(out) == [2, 1, 3]


def test_sleds_on_one_space_share_a_placing() -> None:
    t = table(players=3, **STRAIGHT)
    t.put(0, ("a", 2, 0))
    t.put(1, ("a", 2, 0))
    t.put(2, ("a", 2, 4))
    out = np.zeros(3, dtype=np.int64)
    placings(t.board, t.sleds, out)
    assert list(out) == [2, 2, 1]


# --- batches ---------------------------------------------------------------------------------------

OVAL = load_preset("husky-oval")
TRAIL = load_preset("long-trail")


@pytest.fixture(scope="module")
def batch():
    return simulate(
        TRAIL, RaceOptions(players=5, policy=("greedy", "smart") * 2 + ("smart",)), 300, 3
    )


def test_every_race_ends_in_the_round_a_sled_first_crosses_the_line(batch) -> None:
    first = batch.stat("first_crossing")
    assert batch.capped == 0
    for r in range(len(batch.rounds)):
        crossed = first[r][first[r] > 0]
        assert crossed.size > 0 and crossed.min() == batch.rounds[r]


def test_placings_are_ranks_and_the_winner_crossed_the_line(batch) -> None:
    first = batch.stat("first_crossing")
    for r in range(len(batch.rounds)):
        assert sorted(batch.placing[r]) == list(range(1, 6))  # no two sleds on one space
        assert first[r][batch.placing[r] == 1][0] > 0


def test_start_slots_are_a_permutation_and_collisions_add_up(batch) -> None:
    assert all(sorted(s) == list(range(5)) for s in batch.slot)
    hits = batch.node_hits
    assert hits[:, HIT_SIDE].sum() == batch.stats[..., STAT_SIDE].sum()
    assert hits[:, HIT_TREE].sum() == batch.stats[..., STAT_TREES].sum()
    assert hits[:, HIT_SLED].sum() == batch.stats[..., STAT_SLEDS].sum()
    assert batch.stat("trees").sum() > 0 and batch.stat("buildings").any()


def test_cards_are_neither_made_nor_lost_over_many_races() -> None:
    engine = prepare(TRAIL, RaceOptions(players=4, policy="smart"))
    n, p = 40, 4
    play_batch(
        engine.compiled.board,
        engine.setup,
        engine.race,
        engine.sleds,
        engine.scratch,
        batch_stream(1, 0),
        new_batch_results(n, p),
    )
    s = engine.sleds
    total = s.deck_n + s.hand.sum(axis=1) + 2 + s.under.sum(axis=1) + s.boxed
    assert list(total) == [20] * p
    assert (s.collisions <= 4).all()


def test_two_player_races_end_at_once_on_a_fifth_collision_card() -> None:
    result = simulate(OVAL, RaceOptions(players=2, policy="smart"), 200, 8)
    repaired = result.stat("repairs").sum(axis=1) > 0
    assert all(sorted(result.placing[r]) == [1, 2] for r in range(200))
    for r in np.flatnonzero(repaired):
        loser = int(np.flatnonzero(result.stat("repairs")[r])[0])
        assert result.placing[r, loser] == 2


def test_the_same_seed_plays_the_same_races_another_seed_others() -> None:
    options = RaceOptions(players=5)
    a = simulate(OVAL, options, 200, 11)
    b = simulate(OVAL, options, 200, 11)
    c = simulate(OVAL, options, 200, 12)
    for name in ("rounds", "placing", "slot", "stats", "node_hits", "decided_last_round"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert not np.array_equal(a.placing, c.placing)


def test_a_recorded_race_is_race_0_of_its_batch() -> None:
    options = RaceOptions(players=4, policy="smart")
    record = record_race(TRAIL, options, seed=5)
    batch = simulate(TRAIL, options, 1, 5)
    assert record.rounds == batch.rounds[0]
    assert list(record.placings) == list(batch.placing[0])
    assert len({turn.player for turn in record.turns if turn.round == 1}) == 4
    assert all(turn.round <= record.rounds for turn in record.turns)


def test_decided_in_the_last_round_means_the_leader_changed_in_it() -> None:
    engine = prepare(OVAL, RaceOptions(players=3))
    out = new_batch_results(50, 3)
    play_batch(
        engine.compiled.board,
        engine.setup,
        engine.race,
        engine.sleds,
        engine.scratch,
        batch_stream(2, 0),
        out,
    )
    placing, decided = out.placing, out.decided
    winner = int(np.flatnonzero(placing[-1] == 1)[0])
    assert decided[-1] == (winner != engine.race.status[LEADER])


def test_more_rounds_than_max_rounds_are_not_played() -> None:
    batch = simulate(OVAL, RaceOptions(players=3), 20, 1)
    assert (batch.rounds <= MAX_ROUNDS).all()


# --- tournaments: T16 ----------------------------------------------------------------------------


def test_t16_tournament_points_start_order_and_champion() -> None:
    result = play_tournaments([OVAL, TRAIL, OVAL], RaceOptions(players=4), 60, 4)
    for t in range(60):
        points = sum(
            np.array([tournament_points(int(x)) for x in result.placing[t, i]]) for i in range(3)
        )
        assert list(points) == list(result.points[t])
        for i in (1, 2):  # the last finisher of a race starts the next one first
            before = result.placing[t, i - 1]
            finish = sorted(range(4), key=lambda p: (before[p], result.slot[t, i - 1, p]))
            assert [int(result.slot[t, i, p]) for p in finish] == [3, 2, 1, 0]
        best = result.points[t].max()
        tied = np.flatnonzero(result.points[t] == best)
        champion = min(tied, key=lambda p: result.placing[t, 2, p])
        assert result.champion[t] == champion


def test_a_tournament_carries_the_decks_over() -> None:
    """Gained 5s stay and every card is still there after three races (rulebook E)."""
    engines = [prepare(TRAIL, RaceOptions(players=3, policy="smart")) for _ in range(3)]
    stream = engines[0].race.stream
    races = [e.race._replace(stream=stream) for e in engines]
    first, n, p = engines[0], 4, 3
    out = new_tournament_results(n, p)
    play_tournament_batch(
        tuple(e.compiled.board for e in engines),
        tuple(races),
        first.setup,
        first.sleds,
        first.scratch,
        batch_stream(1, 0),
        out,
    )
    points = out.points
    s = first.sleds
    total = s.deck_n + s.hand.sum(axis=1) + 2 + s.under.sum(axis=1) + s.boxed
    assert list(total) == [20] * p
    assert (s.boxed < 2).any()  # the Kennels of the long trail gave 5s that stayed
    assert points.sum(axis=1).tolist() == [3 * (10 + 7 + 5)] * n


def test_between_races_the_cards_under_the_dogs_go_under_the_deck() -> None:
    t = table(**STRAIGHT)
    t.give(0, hand=[1, 2], dogs=(3, 4), collisions=2, deck=[0, 0, 5], under=[4, 4, 4])
    carry_over(t.sleds, 0, 5, t.race.stream)
    s = t.sleds
    assert s.collisions[0] == 0 and (s.left[0], s.right[0]) == (3, 4)
    assert s.hand[0].sum() == 5 and s.under[0].sum() == 0
    # the 5 and the two 0s are drawn from the top; the 4s put under them are left
    assert list(s.hand[0]) == [2, 1, 1, 0, 0, 1] and list(s.deck[0, : s.deck_n[0]]) == [4, 4, 4]


# --- one implementation ------------------------------------------------------------------------------


@pytest.mark.slow  # smart sleds as plain Python (the conformance suite's check stays quick): about 2 s
def test_compiled_and_plain_python_play_the_same_races() -> None:
    """With numba's JIT disabled the same code plays the same races."""
    options = "RaceOptions(players=4, policy=('smart', 'greedy', 'smart', 'greedy'))"
    code = (
        "import json\n"
        "from trackkit.games.snowtails.core.presets import load_preset\n"
        "from trackkit.games.snowtails.core.race import record_race, simulate\n"
        "from trackkit.games.snowtails.core.options import RaceOptions\n"
        f"options = {options}\n"
        "records = [record_race(load_preset(s), options, seed=k).to_json()\n"
        "           for k, s in enumerate(['long-trail', 'reversed-ridge', 'chicane'])]\n"
        "batch = simulate(load_preset('husky-oval'), options, 6, 9)\n"
        "print(json.dumps({'records': records, 'placing': batch.placing.tolist(),\n"
        "                  'stats': batch.stats.tolist(), 'rounds': batch.rounds.tolist()}))\n"
    )
    plain = plain_python(code)
    opts = RaceOptions(players=4, policy=("smart", "greedy", "smart", "greedy"))
    slugs = ["long-trail", "reversed-ridge", "chicane"]
    compiled = [record_race(load_preset(s), opts, seed=k).to_json() for k, s in enumerate(slugs)]
    assert plain["records"] == json.loads(json.dumps(compiled))
    batch = simulate(OVAL, opts, 6, 9)
    assert plain["placing"] == batch.placing.tolist()
    assert plain["stats"] == batch.stats.tolist()
    assert plain["rounds"] == batch.rounds.tolist()
