"""Messages people read, kept translatable: the English text plus what it was made of.

Terminology: a *message* is one sentence shown to a director or player (a record's
finding, a refused game entry, a draw that cannot be made); its *msgid* is the English
pattern with named placeholders (``"game %(game)s is not finished"``) and its *params*
the values that fill them.

A :class:`Message` **is** its English text (a ``str``): every caller that prints, joins,
compares or writes it to JSON sees exactly the English sentence it always saw. The outer
layers, which know the language a page or export is served in, look at ``msgid`` and
``params`` to translate it (``tourney.i18n.translate``). This module is standard library
only, like the rest of the rules core.

:func:`N_` marks a registry name (a variant's title, a tiebreak's name) for extraction
into the ``core`` catalogue without changing it; the name is translated where it is
shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Message(str):
    """An English sentence that remembers its pattern and values, for translation.

    >>> m = Message("game %(game)s ends at %(score)s", game=3, score="5-2")
    >>> m
    Message('game %(game)s ends at %(score)s', game=3, score='5-2')
    >>> str(m), m == "game 3 ends at 5-2", m.msgid
    ('game 3 ends at 5-2', True, 'game %(game)s ends at %(score)s')
    >>> Message("no game was entered")
    Message('no game was entered')
    """

    __slots__ = ("msgid", "params")
    msgid: str
    params: Mapping[str, object]

    def __new__(cls, msgid: str, /, **params: object) -> Message:
        # A pattern with no values is the text itself: "100%" needs no escaping then.
        text = msgid % params if params else msgid
        self = super().__new__(cls, text)
        self.msgid = msgid
        self.params = dict(params)
        return self

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.params.items())
        return f"Message({self.msgid!r}{values})"

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # Pickling (worker processes, caches) rebuilds the message, not only its text.
        return (self.msgid,), dict(self.params)


class PluralMessage(Message):
    """A message whose words depend on a number (``1 point``, ``5 points``); languages
    with more plural forms (Russian has three) choose theirs by ``count``.

    >>> PluralMessage("%(count)s point", "%(count)s points", 5)
    PluralMessage('%(count)s point', '%(count)s points', 5)
    >>> str(PluralMessage("%(count)s point", "%(count)s points", 1))
    '1 point'
    """

    __slots__ = ("number", "plural")
    plural: str
    number: int
    """The number that chooses the plural form (the ``count`` value)."""

    def __new__(cls, singular: str, plural: str, count: int, /, **params: object) -> PluralMessage:
        values = {"count": count, **params}
        self = str.__new__(cls, (singular if count == 1 else plural) % values)
        self.msgid = singular
        self.plural = plural
        self.number = count
        self.params = values
        return self

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={value!r}" for name, value in self.params.items() if name != "count"
        )
        return f"PluralMessage({self.msgid!r}, {self.plural!r}, {self.number!r}{extra})"

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        extra = {name: value for name, value in self.params.items() if name != "count"}
        return (self.msgid, self.plural, self.number), extra


class InSentence(Message):
    """A registry name inside a sentence: lower case in English ("this long nardy
    event"), the translated name as it is in other languages.

    >>> InSentence("Long nardy"), str(InSentence("Long nardy"))
    (InSentence('Long nardy'), 'long nardy')
    """

    __slots__ = ()

    def __new__(cls, name: str, /) -> InSentence:
        self = str.__new__(cls, name.lower())
        self.msgid = name
        self.params = {}
        return self

    def __repr__(self) -> str:
        return f"InSentence({self.msgid!r})"

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.msgid,), {}


class ListMessage(Message):
    """Several messages or names written as one list, ``single, gammon, backgammon``;
    each item is translated on its own.

    >>> ListMessage((Message("played"), Message("resigned")))
    ListMessage((Message('played'), Message('resigned')))
    >>> str(ListMessage(("oin", "mars")))
    'oin, mars'
    """

    __slots__ = ("items",)
    items: tuple[str, ...]
    separator = ", "
    """What stands between the items, in every language."""

    def __new__(cls, items: tuple[str, ...], /) -> ListMessage:
        self = str.__new__(cls, cls.separator.join(items))
        self.msgid = cls.separator.join(items)
        self.params = {}
        self.items = tuple(items)
        return self

    def __repr__(self) -> str:
        return f"ListMessage({self.items!r})"

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.items,), {}


class DottedListMessage(ListMessage):
    """A list of phrases written with middle dots, ``Long nardy · no cube``; each item is
    translated on its own.

    >>> str(DottedListMessage(("Long nardy", "no cube")))
    'Long nardy · no cube'
    """

    __slots__ = ()
    separator = " · "

    def __repr__(self) -> str:
        return f"DottedListMessage({self.items!r})"


class Capitalized(Message):
    """A message or name written with a capital first letter, as a heading or a choice
    starts (``Median Buchholz`` from ``median Buchholz``); translated first, then
    capitalized, in every language.

    >>> Capitalized(N_("median Buchholz"))
    Capitalized(Message('median Buchholz'))
    >>> str(Capitalized(N_("median Buchholz")))
    'Median Buchholz'
    """

    __slots__ = ("inner",)
    inner: str
    """The message as written inside a sentence."""

    def __new__(cls, inner: str, /) -> Capitalized:
        self = str.__new__(cls, inner[:1].upper() + inner[1:])
        self.msgid = inner[:1].upper() + inner[1:]
        self.params = {}
        self.inner = inner
        return self

    def __repr__(self) -> str:
        return f"Capitalized({self.inner!r})"

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.inner,), {}


def N_(text: str) -> str:
    """Mark ``text`` (a registry name) for the ``core`` catalogue: it comes back as a
    :class:`Message` without values, equal to ``text``, which a page, sheet or mail shows
    in its reader's language wherever it goes (alone, or as a value of another message).

    >>> N_("Long nardy"), N_("Long nardy") == "Long nardy"
    (Message('Long nardy'), True)
    """
    return text if isinstance(text, Message) else Message(text)


def message_of(error: BaseException) -> str:
    """The message an exception was raised with, a :class:`Message` where it was one.

    ``str(error)`` gives the same English text but loses the pattern; shells that show
    an error to a person pass it on through this so that it can still be translated.

    >>> message_of(ValueError(Message("no %(what)s", what="dice")))
    Message('no %(what)s', what='dice')
    >>> message_of(KeyError("x")), message_of(ValueError("a", "b"))
    ("'x'", "('a', 'b')")
    """
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    return str(error)


def message_parts(text: str) -> dict[str, object] | None:
    """A message as JSON-ready parts (``msgid``, ``params``) for storing beside its
    English text, so that a stored report can be shown in another language later; none
    for plain text.

    >>> parts = message_parts(Message("game %(game)s: %(why)s", game=2, why=Message("no dice")))
    >>> parts["params"]
    {'game': 2, 'why': {'msgid': 'no dice', 'params': {}}}
    >>> message_parts("plain") is None
    True
    """
    if not isinstance(text, Message):
        return None
    params: dict[str, object] = {}
    for name, value in text.params.items():
        if isinstance(value, BaseException):
            value = message_of(value)
        nested = message_parts(value) if isinstance(value, str) else None
        if nested is not None:
            params[name] = nested
        elif isinstance(value, bool | int | float | str) or value is None:
            params[name] = value
        else:
            params[name] = str(value)
    return {"msgid": text.msgid, "params": params}


def message_from_parts(text: str, parts: object) -> str:
    """The message :func:`message_parts` stored, or ``text`` when the parts are missing
    or do not give back the same English text (a stored report from an older version).

    >>> message_from_parts("game 2", {"msgid": "game %(game)s", "params": {"game": 2}})
    Message('game %(game)s', game=2)
    >>> message_from_parts("game 3", {"msgid": "game %(game)s", "params": {"game": 2}})
    'game 3'
    """
    rebuilt = _rebuild(parts)
    return rebuilt if rebuilt is not None and rebuilt == text else text


def _rebuild(parts: object) -> Message | None:
    if not isinstance(parts, dict):
        return None
    msgid, params = parts.get("msgid"), parts.get("params")
    if not isinstance(msgid, str) or not isinstance(params, dict):
        return None
    values = {
        str(name): _rebuild(value) if isinstance(value, dict) else value
        for name, value in params.items()
    }
    if any(value is None and isinstance(params[name], dict) for name, value in values.items()):
        return None
    try:
        return Message(msgid, **values)
    except (KeyError, ValueError, TypeError):
        return None
