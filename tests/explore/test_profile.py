"""A track's profile: its figures are defined once, hang together, and come from the
simulation and the exact solver they name."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from trackkit.errors import TrackkitError
from trackkit.explore.fairness import Panel, character_fairness
from trackkit.explore.paired import per_race
from trackkit.explore.profile import (
    FIGURE_KEYS,
    FIGURES,
    REFERENCE_DRAW,
    REFERENCE_TRACKS,
    ProfileSettings,
    profile_track,
    reference,
    reference_tracks,
    wilson,
)
from trackkit.games import get_ruleset
from trackkit.games.snowtails.core.presets import load_preset as load_snow_track
from trackkit.games.yummell.core.exact import exact_solo
from trackkit.games.yummell.core.options import RaceOptions
from trackkit.games.yummell.core.presets import load_preset
from trackkit.sim.montecarlo import simulate


@pytest.fixture(scope="module")
def king() -> object:
    return profile_track(
        load_preset("king-of-toads"),
        ProfileSettings(races=500, seed=3, skill=True, skill_races=300),
        players=4,
    )


def test_every_figure_is_there_and_hangs_together(king) -> None:
    v = king.values
    assert set(FIGURE_KEYS) <= set(v)
    for figure in FIGURES:
        if figure.kind == "sampled":  # every sampled figure has its interval around it
            low, high = v[f"{figure.key}_low"], v[f"{figure.key}_high"]
            assert low <= high, figure.key
            assert low - 1e-9 <= v[figure.key] <= high + 1e-9, figure.key
    assert v["rounds_p10"] <= v["rounds_mean"] <= v["rounds_p90"]
    assert v["rounds_std"] > 0
    assert v["balance"] == pytest.approx(1 - v["unfair_character"])
    assert 0 <= v["last_round"] <= 1
    terrain = [value for key, value in v.items() if key.startswith("terrain_")]
    assert len(terrain) == 4 and sum(terrain) == pytest.approx(1)
    assert 1 <= v["mp_per_square"] <= 3


def test_the_figures_come_from_the_simulation_and_the_exact_solver(king) -> None:
    track = load_preset("king-of-toads")
    result = simulate(track, RaceOptions(players=4, start_paths="free"), races=500, seed=3)
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
    a = profile_track(track, ProfileSettings(races=100, seed=5, exact=False), players=3)
    b = profile_track(track, ProfileSettings(races=100, seed=5, exact=False), players=3)
    c = profile_track(track, ProfileSettings(races=100, seed=6, exact=False), players=3)
    assert a.values == pytest.approx(b.values, nan_ok=True)
    assert a.values["rounds_mean"] != c.values["rounds_mean"]
    assert math.isnan(a["exact_rounds"])


def test_balance_is_the_share_of_wins_the_track_moves_from_the_reference(king) -> None:
    # computed by hand from the profile's own table: half the sum over characters of
    # entries × (|win rate here - on the reference| less two standard errors, or 0),
    # over the races
    moved = 0.0
    for row in king.details["characters"]:
        rate, there, n = row["win_rate"] or 0.0, row["reference_win_rate"], row["entries"]
        noise = 2 * math.sqrt(there * (1 - there) / n)
        moved += n * max(0.0, abs(rate - there) - noise)
    assert king["unfair_character"] == pytest.approx(moved / 2 / king.races)
    assert king["unfair_character"] > 0  # King of Toads moves wins: Character 4's swamps
    tilted = max(king.details["characters"], key=lambda r: abs(r["difference"] or 0))
    assert king["character_tilt"] == pytest.approx(abs(tilted["difference"]))


def test_the_reference_is_a_fixed_draw_of_the_space_raced_alike() -> None:
    ruleset = get_ruleset("yummell")
    options = RaceOptions(players=3, start_paths="dealt")
    panel = reference_tracks(ruleset, 3)
    space = ruleset.track_space(3)
    assert len(panel) == REFERENCE_TRACKS
    assert [t.name for t in panel] == [t.name for t in space.sample(30, REFERENCE_DRAW)]
    average = reference(ruleset, options, 250, 9)
    by_hand = sum(
        simulate(track, options, races=250, seed=9).totals.groups["character"] for track in panel
    )
    entries, wins = average.entries * REFERENCE_TRACKS, average.wins * REFERENCE_TRACKS
    assert list(entries.round()) == list(by_hand[0]) and list(wins.round()) == list(by_hand[1])
    assert entries.sum() == pytest.approx(REFERENCE_TRACKS * 250 * 3)
    # race by race too: each race's entries, averaged over the panel's tracks
    assert average.kept_entries.shape == (250, len(entries))
    assert average.kept_entries.sum() * REFERENCE_TRACKS == pytest.approx(entries.sum())
    # one player is outside the building rule: no space, so the presets stand in
    assert [t.name for t in reference_tracks(ruleset, 1)] == [
        ruleset.load_preset(slug).name for slug in ruleset.presets()
    ]


def test_a_track_that_is_the_reference_moves_nothing() -> None:
    # a track raced with the seed of the reference, against a reference of that track
    # alone, moves no wins: balance exactly 1 (the same races, common random numbers)
    track = load_preset("forest-run")
    options = RaceOptions(players=4, start_paths="dealt")
    result = simulate(track, options, races=500, seed=4)
    groups = result.totals.groups["character"]
    kept = per_race(result.column("character"), result.placing, groups.shape[1])
    itself = Panel(groups[0], groups[1], *kept, races=500, tracks=1)
    fairness = character_fairness(result, itself)
    assert fairness.values["balance"] == 1.0
    assert fairness.values["character_tilt"] == 0.0
    assert fairness.moves is not None and not fairness.moves.d.any()
    assert not fairness.moves.influence.any()  # the same races: no noise in the difference


def test_a_precision_adds_races_until_it_is_met_or_capped() -> None:
    track = load_preset("first-run")
    loose = profile_track(
        track, ProfileSettings(races=250, seed=2, exact=False, precision=0.04), players=3
    )
    tight = profile_track(
        track,
        ProfileSettings(races=250, seed=2, exact=False, precision=0.01, max_races=2_000),
        players=3,
    )
    assert (loose["balance_high"] - loose["balance_low"]) / 2 <= 0.04
    assert tight.races == 2_000  # capped before 0.01: it says how many it ran
    assert tight.races > loose.races
    # the races added are the races a longer profile runs: the same figures
    again = profile_track(track, ProfileSettings(races=2_000, seed=2, exact=False), players=3)
    assert again.values == pytest.approx(tight.values, nan_ok=True)


def test_the_wilson_interval_holds_the_rate() -> None:
    low, high = wilson(0.25, 400)
    assert low < 0.25 < high and high - low == pytest.approx(0.085, abs=0.002)
    assert wilson(0.0, 10)[0] == 0.0


def test_a_game_that_does_not_say_what_a_profile_measures_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.games.toy import registered
    from tests.games.toy.core.ruleset import Toy

    monkeypatch.setattr(Toy, "profile_spec", None)  # the toy, had it no profile
    with registered():
        track = get_ruleset("toy").load_preset("puddle-dash")
        with pytest.raises(TrackkitError, match="Toy .* does not yet"):
            profile_track(track, ProfileSettings(races=20), players=3)


def test_too_few_races_are_refused() -> None:
    with pytest.raises(TrackkitError, match="at least 2 races"):
        profile_track(load_preset("first-run"), ProfileSettings(races=1))


# --- Snow Tails: the figures that apply (its ProfileSpec) -----------------------------------


@pytest.fixture(scope="module")
def husky() -> object:
    return profile_track(
        load_snow_track("husky-oval"),
        ProfileSettings(races=200, seed=3, skill=True, skill_races=200),
        players=5,
    )


def test_a_snow_tails_profile_gives_length_and_slot_fairness_with_intervals(husky) -> None:
    v = husky.values
    assert husky.players == 5 and husky.races == 200
    sampled = [f.key for f in husky.figures if f.kind == "sampled"]
    assert {"rounds_mean", "start_balance", "unfair_start", "start_tilt", "start_spread"} <= set(
        sampled
    )
    assert {"collisions", "trees", "decided_last_round", "kennels"} <= set(sampled)
    for key in sampled:  # every sampled figure has its interval around it
        low, high = v[f"{key}_low"], v[f"{key}_high"]
        assert low <= high, key
        assert low - 1e-9 <= v[key] <= high + 1e-9 or key in START_BIASED, key
    assert v["start_balance"] == pytest.approx(1 - v["unfair_start"])
    assert 0 <= v["decided_last_round"] <= 1
    rows = husky.details["start_slots"]
    assert [r["name"] for r in rows] == ["1", "2", "3", "4", "5"]
    assert all(r["entries"] == 200 and r["fair_share"] == 0.2 for r in rows)
    assert sum(r["win_rate"] for r in rows) == pytest.approx(1)
    for r in rows:
        assert r["win_rate_low"] <= r["win_rate"] <= r["win_rate_high"]
        assert r["difference"] == pytest.approx(r["win_rate"] - r["reference_win_rate"])
    rates = [r["win_rate"] for r in rows]
    assert v["start_spread"] == pytest.approx(max(rates) - min(rates))
    assert v["start_tilt"] == pytest.approx(max(abs(r["difference"]) for r in rows))
    titles = " ".join(f.title for f in husky.figures)
    assert "start slot" in titles and "character" not in titles


START_BIASED = {"unfair_start", "start_balance", "start_tilt", "start_spread"}


def test_what_does_not_apply_to_snow_tails_is_absent_and_says_why(husky) -> None:
    v = husky.values
    for key in ("balance", "unfair_character", "character_tilt", "character_rounds_spread"):
        assert key not in v and "no characters" in husky.not_applicable[key]
    for key in ("exact_rounds", "path_spread"):
        assert key not in v and "no exact solver" in husky.not_applicable[key]
    assert "lead_changes" not in v and "seat_advantage" not in v and "squares" not in v
    # every figure of a tile game's profile is either measured or said not to apply
    assert {f.key for f in FIGURES} <= set(v) | set(husky.not_applicable)
    assert not any(k.startswith("path_rounds_") for k in v)
    assert "characters" not in husky.details and "start_paths" not in husky.details
    assert not any(math.isnan(x) for x in v.values())
    data = husky.to_json()
    assert data["not_applicable"] == husky.not_applicable and data["racers"] == "sleds"


def test_a_snow_tails_profile_comes_from_its_races_and_the_presets(husky) -> None:
    from trackkit.games.snowtails.core.options import RaceOptions as SnowOptions

    ruleset = get_ruleset("snowtails")
    options = SnowOptions(players=5)
    result = simulate(load_snow_track("husky-oval"), options, races=200, seed=3)
    assert husky["rounds_mean"] == result.mean_rounds
    assert husky["trees"] == result.tally("trees")["mean"]
    assert husky["decided_last_round"] == result.tally("decided_last_round")["mean"]
    # no space of tracks: the average track is the presets, raced alike
    panel = reference_tracks(ruleset, 5)
    assert [t.name for t in panel] == [ruleset.load_preset(s).name for s in ruleset.presets()]
    average = reference(ruleset, options, 200, 3, "slot")
    entries, wins = average.entries * len(panel), average.wins * len(panel)
    by_hand = sum(simulate(t, options, races=200, seed=3).totals.groups["slot"] for t in panel)
    assert list(entries.round()) == list(by_hand[0]) and list(wins.round()) == list(by_hand[1])
    there = [r["reference_win_rate"] for r in husky.details["start_slots"]]
    assert there == pytest.approx(list(wins / entries))


def test_a_snow_tails_profile_same_seed_same_numbers(husky) -> None:
    track = load_snow_track("husky-oval")
    settings = ProfileSettings(races=200, seed=3, skill=True, skill_races=200)
    again = profile_track(track, settings, players=5)
    other = profile_track(track, replace(settings, seed=4), players=5)
    assert again.values == husky.values and again.details == husky.details
    assert other.values != husky.values


def test_a_snow_tails_precision_is_the_start_balance() -> None:
    track = load_snow_track("long-trail")
    settings = ProfileSettings(races=250, seed=1, precision=0.01, max_races=1_000)
    capped = profile_track(track, settings, players=4)
    assert capped.races == 1_000  # doubled until the cap: 0.01 is out of reach
    loose = profile_track(track, ProfileSettings(races=250, seed=1, precision=0.3), players=4)
    assert loose.races == 250
    assert (loose["start_balance_high"] - loose["start_balance_low"]) / 2 <= 0.3
    again = profile_track(track, ProfileSettings(races=1_000, seed=1), players=4)
    assert again.values == capped.values  # the races added are a longer profile's


@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(0, 50), min_size=1, max_size=30), q=st.sampled_from([0.1, 0.9]))
def test_a_grouped_percentile_rounds_to_the_whole_round_percentile(
    counts: list[int], q: float
) -> None:
    from trackkit.explore.length import grouped_percentile

    row = np.array([counts])
    assume(row.sum() > 0)
    whole = int((np.cumsum(row) < q * row.sum()).sum())
    value = float(grouped_percentile(row, q)[0])
    assert whole - 0.5 < value <= whole + 0.5


def test_skill_is_smart_over_the_game_s_own_at_mixed_tables(king, husky) -> None:
    """Measured with `trackkit compare --players 4`: King of Toads +42.5 points (smart over
    greedy; the planner, a rung that plans, is not in it); Husky oval about 0 (`trackkit
    ladder husky-oval --players 5`: -0.1, -0.5 to +0.4, at 4,000 race pairs). The average
    track's skill is beside it, and compared in the verdict."""
    for profile, bounds in ((king, (30, 55)), (husky, (-6, 6))):
        skill = profile.details["skill"]
        assert (skill["upper"], skill["lower"]) == ("smart", "greedy")
        assert bounds[0] < profile.values["skill"] < bounds[1]
        assert skill["gain_low"] <= skill["gain"] <= skill["gain_high"]
        average = skill["average"]
        assert average["gain_low"] < average["gain"] < average["gain_high"]
        assert "skill" in profile.paired  # compare orders tracks by it


def test_a_profile_that_leaves_the_skill_out_shows_it_as_not_run() -> None:
    profile = profile_track(load_preset("first-run"), ProfileSettings(races=100), players=3)
    assert all(math.isnan(profile.values[k]) for k in ("skill", "skill_low", "skill_high"))
    assert "skill" not in profile.details and "skill" not in profile.paired
