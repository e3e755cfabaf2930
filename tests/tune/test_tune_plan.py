"""A tune planned before any race: its cost counts what each candidate costs beside its
races (asking, recording, building and loading it), so that a limit admits what runs in
its time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from trackkit import limits
from trackkit.limits import CostLimitError
from trackkit.tune.plan import CANDIDATE_RACES, CONFIG_RACES, PARAMETER_RACES, plan_tune
from trackkit.tune.spec import parse_tune

TUNE = """
[balance]
tracks = ["first-run"]
players = [3, 5]
races = 100

[targets]
win_share = 0.3

[search]
budget = {budget}
confirm_races = 100
recheck = 0

[[move]]
file = "characters.toml"
entry = "Character 6"
fields = ["magic", "sympathy"]
low = 1
high = 8
"""


@pytest.fixture
def app_limits() -> Iterator[None]:
    limits.serve_app_limits(True)
    yield
    limits.serve_app_limits(False)


def test_a_candidate_costs_its_races_and_what_asking_building_and_loading_it_takes() -> None:
    plan = plan_tune(parse_tune(TUNE.format(budget=10), "t.toml"))
    assert plan.races_in_all == 10 * 2 * 100 + 2 * 2 * 100  # the search, then the confirmation
    each = CANDIDATE_RACES + 2 * PARAMETER_RACES + 2 * CONFIG_RACES
    assert plan.cost == plan.races_in_all + (10 + 2) * each


def test_the_apps_limit_counts_what_a_candidate_costs_beside_its_races(app_limits) -> None:
    # counted alone, these 400,400 races were "within" 3,000,000; a candidate of 200 races
    # costs as long as about 4,100 alone (issue 32: 29,000 candidates passed, an hour or more)
    within = plan_tune(parse_tune(TUNE.format(budget=400), "t.toml"))
    assert within.cost <= limits.TUNE_RACES.value()
    with pytest.raises(CostLimitError) as raised:
        plan_tune(parse_tune(TUNE.format(budget=2_000), "t.toml"))
    said = str(raised.value)
    assert said.startswith("this tune would need 8,208,200 races in all (400,400 races, and ")
    assert "the limit is 3,000,000" in said and "\n" not in said
