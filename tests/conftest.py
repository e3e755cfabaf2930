"""Shared fixtures: the bundled tile set, a copy of it in a temporary folder, and the CLI
run in-process; and the markers of the fast loop.

Every test in a ``test_browser*.py`` file is marked ``browser`` (a real Chromium against
the app); a test that takes seconds once the engines are compiled is marked ``slow`` where
it is written. ``pytest -m "not browser and not slow"`` is the quick loop; plain
``pytest`` (the README's command, and CI's) runs everything.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from trackkit.cli import main
from trackkit.games import load_tileset
from trackkit.games.tilekit.tiles import TileSet, bundled_tiles_folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith("test_browser"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def tileset() -> TileSet:
    return load_tileset()


@pytest.fixture
def tile_folder(tmp_path: Path) -> Path:
    """A writable copy of the bundled tile set, for tests that break it."""
    folder = tmp_path / "tiles"
    shutil.copytree(bundled_tiles_folder(), folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    return folder


Cli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """``trackkit ARGV...`` run in-process: its exit code, standard output and error."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as stop:  # argparse usage errors
            code = int(stop.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run
