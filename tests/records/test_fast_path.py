"""The compiled replay of clean records (``_fastmat``) agrees with the Python path.

The rule it must keep: the compiled path returns a report only for a record the Python
reader and replay find completely clean (no error, no warning), and then the very
report the Python path gives. Everything else it leaves to the Python path (returns
``None``). The tests check that rule on every corpus record, on thousands of corpus
records changed on purpose, on random matches written in every notation the reader
accepts, and on random bytes.

Without the extension (no C compiler at install time) these tests skip, or fail when
TOURNEY_REQUIRE_ORACLES is set, as CI sets it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_data import GNUBG, GNUBG_FILES, RECORDS

from tourney.rules import Position, Roll, Side, legal_plays
from tourney.rules.moves import Move
from tourney.rules.records import (
    DEFAULT_MAX_BYTES,
    MatchRules,
    RecordReport,
    compiled,
    format_mat,
    read_mat,
    replay,
    validate_mat,
)
from tourney.rules.records.compiled import CompiledReport

RULE_CHOICES = (None, MatchRules(holland=True), MatchRules(crawford=False),
                MatchRules(expect_finished=True), MatchRules(crawford=True, holland=False))


@pytest.fixture(autouse=True)
def compiled_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test here needs the extension, switched on whatever the environment says."""
    if not compiled.is_compiled_available():
        reason = "the compiled replay (tourney/rules/records/_fastmat.c) is not built"
        if os.environ.get("TOURNEY_REQUIRE_ORACLES"):
            pytest.fail(f"{reason}, and TOURNEY_REQUIRE_ORACLES is set")
        pytest.skip(reason)
    monkeypatch.setattr(compiled, "enabled", True)


def _fast(data: bytes | str, rules: MatchRules | None = None) -> RecordReport | None:
    return compiled.replay_compiled(data, rules, DEFAULT_MAX_BYTES, None)


def _python(data: bytes | str, rules: MatchRules | None = None) -> RecordReport:
    return replay(read_mat(data), rules)


def _is_clean(report: RecordReport) -> bool:
    return report.ok and not report.warnings


def _assert_same(fast: RecordReport, python: RecordReport, *, with_record: bool = True) -> None:
    assert fast.errors == python.errors == ()
    assert fast.warnings == python.warnings == ()
    assert fast.games == python.games
    assert fast.final_score == python.final_score
    assert fast.winner == python.winner
    assert fast.finished == python.finished
    assert fast.players == python.players
    assert fast.match_length == python.match_length
    assert fast.winner_name == python.winner_name
    assert fast.to_json("f.mat") == python.to_json("f.mat")
    if with_record:
        assert fast.record == python.record
        assert fast == python


@dataclass
class Tally:
    """How a batch of records fared on both paths."""

    total: int = 0
    python_rejected: int = 0
    python_clean: int = 0
    fast_accepted: int = 0

    def check(self, data: bytes | str, rules: MatchRules | None = None) -> None:
        """Both paths on one record: the fast one accepts only clean records, identically."""
        fast = _fast(data, rules)
        python = _python(data, rules)
        self.total += 1
        clean = _is_clean(python)
        self.python_clean += clean
        self.python_rejected += not python.ok
        if fast is not None:
            self.fast_accepted += 1
            assert clean, (data, python.errors, python.warnings)
            _assert_same(fast, python, with_record=False)


# --- the corpus -------------------------------------------------------------------------


def test_corpus_has_records_to_compare() -> None:
    assert len(sorted(RECORDS.rglob("*.mat"))) >= 40


@pytest.mark.parametrize("path", sorted(RECORDS.rglob("*.mat")), ids=lambda p: p.stem)
def test_corpus_record_is_accepted_with_the_python_report(path: Path) -> None:
    data = path.read_bytes()
    python = _python(data)

    fast = _fast(data)

    # Every gnubg record is clean, so the fast path must take each one.
    assert _is_clean(python)
    assert isinstance(fast, CompiledReport)
    _assert_same(fast, python)


def test_validate_mat_uses_the_compiled_path_for_a_clean_record() -> None:
    data = GNUBG_FILES[0].read_bytes()

    report = validate_mat(data)

    assert isinstance(report, CompiledReport)
    assert report == _python(data)


def test_compiled_report_reads_its_record_lazily_and_writes_back() -> None:
    text = GNUBG_FILES[3].read_text()

    report = validate_mat(text)

    assert isinstance(report, CompiledReport)
    assert report._record is None
    assert format_mat(report) == text
    assert report.record == read_mat(text)
    assert report.record is report.record


