"""Portes, Plakoto and Fevga legal plays against Ludii's game descriptions.

The data (tests/data/variants/ludii_*.json) were recorded by hand with
tests/variants/make_ludii_data.py from random games that Ludii itself played
(Ludeme/Ludii, ``Common/res/lud/board/race/escape/{Portes,Plakoto,Fevga}.lud``): for each
turn, the set of positions Ludii lets the whole roll end on, kept as size and digest
(``oracle_sets.summary``) after VARIANTS.md 0.4 rules 1-2 are applied to the dice each of
Ludii's move chains used (Ludii's own ``max Distance`` filter computes distances and then
returns every move, so its raw chains may stop early; the raw set is compared too).

Every case must agree with our engine or be a known difference, excluded by name and
counted. The known differences, each a reading of Ludii's ``.lud`` text or of its Java
code, with how a case of it is recognised:

* ``carried doublet`` (all three games): Ludii's ``forEach Die replayDouble:True`` keeps a
  doublet's value in ``State.temp()`` from its first value to its third; a doublet turn
  that ends after one or two values leaves it set, and the next turn's first move then
  resets both dice to that doublet (``ForEachDie.eval``, the ``temp() != UNDEFINED``
  branch): after its first move the turn goes on with that doublet's values instead of
  its roll (in 34 of Portes' 45 such turns a later move used a value not rolled). The
  driver records the carried value and the case is not compared.
* ``bear-off cut short`` (Portes; Fevga's second player): Ludii's home-board rule is a
  separate ``forEach Die``/``forEach Site`` whose ``noMoveYet`` branch (a checker borne off
  from below the die when no other move exists) has no ``moveAgain``, so the turn ends
  there, the other values unplayed. Recognised when some play of ours bears off and every
  position Ludii allows is reachable by playing some of the roll's values under our rules
  (the plain enumerator of naive_tables.py).
* ``bear-off past a blocked checker`` (Portes): in that ``noMoveYet`` branch Ludii
  removes the checker furthest from home that the die can carry off, even while a checker
  above the die cannot move (blocked); VARIANTS.md 0.4 bears off from below the die only
  when no checker stands above it. Recognised when each position Ludii allows is some of
  the roll played under our rules, possibly followed by one such removal.
* ``no bear-off`` (Plakoto; Fevga's first player): Plakoto's Ludii tracks
  (``BackgammonTracks`` without ``End``) give no move off the board, and in the recorded
  games no checker was ever borne off; Fevga's ``(regions "Home" P1 {20..25})`` is the
  first player's own points 7-12 on its Fevga track, so it never enters the home-board
  rule from its real home. Recognised when some play of ours bears off, no position Ludii
  allows has a checker more off, and each is reachable by playing some of the values.
* ``mother pinned, pinner still on its 24`` (Plakoto): Ludii ends the game 2-0 the moment
  a mother checker is pinned (``MotherCheckerP1Pinned``); VARIANTS.md 11 plays on while
  the pinner still has a checker on its own 24. Recognised when a position Ludii allows
  pins the other side's mother with the mover still on its own 24, and each is
  reachable by playing some of the values.
* ``start table filled`` (Fevga): Ludii's code has no ban on holding all six points of
  the starting quarter (its rules text has one). Recognised when the plain enumerator
  without that ban (and with the release below) gives Ludii's set.
* ``others freed at the own half`` (Fevga): Ludii lets other checkers leave the start
  once one stands in the other side's half (own 12 or lower; ``PieceInOpponentSide``);
  VARIANTS.md 12.1 waits until it has passed the opponent's start (own 11). Recognised
  when our ``fevga_release_at_own_half`` option gives Ludii's set.
* ``no prime release`` (Fevga): Ludii's code has no rule that a prime trapping every
  opposing checker must be broken. Recognised when the plain enumerator without it
  gives Ludii's set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from naive_tables import Board, NaiveRules, O, X, absolute, is_pinned, naive_legal, sequences
from oracle_sets import (
    change_text,
    changed_layout,
    layout_text,
    load,
    side_text,
    summary,
    text_layout,
)
from tables_builders import NAIVE_RULES, naive_board

from tourney.rules.dice import Roll
from tourney.rules.layout import BoardLayout, SideLayout
from tourney.rules.variant_protocol import (
    DEFAULT_OPTIONS,
    GameVariant,
    VariantOptions,
    VariantPosition,
)
from tourney.rules.variants import variant_named

OWN_HALF = VariantOptions(fevga_release_at_own_half=True)


class Case:
    """One recorded turn: Ludii's position, roll and answer, and ours."""

    def __init__(self, name: str, index: int, row: list[Any], details: dict[str, list[str]]):
        self.name, self.index = name, index
        position_id, dice = str(row[0]), str(row[1])
        self.player, self.carried = int(row[2]), int(row[3])
        self.full, self.raw = str(row[4]), str(row[5])
        self.variant: GameVariant = variant_named(name)
        self.at: VariantPosition = self.variant.decode_position_id(position_id)
        self.roll = Roll(int(dice[0]), int(dice[1]))
        changes = details.get(str(index))
        start = self.layout()
        self.theirs: list[str] | None = None if changes is None else [
            layout_text(changed_layout(start, change)) for change in changes]

    def layout(self) -> BoardLayout:
        return self.variant.position_layout(self.at)

    def ours(self, options: VariantOptions = DEFAULT_OPTIONS) -> set[str]:
        return {layout_text(self.variant.position_layout(after))
                for after in self.variant.legal_positions(self.at, self.roll, options)}

    def naive(self, rules: NaiveRules) -> set[str]:
        """The plain enumerator's legal turns under ``rules``."""
        board = naive_board(self.variant, rules, self.at)
        return {board_text(_thaw(frozen), rules)
                for frozen in naive_legal(board, rules, X, (self.roll.first, self.roll.second))}

    def partial_plays(self) -> set[str]:
        """Every position reached by playing some of the roll's values in some order
        under VARIANTS.md's rules (the plain enumerator's single moves)."""
        rules = NAIVE_RULES[self.name]
        board = naive_board(self.variant, rules, self.at)
        dice = (self.roll.first,) * 4 if self.roll.is_doublet else (
            self.roll.first, self.roll.second)
        found: dict[tuple[object, ...], tuple[Board, int, int]] = {}
        sequences(board, rules, X, dice, found, 0, 0, set())
        return {board_text(reached, rules) for reached, _, _ in found.values()}


