"""The battle screen as parts: a coordinator (``game.ui.battle.screen``) over parts that each own their
layout, input and drawing — the board overlays (``overlays``), the move panel (``moves``), the declaration
panel (``declaration``), the spell panel (``spells``), the tracker (``tracker``), the sheet (``sheet``), the
hover inspector (``inspector``), the log (``log``), the status bar and the frame's cache (``chrome``), the
GM's seat (``gm_seat``), the GM's pause (``gm_pause``), the game menu and undo (``menu``) and the camera's
focus (``focus``: the decision panel never covers the figure deciding or its target).

What the parts share that is not drawn is the model (``model``, no pygame: the selection, the declaration
and the move being put together, the battle as shown while the log still plays a decision out, and the
questions asked of the battle — reach, escapes, paths, choices, targets, odds — once per battle state). The
parts never import one another: each receives the screen as a narrow Protocol declared next to it (exactly
what it uses; the shared bases are in ``common``) and asks the model for what another part would know.
Shared words and shapes that need no screen live in ``words`` (terrain, light, footing, hex names) and
``spellbook`` (magic). Imports run one way: ``screen`` -> parts -> ``common`` -> ``model`` -> ``words`` /
``spellbook`` -> engine and the ui's plain data; the screens over the battle (``curtain``, ``victory``) import
no part. This package's ``__init__`` imports nothing, so a part can be imported without the screen.
"""
