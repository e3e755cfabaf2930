"""The code base stays ruff clean (the check runs with the suite so CI enforces it)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_check_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "trackkit", "tests", "app.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


PACKAGE = ROOT / "trackkit"
MOST_PARAMETERS = 8  # a function taking more passes a named structure instead
MOST_FUNCTION_LINES = 100
MOST_MODULE_LINES = 600
MOST_CLI_MODULE_LINES = 450


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    names = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    count = len(names) + (args.vararg is not None) + (args.kwarg is not None)
    return count - (bool(args.args) and args.args[0].arg in ("self", "cls"))


def _oversized() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text("utf-8")
        name = path.relative_to(ROOT)
        lines = len(source.splitlines())
        most = MOST_CLI_MODULE_LINES if name.parts[:2] == ("trackkit", "cli") else MOST_MODULE_LINES
        if lines > most:
            found.append(f"{name}: {lines} lines (at most {most})")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if _parameters(node) > MOST_PARAMETERS or length > MOST_FUNCTION_LINES:
                    found.append(
                        f"{name}:{node.lineno} {node.name}: {_parameters(node)} parameters, "
                        f"{length} lines"
                    )
    return found


def test_functions_and_modules_stay_small() -> None:
    """No function over 8 parameters or 100 lines, no module over 600 lines (the command
    line's over 450): past that, named structures and modules by topic read better."""
    assert _oversized() == []
