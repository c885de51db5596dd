"""Replaying a match record move by move: every rule checked, every error collected.

Terminology: the *replay* walks each game from the starting position, checking each
action against the position, the cube and the match score; a *finding* is an error (the
record breaks a rule) or a warning (the record is unusual but not wrong). After the first
illegal play of a game the replay stops checking that game, says so, and goes on with
the next one: every later move would only repeat the same mistake.

The match-level rules (score, Crawford game, post-Crawford, Holland, a 1-point match
without cube) are tracked here in a few lines rather than taken from ``tourney.match``:
the rules core may not import it, and a double must be judged at the moment it is
offered, inside the game, which a per-game match API cannot do. ``MatchRules`` is the
whole of it; tests check its Crawford marks against gnubg's.

Variants: the record's variant (``MatchRules.variant``, else the record's ``variant``
field, else its ``[Variation "..."]`` header) is a ``GameVariant``: it gives the starting
position, the legal plays, whether a game may open with a doublet, the cube, the levels
and their points, the last-roll draw and who opens the next game. Gammons count unless
the options say otherwise: a ``.mat`` file comes from gnubg or a program like it, which
scores gammons in hypergammon too.

The event options of a variant come from ``MatchRules.options`` or, where the caller
gives none, from the record's header tags, read like ``[Crawford "Off"]``:
``[Gammons "Off"]`` (hypergammon), and for long nardy ``[Cube "On"]``, ``[Koks "On"]``,
``[LastRollDraw "On"]``, ``[StrictBlock "On"]`` and ``[NextGame "alternate"]`` (or
``winner``, the default, or ``roll``): who opens each game after the first.

Long nardy's last-roll rule: when the player who opened the game bears off the last
checker, the other player rolls once more; bearing off every remaining checker with that
roll draws the game, and otherwise the opener wins at the level the board shows after the
last roll (a checker borne off with it turns a mars into an oin). The last roll may be
left out of a record only where no roll could bear everything off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tourney.rules.board import Side
from tourney.rules.cube import CubeState
from tourney.rules.dice import ALL_ROLLS, Roll
from tourney.rules.errors import (
    CubeActionError,
    IllegalPlayError,
    NotationError,
    TooManyPlaysError,
)
from tourney.rules.game import GameEnd, Level
from tourney.rules.match_forms import SINGLE, match_form_named
from tourney.rules.messages import N_, InSentence, Message, PluralMessage, message_of
from tourney.rules.moves import Play
from tourney.rules.records.model import (
    Action,
    ActionKind,
    ErrorKind,
    GameRecord,
    MatchRecord,
    PlayForm,
    RecordError,
)
from tourney.rules.variant_protocol import (
    GameVariant,
    NextGameStarter,
    VariantOptions,
    VariantPosition,
)
from tourney.rules.variants import DEFAULT_OPTIONS, tag_flag, variant_for_mat, variant_named
from tourney.rules.work_limit import work_limit


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The match-level rules a replay applies.

    ``crawford``/``holland`` of ``None`` follow the header (``[Crawford "Off"]``,
    ``[Holland "On"]``); otherwise Crawford is on and Holland off (DESIGN §3).
    """

    crawford: bool | None = None
    holland: bool | None = None
    start: tuple[int, int] | None = None
    """The match's starting score (a handicap start such as 1-0), in the order the record
    names the players; ``None``: 0-0. The first game's score line must show it."""
    expect_finished: bool = False
    """Report a match that ends before anyone reached the length as an error, not a
    warning."""
    variant: str | None = None
    """The variant to replay by; ``None`` follows the record (standard if it names none)."""
    match_form: str | None = None
    """The match form to replay by (each game in its turn's variant); ``None`` follows
    the record (one variant if it names none)."""
    options: VariantOptions | None = None
    """The event's variant options; ``None``: gammons count (gnubg's scoring), and long
    nardy's defaults otherwise."""
    automatic_doubles: int = 0
    """Money play's automatic doubles: equal opening dice turn the cube in the middle, up
    to this many times a game (0: none). Records do not write them; the replay reads the
    cube they left from the game's first double (a game without one is scored on a cube
    of 1)."""
    allow_condoned: bool = False
    """An illegal play the opponent played on from (rolled or doubled next) stands, as a
    warning, and the game goes on from where it was moved (VARIANTS.md 16.7): the
    tournament rules that let the opponent accept a wrong move."""