def _thaw(frozen: tuple[Any, ...]) -> Board:
    stacks, bar, pool, off = frozen
    return Board([list(stack) for stack in stacks], dict(bar), dict(pool), dict(off))


def board_text(board: Board, rules: NaiveRules) -> str:
    """The plain enumerator's physical board as a position text, X first."""
    parts = []
    for name in (X, O):
        points, pins = [], []
        for point in range(1, 25):
            stack = board.stacks[absolute(rules, name, point)]
            if name in stack:
                points.append(f"{point}:{stack.count(name)}")
                if is_pinned(stack, name):
                    pins.append(str(point))
        parts.append(f"{','.join(points)};b{board.bar[name]};o{board.off[name]};"
                     f"p{','.join(pins)}")
    return "/".join(parts)


def _off(text: str) -> int:
    return text_layout(text).mover.off


def _mother_pinned_early(text: str) -> bool:
    layout = text_layout(text)
    return 24 in layout.opponent.pins and layout.mover.points.get(24, 0) > 0


def _partial(case: Case) -> bool:
    """Every position Ludii allows is some of the roll played under our rules."""
    assert case.theirs is not None
    return set(case.theirs) <= case.partial_plays()


def no_bear_off(case: Case) -> bool:
    if case.theirs is None:
        return False
    start = case.layout().mover.off
    return any(_off(text) > start for text in case.ours()) and \
        all(_off(text) == start for text in case.theirs) and _partial(case)


def bear_off_cut_short(case: Case) -> bool:
    if case.theirs is None:
        return False
    start = case.layout().mover.off
    return any(_off(text) > start for text in case.ours()) and _partial(case)


def _blocked_bear_off(partial: BoardLayout, end: BoardLayout, dice: set[int]) -> bool:
    """``end`` is ``partial`` with one more checker borne off from a point q below a
    die d while a checker of the mover stands above d (VARIANTS.md 0.4 forbids it)."""
    if side_text(partial.opponent) != side_text(end.opponent) or \
            end.mover.off != partial.mover.off + 1:
        return False
    points = set(partial.mover.points) | set(end.mover.points)
    lower = [point for point in points
             if partial.mover.points.get(point, 0) - end.mover.points.get(point, 0) == 1]
    same = all(partial.mover.points.get(point, 0) == end.mover.points.get(point, 0)
               for point in points if point not in lower)
    return len(lower) == 1 and same and any(
        lower[0] < die and any(point > die for point in partial.mover.points) for die in dice)


def past_blocked_checker(case: Case) -> bool:
    if case.theirs is None:
        return False
    partial = case.partial_plays()
    dice = {case.roll.first, case.roll.second}
    beyond = [text_layout(text) for text in case.theirs if text not in partial]
    return bool(beyond) and all(
        any(_blocked_bear_off(text_layout(text), end, dice) for text in partial)
        for end in beyond)


