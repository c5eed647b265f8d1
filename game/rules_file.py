"""Rules files: a GM's own set of rule options as a small TOML file with a comment on each line
(docs/playing.md "Rules files", docs/rulings.md "Rule options").

```toml
format = "fudge-tactics-rules"   # what this file is
version = 1                      # the format's version
name = "Gritty"                  # shown in New battle and in the after-battle report
description = "Fudge 4.7's damage rolls and Willpower"
damage_roll = "situational"      # Damage: ... (Fudge 4.61, 4.63)
```

One key per option, flat, at the top level; an option left out keeps FTC as written; ``format``, ``version``,
``name`` and ``description`` may be left out too. The values are checked by the engine's registry
(``game.engine.rule_options.options_from_mapping``); this module reads the file and says which line is wrong
and how to fix it (``RulesFileError``: ``<file> line <n>: <what is wrong>; <the fix>``). ``rules_text`` writes
every option, each with its comment, grouped as New battle shows them, so a file shared between GMs explains
itself. The game's own presets (``ftc``, ``heroic``, ``gritty``) are read by the same checks.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from game.engine import rule_options as ro
from game.engine.codec import is_whole
from game.engine.record import SaveError, write_atomic
from game.engine.rule_options import RuleOptionError, RuleOptions
from game.paths import in_game_folder, rules_dir

FORMAT = "fudge-tactics-rules"
"""What a rules file says it is (its ``format`` key)."""
VERSION = 1
"""The newest version of the format this game reads and writes."""
MAX_BYTES = 64 * 1024
"""The largest rules file read: every option with its comment takes about 4 KiB."""
MAX_NAME = 80
MAX_DESCRIPTION = 200
HEADER = ("format", "version", "name", "description")
SUFFIX = ".toml"


class RulesFileError(ValueError):
    """A rules file that cannot be used: one sentence naming the file, the line, what is wrong and the fix."""


@dataclass(frozen=True)
class Rules:
    """A set of rule options with its name: a preset or a GM's file (``path``; None for a preset)."""

    options: RuleOptions
    name: str = ""
    description: str = ""
    path: Path | None = None
    preset: str | None = None
    """The preset's key (``ftc``, ``heroic``, ``gritty``) when the set is one of the game's presets."""


def _key_line(text: str, key: str) -> int | None:
    """The line (from 1) where ``key`` is written: ``key =`` (bare or quoted), else a ``[key]`` table."""
    quoted = "|".join(re.escape(k) for k in (key, f'"{key}"', f"'{key}'"))
    patterns = (rf"^\s*(?:{quoted})\s*=", rf"^\s*\[+\s*(?:{quoted})\s*[\].]")
    lines = text.splitlines()
    for pattern in patterns:
        for n, line in enumerate(lines, 1):
            if re.match(pattern, line):
                return n
    return None


def _at(source: str, text: str, key: str) -> str:
    line = _key_line(text, key)
    return f"{source} line {line}" if line is not None else source


