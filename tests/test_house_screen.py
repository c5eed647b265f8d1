"""House rules of the battle screen's parts (docs/architecture.md "The battle screen"):

- No pass-through methods in ``game/ui/battle``: no method whose body only hands the question to a part (or the
  model), ``return self.<part>.<method>(...)`` or ``self.<part>.<method>(...)`` or ``return self.<part>.<x>``.
  A caller asks that part (or the model) itself. Two kinds of method stay, as they are not a hand-over but a
  door other code is built on: one that overrides a screen's method from outside the package (the viewer
  screen's ``tokens``: the battle's tokens are the overlays'), and one a screen of the package overrides in
  turn (the table's ``cmd_undo``, ``open_gm_panel``).
- Each part the screen builds receives the screen as a ``Protocol`` — never the screen itself — that declares
  exactly what the part uses: every member the part's own Protocol (and the shared bases ``UiHost``,
  ``PartHost``, ``DecisionHost``) declares is used by the part; only ``GMScreen``, which a part hands on whole to
  the GM's panel, is exempt. mypy checks the other way: a part uses nothing its Protocol does not declare.
- No part reads another object's private attributes (``tests/test_house.py``).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREEN_PARTS = ROOT / "game" / "ui" / "battle"
HANDED_ON = ("GMScreen",)
"""Protocols a part hands on whole to another (the GM's seat hands the screen to the GM's panel): the part needs
all they declare, their bases' members included, to hand the screen on."""


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _body(fn: ast.FunctionDef) -> list[ast.stmt]:
    """A function's statements without its docstring."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def _self_attr(node: ast.expr) -> str | None:
    """``x`` for ``self.x``, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def part_attributes(source: str, classes: set[str]) -> set[str]:
    """The attributes that hold a part: ``self.x = Cls(...)`` with ``Cls`` one of ``classes``, and an alias of
    one, ``self.y = self.x.z``."""
    out: set[str] = set()
    assigns = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Assign) and len(n.targets) == 1]
    for node in assigns:
        name = _self_attr(node.targets[0])
        call = node.value
        if name and isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in classes:
            out.add(name)
    for node in assigns:
        name, value = _self_attr(node.targets[0]), node.value
        if name and isinstance(value, ast.Attribute) and _self_attr(value.value) in out:
            out.add(name)
    return out


def pass_through_methods(source: str, parts: set[str]) -> list[str]:
    """``Class.method`` for each method whose only statement hands the question to a part: a call of a method
    of ``self.<part>`` (returned or not), or the return of an attribute of ``self.<part>``."""
    out = []
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            body = _body(fn)
            if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr) or body[0].value is None:
                continue
            stmt, value = body[0], body[0].value
            if isinstance(value, ast.Call):
                target = value.func
            elif isinstance(stmt, ast.Return):
                target = value
            else:
                continue
            if isinstance(target, ast.Attribute) and _self_attr(target.value) in parts:
                out.append(f"{cls.name}.{fn.name}")
    return out


def test_pass_through_finder_sees_a_hand_over_and_nothing_else() -> None:
    source = (
        "class S:\n"
        "    def __init__(self):\n"
        "        self.moves = MovePanel(self)\n"
        "        self.log = self.moves.list\n"
        "        self.name = str(1)\n"
        "    def reach(self, f):\n"
        "        '''doc'''\n"
        "        return self.moves.reach(f)\n"
        "    def hold(self):\n"
        "        self.log.hold()\n"
        "    def actor(self):\n"
        "        return self.moves.actor\n"
        "    def own(self):\n"
        "        return self.name.upper()\n"
        "    def two(self, f):\n"
        "        self.moves.reset()\n"
        "        return self.moves.reach(f)\n"
    )
    parts = part_attributes(source, {"MovePanel"})
    assert parts == {"moves", "log"}
    assert pass_through_methods(source, parts) == ["S.reach", "S.hold", "S.actor"]


def _package() -> tuple[dict[Path, str], set[str]]:
    """The package's sources and the names of the classes it defines."""
    sources = {p: p.read_text(encoding="utf-8") for p in sorted(SCREEN_PARTS.glob("*.py"))}
    classes = {n.name for s in sources.values() for n in ast.walk(ast.parse(s)) if isinstance(n, ast.ClassDef)}
    return sources, classes


