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

from trackkit import games

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


def _pages(module: str) -> str | None:
    """The game whose app pages ``module`` is part of (``trackkit.app.games.<game>``)."""
    parts = module.split(".")
    if len(parts) >= 4 and parts[:3] == ["trackkit", "app", "games"] and parts[3] in _GAMES:
        return parts[3]
    return None


# The shared base a game's rules may use, and nothing above it.
BASE = ("trackkit.board", "trackkit.errors", "trackkit.limits", "trackkit.games.base")
BASE += ("trackkit.games.tilekit", "trackkit.games.shapes", "trackkit.games.unmanaged")
BASE += ("trackkit.games.readings",)
# `from trackkit.games import get_ruleset`: the registry (games.base's names), not a game
REGISTRY = {"trackkit.games", *(f"trackkit.games.{name}" for name in games.__all__)}


def test_a_games_rules_import_only_the_shared_base_and_themselves() -> None:
    """``games/<game>/core`` (the template: options, track, course, check, engine…) sits
    below the simulation: the shared base and its own modules, no other game, no face."""
    for game in _GAMES:
        core = f"trackkit.games.{game}.core"
        for module, imported in _importing(core).items():
            wrong = [
                i
                for i in imported
                if (not _under(i, *BASE, f"trackkit.games.{game}") and i not in REGISTRY)
                or _under(i, f"trackkit.games.{game}.face")
            ]
            assert not wrong, f"{module} imports {wrong}"


def test_a_games_face_uses_the_shared_layers_but_no_front_end() -> None:
    """A game's face (what the front ends show of it) may use the shared layers above its
    rules, but never the command line or the app."""
    for module, imported in _importing("trackkit.games").items():
        if _face(module) or module == "trackkit.games.face":
            wrong = [i for i in imported if _under(i, "trackkit.app", "trackkit.cli")]
            assert not wrong, f"{module} imports {wrong}"


def test_the_shared_game_modules_know_no_game() -> None:
    """The seam (``games.base``, ``games.face``) and the kits beside it (the tile kit, the
    shapes, the readings) reach a game only through the registry."""
    for module, imported in _importing("trackkit.games").items():
        if module.split(".")[2:3] and module.split(".")[2] in _GAMES:
            continue
        assert not _game_modules(imported), f"{module} imports {_game_modules(imported)}"


def _game_modules(imported: set[str]) -> list[str]:
    """The modules of one game (``trackkit.games.<game>...``) among ``imported``."""
    return [
        i
        for i in imported
        if i.startswith("trackkit.games.")
        and i.count(".") >= 2
        # `from trackkit.games import get_ruleset`: the registry, not a game
        and i.split(".")[2] in _GAMES
    ]


def _games() -> set[str]:
    """The games the registry lists (a kit beside them, the tile kit, is none)."""
    from trackkit.games.base import KNOWN

    return {package.rsplit(".", 1)[1] for package in KNOWN.values()}


_GAMES = _games()
TEMPLATE = ("options", "content", "track", "course", "check", "rules", "movement", "state")
TEMPLATE += ("engine", "policies", "presets", "space", "editing", "scene", "ruleset")


@pytest.mark.parametrize("game", sorted(_GAMES))
def test_every_game_follows_the_template(game: str) -> None:
    """The same modules in the same places for every game (docs/contributing.md)."""
    folder = PACKAGE / "games" / game
    missing = [name for name in TEMPLATE if not (folder / "core" / f"{name}.py").is_file()]
    assert not missing, f"{game}'s core lacks {missing}"
    assert (folder / "face" / "__init__.py").is_file()
    top = {p.name for p in folder.glob("*.py")}
    assert top == {"__init__.py"}, f"{game} has modules outside core/ and face/: {top}"


def test_nothing_outside_a_game_imports_it_but_its_pages() -> None:
    """The command line, the app, reports, drawings and shared layers reach a game only
    through the registry and the two sides of the seam (``games.base``, ``games.face``);
    a game's own app pages (``app/games/<game>``) may use their game."""
    offenders = {}
    for module, path in MODULES.items():
        if _under(module, "trackkit.games"):
            continue
        own = _pages(module)
        games = [
            i
            for i in _game_modules(_imports(path, top_level_only=False))
            if own is None or i.split(".")[2] != own
        ]
        if games:
            offenders[module] = games
    assert offenders == {}


@pytest.mark.parametrize(
    "layer",
    ["trackkit.games", "trackkit.sim", "trackkit.board", "trackkit.explore", "trackkit.tune"],
)
def test_no_layer_below_the_shells_imports_the_cli_or_the_app(layer: str) -> None:
    for module, imported in _importing(layer).items():
        wrong = [i for i in imported if _under(i, "trackkit.cli", "trackkit.app")]
        assert not wrong, f"{module} imports {wrong}"


def test_a_games_pages_use_the_app_but_not_the_command_line() -> None:
    for module, imported in _importing("trackkit.app.games").items():
        wrong = [i for i in imported if _under(i, "trackkit.cli")]
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


def test_only_the_app_s_list_of_games_imports_a_games_pages() -> None:
    """The app's shared pages take a game's hooks as arguments: only the list of games'
    pages (``trackkit.app.games``) and a game's own pages import them."""
    for module, path in MODULES.items():
        for i in _imports(path, top_level_only=False):
            game = _pages(i)
            if game is not None:
                allowed = module == "trackkit.app.games" or _pages(module) == game
                assert allowed, f"{module} imports {i}"


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_outside_the_games_no_game_is_named_in_a_string() -> None:
    """The shared layers, the command line and the app reach a game through the registry
    or the ruleset they were given: no ``get_ruleset("yummell")``, no ``"snowtails"`` in the
    code, no example (doctest) that imports a game's module."""
    named = []
    for module, path in MODULES.items():
        if _under(module, "trackkit.games"):
            continue
        for line, text in _strings(ast.parse(path.read_text("utf-8"))):
            doctest = [row for row in text.splitlines() if row.lstrip().startswith(">>>")]
            if text in _GAMES or any(
                f'"{game}"' in row or f"trackkit.games.{game}" in row
                for row in doctest
                for game in _GAMES
            ):
                named.append(f"{module}:{line}")
    assert named == []
