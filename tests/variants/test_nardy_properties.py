"""Long nardy properties, and a deliberately naive enumerator that cross-checks the fast
move generator on thousands of random positions."""

from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.rules import Roll
from tourney.rules.nardy import (
    HEAD,
    NardyPosition,
    NardyRules,
    check_nardy_play,
    legal_nardy_play_map,
    legal_nardy_positions,
    nardy_winning_level,
    opposite_point,
)


def _naive_block(mine: tuple[int, ...], theirs: tuple[int, ...], strict: bool) -> bool:
    """Any six opponent-numbered points in a row all mine, with nobody past them?"""
    for low in range(1, 20):
        window = range(low, low + 6)
        if all(mine[opposite_point(q)] for q in window):
            past = [q for q in range(0, low) if theirs[q]]
            home = [q for q in range(0, 7) if theirs[q]]
            if not (home if strict else past):
                return True
    return False


def _naive_results(
    position: NardyPosition, roll: Roll, strict: bool = False
) -> set[tuple[int, ...]]:
    """Every die order, every checker, every step checked from the rules' words."""
    first = position.mover[HEAD] == 15
    allowed = 1
    if first and roll.is_doublet and roll.first in (6, 4, 3):
        stops = list(range(HEAD - roll.first, 12, -roll.first))
        if all(not position.opponent_at(p) for p in stops) and position.opponent_at(12):
            allowed = 2
    theirs = position.opponent
    finals: dict[int, set[tuple[int, ...]]] = {0: {position.mover}}
    high_only: set[tuple[int, ...]] = set()
    visited: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()

    def walk(mine: tuple[int, ...], dice: tuple[int, ...], used: int, left_head: int,
             first_die: int | None) -> None:
        if not dice or (mine, dice, left_head) in visited:
            return
        visited.add((mine, dice, left_head))
        die = dice[0]
        for origin in range(1, 25):
            if not mine[origin] or (origin == HEAD and left_head >= allowed):
                continue
            target = origin - die
            if target >= 1:
                if theirs[opposite_point(target)]:
                    continue
            else:
                if any(mine[7:25]):
                    continue
                if target < 0 and any(mine[origin + 1:7]):
                    continue
                target = 0
            moved = list(mine)
            moved[origin] -= 1
            moved[target] += 1
            after = tuple(moved)
            finals.setdefault(used + 1, set()).add(after)
            if used == 0 and die == roll.high:
                high_only.add(after)
            walk(after, dice[1:], used + 1, left_head + (origin == HEAD), first_die or die)

    for order in set(permutations(roll.moves)):
        walk(position.mover, order, 0, 0, None)
    for used in sorted(finals, reverse=True):
        legal = {m for m in finals[used] if used == 0 or not _naive_block(m, theirs, strict)}
        if legal:
            if used == 1 and not roll.is_doublet and legal & high_only:
                return legal & high_only
            return legal
    return {position.mover}


def _random_position(rng: random.Random, turns: int) -> NardyPosition:
    position = NardyPosition.initial()
    for _ in range(turns):
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        position = rng.choice(sorted(legal_nardy_positions(position, roll),
                                      key=lambda p: (p.mover, p.opponent)))
        if not any(position.mover[1:]):
            return position
        position = position.turned()
    return position


def test_fast_generator_agrees_with_naive_enumerator_on_3000_positions() -> None:
    rng = random.Random(8)
    compared, found = 0, []
    position = NardyPosition.initial()
    while compared < 3000:
        # Every turn of random games is a sample: positions from the opening to the end.
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        strict = compared % 5 == 0
        results = legal_nardy_positions(position, roll, rules=NardyRules(strict_block=strict))
        if {p.mover for p in results} != _naive_results(position, roll, strict):
            found.append(f"{position.to_id()} {roll} strict={strict}")
        compared += 1
        position = rng.choice(sorted(results, key=lambda p: (p.mover, p.opponent)))
        position = NardyPosition.initial() if not any(position.mover[1:]) else position.turned()
    assert found == []


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 120), st.integers(1, 6), st.integers(1, 6))
def test_every_legal_play_keeps_the_rules(seed: int, turns: int, d1: int, d2: int) -> None:
    position = _random_position(random.Random(seed), turns)
    if not any(position.mover[1:]) or not any(position.opponent[1:]):
        return
    roll = Roll(d1, d2)
    allowed = 2 if position.is_first_roll() and roll.is_doublet and d1 in (6, 4, 3) else 1

    for after, play in legal_nardy_play_map(position, roll).items():
        # Conservation: fifteen a side; the opponent untouched (no hitting).
        assert sum(after.mover) == 15
        assert after.opponent == position.opponent
        # No landing on an opposing checker: no point shared.
        assert all(not (after.mover[p] and after.opponent_at(p)) for p in range(1, 25))
        # Head rule.
        assert position.mover[HEAD] - after.mover[HEAD] <= allowed
        # Never a final six-block without a checker ahead (the position may carry one
        # made legal earlier; a new play never ends in an unlawful one).
        assert not _naive_block(after.mover, after.opponent, False) or after == position
        # The play it came with is accepted by the checker and reaches it.
        assert check_nardy_play(position, roll, play) == after


def test_random_games_play_to_the_end_without_breaking_a_rule() -> None:
    rng = random.Random(3)
    finished = 0
    for _ in range(60):
        position = NardyPosition.initial()
        for _turn in range(400):
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_nardy_play_map(position, roll)
            after, play = rng.choice(sorted(plays.items(), key=lambda item: item[0].mover))
            assert check_nardy_play(position, roll, play) == after
            if nardy_winning_level(after) is not None:
                finished += 1
                break
            position = after.turned()
    assert finished == 60
