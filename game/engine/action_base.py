"""The base of every decision as data: the one type the players' actions (``game.engine.actions``) and the
GM's (``game.engine.gm``) both build on, so neither module needs the other to define its own.

A decision is a frozen record without behaviour (docs/architecture.md "Decisions are data"): a ``msgspec``
``Struct``, so that the declaration of its fields is also its contract at every boundary
(``game.engine.codec``): in a save or a message a decision is a JSON object whose ``"kind"`` names its type
(each type's ``tag``, which is also its ``kind``: ``codec.TagKind``) and whose other fields are exactly the
type's, each of its declared type; anything else is refused.
"""

from __future__ import annotations

import msgspec

from game.engine.codec import Name, TagKind


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind"):
    """Base class of all decisions; ``kind`` names the decision in saves and messages (its ``tag``)."""

    kind = TagKind()


class FigureAction(Action, frozen=True):
    """A decision about one figure, named first in its ``figure`` field. A player's is taken for that figure, so
    only its side's seat may take it (``battle.seats``); a GM's (``gm.GMFigureAction``) acts on it."""

    figure: Name
