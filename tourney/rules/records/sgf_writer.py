"""Writing a match as GNU Backgammon's ``.sgf``: one game tree per game (see ``sgf``).

``format_sgf`` writes a replayed record with every roll, play and cube action, the way
gnubg's ``save match`` does (without its analysis): plays one die per step, the dice in
the written order. ``format_sgf_results`` writes a match known only game by game (the
winner, the cube and the result of each game): each game tree then holds the cube
actions that the result implies (a double and a drop, or the doubles that took the cube
to its value) and the result, but no rolls; each result but a drop is marked as a
resignation, the only result gnubg scores in a game without moves. Such a file is a
faithful score sheet, not a replayable record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from tourney.rules.board import Position, Side
from tourney.rules.dice import Roll
from tourney.rules.game import GameEnd
from tourney.rules.moves import check_play
from tourney.rules.records.mat_writer import SCORE_SHEET_NOTE, single_die_steps
from tourney.rules.records.model import ActionKind, GameRecord, PlayForm
from tourney.rules.records.replay import RecordReport
from tourney.rules.records.sgf import sgf_letter
from tourney.rules.records.summary import GameSummary, MatchHeader, cube_actions

_DATE = re.compile(r"\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})\s*")
_COLOUR = {Side.X: "W", Side.O: "B"}
_VARIATION_RULE = {
    "nackgammon": "Nackgammon",
    "hypergammon(1)": "Hypergammon1",
    "hypergammon(2)": "Hypergammon2",
    "hypergammon(3)": "Hypergammon3",
}
"""``.mat`` ``[Variation]`` values (lower case, without spaces) and gnubg's RU name."""
_INFO = (("Event", "EV"), ("Round", "RO"), ("Site", "PC"), ("Transcriber", "AN"))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _root(header: MatchHeader, number: int, score: tuple[int, int],
          crawford_game: bool, result: str | None) -> str:
    names = header.players
    out = [
        "(;FF[4]GM[6]CA[UTF-8]AP[tourney]",
        f"MI[length:{header.match_length}][game:{number}][ws:{score[0]}][bs:{score[1]}]",
        f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]",
    ]
    if number == 0:
        out.extend(f"{key}[{_escape(value)}]" for key, value in header.details)
    rules = []
    if header.crawford and header.match_length > 0:
        rules.append("Crawford")
        if crawford_game:
            rules.append("CrawfordGame")
    if header.jacoby and header.match_length == 0:
        rules.append("Jacoby")
    variation = _VARIATION_RULE.get((header.variation or "").lower().replace(" ", ""))
    if variation:
        rules.append(variation)
    if rules:
        out.append(f"RU[{':'.join(rules)}]")
    if result is not None:
        out.append(result)
    return "".join(out)


def _result(winner: Side | None, points: int, resigned: bool) -> str | None:
    if winner is None:
        return None
    return f"RE[{_COLOUR[winner]}+{points}{'R' if resigned else ''}]"


def _report_header(report: RecordReport) -> MatchHeader:
    record = report.record
    details = [(key, value) for tag, key in _INFO
               if (value := record.tag(tag)) is not None]
    date = _DATE.fullmatch(record.tag("EventDate") or "")
    if date and int(date.group(1)) > 1900:
        year, month, day = (int(part) for part in date.groups())
        details.insert(0, ("DT", f"{year:04d}-{month:02d}-{day:02d}"))
    if record.comments:
        details.append(("GC", "\n".join(record.comments)))
    crawford = (record.tag("Crawford") or "on").strip().lower() not in ("off", "no", "false")
    jacoby = (record.tag("Jacoby") or "off").strip().lower() in ("on", "yes", "true")
    return MatchHeader(report.players, report.match_length, crawford, jacoby,
                       record.tag("Variation"), tuple(details))


