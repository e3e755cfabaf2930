"""``compare --robust``, ``profile --robust`` and ``trackkit readings`` from the command
line, for both games."""

from __future__ import annotations

import json

import pytest

from tests.conftest import Cli
from trackkit.games import get_ruleset
from trackkit.games.readings import varied_policies


@pytest.mark.slow  # 1.7 s with the engines compiled (the quick loop's budget)
def test_compare_says_what_holds_under_every_policy_for_snow_tails(cli: Cli) -> None:
    argv = ("compare", "--game", "snowtails", "--robust", "policy", "--races", "300")
    code, out, err = cli(*argv, "--json")
    assert code == 0, err
    data = json.loads(out)
    policies = varied_policies("snowtails")
    assert "planner" in get_ruleset("snowtails").policies and "planner" not in policies
    assert data["varied"] == ["policy"]
    assert [v["variant"] for v in data["variants"]] == [{"policy": p} for p in policies]
    holds = {v["text"] for v in data["verdicts"] if v["kind"] == "holds"}
    n = len(policies)
    assert f"Husky oval is shorter than Long trail under all {n} combinations" in holds
    for found in data["verdicts"]:  # every verdict carries a difference per variant
        assert len(found["differences"]) == n
    code, text, _ = cli(*argv)
    assert code == 0 and "Holds under every combination:" in text
    assert f"Varied: policy ({', '.join(policies)})" in text
    # issue 32 C5: the policies counted as policies; the brackets said to be a range
    assert text.startswith(f"Compare under {n} policies, ")
    assert "range of estimates across combinations" in text
    assert "\nHolds where" not in text


@pytest.mark.slow  # 4,000 races a board under two readings
def test_a_reading_decides_a_verdict_on_the_demo_boards(cli: Cli) -> None:
    # measured on two seeds (1 and 2 at 4,000 races): under greedy, which of Husky oval and
    # Chicane is fairer (its start slots nearer the fair share) flips with the first-round
    # bonus
    argv = ("compare", "--game", "snowtails", "--robust", "first_round_bonus")
    code, out, err = cli(*argv, "--policy", "greedy", "--races", "4000", "--seed", "1", "--json")
    assert code == 0, err
    found = {(v["figure"], v["a"], v["b"]): v for v in json.loads(out)["verdicts"]}
    flip = found[("unfairness", "husky-oval", "chicane")]
    assert flip["kind"] == "depends" and flip["decided_by"] == "first_round_bonus"
    assert found[("rounds_mean", "husky-oval", "chicane")]["kind"] == "holds"


@pytest.mark.slow  # 20 s: the average track's 30 tracks under each policy
def test_compare_of_yummell_tracks_under_both_policies(cli: Cli) -> None:
    code, out, err = cli("compare", "--players", "3", "--robust", "--races", "200", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert "policy" in data["varied"]
    assert {v["figure"] for v in data["verdicts"]} >= {"rounds_mean", "balance"}


def test_profile_gives_each_figures_range_across_the_readings(cli: Cli) -> None:
    argv = ("profile", "husky-oval", "--players", "5", "--robust", "policy", "--races", "300")
    code, out, err = cli(*argv, "--json")
    assert code == 0, err
    spreads = {s["figure"]: s for s in json.loads(out)["spreads"]}
    rounds = spreads["rounds_mean"]
    assert rounds["least"] <= rounds["default"] <= rounds["most"]
    assert rounds["moved_most_by"] == "policy"
    code, text, _ = cli(*argv)
    n = len(varied_policies("snowtails"))  # the planner is not varied
    assert f"Husky oval: profile under {n} policies" in text
    assert "Mean rounds of a race with the players" in text


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--robust", "nope"), "'nope' is not a reading of this game"),
        (("--robust", "policy", "--policy", "smart"), "--policy fixes the policy"),
        (("--robust", "tie_break,tie-break"), "--robust names tie_break twice"),
        (("--robust", "tight_corners,policy,tight-corners"), "names tight_corners twice"),
    ],
)
def test_a_wrong_robust_run_is_refused_in_one_line(cli: Cli, argv: tuple, said: str) -> None:
    code, _, err = cli("compare", "--game", "snowtails", "--races", "100", *argv)
    assert code == 2
    assert said in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["yummell", "snowtails"])
def test_readings_lists_each_with_its_default_and_passage(cli: Cli, game: str) -> None:
    code, out, _ = cli("readings", "--game", game, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == game and data["policy"]
    for reading in data["readings"]:
        assert reading["passage"] and reading["why"] and reading["question"]
        assert reading["values"][0]["value"] == reading["default"]
        assert reading["flag"].startswith("--")
    asked = {reading["name"] for reading in data["what_ifs"]}
    assert asked == ({"crowding", "deck"} if game == "yummell" else set())
    assert all(reading["what_if"] for reading in data["what_ifs"])
    code, text, _ = cli("readings", "--game", game)
    assert code == 0 and "Policies (--policy" in text
    if asked:  # issue 32 C1: listed apart, after the readings of the text
        apart = text.index("What-ifs (2)")
        assert text.index("\ncrowding [D]") > apart > text.index("\nflutter_end [U]")


def test_a_yummell_reading_named_again_is_refused_before_any_race(cli: Cli) -> None:
    # issue 32 A6: --robust naming deck 30 times built 2^30 combinations (MemoryError);
    # three times raced "deck × deck × deck"
    code, out, err = cli("compare", "--robust", "deck,deck,deck", "--races", "100")
    assert code == 2 and not out
    assert err.strip() == "trackkit: error: --robust names deck twice: name each reading once"


@pytest.mark.slow  # 1.2 s with the engines compiled (the quick loop's budget)
def test_profile_robust_honours_the_precision_and_the_most_races(cli: Cli) -> None:
    # issue 32 A7: --precision and --max-races were ignored under --robust; a precision
    # no run of 500 races reaches makes every track race its most (whole batches of 250)
    argv = ("profile", "husky-oval", "--players", "5", "--robust", "policy", "--races", "250")
    code, out, err = cli(*argv, "--precision", "0.0001", "--max-races", "500", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["precision"], data["max_races"]) == (0.0001, 500)
    used = {row["races_used"] for v in data["variants"] for row in v["tracks"].values()}
    assert used == {500}
    code, text, _ = cli(*argv, "--precision", "0.0001", "--max-races", "500")
    assert "balance's 95% interval is ±0.0001, at most 500 a track; 500 to 500 raced" in text


@pytest.mark.slow  # 1.3 s with the engines compiled (the quick loop's budget)
def test_a_reading_that_changes_no_race_is_counted_once(cli: Cli) -> None:
    # issue 32 C5: greedy sleds never take a 5th collision card, so the repair draw's two
    # values play the very same races: 2 combinations, not 4
    argv = ("compare", "--game", "snowtails", "--policy", "greedy", "--races", "200")
    code, out, err = cli(*argv, "--robust", "repair_draw,first_round_bonus", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["identical"] == ["repair_draw"] and data["varied"] == ["first_round_bonus"]
    assert len(data["variants"]) == 2
    code, text, _ = cli(*argv, "--robust", "repair_draw,first_round_bonus")
    assert text.startswith("Compare under 2 combinations of readings")
    assert "repair_draw: its values give identical races on these tracks" in text
