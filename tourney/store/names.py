"""How player names are compared: for search and for spotting a player already on the roster.

Terminology:
    search key    a name folded so that the ways people type it match: accents dropped
                  (Zoë, Zoe), case folded, apostrophes of any kind dropped (O'Brien,
                  O’Brien, OBrien), runs of spaces made one.
    person key    the words of the search key in sorted order, so that "Surname, First" and
                  "First Surname" are the same person.
"""

from __future__ import annotations

import re
import unicodedata

_APOSTROPHES = re.compile(r"['’‘`´ʼ]")
_SEPARATORS = re.compile(r"[\s,]+")


def search_key(text: str) -> str:
    """``text`` folded for matching: no accents, case or apostrophes.

    >>> search_key("  Zoë  O’Brien ")
    'zoe obrien'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SEPARATORS.sub(" ", _APOSTROPHES.sub("", bare.casefold())).strip()


def person_key(name: str) -> tuple[str, ...]:
    """The words of a name whatever their order: "O'Brien, Seán" is "Sean OBrien".

    >>> person_key("O'Brien, Seán") == person_key("sean obrien")
    True
    """
    return tuple(sorted(search_key(name).split()))


def name_matches(search: str, name: str) -> bool:
    """Whether a search box's text finds ``name`` ("obrien" finds O’Brien, "zoe" Zoë)."""
    return search_key(search) in search_key(name)