def _game_nodes(game: GameRecord) -> list[str]:
    nodes = []
    board = Position.initial()
    pending_doubles = 0
    for action in game.actions:
        side = action.side
        kind = action.kind
        if side is None or kind in (ActionKind.COMMENT, ActionKind.WIN, ActionKind.LOSS,
                                    ActionKind.RESIGN):
            continue
        colour = _COLOUR[side]
        if kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON):
            # gnubg keeps a beaver or raccoon as a further double, with no take before it.
            pending_doubles += 1
            nodes.append(f";{colour}[double]")
        elif kind is ActionKind.TAKE:
            if pending_doubles == 1:
                nodes.append(f";{colour}[take]")
            pending_doubles = 0
        elif kind is ActionKind.DROP:
            nodes.append(f";{colour}[drop]")
        elif kind is ActionKind.ROLL and action.dice is not None:
            pending_doubles = 0
            dice = f"{action.dice[0]}{action.dice[1]}"
            if action.form is PlayForm.UNKNOWN:
                nodes.append(f";PL[{colour}]DI[{dice}]")
                continue
            before = board if side is Side.X else board.turned()
            letters = ""
            after = before
            if action.form is PlayForm.MOVED and action.play is not None:
                roll = Roll(action.dice[0], action.dice[1])
                steps = single_die_steps(before, roll, action.play)
                letters = "".join(sgf_letter(move.origin, side) + sgf_letter(move.destination,
                                                                              side)
                                  for move in steps)
                after = check_play(before, roll, action.play)
            board = after if side is Side.X else after.turned()
            nodes.append(f";{colour}[{dice}{letters}]")
    return nodes


def format_sgf(report: RecordReport) -> str:
    """The replayed record as gnubg's ``save match`` writes it (without analysis).

    Games the replay did not count (after the match was won) are left out; the score
    before each game is the replay's.

    Raises:
        ValueError: the report has errors; only a valid record can be written.
    """
    if not report.ok:
        raise ValueError("only a record without errors can be written")
    header = _report_header(report)
    out = []
    score = [0, 0]
    for number, (game, result) in enumerate(zip(report.record.games, report.games,
                                                strict=False)):
        root = _root(header, number, (score[0], score[1]), result.crawford,
                     _result(result.winner, result.points, result.end is GameEnd.RESIGNED))
        out.append("\n".join([root, *_game_nodes(game)]) + ")\n")
        if result.winner is not None:
            score[result.winner] += result.points
    return "".join(out)


def _cube_nodes(summary: GameSummary) -> list[str]:
    return [f";{_COLOUR[side]}[{word}]" for word, side in cube_actions(summary)]


def format_sgf_results(header: MatchHeader, games: Sequence[GameSummary]) -> str:
    """A match known game by game as ``.sgf``: per game its cube actions and result.

    The Crawford game is the first game that starts with exactly one player one point
    short of the match length.

    >>> print(format_sgf_results(MatchHeader(("Ann", "Bob"), 3),
    ...       [GameSummary(Side.O, GameEnd.DROPPED, 1, 1)]), end="")
    (;FF[4]GM[6]CA[UTF-8]AP[tourney]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]\
GC[Score sheet: games entered by hand, without rolls]RU[Crawford]RE[B+1]
    ;B[double]
    ;W[drop])
    """
    # The first game tree says what the file is (gnubg shows GC as the match comment).
    header = replace(header, details=(*header.details, ("GC", SCORE_SHEET_NOTE)))
    out = []
    score = [0, 0]
    crawford_played = False
    for number, summary in enumerate(games):
        short = [header.match_length - points == 1 for points in score]
        crawford = not crawford_played and short.count(True) == 1
        crawford_played = crawford_played or crawford
        # Without rolls no position shows a bear-off: gnubg scores a game tree without
        # moves only when its result is marked as resigned (R), so every game but a
        # dropped double is written so.
        resigned = summary.end is not GameEnd.DROPPED
        root = _root(header, number, (score[0], score[1]), crawford,
                     _result(summary.winner, summary.points, resigned))
        out.append("\n".join([root, *_cube_nodes(summary)]) + ")\n")
        score[summary.winner] += summary.points
    return "".join(out)
