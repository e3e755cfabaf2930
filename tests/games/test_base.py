"""The engines' side of the seam: a track is checked, composed and prepared once
(:func:`trackkit.games.base.ready`), and what is ready passes to every race."""

from __future__ import annotations

from typing import Any

import pytest

import trackkit.games.snowtails.core.course as geometry
import trackkit.games.tilekit.graph as graph
from trackkit.errors import TrackkitError
from trackkit.games import get_ruleset
from trackkit.games.base import Ready, ready
from trackkit.sim.montecarlo import simulate

GAMES = [
    ("yummell", "first-run", graph, "compose"),
    ("snowtails", "chicane", geometry, "build_course"),
]


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Count the calls of ``module.name`` wherever it was imported from ``module``."""
    calls: list[int] = []
    original = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    import sys

    for loaded in list(sys.modules.values()):
        if getattr(loaded, name, None) is original and loaded.__name__.startswith("trackkit"):
            monkeypatch.setattr(loaded, name, counting)
    return calls


@pytest.mark.parametrize(("game", "slug", "module", "name"), GAMES)
def test_a_simulation_composes_its_track_once(
    monkeypatch: pytest.MonkeyPatch, game: str, slug: str, module: Any, name: str
) -> None:
    ruleset = get_ruleset(game)
    track, options = ruleset.load_preset(slug), ruleset.options(players=3)
    calls = _counted(monkeypatch, module, name)
    simulate(track, options, races=20, seed=1)
    assert len(calls) == 1


@pytest.mark.parametrize(("game", "slug", "module", "name"), GAMES)
def test_a_ready_track_is_composed_no_more_and_races_the_same(
    monkeypatch: pytest.MonkeyPatch, game: str, slug: str, module: Any, name: str
) -> None:
    ruleset = get_ruleset(game)
    track, options = ruleset.load_preset(slug), ruleset.options(players=3)
    prepared = ready(track, options)
    assert isinstance(prepared, Ready) and not prepared.check.problems
    calls = _counted(monkeypatch, module, name)
    first = simulate(prepared, options, races=50, seed=4).to_json()
    assert simulate(prepared, options, races=50, seed=4).to_json() == first
    assert calls == []
    monkeypatch.undo()
    assert simulate(track, options, races=50, seed=4).to_json() == first


def test_a_track_that_breaks_a_rule_is_never_ready() -> None:
    ruleset = get_ruleset("yummell")
    track = ruleset.load_preset("first-run")
    broken = type(track)(name="Broken", placements=track.placements[:2])
    with pytest.raises(TrackkitError, match="cannot be raced"):
        ready(broken, ruleset.options(players=2))