def test_validate_mat_without_the_extension_runs_python(monkeypatch: pytest.MonkeyPatch) -> None:
    data = GNUBG_FILES[1].read_bytes()
    monkeypatch.setattr(compiled, "_ACCEPT", None)

    report = validate_mat(data)

    assert type(report) is RecordReport
    assert report == _python(data)


def test_switching_the_compiled_path_off_runs_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "enabled", False)

    report = validate_mat(GNUBG_FILES[2].read_bytes())

    assert type(report) is RecordReport


def test_rules_the_compiled_path_does_not_know_go_to_python() -> None:
    data = GNUBG_FILES[0].read_bytes()

    assert _fast(data, MatchRules(variant="hypergammon")) is None
    assert _fast(data, MatchRules(variant="no such variant")) is None
    assert _fast(data, MatchRules(variant="standard")) is not None


def test_size_limit_and_latin1_go_to_python() -> None:
    data = GNUBG_FILES[0].read_bytes()

    assert compiled.replay_compiled(data, None, len(data) - 1, None) is None
    assert compiled.replay_compiled(data, None, DEFAULT_MAX_BYTES, DEFAULT_MAX_BYTES + 1) is None
    assert _fast(data.replace(b"GnubgA", b"Gnubg\xe9")) is None


def test_bom_crlf_and_non_ascii_names_are_accepted() -> None:
    text = GNUBG_FILES[5].read_text().replace("GnubgA", "Kévin Ünger")
    data = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")

    fast = _fast(data)

    assert fast is not None
    assert fast.players[0] == "Kévin Ünger"
    _assert_same(fast, _python(data))


@pytest.mark.parametrize("rating", [", 1500", ", 1523.75", ",00000000001500", ", 15x", ",", ", 1."])
def test_rating_suffixes_on_score_lines_are_read_as_python_reads_them(rating: str) -> None:
    text = GNUBG_FILES[4].read_text().replace(" GnubgB : ", f" GnubgB{rating} : ")

    fast = _fast(text)

    assert fast is not None
    _assert_same(fast, _python(text))


# --- clearly illegal records ------------------------------------------------------------


def _corpus_text(name: str) -> list[str]:
    return (GNUBG / name).read_text().split("\n")


def _edited(lines: list[str], index: int, old: str, new: str) -> str:
    assert old in lines[index]
    return "\n".join([*lines[:index], lines[index].replace(old, new, 1), *lines[index + 1:]])


def _inserted(lines: list[str], index: int, *new: str) -> str:
    return "\n".join([*lines[:index], *new, *lines[index:]])


def _illegal_records() -> Iterator[tuple[str, str]]:
    lines = _corpus_text("gnubg_L03_s1001.mat")
    # X's 9 point is empty at the start.
    yield "move-from-empty-point", _edited(lines, 9, "6/4* 8/4", "9/5 8/4")
    yield "wrong-wins", _edited(lines, 40, "Wins 4", "Wins 2")
    yield "false-dance", _edited(lines, 12, "42: 8/6 6/2*", "42:")
    yield "bar-first", _edited(lines, 9, "25/23 13/11", "24/22 13/11")
    yield "die-mismatch", _edited(lines, 10, "8/5", "8/4")
    yield "opening-doublet", _edited(lines, 8, "32:", "33:")
    yield "score-line", _edited(lines, 7, ": 0", ": 1")
    yield "unfinished", "\n".join(lines[:39])
    yield "comment-in-game", _inserted(lines, 20, "; a note")
    crawford = _corpus_text("gnubg_L03_s1007.mat")
    # Game 2 of this 3-point match is the Crawford game (score 0-2).
    yield "crawford-double", _inserted(crawford, 86, " 35)  Doubles => 2                Takes")
    one_point = _corpus_text("gnubg_L01_s1042.mat")
    yield "one-point-double", _inserted(one_point, 10, "  3)  Doubles => 2                Takes")
    yield "game-after-match", _inserted(
        one_point, 41, " Game 2", " GnubgA : 0                     GnubgB : 1",
        "  1) 31: 8/5 6/5", "      Wins 1 point", "")
    yield "variation", _inserted(lines, 0, '; [Variation "NackGammon"]')


@pytest.mark.parametrize(("name", "text"), list(_illegal_records()),
                         ids=[name for name, _ in _illegal_records()])
