"""Tiny builders for knockout tests: entrants 1..n, results given as (match id, winner),
and the two sides a match shows."""

from __future__ import annotations

from tourney.formats import knockout as ko
from tourney.formats.model import EntrantId, MatchId

E = EntrantId
M = MatchId


def players(n: int) -> list[EntrantId]:
    """Entrants 1..n (1 = top seed)."""
    return [E(i) for i in range(1, n + 1)]


def play(bracket: ko.Bracket, *results: tuple[str, int]) -> ko.Bracket:
    """Record results given as (match id, winner)."""
    for match_id, winner in results:
        bracket = ko.record_result(bracket, M(match_id), E(winner))
    return bracket


def sides(bracket: ko.Bracket, match_id: str) -> tuple[int | None, int | None]:
    """Who stands on each side of a match as the bracket shows it now."""
    shown = ko.view(bracket, bracket.match(M(match_id)))
    return shown.a, shown.b
