"""The tiebreaks an event can chain after match wins: one registry of named metrics.

Every tiebreak is one :class:`Tiebreak` in :data:`TIEBREAKS`, carrying its key, its names
and its metric. Stores, pages, forms, the API and the exports ask this registry (by key
with :func:`tiebreak_named`, a whole chain with :func:`tiebreak_chain`) and never spell a
tiebreak out themselves, so adding one means adding its entry here and its test.

Terminology: an entrant's *wins* are matches won (plus byes where the event counts a bye
as a win). *Opponents* are the entrants actually played (a bye has no opponent and adds
nothing to Buchholz). *Net game points* are points won minus points lost, each side's
points in a match capped at the match length N so an overshooting last game does not
count extra. All values are integers; a higher value is better.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from tourney.formats.errors import FormatInvariantError, FormatUserError
from tourney.formats.model import EntrantId, MatchOutcome
from tourney.rules.messages import N_, Capitalized, Message


@dataclass(frozen=True, slots=True)
class Record:
    """One entrant's results, as the metrics need them."""

    entrant: EntrantId
    wins: int
    opponents: tuple[EntrantId, ...]
    """One entry per match played (an opponent met twice appears twice)."""
    beaten: tuple[EntrantId, ...]
    net_points: int
    half_points: int = 0
    """Points scored over all matches, in half points (a ½-½ draw gives 1)."""


def build_records(
    outcomes: Iterable[MatchOutcome],
    *,
    entrants: Collection[EntrantId] = (),
    bye_is_win: bool = True,
) -> dict[EntrantId, Record]:
    """Every entrant's record from the outcomes (entrants with no outcome get zeros)."""
    wins: dict[EntrantId, int] = {e: 0 for e in entrants}
    opponents: dict[EntrantId, list[EntrantId]] = {e: [] for e in entrants}
    beaten: dict[EntrantId, list[EntrantId]] = {e: [] for e in entrants}
    net: dict[EntrantId, int] = {e: 0 for e in entrants}
    halves: dict[EntrantId, int] = {e: 0 for e in entrants}
    for outcome in outcomes:
        for entrant in (outcome.a, outcome.b):
            if entrant is not None:
                wins.setdefault(entrant, 0)
                opponents.setdefault(entrant, [])
                beaten.setdefault(entrant, [])
                net.setdefault(entrant, 0)
        if outcome.b is None:
            if bye_is_win:
                wins[outcome.a] += 1
            continue
        loser = outcome.loser
        assert loser is not None
        wins[outcome.winner] += 1
        beaten[outcome.winner].append(loser)
        for entrant in (outcome.a, outcome.b):
            other = outcome.opponent_of(entrant)
            assert other is not None
            opponents[entrant].append(other)
            won, lost = outcome.points_of(entrant)
            if outcome.length > 0:
                won, lost = min(won, outcome.length), min(lost, outcome.length)
            net[entrant] += won - lost
            halves[entrant] = halves.get(entrant, 0) + outcome.half_points_of(entrant)
    return {e: Record(e, wins[e], tuple(opponents[e]), tuple(beaten[e]), net[e],
                      halves.get(e, 0)) for e in wins}


Metric = Callable[[Collection[EntrantId], Mapping[EntrantId, Record]], dict[EntrantId, int] | None]
"""Scores of some entrants (higher is better) given everyone's records, or ``None`` when
the metric cannot tell those entrants apart at all."""


def buchholz(
    entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int]:
    """Sum of the opponents' wins."""
    return {e: sum(records[o].wins for o in records[e].opponents) for e in entrants}


def median_buchholz(
    entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int]:
    """Buchholz without the best and the worst opponent (with at least three opponents)."""
    out: dict[EntrantId, int] = {}
    for entrant in entrants:
        scores = sorted(records[o].wins for o in records[entrant].opponents)
        out[entrant] = sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)
    return out


def buchholz_minus_worst(
    entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int]:
    """Buchholz without the worst opponent (with at least two opponents)."""
    out: dict[EntrantId, int] = {}
    for entrant in entrants:
        scores = sorted(records[o].wins for o in records[entrant].opponents)
        out[entrant] = sum(scores[1:]) if len(scores) >= 2 else sum(scores)
    return out


def sonneborn_berger(
    entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int]:
    """Sum of the wins of the opponents beaten (no draws in backgammon)."""
    return {e: sum(records[o].wins for o in records[e].beaten) for e in entrants}


def net_game_points(
    entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int]:
    """Points won minus points lost, each match capped at its length."""
    return {e: records[e].net_points for e in entrants}


def game_points(
    entrants: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int]:
    """Points scored over all matches, in half points: a ½-½ draw counts half a point
    each, kept exactly as the integer 1."""
    return {e: records[e].half_points for e in entrants}


def head_to_head(
    group: Collection[EntrantId], records: Mapping[EntrantId, Record]
) -> dict[EntrantId, int] | None:
    """Wins within a tied group, or ``None`` when head-to-head cannot decide.

    Head-to-head is used only when it is decisive: every two members of the group have
    played each other, so the mini-table is complete, and it separates someone.
    """
    members = set(group)
    for entrant in members:
        met = set(records[entrant].opponents) & members
        if met != members - {entrant}:
            return None
    mini = {e: sum(1 for o in records[e].beaten if o in members) for e in members}
    if len(set(mini.values())) == 1:
        return None
    return mini


