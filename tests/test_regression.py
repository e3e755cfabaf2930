"""Every command gives the output it gave before the ruleset seam was built.

``tests/golden/`` holds what each command below printed (exit code, standard output and
standard error) on the code just before the layout moved to ``board/``, ``games/``,
``sim/`` and ``report/``. A refactor that changes a number, a word or an exit code fails
here; a change that is meant must regenerate the files on purpose and say why in its
commit:

    python -m tests.test_regression   # rewrites tests/golden/*.out from the current code

Paths of this checkout are written ``<root>`` so the files hold on any machine. JSON
outputs are compared as data, floats to 12 significant digits (a sum added up in another
order may differ in its last bit); text outputs are compared exactly.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
PARTIAL = "tests/golden/partial.toml"  # king-of-toads' first three tiles

# name -> the command's arguments (run from the checkout's root)
COMMANDS: dict[str, list[str]] = {
    "presets": ["presets"],
    "presets-json": ["presets", "--json"],
    "tiles-json": ["tiles", "--json"],
    "show-king-of-toads": ["show", "king-of-toads"],
    "show-forest-run-json": ["show", "forest-run", "--json"],
    "validate-first-run-2": ["validate", "first-run", "--players", "2"],
    "validate-swamps-3-json": ["validate", "swamps-of-the-king", "--players", "3", "--json"],
    "validate-partial": ["validate", PARTIAL, "--partial", "--players", "4", "--json"],
    "next-partial": ["next", PARTIAL, "--players", "4", "--json"],
    "next-partial-text": ["next", PARTIAL],
    "space-4": ["space", "--players", "4", "--json"],
    "unknown-track": ["show", "no-such-track"],
    "bad-character": ["race", "first-run", "--characters", "f,t,x", "--players", "3"],
    "simulate-king-of-toads": [
        *("simulate", "king-of-toads", "--players", "5", "--races", "3000", "--seed", "11"),
        "--json",
    ],
    "simulate-king-of-toads-text": [
        *("simulate", "king-of-toads", "--players", "5", "--races", "3000", "--seed", "11"),
    ],
    "simulate-smart-infinite": [
        *("simulate", "forest-run", "--players", "3", "--races", "1000", "--seed", "2"),
        *("--policy", "smart", "--deck", "infinite", "--json"),
    ],
    "simulate-mixed-policies": [
        *("simulate", "first-run", "--players", "4", "--races", "1000", "--seed", "5"),
        *("--policy", "smart,greedy,smart,greedy", "--characters", "0,1,2,3", "--json"),
    ],
    "simulate-no-encounters": [
        *("simulate", "horrgrups-path", "--players", "2", "--races", "800", "--seed", "3"),
        *("--no-encounters", "--advantages", "climbing,heroism", "--json"),
    ],
    "race-first-run": ["race", "first-run", "--players", "3", "--seed", "1"],
    "race-king-of-toads-json": ["race", "king-of-toads", "--players", "6", "--seed", "7", "--json"],
    "exact-first-run": ["exact", "first-run", "--character", "0", "--advantage", "0", "--json"],
    "exact-king-of-toads": [
        *("exact", "king-of-toads", "--character", "Flamm", "--advantage", "heroism"),
    ],
    "exact-no-encounters": [
        *("exact", "forest-of-goosh", "--character", "2", "--advantage", "3"),
        *("--no-encounters", "--json"),
    ],
    "compare": ["compare", "--players", "3", "--races", "300", "--seed", "1", "--json"],
}
# The commands whose output depends on the characters, on the hand-made reconstruction the
# bundled characters were calibrated from (`--content hand-made`): their golden files are
# what the commands printed before the calibration, byte for byte, so that the engine and
# the solver stay checked against every figure they gave before.
ON_THE_HAND_MADE_ROSTER = (
    "simulate-king-of-toads",
    "simulate-king-of-toads-text",
    "simulate-smart-infinite",
    "simulate-mixed-policies",
    "simulate-no-encounters",
    "race-first-run",
    "race-king-of-toads-json",
    "exact-first-run",
    "exact-king-of-toads",
    "compare",
)
COMMANDS.update(
    {
        f"{name}-hand-made": [*COMMANDS[name], "--content", "hand-made"]
        for name in ON_THE_HAND_MADE_ROSTER
    }
)
# Snow Tails' playthroughs: a race turn by turn (cards, moves, collisions), one as JSON,
# and a simulation's figures, as they were when these files were written (2026-11-29)
COMMANDS.update(
    {
        "snow-race-husky-oval": ["race", "husky-oval", "--players", "4", "--seed", "3"],
        "snow-race-chicane-json": [
            *("race", "chicane", "--players", "5", "--seed", "9", "--policy", "bold"),
            "--json",
        ],
        "snow-race-long-trail-rules": [
            *("race", "long-trail", "--players", "3", "--seed", "5", "--starting-dogs", "4"),
            "--no-first-round-bonus",
        ],
        "snow-simulate-reversed-ridge": [
            *("simulate", "reversed-ridge", "--players", "5", "--races", "2000", "--seed", "11"),
            "--json",
        ],
        "snow-validate-chicane": ["validate", "chicane", "--json"],
    }
)


def run_command(argv: list[str]) -> str:
    """What ``trackkit ARGV`` prints, as the golden file holds it."""
    from trackkit.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    text = f"exit {code}\n--- stdout\n{out.getvalue()}--- stderr\n{err.getvalue()}"
    return text.replace(str(ROOT), "<root>")


def _same(a: Any, b: Any, where: str = "") -> str | None:
    """Where two JSON values differ (floats to 12 digits), or None."""
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, int | float) and isinstance(b, int | float):
            if math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12):
                return None
        return f"{where}: {a!r} != {b!r}"
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{where}: keys {list(a)} != {list(b)}"
        for key in a:
            found = _same(a[key], b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _same(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} != {b!r}"


def _split(text: str) -> tuple[str, str, str]:
    head, rest = text.split("\n--- stdout\n", 1)
    out, err = rest.split("--- stderr\n", 1)
    return head, out, err


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_output_is_unchanged(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    expected = (GOLDEN / f"{name}.out").read_text("utf-8")
    actual = run_command(COMMANDS[name])
    if "--json" in COMMANDS[name]:
        want, got = _split(expected), _split(actual)
        assert got[0] == want[0], f"{name}: {got[0]} != {want[0]}"
        assert got[2] == want[2], f"{name}: stderr {got[2]!r} != {want[2]!r}"
        if want[1].strip():
            difference = _same(json.loads(got[1]), json.loads(want[1]))
            assert difference is None, f"{name}: {difference}"
        else:
            assert got[1] == want[1]
    else:
        assert actual == expected


def test_every_golden_file_belongs_to_a_command() -> None:
    """A command dropped from the list leaves no golden file nobody checks."""
    files = {p.stem for p in GOLDEN.glob("*.out")}
    assert files == set(COMMANDS)


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    GOLDEN.mkdir(exist_ok=True)
    for name, argv in COMMANDS.items():
        (GOLDEN / f"{name}.out").write_text(run_command(argv), "utf-8")
        print(name, file=sys.stderr)
