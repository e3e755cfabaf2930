"""How a problem reads: the code once, where, and the message as a sentence; and that it is
one type for every game, with the same JSON keys in each."""

from __future__ import annotations

import re
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trackkit.board.problems import Problem


def test_a_sentence_says_where_and_ends_with_a_full_stop_without_the_code() -> None:
    problem = Problem("not-adjacent", "tile 7 does not touch the start tile", placement=1)
    assert problem.sentence == "Placement 2: tile 7 does not touch the start tile."
    assert "not-adjacent" not in problem.sentence
    assert str(problem).count("not-adjacent") == 1


def test_a_whole_track_problem_starts_with_a_capital_and_keeps_its_own_stop() -> None:
    problem = Problem("dead-end", "no way remains. Undo the last tile.")
    assert problem.sentence == "No way remains. Undo the last tile."


def test_problems_name_start_paths_by_their_letter_not_by_square_ids() -> None:
    from trackkit.games import load_tileset
    from trackkit.games.tilekit.track import Placement, Track
    from trackkit.validate import validate

    broken = Track("b", (Placement(1, 0, 0), Placement(7, 0, -1), Placement(2, 0, -2)))
    problems = validate(broken, load_tileset()).problems
    cut = next(p for p in problems if p.code == "disconnected")
    assert "from start path(s) A, B, C:" in cut.sentence
    assert not any(re.search(r"\b\d+:[a-z]*\d+\b", p.sentence) for p in problems)


# --- one type for every game: the same JSON keys, each game's own text -------------------

KEYS = ["code", "message", "severity", "rule", "placement", "tile", "field", "where"]


def test_a_yummell_problem_has_every_key() -> None:
    from trackkit.games import get_ruleset
    from trackkit.validate import validate

    report = validate(get_ruleset("yummell").load_preset("first-run"), players=2)
    assert report.problems[0].to_json() == {
        "code": "tile-count",
        "message": "2 players put 4 path tiles in play; this track has 2. Add 2 path tile(s).",
        "severity": "error",
        "rule": "building",
        "placement": None,
        "tile": None,
        "field": None,
        "where": None,
    }


def test_a_snow_tails_warning_has_every_key_and_its_space_as_a_list() -> None:
    from trackkit.games import get_ruleset
    from trackkit.validate import validate

    report = validate(get_ruleset("snowtails").load_preset("long-trail"))
    assert report.ok and [list(w.to_json()) for w in report.warnings] == [KEYS]
    assert report.warnings[0].to_json() == {
        "code": "building-count",
        "message": "the track has 4 building(s); the rulebook suggests 2 or 3 per track (F).",
        "severity": "warning",
        "rule": None,
        "placement": None,
        "tile": None,
        "field": "buildings",
        "where": None,
    }
    placed = Problem("trap-space", "no way on.", field="markers", where=("a", 2, 3))
    assert list(placed.to_json()) == KEYS and placed.to_json()["where"] == ["a", 2, 3]


@pytest.mark.parametrize(
    ("problem", "text"),
    [
        (
            Problem("not-adjacent", "tile 7 does not touch", rule="structure", placement=1, tile=7),
            "[not-adjacent] placement 2: tile 7 does not touch",
        ),
        (
            Problem("tile-count", "Add 2 path tile(s).", rule="building"),
            "[tile-count] Add 2 path tile(s).",
        ),
        (
            Problem(
                "kennels-late", "too late.", "warning", field="buildings[0]", where=("a", 1, 4)
            ),
            "[kennels-late] buildings[0]: too late.",
        ),
        (Problem("trap-space", "no way on.", where=("a", 1, 4)), "[trap-space] no way on."),
    ],
)
def test_each_game_s_problem_reads_as_it_did(problem: Problem, text: str) -> None:
    assert str(problem) == text


def _yummell_text(code: str, message: str, placement: int | None) -> str:
    """How Yummell's problems read before the types were one."""
    where = f"placement {placement + 1}: " if placement is not None else ""
    return f"[{code}] {where}{message}"


def _snow_tails_text(code: str, message: str, field: str | None) -> str:
    """How Snow Tails' issues read before the types were one."""
    located = f"{field}: " if field else ""
    return f"[{code}] {located}{message}"


CODES = st.from_regex(r"[a-z]+(-[a-z]+)*", fullmatch=True)
MESSAGES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)


@given(CODES, MESSAGES, st.none() | st.integers(0, 40), st.sampled_from(["structure", "building"]))
def test_a_tile_problem_reads_as_before(
    code: str, message: str, placement: int | None, rule: str
) -> None:
    problem = Problem(code, message, rule=rule, placement=placement)
    assert str(problem) == _yummell_text(code, message, placement)


@given(
    CODES,
    MESSAGES,
    st.none() | st.sampled_from(["trees", "buildings[0]", "finish.line", ""]),
    st.sampled_from(["error", "warning"]),
    st.none() | st.tuples(st.sampled_from("ab"), st.integers(1, 5), st.integers(0, 9)),
)
def test_a_board_problem_reads_as_before(
    code: str,
    message: str,
    field: str | None,
    severity: Literal["error", "warning"],
    where: tuple[str, int, int] | None,
) -> None:
    problem = Problem(code, message, severity, field=field, where=where)
    assert str(problem) == _snow_tails_text(code, message, field)