def _doors(sources: dict[Path, str]) -> set[str]:
    """``Class.method`` for each method that overrides a screen's method from outside the package, or that a
    class of the package overrides."""
    out: set[str] = set()
    for path in sources:
        module = importlib.import_module(_module(path))
        for cls in (c for c in vars(module).values() if inspect.isclass(c) and c.__module__ == module.__name__):
            for name in (n for n in vars(cls) if not n.startswith("__")):
                for base in cls.__mro__[1:]:
                    if name not in vars(base):
                        continue
                    if base.__module__.startswith("game.ui.battle."):
                        out.add(f"{base.__name__}.{name}")  # overridden here: a door of the base
                    else:
                        out.add(f"{cls.__name__}.{name}")  # overrides a screen's method from outside
    return out


def test_no_pass_through_methods_on_the_battle_screen_or_its_parts() -> None:
    sources, classes = _package()
    parts = set().union(*(part_attributes(s, classes) for s in sources.values()))
    assert {"model", "moves", "declaration", "spells", "overlays", "journal", "game_menu"} <= parts
    doors = _doors(sources)
    found = {
        path.name: bad
        for path, source in sources.items()
        if (bad := [m for m in pass_through_methods(source, parts) if m not in doors])
    }
    assert not found, f"ask the part (or the model) itself, not the screen: {found}"


def _parts_built_by_the_screen() -> dict[str, type]:
    """The classes ``BattleScreen.__init__`` builds with the screen itself as their first argument."""
    tree = ast.parse((SCREEN_PARTS / "screen.py").read_text(encoding="utf-8"))
    init = next(
        f
        for c in ast.walk(tree)
        if isinstance(c, ast.ClassDef) and c.name == "BattleScreen"
        for f in c.body
        if isinstance(f, ast.FunctionDef) and f.name == "__init__"
    )
    names = {
        n.func.id
        for n in ast.walk(init)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.args
        and isinstance(n.args[0], ast.Name)
        and n.args[0].id == "self"
    }
    screen = importlib.import_module("game.ui.battle.screen")
    return {name: getattr(screen, name) for name in sorted(names)}


def _members(proto: type) -> dict[str, set[str]]:
    """The members each Protocol of ``proto``'s line declares in its own body (``proto`` and its bases)."""
    out: dict[str, set[str]] = {}
    for cls in proto.__mro__:
        if not getattr(cls, "_is_protocol", False) or cls is typing.Protocol or cls is typing.Generic:
            continue
        own = set(vars(cls).get("__annotations__", {}))
        own |= {k for k, v in vars(cls).items() if not k.startswith("_") and (callable(v) or isinstance(v, property))}
        out[cls.__name__] = own
    return out


def screen_uses(source: str) -> tuple[set[str], bool]:
    """What a part's module reads of the screen (``self.screen.x``, ``screen.x``, ``sc.x``), and whether it hands
    the screen on whole (``self.screen`` as an argument of a call)."""
    tree = ast.parse(source)

    def is_screen(node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id in ("screen", "sc")) or _self_attr(node) == "screen"

    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and is_screen(n.value)}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    handed = any(is_screen(a) for c in calls for a in [*c.args, *(k.value for k in c.keywords)])
    return used, handed


def test_each_part_of_the_battle_screen_receives_a_protocol_of_exactly_what_it_uses() -> None:
    parts = _parts_built_by_the_screen()
    assert {"MovePanel", "DeclarationPanel", "SpellPanel", "BoardOverlays", "GameMenu", "BattleLog"} <= set(parts)
    for name, part in parts.items():
        params = [p for p in inspect.signature(part.__init__).parameters if p != "self"]
        proto = typing.get_type_hints(part.__init__)[params[0]]
        # a Protocol, so never the screen (nor any class of screen) itself
        assert inspect.isclass(proto) and getattr(proto, "_is_protocol", False), f"{name} takes {proto}, not a Protocol"
        module = inspect.getmodule(part)
        assert module is not None and module.__file__ is not None
        used, handed = screen_uses(Path(module.__file__).read_text(encoding="utf-8"))
        handed_on = {base.__name__ for p in proto.__mro__ if p.__name__ in HANDED_ON for base in p.__mro__}
        for owner, members in _members(proto).items():
            if owner in handed_on:
                assert handed, f"{name} declares {owner} but hands the screen on to nobody"
                continue
            unused = members - used
            assert not unused, f"{name}'s {proto.__name__} declares what it never uses ({owner}): {sorted(unused)}"


def test_the_protocol_check_sees_an_unused_member() -> None:
    source = "class P:\n    def __init__(self, screen):\n        self.screen = screen\n        self.screen.ui.s(3)\n"
    used, handed = screen_uses(source)
    assert used == {"ui"} and not handed
    assert screen_uses("def f(self):\n    return Panel(self.screen.ui, self.screen)\n") == ({"ui"}, True)
