"""Names a person types: whether two are one name spelled twice, and which known names an unknown one is near.

One helper for every name a GM or a player writes by hand: sides, characters, terrain, property and field
names, spells, equipment. Names are compared without case, spaces and punctuation ("Fire Bolt" is
"fire_bolt"), and how far apart two names are is their *optimal string alignment* distance: inserting,
deleting or changing a letter is one edit, and so is swapping two neighbouring letters ("bleu" / "blue",
"strenght" / "strength"), the commonest slip of the fingers, which a plain edit distance counts as two.
"""

from __future__ import annotations

from collections.abc import Iterable


def normalise(name: str) -> str:
    """A name as it is compared: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def osa_distance(a: str, b: str) -> int:
    """The optimal string alignment distance: the fewest insertions, deletions, changes and swaps of two
    neighbouring letters that turn ``a`` into ``b`` (no letter is edited twice)."""
    if a == b:
        return 0
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            best = min(rows[-1][j] + 1, cur[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, rows[-2][j - 2] + 1)
            cur.append(best)
        rows = [rows[-1], cur]
    return rows[-1][-1]


def near_miss(a: str, b: str) -> bool:
    """Whether two names that both stand look like one name spelled twice ("Bandit" / "Bandits", "Red" /
    "red", "wyrm_hunters" / "wyrm-hunters", "bleu" / "blue"): equal but for case and punctuation, one with a
    plural s, or one edit apart (a swap of neighbouring letters counts as one) in names of four letters or
    more. Names that differ only in a number ("side1" / "side2") are different names."""
    if a == b:
        return False
    na, nb = normalise(a), normalise(b)
    if na == nb:
        return True
    if "".join(ch for ch in na if not ch.isdigit()) == "".join(ch for ch in nb if not ch.isdigit()):
        return False
    if na + "s" == nb or nb + "s" == na:
        return True
    return min(len(na), len(nb)) >= 4 and osa_distance(na, nb) <= 1


def near_miss_pairs(names: Iterable[str]) -> list[tuple[str, str]]:
    """Every pair of distinct names that are near misses of each other (``near_miss``), in the given order:
    (the earlier name, the later one)."""
    seen: list[str] = []
    out: list[tuple[str, str]] = []
    for name in names:
        if name in seen:
            continue
        out.extend((other, name) for other in seen if near_miss(other, name))
        seen.append(name)
    return out


def _nearness(wanted: str, candidate: str) -> int | None:
    """How many edits ``wanted`` (normalised) is from ``candidate`` or from one of its words of four letters or
    more, when that is within one edit per three letters (at least one); else None."""
    words = [normalise(w) for w in candidate.replace("-", " ").replace("_", " ").split()]
    near = [
        d
        for s in {normalise(candidate), *(w for w in words if len(w) >= 4)}
        if (d := osa_distance(wanted, s)) <= max(1, min(len(wanted), len(s)) // 3)
    ]
    return min(near, default=None)


def close_matches(name: str, known: Iterable[str], limit: int = 4) -> list[str]:
    """The known names an unknown ``name`` may have meant, nearest first (at most ``limit``): equal but for
    case and punctuation, a few edits from the whole name or from one of its words ("spaer" / "Spear or
    Pike"), or one containing the other (of three letters or more: "axe" / "Battle Axe"). For "did you mean
    …?" after a name that is not known; ``near_miss`` decides whether two names that both stand are one."""
    wanted = normalise(name)
    scored: list[tuple[int, int, str]] = []
    for order, candidate in enumerate(dict.fromkeys(known)):
        whole = normalise(candidate)
        if not whole or not wanted:
            continue
        distance = _nearness(wanted, candidate)
        if distance is None and min(len(wanted), len(whole)) >= 3 and (wanted in whole or whole in wanted):
            distance = abs(len(whole) - len(wanted))
        if distance is not None:
            scored.append((distance, order, candidate))
    return [candidate for _, _, candidate in sorted(scored)[:limit]]


def did_you_mean(name: str, known: Iterable[str], limit: int = 1) -> str:
    """``did you mean 'x'?`` (or ``'x', 'y'``) for an unknown name, nearest first; "" when no known name is
    close (``close_matches``)."""
    close = close_matches(name, known, limit)
    return f"did you mean {', '.join(repr(c) for c in close)}?" if close else ""