class _Engine:
    """One variant under one event's options, as the replay uses it."""

    def __init__(self, variant: GameVariant, options: VariantOptions) -> None:
        self.variant = variant
        self.options = options
        self.last_roll_draw = variant.can_draw(options)
        self.extra_rolls_on_last_roll = self.last_roll_draw and self._offered(
            "compensation_includes_extra_rolls")
        """The last roll earns the variant's extra rolls (VARIANTS.md 16.5's option)."""
        self.no_double_on_first_turn = self._offered("no_double_on_first_turn")

    def _offered(self, key: str) -> bool:
        """Whether the variant offers the option ``key`` and the event has it on."""
        return self.variant.offers(key) and bool(self.variant.option_value(key, self.options))

    def initial(self) -> VariantPosition:
        return self.variant.initial(self.options)

    def check(self, before: VariantPosition, roll: Roll, play: Play) -> VariantPosition:
        return self.variant.check_play(before, roll, play, self.options)

    def as_written(self, before: VariantPosition, play: Play) -> VariantPosition:
        return self.variant.apply_as_written(before, play, self.options)

    def plays(self, before: VariantPosition, roll: Roll) -> dict[VariantPosition, Play]:
        return self.variant.legal_play_map(before, roll, self.options)

    def level(self, after: VariantPosition) -> Level | None:
        return self.variant.winning_level(after, self.options)

    def points(self, level: Level) -> int:
        return self.variant.level_points(level, self.options)

    def extra_roll(self, before: VariantPosition, roll: Roll, after: VariantPosition) -> bool:
        return self.variant.grants_extra_roll(before, roll, after, self.options)

    def word(self, level: Level) -> str:
        # A message, so that a finding names the level in the reader's language.
        return Message(self.variant.level_names[level])

    def can_bear_off_everything(self, position: VariantPosition) -> bool:
        """Whether some roll lets the mover of ``position`` bear off every checker, or,
        where the last roll earns extra rolls, may roll again on the way to it."""
        if self.extra_rolls_on_last_roll:
            return any(
                self.level(after) is not None or self.extra_roll(position, roll, after)
                for roll in (Roll(*dice) for dice in ALL_ROLLS)
                for after in self.plays(position, roll)
            )
        if self.variant.checkers - position.borne_off()[0] > MOST_VALUES_A_ROLL:
            return False
        return any(
            self.level(after) is not None
            for roll in (Roll(*dice) for dice in ALL_ROLLS)
            for after in self.plays(position, roll)
        )


MOST_VALUES_A_ROLL = 8
"""The most checkers one roll can bear off in a variant with the last-roll draw: a
Russian or European acey-deucey doublet with its complement (long nardy: 4)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a game came to, derived from the replay (or, for a game the replay could not
    finish, from its ``Wins`` line)."""

    number: int
    winner: Side | None
    end: GameEnd | None
    level: Level | None
    cube: int
    """The cube value in play at the end (for a drop, the value before the double)."""
    points: int
    crawford: bool = False
    checked: bool = True
    """False when the replay stopped early (illegal play) and the result is as written."""
    jacoby_points: int | None = None
    """In a money session, the points under the Jacoby rule (a gammon or backgammon on a
    centred cube counts single); ``None`` where the rule changes nothing."""


@dataclass(frozen=True)
class RecordReport:
    """Everything a replay found, plus the results it derived.

    ``final_score`` and ``players`` are in the order the file names the players.
    """

    record: MatchRecord
    errors: tuple[RecordError, ...]
    warnings: tuple[RecordError, ...]
    games: tuple[GameResult, ...]
    final_score: tuple[int, int]
    winner: Side | None
    finished: bool
    jacoby: str = ""
    """In a money session, how the totals read the Jacoby rule: "" (no game it changes),
    "on" or "off" from the record's tag, "on (from the score lines)" or "off (from the
    score lines)"."""

    @property
    def ok(self) -> bool:
        """Whether the record breaks no rule."""
        return not self.errors

    @property
    def players(self) -> tuple[str, str]:
        """The players' names, or placeholders when the record names none."""
        return self.record.players or ("", "")

    @property
    def match_length(self) -> int:
        """The match length (0 for a money session or an unreadable file)."""
        return self.record.match_length or 0

    @property
    def winner_name(self) -> str | None:
        """The match winner's name, or ``None`` while nobody has won."""
        return None if self.winner is None else self.players[self.winner]

    def to_json(self, file: str) -> dict[str, object]:
        """The one-line JSON object of ``tourney validate --json`` (DESIGN §5)."""
        return {
            "file": file,
            "ok": self.ok,
            "match_length": self.match_length,
            "players": list(self.players),
            "final_score": list(self.final_score),
            "winner": self.winner_name,
            "games": len(self.games),
            "errors": [error.to_json() for error in self.errors],
            "warnings": [warning.to_json() for warning in self.warnings],
        }


def _jacoby_reading(jacoby: bool | None, inferred: bool, results: list[GameResult]) -> str:
    """How a money session's totals read the Jacoby rule (see ``RecordReport.jacoby``)."""
    if not any(r.jacoby_points is not None for r in results):
        return "" if jacoby is None else ("on" if jacoby else "off")
    if jacoby is None:
        return "off (neither a tag nor a score line tells)"
    word = "on" if jacoby else "off"
    return f"{word} (from the score lines)" if inferred else word


def _is_on(value: str | None) -> bool | None:
    return None if value is None else tag_flag(value)


def replay(record: MatchRecord, rules: MatchRules | None = None) -> RecordReport:
    """Replay ``record`` and report every error, with the results it derives.

    >>> from tourney.rules.records.mat import read_mat
    >>> report = replay(read_mat(" 1 point match\\n Game 1\\n A : 0  B : 0\\n"
    ...                          "  1) 31: 8/5 6/5\\n      Wins 1 point\\n"))
    >>> report.ok, report.final_score, report.winner_name
    (True, (1, 0), 'A')
    """
    with work_limit(RECORD_WORK_LIMIT, scope="the check of a record"):
        return _MatchReplay(record, rules or MatchRules()).run()


TURN_WORK_LIMIT = 250_000
"""Positions the check of one turn may explore (about a second and a half); a Russian
backgammon turn needs up to some 45,000, a cascade of doublets in Gioul millions."""
RECORD_WORK_LIMIT = 5_000_000
"""Positions the check of a whole record may explore: a game of Russian backgammon needs
about 100,000 to 150,000."""