def test_fast_path_leaves_an_unclean_record_to_python(name: str, text: str) -> None:
    fast = _fast(text)

    assert fast is None
    assert not _is_clean(_python(text))


def test_money_sessions_are_left_to_python() -> None:
    text = _edited(_corpus_text("gnubg_L03_s1001.mat"), 4, " 3 point", " 0 point")

    assert _fast(text) is None
    assert _python(text).match_length == 0


# --- mutations of corpus records --------------------------------------------------------

Mutator = Callable[[random.Random, list[str]], list[str]]


def _pick(rng: random.Random, lines: list[str], accept: Callable[[str], bool]) -> int | None:
    choices = [index for index, line in enumerate(lines) if accept(line)]
    return rng.choice(choices) if choices else None


def _is_move_line(line: str) -> bool:
    return ")" in line[:6]


def _replace_at(lines: list[str], index: int, new: str) -> list[str]:
    return [*lines[:index], new, *lines[index + 1:]]


def _change_die(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: ":" in line and _is_move_line(line))
    if index is None:
        return lines
    line = lines[index]
    spots = [i for i in range(len(line) - 2) if line[i:i + 2].isdigit() and line[i + 2] == ":"]
    spot = rng.choice(spots) + rng.randrange(2)
    return _replace_at(lines, index, line[:spot] + rng.choice("1234560") + line[spot + 1:])


def _change_point(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: "/" in line)
    if index is None:
        return lines
    line = lines[index]
    spots = [i for i, c in enumerate(line) if c.isdigit() and "/" in line[max(0, i - 2):i + 3]]
    spot = rng.choice(spots)
    return _replace_at(lines, index, line[:spot] + rng.choice("0123456789") + line[spot + 1:])


def _drop_line(rng: random.Random, lines: list[str]) -> list[str]:
    index = rng.randrange(len(lines))
    return lines[:index] + lines[index + 1:]


def _duplicate_line(rng: random.Random, lines: list[str]) -> list[str]:
    index = rng.randrange(len(lines))
    return lines[:index + 1] + lines[index:]


def _swap_columns(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: _is_move_line(line) and len(line) > 34)
    if index is None:
        return lines
    line = lines[index]
    left, right = line[5:33], line[33:]
    return _replace_at(lines, index, f"{line[:5]}{right.strip():<28} {left.strip()}")


CUBE_WORDS = ("Doubles => 2", "Takes", "Drops", "Doubles => 4", "Doubles", "Doubles => 8")


def _insert_cube_action(rng: random.Random, lines: list[str]) -> list[str]:
    index = rng.randrange(len(lines) + 1)
    word = rng.choice(CUBE_WORDS)
    new = f" 99)  {word}" if rng.random() < 0.5 else f" 99){' ' * 29}{word}"
    return [*lines[:index], new, *lines[index:]]


def _append_cube_action(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, _is_move_line)
    if index is None:
        return lines
    return _replace_at(lines, index, f"{lines[index]:<33}{rng.choice(CUBE_WORDS)}")


def _change_wins(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: "Wins" in line)
    if index is None:
        return lines
    line = lines[index]
    number = rng.choice([0, 1, 2, 3, 4, 6, 8, 12, 16])
    before, _, after = line.partition("Wins ")
    rest = after.split(" ", 1)[1] if " " in after else "points"
    if rng.random() < 0.3:
        before = " " * 34 if len(before) < 16 else "      "
    return _replace_at(lines, index, f"{before}Wins {number} {rest}")


def _change_score_line(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: line.count(":") == 2 and not _is_move_line(line))
    if index is None:
        return lines
    line = lines[index]
    spots = [i for i, c in enumerate(line) if c.isdigit()]
    spot = rng.choice(spots)
    return _replace_at(lines, index, line[:spot] + rng.choice("0123") + line[spot + 1:])


def _delete_star(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: "*" in line)
    if index is None:
        return lines
    return _replace_at(lines, index, lines[index].replace("*", "", 1))


def _add_star(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: "/" in line)
    if index is None:
        return lines
    line = lines[index]
    ends = [i + 1 for i in range(len(line) - 1) if line[i].isdigit() and not line[i + 1].isdigit()
            and "/" in line[max(0, i - 2):i + 1]]
    if not ends:
        return lines
    spot = rng.choice(ends)
    return _replace_at(lines, index, line[:spot] + "*" + line[spot:])


