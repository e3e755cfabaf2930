"""A profile for people (``trackkit profile``): every figure under its family, JSON with
the same numbers, and clear refusals."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from trackkit.explore.profile import FIGURES, TrackProfile
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
        (("profile", "husky-oval"), "Snow Tails 2 has none yet"),
        (("profile", "first-run", "--races", "1"), "at least 2 races"),
        (("profile", "first-run", "--players", "0"), "a race has 1 to 8 players"),
        (("profile", "no-such-track"), "neither a track file nor a preset"),
    ],
)
def test_bad_requests_get_one_line(cli: Cli, argv, message) -> None:
    code, out, err = cli(*argv)
    assert code == 2 and not out and message in err and len(err.strip().splitlines()) == 1
