"""The one exception a bad battle map raises (docs/architecture.md "Errors a person can act on": errors a person can act
on)."""

from __future__ import annotations

from pathlib import Path


class MapLoadError(ValueError):
    """A map that cannot be loaded: one line naming the file, the element and the fix.

    Every failure of the Tiled loader and renderer ends here, so a GM sees a
    sentence such as ``forest.tmx: <layer name="Ground">: the data holds 99 tiles, not 100 — ...``
    and never a traceback.
    """

    def __init__(self, file: str | Path, element: str, problem: str, fix: str) -> None:
        self.file = str(file)
        self.element = element
        self.problem = problem
        self.fix = fix
        name = Path(self.file).name or self.file
        text = f"{name}: {element}: {problem}; {fix}"
        super().__init__(" ".join(text.split()))
