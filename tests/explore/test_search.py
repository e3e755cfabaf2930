"""Searching a design space: the budget is spent on distinct tracks, the same seed finds
the same tracks, the best are legal, and fitness says what it promises."""

from __future__ import annotations

import json

import pytest

from trackkit.cli import main
from trackkit.errors import TrackkitError
from trackkit.explore.profile import ProfileSettings
from trackkit.explore.search import SearchSettings, fitness, search
from trackkit.games import get_ruleset
from trackkit.validate import validate


@pytest.fixture(scope="module")
def space():
    return get_ruleset("yummell").track_space(3)


def test_fitness_is_minus_the_unfairness_less_the_miss_beyond_the_tolerance() -> None:
    assert fitness({"rounds_mean": 10.3, "unfairness": 2.0}, 10, 0.5) == -2.0
    assert fitness({"rounds_mean": 12.5, "unfairness": 2.0}, 10, 0.5) == pytest.approx(-12.0)
    assert fitness({"rounds_mean": 10.6, "unfairness": 1.0}, 10, 0.5) == pytest.approx(-1.5)


@pytest.mark.parametrize(
    "method",
    [pytest.param("map-elites", marks=pytest.mark.slow), "random"],  # map-elites: about 6 s
)
@pytest.mark.slow  # 1.3 s with the engines compiled (the quick loop's budget)
def test_the_same_seed_finds_the_same_tracks(space, method: str) -> None:
    settings = SearchSettings(9.0, budget=40, top=2, check_races=40, method=method)
    a = search(space, settings, ProfileSettings(races=20, seed=4))
    b = search(space, settings, ProfileSettings(races=20, seed=4))
    c = search(space, settings, ProfileSettings(races=20, seed=5))
    assert json.dumps(a.to_json()) == json.dumps(b.to_json())  # NaN (no exact) is NaN
    assert [f.rank for f in a.best] != [f.rank for f in c.best] or a.history != c.history
    assert len(a.history) == 40 and a.evaluated <= 40  # map-elites profiles some twice
    assert list(a.history) == sorted(a.history)  # the best so far never gets worse


@pytest.mark.slow  # 1.5 s with the engines compiled (the quick loop's budget)
def test_the_best_tracks_are_legal_and_ranked_by_fitness(space) -> None:
    result = search(
        space, SearchSettings(9.0, budget=30, top=3, check_races=40), ProfileSettings(races=20)
    )
    assert [f.fitness for f in result.best] == sorted(
        (f.fitness for f in result.best), reverse=True
    )
    for found in result.best:
        track = space.track(found.rank)
        assert validate(track, players=3).ok
        assert found.checked["rounds_mean"] > 0 and found.checked_fitness <= 1
    assert 1 <= result.cells <= 30


@pytest.mark.parametrize(
    ("choices", "message"),
    [
        ({"budget": 0}, "budget is 1 to 2,676"),
        ({"budget": 3000}, "budget is 1 to 2,676"),
        ({"target_length": -1}, "positive number of rounds"),
        ({"check_races": 1}, "at least 2 races"),
        ({"method": "annealing"}, "map-elites or random"),
        ({"axis": "speed"}, "second axis is one of unfairness, skill"),
    ],
)
def test_impossible_searches_are_refused(space, choices, message) -> None:
    with pytest.raises(TrackkitError, match=message):
        search(space, SearchSettings(**({"target_length": 9.0, "budget": 10} | choices)))


def test_a_map_over_skill_places_each_track_by_its_measured_skill(space) -> None:
    """``--axis skill``: the candidates' skill is measured (smart over greedy), and the map's
    rows are its range; the fitness is still the unfairness."""
    from trackkit.explore.search import AXES, _cell

    settings = SearchSettings(9.0, budget=6, top=1, check_races=40, method="random", axis="skill")
    result = search(space, settings, ProfileSettings(races=20, skill_races=100))
    (found,) = result.best
    assert found.values["skill_low"] <= found.values["skill"] <= found.values["skill_high"]
    assert AXES["skill"][0] < found.values["skill"] < AXES["skill"][1]
    low, high = AXES["skill"]
    row = _cell(found.values, settings)[1]
    assert row == int((found.values["skill"] - low) / (high - low) * 20)
    assert 1 <= result.cells <= 6


def test_a_search_of_too_few_races_is_refused(space) -> None:
    with pytest.raises(TrackkitError, match="at least 2 races"):
        search(space, SearchSettings(9.0, budget=10), ProfileSettings(races=1))


@pytest.mark.slow  # the command's 20 profiles, again beside the library's tests: about 3 s
def test_the_command_prints_and_exports_what_it_found(tmp_path, capsys) -> None:
    argv = ["search", "--players", "3", "--target-length", "9", "--budget", "20", "--races"]
    code = main([*argv, "20", "--top", "2", "--export", str(tmp_path), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["profiles"] == 20 and len(data["best"]) == 2
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == sorted(f"track-{f['rank']:07d}.toml" for f in data["best"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--target-length", "x"], "the target length is a number"),
        (["--target-length", "9", "--budget", "0"], "the budget runs from 1"),
        (["--target-length", "9", "--tolerance", "-1"], "the tolerance is a number"),
    ],
)
def test_bad_options_get_one_line(capsys, argv, message) -> None:
    try:
        code = main(["search", "--players", "3", *argv])
    except SystemExit as stop:
        code = int(stop.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
