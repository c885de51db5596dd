"""Writing a replayed match record back to ``.mat`` text exactly as gnubg exports it.

Terminology: a *half* is one player's action on a move line. gnubg lays halves out by
their count within the game, not by who made them: even halves open a numbered line
(``%3d) `` then the text padded to 27 characters and a space), odd halves end it. A
valid record alternates players, so the count and the column agree. Plays are written
one die per step, points as numbers (25 the bar, 0 off), a ``*`` after the first step
that lands on a point where the opponent had a checker before the play, and a space
after each of the first three steps (MAT_FORMAT §4.3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tourney.rules.board import BAR, OFF, Position, Side
from tourney.rules.dice import Roll
from tourney.rules.game import GameEnd
from tourney.rules.moves import Move, Play, check_play, legal_play_map
from tourney.rules.records.model import ActionKind, GameRecord, PlayForm
from tourney.rules.records.replay import GameResult, RecordReport
from tourney.rules.records.summary import GameSummary, MatchHeader, cube_actions

_DATE = re.compile(r"\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})\s*")
_KNOWN_TAGS = frozenset({
    "site", "event", "round", "eventdate", "variation", "transcriber", "eventtime",
    "unrated", "player 1", "player 2", "player 1 elo", "player 2 elo", "match id",
    "cubelimit", "crawford", "jacoby", "beaver",
})
"""Tags gnubg reads or deliberately ignores; any other tag becomes comment text."""
_LEFT_WINS = "      "
_RIGHT_WINS = " " * 34


def _points(n: int) -> str:
    return f"Wins {n} point{'' if n == 1 else 's'}"


def single_die_steps(position: Position, roll: Roll, play: Play) -> tuple[Move, ...]:
    """The play as one move per die, in the written order where it already is so.

    ``play`` must be legal in ``position`` with ``roll``.

    >>> from tourney.rules.moves import parse_play
    >>> [str(m) for m in single_die_steps(Position.initial(), Roll(6, 1), parse_play("13/7 8/7"))]
    ['13/7', '8/7']
    """
    after = check_play(position, roll, play)
    dice = list(roll.moves)
    steps: list[Move] = []
    mine = list(position.mover)
    for move in play.moves:
        distance = move.origin - move.destination
        if distance in dice:
            die = distance
        elif move.destination == OFF and any(d > distance for d in dice):
            die = min(d for d in dice if d > distance)
        else:
            break
        if not mine[move.origin]:
            break
        dice.remove(die)
        mine[move.origin] -= 1
        mine[move.destination] += 1
        steps.append(Move(move.origin, move.destination))
    else:
        if tuple(mine) == after.mover:
            return tuple(steps)
    return legal_play_map(position, roll)[after].moves


def format_steps(position: Position, steps: tuple[Move, ...]) -> str:
    """Single-die steps as gnubg writes them, hit marks taken from ``position``.

    >>> format_steps(Position.initial(), (Move(13, 11), Move(11, 10)))
    '13/11 11/10 '
    """
    parts = []
    for index, move in enumerate(steps):
        hit = (
            move.destination != OFF
            and position.opponent[BAR - move.destination] > 0
            and all(earlier.destination != move.destination for earlier in steps[:index])
        )
        parts.append(f"{move.origin}/{move.destination}{'*' if hit else ''}")
        if index < 3:
            parts.append(" ")
    return "".join(parts)


def _header(report: RecordReport) -> list[str]:
    record = report.record
    out = []
    for tag in ("Site", "Event", "Round"):
        value = record.tag(tag)
        if value is not None:
            out.append(f'; [{tag} "{value}"]\n')
    date = _DATE.fullmatch(record.tag("EventDate") or "")
    if date and int(date.group(1)) > 1900:
        year, month, day = (int(part) for part in date.groups())
        out.append(f'; [EventDate "{year:4d}.{month:02d}.{day:02d}"]\n')
    variation = record.tag("Variation")
    if variation and variation.strip().lower() != "backgammon":
        out.append(f'; [Variation "{variation}"]\n')
    transcriber = record.tag("Transcriber")
    if transcriber is not None:
        out.append(f'; [Transcriber "{transcriber}"]\n')
    # gnubg keeps the header tags it does not know as the match comment.
    comments = [f'[{name} "{value}"]' for name, value in record.tags
                if name.lower() not in _KNOWN_TAGS] + list(record.comments)
    if comments:
        out.append("\n; " + "\n; ".join(comments) + "\n")
    out.append("\n")
    out.append(f" {report.match_length} point match\n\n")
    return out


class _GameWriter:
    def __init__(self, game: GameRecord, result: GameResult, number: int,
                 score: tuple[int, int], names: tuple[str, str]) -> None:
        self.game = game
        self.result = result
        first = f"{names[0]} : {score[0]}"
        # gnubg pads to 31 bytes of UTF-8, not 31 characters.
        padding = " " * max(0, 31 - len(first.encode("utf-8")))
        self.out = [f" Game {number}\n", f" {first}{padding}{names[1]} : {score[1]}\n"]
        self.half = 0
        self.dice_only = False
        self.board = Position.initial()
        self.cube = 1
        self.doubles = 0
        self.last_side: Side | None = None

    def put(self, text: str, *, resign: bool = False, drop: bool = False,
            dice_only: bool = False) -> None:
        if self.half % 2 or resign:
            self.out.append(text)
            if not dice_only:
                self.out.append("\n")
        elif dice_only:
            self.out.append(f"{self.half // 2 + 1:3d}) {text:<3}")
        else:
            self.out.append(f"{self.half // 2 + 1:3d}) {text:<27} ")
        if drop:
            self.out.append("\n" if self.half % 2 else "\n\n")

    def write(self) -> str:
        for action in self.game.actions:
            kind = action.kind
            side = action.side
            if kind in (ActionKind.COMMENT, ActionKind.WIN, ActionKind.LOSS, ActionKind.RESIGN):
                continue
            assert side is not None
            if self.half == 0 and side is Side.O:
                self.out.append("  1)" + " " * 29)
                self.half = 1
            self.last_side = side
            if kind is ActionKind.ROLL:
                self._roll(action.dice or (1, 1), action.form, action.play, side)
            elif kind is ActionKind.DOUBLE:
                self.cube *= 2
                word = "Doubles" if self.doubles == 0 else "Beavers"
                self.doubles += 1
                self.put(f" {word} => {self.cube}")
            elif kind is ActionKind.BEAVER or kind is ActionKind.RACCOON:
                self.cube *= 2
                self.doubles += 1
                self.put(f" Beavers => {self.cube}")
            elif kind is ActionKind.TAKE:
                if self.doubles != 1:
                    self.doubles = 0
                    continue
                self.doubles = 0
                self.put(" Takes")
            elif kind is ActionKind.DROP:
                gap = "\n      " if self.half % 2 else " " * 23
                self.put(f" Drops{gap}{_points(self.cube // 2)}", drop=True)
            self.half += 1
        if self.result.end is GameEnd.RESIGNED and self.result.winner is not None:
            self._resign(self.result.winner.opposite, self.result.points)
        return "".join(self.out)

    def _roll(self, dice: tuple[int, int], form: PlayForm | None, play: Play | None,
              side: Side) -> None:
        if form is PlayForm.UNKNOWN:
            self.dice_only = True
            self.put(f"{dice[0]}{dice[1]}: ", dice_only=True)
            return
        self.dice_only = False
        self.doubles = 0
        before = self.board if side is Side.X else self.board.turned()
        text = f"{dice[0]}{dice[1]}: "
        after = before
        if form is PlayForm.MOVED and play is not None:
            roll = Roll(dice[0], dice[1])
            steps = single_die_steps(before, roll, play)
            text += format_steps(before, steps)
            after = check_play(before, roll, play)
        self.board = after if side is Side.X else after.turned()
        self.put(text)
        if self.result.end is GameEnd.PLAYED and not any(after.mover[1:]):
            lead = _RIGHT_WINS if self.half % 2 else "\n" + _LEFT_WINS
            self.out.append(f"{lead}{_points(self.result.points)}\n\n")

    def _resign(self, loser: Side, points: int) -> None:
        odd = bool(self.half % 2) != self.dice_only
        if loser is Side.O:
            text = ("\n" if odd else "") + _LEFT_WINS + _points(points) + "\n"
        else:
            lead = " " if odd else (" " * 24 if self.half % 2 else _RIGHT_WINS)
            text = lead + _points(points) + "\n"
        self.put(text, resign=True)


def format_mat(report: RecordReport) -> str:
    """The replayed record as gnubg's ``export match mat`` writes it.

    Games are numbered from 1 and the score lines are the replay's scores. Games the
    replay did not count (after the match was won) are left out.

    Raises:
        ValueError: the report has errors; only a valid record can be written.
    """
    if not report.ok:
        raise ValueError("only a record without errors can be written back")
    names = report.players
    out = _header(report)
    score = [0, 0]
    for number, (game, result) in enumerate(zip(report.record.games, report.games,
                                                strict=False), start=1):
        out.append(_GameWriter(game, result, number, (score[0], score[1]), names).write())
        if result.winner is not None:
            score[result.winner] += result.points
    return "".join(out)


SCORE_SHEET_NOTE = "Score sheet: games entered by hand, without rolls"
"""The header comment of a record written from games without moves."""
_CUBE_WORDS = {"double": "Doubles => {cube}", "take": "Takes", "drop": "Drops"}


def _sheet_lines(summary: GameSummary) -> list[str]:
    """A game without rolls: each cube action in its own player's column (the players
    do not alternate as they do between rolls), then the winner's ``Wins`` line."""
    lines: list[list[str]] = []
    cube = 1
    for word, side in cube_actions(summary):
        if word == "double":
            cube *= 2
        text = _CUBE_WORDS[word].format(cube=cube)
        if not lines or side is Side.X or lines[-1][1]:
            lines.append(["", ""])
        lines[-1][side] = text
    out = [f"{number:3d})  {left:<27}{' ' + right if right else ''}".rstrip()
           for number, (left, right) in enumerate(lines, start=1)]
    lead = _LEFT_WINS if summary.winner is Side.X else _RIGHT_WINS
    out.append(f"{lead}{_points(summary.points)}")
    return out


