"""The flight formats: one object per format, with its key, label and behaviour.

Everything outside this module asks the registry (:func:`flight_format`) what a flight
of a given format does: how it is drawn, how it moves on, which actions a director may
take on it. Nothing else names the formats one by one.

Terminology:
    key          the format as stored with a flight (``"knockout"``, ``"swiss"`` ...).
    action       something a director does to a flight as a whole (:class:`Action`):
                 draw it, publish or undo its draw, pair its next round, enter a player
                 late.
    flight state the plain facts that decide which actions a flight allows
                 (:class:`FlightState`): drawn or not, fed from another flight, its
                 rounds so far.
    refusal      why an action is not allowed now (:class:`Refusal`). An action is
                 allowed exactly when it has no refusal, so the buttons a page shows and
                 the checks of the services that carry the actions out cannot disagree.
    fed flight   a flight that takes the losers of another flight. A fed knockout (a
                 consolation) is planned into the bracket of the flight it is fed from:
                 it is drawn, published and undone with that flight, never on its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatInvariantError, FormatUserError
from tourney.formats.model import Bye, EntrantId, Pairing, Standing
from tourney.formats.roundrobin import berger_schedule
from tourney.rules.messages import N_, InSentence, Message


class Action(Enum):
    """What a director may do to a flight as a whole."""

    DRAW = "draw"
    PUBLISH = "publish"
    """Publish the drafted draw or round: players see it and results can be entered."""
    UNDO = "undo"
    """Undo an unpublished draw (in a Swiss, its newest unpublished round)."""
    PAIR_NEXT_ROUND = "pair_next_round"
    REPAIR_ROUND = "repair_round"
    """Pair the newest round again, before any of its matches has started."""
    ENTER_LATE_WITH_RECORD = "enter_late_with_record"
    """Enter a player late with a starting record, paired from the next round."""
    ENTER_LATE_IN_BYE = "enter_late_in_bye"
    """Enter a player late in a bye of the first round of the main draw."""


class Refusal(Enum):
    """Why an action is not allowed now."""

    NOT_OFFERED = "the format has no such action"
    DRAWN = "the flight is drawn already"
    NOT_DRAWN = "the flight is not drawn yet"
    FED = "the flight is drawn with the flight it is fed from"
    FINISHED = "the flight is finished"
    NO_DRAFT = "nothing is drafted"
    NO_ROUNDS = "no round is drawn"
    PUBLISHED = "the draw is published"
    ROUND_OPEN = "the newest round is not finished"
    COMPLETE = "no round is due"
    ROUND_STARTED = "a match of the newest round has started"


@dataclass(frozen=True, kw_only=True)
class FlightState:
    """The facts about a flight that decide which actions it allows."""

    format: str
    """The format's key."""
    drawn: bool = False
    finished: bool = False
    fed: bool = False
    """The flight takes the losers of another flight."""
    rounds: int = 0
    """Rounds drawn so far, drafted or published."""
    draft_rounds: int = 0
    """Rounds drafted and not yet published."""
    newest_round_finished: bool = False
    newest_round_started: bool = False
    """A match of the newest round has games or a result."""
    round_due: bool = False
    """Another round is to be paired (a Swiss with rounds to go and players left)."""


@dataclass(frozen=True)
class BracketDraw:
    """What a knockout draw plans its bracket from."""

    positions: Sequence[EntrantId | None]
    """The draw positions (``None`` a bye), from ``ko.random_positions`` or
    ``ko.seeded_positions``."""
    seed: int
    lengths: ko.RoundLengths
    fed: Sequence[ko.FlightSpec] = ()
    """The flights the draw's losers feed, wired in order."""
    name: str = "main"
    """The main draw's name."""
    reset: bool = False
    """A double elimination's grand final has a reset match."""


Check = Callable[[FlightState], Refusal | None]
"""Why an action is refused in a state, or ``None`` when it is allowed."""


def _check_draw(state: FlightState) -> Refusal | None:
    if state.drawn:
        return Refusal.DRAWN
    return Refusal.FED if state.fed else None


def _check_publish(state: FlightState) -> Refusal | None:
    return None if state.draft_rounds else Refusal.NO_DRAFT


def _check_undo_whole_draw(state: FlightState) -> Refusal | None:
    if not state.rounds:
        return Refusal.NO_ROUNDS
    return Refusal.PUBLISHED if state.draft_rounds < state.rounds else None


def _check_undo_newest_round(state: FlightState) -> Refusal | None:
    if not state.rounds:
        return Refusal.NO_ROUNDS
    # Only the newest round can be a draft: the next is paired once it is finished.
    return None if state.draft_rounds else Refusal.PUBLISHED


def _check_pair_next_round(state: FlightState) -> Refusal | None:
    if not state.drawn:
        return Refusal.NOT_DRAWN
    if not state.newest_round_finished:
        return Refusal.ROUND_OPEN
    return None if state.round_due else Refusal.COMPLETE


