"""``trackkit profile`` on a Snow Tails track: the figures that apply, in words about sleds
and start slots, and the ones that do not, said so (text and JSON)."""

from __future__ import annotations

import json

from tests.conftest import Cli

ARGV = ("profile", "husky-oval", "--players", "5", "--races", "150", "--seed", "2")


def test_the_text_speaks_of_sleds_and_start_slots(cli: Cli) -> None:
    code, text, err = cli(*ARGV)
    assert code == 0 and not err
    lines = text.splitlines()
    assert lines[0] == "Husky oval: 5 sleds, 150 races, seed 2"
    assert lines[2].startswith("A race of 5 sleds on Husky oval lasts")
    verdict = " ".join(text[: text.index("\nLength")].split())
    assert "start slot" in verdict and "character" not in verdict.lower()
    assert "The start slot this track moves most against an average track is" in verdict
    # the headline, then two start slots' verdicts: each more than noise or not
    assert "Unfairness " in verdict  # the headline: the start slots against the fair share
    said = verdict.count("more than noise") + verdict.count("cannot tell it from luck")
    assert said + verdict.count("cannot tell it from a track that moves nothing") == 3
    assert "Start slots: win rate of the sleds starting in each (fair 20%)" in text
    assert "Per race: Trees hit" in text and "Buildings" in text
    # what does not apply is listed with why, never shown as a number
    tail = text[text.index("Not applicable") :]
    assert "balance, unfair_character, character_tilt" in tail and "no characters" in tail
    assert "no exact solver" in tail
    assert "nan" not in text and "Exact expected rounds" not in text


def test_the_json_has_the_figures_the_table_and_what_does_not_apply(cli: Cli) -> None:
    code, out, _ = cli(*ARGV, "--json")
    data = json.loads(out)
    figures = data["figures"]
    assert code == 0 and data["players"] == 5 and data["races"] == 150
    assert figures["rounds_mean_low"] <= figures["rounds_mean"] <= figures["rounds_mean_high"]
    assert figures["start_balance_low"] <= figures["start_balance_high"]
    assert "balance" not in figures and "exact_rounds" not in figures
    assert "no characters" in data["not_applicable"]["balance"]
    assert [row["name"] for row in data["start_slots"]] == ["1", "2", "3", "4", "5"]
    assert data["start"] == {"group": "slot", "noun": "start slot", "table": "start_slots"}
    assert set(data["verdict"]) == {"length", "unfairness", "start_slots", "start_balance", "skill"}
    assert figures["unfairness_low"] <= figures["unfairness"] <= figures["unfairness_high"]
    assert figures["unfairness"] == figures["unfairness_start"]  # its one part: the slots
    code, text, _ = cli(*ARGV)
    assert f"{figures['start_balance']:.3f}" in text
