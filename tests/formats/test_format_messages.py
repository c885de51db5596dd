"""A format's refusal reaches a reader in their language, every word of it.

Each refusal below is raised as a core message: its English text is what the director
always read (worked out by hand from the input), and the message keeps its pattern and
values so a German, Russian, Greek or Turkish page can show it whole. The pseudo
language used here translates a pattern or label by putting it in «»; a refusal with
English words outside the marks would show them untranslated on a German page.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from gettext import NullTranslations

import pytest

from tourney import i18n
from tourney.formats import chouette, divisions, money, prizes, ratings, seasons, stages, teams
from tourney.formats.errors import FormatUserError
from tourney.formats.flight_formats import feed_refusal
from tourney.formats.simulation import SimulationOptions, simulate
from tourney.formats.team_simulation import TeamSimulationOptions, simulate_teams
from tourney.formats.tiebreaks import tiebreak_chain
from tourney.rules import Level
from tourney.rules.messages import Message, message_of


class _Marking(NullTranslations):
    """Every pattern and label "translated" as itself in «»."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"«{msgid1 if n == 1 else msgid2}»"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    """``text`` as the pseudo language shows it."""
    monkeypatch.setattr(i18n, "core_catalogue", lambda code: _Marking())
    return lambda text: i18n.translate(text, "de")


def _refusal(action: Callable[[], object]) -> str:
    with pytest.raises(FormatUserError) as caught:
        action()
    return message_of(caught.value)


def _game(**changes: object) -> money.MoneyGame:
    fields: dict[str, object] = {
        "winner": 0, "end": money.MoneyEnd.PLAYED, "level": Level.SINGLE, "cube": 2,
        "centred": False,
    }
    fields.update(changes)
    return money.MoneyGame(**fields)  # type: ignore[arg-type]


REFUSALS: list[tuple[str, Callable[[], object], str]] = [
    ("payout sum", lambda: prizes.parse_payout_table("50/30"),
     "Payout table: the percentages add up to 80, not 100."),
    ("payout row", lambda: prizes.parse_payout_table("1+: 100; 8+: 70/x"),
     "Fields of 8 or more: write whole percentages by place separated by /, like 50/30/20."),
    ("payout zero", lambda: prizes.parse_payout_table("60/40/0"),
     "Payout table: every paid place needs more than 0%."),
    ("amount", lambda: prizes.parse_money("-5"),
     "'-5' is not an amount: write it like 20 or 20.50, without a sign."),
    ("retention", lambda: prizes.retention(1000, 120),
     "House retention is between 0 and 100%, not 120%."),
    ("currency", lambda: prizes.find_currency("XYZ"),
     "Unknown currency 'XYZ': use one of EUR, USD, GBP, CHF, NOK, SEK, DKK, TRY."),
    ("dropped gammon", lambda: money.check_game(
        _game(end=money.MoneyEnd.DROPPED, level=Level.GAMMON), money.CubeOptions()),
     "A dropped double scores single; it cannot be a gammon."),
    ("second game", lambda: money.running_totals(
        [_game(), _game(cube=3)], money.PER_POINT, money.CubeOptions()),
     "Game 2: The cube must be a power of two (1, 2, 4, ...), not 3."),
    ("stake mode", lambda: money.stake_mode("per-hour"),
     "Unknown stake mode 'per-hour'; choose one of per-point, per-game, per-checker."),
    ("chouette size", lambda: chouette.start([1, 2]),
     "A chouette needs 3 to 8 players, not 2."),
    ("team size", lambda: teams.check_team_size("Solo", 1),
     "Team 'Solo' has 1 player(s); a team needs 2 to 7."),
    ("line-up", lambda: teams.check_lineup([1, 2, 3], [1, 1, 2], 3),
     "A player can play only one board of a fixture."),
    ("pool size", lambda: stages.check_pool_sizes([3, 1], 2),
     "Pool B has 1 player; 2 cannot qualify from it."),
    ("swiss cut", lambda: stages.cut_table([], 1),
     "The Swiss has 0 players; 1 cannot qualify from it."),
    ("tiebreak twice", lambda: tiebreak_chain(["buchholz", "buchholz"]),
     "Each tiebreak may appear once in the chain."),
    ("season best", lambda: seasons.season_table([], best=0),
     "Count at least one event per player, not 0."),
    ("rated match", lambda: ratings.RatedMatch(datetime(2026, 1, 1), "Ann", "Ann", 5, "Ann"),
     "'Ann' cannot play a rated match against themselves."),
    ("division twice", lambda: divisions.parse_divisions("Open, open"),
     "The division 'open' is listed twice."),
    ("swiss rounds", lambda: simulate(SimulationOptions("swiss", 8, rounds=0)),
     "A Swiss needs at least one round, not 0."),
    ("variant", lambda: simulate(SimulationOptions("knockout", 8, variant="chess")),
     "Unknown variant 'chess'; choose one of standard, nackgammon, hypergammon, long-nardy, "
     "portes, plakoto, fevga, russian, tapa, gul-bara, acey-deucey, acey-deucey-european, "
     "asodio, icelandic, chase, ad-elta-stelpur, misere, gioul, moultezim, jacquet, matador, "
     "dutch, snake, american."),
    ("team lives", lambda: simulate_teams(TeamSimulationOptions("swiss", 4, lives=0)),
     "A lives Swiss needs at least one life, not 0."),
]


@pytest.mark.parametrize(
    ("action", "english"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_a_refusal_reads_as_before_and_is_translated_whole(
    action: Callable[[], object], english: str, marked: Callable[[str], str]
) -> None:
    refusal = _refusal(action)

    assert refusal == english
    assert isinstance(refusal, Message)
    shown = marked(refusal)
    assert shown.startswith("«") and shown.endswith("»"), shown


def test_a_payout_row_is_named_in_the_readers_words(marked: Callable[[str], str]) -> None:
    # The row's name is a label of its own, translated inside the sentence.
    refusal = _refusal(lambda: prizes.parse_payout_table("1+: 100; 8+: 70/20"))

    assert marked(refusal) == "««Fields of 8 or more»: the percentages add up to 90, not 100.»"


def test_a_level_and_a_count_inside_a_refusal_are_translated(
    marked: Callable[[str], str],
) -> None:
    dropped = _refusal(lambda: money.check_game(
        _game(end=money.MoneyEnd.DROPPED, level=Level.BACKGAMMON), money.CubeOptions()))
    pool = _refusal(lambda: stages.check_pool_sizes([3, 1], 2))
    swiss = _refusal(lambda: stages.cut_table([], 1))
    game = _refusal(lambda: money.running_totals(
        [_game(cube=3)], money.PER_POINT, money.CubeOptions()))

    assert marked(dropped) == "«A dropped double scores single; it cannot be a «backgammon».»"
    assert marked(pool) == "«Pool B has «1 player»; 2 cannot qualify from it.»"
    assert marked(swiss) == "««The Swiss» has «0 players»; 1 cannot qualify from it.»"
    assert marked(game) == (
        "«Game 1: «The cube must be a power of two (1, 2, 4, ...), not 3.»»"
    )


def test_why_a_flight_cannot_take_losers_names_its_format_in_the_readers_words(
    marked: Callable[[str], str],
) -> None:
    reason = feed_refusal("swiss", "knockout")

    assert reason == (
        "Losers are fed on only from a knockout; a swiss has none. "
        "To take its top finishers, choose it under “Qualifiers come from”."
    )
    assert marked(reason or "") == (
        "«Losers are fed on only from a knockout; a «Swiss» has none. "
        "To take its top finishers, choose it under “Qualifiers come from”.»"
    )
