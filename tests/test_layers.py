"""Which way the imports run: the map layer never reaches up into rosters, sessions, the screens or the
commands; the command layer (``main.py`` and ``game.cli``) is what ties them together; and no import
cycle runs through the command layer or the roster editor (imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Every module of ``game`` and the ``game`` modules it imports, at module level or in a function."""
    modules = {_module_name(p): p for p in (ROOT / "game").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [base, *(f"{base}.{a.name}" for a in node.names)]
            else:
                continue
            found |= {t for t in targets if t in modules and t != name}
        graph[name] = found
    return graph


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


def test_the_map_layer_never_imports_rosters_sessions_screens_or_commands() -> None:
    graph = import_graph()
    assert "game.maps.loader" in graph and "game.cli.maps" in graph
    upper = ("game.roster", "game.session", "game.ui", "game.cli")
    for name, imported in graph.items():
        if name.startswith("game.maps"):
            bad = sorted(m for m in imported if m.startswith(upper))
            assert not bad, f"{name} imports {bad}"


def test_nothing_below_the_command_layer_imports_it() -> None:
    graph = import_graph()
    users = sorted(
        n
        for n, imported in graph.items()
        if not n.startswith("game.cli") and any(m.startswith("game.cli") for m in imported)
    )
    assert users == []


def test_no_import_cycle_runs_through_the_commands_or_the_roster_editor() -> None:
    graph = import_graph()
    mine = [
        n
        for n in graph
        if n.startswith(("game.cli", "game.ui.roster_editor", "game.ui.pickers", "game.roster_comments"))
    ]
    assert "game.ui.roster_editor" in mine
    for name in mine:
        assert name not in reaches(graph, name), f"{name} imports itself through a cycle"