def parse_rules(text: str, source: str = "rules file", *, played_only: bool = True) -> Rules:
    """Read a rules file's text (``source`` names it in errors). ``played_only``: refuse an option the battle
    does not play yet (``OptionSpec.ready``) switched on, as New battle and ``--rules`` must."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r"\(at line (\d+), column \d+\)$", message)
        what = message[: at.start()].strip() if at else message
        where = f"{source} line {at.group(1)}" if at else source
        raise RulesFileError(f"{where}: not valid TOML ({what[:1].lower() + what[1:]}); fix that line") from None
    except RecursionError:
        raise RulesFileError(f"{source}: nested too deeply to be a rules file; check the file") from None
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RulesFileError(
            f"{_at(source, text, 'format')}: format = {ro.toml_text(fmt)} — this is not a rules file; rules files "
            f'say format = "{FORMAT}"'
        )
    version = data.get("version", VERSION)
    if not is_whole(version) or version < 1:
        raise RulesFileError(
            f"{_at(source, text, 'version')}: version = {ro.toml_text(version)} is not a version of the rules file "
            f"format; write version = {VERSION}"
        )
    if version > VERSION:
        raise RulesFileError(
            f"{_at(source, text, 'version')}: version = {version} is newer than this game reads ({VERSION}); use a "
            "newer game"
        )
    texts = {}
    for key, longest in (("name", MAX_NAME), ("description", MAX_DESCRIPTION)):
        value = data.get(key, "")
        if not isinstance(value, str) or len(value) > longest or any(ord(c) < 32 for c in value):
            raise RulesFileError(
                f"{_at(source, text, key)}: {key} = {ro.toml_text(value)} is not a line of text of at most "
                f'{longest} characters; write it in quotes, e.g. {key} = "Gritty"'
            )
        texts[key] = value
    try:
        options = ro.options_from_mapping({k: v for k, v in data.items() if k not in HEADER})
    except RuleOptionError as exc:
        raise RulesFileError(f"{_at(source, text, exc.key)}: {exc}") from None
    if played_only:
        for name in ro.unready(options):
            spec = ro.SPECS[name]
            raise RulesFileError(
                f"{_at(source, text, name)}: {spec.title} ({name}, {spec.section}) is not played by this version "
                f"of the game yet; write {name} = {ro.toml_text(spec.default)} (FTC as written) or use a newer "
                "version"
            )
    return Rules(options, texts["name"], texts["description"])


def read_rules(path: str | Path, *, played_only: bool = True) -> Rules:
    """Read a GM's rules file (``parse_rules``); ``RulesFileError`` names the file, the line and the fix."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise RulesFileError(
                f"{p}: too large for a rules file ({size} bytes; a rules file is a few dozen lines); check the file"
            )
        text = p.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise RulesFileError(
            f"{p}: no such rules file; check the name, or name a preset (ftc, heroic, gritty)"
        ) from None
    except UnicodeDecodeError:
        raise RulesFileError(f"{p}: not UTF-8 text; save the rules file as UTF-8") from None
    except OSError as exc:
        raise RulesFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    rules = parse_rules(text.removeprefix("\ufeff"), str(p), played_only=played_only)
    return Rules(rules.options, rules.name or p.stem, rules.description, p)


def _comment(spec: ro.OptionSpec) -> str:
    if spec.kind == "enum":
        values = " | ".join(spec.values) + ": "
    elif spec.kind == "int":
        values = f"{spec.low}-{spec.high}: "
    else:
        values = ""
    words = spec.help.rstrip(".")
    first, *rest = words.split(" ", 2)
    proper = not first[1:].islower() or (rest and rest[0][:1].isupper())  # "NPC pawns", "Fudge Points for"
    if len(first) == 1 or not proper:  # "A blow ..." -> "a blow ...", "Roll ..." -> "roll ..."
        words = words[:1].lower() + words[1:]
    return f"{spec.group}: {values}{words} ({spec.section})"


def _string(value: str) -> str:
    return tomli_w.dumps({"v": value})[len("v = ") :].rstrip("\n")


def rules_text(options: RuleOptions, name: str = "", description: str = "") -> str:
    """A rules file's text: the header, then every option with its comment (group, values, help, section),
    grouped by blank lines in New battle's order; ``parse_rules`` reads it back to the same options."""
    lines = [
        '# Fudge Tactics rules file (docs/rulings.md "Rule options"). Options left out keep FTC as written.',
        f'format = "{FORMAT}"'.ljust(40) + " # what this file is",
        f"version = {VERSION}".ljust(40) + " # the format's version",
        f"name = {_string(name[:MAX_NAME])}".ljust(40) + " # shown in New battle and in the after-battle report",
        f"description = {_string(description[:MAX_DESCRIPTION])}".ljust(40) + " # one line, optional",
    ]
    for group in ro.GROUPS:
        lines.append("")
        for spec in (s for s in ro.OPTIONS if s.group == group):
            pair = f"{spec.name} = {ro.toml_text(options.value(spec.name))}"
            lines.append(pair.ljust(40) + " # " + _comment(spec))
    return "\n".join(lines) + "\n"