class _MatchReplay:
    def __init__(self, record: MatchRecord, rules: MatchRules) -> None:
        self.record = record
        self.errors: list[RecordError] = list(record.problems)
        self.warnings: list[RecordError] = list(record.warnings)
        crawford = rules.crawford
        if crawford is None:
            crawford = _is_on(record.tag("Crawford"))
        self.crawford_rule = crawford is not False
        holland = rules.holland
        if holland is None:
            holland = _is_on(record.tag("Holland"))
        self.holland = bool(holland)
        self.jacoby = _is_on(record.tag("Jacoby"))
        """The Jacoby rule of a money session as its tag says; ``None``: untagged."""
        self.beavers = _is_on(record.tag("Beaver")) is not False
        self.expect_finished = rules.expect_finished
        self.allow_condoned = rules.allow_condoned
        self.automatic_doubles = rules.automatic_doubles if record.match_length == 0 else 0
        self.start = rules.start or (0, 0)
        self.engine: _Engine | None = None
        self.form = SINGLE
        self.options: VariantOptions = DEFAULT_OPTIONS
        self.engines: dict[str, _Engine] = {}
        """The engine of each variant the match is played in, by name."""
        try:
            variant: GameVariant
            if rules.variant is not None:
                variant = variant_named(rules.variant)
            elif record.variant is not None:
                variant = variant_named(record.variant)
            else:
                variant = variant_for_mat(record.tag("Variation"))
            self.form = match_form_named(rules.match_form or record.match_form or SINGLE.name)
        except NotationError as problem:
            self.error(None, None, Message("%(problem)s; no game is checked", problem=problem),
                       ErrorKind.HEADER)
        else:
            self.options = rules.options or variant.options_from_tags(record.tag)
            self.engine = self._engine_of(variant)
            if not self.form.uses_cube or not variant.uses_crawford(self.options):
                self.crawford_rule = False

    def _engine_of(self, variant: GameVariant) -> _Engine:
        if variant.name not in self.engines:
            self.engines[variant.name] = _Engine(variant, self.options)
        return self.engines[variant.name]

    def game_engine(self, number: int) -> _Engine:
        """The engine of game ``number``: its turn's variant in a match of several."""
        assert self.engine is not None
        if self.form.is_single:
            return self.engine
        name = self.form.variant_of_game(number, self.engine.variant.name)
        return self._engine_of(variant_named(name))

    def no_cube(self, engine: _Engine) -> str:
        """Why the cube is not used in a game played by ``engine``, or empty."""
        if not self.form.uses_cube:
            return Message("the cube is not used in %(form)s", form=InSentence(self.form.title))
        if not engine.variant.uses_cube(engine.options):
            return Message(
                "the cube is not used in this %(variant)s event",
                variant=InSentence(engine.variant.title),
            )
        return ""

    def error(self, game: int | None, line: int | None, message: str, kind: ErrorKind) -> None:
        self.errors.append(RecordError(game, line, message, kind))

    def warn(self, game: int | None, line: int | None, message: str) -> None:
        self.warnings.append(RecordError(game, line, message))

    def run(self) -> RecordReport:
        record = self.record
        length = record.match_length
        if length is None or self.engine is None:
            return RecordReport(record, tuple(self.errors), tuple(self.warnings), (), (0, 0),
                                None, False)
        names = record.players or ("the first player", "the second player")
        # Both readings of a money session's totals, without and with the Jacoby rule;
        # a match has only the first.
        start = list(self.start) if length > 0 else [0, 0]
        readings: dict[bool, list[int]] = {False: start.copy(), True: start.copy()}
        jacoby = self.jacoby if length == 0 else False
        inferred = False
        score = readings[bool(jacoby)]
        crawford_played = False
        results: list[GameResult] = []
        winner: Side | None = None
        opener: tuple[Side, str] | None = None
        """Who must open the next game and why, where the variant's options say."""
        for index, game in enumerate(record.games):
            engine = self.game_engine(index + 1)
            if length > 0 and max(score) >= length:
                leader = names[0] if score[0] >= length else names[1]
                self.error(game.number, game.line,
                           Message(
                               "game %(number)s comes after the match was won (%(leader)s "
                               "reached %(length)s)",
                               number=game.number, leader=leader, length=length,
                           ), ErrorKind.GAME_AFTER_MATCH)
                continue
            if jacoby is None and game.score is not None:
                fits = [on for on, totals in readings.items() if tuple(totals) == game.score]
                if len(fits) == 1:
                    jacoby, inferred = fits[0], True
                    score = readings[jacoby]
            self._check_score_line(game, score, names)
            crawford = (
                self.crawford_rule
                and length > 1
                and not crawford_played
                and (score[0] == length - 1) != (score[1] == length - 1)
            )
            restriction = None
            no_cube = self.no_cube(engine)
            if no_cube:
                restriction = no_cube
            elif length == 1:
                restriction = "the cube is not used in a 1-point match"
            elif crawford:
                restriction = "this is the Crawford game, in which neither player may double"
            holland = self.holland and crawford_played and not crawford
            crawford_played = crawford_played or crawford
            is_last = game is record.games[-1]
            game_replay = _GameReplay(self, game, names, restriction, holland, is_last,
                                      engine, expected_opener=opener)
            result = game_replay.run()
            opener = self._next_opener(engine, result, game_replay.opener)
            result = GameResult(result.number, result.winner, result.end, result.level,
                                result.cube, result.points, crawford, result.checked,
                                result.jacoby_points if length == 0 else None)
            results.append(result)
            if result.winner is not None and self.form.counts_games:
                # First to N games: each game counts 1, whatever it scored on the board.
                readings[False][result.winner] += 1
            elif result.winner is not None:
                readings[False][result.winner] += result.points
                readings[True][result.winner] += (
                    result.points if result.jacoby_points is None else result.jacoby_points
                )
        finished = length > 0 and max(score) >= length
        if finished:
            winner = Side.X if score[0] >= length else Side.O
        elif length > 0:
            message = Message(
                "the match is unfinished: %(score)s in a %(length)s-point match, nobody "
                "reached the length",
                score=f"{score[0]}-{score[1]}", length=length,
            )
            if self.expect_finished:
                self.error(None, None, message, ErrorKind.UNFINISHED)
            else:
                self.warn(None, None, message)
        return RecordReport(record, tuple(self.errors), tuple(self.warnings), tuple(results),
                            (score[0], score[1]), winner, finished,
                            _jacoby_reading(jacoby, inferred, results) if length == 0 else "")

    def _next_opener(self, engine: _Engine, result: GameResult, opener: Side | None
                     ) -> tuple[Side, str] | None:
        """Who opens the game after ``result`` (opened by ``opener``, played by
        ``engine``) and the rule that says so, or ``None`` where a roll of the dice
        decides or the record cannot tell (a drawn game under the winner rule)."""
        starter = engine.variant.next_game_starter(engine.options)
        if starter is NextGameStarter.WINNER and result.winner is not None:
            return result.winner, "the winner of a game opens the next one"
        if starter is NextGameStarter.ALTERNATE and opener is not None:
            return opener.opposite, "the players take turns to open a game"
        return None

    def _check_score_line(self, game: GameRecord, score: list[int],
                          names: tuple[str, str]) -> None:
        if game.names is not None and game.names != names:
            self.warn(game.number, game.score_line,
                      Message(
                          "the score line names %(names)s and %(names2)s, not %(names3)s and "
                          "%(names4)s",
                          names=game.names[0], names2=game.names[1], names3=names[0],
                          names4=names[1],
                      ))
        if game.score is not None and game.score != (score[0], score[1]) and \
                game is self.record.games[0] and self.start != (0, 0):
            self.error(game.number, game.score_line,
                       Message(
                           "the score line of game %(number)s says %(names)s %(score)s, "
                           "%(names2)s %(score2)s, but the match starts at %(score3)s-%(score4)s",
                           number=game.number, names=names[0], score=game.score[0],
                           names2=names[1], score2=game.score[1], score3=score[0],
                           score4=score[1],
                       ),
                       ErrorKind.SCORE_LINE)
        elif game.score is not None and game.score != (score[0], score[1]):
            self.error(game.number, game.score_line,
                       Message(
                           "the score line says %(names)s %(score)s, %(names2)s %(score2)s, "
                           "but the games before give %(score3)s-%(score4)s",
                           names=names[0], score=game.score[0], names2=names[1],
                           score2=game.score[1], score3=score[0], score4=score[1],
                       ),
                       ErrorKind.SCORE_LINE)


