"""The rules revision is honest (docs/architecture.md "A battle is its log"): every change that alters what a
decision produces raises ``RULES_REVISION``. The golden battle logs are the witnesses: the digest of all their
per-decision digests is registered for each revision in ``tests/golden/revisions.toml``, so a golden log that
changes while the revision stays the same fails here, with what to do."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

from game.engine import record
from game.engine.version import RULE_CHANGES, RULES_REVISION

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGISTRY = GOLDEN_DIR / "revisions.toml"


def golden_fingerprint() -> str:
    """One digest of every golden log's opening and per-decision digests (their file format does not count)."""
    logs = []
    for path in sorted(GOLDEN_DIR.glob("*.json")):
        rec = record.load(path)
        logs.append([path.stem, rec.initial_digest, list(rec.digests)])
    return hashlib.sha256(json.dumps(logs).encode()).hexdigest()[:16]


def registered() -> dict[int, str]:
    data = tomllib.loads(REGISTRY.read_text(encoding="utf-8"))
    return {int(k): str(v) for k, v in data["revisions"].items()}


def test_golden_logs_change_only_with_a_new_rules_revision() -> None:
    fingerprint = golden_fingerprint()
    known = registered()
    assert known.get(RULES_REVISION) == fingerprint, (
        f"the golden logs' digests are now {fingerprint}, but rules revision {RULES_REVISION} registered "
        f"{known.get(RULES_REVISION)}: a change that alters what a decision produces raises RULES_REVISION in "
        f"game/engine/version.py, says what changed in RULE_CHANGES, and registers "
        f'{RULES_REVISION + 1} = "{fingerprint}" in tests/golden/revisions.toml'
    )


def test_every_revision_is_registered_and_said() -> None:
    known = registered()
    assert max(known) == RULES_REVISION, "a revision beyond today's is registered, or today's is missing"
    assert set(RULE_CHANGES) == set(range(1, RULES_REVISION + 1)), "RULE_CHANGES says what each revision changed"
    assert len(set(known.values())) == len(known), "two revisions with the same golden digests: one changed nothing"
