"""``trackkit ladder``: the steps as text and JSON, bad input in one line."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import Cli


def test_the_ladder_prints_each_rung_and_step(cli: Cli) -> None:
    code, out, err = cli(
        "ladder", "first-run", "--players", "3", "--races", "400", "--rungs", "greedy,smart"
    )
    assert code == 0, err
    assert re.search(r"^  greedy +a player who follows one fixed rule", out, re.MULTILINE)
    assert "smart over greedy: +" in out and "(95%: +" in out
    assert out.rstrip().endswith("each rung wins more often than the one below.")
    assert "planning player" not in out  # no rung plans: no budget said


def test_the_ladder_s_json_with_its_planning_rung(cli: Cli) -> None:
    code, out, _ = cli(
        "ladder", "husky-oval", "--players", "3", "--races", "200", "--budget", "2", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["game"] == "snowtails" and data["players"] == 3
    assert [r["policy"] for r in data["rungs"]] == ["greedy", "smart", "planner"]
    assert [r["plans"] for r in data["rungs"]] == [False, False, True] and data["budget"] == 2
    steps = data["steps"]
    assert [(s["lower"], s["upper"]) for s in steps] == [("greedy", "smart"), ("smart", "planner")]
    for step in steps:
        assert step["gain_low"] <= step["gain"] <= step["gain_high"]
    assert data["monotone"] == all(step["gain"] > 0 for step in steps)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--rungs", "greedy,wizard"], "'wizard' is not a rung of Yummell's ladder"),
        (["--races", "50"], "a ladder step races 100 to"),
        (["--races", "200000"], "the limit is 100,000"),
        (["--policy", "smart"], "leave out --policy"),
        (["--players", "1"], "2 players or more"),
        (["--players", "9"], "players"),
        (["--budget", "0"], "a planning player's budget is 1 to 256"),
        (["--budget", "257"], "a planning player's budget is 1 to 256"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli: Cli, argv: list[str], said: str) -> None:
    code, out, err = cli("ladder", "first-run", *argv)
    assert code == 2 and out == ""
    assert said in err and err.count("\n") == 1