def format_mat_results(header: MatchHeader, games: Sequence[GameSummary]) -> str:
    """A match known game by game as ``.mat``: per game its score line, the cube actions
    its result implies and the winner's ``Wins`` line, but no rolls (see
    ``format_sgf_results``). gnubg keeps only the score lines of such a file: it drops a
    game without rolls.

    >>> text = format_mat_results(MatchHeader(("Ann", "Bob"), 3),
    ...                           [GameSummary(Side.O, GameEnd.DROPPED, 2, 2)])
    >>> print(text.split("\\n\\n", 2)[2], end="")
     Game 1
     Ann : 0                        Bob : 0
      1)  Doubles => 2                Takes
      2)                              Doubles => 4
      3)  Drops
                                      Wins 2 points
    <BLANKLINE>
    """
    out = [f"; {SCORE_SHEET_NOTE}\n\n {header.match_length} point match\n\n"]
    score = [0, 0]
    names = header.players
    for number, summary in enumerate(games, start=1):
        first = f"{names[0]} : {score[0]}"
        padding = " " * max(0, 31 - len(first.encode("utf-8")))
        out.append(f" Game {number}\n {first}{padding}{names[1]} : {score[1]}\n")
        out.append("\n".join(_sheet_lines(summary)) + "\n\n")
        score[summary.winner] += summary.points
    return "".join(out)