@dataclass(frozen=True, slots=True, eq=False)
class Tiebreak:
    """A tiebreak an event can put in its chain: its key, its names and its metric.

    Each tiebreak exists once, in :data:`TIEBREAKS`, so two are equal when they are the
    same object.
    """

    key: str
    """The name an event stores, and forms, the API and event files use (``buchholz_cut1``)."""
    metric_key: str
    """The name of its value in a standings row and in ``tourney simulate`` output
    (``buchholz-minus-worst``); both spellings are fixed by files already written."""
    name: str
    """As a sentence reads it: "ahead on median Buchholz 10 to 9"."""
    short_name: str
    """For narrow columns (a phone, a printed table): ``Med. Buch.``."""
    explanation: str
    """One sentence a player understands."""
    metric: Metric
    within_group: bool = False
    """Whether the scores depend on who is tied (head-to-head). Such a tiebreak has no
    value of its own per entrant, so standings show no column for it."""
    in_half_points: bool = False
    """Whether its values are half points (game points with ½-½ draws): shown halved."""

    def format_value(self, value: int) -> str:
        """A value as a standings column shows it: ``3½`` for 7 half points.

        >>> GAME_POINTS.format_value(7), BUCHHOLZ.format_value(7)
        ('3½', '7')
        """
        if not self.in_half_points:
            return str(value)
        return f"{value // 2}½" if value % 2 else str(value // 2)

    @property
    def title(self) -> str:
        """The name as a heading or a choice shows it: ``Median Buchholz``."""
        return Capitalized(self.name)

    def __repr__(self) -> str:
        return f"tiebreak_named({self.key!r})"


HEAD_TO_HEAD = Tiebreak(
    key="head_to_head",
    metric_key="head-to-head",
    name=N_("head-to-head"),
    short_name=N_("H2H"),
    explanation=N_("Among tied players who have all played each other, the one who won most "
    "of those matches goes ahead."),
    metric=head_to_head,
    within_group=True,
)
BUCHHOLZ = Tiebreak(
    key="buchholz",
    metric_key="buchholz",
    name=N_("Buchholz"),
    short_name=N_("Buch."),
    explanation=N_("The match wins of all your opponents added up: beating strong players "
    "counts more."),
    metric=buchholz,
)
MEDIAN_BUCHHOLZ = Tiebreak(
    key="median_buchholz",
    metric_key="median-buchholz",
    name=N_("median Buchholz"),
    short_name=N_("Med. Buch."),
    explanation=N_("Buchholz without your best and your worst opponent."),
    metric=median_buchholz,
)
BUCHHOLZ_MINUS_WORST = Tiebreak(
    key="buchholz_cut1",
    metric_key="buchholz-minus-worst",
    name=N_("Buchholz minus worst opponent"),
    short_name=N_("Buch. −1"),
    explanation=N_("Buchholz without your weakest opponent."),
    metric=buchholz_minus_worst,
)
SONNEBORN_BERGER = Tiebreak(
    key="sonneborn_berger",
    metric_key="sonneborn-berger",
    name=N_("Sonneborn-Berger"),
    short_name=N_("S-B"),
    explanation=N_("The match wins of the opponents you beat, added up."),
    metric=sonneborn_berger,
)
NET_GAME_POINTS = Tiebreak(
    key="net_game_points",
    metric_key="net-game-points",
    name=N_("net game points"),
    short_name=N_("Net"),
    explanation=N_("Points you won minus points you lost, counting at most the match length "
    "from each match."),
    metric=net_game_points,
)

GAME_POINTS = Tiebreak(
    key="game_points",
    metric_key="game-points",
    name=N_("game points"),
    short_name=N_("Pts"),
    explanation=N_("The points you scored in all your matches; where the event scores a "
    "drawn game ½-½, each draw counts half a point."),
    metric=game_points,
    in_half_points=True,
)

TIEBREAKS: tuple[Tiebreak, ...] = (
    HEAD_TO_HEAD,
    BUCHHOLZ,
    MEDIAN_BUCHHOLZ,
    BUCHHOLZ_MINUS_WORST,
    SONNEBORN_BERGER,
    NET_GAME_POINTS,
    GAME_POINTS,
)
"""Every tiebreak, in the order a flight form offers them (DESIGN §4)."""

_BY_KEY = {tiebreak.key: tiebreak for tiebreak in TIEBREAKS}
_BY_METRIC_KEY = {tiebreak.metric_key: tiebreak for tiebreak in TIEBREAKS}


def tiebreak_named(key: str) -> Tiebreak:
    """The tiebreak an event stores as ``key``.

    Raises:
        FormatUserError: no tiebreak has that key (the message lists the keys).
    """
    try:
        return _BY_KEY[key]
    except KeyError:
        known = ", ".join(_BY_KEY)
        raise FormatUserError(Message(
            "Unknown tiebreak %(key)s: use one of %(known)s.", key=repr(key), known=known
        )) from None


def tiebreak_of_metric(metric_key: str) -> Tiebreak:
    """The tiebreak whose value a standings row names ``metric_key``.

    Raises:
        FormatInvariantError: no tiebreak's value has that name (the standings code
            writes only those, besides ``wins`` and a knockout's ``round``).
    """
    try:
        return _BY_METRIC_KEY[metric_key]
    except KeyError:
        raise FormatInvariantError(f"No tiebreak's value is named {metric_key!r}.") from None


def tiebreak_chain(keys: Iterable[str]) -> tuple[Tiebreak, ...]:
    """The tiebreaks of a chain given by key, in order.

    Raises:
        FormatUserError: an unknown key, or a tiebreak named twice.
    """
    chain = tuple(tiebreak_named(key) for key in keys)
    if len(set(chain)) != len(chain):
        raise FormatUserError(Message("Each tiebreak may appear once in the chain."))
    return chain
