"""How a problem reads: the code once, where, and the message as a sentence."""

from __future__ import annotations

from trackkit.board.problems import Problem


def test_a_sentence_says_where_and_ends_with_a_full_stop_without_the_code() -> None:
    problem = Problem("not-adjacent", "tile 7 does not touch the start tile", placement=1)
    assert problem.sentence == "Placement 2: tile 7 does not touch the start tile."
    assert "not-adjacent" not in problem.sentence
    assert str(problem).count("not-adjacent") == 1


def test_a_whole_track_problem_starts_with_a_capital_and_keeps_its_own_stop() -> None:
    problem = Problem("dead-end", "no way remains. Undo the last tile.")
    assert problem.sentence == "No way remains. Undo the last tile."
