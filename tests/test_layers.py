"""The layout reads as the data flow: board → games → sim → explore → report → CLI and app.

Read from the source (every ``import`` a module makes, at its top or inside a function):
the shared layers know no game, no game knows the command line or the app, and the
modules' top-level imports form no circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "trackkit"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("trackkit")}


MODULES = {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _importing(prefix: str) -> dict[str, set[str]]:
    return {
        name: _imports(path, top_level_only=False)
        for name, path in MODULES.items()
        if name == prefix or name.startswith(prefix + ".")
    }


def _under(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_board_knows_no_game_and_nothing_above_it() -> None:
    for module, imported in _importing("trackkit.board").items():
        wrong = [
            i
            for i in imported
            if _under(i, "trackkit.games", "trackkit.sim", "trackkit.report", "trackkit.render")
            or _under(i, "trackkit.app", "trackkit.cli", "trackkit.validate")
        ]
        assert not wrong, f"{module} imports {wrong}"


def test_simulation_knows_the_interface_but_no_game() -> None:
    allowed = ("trackkit.board", "trackkit.errors", "trackkit.games.base", "trackkit.sim")
    allowed += ("trackkit.limits",)  # the cost limits, beside the errors: no game
    for module, imported in _importing("trackkit.sim").items():
        # `from trackkit.games import get_ruleset` is the registry, not a game
        wrong = [
            i
            for i in imported
            if not _under(i, *allowed) and i not in ("trackkit.games", "trackkit.games.get_ruleset")
        ]
        assert not wrong, f"{module} imports {wrong}"


def test_exploring_knows_the_registry_but_no_game() -> None:
    """``trackkit.explore`` (profiles, sweeps, queries) is a shared layer above the
    simulation: games only through the registry and the interface."""
    allowed = ("trackkit.board", "trackkit.errors", "trackkit.games.base", "trackkit.sim")
    allowed += ("trackkit.explore", "trackkit.limits")
    for module, imported in _importing("trackkit.explore").items():
        wrong = [
            i
            for i in imported
            if not _under(i, *allowed) and i not in ("trackkit.games", "trackkit.games.get_ruleset")
        ]
        assert not wrong, f"{module} imports {wrong}"


def test_tuning_knows_the_registry_but_no_game() -> None:
    """``trackkit.tune`` (balancing a game's content) sits beside exploring: the game
    through the registry and the interface, figures from the simulation and the fairness
    measures, and nothing of the reports, the command line or the app."""
    allowed = ("trackkit.board", "trackkit.errors", "trackkit.games.base", "trackkit.sim")
    allowed += ("trackkit.explore.fairness", "trackkit.tune", "trackkit.limits")
    for module, imported in _importing("trackkit.tune").items():
        wrong = [
            i
            for i in imported
            if not _under(i, *allowed)
            and i
            not in ("trackkit.games", "trackkit.games.get_ruleset", "trackkit.games.DEFAULT_GAME")
        ]
        assert not wrong, f"{module} imports {wrong}"


def _face(module: str) -> bool:
    """Whether ``module`` is part of a game's face (``trackkit.games.<game>.face``)."""
    parts = module.split(".")
    return len(parts) >= 4 and parts[:2] == ["trackkit", "games"] and parts[3] == "face"


def _pages(module: str) -> bool:
    """Whether ``module`` is one of a game's app pages (``trackkit.games.<game>.pages``)."""
    parts = module.split(".")
    return len(parts) >= 4 and parts[:2] == ["trackkit", "games"] and parts[3] == "pages"


def test_a_game_imports_nothing_above_the_games_but_its_face() -> None:
    """A game's rules and engine sit below the simulation; its face (what the front ends
    show of it) may use the shared layers above, but never the front ends themselves; its
    app pages may use the app's shared widgets, but not the command line."""
    above = ("trackkit.sim", "trackkit.explore", "trackkit.report", "trackkit.render")
    above += ("trackkit.validate",)
    above += ("trackkit.app", "trackkit.cli")
    for module, imported in _importing("trackkit.games").items():
        forbidden = ("trackkit.app", "trackkit.cli") if _face(module) else above
        if _pages(module):
            forbidden = ("trackkit.cli",)
        wrong = [i for i in imported if _under(i, *forbidden)]
        assert not wrong, f"{module} imports {wrong}"


def _game_modules(imported: set[str]) -> list[str]:
    """The modules of one game (``trackkit.games.<game>...``) among ``imported``."""
    shared = ("trackkit.games.base", "trackkit.games.face", "trackkit.games.unmanaged")
    return [
        i
        for i in imported
        if i.startswith("trackkit.games.")
        and not _under(i, *shared)
        and i.count(".") >= 2
        # `from trackkit.games import get_ruleset`: the registry, not a game
        and i.split(".")[2] in _GAMES
    ]


_GAMES = {p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").exists()}


def test_nothing_outside_the_games_imports_a_game() -> None:
    """The command line, the app, reports, drawings and shared layers reach a game only
    through the registry and the two sides of the seam (``games.base``, ``games.face``);
    a game's own app pages live in its folder (``games/<game>/pages``)."""
    importing = {
        module: _game_modules(_imports(path, top_level_only=False))
        for module, path in MODULES.items()
        if not _under(module, "trackkit.games")
    }
    offenders = {module: games for module, games in importing.items() if games}
    assert offenders == {}


@pytest.mark.parametrize(
    "layer",
    ["trackkit.games", "trackkit.sim", "trackkit.board", "trackkit.explore", "trackkit.tune"],
)
def test_no_layer_below_the_shells_imports_the_cli_or_the_app(layer: str) -> None:
    for module, imported in _importing(layer).items():
        if _pages(module):  # a game's app pages, reached only by their declaration
            continue
        wrong = [i for i in imported if _under(i, "trackkit.cli", "trackkit.app")]
        assert not wrong, f"{module} imports {wrong}"


def test_top_level_imports_form_no_circle() -> None:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        for imported in _imports(path, top_level_only=True):
            # `from trackkit.x import name` counts for the module trackkit.x
            target = imported if imported in MODULES else imported.rsplit(".", 1)[0]
            if target in MODULES and target != name:
                graph.add_edge(name, target)
    cycles = list(nx.simple_cycles(graph))
    # a package's __init__ re-exporting its own modules is not a circle of meaning
    cycles = [c for c in cycles if not all(_under(m, c[0]) or _under(c[0], m) for m in c)]
    assert not cycles, cycles[:3]


def test_only_a_games_own_pages_import_its_pages() -> None:
    """The app reaches a game's pages through its face's declarations (``Look``), never by
    importing them: so the app lists whatever games the registry holds."""
    for module, path in MODULES.items():
        imported = _imports(path, top_level_only=False)
        for i in imported:
            parts = i.split(".")
            if len(parts) >= 4 and parts[:2] == ["trackkit", "games"] and parts[3] == "pages":
                assert module.startswith(".".join(parts[:4])), f"{module} imports {i}"
