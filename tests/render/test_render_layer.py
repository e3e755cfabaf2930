"""The renderer knows no game: each game declares its drawing (``scene(track)``), and
``trackkit.render`` reaches games only through the registry and the shared shapes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from trackkit.errors import TrackkitError
from trackkit.games.yummell.core.presets import load_preset
from trackkit.render import picture_svg

RENDER = Path(__file__).resolve().parents[2] / "trackkit" / "render"
SHARED = {"trackkit.games", "trackkit.games.base", "trackkit.games.shapes"}


def _games_imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    # the tile kit is shared by the tile games, not a game
    kit = "trackkit.games.tilekit"
    return {n for n in found if n.startswith("trackkit.games") and not n.startswith(kit)}


@pytest.mark.parametrize("path", sorted(RENDER.glob("*.py")), ids=lambda p: p.name)
def test_no_render_module_imports_a_game(path: Path) -> None:
    assert _games_imported(path) <= SHARED, path.name


def test_a_game_without_a_scene_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from trackkit.games import get_ruleset

    ruleset = get_ruleset("yummell")
    monkeypatch.setattr(type(ruleset), "scene", None)  # a game that declares no scene
    with pytest.raises(TrackkitError, match="^Yummell tracks cannot be drawn: the game has no"):
        picture_svg(load_preset("first-run"))
