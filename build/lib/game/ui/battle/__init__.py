"""The battle screen as parts: a coordinator (``game.ui.battle.screen``) over parts that each own their
layout, input and drawing — the board overlays (``overlays``), the move panel (``moves``), the declaration
panel (``declaration``), the spell panel (``spells``), the tracker (``tracker``), the sheet (``sheet``), the
hover inspector (``inspector``), the log (``log``), the status bar and the frame's cache (``chrome``), the
GM's seat (``gm_seat``), the game menu and undo (``menu``) and the camera's focus (``focus``: the decision
panel never covers the figure deciding or its target).

The parts never import one another: each holds the screen as a ``BattleHost`` (``game.ui.battle.common``)
and asks it for what another part knows (the reachable hexes, the declaration's odds, the battle as shown
while the log still plays a decision out). Shared words and shapes that need no screen live in
``words`` (terrain, light, footing, hex names) and ``spellbook`` (magic). Imports run one way:
``screen`` -> parts -> ``common`` / ``words`` / ``spellbook`` -> engine and the ui's widgets; the screens
over the battle (``curtain``, ``victory``) import no part. This package's ``__init__`` imports nothing, so
a part can be imported without the screen.
"""
