"""A track's profile: its figures are defined once, hang together, and come from the
simulation and the exact solver they name."""

from __future__ import annotations

import math

import pytest

from trackkit.errors import TrackkitError
from trackkit.explore.profile import FIGURE_KEYS, profile_track, unfairness
from trackkit.games import get_ruleset
from trackkit.games.snowtails.presets import load_preset as load_snow_track
from trackkit.games.yummell.exact import exact_solo
from trackkit.games.yummell.presets import load_preset
from trackkit.games.yummell.setup import RaceOptions
from trackkit.sim.montecarlo import simulate


@pytest.fixture(scope="module")
def king() -> object:
    return profile_track(load_preset("king-of-toads"), players=4, races=400, seed=3)


def test_every_figure_is_there_and_hangs_together(king) -> None:
    v = king.values
    assert set(FIGURE_KEYS) <= set(v)
    assert v["rounds_ci_low"] < v["rounds_mean"] < v["rounds_ci_high"]
    assert v["rounds_p10"] <= v["rounds_mean"] <= v["rounds_p90"]
    assert v["rounds_std"] > 0
    assert v["balance"] == pytest.approx(
        1 - max(v["unfair_character"], v["unfair_start_path"], v["unfair_seat"])
    )
    assert 0 <= v["character_spread_low"] <= v["character_spread"] <= v["character_spread_high"]
    assert 0 <= v["last_round"] <= 1
    terrain = [value for key, value in v.items() if key.startswith("terrain_")]
    assert len(terrain) == 4 and sum(terrain) == pytest.approx(1)
    assert 1 <= v["mp_per_square"] <= 3


def test_the_figures_come_from_the_simulation_and_the_exact_solver(king) -> None:
    track = load_preset("king-of-toads")
    result = simulate(track, RaceOptions(players=4), races=400, seed=3)
    assert king["rounds_mean"] == result.mean_rounds
    assert king["lead_changes"] == result.tally("lead_changes")["mean"]
    assert king["bounces"] == result.tally("bounces")["mean"]
    reference = get_ruleset("yummell").exact_reference()
    assert king["exact_rounds"] == exact_solo(track, **reference).expected_rounds
    # the reference racer's ability and advantage do nothing alone: Flamm, Advantage 3
    content = RaceOptions().content
    assert content.character_names[reference["character"]].startswith("Flamm")
    assert content.advantage_names[reference["advantage"]] == "Advantage 3"


def test_same_seed_same_profile_other_seed_other_profile() -> None:
    track = load_preset("first-run")
    a = profile_track(track, players=3, races=100, seed=5, exact=False)
    b = profile_track(track, players=3, races=100, seed=5, exact=False)
    c = profile_track(track, players=3, races=100, seed=6, exact=False)
    assert a.values == pytest.approx(b.values, nan_ok=True)
    assert a.values["rounds_mean"] != c.values["rounds_mean"]
    assert math.isnan(a["exact_rounds"])


def test_unfairness_is_the_share_of_wins_to_move() -> None:
    fair = [{"entries": 10, "win_rate": 0.5}, {"entries": 30, "win_rate": 0.5}]
    assert unfairness(fair) == 0
    # two labels racing equally, one wins everything: half the wins must move
    one_sided = [{"entries": 10, "win_rate": 1.0}, {"entries": 10, "win_rate": 0.0}]
    assert unfairness(one_sided) == pytest.approx(0.5)
    never = [{"entries": 0, "win_rate": None}, {"entries": 10, "win_rate": 0.3}]
    assert unfairness(never) == 0


def test_a_game_without_profile_figures_is_refused_by_name() -> None:
    track = load_snow_track("husky-oval")
    with pytest.raises(TrackkitError, match="Snow Tails"):
        profile_track(track, players=3, races=20)


def test_too_few_races_are_refused() -> None:
    with pytest.raises(TrackkitError, match="at least 2 races"):
        profile_track(load_preset("first-run"), races=1)
