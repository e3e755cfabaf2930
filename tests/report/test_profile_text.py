"""A profile for people (``trackkit profile``): every figure under its family, JSON with
the same numbers, and clear refusals."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from trackkit.explore.profile import FIGURE_KEYS, FIGURES, TrackProfile
from trackkit.report.profile import profile_text

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture of tests/conftest.py


def test_every_figure_is_shown_under_its_family() -> None:
    values = {f.key: 0.25 for f in FIGURES} | {"terrain_swamp": 0.5, "exact_rounds": float("nan")}
    text = profile_text(TrackProfile("Demo", 4, 200, 7, values))
    assert text.splitlines()[0] == "Demo: 4 players, 200 races, seed 7"
    for figure in FIGURES:
        assert figure.title in text
    assert "Share of swamp squares" in text
    # a figure not computed (the exact solver skipped) is a dash, not "nan"
    assert "nan" not in text
    assert text.index("Length") < text.index("Balance") < text.index("Drama")


def test_the_command_prints_the_profile_as_json(cli: Cli) -> None:
    argv = ("profile", "first-run", "--players", "3", "--races", "120", "--seed", "4")
    code, out, _ = cli(*argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["players"] == 3 and data["races"] == 120 and data["seed"] == 4
    assert 0 <= data["figures"]["balance"] <= 1
    code, text, _ = cli(*argv)
    assert code == 0 and f"{data['figures']['rounds_mean']:.3f}" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("profile", "first-run", "--races", "1"), "at least 2 races"),
        (("profile", "first-run", "--players", "0"), "a race has 1 to 8 players"),
        (("profile", "no-such-track"), "neither a track file nor a preset"),
    ],
)
def test_bad_requests_get_one_line(cli: Cli, argv, message) -> None:
    code, out, err = cli(*argv)
    assert code == 2 and not out and message in err and len(err.strip().splitlines()) == 1


def _profile(difference: tuple[float, float, float], path: tuple[float, float, float]):
    """A profile whose most-moved character and worst start path are as given (value,
    interval low, interval high)."""
    values = dict.fromkeys(FIGURE_KEYS, 0.5)
    values.update(rounds_mean=6.0, rounds_mean_low=5.9, rounds_mean_high=6.1)
    values.update(rounds_p10=5, rounds_p90=7, unfair_character=0.04, balance=0.96)
    values.update(unfairness_low=0.0)  # the headline: not told from nothing
    details = {
        "characters": [
            {
                "name": "Character 5",
                "entries": 1000,
                "win_rate": 0.3 + difference[0],
                "reference_win_rate": 0.3,
                "difference": difference[0],
                "difference_low": difference[1],
                "difference_high": difference[2],
            },
            {
                "name": "Flamm",
                "entries": 1000,
                "win_rate": 0.3,
                "reference_win_rate": 0.3,
                "difference": 0.0,
                "difference_low": -0.01,
                "difference_high": 0.01,
            },
        ],
        "start_paths": [
            {
                "name": "A",
                "entries": 900,
                "win_rate": 0.25,
                "win_rate_low": 0.22,
                "win_rate_high": 0.28,
                "fair_share": 0.25,
            },
            {
                "name": "B",
                "entries": 900,
                "win_rate": path[0],
                "win_rate_low": path[1],
                "win_rate_high": path[2],
                "fair_share": 0.25,
            },
        ],
        "path_rounds": {"A": 10.0, "B": 10.5, "C": 10.2},
    }
    return TrackProfile("Demo", 4, 2000, 1, values, details)


def test_the_verdict_names_the_most_moved_character_and_says_if_it_is_noise() -> None:
    from trackkit.report.verdict import verdict

    clear = verdict(_profile((0.06, 0.03, 0.09), (0.19, 0.17, 0.21)))
    assert "The character it moves most is Character 5" in clear
    assert "a move of +6.0 points (95%: +3.0 to +9.0)" in clear
    assert clear.count("more than noise") == 2  # the character, and start path B
    assert "0.50 rounds more from start path B than from A (exact)" in clear
    luck = verdict(_profile((-0.02, -0.05, 0.01), (0.24, 0.21, 0.27)))
    assert "a move of -2.0 points (95%: -5.0 to +1.0)" in luck
    assert luck.count("cannot tell it from luck") == 2
    assert "more than noise" not in luck


def test_the_text_opens_with_the_verdict_and_shows_the_tables() -> None:
    text = profile_text(_profile((0.06, 0.03, 0.09), (0.19, 0.17, 0.21)))
    lines = text.splitlines()
    assert lines[2].startswith("A race of 4 on Demo lasts 6.0 rounds")
    assert "Characters: win rate per race entered (fair 25%)" in text
    assert "+6.0 points (+3.0 to +9.0)" in text
    assert "B    10.50 rounds  wins 19% of 900 (17% to 21%; fair 25%)" in text
    assert "(0.500 to 0.500)" in text  # a sampled figure's interval beside it


def test_the_json_carries_the_tables_and_the_verdict(cli: Cli) -> None:
    argv = ("profile", "first-run", "--players", "3", "--races", "250", "--no-exact", "--json")
    code, out, _ = cli(*argv)
    data = json.loads(out)
    assert code == 0 and data["options"]["path_choice"] == "free"  # the rulebook's choice
    assert len(data["characters"]) == 8 and len(data["start_paths"]) == 3
    assert data["verdict"]["character"].startswith("The character")
    assert data["verdict"]["unfairness"].startswith("Unfairness ")
    figures = data["figures"]
    assert figures["unfairness_low"] <= figures["unfairness"] <= figures["unfairness_high"]
    assert len(data["first_moves"]) == 3  # the order of first moves: the start's part
    assert data["figures"]["balance_low"] <= data["figures"]["balance_high"]


def test_the_verdict_says_how_the_start_paths_were_taken() -> None:
    from trackkit.report.verdict import path_sentence

    profile = _profile((0.06, 0.03, 0.09), (0.19, 0.17, 0.21))
    assert "with the paths dealt" in path_sentence(profile)
    profile.details["options"] = {"path_choice": "chosen"}
    assert "with the paths the racers chose" in path_sentence(profile)
    profile.details["start_paths"] = profile.details["start_paths"][:1]
    assert "Every racer took start path A." in path_sentence(profile)


def test_the_verdict_names_a_dead_choice_and_the_free_choice() -> None:
    from trackkit.report.verdict import path_sentence

    profile = _profile((0.06, 0.03, 0.09), (0.19, 0.17, 0.21))
    profile.details["options"] = {"path_choice": "free"}
    profile.details["dead_paths"] = [{"path": "B", "cost_rounds": 0.5, "share_taken": 0.01}]
    text = path_sentence(profile)
    assert "with the free choice of start path" in text
    assert "Start path B is a dead choice: alone it costs 0.50 rounds more" in text
    assert "only 1% of the racers take it" in text


def test_the_verdict_leads_with_the_unfairness_and_its_parts() -> None:
    from trackkit.report.verdict import unfairness_sentence

    profile = _profile((0.06, 0.03, 0.09), (0.19, 0.17, 0.21))
    profile.values.update(
        unfairness=5.0, unfairness_low=4.0, unfairness_high=6.0,
        unfairness_character=3.0, unfairness_start=4.0,
    )  # fmt: skip
    text = unfairness_sentence(profile)
    assert text.startswith("Unfairness 5.0 points (95%: 4.0 to 6.0)")
    assert "its characters (against an average track) 3.0" in text and "more than noise" in text
    assert "its start (the order of first moves, against the fair share) 4.0" in text
    profile.values["unfairness_low"] = 0.0
    assert "cannot tell it from a track that moves nothing" in unfairness_sentence(profile)


def test_characters_within_noise_of_the_most_moved_are_said_to_be_tied() -> None:
    from trackkit.report.verdict import character_sentence

    profile = _profile((0.02, -0.01, 0.05), (0.19, 0.17, 0.21))  # Flamm: 0 ± 1
    text = character_sentence(profile)
    assert "(tied within noise with Flamm)" in text
    clear = character_sentence(_profile((0.06, 0.05, 0.07), (0.19, 0.17, 0.21)))
    assert "tied" not in clear
