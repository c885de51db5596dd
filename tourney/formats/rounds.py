"""Round names: the rounds named from the end of a knockout, and the numbered ones.

Every page, sheet and stored round gets its name here, so a bracket reads the same on
screen, on paper and in the database.

Terminology: in a knockout flight of R rounds (a main draw, a consolation, a last
chance) the *final* is round R, the *semifinal* round R-1 and the *quarterfinal* round
R-2; those are the :data:`NAMED_ROUNDS`, counted from the end. Earlier rounds, and every
round of a Swiss or a round robin, are *numbered* ("Round 2"). A double elimination has
three parts, stored as bracket flights: the winners' bracket (``main``), the losers'
bracket (``losers``) and the grand final (``final``, with its optional reset match).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tourney.rules.messages import N_, Message


@dataclass(frozen=True, slots=True)
class NamedRound:
    """A round named by how far it is from the end of a knockout flight."""

    key: str
    """How round-length settings name it: ``{"final": 11}``."""
    title: str
    """How the round is called on pages and sheets: ``Semifinal``."""
    from_end: int
    """1 for the last round (the final), 2 for the one before, ..."""
    spellings: tuple[str, ...]
    """What a director may type for it (lower case, no spaces or hyphens)."""


FINAL = NamedRound("final", N_("Final"), 1, ("final", "finals", "f"))
SEMIFINAL = NamedRound(
    "semifinal", N_("Semifinal"), 2, ("semifinal", "semifinals", "semi", "semis", "sf")
)
QUARTERFINAL = NamedRound(
    "quarterfinal",
    N_("Quarterfinal"),
    3,
    ("quarterfinal", "quarterfinals", "quarter", "quarters", "qf"),
)

NAMED_ROUNDS: tuple[NamedRound, ...] = (FINAL, SEMIFINAL, QUARTERFINAL)
"""Every named round, the last round first."""

_BY_SPELLING = {spelling: named for named in NAMED_ROUNDS for spelling in named.spellings}
_BY_KEY = {named.key: named for named in NAMED_ROUNDS}
_BY_FROM_END = {named.from_end: named for named in NAMED_ROUNDS}
_TITLES = frozenset(named.title for named in NAMED_ROUNDS)

GRAND_FINAL = "final"
"""The bracket flight of a double elimination's grand final."""
LOSERS_BRACKET = "losers"
"""The bracket flight of a double elimination's losers' bracket."""


def named_round(key: str) -> NamedRound | None:
    """The named round a round-length setting calls ``key``; ``None`` for other keys."""
    return _BY_KEY.get(key)


def named_round_spelled(text: str) -> NamedRound | None:
    """The named round a director means by ``text`` ("Semis", "QF"); ``None`` if none."""
    return _BY_SPELLING.get(text.lower().replace("-", "").replace(" ", ""))


def numbered_round_name(number: int) -> str:
    """The name of a round known by its number only.

    >>> str(numbered_round_name(2))
    'Round 2'
    """
    return Message("Round %(number)s", number=number)


def round_name(number: int, rounds: int) -> str:
    """The name of round ``number`` of a knockout flight of ``rounds`` rounds.

    >>> [str(round_name(n, 4)) for n in (1, 2, 3, 4)]
    ['Round 1', 'Quarterfinal', 'Semifinal', 'Final']
    """
    named = _BY_FROM_END.get(rounds - number + 1)
    return numbered_round_name(number) if named is None else named.title


def bracket_round_name(flight: str, number: int, rounds: int, *, double_elimination: bool) -> str:
    """The name of round ``number`` of the bracket flight ``flight`` (``rounds`` rounds).

    In a double elimination the winners' and losers' brackets number their rounds and
    the grand final is the "Final", its reset match the "Final (reset)".

    >>> str(bracket_round_name("losers", 3, 4, double_elimination=True))
    'Losers round 3'
    >>> str(bracket_round_name("final", 2, 2, double_elimination=True))
    'Final (reset)'
    """
    if not double_elimination:
        return round_name(number, rounds)
    if flight == GRAND_FINAL:
        return FINAL.title if number == 1 else Message("Final (reset)")
    if flight == LOSERS_BRACKET:
        return Message("Losers round %(number)s", number=number)
    return Message("Winners round %(number)s", number=number)


def the_round(name: str) -> str:
    """A round's name as a sentence says it: "the Semifinal", but "Round 2".

    >>> f"Eliminated in {the_round('Final (reset)')}"
    'Eliminated in the Final (reset)'
    """
    return f"the {name}" if name.split(" ", 1)[0] in _TITLES else name


_NUMBERED_PATTERNS = (
    (re.compile(r"Round (\d+)"), "Round %(number)s"),
    (re.compile(r"Losers round (\d+)"), "Losers round %(number)s"),
    (re.compile(r"Winners round (\d+)"), "Winners round %(number)s"),
)


def parse_round_name(text: str) -> str:
    """A stored round name as the message it was made from, so that pages and sheets can
    show it in their language; a name given by hand stays as it is.

    >>> parse_round_name("Round 3")
    Message('Round %(number)s', number=3)
    >>> parse_round_name("Semifinal"), parse_round_name("Finals day")
    (Message('Semifinal'), 'Finals day')
    """
    if isinstance(text, Message):
        return text
    if text in _TITLES:
        return N_(text)
    if text == f"{FINAL.title} (reset)":
        return Message("Final (reset)")
    for pattern, msgid in _NUMBERED_PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return Message(msgid, number=int(found.group(1)))
    return text
