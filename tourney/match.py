"""Match-to-N scoring: from the games entered so far to the score, the Crawford game and the winner.

Everything here is a pure function over frozen dataclasses; nothing is stored or printed.
``score_match`` scores a whole list of games, ``add_game`` scores one more, ``rescore``
recomputes after an earlier game was corrected or deleted, and ``check_final_score``
checks a result entered as a final score only. Entries the rules make impossible are
refused with a ``MatchEntryError`` whose message a tournament director can act on.

Terminology (DESIGN §3):

- *N* is the match length; the first player to reach N points or more wins. The last
  game may overshoot N, and the score keeps the actual points.
- The *Crawford game* is the first game after one player first reaches N-1 while the
  other has less. Nobody may double in it, so its cube stays at 1 and no double can be
  dropped. It happens at most once per match, and never when the Crawford rule is off.
- *Post-Crawford* games are the games after the Crawford game: the cube is free again.
  Under the *Holland rule* nobody may double in a post-Crawford game until each side has
  played at least two rolls in it.
- *Double match point* (DMP): both players at N-1, so the next game decides the match.
- The *cube* of a game entry is the value in play when the game ended; for a dropped
  double it is the value before the refused double, which is what the winner scores.
- The *start* is the score before the first game, normally 0-0 but a handicap start
  such as 1-0 is allowed.
- The *variant* (``tourney.rules.variants``) sets what a result level scores and whether
  the cube and the Crawford rule are used at all: hypergammon counts every win single
  unless the event counts gammons; long nardy scores oin 1, mars 2 and koks 2 (3 where
  the event scores it), and plays without the cube, hence without Crawford, unless the
  event turns them on.

Scores are ``(x, o)`` tuples indexed by ``Side``: ``score[Side.X]`` is the first player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import NamedTuple, TypeAlias

from tourney.rules import GameEnd, Level, Side
from tourney.rules.match_forms import SINGLE, MatchForm
from tourney.rules.messages import InSentence, ListMessage, Message
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    GameVariant,
    VariantOptions,
    is_registered,
    registered_variants,
    variant_named,
)

Score: TypeAlias = tuple[int, int]
"""Points of ``Side.X`` and ``Side.O``, in that order."""

__all__ = [
    "DrawScoring",
    "GameEntry",
    "GameKind",
    "HalfPoints",
    "MatchEntryError",
    "MatchRules",
    "MatchState",
    "Rejection",
    "Rescore",
    "Score",
    "ScoredGame",
    "add_game",
    "as_points",
    "check_final_score",
    "correct_game",
    "delete_game",
    "doubling_restriction",
    "format_half_points",
    "format_score",
    "holland_allows_double",
    "rescore",
    "score_match",
]


class MatchEntryError(ValueError):
    """A game entry (or starting score, or final score) that the match rules make impossible.

    ``game_number`` is the 1-based number of the refused game, or ``None`` when the
    problem is the starting or final score rather than one game.
    """

    def __init__(self, message: str, game_number: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.game_number = game_number


class DrawScoring(Enum):
    """What a drawn game (long nardy's last roll) gives each player, as the event chooses.

    Scores are kept in whole points and, beside them, in half points
    (:attr:`MatchState.half_score`), so a ½-½ draw is stored exactly as an integer: 1
    half point each. A match is won only by winning games: a draw that would take a
    player to N or beyond scores nothing (no match is decided by a draw).

    >>> [scoring.label for scoring in DrawScoring]
    ['0-0', '½-½', '1-1']
    """

    NOTHING = "nothing"
    HALF = "half"
    ONE = "one"

    @property
    def half_points(self) -> int:
        """Half points a draw gives each player."""
        return {DrawScoring.NOTHING: 0, DrawScoring.HALF: 1, DrawScoring.ONE: 2}[self]

    @property
    def label(self) -> str:
        """The score a draw adds, as a score sheet shows it."""
        return {DrawScoring.NOTHING: "0-0", DrawScoring.HALF: "½-½", DrawScoring.ONE: "1-1"}[self]


def format_half_points(half: int) -> str:
    """A score kept in half points, as people write it.

    >>> format_half_points(7), format_half_points(8)
    ('3½', '4')
    """
    return f"{half // 2}½" if half % 2 else str(half // 2)


class HalfPoints(int):
    """A count of half points that prints as points: ``str(HalfPoints(7)) == "3½"``.

    Pages and sheets print it as people write a score; arithmetic, sorting and JSON see
    the exact integer of half points.
    """

    def __str__(self) -> str:
        return format_half_points(self)


def as_points(value: int) -> int | float:
    """A standings value as a number of points for a spreadsheet cell or a JSON field:
    a count of half points halved (7 half points: ``3.5``), any other value as it is.

    >>> as_points(HalfPoints(7)), as_points(HalfPoints(8)), as_points(7)
    (3.5, 4.0, 7)
    """
    return value / 2 if isinstance(value, HalfPoints) else value


def _is_power_of_two(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The event's rules for one match.

    >>> MatchRules(7)
    MatchRules(length=7, crawford=True, holland=False, cube_limit=None, jacoby=False)
    >>> from tourney.rules.variants import LONG_NARDY
    >>> MatchRules(7, variant=LONG_NARDY).uses_cube
    False

    Raises:
        ValueError: a length below 1, a cube limit that is not a power of two, a variant
            that is not a registered variant object, or options that are not
            ``VariantOptions``.
    """

    length: int
    """N: the points needed to win the match."""
    crawford: bool = True
    """Whether the Crawford rule applies (on by default, DESIGN §3)."""
    holland: bool = False
    """Whether the Holland rule applies to post-Crawford games (needs the Crawford rule)."""
    cube_limit: int | None = None
    """The highest cube value allowed, or ``None``: the rules themselves set no limit."""
    jacoby: bool = False
    """House rule: gammons and backgammons count single unless the cube was turned."""
    variant: GameVariant = DEFAULT_VARIANT
    """The game the match is played in: what each result level scores, and whether the
    cube and the Crawford rule are used."""
    options: VariantOptions = DEFAULT_OPTIONS
    """The event's choices for its variant (gammons in hypergammon; the cube, Crawford
    and koks in long nardy)."""
    form: MatchForm = SINGLE
    """Which variant each game is played in (``variant`` for a one-variant match) and
    whether the match is first to N points, first to N games or a fixed number of games."""
    draw_scoring: DrawScoring = DrawScoring.NOTHING
    """What a drawn game gives each player (only where the variant has drawn games)."""

    def __post_init__(self) -> None:
        # A registered variant, so that the repr's ``variant_named`` finds it again.
        if not is_registered(self.variant):
            raise ValueError(f"{self.variant!r} is not a variant of the game")
        if not isinstance(self.options, VariantOptions):
            raise ValueError(f"{self.options!r} is not a VariantOptions")
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1:
            raise ValueError(f"a match is played to at least 1 point, not {self.length!r}")
        if self.cube_limit is not None and not (
            isinstance(self.cube_limit, int) and _is_power_of_two(self.cube_limit)
        ):
            raise ValueError(
                f"the cube limit must be a cube value (1, 2, 4, 8, ...), not {self.cube_limit!r}"
            )

    def __repr__(self) -> str:
        shown = (
            f"MatchRules(length={self.length!r}, crawford={self.crawford!r}, "
            f"holland={self.holland!r}, cube_limit={self.cube_limit!r}, jacoby={self.jacoby!r}"
        )
        # The variant and options only when they differ from the defaults, so the repr of
        # a standard match stays short; ``variant_named`` gives the variant back.
        if self.variant is not DEFAULT_VARIANT:
            shown += f", variant=variant_named({self.variant.name!r})"
        if self.options != DEFAULT_OPTIONS:
            shown += f", options={self.options!r}"
        if self.form is not SINGLE:
            shown += f", form=match_form_named({self.form.name!r})"
        if self.draw_scoring is not DrawScoring.NOTHING:
            shown += f", draw_scoring={self.draw_scoring}"
        return shown + ")"

    def for_game(self, number: int) -> MatchRules:
        """The rules of game ``number``: in a match of several variants, that game's
        variant (what its levels score, whether it may draw).

        >>> from tourney.rules.match_forms import TAVLI
        >>> MatchRules(5, form=TAVLI).for_game(2).variant.name
        'plakoto'
        """
        if self.form.is_single:
            return self
        name = self.form.variant_of_game(number, self.variant.name)
        if name == self.variant.name:
            return self
        return replace(self, variant=variant_named(name))

    @property
    def counts_games(self) -> bool:
        """Whether every game counts 1 whatever its cube or level (first to N games)."""
        return self.form.counts_games

    @property
    def uses_cube(self) -> bool:
        """Whether the doubling cube is used in this event's variant and match form."""
        return self.form.uses_cube and self.variant.uses_cube(self.options)

    @property
    def uses_crawford(self) -> bool:
        """Whether the Crawford rule applies: the ``crawford`` flag, and a variant that
        uses it (long nardy only with the cube and ``options.crawford``).

        >>> from tourney.rules.variants import LONG_NARDY, VariantOptions
        >>> MatchRules(7, variant=LONG_NARDY, options=VariantOptions(cube=True)).uses_crawford
        False
        """
        return (
            self.crawford and self.form.uses_cube and self.variant.uses_crawford(self.options)
        )

    def level_name(self, level: Level) -> str:
        """The variant's word for a result level (long nardy: oin, mars, koks).

        >>> from tourney.rules.variants import LONG_NARDY
        >>> str(MatchRules(5, variant=LONG_NARDY).level_name(Level.GAMMON))
        'mars'
        """
        return self.variant.level_names[level]

    def level_points(self, level: Level) -> int:
        """What a game won at ``level`` scores on a cube of 1 in this event's variant.

        >>> from tourney.rules.variants import HYPERGAMMON
        >>> MatchRules(5, variant=HYPERGAMMON).level_points(Level.GAMMON)
        1
        """
        return self.variant.level_points(level, self.options)


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as a director enters it from a score sheet (DESIGN §3).

    >>> GameEntry(Side.X, GameEnd.PLAYED, cube=2, level=Level.GAMMON)
    GameEntry(winner=<Side.X: 0>, end=<GameEnd.PLAYED: 'played'>, cube=2, level=<Level.GAMMON: 2>)
    """

    winner: Side | None
    """The side that won; ``None`` only for a drawn game (long nardy's last roll)."""
    end: GameEnd
    cube: int = 1
    """The cube value in play when the game ended; for a dropped double, the value before
    the refused double (1 for a refused initial double)."""
    level: Level | None = Level.SINGLE
    """Single, gammon or backgammon for a played-out or resigned game; ``None`` for a drop."""

    @classmethod
    def dropped(cls, winner: Side, cube: int = 1) -> GameEntry:
        """A game won because the other side refused a double; ``cube`` is before the double.

        >>> GameEntry.dropped(Side.O).cube
        1
        """
        return cls(winner, GameEnd.DROPPED, cube, None)

    @classmethod
    def drawn(cls, cube: int = 1) -> GameEntry:
        """A game drawn by long nardy's last roll: nobody wins, nobody scores.

        >>> GameEntry.drawn().end
        <GameEnd.DRAWN: 'drawn'>
        """
        return cls(None, GameEnd.DRAWN, cube, None)


class GameKind(Enum):
    """Where a game stands with respect to the Crawford rule."""

    NORMAL = "normal"
    """Before the Crawford game, or any game when the Crawford rule is off."""
    CRAWFORD = "crawford"
    """The Crawford game: no doubling."""
    POST_CRAWFORD = "post-crawford"
    """After the Crawford game (or starting past it): the cube is free, Holland may apply."""


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A game entry with its place in the match: the score before and after, and its kind."""

    number: int
    """1-based number of the game in the match."""
    entry: GameEntry
    score_before: Score
    kind: GameKind
    points: int
    """What the game scored for its winner."""
    score_after: Score
    double_match_point: bool = False
    """Whether both players stood at N-1 before the game."""
    draw_half_points: int = 0
    """Half points a drawn game gave each player (the event's draw scoring)."""

    @property
    def winner(self) -> Side | None:
        """The side that won the game; ``None`` for a drawn game."""
        return self.entry.winner


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match after the games entered so far.

    Build it with ``score_match`` or ``add_game``, never by hand: the fields must agree.
    """

    rules: MatchRules
    start: Score
    games: tuple[ScoredGame, ...]
    score: Score
    """The actual points, which may exceed N after the last game."""
    crawford_game: int | None
    """Number of the Crawford game, played or next to be played; ``None`` if there is none."""
    next_kind: GameKind | None
    """Kind of the next game, or ``None`` when the match is over."""
    double_match_point: bool
    """Whether the next game is played at double match point (both at N-1)."""
    is_over: bool
    winner: Side | None
    start_after_crawford: bool = False
    """Whether the Crawford game had already been played before ``start`` (a resumed match)."""

    @property
    def half_score(self) -> Score:
        """The score in half points: twice ``score`` plus the half points of ½-½ draws,
        which whole points cannot show."""
        odd = sum(game.draw_half_points % 2 for game in self.games) % 2
        return (2 * self.score[0] + odd, 2 * self.score[1] + odd)

    @property
    def length(self) -> int:
        """N, the match length."""
        return self.rules.length

    @property
    def entries(self) -> tuple[GameEntry, ...]:
        """The game entries in order, as they were entered."""
        return tuple(game.entry for game in self.games)

    @property
    def next_number(self) -> int:
        """The number the next game would have."""
        return len(self.games) + 1

    @property
    def away(self) -> Score:
        """Points each side still needs (0 for the winner): "3-away, 1-away"."""
        n = self.rules.length
        return (max(n - self.score[0], 0), max(n - self.score[1], 0))


class Rejection(NamedTuple):
    """A game that ``rescore`` could not keep, with the reason."""

    game_number: int
    message: str


@dataclass(frozen=True, slots=True)
class Rescore:
    """The result of rescoring after a correction: the valid prefix and what was rejected."""

    state: MatchState
    """The match scored over the longest prefix of games that is still possible."""
    rejected: tuple[Rejection, ...] = ()
    """Every game after that prefix, each with a sentence saying why it was not kept."""

    @property
    def is_clean(self) -> bool:
        """Whether every game was kept."""
        return not self.rejected


def format_score(score: Sequence[int]) -> str:
    """A score as a director writes it.

    >>> format_score((4, 2))
    '4-2'
    """
    return f"{score[0]}-{score[1]}"


def _parse_score(score: Sequence[int], what: str) -> Score:
    """``score`` as a ``Score`` tuple (forms and JSON give lists).

    Raises:
        MatchEntryError: not two whole numbers of at least 0.
    """
    if len(score) != 2 or any(
        isinstance(points, bool) or not isinstance(points, int) for points in score
    ):
        raise MatchEntryError(Message(
            "The %(what)s %(score)s must be two whole numbers.",
            what=what, score=repr(score),
        ))
    if min(score) < 0:
        raise MatchEntryError(
            Message(
                "The %(what)s cannot be negative, but it was %(score)s and %(score2)s.",
                what=what, score=score[0], score2=score[1],
            )
        )
    return (score[0], score[1])


def _check_start(rules: MatchRules, start: Sequence[int], after_crawford: bool) -> Score:
    checked = _parse_score(start, Message("starting score"))
    n = rules.length
    if max(checked) >= n:
        raise MatchEntryError(
            Message(
                "The starting score %(checked)s must be below %(n)s for both players in a "
                "%(n)s-point match, or the match would already be over.",
                checked=format_score(checked), n=n,
            )
        )
    if after_crawford and not (rules.uses_crawford and max(checked) == n - 1):
        if rules.uses_crawford:
            raise MatchEntryError(Message(
                "The Crawford game cannot have been played before a starting score of "
                "%(score)s: it follows the first time a player reaches %(reach)s.",
                score=format_score(checked), reach=n - 1,
            ))
        raise MatchEntryError(Message(
            "The Crawford game cannot have been played before a starting score of "
            "%(score)s: it follows the first time a player reaches %(reach)s, and the "
            "Crawford rule is off for this match.",
            score=format_score(checked), reach=n - 1,
        ))
    return checked


def _next_kind(rules: MatchRules, score: Score, crawford_done: bool) -> GameKind:
    """The kind of the next game from ``score``, given whether the Crawford game is past."""
    n = rules.length
    if not rules.uses_crawford:
        return GameKind.NORMAL
    if crawford_done:
        return GameKind.POST_CRAWFORD
    # Crawford rule: the first game after a player first reaches N-1 while the other has
    # less. Only one side scores per game, so this happens once, at the first N-1.
    if max(score) == n - 1 and min(score) < n - 1:
        return GameKind.CRAWFORD
    # A handicap start at N-1 all: both players are already past the point where the
    # Crawford rule would have applied, so the game is post-Crawford with no Crawford game.
    if n > 1 and min(score) == n - 1:
        return GameKind.POST_CRAWFORD
    return GameKind.NORMAL


def _state(rules: MatchRules, start: Score, games: tuple[ScoredGame, ...],
           after_crawford: bool) -> MatchState:
    score = games[-1].score_after if games else start
    n = rules.length
    winner = _winner(rules, score, len(games))
    crawford_game = next(
        (game.number for game in games if game.kind is GameKind.CRAWFORD), None
    )
    next_kind = None
    if winner is None:
        next_kind = _next_kind(rules, score, after_crawford or crawford_game is not None)
        if next_kind is GameKind.CRAWFORD:
            crawford_game = len(games) + 1
    return MatchState(
        rules=rules,
        start=start,
        games=games,
        score=score,
        crawford_game=crawford_game,
        next_kind=next_kind,
        double_match_point=winner is None and n > 1 and min(score) == n - 1,
        is_over=winner is not None,
        winner=winner,
        start_after_crawford=after_crawford,
    )


def _winner(rules: MatchRules, score: Score, played: int) -> Side | None:
    """Who has won the match after ``played`` games, if anyone.

    A fixed match (the mixed match) is decided once its rotation is played and the
    totals differ; level totals go on to the decider. Otherwise the first to N wins.
    """
    if rules.form.fixed:
        if played < len(rules.form.rotation) or score[0] == score[1]:
            return None
        return Side.X if score[0] > score[1] else Side.O
    return next((side for side in Side if score[side] >= rules.length), None)


def _cube_restriction(rules: MatchRules, kind: GameKind) -> str | None:
    """Why nobody may double in a game of this kind at all, or ``None``."""
    if rules.counts_games:
        return "every game counts 1 in a match of games"
    if rules.length == 1:
        return Message("the cube is not used in a 1-point match")
    if not rules.uses_cube:
        return Message(
            "the cube is not used in this %(variant)s event", variant=_variant_words(rules)
        )
    if kind is GameKind.CRAWFORD:
        return Message("this is the Crawford game")
    if rules.cube_limit == 1:
        return Message("this event's cube limit is 1")
    return None


def _variant_words(rules: MatchRules) -> str:
    """The variant's name inside a sentence: "long nardy", "hypergammon"; for a match of
    several variants, the match form's: "tavli" (translated as the name itself)."""
    if not rules.form.is_single:
        return InSentence(rules.form.title)
    return InSentence(rules.variant.title)


def _level_words(rules: MatchRules) -> str:
    """The result levels the event scores, as a director reads them: "oin or mars"."""
    words = [Message(rules.level_name(level)) for level in rules.variant.levels(rules.options)]
    if len(words) == 1:
        return words[0]
    return Message(
        "%(levels)s or %(last)s", levels=ListMessage(tuple(words[:-1])), last=words[-1]
    )


def _points(rules: MatchRules, kind: GameKind, entry: GameEntry) -> int:
    """What an entry that has passed ``_entry_problem`` scores."""
    if entry.end is GameEnd.DRAWN:
        return 0
    if rules.counts_games:
        # First to N games: each game counts 1, whatever the cube or level.
        return 1
    if (
        rules.jacoby
        and entry.end is not GameEnd.DROPPED
        and entry.cube == 1
        and _cube_restriction(rules, kind) is None
    ):
        # Jacoby rule (a house rule in match play, DESIGN §3): gammons and backgammons
        # count single while the cube has not been turned. Where the cube may not be
        # turned at all (Crawford game, 1-point match) the rule has no purpose, so full
        # values count there.
        return 1
    if entry.end is GameEnd.DROPPED or entry.level is None:
        return entry.cube
    # The variant says what a level is worth: hypergammon without gammons scores every
    # win single, long nardy an oin 1, a mars 2 and a koks 2 or 3 (event option).
    return entry.cube * rules.level_points(entry.level)


def _decided(state: MatchState, number: int) -> str:
    return Message(
        "Game %(number)s cannot be entered: the match was already decided %(score)s in "
        "game %(game)s.",
        number=number, score=format_score(state.score), game=len(state.games),
    )


def _entry_problem(rules: MatchRules, kind: GameKind, number: int, entry: GameEntry) -> str | None:
    """Why ``entry`` cannot be game ``number``, of ``kind``, or ``None`` when it can."""
    if not isinstance(entry.end, GameEnd):
        return Message(
            "Game %(number)s needs to say how it ended (played out, double dropped or "
            "resigned), not %(end)s.",
            number=number, end=repr(entry.end),
        )
    if entry.end is GameEnd.DRAWN:
        return _draw_problem(rules, number, entry)
    if not isinstance(entry.winner, Side):
        return Message(
            "Game %(number)s needs a winner (X or O), not %(winner)s.",
            number=number, winner=repr(entry.winner),
        )
    cube = entry.cube
    if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1:
        return _not_a_cube(number, cube)
    if not _is_power_of_two(cube):
        return Message(
            "Game %(number)s has the cube at %(cube)s, which a cube cannot show: a cube "
            "value is 1, 2, 4, 8, 16 or another doubling.",
            number=number, cube=cube,
        )
    dropped = entry.end is GameEnd.DROPPED
    if rules.counts_games and entry.level not in (None, Level.SINGLE):
        return (
            f"Game {number} is entered as a {rules.level_name(entry.level)}, but in a "
            f"match of games every game counts 1: enter it as a win."
        )
    # A dropped double scores the cube value alone, never multiplied (DESIGN §2).
    if dropped and entry.level is not None:
        return Message(
            "Game %(number)s ended with a dropped double, which scores the cube value only, "
            "so it cannot also be a %(level)s.",
            number=number, level=Message(rules.level_name(entry.level)),
        )
    if not dropped and not isinstance(entry.level, Level):
        if entry.end is GameEnd.PLAYED:
            return Message(
                "Game %(number)s was played out, so it needs a result: %(levels)s.",
                number=number, levels=_level_words(rules),
            )
        return Message(
            "Game %(number)s was resigned, so it needs a result: %(levels)s.",
            number=number, levels=_level_words(rules),
        )
    if (cube > 1 or dropped) and _cube_restriction(rules, kind) is not None:
        # No doubling in this game (1-point match, Crawford game, cube limit 1): the cube
        # stays at 1 and there is no double to drop.
        return _no_doubling(rules, kind, number, dropped=dropped)
    limit = rules.cube_limit
    if limit is not None and cube > limit:
        return Message(
            "Game %(number)s has the cube at %(cube)s, above this event's cube limit of "
            "%(limit)s.",
            number=number, cube=cube, limit=limit,
        )
    if limit is not None and dropped and cube == limit:
        return Message(
            "Game %(number)s is entered as a dropped double with the cube at %(cube)s, but "
            "%(cube)s is this event's cube limit, so it could not be doubled again. For a "
            "drop, enter the cube value before the refused double.",
            number=number, cube=cube,
        )
    return None


def _draw_problem(rules: MatchRules, number: int, entry: GameEntry) -> str | None:
    """Why a drawn ``entry`` cannot be game ``number``, or ``None`` when it can."""
    if not rules.variant.can_draw(rules.options):
        drawing = " or ".join(
            v.name for v in registered_variants() if v.offers("last_roll_draw"))
        if rules.variant.offers("last_roll_draw"):
            return Message(
                "Game %(number)s cannot be a draw: only an event with the last-roll rule "
                "has drawn games, and this %(variant)s event does not use it.",
                number=number, variant=_variant_words(rules),
            )
        return Message(
            "Game %(number)s cannot be a draw: only a %(drawing)s event with the last-roll "
            "rule has drawn games, and this %(variant)s event has none.",
            number=number, drawing=drawing, variant=_variant_words(rules),
        )
    if entry.winner is not None:
        return Message(
            "Game %(number)s is entered as drawn, so it cannot also have a winner.",
            number=number,
        )
    if entry.level is not None:
        return Message(
            "Game %(number)s is entered as drawn, so it cannot also be a %(level)s.",
            number=number, level=Message(rules.level_name(entry.level)),
        )
    cube = entry.cube
    if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 \
            or not _is_power_of_two(cube):
        return _not_a_cube(number, cube)
    if cube > 1 and not rules.uses_cube:
        return Message(
            "This %(variant)s event is played without the doubling cube, so in game "
            "%(number)s the cube must stay at 1.",
            variant=_variant_words(rules), number=number,
        )
    return None


def _no_doubling(rules: MatchRules, kind: GameKind, number: int, *, dropped: bool) -> str:
    """Why game ``number`` cannot have a cube above 1 (or a dropped double): a 1-point
    match, no cube in the variant, the Crawford game, or a cube limit of 1."""
    if rules.counts_games:
        if dropped:
            return Message(
                "In a match of games every game counts 1, so in game %(number)s no double "
                "can have been dropped.",
                number=number,
            )
        return Message(
            "In a match of games every game counts 1, so in game %(number)s the cube must "
            "stay at 1.",
            number=number,
        )
    if rules.length == 1:
        if dropped:
            return Message(
                "The cube is not used in a 1-point match, so in game %(number)s no double "
                "can have been dropped.",
                number=number,
            )
        return Message(
            "The cube is not used in a 1-point match, so in game %(number)s the cube must "
            "stay at 1.",
            number=number,
        )
    if not rules.uses_cube:
        if dropped:
            return Message(
                "This %(variant)s event is played without the doubling cube, so in game "
                "%(number)s no double can have been dropped.",
                variant=_variant_words(rules), number=number,
            )
        return Message(
            "This %(variant)s event is played without the doubling cube, so in game "
            "%(number)s the cube must stay at 1.",
            variant=_variant_words(rules), number=number,
        )
    if kind is GameKind.CRAWFORD:
        if dropped:
            return Message(
                "Game %(number)s is the Crawford game: no doubling is allowed, so no double "
                "can have been dropped.",
                number=number,
            )
        return Message(
            "Game %(number)s is the Crawford game: no doubling is allowed, so the cube must "
            "stay at 1.",
            number=number,
        )
    if dropped:
        return Message(
            "This event's cube limit is 1: no doubling is allowed, so in game %(number)s no "
            "double can have been dropped.",
            number=number,
        )
    return Message(
        "This event's cube limit is 1: no doubling is allowed, so in game %(number)s the "
        "cube must stay at 1.",
        number=number,
    )


def _not_a_cube(number: int, cube: object) -> str:
    return Message(
        "Game %(number)s has the cube at %(cube)s; the cube starts at 1 and only doubles.",
        number=number, cube=repr(cube),
    )


def _problem(state: MatchState, entry: GameEntry) -> str | None:
    """Why ``entry`` cannot be the next game of ``state``, or ``None`` when it can."""
    if state.next_kind is None:
        return _decided(state, state.next_number)
    game_rules = state.rules.for_game(state.next_number)
    return _entry_problem(game_rules, state.next_kind, state.next_number, entry)


def add_game(state: MatchState, entry: GameEntry) -> MatchState:
    """The match after one more game.

    >>> state = score_match(MatchRules(5), [])
    >>> add_game(state, GameEntry(Side.O, GameEnd.PLAYED, cube=2, level=Level.GAMMON)).score
    (0, 4)

    Raises:
        MatchEntryError: the rules make the entry impossible as the next game; the
            message says why and ``game_number`` which game it is.
    """
    problem = _problem(state, entry)
    if problem is not None or state.next_kind is None:
        raise MatchEntryError(problem or _decided(state, state.next_number), state.next_number)
    points = _points(state.rules.for_game(state.next_number), state.next_kind, entry)
    after = list(state.score)
    draw_half_points = 0
    if entry.winner is not None:
        after[entry.winner] += points
    else:
        draw_half_points = _draw_half_points(state)
        whole, odd_before = divmod(draw_half_points, 2)
        # Two ½ draws make a whole point: the odd half carried so far completes it.
        carried = sum(game.draw_half_points % 2 for game in state.games) % 2
        whole += odd_before and carried
        after = [after[0] + whole, after[1] + whole]
    scored = ScoredGame(
        number=state.next_number,
        entry=entry,
        score_before=state.score,
        kind=state.next_kind,
        points=points,
        score_after=(after[0], after[1]),
        double_match_point=state.double_match_point,
        draw_half_points=draw_half_points,
    )
    return _state(state.rules, state.start, (*state.games, scored), state.start_after_crawford)


def _draw_half_points(state: MatchState) -> int:
    """Half points the next game, drawn, gives each player: the event's draw scoring,
    or nothing where that would take a player to N (a draw decides no match)."""
    half = state.rules.draw_scoring.half_points
    if max(state.half_score) + half >= 2 * state.rules.length:
        return 0
    return half


def _initial_state(rules: MatchRules, start: Sequence[int], after_crawford: bool) -> MatchState:
    return _state(rules, _check_start(rules, start, after_crawford), (), after_crawford)


def score_match(
    rules: MatchRules,
    games: Sequence[GameEntry],
    *,
    start: Sequence[int] = (0, 0),
    after_crawford: bool = False,
) -> MatchState:
    """Score a match from its games, in order.

    ``after_crawford`` says that the Crawford game was already played before ``start``
    (a match resumed from a score sheet at, say, 4-3 in a 5-point match).

    The 5-point table: X wins 2 (2-0), O 1 (2-1), X 2 (4-1), Crawford game to O (4-2),
    O 2 (4-4, double match point), X 2 on a 2-cube (6-4).

    >>> single = lambda side, cube=1: GameEntry(side, GameEnd.PLAYED, cube)
    >>> state = score_match(MatchRules(5), [
    ...     single(Side.X, 2), single(Side.O), single(Side.X, 2), single(Side.O),
    ...     single(Side.O, 2), single(Side.X, 2)])
    >>> state.score, state.crawford_game, state.winner
    ((6, 4), 4, <Side.X: 0>)
    >>> [game.kind.value for game in state.games]
    ['normal', 'normal', 'normal', 'crawford', 'post-crawford', 'post-crawford']

    Raises:
        MatchEntryError: the starting score is impossible, or the first impossible game
            (``game_number`` says which).
    """
    state = _initial_state(rules, start, after_crawford)
    for entry in games:
        state = add_game(state, entry)
    return state


def rescore(
    rules: MatchRules,
    games: Sequence[GameEntry],
    *,
    start: Sequence[int] = (0, 0),
    after_crawford: bool = False,
) -> Rescore:
    """Score a corrected list of games, keeping the longest prefix that is still possible.

    Correcting or deleting an earlier game can move the Crawford game or end the match
    sooner, so later games may become impossible; they are reported, never kept.

    >>> drop = GameEntry.dropped
    >>> result = rescore(MatchRules(1), [GameEntry(Side.X, GameEnd.PLAYED), drop(Side.O)])
    >>> result.state.score, result.rejected[0].game_number
    ((1, 0), 2)

    Raises:
        MatchEntryError: the starting score itself is impossible.
    """
    state = _initial_state(rules, start, after_crawford)
    rejected: list[Rejection] = []
    for index, entry in enumerate(games):
        number = index + 1
        if rejected:
            first = rejected[0].game_number
            rejected.append(
                Rejection(
                    number,
                    Message(
                        "Game %(number)s was not kept because game %(first)s before it is no "
                        "longer possible; enter it again once game %(first)s is corrected.",
                        number=number, first=first,
                    ),
                )
            )
            continue
        problem = _problem(state, entry)
        if problem is not None:
            rejected.append(Rejection(number, problem))
            if state.is_over:
                # After the match is decided every later game gets that same reason.
                rejected.extend(
                    Rejection(later, _decided(state, later))
                    for later in range(number + 1, len(games) + 1)
                )
                break
            continue
        state = add_game(state, entry)
    return Rescore(state, tuple(rejected))


def correct_game(state: MatchState, number: int, entry: GameEntry) -> Rescore:
    """Rescore ``state``'s match with game ``number`` replaced by ``entry``.

    Raises:
        IndexError: there is no game ``number``.
    """
    entries = list(state.entries)
    if not 1 <= number <= len(entries):
        raise IndexError(f"there is no game {number} to correct")
    entries[number - 1] = entry
    return rescore(state.rules, entries, start=state.start,
                   after_crawford=state.start_after_crawford)


def delete_game(state: MatchState, number: int) -> Rescore:
    """Rescore ``state``'s match without game ``number``; the later games move up one.

    Raises:
        IndexError: there is no game ``number``.
    """
    entries = list(state.entries)
    if not 1 <= number <= len(entries):
        raise IndexError(f"there is no game {number} to delete")
    del entries[number - 1]
    return rescore(state.rules, entries, start=state.start,
                   after_crawford=state.start_after_crawford)


def doubling_restriction(state: MatchState) -> str | None:
    """Why nobody may double at all in the next game, or ``None`` when the cube is free.

    The reason is a clause that fits ``CubeState.may_double(side, restriction=...)``.
    The Holland rule depends on the rolls played, so see ``holland_allows_double``.

    >>> str(doubling_restriction(score_match(MatchRules(1), [])))
    'the cube is not used in a 1-point match'
    >>> str(doubling_restriction(score_match(MatchRules(5), [], start=(4, 2))))
    'this is the Crawford game'
    >>> doubling_restriction(score_match(MatchRules(5), [])) is None
    True
    """
    if state.next_kind is None:
        return "the match is over"
    return _cube_restriction(state.rules, state.next_kind)


def holland_allows_double(
    kind: GameKind, rolls_by_doubler: int, rolls_by_opponent: int, rules: MatchRules
) -> bool:
    """Whether the Holland rule lets a player double now, given the rolls each side has played.

    Holland rule (DESIGN §3): in a post-Crawford game neither player may double until each
    side has played at least two rolls in that game. Other games, and events without the
    rule, are not affected (the Crawford game's own ban is ``doubling_restriction``'s).

    >>> rules = MatchRules(5, holland=True)
    >>> holland_allows_double(GameKind.POST_CRAWFORD, 2, 1, rules)
    False
    >>> holland_allows_double(GameKind.POST_CRAWFORD, 2, 2, rules)
    True

    Raises:
        ValueError: a negative number of rolls.
    """
    if rolls_by_doubler < 0 or rolls_by_opponent < 0:
        raise ValueError("a number of rolls cannot be negative")
    if not rules.holland or kind is not GameKind.POST_CRAWFORD:
        return True
    return rolls_by_doubler >= 2 and rolls_by_opponent >= 2


def _possible_points(rules: MatchRules, kind: GameKind, most: int) -> frozenset[int]:
    """Every score one game of ``kind`` can give its winner, up to ``most`` points."""
    found: set[int] = set()
    for exponent in range(max(most, 1).bit_length()):
        cube = 1 << exponent
        candidates = [GameEntry.dropped(Side.X, cube)] + [
            GameEntry(Side.X, GameEnd.PLAYED, cube, level) for level in Level
        ]
        for entry in candidates:
            if _entry_problem(rules, kind, 1, entry) is None:
                found.add(_points(rules, kind, entry))
    return frozenset(points for points in found if points <= most)


def check_final_score(
    rules: MatchRules,
    score: Sequence[int],
    *,
    start: Sequence[int] = (0, 0),
    after_crawford: bool = False,
) -> Side:
    """The winner of a match entered as a final score only, after checking it can happen.

    A final score is possible when exactly one player has reached N and some sequence of
    legal games from ``start`` ends there, under the Crawford rule, the cube limit and the
    unused cube of a 1-point match.

    >>> check_final_score(MatchRules(7), (4, 7))
    <Side.O: 1>
    >>> try:
    ...     check_final_score(MatchRules(1), (4, 0))
    ... except MatchEntryError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    A final score of 4-0 cannot be reached in a 1-point match: ...

    Raises:
        MatchEntryError: the score does not finish the match, or no legal games reach it.
    """
    begin = _initial_state(rules, start, after_crawford)
    final = _parse_score(score, Message("final score"))
    n = rules.length
    shown = format_score(final)
    winners = [side for side in Side if final[side] >= n]
    if not winners:
        raise MatchEntryError(
            Message(
                "A final score of %(shown)s does not finish a %(n)s-point match: one player "
                "must reach %(n)s.",
                shown=shown, n=n,
            )
        )
    if len(winners) == 2:
        raise MatchEntryError(
            Message(
                "A final score of %(shown)s is impossible: the match ends as soon as one "
                "player reaches %(n)s, so only one player can have %(n)s or more.",
                shown=shown, n=n,
            )
        )
    if final[0] < begin.score[0] or final[1] < begin.score[1]:
        raise MatchEntryError(
            Message(
                "A final score of %(shown)s is below the starting score %(score)s.",
                shown=shown, score=format_score(begin.score),
            )
        )
    winner = winners[0]
    # Search the scores reachable from the start. What a game may score depends on the
    # score and on whether the Crawford game is past, so those two make up a node.
    points_by_kind = {kind: _possible_points(rules, kind, max(final)) for kind in GameKind}
    seen: set[tuple[Score, bool]] = set()
    frontier = [(begin.score, begin.start_after_crawford)]
    while frontier:
        node = frontier.pop()
        if node in seen:
            continue
        seen.add(node)
        now, crawford_done = node
        kind = _next_kind(rules, now, crawford_done)
        for side in Side:
            for points in points_by_kind[kind]:
                after = list(now)
                after[side] += points
                reached = (after[0], after[1])
                if reached == final:
                    return winner
                if max(reached) < n and reached[0] <= final[0] and reached[1] <= final[1]:
                    frontier.append((reached, crawford_done or kind is GameKind.CRAWFORD))
    raise MatchEntryError(
        Message(
            "A final score of %(shown)s cannot be reached in a %(n)s-point match: no game the "
            "rules allow takes the winner from below %(n)s to %(final)s.",
            shown=shown, n=n, final=final[winner],
        )
    )
