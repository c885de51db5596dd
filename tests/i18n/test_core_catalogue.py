"""The core catalogue: complete in every language, in step with the code, and read as a
speaker of each language would write it (the examples are worked by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract, extract_from_dir
from babel.messages.pofile import read_po

from tourney.i18n import DEFAULT_LANGUAGE, LANGUAGE_CODES, TRANSLATIONS, translate
from tourney.match import GameEntry, MatchEntryError, MatchRules, score_match
from tourney.rules import GameEnd, Level, Side
from tourney.rules.dice_names import RUSSIAN, TURKISH, dice_names_for
from tourney.rules.messages import Message, PluralMessage, message_from_parts, message_parts
from tourney.rules.records import validate_record
from tourney.rules.variants import variant_named

REPO = Path(__file__).resolve().parents[2]
TRANSLATED = tuple(code for code in LANGUAGE_CODES if code != DEFAULT_LANGUAGE)
PLACEHOLDER = re.compile(r"%\(\w+\)s")
# The sources and keywords `make translations-core` extracts with.
CORE_SOURCES = ("tourney/rules", "tourney/match.py", "tourney/formats", "tourney/store",
                "tourney/exports", "tourney/cli.py", "tourney/i18n.py", "tourney/web/filters.py")
KEYWORDS = {"N_": None, "Message": None, "PluralMessage": (1, 2)}


def _catalogue(code: str):  # type: ignore[no-untyped-def]
    with (TRANSLATIONS / code / "LC_MESSAGES" / "core.po").open("rb") as po:
        return read_po(po, locale=code, domain="core")


def _template_ids() -> set[str | tuple[str, ...]]:
    with (TRANSLATIONS / "core.pot").open("rb") as pot:
        return {m.id for m in read_po(pot) if m.id}


def _marked_in_code() -> set[str | tuple[str, ...]]:
    found: list[str | tuple[str, ...] | list[str]] = []
    for source in CORE_SOURCES:
        path = REPO / source
        if path.is_file():
            with path.open("rb") as file:
                found.extend(m[1] for m in extract("python", file, keywords=KEYWORDS))
        else:
            found.extend(
                m[2] for m in extract_from_dir(str(path), [("**.py", "python")], keywords=KEYWORDS)
            )
    return {m if isinstance(m, str) else tuple(m) for m in found if m}


def test_the_template_holds_every_message_the_code_marks() -> None:
    assert _marked_in_code() == _template_ids()


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_core_message_is_translated_with_the_same_placeholders(code: str) -> None:
    catalogue = _catalogue(code)
    entries = {m.id: m for m in catalogue if m.id}

    assert set(entries) == _template_ids()
    for msgid, entry in entries.items():
        assert not entry.fuzzy, msgid
        sources = [msgid] if isinstance(msgid, str) else list(msgid)
        texts = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        assert all(texts), msgid
        wanted = {p for s in sources for p in PLACEHOLDER.findall(s)}
        for text in texts:
            # A plural form may leave the number out ("one point" as a word) but adds none.
            assert set(PLACEHOLDER.findall(text)) <= wanted, (msgid, text)
            if isinstance(msgid, str):
                assert set(PLACEHOLDER.findall(text)) == wanted, (msgid, text)


def test_a_record_finding_in_german() -> None:
    record = b""" 1 point match

 Game 1
 Alice : 0                 Bob : 0
  1) 33: 8/5(2) 6/3(2)
  2)                             Wins 1 point and the match
"""
    (finding,) = validate_record("opening.mat", record).errors

    assert finding.message == (
        "the game opens with 3-3, but the opening roll is never a doublet (both players roll "
        "one die)"
    )
    assert translate(finding.message, "de") == (
        "das Spiel beginnt mit 3-3, aber der Eröffnungswurf ist nie ein Pasch (beide Spieler "
        "werfen einen Würfel)"
    )


def test_a_refused_game_entry_in_turkish() -> None:
    crawford_game = GameEntry(Side.X, GameEnd.PLAYED, cube=2, level=Level.SINGLE)
    with pytest.raises(MatchEntryError) as refused:
        # 4-0 in a 5-point match: the next game is the Crawford game, with no doubling.
        score_match(
            MatchRules(5),
            [GameEntry(Side.X, GameEnd.PLAYED, cube=4, level=Level.SINGLE), crawford_game],
        )

    assert str(refused.value) == (
        "Game 2 is the Crawford game: no doubling is allowed, so the cube must stay at 1."
    )
    assert translate(refused.value.message, "tr") == (
        "2. oyun Crawford oyunu: katlamaya izin yok, bu yüzden küp 1'de kalmalı."
    )


def test_result_levels_in_russian_club_words() -> None:
    nardy, standard = variant_named("long-nardy"), variant_named("standard")

    assert [translate(nardy.level_names[lv], "ru") for lv in (Level.SINGLE, Level.GAMMON)] == [
        "оин",
        "марс",
    ]
    assert [translate(standard.level_names[lv], "ru") for lv in Level] == [
        "одиночная",
        "марс",
        "кокс",
    ]


def test_plural_forms_follow_the_language() -> None:
    points = [PluralMessage("%(count)s point", "%(count)s points", n) for n in (1, 2, 5, 21)]

    assert [str(p) for p in points] == ["1 point", "2 points", "5 points", "21 points"]
    assert [translate(p, "ru") for p in points] == ["1 очко", "2 очка", "5 очков", "21 очко"]
    assert [translate(p, "de") for p in points] == ["1 Punkt", "2 Punkte", "5 Punkte", "21 Punkte"]


def test_a_message_is_its_english_text_everywhere() -> None:
    message = Message("game %(number)s: %(why)s", number=3, why=Message("no dice"))

    assert message == "game 3: no dice"
    assert f"{message}!" == "game 3: no dice!"
    assert translate(message, "en") == "game 3: no dice"
    assert translate(message, "xx") == "game 3: no dice"


def test_a_stored_message_comes_back_translatable() -> None:
    message = Message("Round %(number)s", number=4)

    stored = message_from_parts(str(message), message_parts(message))

    assert translate(stored, "el") == "Γύρος 4"
    assert message_from_parts("Round 5", message_parts(message)) == "Round 5"


def test_dice_names_follow_the_readers_language_where_the_seeds_give_one() -> None:
    assert dice_names_for("ru-latn", "ru") is RUSSIAN
    assert dice_names_for("ru", "tr") is TURKISH
    assert dice_names_for("ru-latn", "de").key == "ru-latn"
    assert dice_names_for("", "ru") is None
