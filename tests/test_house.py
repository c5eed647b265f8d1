"""House rules of the code's layout: rooms of a readable size, and imports that run one way.

- No module of the engine, the maps or the top-level ``game/*.py`` is longer than 1,000 lines.
- The computer players and the screen use only the battle's public door (``BATTLE_PRIVATE_FREE``).
- No part of the screen (``game/ui``, the battle screen's parts included) reaches into another object's
  private attributes: ``self._x`` and ``super()._x`` are a class's own business, ``screen._view``,
  ``self.screen._x`` or ``part._x`` are not.
- The battle's parts own their state (docs/architecture.md "A part owns its state"): a piece of the battle's
  state (``state.PIECES``) is read or changed only by the part that owns it; no part module of
  ``game/engine/battle`` reads another object's private attribute; no placeholder method stands in for
  another part's (``raise NotImplementedError``), and no name is built from a string to find a method
  (``getattr`` with an f-string or a concatenation). The tests use the battle's public door only.
- No import cycle among ``game``'s modules, counting imports made inside functions as well as at module
  level (a function-level import is a door that goes both ways just the same). The graph covers all of
  ``game``; ``CYCLE_FREE`` names the packages whose modules may not sit on any cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"

MAX_LINES = 1000
LENGTH_CHECKED = ("game/",)
"""Packages whose modules must stay under ``MAX_LINES``: all of ``game``."""

CYCLE_FREE = ("game",)
"""Packages none of whose modules may sit on an import cycle (the graph itself covers all of ``game``)."""

BATTLE_PRIVATE_FREE = tuple(
    sorted(
        [
            "game/engine/ai.py",
            "game/engine/choices.py",
            "game/engine/deployment.py",
            "game/engine/preview.py",
            *(p.relative_to(ROOT).as_posix() for p in (GAME / "ui").rglob("*.py")),
            *(p.relative_to(ROOT).as_posix() for p in (GAME / "net").rglob("*.py")),
            *(p.relative_to(ROOT).as_posix() for p in (GAME / "cli").rglob("*.py")),
        ]
    )
)
"""Modules outside the battle that use only its public door (``legal_actions``, ``choices``, ``preview``,
its public methods): none reads a private attribute of a battle."""


def module_name(path: Path) -> str:
    """``game/engine/battle/state.py`` -> ``game.engine.battle.state``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def game_modules() -> dict[str, Path]:
    """Every module under ``game/`` by its dotted name."""
    return {module_name(p): p for p in sorted(GAME.rglob("*.py"))}


def _imported(node: ast.AST, here: str, is_package: bool, known: Mapping[str, Path]) -> Iterator[str]:
    """The ``game`` modules one import statement loads: ``from pkg import name`` loads ``pkg.name`` when that
    is a module, else ``pkg``; relative imports are resolved against the importing module."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in known:
                yield alias.name
        return
    if not isinstance(node, ast.ImportFrom):
        return
    if node.level:
        base = here.split(".") if is_package else here.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        if sub in known:
            yield sub
        elif target in known:
            yield target


def import_graph() -> dict[str, set[str]]:
    """Module -> the ``game`` modules it imports anywhere in its body (module level, in functions, in
    classes, under ``if``); self-imports dropped."""
    known = game_modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        deps = {d for node in ast.walk(tree) for d in _imported(node, name, is_package, known)}
        deps.discard(name)
        graph[name] = deps
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _in_scope(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in CYCLE_FREE)


def test_no_module_of_game_is_longer_than_1000_lines() -> None:
    too_long = []
    for path in sorted(GAME.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        top_level = path.parent == GAME
        if top_level or rel.startswith(LENGTH_CHECKED):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                too_long.append(f"{rel}: {n} lines")
    assert not too_long, "split these modules along their parts: " + "; ".join(too_long)


def test_the_graph_sees_module_level_function_level_and_relative_imports() -> None:
    graph = import_graph()
    # module level, absolute
    assert "game.engine.hexgrid" in graph["game.engine.zoc"]
    # the battle package's door imports its parts
    assert "game.engine.battle.state" in graph["game.engine.battle"]
    # ``from game.engine import events as ev`` is an import of the module game.engine.events
    assert "game.engine.events" in graph["game.engine.battle.state"]


def test_cycle_finder_reports_a_cycle_through_a_function_level_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_games_modules() -> None:
    bad = [c for c in cycles(import_graph()) if any(_in_scope(m) for m in c)]
    assert not bad, "import cycles (move the shared types down to a module both use): " + "; ".join(
        " <-> ".join(c) for c in bad
    )


def battle_private_uses(source: str) -> list[str]:
    """``battle._x`` / ``b._x`` / ``self.battle._x`` reads in ``source``: private attributes of a battle."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        owner = node.value
        named = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if named in ("battle", "b"):
            out.append(f"{named}.{node.attr} (line {node.lineno})")
    return out


