"""Matches of several variants in turn: each game is scored by its own variant, the
tavli and tabla rotations play without the cube, and the mixed match is three games
with a hypergammon decider on a tie (VARIANTS.md section 16)."""

from __future__ import annotations

import pytest
from match_builders import O, X, backgammon, drop, gammon, single

from tourney.match import GameKind, MatchEntryError, MatchRules, score_match
from tourney.rules import NotationError
from tourney.rules.match_forms import (
    MIXED,
    SINGLE,
    TABLA,
    TAVLI,
    match_form_named,
    registered_match_forms,
)


def test_a_tavli_match_to_five_scores_each_game_by_its_own_variant() -> None:
    # Portes: X's backgammon counts as a gammon, 2-0. Plakoto: O single, 2-1. Fevga: X
    # gammon, 4-1. Portes: O gammon, 4-3 (no Crawford game: there is no cube). Plakoto:
    # X single, 5-3, and X has won.
    games = [backgammon(X), single(O), gammon(X), gammon(O), single(X)]

    state = score_match(MatchRules(5, form=TAVLI), games)

    assert [g.score_after for g in state.games] == [(2, 0), (2, 1), (4, 1), (4, 3), (5, 3)]
    assert [g.kind for g in state.games] == [GameKind.NORMAL] * 5
    assert state.winner is X
    assert state.crawford_game is None


def test_the_games_of_a_tavli_match_go_portes_plakoto_fevga_and_round_again() -> None:
    rules = MatchRules(7, form=TAVLI)

    assert [rules.for_game(n).variant.name for n in range(1, 8)] == [
        "portes", "plakoto", "fevga", "portes", "plakoto", "fevga", "portes",
    ]


def test_a_tavli_match_refuses_the_cube_and_a_dropped_double() -> None:
    with pytest.raises(MatchEntryError) as turned:
        score_match(MatchRules(5, form=TAVLI), [single(X), single(O, cube=2)])
    with pytest.raises(MatchEntryError) as dropped:
        score_match(MatchRules(5, form=TAVLI), [drop(X)])

    assert turned.value.game_number == 2
    assert "without the doubling cube" in str(turned.value)
    assert "the cube must stay at 1" in str(turned.value)
    assert "no double can have been dropped" in str(dropped.value)


def test_the_tabla_rotation_plays_backgammon_without_the_cube_then_gul_bara_and_tapa() -> None:
    # Backgammon: X's backgammon scores 3. Gul bara: O gammon 2. Tapa: O single 1, 3-3.
    # Backgammon again: X gammon 2, 5-3: X reaches 5.
    games = [backgammon(X), gammon(O), single(O), gammon(X)]

    state = score_match(MatchRules(5, form=TABLA), games)

    assert [g.score_after for g in state.games] == [(3, 0), (3, 2), (3, 3), (5, 3)]
    assert state.winner is X
    with pytest.raises(MatchEntryError, match="without the doubling cube"):
        score_match(MatchRules(5, form=TABLA), [single(X, cube=2)])


def test_the_mixed_match_ends_after_three_games_when_the_totals_differ() -> None:
    # Hypergammon counts every win single: X's gammon scores 1. Long nardy: O's mars
    # scores 2. Backgammon: X's gammon scores 2. Totals 3-2 after three games.
    games = [gammon(X), gammon(O), gammon(X)]

    state = score_match(MatchRules(3, form=MIXED), games)

    assert [g.score_after for g in state.games] == [(1, 0), (1, 2), (3, 2)]
    assert state.is_over and state.winner is X
    with pytest.raises(MatchEntryError, match="already decided 3-2 in game 3"):
        score_match(MatchRules(3, form=MIXED), [*games, single(O)])


def test_a_tied_mixed_match_is_decided_by_a_fourth_game_of_hypergammon() -> None:
    # 1-0, 1-2 (mars), 2-2 after the single backgammon game: level, so game 4 is
    # hypergammon, where O's gammon counts single: 2-3 and O wins.
    games = [single(X), gammon(O), single(X)]
    rules = MatchRules(3, form=MIXED)

    level = score_match(rules, games)
    decided = score_match(rules, [*games, gammon(O)])

    assert level.score == (2, 2) and not level.is_over
    assert rules.for_game(4).variant.name == "hypergammon"
    assert decided.score == (2, 3) and decided.winner is O


def test_a_one_variant_match_plays_every_game_in_the_events_variant() -> None:
    rules = MatchRules(5)

    assert rules.form is SINGLE
    assert {rules.for_game(n).variant.name for n in range(1, 6)} == {"standard"}


def test_match_forms_are_found_by_name_and_an_unknown_one_is_named_in_the_refusal() -> None:
    assert [form.name for form in registered_match_forms()][:4] == [
        "single", "tavli", "tabla", "mixed",
    ]
    assert match_form_named("tavli") is TAVLI
    with pytest.raises(NotationError, match="Unknown match form 'chouette'; choose one of"):
        match_form_named("chouette")