def write_rules(path: str | Path, options: RuleOptions, name: str = "", description: str = "") -> Path:
    """Write a rules file atomically (``rules_text``); never into the game's own folder. ``RulesFileError``
    names the file and the fix when it cannot be written."""
    target = Path(path)
    if in_game_folder(target):
        raise RulesFileError(
            f"{target}: is in the game's own folder, which the game never changes; save your rules in {rules_dir()}"
        )
    try:
        write_atomic(target, rules_text(options, name, description))
    except SaveError as exc:
        raise RulesFileError(str(exc)) from None
    return target


def user_rules() -> list[Path]:
    """The GM's rules files in ``<data dir>/rules`` (``game.paths.rules_dir``), by name."""
    folder = rules_dir()
    try:
        return sorted((p for p in folder.glob(f"*{SUFFIX}") if p.is_file()), key=lambda p: p.name.lower())
    except OSError:
        return []


def preset_rules(preset: ro.Preset) -> Rules:
    """A preset as a ``Rules``."""
    return Rules(preset.options, preset.name, preset.description, None, preset.key)


def is_file_argument(value: str) -> bool:
    """Whether ``--rules VALUE`` names a file (it has a ``/`` or ends in ``.toml``) rather than a preset."""
    return "/" in value or "\\" in value or value.lower().endswith(SUFFIX)


def rules_argument(value: str) -> Rules:
    """What ``--rules FILE|PRESET`` names: a preset (``ftc``, ``heroic``, ``gritty``) or a rules file;
    ``RulesFileError`` with the sentence when it is neither, or sets an option not played yet."""
    if is_file_argument(value):
        return read_rules(value)
    found = ro.preset(value.strip().lower())
    if found is None:
        keys = ", ".join(p.key for p in ro.presets())
        raise RulesFileError(
            f"no preset or file named {value!r}; presets: {keys}; a file is named by its path (….toml)"
        )
    problem = ro.unready_sentence(found.options)
    if problem is not None:
        raise RulesFileError(f"the preset {found.name} ({found.key}): {problem}")
    return preset_rules(found)


RULES_HELP = "the rule options: a preset (ftc, heroic, gritty) or a rules file (.toml)"
"""What a command's ``--help`` says of ``--rules``."""


def add_rules_option(parser: argparse.ArgumentParser, help: str = RULES_HELP) -> None:
    """A command's ``--rules R`` (``rules_argument`` reads it; ``parse_with_rules`` parses it with the rest)."""
    parser.add_argument("--rules", help=help)


def parse_with_rules(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | None:
    """A command line parsed, its ``rules`` read by ``rules_argument`` (None without ``--rules``); None, after
    printing the sentence to stderr ("error: …"), when ``--rules`` names neither a preset nor a good rules file."""
    args = parser.parse_args(argv)
    try:
        args.rules = rules_argument(args.rules) if args.rules else None
    except RulesFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    return args


def with_secret_stances(rules: Rules, secret: bool) -> Rules:
    """``host --secret-stances``: the shorthand switching that one option on over ``--rules``."""
    if not secret or rules.options.secret_stances:
        return rules
    return Rules(rules.options.replaced(secret_stances=True), rules.name, rules.description, rules.path)


__all__ = [
    "FORMAT",
    "RULES_HELP",
    "VERSION",
    "Rules",
    "RulesFileError",
    "add_rules_option",
    "is_file_argument",
    "parse_rules",
    "parse_with_rules",
    "preset_rules",
    "read_rules",
    "rules_argument",
    "rules_text",
    "user_rules",
    "with_secret_stances",
    "write_rules",
]
