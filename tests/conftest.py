"""Shared fixtures: the bundled tile set and a copy of it in a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from trackkit.board.tiles import TileSet, bundled_tiles_folder
from trackkit.games import load_tileset


@pytest.fixture(scope="session")
def tileset() -> TileSet:
    return load_tileset()


@pytest.fixture
def tile_folder(tmp_path: Path) -> Path:
    """A writable copy of the bundled tile set, for tests that break it."""
    folder = tmp_path / "tiles"
    shutil.copytree(bundled_tiles_folder(), folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    return folder