def _truncate(rng: random.Random, lines: list[str]) -> list[str]:
    text = "\n".join(lines)
    return text[:rng.randrange(len(text))].split("\n")


def _change_length(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: "point match" in line)
    if index is None:
        return lines
    return _replace_at(lines, index, f" {rng.choice([0, 1, 2, 3, 5, 7, 9, 11, 25])} point match")


TAGS = ('[Crawford "Off"]', '[Crawford "On"]', '[Holland "On"]', '[Holland "Off"]',
        '[Variation "Backgammon"]', '[Variation "NackGammon"]', '[Variation "HyperGammon (3)"]',
        '[CRAWFORD "no"]', '[ Holland "yes" ]', '[Variation "back gammon"]')


def _add_tag(rng: random.Random, lines: list[str]) -> list[str]:
    return [f"; {rng.choice(TAGS)}", *lines]


def _change_play_notation(rng: random.Random, lines: list[str]) -> list[str]:
    index = _pick(rng, lines, lambda line: "/" in line)
    if index is None:
        return lines
    line = lines[index]
    changes = [("/0", "/off"), ("25/", "bar/"), (" ", ","), ("/", "/"), ("/off", "/o")]
    old, new = rng.choice(changes)
    return _replace_at(lines, index, line.replace(old, new, 1).upper()
                       if rng.random() < 0.2 else line.replace(old, new, 1))


MUTATORS: tuple[Mutator, ...] = (
    _change_die, _change_point, _drop_line, _duplicate_line, _swap_columns,
    _insert_cube_action, _append_cube_action, _change_wins, _change_score_line, _delete_star,
    _add_star, _truncate, _change_length, _add_tag, _change_play_notation,
)
SOURCES = [path.read_text() for path in GNUBG_FILES]


def _mutation(seed: int) -> tuple[bytes, MatchRules | None]:
    """One deterministic mutation: one to three changes to a corpus record, maybe junk bytes."""
    rng = random.Random(seed)
    lines = rng.choice(SOURCES).split("\n")
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        lines = rng.choice(MUTATORS)(rng, lines)
    data = bytearray("\n".join(lines).encode("utf-8"))
    if rng.random() < 0.05:
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data) + 1)
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
    return bytes(data), rng.choice(RULE_CHOICES)


def _run_mutations(seeds: range) -> Tally:
    tally = Tally()
    for seed in seeds:
        data, rules = _mutation(seed)
        tally.check(data, rules)
    return tally


def test_mutated_corpus_records_agree_on_both_paths() -> None:
    tally = _run_mutations(range(2500))

    # The suite must exercise both sides: many records Python rejects, and many changed
    # records that stay clean (a deleted "*", another notation), which the fast path takes.
    assert tally.python_rejected >= tally.total // 2
    assert tally.fast_accepted >= tally.total // 10
    assert tally.fast_accepted >= 0.9 * tally.python_clean


@pytest.mark.slow
def test_many_mutated_corpus_records_agree_on_both_paths() -> None:
    tally = _run_mutations(range(2500, 40_000))

    assert tally.python_rejected >= tally.total // 2
    assert tally.fast_accepted >= 0.9 * tally.python_clean


# --- random matches in every notation ---------------------------------------------------

COLUMN = 28


def _point_word(point: int, rng: random.Random) -> str:
    if point == 25 and rng.random() < 0.3:
        return rng.choice(("bar", "b", "BAR"))
    if point == 0 and rng.random() < 0.3:
        return rng.choice(("off", "o", "Off"))
    return str(point)


def _write_play(moves: tuple[Move, ...], rng: random.Random) -> str:
    """A legal play in one of the many ways players and programs write it."""
    moves = list(moves)
    if rng.random() < 0.2:
        rng.shuffle(moves)
    chains: list[list[Move]] = []
    for move in moves:
        if chains and chains[-1][-1].destination == move.origin and rng.random() < 0.5:
            chains[-1].append(move)
        else:
            chains.append([move])
    tokens = []
    for chain in chains:
        points = [_point_word(chain[0].origin, rng)]
        for number, move in enumerate(chain):
            last = number == len(chain) - 1
            if not last and not move.hit and rng.random() < 0.5:
                continue  # 13/7 for 13/9/7: the intermediate point left out
            star = "*" if move.hit != (rng.random() < 0.05) else ""
            points.append(_point_word(move.destination, rng) + star)
        tokens.append("/".join(points))
    if len(tokens) >= 2 and rng.random() < 0.3:
        counted: list[str] = []
        for token in tokens:
            if counted and counted[-1].split("(")[0] == token and rng.random() < 0.7:
                repeat = int(counted[-1][-2]) + 1 if counted[-1].endswith(")") else 2
                counted[-1] = f"{token}({repeat})"
            else:
                counted.append(token)
        tokens = counted
    separator = ", " if rng.random() < 0.05 else " "
    return separator.join(tokens)


