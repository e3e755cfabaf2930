"""Orderings a comparison states only beyond noise, and the ties it groups."""

from __future__ import annotations

import numpy as np

from trackkit.explore.paired import Paired
from trackkit.report.orderings import orderings, orderings_text, row_tie_groups


def _paired(value: float, noise: np.ndarray) -> dict[str, Paired]:
    return {"unfairness": Paired(value, noise), "rounds_mean": Paired(10.0, noise)}


def test_an_ordering_is_stated_only_beyond_noise() -> None:
    rng = np.random.default_rng(1)
    shared = rng.normal(size=2_000) * 1e-2 / np.sqrt(2_000)
    tracks = {
        "fair": _paired(1.0, shared),
        "also fair": _paired(1.0 + 1e-4, shared + rng.normal(size=2_000) * 1e-2 / 45),
        "unfair": _paired(9.0, shared),
    }
    found = orderings(tracks)
    claims = {(c["better"], c["worse"]) for c in found.claims if c["figure"] == "unfairness"}
    assert claims == {("fair", "unfair"), ("also fair", "unfair")}
    assert found.groups["unfairness"] == [["fair", "also fair"], ["unfair"]]
    # every track is as long: no claim of "shorter" at all, one tie group
    assert not [c for c in found.claims if c["figure"] == "rounds_mean"]
    assert found.groups["rounds_mean"] == [["fair", "also fair", "unfair"]]
    assert any("(tied)" in line for line in orderings_text(found))


def test_a_tie_is_never_ordered() -> None:
    # two tracks whose difference is far inside its noise: nothing is claimed
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(2, 500)) * 0.1
    found = orderings({"a": _paired(2.0, a), "b": _paired(2.001, b)})
    assert found.claims == []
    assert found.to_json()["orderings"] == []


def test_rows_of_a_sweep_are_grouped_by_their_intervals() -> None:
    rows = [
        {"rank": 1, "unfairness": 1.0, "unfairness_low": 0.5, "unfairness_high": 1.5},
        {"rank": 2, "unfairness": 1.1, "unfairness_low": 0.6, "unfairness_high": 1.6},
        {"rank": 3, "unfairness": 6.0, "unfairness_low": 5.5, "unfairness_high": 6.5},
    ]
    assert row_tie_groups(rows, "unfairness", descending=False) == [[1, 2], [3]]
    assert row_tie_groups([{"rank": 1, "squares": 3}], "squares", descending=False) is None


def test_a_searchs_best_tracks_are_grouped_by_their_checked_intervals() -> None:
    from trackkit.explore.search import Found, SearchResult
    from trackkit.report.search import best_tie_groups, search_text

    def found(rank: int, unfair: float) -> Found:
        checked = {"unfairness": unfair, "unfairness_low": unfair - 0.5}
        checked |= {"unfairness_high": unfair + 0.5, "rounds_mean": 10.0}
        values = {"rounds_mean": 10.0, "unfairness": unfair}
        return Found(rank, f"t{rank}", values, -unfair, checked=checked, checked_fitness=-unfair)

    best = (found(7, 1.0), found(3, 1.2), found(9, 6.0))
    result = SearchResult("map-elites", 3, 10.0, 0.5, 10, 0, 200, best, 10, 4, (0.0,) * 10)
    assert best_tie_groups(result) == [[7, 3], [9]]
    assert search_text(result).endswith("#7 = #3 (tied); then #9")