def test_private_use_finder_sees_battle_attributes_and_not_its_own() -> None:
    found = battle_private_uses("x = battle._follow_queue\ny = self.battle._defence_vs()\nz = self._view\n")
    assert found == ["battle._follow_queue (line 1)", "battle._defence_vs (line 2)"]


def test_the_ai_and_the_screen_use_only_the_battles_public_door() -> None:
    bad = {rel: uses for rel in BATTLE_PRIVATE_FREE if (uses := battle_private_uses((ROOT / rel).read_text()))}
    assert not bad, f"use the battle's public methods, choices or preview instead: {bad}"


def foreign_private_uses(source: str) -> list[str]:
    """Reads of ``<something other than self>._name`` in ``source``: another object's (or module's) private
    attribute. ``self._x``, ``cls._x``, ``super()._x`` and dunders are the class's own."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        out.append(f"{ast.unparse(owner)}.{node.attr} (line {node.lineno})")
    return out


def test_foreign_private_finder_sees_other_objects_and_not_the_class_itself() -> None:
    source = (
        "a = screen._view\n"
        "b = self.screen._cache\n"
        "c = self._own\n"
        "d = super()._set_hover(p)\n"
        "e = part._x.y\n"
        "f = self.__class__\n"
        "g = theme._private()\n"
    )
    assert foreign_private_uses(source) == [
        "screen._view (line 1)",
        "self.screen._cache (line 2)",
        "part._x (line 5)",
        "theme._private (line 7)",
    ]


def test_no_screen_part_reaches_into_another_objects_private_attributes() -> None:
    bad = {
        p.relative_to(ROOT).as_posix(): uses
        for p in sorted((GAME / "ui").rglob("*.py"))
        if (uses := foreign_private_uses(p.read_text(encoding="utf-8")))
    }
    assert not bad, f"ask the other part through a public method, or the model, instead: {bad}"


def test_the_map_layer_never_imports_rosters_sessions_screens_or_commands() -> None:
    graph = import_graph()
    assert "game.maps.loader" in graph and "game.cli.maps" in graph
    upper = ("game.roster", "game.session", "game.ui", "game.cli", "game.net")
    bad = {n: sorted(m for m in deps if m.startswith(upper)) for n, deps in graph.items() if n.startswith("game.maps")}
    assert not {n: m for n, m in bad.items() if m}


def test_the_engine_imports_no_layer_above_it() -> None:
    graph = import_graph()
    upper = ("game.maps", "game.roster", "game.session", "game.ui", "game.cli", "game.net", "game.simulate")
    bad = {
        n: sorted(m for m in deps if m.startswith(upper)) for n, deps in graph.items() if n.startswith("game.engine")
    }
    assert not {n: m for n, m in bad.items() if m}


def test_nothing_below_the_command_layer_imports_it() -> None:
    graph = import_graph()
    users = sorted(
        n for n, deps in graph.items() if not n.startswith("game.cli") and any(m.startswith("game.cli") for m in deps)
    )
    assert users == []


# ------------------------------------------------------------------------------------------ the battle's parts
BATTLE = GAME / "engine" / "battle"


def battle_pieces() -> dict[str, str]:
    """Each piece of the battle's state and the module that owns it (``state.PIECES``)."""
    from game.engine.battle.state import PIECES

    return dict(PIECES)


def piece_uses(source: str) -> list[tuple[str, int]]:
    """Every ``<x>.<piece>`` attribute in ``source``: (the piece, the line), in order of lines."""
    pieces = battle_pieces()
    return sorted(
        (
            (node.attr, node.lineno)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in pieces
        ),
        key=lambda use: use[1],
    )