SLIPS = ("other-point", "die-left", "false-dance", "opening-doublet", "resignation",
         "double", "wins")


@dataclass
class Writer:
    """Writes one random match; a third of the matches get one slip somewhere."""

    rng: random.Random
    slip: str | None
    slip_at: int
    plays: int = 0

    def slips_now(self, kind: str) -> bool:
        """Whether the slip of this match, of this kind, happens at this play."""
        return self.slip == kind and self.plays >= self.slip_at


def _random_match(seed: int) -> tuple[str, MatchRules | None]:
    """A random match to 1-7 points: legal plays in varied notation, cube actions,
    resignations, and in a third of the matches one slip (an illegal play or double, a
    false dance, a wrong Wins line)."""
    rng = random.Random(seed)
    writer = Writer(rng, rng.choice(SLIPS) if rng.random() < 0.35 else None, rng.randrange(150))
    length = rng.choice((1, 3, 5, 7))
    rules = rng.choice(RULE_CHOICES)
    names = ("Ann Lee", "Bo")
    out = [' ; [Event "random"]', "", f" {length} point match", ""]
    score = [0, 0]
    crawford_played = False
    crawford_rule = rules is None or rules.crawford is not False
    holland_rule = rules is not None and bool(rules.holland)
    number = 0
    while max(score) < length and number < 12:
        number += 1
        crawford = (crawford_rule and length > 1 and not crawford_played
                    and (score[0] == length - 1) != (score[1] == length - 1))
        holland = holland_rule and crawford_played and not crawford
        crawford_played = crawford_played or crawford
        out += [f" Game {number}", f" {names[0]} : {score[0]}{' ' * 20}{names[1]} : {score[1]}"]
        actions, winner, points = _random_game(writer, length == 1 or crawford, holland)
        out += _layout(actions)
        if writer.slips_now("wins"):
            points += 1
            writer.slip = None
        out.append(("      " if winner is Side.X else " " * 34)
                   + f"Wins {points} point{'s' if points != 1 else ''}")
        out.append("")
        score[winner] += points
    return "\n".join(out), rules


def _random_game(writer: Writer, no_cube: bool,
                 holland: bool) -> tuple[list[tuple[Side, str]], Side, int]:
    rng = writer.rng
    position = Position.initial()  # seen from the side on roll
    side = rng.choice((Side.X, Side.O))
    cube, owner = 1, None
    rolls = [0, 0]
    actions: list[tuple[Side, str]] = []
    first = True
    while True:
        writer.plays += 1
        may_double = (not no_cube and owner in (None, side)
                      and not (holland and min(rolls) < 2))
        if not first and rng.random() < 0.04 and (may_double or writer.slips_now("double")):
            if not may_double:
                writer.slip = None
            actions.append((side, f"Doubles => {cube * 2}"))
            if rng.random() < 0.3:
                actions.append((side.opposite, "Drops"))
                return actions, side, cube
            actions.append((side.opposite, "Takes"))
            cube, owner = cube * 2, side.opposite
        if rng.random() < 0.01 or writer.slips_now("resignation"):
            level = 4 if writer.slips_now("resignation") else rng.choice((1, 2, 3))
            return actions, side.opposite, cube * level
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while first and dice[0] == dice[1] and not writer.slips_now("opening-doublet"):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        first = False
        rolls[side] += 1
        roll = Roll(*dice)
        play = rng.choice(legal_plays(position, roll))
        if not play.moves:
            written = rng.choice(("", "", "Cannot Move"))
        elif writer.slips_now("false-dance"):
            written, writer.slip = "", None
        elif writer.slips_now("other-point"):
            written, writer.slip = _write_play(play.moves, rng).replace("/", "/1", 1), None
        elif writer.slips_now("die-left") and len(play.moves) > 1:
            written, writer.slip = _write_play(play.moves[:-1], rng), None
        else:
            written = _write_play(play.moves, rng)
        actions.append((side, f"{dice[0]}{dice[1]}: {written}"))
        moved = position
        for move in play.moves:
            moved = _apply(moved, move)
        if not any(moved.mover[1:]):
            loser = moved.opponent
            level = 1 if loser[0] else (3 if loser[25] or any(loser[19:25]) else 2)
            return actions, side, cube * level
        position = moved.turned()
        side = side.opposite


