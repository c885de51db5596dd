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

import re
from dataclasses import dataclass, field
from typing import Any

from tourney.analysis.engine import in_engine_thread, load_gnubg, run_commands
from tourney.rules.board import BAR, OFF, Position, Side
from tourney.rules.errors import NotationError
from tourney.rules.moves import apply_play, format_play
from tourney.rules.records import ActionKind, PlayForm, RecordReport
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
_DICE = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
_PREDECESSOR_DICE = ((2, 1), (3, 1), (4, 1), (3, 2), (5, 1), (4, 2), (6, 1), (5, 2))


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


def _board(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board: (opponent, player on roll), points 1-24 then the bar."""
    return (position.opponent[1:], position.mover[1:])


def _apply_gnubg_move(position: Position, move: tuple[int, ...]) -> Position:
    mine, theirs = list(position.mover), list(position.opponent)
    for origin, destination in _steps(move):
        mine[origin] -= 1
        mine[destination] += 1
        if destination != OFF and theirs[25 - destination] == 1:
            theirs[25 - destination] = 0
            theirs[BAR] += 1
    return Position(tuple(mine), tuple(theirs))


def _steps(move: tuple[int, ...]) -> list[tuple[int, int]]:
    """The (from, to) pairs of gnubg's move tuple.

    The tuple stops at the first checker borne off, which stands alone at its end: the
    moves after it are not told (a play is then found by its equity instead).
    """
    steps = [(move[i], move[i + 1]) for i in range(0, len(move) - 1, 2)]
    if len(move) % 2:
        steps.append((move[-1], OFF))
    return steps


def _move_text(move: tuple[int, ...]) -> str:
    def name(point: int) -> str:
        return "bar" if point == BAR else "off" if point == OFF else str(point)

    return " ".join(f"{name(a)}/{name(b)}" for a, b in _steps(move))


@dataclass
class _Cube:
    """The match state a decision is taken in, as gnubg's cube information needs it."""

    length: int
    score: tuple[int, int]
    crawford: bool
    value: int = 1
    owner: Side | None = None


class _Analyser:
    def __init__(self, plies: int) -> None:
        self.gnubg = load_gnubg()
        self.plies = plies
        self.context = self.gnubg.evalcontext(1, plies, 0, 0, 0.0)
        self.luck_context = self.gnubg.evalcontext(1, 0, 0, 0, 0.0)
        self._moves: dict[tuple[object, ...], list[dict[str, Any]]] = {}
        self._pre_roll: dict[tuple[object, ...], float] = {}
        """Pre-roll equities already found: every dancing roll asks for the same one."""

    def cubeinfo(self, cube: _Cube, on_roll: Side, value: int | None = None,
                 owner: Side | str | None = "same") -> Any:
        value = cube.value if value is None else value
        holder = cube.owner if owner == "same" else owner
        return self.gnubg.cubeinfo(
            value, -1 if holder is None else int(holder), int(on_roll), cube.length,
            cube.score, int(cube.crawford), 0,
        )

    def moves(self, position: Position, ci: Any, dice: tuple[int, int], context: Any
              ) -> list[dict[str, Any]]:
        """gnubg's scored plays of ``dice``, best first (cached: luck asks again)."""
        key = (position, tuple(sorted(ci.items(), key=str)), dice, tuple(context.values()))
        if key not in self._moves:
            self._moves[key] = list(self.gnubg.findbestmoves(_board(position), ci, context, dice))
        return self._moves[key]

    # --- cubeful equity of a position before the roll ----------------------------------

    def pre_roll_mwc(self, position: Position, cube: _Cube, on_roll: Side, value: int,
                     owner: Side | None, context: Any) -> float:
        """The cubeful match winning chance of the side on roll in ``position``.

        gnubg's module scores plays, not positions: the position is reached as the
        result of one legal play of the opponent from a position one checker further
        back, and that play's score read from the opponent's side.
        """
        key = (position, on_roll, value, owner, cube.length, cube.score, cube.crawford,
               context["plies"])
        if key not in self._pre_roll:
            self._pre_roll[key] = self._pre_roll_mwc(position, cube, on_roll, value, owner,
                                                     context)
        return self._pre_roll[key]

    def _pre_roll_mwc(self, position: Position, cube: _Cube, on_roll: Side, value: int,
                      owner: Side | None, context: Any) -> float:
        opponent = on_roll.opposite
        ci_opponent = self.cubeinfo(cube, opponent, value, owner)
        theirs, mine = list(position.opponent), list(position.mover)
        if theirs[BAR] == 0 and sum(theirs[1:]) > 0:
            for point in range(1, 25):
                if not theirs[point]:
                    continue
                for high, low in _PREDECESSOR_DICE:
                    start, middle = point + high + low, point + low
                    if start > 24 or mine[25 - start] or mine[25 - middle]:
                        continue
                    before = theirs.copy()
                    before[point] -= 1
                    before[start] += 1
                    earlier = Position(tuple(before), tuple(mine))
                    for candidate in self.moves(earlier, ci_opponent, (high, low), context):
                        if _apply_gnubg_move(earlier, candidate["move"]).turned() == position:
                            mwc = self.gnubg.eq2mwc(candidate["score"], ci_opponent)
                            return 1.0 - float(mwc)
        # No such play (the opponent is on the bar): ask gnubg's own ``eval``.
        return self.evaluated_mwc(position, cube, on_roll, value, owner, context)

    def _eval(self, position: Position, cube: _Cube, on_roll: Side, value: int,
              owner: Side | None, context: Any) -> str:
        """What gnubg's ``eval`` prints for the position, the side on roll to play."""
        ci = self.cubeinfo(cube, on_roll, value, owner)
        match_id = self.gnubg.matchid(ci, self.gnubg.posinfo(int(on_roll), 0, 0, 1, (0, 0)))
        plies = context["plies"]
        return run_commands(self.gnubg, [
            f"set evaluation chequerplay evaluation plies {plies}",
            f"set evaluation cubedecision evaluation plies {plies}",
            f"set matchid {match_id}",
            f"set board {position.to_id()}",
            "eval",
        ])

    def evaluated_mwc(self, position: Position, cube: _Cube, on_roll: Side, value: int,
                      owner: Side | None, context: Any) -> float:
        """The cubeful match winning chance gnubg's ``eval`` command prints."""
        ci = self.cubeinfo(cube, on_roll, value, owner)
        out = self._eval(position, cube, on_roll, value, owner, context)
        # The table under "Equity  Cubeful": one row per ply, the deepest last.
        tables = re.findall(r"Equity\s+Cubeful\s*\n((?:.*\d.*\n)+)", out)
        rows = tables[-1].strip().splitlines() if tables else []
        numbers = re.findall(r"[-+]?\d+\.\d+", rows[-1]) if rows else []
        if not numbers:
            raise RuntimeError(f"gnubg's eval printed no cubeful equity for {position.to_id()}")
        return float(self.gnubg.eq2mwc(float(numbers[-1]), ci))

    def cube_equities(self, position: Position, cube: _Cube, on_roll: Side
                      ) -> tuple[float, float, float, float]:
        """No double, double/take, double/pass and the best of them, EMG of the cube
        in play, for the side on roll: gnubg's own cube analysis (its ``eval``)."""
        out = self._eval(position, cube, on_roll, cube.value, cube.owner, self.context)
        found = {}
        for label in ("No double", "Double, take", "Double, pass"):
            match = re.search(r"\d\. " + re.escape(label) + r"\s+([-+]?\d+\.\d+)", out)
            if match is not None:
                found[label] = float(match.group(1))
        if len(found) == 3:
            nd, dt, dp = found["No double"], found["Double, take"], found["Double, pass"]
        else:
            # No cube analysis printed: the equities from the plays that reach the position.
            ci = self.cubeinfo(cube, on_roll)
            no_double = self.pre_roll_mwc(position, cube, on_roll, cube.value, cube.owner,
                                          self.context)
            take = self.pre_roll_mwc(position, cube, on_roll, 2 * cube.value,
                                     on_roll.opposite, self.context)
            nd = float(self.gnubg.mwc2eq(no_double, ci))
            dt = float(self.gnubg.mwc2eq(take, ci))
            dp = 1.0
        return nd, dt, dp, max(nd, min(dt, dp))

    def can_double(self, cube: _Cube, on_roll: Side) -> bool:
        """gnubg's test that the side on roll has a cube decision to make."""
        if cube.crawford or cube.length == 0:
            return False
        if cube.owner is not None and cube.owner != on_roll:
            return False
        mine, theirs = cube.score[on_roll], cube.score[on_roll.opposite]
        post_crawford = cube.length - 1 in (mine, theirs)
        if post_crawford and mine == cube.length - 1:
            return False
        return mine + cube.value < cube.length

    def play_score(self, before: Position, after: Position, cube: _Cube, side: Side,
                   scored: list[dict[str, Any]]) -> float:
        """gnubg's score of the play from ``before`` to ``after`` among ``scored``."""
        for candidate in scored:
            if _apply_gnubg_move(before, candidate["move"]) == after:
                return float(candidate["score"])
        # A play that bears off before its last move is not told whole: evaluate the
        # position it reaches, the opponent on roll.
        opponent = side.opposite
        mwc = self.pre_roll_mwc(after.turned(), cube, opponent, cube.value, cube.owner,
                                self.context)
        return -float(self.gnubg.mwc2eq(mwc, self.cubeinfo(cube, opponent)))

    # --- luck ------------------------------------------------------------------------

    def best_score(self, position: Position, cube: _Cube, on_roll: Side,
                   dice: tuple[int, int]) -> float:
        ci = self.cubeinfo(cube, on_roll)
        scored = self.moves(position, ci, dice, self.luck_context)
        if scored:
            return float(scored[0]["score"])
        # A dance: the opponent's equity before their roll, from the roller's side.
        opponent = on_roll.opposite
        mwc = self.pre_roll_mwc(position.turned(), cube, opponent, cube.value, cube.owner,
                                self.luck_context)
        return -float(self.gnubg.mwc2eq(mwc, self.cubeinfo(cube, opponent)))

    def luck(self, position: Position, cube: _Cube, on_roll: Side,
             dice: tuple[int, int]) -> float:
        high, low = max(dice), min(dice)
        if position == Position.initial() and high != low:
            own = [self.best_score(position, cube, on_roll, (h, lo))
                   for h, lo in _DICE if h != lo]
            theirs = [-self.best_score(position, cube, on_roll.opposite, (h, lo))
                      for h, lo in _DICE if h != lo]
            mean = (sum(own) + sum(theirs)) / 30
        else:
            total = 0.0
            for h, lo in _DICE:
                weight = 1 if h == lo else 2
                total += weight * self.best_score(position, cube, on_roll, (h, lo))
            mean = total / 36
        return self.best_score(position, cube, on_roll, (high, low)) - mean


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
    analyser = _Analyser(plies)
    figures = (PlayerFigures(), PlayerFigures())
    score = [0, 0]
    for game, result in zip(record.games, report.games, strict=False):
        cube = _Cube(record.match_length, (score[0], score[1]), result.crawford)
        _analyse_game(analyser, game.number, game.actions, cube, figures)
        if result.winner is not None:
            score[result.winner] += result.points
    return MatchAnalysis(report.players, figures, len(report.games), plies)


def _analyse_game(analyser: _Analyser, number: int, actions: Any, cube: _Cube,
                  figures: tuple[PlayerFigures, PlayerFigures]) -> None:
    position = Position.initial()
    on_roll: Side | None = None
    doubled: tuple[float, float, float, float] | None = None
    for action in actions:
        side = action.side
        if side is None:
            continue
        if on_roll is not None and side != on_roll and action.kind in (
            ActionKind.ROLL, ActionKind.DOUBLE
        ):
            position = position.turned()
        if action.kind in (ActionKind.ROLL, ActionKind.DOUBLE):
            on_roll = side
        if action.kind is ActionKind.DOUBLE and on_roll is not None:
            doubled = _double(analyser, position, cube, side, number, figures[side])
        elif action.kind in (ActionKind.TAKE, ActionKind.DROP) and doubled is not None:
            _answer(action.kind, doubled, figures[side], side, position, number)
            if action.kind is ActionKind.TAKE:
                cube.value *= 2
                cube.owner = side
            doubled = None
        elif action.kind is ActionKind.ROLL and action.dice is not None:
            position = _roll(analyser, position, cube, side, action, number, figures[side])


def _double(analyser: _Analyser, position: Position, cube: _Cube, side: Side, number: int,
            figures: PlayerFigures) -> tuple[float, float, float, float]:
    nd, dt, dp, best = analyser.cube_equities(position, cube, side)
    figures.close_cube += 1
    skill = min(dt, dp) - best
    if skill < 0:
        figures.cube_error -= skill
        figures.decisions.append(Decision(
            side, number, position.to_id(), "", "Double",
            "No double" if best == nd else "Double", -skill))
    return nd, dt, dp, best


def _answer(kind: ActionKind, equities: tuple[float, float, float, float],
            figures: PlayerFigures, side: Side, position: Position, number: int) -> None:
    _, dt, dp, _ = equities
    figures.close_cube += 1
    if kind is ActionKind.TAKE and dt > dp:
        figures.cube_error += dt - dp
        figures.decisions.append(Decision(side, number, position.to_id(), "", "Take", "Pass",
                                          dt - dp))
    elif kind is ActionKind.DROP and dp > dt:
        figures.cube_error += dp - dt
        figures.decisions.append(Decision(side, number, position.to_id(), "", "Pass", "Take",
                                          dp - dt))


def _roll(analyser: _Analyser, position: Position, cube: _Cube, side: Side, action: Any,
          number: int, figures: PlayerFigures) -> Position:
    dice = (max(action.dice), min(action.dice))
    if position != Position.initial() and analyser.can_double(cube, side):
        nd, dt, _, best = analyser.cube_equities(position, cube, side)
        if best - min(dt, 1.0) < CLOSE_CUBE:
            figures.close_cube += 1
        if nd < best:
            figures.cube_error += best - nd
            figures.decisions.append(Decision(side, number, position.to_id(), "", "No double",
                                              "Double", best - nd))
    figures.luck += analyser.luck(position, cube, side, dice)
    if action.form is PlayForm.UNKNOWN:
        # Rolled, then resigned: the roll's luck counts, there is no play to judge.
        return position
    figures.moves += 1
    after = position if action.play is None else apply_play(position, action.play)
    ci = analyser.cubeinfo(cube, side)
    scored = analyser.moves(position, ci, dice, analyser.context)
    if len(scored) <= 1:
        return after
    figures.unforced_moves += 1
    error = float(scored[0]["score"]) - analyser.play_score(position, after, cube, side, scored)
    figures.chequer_error += error
    if error > 0:
        figures.decisions.append(Decision(
            side, number, position.to_id(), f"{dice[0]}-{dice[1]}",
            format_play(action.play) if action.play else "", _move_text(scored[0]["move"]),
            error))
    return after
