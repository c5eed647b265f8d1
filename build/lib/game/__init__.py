"""Fudge Tactical Combat on a hex map: engine (rules), maps (Tiled loader) and ui (pygame)."""
