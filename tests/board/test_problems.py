"""How a problem reads: the code once, where, and the message as a sentence."""

from __future__ import annotations

import re

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
