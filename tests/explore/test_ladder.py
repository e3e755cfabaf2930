"""The ladder of policies: mixed tables, paired gains with intervals, one seed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trackkit import limits
from trackkit.errors import TrackkitError
from trackkit.explore.ladder import (
    LADDER_RACE_COUNT,
    MIN_LADDER_RACES,
    ladder_step,
    mixed_seats,
    monotone,
    run_ladder,
    rungs_of,
    skill_pairs,
)
from trackkit.games import get_ruleset
from trackkit.limits import CostLimitError
from trackkit.sim.montecarlo import simulate


def _options(game: str, players: int, **choices: Any) -> Any:
    return get_ruleset(game).options(players=players, **choices)


@given(st.integers(2, 8))
def test_each_seat_is_played_by_each_rung_once_a_race_pair(players: int) -> None:
    first, second = mixed_seats(players, "smart", "greedy")
    assert len(first) == len(second) == players
    for a, b in zip(first, second, strict=True):
        assert {a, b} == {"smart", "greedy"}
    assert first[0] == "smart"


def test_a_step_is_the_difference_of_the_two_rungs_win_rates_per_player() -> None:
    yummell = get_ruleset()
    track = yummell.load_preset("first-run")
    step = ladder_step(track, "smart", "greedy", _options(yummell.name, 3), races=600, seed=5)
    assert step.low <= step.gain <= step.high
    assert step.gain == pytest.approx(100 * (step.upper_rate - step.lower_rate), abs=1e-9)
    # the two seatings' races, counted by hand
    wins = {"smart": 0.0, "greedy": 0.0}
    for seating in mixed_seats(3, "smart", "greedy"):
        result = simulate(track, yummell.options(players=3, policies=seating), races=600, seed=5)
        first = result.placing == 1
        for race in range(600):
            for seat in range(3):
                if first[race, seat]:
                    wins[seating[seat]] += 1 / first[race].sum()
    assert step.upper_rate == pytest.approx(wins["smart"] / 600 / 3)
    assert step.lower_rate == pytest.approx(wins["greedy"] / 600 / 3)


def test_a_ladder_takes_one_seed_and_gives_the_same_numbers_again() -> None:
    yummell = get_ruleset()
    # the shortest preset and the planner too, at a budget of 2: quick (King of Toads at 300
    # race pairs took 12.7 s of the quick loop)
    track = yummell.load_preset("first-run")
    rungs = rungs_of(yummell)
    options = _options(yummell.name, 4, budget=2)
    first = run_ladder(track, rungs, options, races=200, seed=9)
    again = run_ladder(track, rungs, options, races=200, seed=9)
    other = run_ladder(track, rungs, options, races=200, seed=10)
    assert first == again
    assert first != other


def test_smart_beats_greedy_on_a_yummell_preset_beyond_noise() -> None:
    """Measured with `trackkit ladder first-run --players 3`: +32 points (±1.6)."""
    yummell = get_ruleset()
    steps = run_ladder(
        yummell.load_preset("first-run"),
        rungs_of(yummell, ["greedy", "smart"]),
        _options(yummell.name, 3),
        races=800,
    )
    assert monotone(steps) and steps[0].beyond_noise
    assert 20 < steps[0].gain < 45


def test_a_step_that_loses_is_said_so() -> None:
    """A bold musher loses to a smart one on Long trail at 3 sleds (bold is a style, no
    rung: measured -20.9 points at 1,000 race pairs before smart's die and cards changed)."""
    snow = get_ruleset("snowtails")
    step = ladder_step(
        snow.load_preset("long-trail"), "bold", "smart", _options(snow.name, 3), races=400
    )
    assert step.high < 0 and not step.beyond_noise and not monotone([step])


def test_rungs_are_named_from_the_ladder_and_kept_in_its_order() -> None:
    yummell = get_ruleset()
    assert [r.policy for r in rungs_of(yummell, ["smart", "greedy"])] == ["greedy", "smart"]
    with pytest.raises(TrackkitError, match="^'wizard' is not a rung of Yummell's ladder"):
        rungs_of(yummell, ["greedy", "wizard"])
    with pytest.raises(TrackkitError, match="two rungs or more"):
        rungs_of(yummell, ["smart"])


def test_every_game_s_rungs_are_its_policies_each_with_what_it_assumes() -> None:
    for game in ("yummell", "snowtails"):
        ruleset = get_ruleset(game)
        assert len(ruleset.ladder) >= 2
        for rung in ruleset.ladder:
            assert rung.policy in ruleset.policies and len(rung.assumes) > 40
        assert ruleset.ladder[0].policy == ruleset.policies[0]  # the game's default first


def test_too_few_or_too_many_races_are_refused_before_any_race() -> None:
    yummell = get_ruleset()
    track = yummell.load_preset("first-run")
    with pytest.raises(TrackkitError, match="at least 100 race pairs"):
        ladder_step(track, "smart", "greedy", _options("yummell", 3), races=MIN_LADDER_RACES - 1)
    limits.serve_app_limits(True)
    try:
        with pytest.raises(CostLimitError, match="the limit is 20,000"):
            ladder_step(track, "smart", "greedy", _options("yummell", 3), races=20_001)
    finally:
        limits.serve_app_limits(False)


def test_one_player_is_no_table_to_mix() -> None:
    yummell = get_ruleset()
    with pytest.raises(TrackkitError, match="2 players or more"):
        ladder_step(yummell.load_preset("first-run"), "smart", "greedy", _options("yummell", 1))


def test_the_skills_race_pairs_are_the_games_share_of_a_profiles_races() -> None:
    """Yummell races half a profile's races in pairs, Snow Tails (whose smart races cost
    more) a quarter: each sweep with the skill within twice the cost of one without."""
    yummell, snow = get_ruleset("yummell"), get_ruleset("snowtails")
    assert skill_pairs(2_000, yummell) == 1_000 and skill_pairs(2_000, snow) == 500
    assert skill_pairs(100, snow) == MIN_LADDER_RACES  # never fewer than tell anything


def test_a_step_checks_and_prepares_its_track_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both seatings race the track as checked once (a Snow Tails check costs more than a
    hundred race pairs)."""
    snow = get_ruleset("snowtails")
    checked = []
    check = snow.check_track
    monkeypatch.setattr(snow, "check_track", lambda *a, **k: checked.append(1) or check(*a, **k))
    step = ladder_step(snow.load_preset("husky-oval"), "smart", "greedy", _options(snow.name, 3))
    assert len(checked) == 1 and step.races == LADDER_RACE_COUNT