def mother_pinned_early(case: Case) -> bool:
    return case.theirs is not None and any(
        _mother_pinned_early(text) for text in case.theirs) and _partial(case)


def _fevga_like_ludii(start_table_ban: bool, prime_release: bool) -> NaiveRules:
    return replace(NAIVE_RULES["fevga"], first_checker_until=12,
                   no_full_start_table=start_table_ban, prime_release=prime_release)


def released_at_own_half(case: Case) -> bool:
    return summary(case.ours(OWN_HALF)) == case.full


def start_table_filled(case: Case) -> bool:
    return summary(case.naive(_fevga_like_ludii(False, True))) == case.full


def no_prime_release(case: Case) -> bool:
    return summary(case.naive(_fevga_like_ludii(False, False))) == case.full


KNOWN: dict[str, dict[str, Callable[[Case], bool]]] = {
    "portes": {"bear-off cut short": bear_off_cut_short,
               "bear-off past a blocked checker": past_blocked_checker},
    "plakoto": {"no bear-off": no_bear_off,
                "mother pinned, pinner still on its 24": mother_pinned_early},
    "fevga": {"others freed at the own half": released_at_own_half,
              "no bear-off": no_bear_off,
              "bear-off cut short": bear_off_cut_short,
              "start table filled": start_table_filled,
              "no prime release": no_prime_release},
}
"""Per game, each known difference and how a case of it is recognised, in the order
tried (the first that fits names the case)."""


@cache
def compare(name: str) -> tuple[int, Counter[str], list[str], int, list[Case]]:
    """(cases agreeing, known differences by name, unexplained cases, cases where
    Ludii's raw chains and its full set differ, the excluded cases) for the recorded
    data of ``name``."""
    data = load(f"ludii_{name}")
    agreeing, known, unexplained, raw_differs = 0, Counter[str](), [], 0
    excluded = []
    for index, row in enumerate(data["cases"]):
        case = Case(name, index, row, data["details"])
        raw_differs += bool(case.raw)
        if case.carried:
            known["carried doublet"] += 1
            excluded.append(case)
            continue
        if summary(case.ours()) == case.full:
            agreeing += 1
            continue
        kind = next((kind for kind, test in KNOWN[name].items() if test(case)), None)
        if kind is None:
            unexplained.append(f"{index}: {row[0]} {case.roll.first}-{case.roll.second}")
        else:
            known[kind] += 1
            excluded.append(case)
    return agreeing, known, unexplained, raw_differs, excluded


# Counts from the recorded data; each excluded kind is explained in the module docstring.
@pytest.mark.parametrize(("name", "cases", "excluded", "raw_differs"), [
    ("portes", 3000, {"carried doublet": 45, "bear-off cut short": 150,
                      "bear-off past a blocked checker": 1}, 142),
    ("plakoto", 3000, {"carried doublet": 1, "no bear-off": 7,
                       "mother pinned, pinner still on its 24": 75}, 21),
    ("fevga", 3000, {"carried doublet": 27, "no bear-off": 21, "bear-off cut short": 5,
                     "start table filled": 4}, 93),
])
def test_legal_plays_agree_with_ludii(name: str, cases: int, excluded: dict[str, int],
                                      raw_differs: int) -> None:
    data = load(f"ludii_{name}")

    agreed, known, unexplained, raw, _ = compare(name)

    assert (data["variant"], len(data["cases"])) == (name, cases)
    assert unexplained == []
    assert dict(known) == excluded
    assert agreed == cases - sum(excluded.values())
    # Where Ludii's raw chains stop before the dice are used as far as possible, its
    # full set (VARIANTS.md 0.4 rules 1-2 applied to its chains' dice) is what agrees.
    assert raw == raw_differs


@pytest.mark.parametrize("name", ["portes", "plakoto", "fevga"])
def test_excluded_turns_agree_with_the_plain_enumerator(name: str) -> None:
    # Where Ludii differs by a known rule difference, our legal set is still checked:
    # against the plain enumerator written from VARIANTS.md alone (naive_tables.py).
    excluded = compare(name)[4]

    disagreeing = [case.index for case in excluded
                   if case.naive(NAIVE_RULES[name]) != case.ours()]

    assert len(excluded) > 50
    assert disagreeing == []


def _cases(name: str) -> list[Case]:
    data = load(f"ludii_{name}")
    return [Case(name, index, row, data["details"]) for index, row in enumerate(data["cases"])]