def test_piece_finder_sees_a_piece_read_through_any_name() -> None:
    source = "x = b.movement_state.pending\ny = battle.attack_state\nz = b.figures\n"
    assert piece_uses(source) == [("movement_state", 1), ("attack_state", 2)]


def test_each_piece_of_the_battle_is_read_only_by_the_part_that_owns_it() -> None:
    pieces = battle_pieces()
    assert set(pieces.values()) <= {p.stem for p in BATTLE.glob("*.py")}, "PIECES names a module that does not exist"
    bad = {}
    for path in sorted(BATTLE.glob("*.py")):
        if path.stem == "state":  # the state makes the pieces (and its snapshot shows them)
            continue
        foreign = [
            f"{piece} (line {line})" for piece, line in piece_uses(path.read_text()) if pieces[piece] != path.stem
        ]
        if foreign:
            bad[path.name] = foreign
    assert not bad, f"ask the owning part (state.PIECES) through its functions instead: {bad}"
    # and nothing outside the battle reads a piece
    outside = {
        p.relative_to(ROOT).as_posix(): uses
        for p in sorted(GAME.rglob("*.py"))
        if BATTLE not in p.parents and (uses := piece_uses(p.read_text(encoding="utf-8")))
    }
    assert not outside, f"use the battle's public questions instead: {outside}"


def test_no_part_of_the_battle_reaches_into_another_objects_private_attributes() -> None:
    bad = {p.name: uses for p in sorted(BATTLE.glob("*.py")) if (uses := foreign_private_uses(p.read_text()))}
    assert not bad, f"offer a public function of the part instead: {bad}"


def placeholders_and_built_names(source: str) -> list[str]:
    """``raise NotImplementedError`` (a placeholder standing in for another part's method) and ``getattr``
    with a name built from a string (an f-string or a concatenation) in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                out.append(f"raise NotImplementedError (line {node.lineno})")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.JoinedStr | ast.BinOp)
        ):
            out.append(f"{node.func.id} with a built name (line {node.lineno})")
    return out


def test_placeholder_finder_sees_placeholders_and_built_names_only() -> None:
    source = (
        "def f(self):\n    raise NotImplementedError\n"
        "def g(self):\n    raise NotImplementedError('provided by x')\n"
        "h = getattr(self, f'_do_{kind}')\n"
        "i = getattr(self, '_gm_' + kind)\n"
        "j = getattr(settings, key)\n"
        "try:\n    pass\nexcept NotImplementedError:\n    pass\n"
    )
    assert placeholders_and_built_names(source) == [
        "raise NotImplementedError (line 2)",
        "raise NotImplementedError (line 4)",
        "getattr with a built name (line 5)",
        "getattr with a built name (line 6)",
    ]


def test_no_placeholder_methods_and_no_method_names_built_from_strings_in_game() -> None:
    bad = {
        p.relative_to(ROOT).as_posix(): uses
        for p in sorted(GAME.rglob("*.py"))
        if (uses := placeholders_and_built_names(p.read_text(encoding="utf-8")))
    }
    assert not bad, f"call the part's function (or look it up in a table) instead: {bad}"


def battle_private_names() -> set[str]:
    """The private names of the battle's modules (functions, classes, attributes, ``self._x``) and the names
    of its pieces of state: what only the battle itself may read."""
    names = set(battle_pieces())
    for path in BATTLE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.FunctionDef | ast.ClassDef)
                and node.name.startswith("_")
                and not node.name.startswith("__")
            ):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                names.add(node.attr)
    return names


def test_tests_read_no_private_state_of_the_battle() -> None:
    private = battle_private_names()
    assert {"movement_state", "attack_state", "dice_state", "_other_occupant"} <= private
    bad = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "test_house.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        uses = [
            f"{ast.unparse(node)} (line {node.lineno})"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr in private
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ]
        uses += [
            f"import {alias.name} (line {node.lineno})"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("game.engine.battle")
            for alias in node.names
            if alias.name.startswith("_")
        ]
        if uses:
            bad[path.relative_to(ROOT).as_posix()] = uses
    assert not bad, f"test through legal_actions / apply and the battle's public questions: {bad}"
