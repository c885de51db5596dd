"""Analysing a match record: every checker play, cube decision and roll, as gnubg does.

Terminology (gnubg's, which the figures follow):

- *EMG* is equity in "equivalent money game" units: a match winning chance (MWC)
  turned into money-like equity on the cube in play, so that winning the cube's value
  is +1 and losing it -1. A *mEMG* is a thousandth of one.
- A *decision* is an unforced checker play (more than one legal result) or a *close*
  cube decision: a double, take or pass that was made, or a turn where doubling was
  within 0.16 EMG of the best cube action.
- The *error rate* is the equity a player gave away over all decisions, per decision
  (mEMG); the XG-scale *performance rating* (PR) is half of it.
- *Luck* of a roll is the equity after the best play of that roll minus the average
  over all 36 rolls (30 for the opening roll, which is never a doublet); the *luck
  rate* is a player's luck per roll (mEMG), positive for good dice.

Checker plays and cube decisions are evaluated at the requested plies, luck always at
0 plies (as gnubg does), all cubeful with the match score.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tourney.analysis.engine import in_engine_thread, load_gnubg
from tourney.analysis.equities import (
    SAME_DOUBLE,
    CubeEquities,
    CubeState,
    Evaluator,
    Turn,
    board_of,
    play_result,
)
from tourney.analysis.luck import Luck, Roll
from tourney.rules.board import BAR, OFF, Position, Side
from tourney.rules.errors import NotationError
from tourney.rules.moves import Play, apply_play, format_play
from tourney.rules.records import Action, ActionKind, GameRecord, PlayForm, RecordReport
from tourney.rules.variants import DEFAULT_VARIANT, variant_for_mat, variant_named

CLOSE_CUBE = 0.16
"""A cube decision counts for the error rate when the best action is within this much
(EMG) of doubling (gnubg's threshold)."""

RATINGS = (
    (0.002, "Supernatural"),
    (0.005, "World class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual player"),
    (0.035, "Beginner"),
)
"""gnubg's (1.07) rating of an error rate: the first bound (EMG per decision) the rate
is under names it; above every bound it is "Awful!"."""

AWFUL = "Awful!"
_INITIAL = Position.initial()


def rating_words(error_rate: float) -> str:
    """gnubg's words for an error rate in mEMG per decision ("Expert", "Awful!")."""
    for bound, words in RATINGS:
        if error_rate / 1000 < bound:
            return words
    return AWFUL


@dataclass(frozen=True)
class Decision:
    """One analysed decision with the equity it gave away, for the list of worst ones."""

    player: Side
    game: int
    position_id: str
    """The position before the decision, the deciding player on roll."""
    dice: str
    """The roll (``5-2``) for a checker play; empty for a cube decision."""
    played: str
    best: str
    error: float
    """Equity given away, EMG (positive)."""


@dataclass
class PlayerFigures:
    """One player's totals over the match."""

    chequer_error: float = 0.0
    cube_error: float = 0.0
    unforced_moves: int = 0
    close_cube: int = 0
    moves: int = 0
    luck: float = 0.0
    decisions: list[Decision] = field(default_factory=list)

    @property
    def error_rate(self) -> float:
        """Equity given away per decision, mEMG (gnubg's overall "Error rate mEMG")."""
        count = self.unforced_moves + self.close_cube
        return 1000 * (self.chequer_error + self.cube_error) / count if count else 0.0

    @property
    def pr(self) -> float:
        """The XG-scale performance rating: half the error rate."""
        return self.error_rate / 2

    @property
    def luck_rate(self) -> float:
        """Luck per roll, mEMG, positive for good dice."""
        return 1000 * self.luck / self.moves if self.moves else 0.0


@dataclass(frozen=True)
class MatchAnalysis:
    """A whole match's figures per player, in the file's player order."""

    players: tuple[str, str]
    figures: tuple[PlayerFigures, PlayerFigures]
    games: int
    plies: int

    def to_json(self) -> dict[str, object]:
        """The JSON form of ``tourney analyse --json`` (DESIGN §9), rounded to 0.1."""
        return {
            "players": list(self.players),
            "error_rate": [round(f.error_rate, 1) for f in self.figures],
            "pr": [round(f.pr, 1) for f in self.figures],
            "luck": [round(f.luck_rate, 1) for f in self.figures],
            "games": self.games,
        }

    def worst(self, side: Side, count: int = 5) -> list[Decision]:
        """A player's ``count`` biggest errors, biggest first."""
        ranked = sorted(self.figures[side].decisions, key=lambda d: -d.error)
        return ranked[:count]


def _move_text(move: tuple[int, ...]) -> str:
    """gnubg's move tuple as text (``13/8 6/off``); a bear-off play may be told in part."""
    steps = [(move[i], move[i + 1]) for i in range(0, len(move) - 1, 2)]
    if len(move) % 2:
        steps.append((move[-1], OFF))

    def name(point: int) -> str:
        return "bar" if point == BAR else "off" if point == OFF else str(point)

    return " ".join(f"{name(a)}/{name(b)}" for a, b in steps)


def analyse_record(report: RecordReport, *, plies: int = 0) -> MatchAnalysis:
    """Analyse every checker play, cube decision and roll of a valid match record.

    Raises:
        AnalysisUnavailable: the evaluator is not installed.
        ValueError: the record breaks a rule, is a money session or another variant
            than standard backgammon (analysis needs a valid standard match).
    """
    if not report.ok:
        raise ValueError(f"the record is not valid ({report.errors[0]}): fix it first")
    record = report.record
    if not record.match_length:
        raise ValueError("only matches can be analysed, not money sessions")
    try:
        variant = (
            variant_named(record.variant)
            if record.variant is not None
            else variant_for_mat(record.tag("Variation"))
        )
    except NotationError:
        variant = None
    if variant is not DEFAULT_VARIANT:
        raise ValueError("only standard backgammon can be analysed")
    if plies < 0 or plies > 2:
        raise ValueError("plies must be 0, 1 or 2")
    load_gnubg()
    return in_engine_thread(_analyse_match, report, plies)


def _analyse_match(report: RecordReport, plies: int) -> MatchAnalysis:
    record = report.record
    assert record.match_length is not None
    evaluator = Evaluator(load_gnubg(), plies)
    figures = (PlayerFigures(), PlayerFigures())
    # First the rolls (positions and cube only), so that their luck, most of the work,
    # can start in a second process while this one judges the plays and cube decisions.
    rolls: list[Roll] = []
    for game, cube in _games(report):
        _GameAnalysis(None, game.number, cube, figures, rolls).run(game.actions)
    luck = Luck(evaluator, rolls)
    try:
        for game, cube in _games(report):
            _GameAnalysis(evaluator, game.number, cube, figures, []).run(game.actions)
    except BaseException:
        luck.cancel()
        raise
    for roll, value in zip(rolls, luck.values(), strict=True):
        figures[roll.side].luck += value
    return MatchAnalysis(report.players, figures, len(report.games), plies)


def _games(report: RecordReport) -> Iterator[tuple[GameRecord, CubeState]]:
    """Each game with the match score and cube it starts with."""
    record = report.record
    assert record.match_length is not None
    score = [0, 0]
    for game, result in zip(record.games, report.games, strict=False):
        yield game, CubeState(record.match_length, (score[0], score[1]), result.crawford, 1,
                              None)
        if result.winner is not None:
            score[result.winner] += result.points


class _GameAnalysis:
    """One game's decisions and rolls, in the order they were taken."""

    def __init__(self, evaluator: Evaluator | None, number: int, cube: CubeState,
                 figures: tuple[PlayerFigures, PlayerFigures], rolls: list[Roll]) -> None:
        self.judging = evaluator
        """The evaluator, or ``None`` to only list the rolls (positions and cube)."""
        self.rolls = rolls
        """The rolls to judge for luck, added to as the game goes."""
        self.number = number
        self.cube = cube
        self.figures = figures
        self.position = _INITIAL
        self.previous: Turn | None = None
        """The last checker play, which reached the position now on roll."""
        self.previous_score: float | None = None
        """That play's score (its player's EMG), when known."""
        self.previous_cube: CubeState | None = None

    def run(self, actions: Sequence[Action]) -> None:
        """Analyse the game's actions in order."""
        on_roll: Side | None = None
        doubled: CubeEquities | None = None
        for action in actions:
            side = action.side
            if side is None:
                continue
            kind = action.kind
            if kind is ActionKind.ROLL or kind is ActionKind.DOUBLE:
                if on_roll is not None and side != on_roll:
                    self.position = self.position.turned()
                on_roll = side
            if kind is ActionKind.DOUBLE:
                doubled = self._double(side) if self.judging is not None else None
            elif kind in (ActionKind.TAKE, ActionKind.DROP):
                if doubled is not None:
                    self._answer(kind, doubled, side)
                if kind is ActionKind.TAKE:
                    self.cube = self.cube.doubled(side)
                doubled = None
            elif kind is ActionKind.ROLL and action.dice is not None:
                self._roll(side, action)

    # --- cube ---------------------------------------------------------------------------

    def _cube_equities(self, side: Side) -> CubeEquities:
        optimal = None
        previous = self.previous
        if previous is not None and self.previous_cube != self.cube:
            previous = None
        if previous is not None and self.previous_score is not None:
            optimal = -self.previous_score
        return self.evaluator.cube_equities(self.position, side, self.cube, optimal, previous)

    def _double(self, side: Side) -> CubeEquities:
        equities = self._cube_equities(side)
        figures = self.figures[side]
        figures.close_cube += 1
        doubling = min(equities.take, equities.drop)
        if equities.optimal - doubling > SAME_DOUBLE:
            figures.cube_error += equities.optimal - doubling
            figures.decisions.append(Decision(
                side, self.number, self.position.to_id(), "", "Double", "No double",
                equities.optimal - doubling))
        return equities

    def _answer(self, kind: ActionKind, equities: CubeEquities, side: Side) -> None:
        figures = self.figures[side]
        figures.close_cube += 1
        take, drop = equities.take, equities.drop
        position_id = self.position.to_id()
        if kind is ActionKind.TAKE and take > drop:
            figures.cube_error += take - drop
            figures.decisions.append(Decision(side, self.number, position_id, "", "Take",
                                              "Pass", take - drop))
        elif kind is ActionKind.DROP and drop > take:
            figures.cube_error += drop - take
            figures.decisions.append(Decision(side, self.number, position_id, "", "Pass",
                                              "Take", drop - take))

    def _no_double(self, side: Side) -> None:
        """The cube decision of a roll that was not doubled."""
        equities = self._cube_equities(side)
        figures = self.figures[side]
        if equities.optimal - min(equities.take, 1.0) < CLOSE_CUBE:
            figures.close_cube += 1
        if equities.no_double is None:
            # Doubling was right: how much not doubling gave away needs gnubg's eval.
            equities = self.evaluator.no_double(self.position, side, self.cube)
        assert equities.no_double is not None
        missed = equities.optimal - equities.no_double
        if missed > 0:
            figures.cube_error += missed
            figures.decisions.append(Decision(
                side, self.number, self.position.to_id(), "", "No double", "Double",
                missed))

    # --- rolls --------------------------------------------------------------------------

    @property
    def evaluator(self) -> Evaluator:
        assert self.judging is not None
        return self.judging

    def _roll(self, side: Side, action: Action) -> None:
        assert action.dice is not None
        position = self.position
        dice = (max(action.dice), min(action.dice))
        initial = position == _INITIAL
        if self.judging is None:
            self.rolls.append(Roll(position, board_of(position), self.cube, side, dice,
                                   initial and dice[0] != dice[1]))
        elif not initial and self.cube.can_double(side):
            self._no_double(side)
        if action.form is PlayForm.UNKNOWN:
            # Rolled, then resigned: the roll's luck counts, there is no play to judge.
            self.previous = None
            return
        after = position if action.play is None else apply_play(position, action.play)
        if self.judging is not None:
            self._play(side, dice, after, action.play)
        self.position = after

    def _play(self, side: Side, dice: tuple[int, int], after: Position, written: Play | None
              ) -> None:
        """Judge the checker play from the position on roll to ``after``."""
        evaluator, position, cube = self.evaluator, self.position, self.cube
        figures = self.figures[side]
        figures.moves += 1
        board, target = board_of(position), board_of(after)
        plays = evaluator.plays(board, cube, side, dice, evaluator.context)
        score: float | None = None
        if len(plays) == 1:
            score = float(plays[0]["score"])
        elif plays:
            figures.unforced_moves += 1
            for play in plays:
                if play_result(board, play["move"]) == target:
                    score = float(play["score"])
                    break
            if score is None:
                # Not told whole (a bear-off play): the position it reached.
                score = -evaluator.pre_roll(after.turned(), side.opposite, cube,
                                            evaluator.context)
            best = float(plays[0]["score"])
            error = max(0.0, best - score)
            figures.chequer_error += error
            if error > 0:
                played = format_play(written) if written else ""
                figures.decisions.append(Decision(
                    side, self.number, position.to_id(), f"{dice[0]}-{dice[1]}", played,
                    _move_text(plays[0]["move"]), error))
        self.previous = Turn(board, side, dice, target if plays else None)
        self.previous_score = score
        self.previous_cube = cube
