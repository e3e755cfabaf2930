"""The documentation: the MkDocs site builds without a warning, the README's links lead
somewhere, and the README's test command is the one CI runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# a Markdown link or image: [text](target)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.slow  # 3.5 s with the engines compiled (the quick loop's budget)
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """Every page, link, anchor and API page (from the docstrings) resolves; nothing is
    fetched from the network (the Material theme's web fonts are off)."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "api" / "board" / "index.html").is_file()


def test_every_relative_link_in_the_readme_leads_to_a_file() -> None:
    links = LINK.findall(README.read_text("utf-8"))
    relative = [link for link in links if not re.match(r"[a-z]+:|#", link)]
    assert relative, "the README links into docs/"
    missing = [link for link in relative if not (ROOT / link.split("#")[0]).exists()]
    assert not missing, f"the README links to files that are not there: {missing}"


def test_the_readmes_test_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8").strip().splitlines()[-1]
    readme_lines = README.read_text("utf-8").splitlines()
    assert ci in readme_lines, f"the README's test command is not .ci/run's: {ci}"