def _apply(position: Position, move: Move) -> Position:
    mover, opponent = list(position.mover), list(position.opponent)
    mover[move.origin] -= 1
    mover[move.destination] += 1
    if move.hit:
        opponent[25 - move.destination] -= 1
        opponent[25] += 1
    return Position(tuple(mover), tuple(opponent))


def _layout(actions: list[tuple[Side, str]]) -> list[str]:
    lines: list[str] = []
    index = 0
    while index < len(actions):
        side, text = actions[index]
        left, right = "", ""
        if side is Side.X:
            left = text
            index += 1
            if index < len(actions) and actions[index][0] is Side.O:
                right = actions[index][1]
                index += 1
        else:
            right = text
            index += 1
        lines.append(f"{len(lines) + 1:3d}) {left:<{COLUMN}} {right}".rstrip())
    return lines


def test_random_match_writer_makes_valid_records() -> None:
    clean = sum(_is_clean(_python(*_random_match(seed))) for seed in range(60))

    assert clean >= 30


def _run_random_matches(seeds: range) -> Tally:
    tally = Tally()
    for seed in seeds:
        text, rules = _random_match(seed)
        tally.check(text, rules)
    return tally


def test_random_matches_agree_on_both_paths() -> None:
    tally = _run_random_matches(range(100))

    assert tally.fast_accepted >= 0.9 * tally.python_clean
    assert tally.python_clean >= tally.total // 4
    assert tally.python_rejected >= tally.total // 10


@pytest.mark.slow
def test_many_random_matches_agree_on_both_paths() -> None:
    tally = _run_random_matches(range(100, 5_000))

    assert tally.fast_accepted >= 0.9 * tally.python_clean


# --- fuzzing ------------------------------------------------------------------------------

TOKENS = [" Game 1\n", " 3 point match\n", " 1 point match\n", "Doubles => 2", "Takes", "Drops",
          "Wins 1 point", "Wins 2 points", "33: ???", "bar/22", "6/off", "13/7*/4", "8/7(2)",
          "\r\n", "; [Crawford \"Off\"]\n", "Cannot Move", " A : 0   B : 0\n", "  1) 31: 8/5 6/5",
          "                                 ", "\n", "25/0", "\u00a0", "é", "\u2028", ":", "\x00",
          "  2) 64: 24/18 13/9", "      Wins 1 point\n", "\ud800"]
SEEDS = [path.read_text() for path in GNUBG_FILES[:8]]


@st.composite
def texts(draw: st.DrawFn) -> str:
    """Corpus records with random cuts, insertions and tokens, or pure noise."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(st.text(max_size=300))
    if kind == 1:
        return "".join(draw(st.lists(st.sampled_from(TOKENS), max_size=40)))
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        choice = draw(st.integers(0, 2))
        if choice == 0:
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
        elif choice == 1:
            text = text[:at] + text[at + draw(st.integers(1, 30)):]
        else:
            text = text[:at] + draw(st.text(max_size=8)) + text[at:]
    return text


def _check_text(text: str, crawford: int, holland: int) -> None:
    accept = compiled._ACCEPT
    assert accept is not None
    accepted = accept(text, crawford, holland)
    if accepted is None:
        return
    rules = MatchRules(crawford=None if crawford < 0 else bool(crawford),
                       holland=None if holland < 0 else bool(holland))
    python = _python(text, rules)
    assert _is_clean(python)
    fast = _fast(text, rules)
    assert fast is not None
    _assert_same(fast, python)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), st.integers(-3, 3), st.integers(-1, 1))
def test_fuzzed_text_never_crashes_and_agrees(text: str, crawford: int, holland: int) -> None:
    _check_text(text, crawford, holland)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_crash_and_agree(data: bytes) -> None:
    fast = _fast(data)

    if fast is not None:
        _assert_same(fast, _python(data))


@pytest.mark.slow
@settings(max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), st.integers(-3, 3), st.integers(-1, 1))
def test_fuzzed_text_never_crashes_and_agrees_long(text: str, crawford: int,
                                                   holland: int) -> None:
    _check_text(text, crawford, holland)