def test_recorded_turns_cover_hits_pins_and_the_first_checker_rule() -> None:
    portes, plakoto, fevga = _cases("portes"), _cases("plakoto"), _cases("fevga")

    on_bar = [case for case in portes if case.layout().mover.bar]
    pinned = [case for case in plakoto
              if case.layout().mover.pins or case.layout().opponent.pins]
    # Fevga: 14 checkers still on the 24 point while the first one has not passed the
    # opponent's start, so only that one may move.
    runner_only = [case for case in fevga
                   if case.layout().mover.points.get(24) == 14
                   and not any(point <= 12 for point in case.layout().mover.points)]

    assert len(on_bar) > 100
    assert len(pinned) > 1000
    assert len(runner_only) > 100


def test_position_changes_round_trip() -> None:
    # Plakoto: the mover plays 24/20 onto the other side's lone checker on its own 5
    # (the mover's 20 in contrary numbering) and pins it.
    start = BoardLayout(SideLayout({24: 15}), SideLayout({24: 14, 5: 1}))
    end = BoardLayout(SideLayout({24: 14, 20: 1}), SideLayout({24: 14, 5: 1}, pins=(5,)))

    change = change_text(start, end)

    assert change == "20:1,24:14/;p5"
    assert layout_text(changed_layout(start, change)) == layout_text(end)


def test_portes_bear_off_past_a_blocked_checker_is_shown_by_a_recorded_turn() -> None:
    # The mover has 8 on its 1 point, 3 on the 2, 3 on the 6 and one off; the other side
    # holds the mover's 3 point (its own 22) with two checkers. 3-4: the 4 plays 6/2; the
    # 3 cannot be played (6/3 is blocked, and with checkers on the 6 point no 3 bears off
    # from below 3, VARIANTS.md 0.4), so the one play is 6/2. Ludii also bears a checker
    # off from the 2 point with the 3.
    case = next(case for case in _cases("portes")
                if layout_text(case.layout()).startswith("1:8,2:3,6:3;b0;o1;p/")
                and (case.roll.first, case.roll.second) == (3, 4)
                and case.layout().opponent.points.get(22) == 2)
    other = side_text(case.layout().opponent)

    assert case.ours() == {f"1:8,2:4,6:2;b0;o1;p/{other}"}
    assert case.theirs == [f"1:8,2:3,6:2;b0;o2;p/{other}"]
    assert [kind for kind, test in KNOWN["portes"].items() if test(case)] == [
        "bear-off past a blocked checker"]


def _recorded(name: str, start: str, dice: tuple[int, int]) -> Case:
    return next(case for case in _cases(name)
                if layout_text(case.layout()) == start
                and (case.roll.first, case.roll.second) == dice)


def test_plakoto_no_bear_off_is_shown_by_a_recorded_turn() -> None:
    # The mover has 10 on its 1 point, 4 on the 2 and one on the 9; 4-2. 9/5 brings the
    # last checker home, and the 2 may then bear one off from the 2 point (VARIANTS.md
    # 11: all 15 home, none pinned). Ludii has no bear-off, so only 9/7/3 (or 9/5/3) is left.
    other = "1:14,23:1;b0;o0;p23"
    case = _recorded("plakoto", f"1:10,2:4,9:1;b0;o0;p/{other}", (4, 2))

    assert f"1:10,2:3,5:1;b0;o1;p/{other}" in case.ours()
    assert case.theirs == [f"1:10,2:4,3:1;b0;o0;p/{other}"]
    assert [kind for kind, test in KNOWN["plakoto"].items() if test(case)] == ["no bear-off"]


def test_plakoto_mother_pin_ending_the_game_is_shown_by_a_recorded_turn() -> None:
    # 4-5: 5/1 lands on the other side's last checker on its own 24 (the mover's 1 point)
    # and pins its mother. The mover still has four checkers on its own 24, so under
    # VARIANTS.md 11 the game goes on and the 5 is played too (8/3). Ludii ends the game
    # at the pin, the 5 unplayed.
    start = ("2:2,3:1,4:2,5:2,8:1,11:1,19:1,20:1,24:4;b0;o0;p11,19,20/"
             "2:1,4:5,5:2,6:2,9:1,14:1,18:1,19:1,24:1;b0;o0;p")
    pinned = "2:1,4:5,5:2,6:2,9:1,14:1,18:1,19:1,24:1;b0;o0;p24"
    played_on = f"1:1,2:2,3:2,4:2,5:1,11:1,19:1,20:1,24:4;b0;o0;p11,19,20/{pinned}"
    stopped = f"1:1,2:2,3:1,4:2,5:1,8:1,11:1,19:1,20:1,24:4;b0;o0;p11,19,20/{pinned}"
    case = _recorded("plakoto", start, (4, 5))

    assert played_on in case.ours()
    assert stopped not in case.ours()
    assert case.theirs is not None
    assert stopped in case.theirs
    assert [kind for kind, test in KNOWN["plakoto"].items() if test(case)] == [
        "mother pinned, pinner still on its 24"]
