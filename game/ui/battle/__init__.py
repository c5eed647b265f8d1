"""The battle screen as parts: a coordinator (``game.ui.battle.screen``) over parts that each own their
layout, input and drawing — the board overlays, the move panel, the declaration panel, the spell panel,
the tracker, the sheet, the hover inspector, the log and the GM's seat.

The parts never import one another: each holds the screen as a ``BattleHost`` (``game.ui.battle.common``)
and asks it for what another part knows (the reachable hexes, the declaration's odds…). Imports run one
way: ``screen`` -> parts -> ``common`` -> engine and the ui's widgets. This package's ``__init__`` imports
nothing, so a part can be imported without the screen.
"""
