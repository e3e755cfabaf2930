"""What a tune's candidate costs beside its races (trackkit.tune.plan's CANDIDATE_RACES,
PARAMETER_RACES and CONFIG_RACES), measured on this machine, one core:

    .venv/bin/python tests/tune/overhead.py

It times the panel's races alone (the six presets at 2 to 8 players, 100 and 2,000 races
each: the pace of a race and the set-up of a track and count), then two real searches of
150 candidates on First run at 3 and 5 players, 100 races each, moving 4 values and 32
(every candidate's time beside its races, and what each value moved adds), and prints each
as seconds and as races at the measured pace. Not a test: it takes a few minutes.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from trackkit.tune.evaluate import evaluate
from trackkit.tune.plan import TuneSettings, plan_tune
from trackkit.tune.search import tune
from trackkit.tune.spec import parse_tune

SEARCH = """content = "hand-made"
[balance]
tracks = {tracks}
players = {players}
races = {races}
[targets]
win_share = 0.3
[search]
budget = {budget}
seed = 1
confirm_races = 100
stop_when_met = false
recheck = 0
[[move]]
file = "characters.toml"
{entries}fields = ["strength", "agility", "sympathy", "magic"]
low = 1
high = 8
"""
BUDGET = 150


def _spec(tracks: str, players: str, races: int, entries: str, budget: int = BUDGET):
    text = SEARCH.format(
        tracks=tracks, players=players, races=races, entries=entries, budget=budget
    )
    return parse_tune(text, "overhead.toml")


def _racing(spec, repeats: int = 3) -> tuple[float, int]:
    """The fastest of ``repeats`` evaluations of the start on ``spec``'s panel."""
    plan = plan_tune(spec)
    content = plan.ruleset.load_content(plan.folder)
    evaluate(plan.panel, content)  # compiled and warm
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        evaluate(plan.panel, content)
        times.append(time.perf_counter() - started)
    return min(times), len(plan.panel.configs)


def _per_candidate(spec, out: Path) -> float:
    """Seconds a candidate of a real search, its first excluded (the start, compiling)."""
    stamps: dict[int, float] = {}

    def progress(done: int, *_: object) -> None:
        stamps[done] = time.perf_counter()

    tune(spec, out, TuneSettings(), progress)
    return (stamps[BUDGET] - stamps[1]) / (BUDGET - 1)


def main() -> None:
    presets = '["first-run", "swamps-of-the-king", "horrgrups-path", "forest-run", '
    presets += '"forest-of-goosh", "king-of-toads"]'
    players = "[2, 3, 4, 5, 6, 7, 8]"
    one = 'entries = ["Character 8"]\n'
    short, configs = _racing(_spec(presets, players, 100, one))
    long, _ = _racing(_spec(presets, players, 2000, one))
    race = (long - short) / (configs * 1900)
    config = short / configs - 100 * race
    pace = 1 / race
    print(f"a race: {race * 1e6:.1f} µs ({pace:,.0f} races a second)")
    print(f"a track and count set up: {config * 1e3:.2f} ms = {config * pace:,.0f} races")
    small = '["first-run"]', "[3, 5]", 100
    racing, _ = _racing(_spec(*small, one))
    with tempfile.TemporaryDirectory() as folder:
        four = _per_candidate(_spec(*small, one), Path(folder) / "four") - racing
        every = _per_candidate(_spec(*small, ""), Path(folder) / "every") - racing
        shutil.rmtree(folder, ignore_errors=True)
    parameter = (every - four) / (32 - 4)
    candidate = four - 4 * parameter
    print(f"a value moved: {parameter * 1e3:.2f} ms = {parameter * pace:,.0f} races")
    print(f"a candidate beside: {candidate * 1e3:.1f} ms = {candidate * pace:,.0f} races")


if __name__ == "__main__":
    main()
