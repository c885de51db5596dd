"""Swiss standings of a long-nardy event whose drawn games score ½-½, worked by hand."""

from __future__ import annotations

from tourney.formats.model import EntrantId, MatchOutcome
from tourney.formats.standings import compute_standings
from tourney.formats.tiebreaks import GAME_POINTS
from tourney.match import DrawScoring, GameEntry, MatchRules, score_match
from tourney.rules import GameEnd, Level, Side
from tourney.rules.variants import LONG_NARDY, VariantOptions

A, B, C, D = (EntrantId(n) for n in (1, 2, 3, 4))


def test_a_half_point_draw_is_kept_exactly_through_the_match() -> None:
    # 3-point long nardy, draws ½-½: draw (½-½), B oin (½-1½), A mars (2½-1½), A oin
    # (3½-1½): A wins; in half points 7-3.
    rules = MatchRules(3, variant=LONG_NARDY, options=VariantOptions(last_roll_draw=True),
                       draw_scoring=DrawScoring.HALF)
    state = score_match(rules, [
        GameEntry.drawn(),
        GameEntry(Side.O, GameEnd.PLAYED, 1, Level.SINGLE),
        GameEntry(Side.X, GameEnd.PLAYED, 1, Level.GAMMON),
        GameEntry(Side.X, GameEnd.PLAYED, 1, Level.SINGLE)])

    assert state.winner is Side.X
    assert state.score == (3, 1)
    assert state.half_score == (7, 3)


def test_swiss_standings_count_half_point_draws_in_game_points() -> None:
    # Round 1: A beats B 3½-1½ (a draw in it), C beats D 3-0.
    # Round 2: C beats A 3-2, B beats D 3-2½ (a draw in it).
    # Wins: C 2, A 1, B 1, D 0. A and B tie on wins; game points split them:
    # A 3½ + 2 = 5½, B 1½ + 3 = 4½. C 6, D 2½.
    outcomes = [
        MatchOutcome(1, A, B, A, (3, 1), 3, half_score=(7, 3)),
        MatchOutcome(1, C, D, C, (3, 0), 3),
        MatchOutcome(2, A, C, C, (2, 3), 3),
        MatchOutcome(2, D, B, B, (2, 3), 3, half_score=(5, 6)),
    ]

    table = compute_standings(outcomes, [GAME_POINTS])

    assert [(row.entrant, row.rank) for row in table] == [(C, 1), (A, 2), (B, 3), (D, 4)]
    assert [GAME_POINTS.format_value(row.metric("game-points")) for row in table] == [
        "6", "5½", "4½", "2½"]
