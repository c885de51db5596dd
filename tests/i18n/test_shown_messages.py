"""Words the store hands to pages are whole messages of the core catalogue: a page in
another language shows each as one translated sentence, and English reads as before.

A marking catalogue stands in for a language: it gives back every pattern it is asked
for inside ``⟦ ⟧``, so a text that a page would show untranslated has no marks, and a
sentence pieced together from parts has marks around the parts only.
"""

from __future__ import annotations

from gettext import NullTranslations

import pytest

from tourney import i18n
from tourney.analysis import rating_words
from tourney.i18n import translate
from tourney.store.analyses import RATING_NAMES
from tourney.store.outbox import OutboxRow
from tourney.store.player_import import check_rows
from tourney.store.registration import status_name
from tourney.store.selfservice_tables import MailStatus, RegistrationStatus
from tourney.store.types import utcnow


class _Marking(NullTranslations):
    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


@pytest.fixture(autouse=True)
def marking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "core_catalogue", lambda code: _Marking())


def _whole(text: str) -> bool:
    """``text`` in the marking language is one sentence of the catalogue."""
    shown = translate(text, "de")
    return shown.startswith("⟦") and shown.endswith("⟧")


def test_a_players_files_problems_are_whole_sentences_and_read_as_before() -> None:
    """Row 3 has no name; row 4 a country of three letters, a rating that is a word and
    an experience that is no whole number; row 5 repeats row 2's player; row 6 names
    Ann, who is on the roster (no country given). The English is written out by hand."""
    rows = [
        (1, ["name", "country", "rating", "experience"]),
        (2, ["Ola Dahl", "NO", "", ""]),
        (3, ["", "SE", "", ""]),
        (4, ["Per Berg", "NOR", "lots", "many"]),
        (5, ["Ola Dahl", "NO", "", ""]),
        (6, ["Ann", "", "", ""]),
    ]
    _columns, checked = check_rows(rows, {("ann", "")})
    problems = {row.line: row.problems for row in checked if row.problems}

    assert problems == {
        3: ("the name is missing",),
        4: (
            "country 'NOR' is not a two-letter code (NO, DE, US)",
            "rating 'lots' is not a number",
            "experience 'many' is not a whole number",
        ),
        5: ("duplicate of row 2",),
        6: ("Ann (no country) is on the roster already",),
    }
    assert all(_whole(p) for found in problems.values() for p in found)


def test_every_rating_gnubg_gives_is_a_word_of_the_catalogue() -> None:
    """gnubg's ratings from "Supernatural" (under 2 mEMG a decision) to "Awful!" (35 and
    over): an error rate in each band names one of them."""
    for error_rate in (0, 2.5, 6, 9, 15, 20, 30, 50):
        words = rating_words(error_rate)
        assert RATING_NAMES[words] == words
        assert _whole(RATING_NAMES[words])


def test_registration_and_mail_statuses_are_words_of_the_catalogue() -> None:
    assert [status_name(s.value) for s in RegistrationStatus] == [
        "unconfirmed",
        "awaiting approval",
        "registered",
        "waiting",
        "withdrawn",
        "rejected",
    ]
    assert all(_whole(status_name(s.value)) for s in RegistrationStatus)
    mails = [OutboxRow(1, "", "", "", s.value, 0, "", utcnow(), None) for s in MailStatus]
    assert [m.status_label for m in mails] == ["queued", "sending", "sent", "failed"]
    assert all(_whole(m.status_label) for m in mails)