def _check_repair_round(state: FlightState) -> Refusal | None:
    if not state.rounds:
        return Refusal.NO_ROUNDS
    return Refusal.ROUND_STARTED if state.newest_round_started else None


def _check_late_entry(state: FlightState) -> Refusal | None:
    if not state.drawn:
        return Refusal.NOT_DRAWN
    return Refusal.FINISHED if state.finished else None


def _with_source(check: Check) -> Check:
    """The check for a flight that a fed flight leaves to the flight it is fed from."""

    def checked(state: FlightState) -> Refusal | None:
        return Refusal.FED if state.fed else check(state)

    return checked


class FlightFormat:
    """A flight format: its key and label, how it is drawn, which actions it allows.

    The registry holds one instance of each subclass. Behaviour a format does not have
    (planning a bracket for a Swiss) is a bug to ask for: callers check the flags first.
    """

    key: ClassVar[str]
    """The format as stored with a flight."""
    label: ClassVar[str]
    is_knockout: ClassVar[bool] = False
    """Drawn whole at once as a bracket, together with the flights its losers feed."""
    joins_bracket: ClassVar[bool] = False
    """Fed from a knockout, the flight is planned into that knockout's bracket."""
    has_losers_bracket: ClassVar[bool] = False
    """Losers play on in a second bracket of the same flight, up to a grand final (with a
    reset match when the flight asks for one)."""
    pairs_round_by_round: ClassVar[bool] = False
    """Each round is paired from the records once the one before is finished; the flight
    has a number of rounds or lives, and takes late entries with a record."""
    byes_recorded: ClassVar[bool] = False
    """A bye marks a player's record (and may count as a match win)."""
    qualifies: ClassVar[bool] = False
    """Its standings can send its top finishers on to a knockout (a qualifying stage)."""
    has_pools: ClassVar[bool] = False
    """The flight may be split into pools played side by side."""
    checks: ClassVar[Mapping[Action, Check]]
    """The actions the format offers, each with its check."""

    def __repr__(self) -> str:
        return f"flight_format({self.key!r})"

    def refusal(self, state: FlightState, action: Action) -> Refusal | None:
        """Why ``action`` is not allowed in ``state``, or ``None`` when it is."""
        check = self.checks.get(action)
        return Refusal.NOT_OFFERED if check is None else check(state)

    def allowed_actions(self, state: FlightState) -> frozenset[Action]:
        """Every action allowed in ``state``."""
        return frozenset(action for action in Action if self.refusal(state, action) is None)

    def plan(self, draw: BracketDraw) -> ko.Bracket:
        """The bracket a knockout draw plans from its draw positions and fed flights.

        Raises:
            FormatUserError: the fed flights do not fit the draw.
        """
        raise FormatInvariantError(f"A {self.label} flight is not drawn as a bracket.")

    def bracket_standings(
        self, bracket: ko.Bracket, flights: Sequence[str]
    ) -> tuple[tuple[Standing, ...], EntrantId | None]:
        """The table and the winner (once decided) of the bracket flights of one flight."""
        raise FormatInvariantError(f"A {self.label} flight has no bracket.")

    def bracket_flight_label(self, name: str) -> str | None:
        """How placeholders name a flight of the bracket, or ``None``: by its flight."""
        return None

    def schedule(
        self, entrants: Sequence[EntrantId], *, shuffle_seed: int | None
    ) -> tuple[tuple[Pairing | Bye, ...], ...]:
        """Every round of a flight drawn whole at the start.

        Raises:
            FormatUserError: too few entrants.
        """
        raise FormatInvariantError(f"A {self.label} flight has no schedule drawn at the start.")


class Knockout(FlightFormat):
    """Single elimination; its losers may feed consolation and last chance flights."""

    key = "knockout"
    label = N_("Knockout")
    is_knockout = True
    joins_bracket = True
    checks: ClassVar[Mapping[Action, Check]] = {
        Action.DRAW: _check_draw,
        Action.PUBLISH: _with_source(_check_publish),
        Action.UNDO: _with_source(_check_undo_whole_draw),
        Action.ENTER_LATE_IN_BYE: _with_source(_check_late_entry),
    }

    def plan(self, draw: BracketDraw) -> ko.Bracket:
        """The main draw with the flights its losers feed (``reset`` does not apply)."""
        return ko.plan_knockout(
            draw.positions, seed=draw.seed, lengths=draw.lengths, fed=draw.fed, name=draw.name
        )

    def bracket_standings(
        self, bracket: ko.Bracket, flights: Sequence[str]
    ) -> tuple[tuple[Standing, ...], EntrantId | None]:
        """The flight's table by the round each player went out in, and its winner."""
        flight = flights[0]
        return ko.knockout_standings(bracket, flight), ko.champion(bracket, flight)


