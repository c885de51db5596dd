"""Several store messages shown as one text, each still translated on its own.

A refusal sometimes has more than one reason (two ties at a cut, five findings in a
record); joined into one plain string they could no longer be translated. These lists
keep the messages and write them with the separator the sentence needs, in every
language (see :class:`tourney.rules.messages.ListMessage`).
"""

from __future__ import annotations

from tourney.rules.messages import ListMessage


class SentenceList(ListMessage):
    """Whole sentences one after the other: ``Pool A: ... Pool B: ...``.

    >>> from tourney.rules.messages import Message
    >>> str(SentenceList((Message("No such match."), Message("No such round."))))
    'No such match. No such round.'
    """

    __slots__ = ()
    separator = " "

    def __repr__(self) -> str:
        return f"SentenceList({self.items!r})"


class SemicolonList(ListMessage):
    """Problems of one thing in a row, ``game 2: ...; line 7: ...``.

    >>> str(SemicolonList(("line 3: no dice", "line 9: no move")))
    'line 3: no dice; line 9: no move'
    """

    __slots__ = ()
    separator = "; "

    def __repr__(self) -> str:
        return f"SemicolonList({self.items!r})"