def _roll_text(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _plural(points: int) -> str:
    return PluralMessage("%(count)s point", "%(count)s points", points)


@dataclass
class _Ending:
    winner: Side | None
    """``None`` for a drawn game."""
    end: GameEnd | None
    level: Level | None
    points: int
    line: int
    how: str




_ANSWERS = {
    "take": N_("takes"),
    "drop": N_("drops"),
    "beaver": N_("beavers"),
    "raccoon": N_("raccoons"),
}
"""How a finding says a player answered a double (the action kinds' words)."""


@dataclass
class _GameReplay:
    match: _MatchReplay
    game: GameRecord
    names: tuple[str, str]
    restriction: str | None
    holland: bool
    is_last: bool
    engine: _Engine
    board: Any = None
    """The position with ``Side.X`` on roll (``turned()`` for ``Side.O``), of the
    variant's own position type."""
    cube: CubeState = field(default_factory=CubeState)
    condoned: tuple[int | None, Side, str] | None = None
    """An illegal play moved as written, waiting for what comes next: its line, its
    mover and the finding. The opponent's roll or double condones it."""
    roller: Side | None = None
    """Who rolls once the cube actions on the table are answered: the doubler."""
    turn: Side | None = None
    rolling_again: str | None = None
    """The roll after which the side on turn rolls again, as a message names it."""
    rolls: list[int] = field(default_factory=lambda: [0, 0])
    ending: _Ending | None = None
    stopped: bool = False
    resigner: Side | None = None
    unplayed: bool = False
    """A roll was written as ``???``: the roller resigned before playing it."""
    stated: Action | None = None
    expected_opener: tuple[Side, str] | None = None
    """Who must open this game and the rule that says so (long nardy's next-game rule)."""
    opener: Side | None = None
    last_roll_for: Side | None = None
    """Long nardy's last-roll rule: the side still to roll once after the opener bore off
    every checker (the game's result waits for that roll)."""

    def error(self, line: int | None, message: str, kind: ErrorKind) -> None:
        self.match.error(self.game.number, line, message, kind)

    def stop(self, line: int | None, message: str, kind: ErrorKind) -> None:
        self.error(line, Message(
            "%(message)s; the rest of game %(number)s is not checked",
            message=message, number=self.game.number,
        ), kind)
        self.stopped = True

    def run(self) -> GameResult:
        self.board = self.engine.initial()
        for action in self.game.actions:
            if action.kind is ActionKind.COMMENT:
                self.match.warn(self.game.number, action.line,
                                Message(
                                    "comment inside a game (%(text)s); gnubg refuses these",
                                    text=repr(action.text[:40]),
                                ))
                continue
            if action.kind is ActionKind.WIN:
                self._bounded(action, self._win)
                continue
            if action.kind is ActionKind.LOSS:
                self.match.warn(self.game.number, action.line,
                                Message(
                                    "%(text)s ignored: the Wins line states the result",
                                    text=repr(action.text),
                                ))
                continue
            self._settle_condoned(action)
            if self.stopped:
                continue
            if self.ending is not None or self.unplayed:
                self.error(action.line, Message(
                    "%(text)s comes after the game ended",
                    text=repr(action.text),
                ),
                           ErrorKind.TURN_ORDER)
                self.stopped = True
                continue
            self._bounded(action, self._act)
        self._settle_condoned(None)
        return self._result()

    def _settle_condoned(self, action: Action | None) -> None:
        """Decide an illegal play moved as written: the opponent's roll or double next
        condones it (a warning); anything else, or the game's end, leaves it an error."""
        if self.condoned is None or (action is None and self.stopped):
            return
        if action is not None and action.kind is ActionKind.COMMENT:
            return
        line, mover, finding = self.condoned
        self.condoned = None
        opponent_played_on = (
            action is not None
            and action.side is mover.opposite
            and action.kind in (ActionKind.ROLL, ActionKind.DOUBLE)
        )
        if opponent_played_on:
            self.match.warn(self.game.number, line,
                            Message(
                                "%(finding)s; condoned: %(player)s played on, so the play "
                                "stands",
                                finding=finding, player=self._name(mover.opposite),
                            ))
        else:
            self.stop(line, Message(
                "%(finding)s; not condoned: %(player)s did not play on after it",
                finding=finding, player=self._name(mover.opposite),
            ), ErrorKind.ILLEGAL_PLAY)

    def _bounded(self, action: Action, check: Callable[[Action], None]) -> None:
        """Check ``action`` within the work limit of one turn; a turn past it stops the
        game's check there, with a finding that says so."""
        try:
            with work_limit(TURN_WORK_LIMIT, scope="the check of one turn"):
                check(action)
        except TooManyPlaysError as problem:
            self.stop(action.line, Message(
                "%(strip)s: %(problem)s",
                strip=repr(action.text.strip()), problem=problem,
            ), ErrorKind.WORK_LIMIT)

    # --- actions ----------------------------------------------------------------------

    def _act(self, action: Action) -> None:
        side = action.side
        assert side is not None
        kind = action.kind
        if kind is ActionKind.ROLL:
            self._roll(action, side)
        elif kind is ActionKind.DOUBLE:
            self._double(action, side)
        elif kind in (ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON):
            self._answer(action, side)
        elif kind is ActionKind.RESIGN:
            self.resigner = side

    def _name(self, side: Side) -> str:
        return self.names[side]

    def _mover_view(self, side: Side) -> Any:
        return self.board if side is Side.X else self.board.turned()

    def _roll(self, action: Action, side: Side) -> None:
        cube = self.cube
        if cube.redoubled and cube.offered_by is not None and side is self.roller:
            # gnubg writes no Takes after a beaver: the doubler's roll accepts it (and the
            # beaverer's acceptance of a raccoon, likewise).
            self.cube = cube.take(cube.offered_by.opposite)
            self.turn = side
        if self.cube.offered_by is not None:
            self.stop(action.line, Message(
                "%(player)s rolls while a double waits for an answer",
                player=self._name(side),
            ), ErrorKind.CUBE_RESPONSE)
            return
        if self.turn is not None and side is not self.turn:
            again = Message(
                " (they roll again after %(roll)s)", roll=self.rolling_again
            ) if self.rolling_again else ""
            self.stop(action.line, Message(
                "%(player)s rolls, but it is %(player2)s's turn%(again)s",
                player=self._name(side), player2=self._name(self.turn), again=again,
            ), ErrorKind.TURN_ORDER)
            return
        self.rolling_again = None
        dice = action.dice
        if dice is None or action.form is PlayForm.UNREADABLE:
            self.stopped = True
            self.error(action.line, Message(
                "the play cannot be read; the rest of game %(number)s is not checked",
                number=self.game.number,
            ), ErrorKind.SYNTAX)
            return
        if self.turn is None and dice[0] == dice[1] and \
                not self.engine.variant.opening_allows_doublet(self.engine.options):
            self.error(action.line, Message(
                "the game opens with %(roll_text)s, but the opening roll is never a doublet "
                "(both players roll one die)",
                roll_text=_roll_text(dice),
            ),
                       ErrorKind.OPENING_DOUBLET)
        roll = Roll(dice[0], dice[1])
        if self.turn is None and side is Side.O:
            # The opener plays from the first mover's start, whoever it is (Snake's
            # White, the American game's White start apart from the other side).
            self.board = self.engine.initial().turned()
        before = self._mover_view(side)
        self.rolls[side] += 1
        if self.turn is None:
            self.opener = side
            if self.expected_opener is not None and side is not self.expected_opener[0]:
                expected, rule = self.expected_opener
                self.error(action.line, Message(
                    "%(player)s opens game %(number)s, but %(player2)s should: %(rule)s",
                    player=self._name(side), number=self.game.number, player2=self._name(expected),
                    rule=rule,
                ), ErrorKind.TURN_ORDER)
        self.turn = side.opposite
        if action.form is PlayForm.UNKNOWN:
            # "???": rolled, then resigned; the opponent's Wins line must follow.
            self.resigner = side
            self.unplayed = True
            return
        if action.form is PlayForm.DANCE:
            plays = self.engine.plays(before, roll)
            if before not in plays:
                example = next(iter(plays.values()))
                self.stop(action.line,
                          Message(
                              "%(first)s%(second)s: no move is written, but %(roll_text)s can "
                              "be played (for example %(example)s) (%(player)s on roll, "
                              "position %(to_id)s)",
                              first=roll.first, second=roll.second, roll_text=_roll_text(dice),
                              example=example, player=self._name(side), to_id=before.to_id(),
                          ),
                          ErrorKind.FALSE_DANCE)
            elif self.engine.extra_roll(before, roll, before) and (
                    self.last_roll_for is not side or self.engine.extra_rolls_on_last_roll):
                self.turn, self.rolling_again = side, _roll_text(dice)
            elif self.last_roll_for is side:
                self._after_last_roll(action.line)
            return
        assert action.play is not None
        try:
            after = self.engine.check(before, roll, action.play)
        except IllegalPlayError as problem:
            written = action.text[3:].strip()
            finding = Message(
                "%(play)s with %(roll)s: %(problem)s (%(player)s on roll, position "
                "%(position)s)",
                play=written, roll=_roll_text(dice), problem=problem,
                player=self._name(side), position=before.to_id(),
            )
            after = self._moved_as_written(before, action, side, finding)
            if after is None:
                return
        self.board = after if side is Side.X else after.turned()
        level = self.engine.level(after)
        if self.last_roll_for is side:
            if level is None and self.engine.extra_rolls_on_last_roll and \
                    self.engine.extra_roll(before, roll, after):
                # The last roll earned an extra roll: the draw is still open.
                self.turn, self.rolling_again = side, Message(
                    "%(roll)s played in full", roll=_roll_text(dice)
                )
            elif level is None:
                self._after_last_roll(action.line)
            else:
                self.ending = _Ending(None, GameEnd.DRAWN, None, 0, action.line,
                                      f"{self._name(side)} bore off every checker with the "
                                      "last roll")
            return
        if level is not None and self.engine.last_roll_draw and side is self.opener:
            self.last_roll_for = side.opposite
            return
        if level is not None:
            points = self.cube.value * self.engine.points(level)
            self.ending = _Ending(side, GameEnd.PLAYED, level, points, action.line,
                                  f"{self.engine.word(level)} by bearing off, "
                                  f"cube {self.cube.value}")
            return
        lost = self.engine.level(after.turned())
        if lost is not None:
            # The play ended the game for the other side (misère: first off loses).
            points = self.cube.value * self.engine.points(lost)
            self.ending = _Ending(side.opposite, GameEnd.PLAYED, lost, points, action.line,
                                  f"{self.engine.word(lost)}: {self._name(side)} bore off "
                                  f"first, cube {self.cube.value}")
        elif self.engine.extra_roll(before, roll, after):
            # A doublet with its complement, a 1-2 with its named doublet, ...: the same
            # player rolls again.
            self.turn, self.rolling_again = side, Message(
                "%(roll)s played in full", roll=_roll_text(dice)
            )

    def _after_last_roll(self, line: int) -> None:
        """The opener wins: the last roll did not bear every checker off."""
        opener = self.last_roll_for.opposite if self.last_roll_for is not None else None
        assert opener is not None
        self.last_roll_for = None
        level = self.engine.level(self._mover_view(opener))
        assert level is not None
        points = self.cube.value * self.engine.points(level)
        self.ending = _Ending(opener, GameEnd.PLAYED, level, points, line,
                              f"{self.engine.word(level)} by bearing off, cube {self.cube.value}")

    def _moved_as_written(self, before: Any, action: Action, side: Side, finding: str
                          ) -> Any:
        """Where the event accepts condoned plays, the position an illegal play reaches
        moved as written (its verdict waits for the next action); otherwise, or where the
        board cannot show it, ``None`` and the game's check stops here."""
        if self.match.allow_condoned and action.play is not None:
            try:
                after = self.engine.as_written(before, action.play)
            except IllegalPlayError:
                pass
            else:
                self.condoned = (action.line, side, finding)
                return after
        self.stop(action.line, finding, ErrorKind.ILLEGAL_PLAY)
        return None

    def _double(self, action: Action, side: Side) -> None:
        if self.turn is None:
            self.error(action.line, Message(
                "%(player)s doubles before the first roll of game %(number)s, but the opening "
                "roll is already thrown: nobody may double before it",
                player=self._name(side), number=self.game.number,
            ), ErrorKind.ILLEGAL_DOUBLE)
        elif side is not self.turn:
            self.stop(action.line, Message(
                "%(player)s doubles, but it is %(player2)s's turn",
                player=self._name(side), player2=self._name(self.turn),
            ), ErrorKind.TURN_ORDER)
            return
        self.roller = side
        restriction = self.restriction
        if restriction is None and self.engine.no_double_on_first_turn and \
                not self.rolls[side]:
            restriction = Message(
                "this event forbids doubling before a player's own first roll of a game"
            )
        if restriction is None and self.holland and min(self.rolls) < 2:
            restriction = Message(
                "the Holland rule forbids doubling in a post-Crawford game until each player "
                "has rolled twice"
            )
        try:
            self.cube = self.cube.offer(side, restriction=restriction)
        except CubeActionError as problem:
            reason: object = message_of(problem)
            if isinstance(reason, Message) and reason.msgid == "may not double: %(reason)s":
                reason = reason.params["reason"]
            self.error(action.line, Message(
                "%(player)s doubles, but %(problem)s", player=self._name(side), problem=reason
            ), ErrorKind.ILLEGAL_DOUBLE)
            self.cube = CubeState(self.cube.value, self.cube.owner, side)
        self._automatic_doubles_before(action.value)
        expected = self.cube.value * 2
        if action.value is not None and action.value != expected:
            self.error(action.line, Message(
                "Doubles => %(value)s, but the cube goes from %(value2)s to %(expected)s",
                value=action.value, value2=self.cube.value, expected=expected,
            ), ErrorKind.CUBE_VALUE)
        self.turn = side.opposite

    def _automatic_doubles_before(self, turned_to: int | None) -> None:
        """With automatic doubles, the centred cube the game's first double shows: turned
        to 4, one automatic double happened; to 8, two; up to the agreed limit. Anything
        else is left to the cube checks."""
        limit = self.match.automatic_doubles
        cube = self.cube
        if not limit or turned_to is None or cube.owner is not None:
            return
        if cube.value != 1 or cube.redoubled:
            return
        for doubles in range(1, limit + 1):
            if turned_to == 2 ** (doubles + 1):
                self.cube = CubeState(2**doubles, None, cube.offered_by)
                return

    def _answer(self, action: Action, side: Side) -> None:
        word = action.kind.value
        cube = self.cube
        offered_by = cube.offered_by
        if offered_by is None or offered_by is side:
            self.error(action.line, Message(
                "%(player)s %(answer)s, but no double was offered to %(player)s",
                player=self._name(side), answer=Message(_ANSWERS[word]),
            ), ErrorKind.CUBE_RESPONSE)
            return
        if action.kind is ActionKind.TAKE:
            self.cube = cube.take(side)
            self.turn = self.roller or offered_by
        elif action.kind is ActionKind.DROP:
            points = cube.drop(side)
            passed = "raccoon" if offered_by is self.roller else "beaver"
            what = (f"passed the {passed} (cube {cube.value})" if cube.redoubled
                    else f"dropped the double to {cube.value * 2}")
            self.ending = _Ending(offered_by, GameEnd.DROPPED, None, points, action.line,
                                  f"{self._name(side)} {what}")
        else:
            self._redouble(action, side)

    def _redouble(self, action: Action, side: Side) -> None:
        """A beaver or a raccoon: the answer that redoubles at once and keeps the cube."""
        word = action.kind.value
        if self.match.record.match_length:
            self.error(action.line, Message(
                "%(player)s %(answer)s, but beavers and raccoons are money-play options, never "
                "used in match play",
                player=self._name(side), answer=Message(_ANSWERS[word]),
            ),
                       ErrorKind.ILLEGAL_DOUBLE)
        elif not self.match.beavers:
            self.error(action.line, Message(
                "%(player)s %(answer)s, but the record says beavers are not played ([Beaver "
                '"Off"])',
                player=self._name(side), answer=Message(_ANSWERS[word]),
            ), ErrorKind.ILLEGAL_DOUBLE)
        try:
            if action.kind is ActionKind.BEAVER:
                cube = self.cube.beaver(side)
            else:
                cube = self.cube.raccoon(side)
        except CubeActionError as problem:
            self.error(action.line, Message(
                "%(player)s %(answer)s, but %(problem)s",
                player=self._name(side), answer=Message(_ANSWERS[word]), problem=problem,
            ),
                       ErrorKind.CUBE_RESPONSE)
            return
        if action.value is not None and action.value != cube.value:
            self.error(action.line, Message(
                "%(text)s, but the cube goes to %(value)s",
                text=action.text, value=cube.value,
            ),
                       ErrorKind.CUBE_VALUE)
        self.cube = cube
        self.turn = self.roller

    def _win(self, action: Action) -> None:
        side = action.side
        assert side is not None and action.value is not None
        if self.stated is not None:
            self.error(action.line, Message("a second result for the same game"), ErrorKind.RESULT)
            return
        self.stated = action
        written = action.value
        if self.stopped:
            return
        if self.ending is None and self.last_roll_for is not None:
            waiting = self._name(self.last_roll_for)
            if self.engine.can_bear_off_everything(self._mover_view(self.last_roll_for)):
                self.error(action.line, Message(
                    "the Wins line comes before %(waiting)s's last roll, which could still "
                    "bear off every checker and draw the game",
                    waiting=waiting,
                ),
                           ErrorKind.RESULT)
            self._after_last_roll(action.line)
        ending = self.ending
        if ending is not None:
            if ending.winner is None:
                self.error(action.line, Message(
                    "the Wins line credits %(player)s, but the game is drawn (%(how)s)",
                    player=self._name(side), how=ending.how,
                ), ErrorKind.RESULT)
            elif side is not ending.winner:
                self.error(action.line,
                           Message(
                               "the Wins line credits %(player)s, but %(player2)s won (%(how)s)",
                               player=self._name(side), player2=self._name(ending.winner),
                               how=ending.how,
                           ), ErrorKind.RESULT)
            elif written != ending.points and not (
                # Some producers write a money game's Wins line under the Jacoby rule.
                self.match.record.match_length == 0
                and written == self._jacoby_points(ending)
            ):
                self.error(action.line,
                           Message(
                               "Wins %(plural)s, but the replay gives %(plural2)s (%(how)s)",
                               plural=_plural(written), plural2=_plural(ending.points),
                               how=ending.how,
                           ), ErrorKind.RESULT)
            return
        if self.cube.offered_by is not None and side is self.cube.offered_by:
            # A Wins line right after a double: the opponent gave up instead of answering.
            refused = self.cube.drop(side.opposite)
            self.ending = _Ending(side, GameEnd.DROPPED, None, refused, action.line,
                                  "double not taken")
            if written != refused:
                self.error(action.line, Message(
                    "Wins %(plural)s, but a refused double scores %(plural2)s",
                    plural=_plural(written), plural2=_plural(refused),
                ), ErrorKind.RESULT)
            return
        if self.resigner is not None and self.resigner is side:
            self.error(action.line, Message(
                "%(player)s resigned but the Wins line credits %(player)s",
                player=self._name(side),
            ), ErrorKind.RESULT)
        # Resignation: gnubg reads N <= cube as single, <= 2 x cube as gammon, else
        # backgammon; more than a backgammon is impossible. Other variants score their
        # levels their own way (hypergammon without gammons, oin/mars), read the same way.
        cube = self.cube.value
        engine = self.engine
        levels = engine.variant.levels(engine.options)
        top = levels[-1]
        if written > cube * engine.points(top) or written < 1:
            self.error(action.line, Message(
                "Wins %(plural)s by resignation, but with the cube at %(cube)s a resignation "
                "is worth at most %(plural2)s (a %(word)s)",
                plural=_plural(written), cube=cube, plural2=_plural(cube * engine.points(top)),
                word=engine.word(top),
            ),
                       ErrorKind.RESIGNATION)
            level = top
        else:
            level = next(lv for lv in levels if written <= cube * engine.points(lv))
            if written != cube * engine.points(level):
                self.match.warn(self.game.number, action.line,
                                Message(
                                    "Wins %(plural)s by resignation with the cube at %(cube)s: "
                                    "read as a %(word)s worth %(plural2)s",
                                    plural=_plural(written), cube=cube, word=engine.word(level),
                                    plural2=_plural(cube * engine.points(level)),
                                ))
        self.ending = _Ending(side, GameEnd.RESIGNED, level, cube * engine.points(level),
                              action.line,
                              "resignation")

    # --- the result ---------------------------------------------------------------------

    def _result(self) -> GameResult:
        number = self.game.number
        cube = self.cube.value
        if self.stopped:
            stated = self.stated
            if stated is None or stated.side is None or stated.value is None:
                if not self.is_last:
                    self.error(None, Message("the game has no result line"), ErrorKind.UNFINISHED)
                return GameResult(number, None, None, None, cube, 0, checked=False)
            return GameResult(number, stated.side, None, None, cube, stated.value,
                              checked=False)
        if self.ending is None and self.last_roll_for is not None and not \
                self.engine.can_bear_off_everything(self._mover_view(self.last_roll_for)):
            self._after_last_roll(self.game.line)
        ending = self.ending
        if ending is None:
            if self.resigner is not None:
                self.error(None, Message(
                    "%(player)s resigned, but no Wins line says for how much",
                    player=self._name(self.resigner),
                ), ErrorKind.RESULT)
            message = "the game has no result (no Wins line): it is unfinished"
            if self.is_last:
                self.match.warn(number, None, message)
            else:
                self.error(None, message, ErrorKind.UNFINISHED)
            return GameResult(number, None, None, None, cube, 0)
        if ending.winner is None:
            return GameResult(number, None, GameEnd.DRAWN, None, cube, 0)
        if self.stated is None:
            self.match.warn(number, ending.line, Message(
                "no Wins line; the replay gives %(player)s %(plural)s",
                player=self._name(ending.winner), plural=_plural(ending.points),
            ))
        return GameResult(number, ending.winner, ending.end, ending.level, cube,
                          ending.points, jacoby_points=self._jacoby_points(ending))

    def _jacoby_points(self, ending: _Ending) -> int | None:
        """The game's points under the Jacoby rule where it changes them: a gammon or
        backgammon, played out or resigned, with the cube still in the middle."""
        if ending.level is None or ending.level is Level.SINGLE or self.cube.owner is not None:
            return None
        if ending.end not in (GameEnd.PLAYED, GameEnd.RESIGNED):
            return None
        return self.cube.value * self.engine.points(Level.SINGLE)


def iter_findings(report: RecordReport) -> Iterator[tuple[str, RecordError]]:
    """Errors then warnings, each tagged ``"error"`` or ``"warning"``."""
    for error in report.errors:
        yield "error", error
    for warning in report.warnings:
        yield "warning", warning