class DoubleElimination(Knockout):
    """A winners' and a losers' bracket and a grand final, all in one flight."""

    key = "double_elimination"
    label = N_("Double elimination")
    joins_bracket = False
    has_losers_bracket = True
    _BRACKET_LABELS: ClassVar[Mapping[str, str]] = {
        "main": "winners' bracket",
        "losers": "losers' bracket",
        "final": "final",
    }

    def plan(self, draw: BracketDraw) -> ko.Bracket:
        """The winners' bracket (always ``main``), losers' bracket and final.

        Raises:
            FormatUserError: a flight is fed from it.
        """
        if draw.fed:
            raise FormatUserError(
                Message(
                    "A double elimination has its own losers' bracket: no other flight can be "
                    "fed from it.",
                )
            )
        return ko.plan_double_elimination(
            draw.positions, seed=draw.seed, lengths=draw.lengths, reset=draw.reset
        )

    def bracket_standings(
        self, bracket: ko.Bracket, flights: Sequence[str]
    ) -> tuple[tuple[Standing, ...], EntrantId | None]:
        """One table for the three brackets, and the winner of the final (planned last)."""
        final = bracket.flights[-1].name
        return ko.double_elimination_standings(bracket), ko.champion(bracket, final)

    def bracket_flight_label(self, name: str) -> str | None:
        """``winners' bracket``, ``losers' bracket`` or ``final``."""
        return self._BRACKET_LABELS.get(name, name)


class Swiss(FlightFormat):
    """Rounds paired one by one within groups of equal record, for a number of rounds or
    until players run out of lives."""

    key = "swiss"
    label = N_("Swiss")
    qualifies = True
    pairs_round_by_round = True
    byes_recorded = True
    checks: ClassVar[Mapping[Action, Check]] = {
        Action.DRAW: _check_draw,
        Action.PUBLISH: _check_publish,
        Action.UNDO: _check_undo_newest_round,
        Action.PAIR_NEXT_ROUND: _check_pair_next_round,
        Action.REPAIR_ROUND: _check_repair_round,
        Action.ENTER_LATE_WITH_RECORD: _check_late_entry,
    }


class RoundRobin(FlightFormat):
    """Everyone plays everyone once, every round drawn at the start (Berger tables)."""

    key = "roundrobin"
    label = N_("Round robin")
    qualifies = True
    has_pools = True
    checks: ClassVar[Mapping[Action, Check]] = {
        Action.DRAW: _check_draw,
        Action.PUBLISH: _check_publish,
        Action.UNDO: _check_undo_whole_draw,
    }

    def schedule(
        self, entrants: Sequence[EntrantId], *, shuffle_seed: int | None
    ) -> tuple[tuple[Pairing | Bye, ...], ...]:
        """Every round, from the entrants in order or shuffled from ``shuffle_seed``."""
        order = list(entrants)
        if shuffle_seed is not None:
            random.Random(shuffle_seed).shuffle(order)
        return berger_schedule(order)


FLIGHT_FORMATS: tuple[FlightFormat, ...] = (Knockout(), DoubleElimination(), Swiss(), RoundRobin())
"""Every flight format, in the order forms offer them."""

_BY_KEY = {fmt.key: fmt for fmt in FLIGHT_FORMATS}


def flight_format(key: str) -> FlightFormat:
    """The format stored as ``key``.

    Raises:
        FormatUserError: no format has that key.
    """
    try:
        return _BY_KEY[key]
    except KeyError:
        raise FormatUserError(Message("Unknown format %(key)s.", key=repr(key))) from None


def refusal(state: FlightState, action: Action) -> Refusal | None:
    """Why ``action`` is not allowed for a flight in ``state``, or ``None`` when it is."""
    return flight_format(state.format).refusal(state, action)


def allowed_actions(state: FlightState) -> frozenset[Action]:
    """Every action a director may take on a flight in ``state``."""
    return flight_format(state.format).allowed_actions(state)


def feed_refusal(source: str, target: str) -> str | None:
    """Why a flight of format ``target`` can never be drawn with the losers of a flight
    of format ``source``, or ``None`` when it can.

    Only a knockout's losers are fed on, into a flight planned into its bracket; a
    double elimination keeps its losers in its own losers' bracket.
    """
    src, dst = flight_format(source), flight_format(target)
    if not src.is_knockout:
        return Message(
            "Losers are fed on only from a knockout; a %(format)s has none. "
            "To take its top finishers, choose it under “Qualifiers come from”.",
            format=InSentence(src.label),
        )
    if src.has_losers_bracket:
        return Message(
            "A %(format)s keeps its losers in its own losers' bracket.",
            format=InSentence(src.label),
        )
    if not dst.joins_bracket:
        return Message(
            "A %(format)s cannot take the losers of a knockout: "
            "choose the knockout format for a consolation or last chance.",
            format=InSentence(dst.label),
        )
    return None
