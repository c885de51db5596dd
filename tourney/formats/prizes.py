"""Club money of a tournament: entry fees, side pools, the prize fund and its payouts,
and points per place (DESIGN §8). Pure functions over integers.

This is the *tournament's* money (what players pay in, what the prizes are), not money
play between players (:mod:`tourney.formats.money`).

Terminology:
    minor units   every amount is a whole number of the currency's smallest unit (cents,
                  pence, øre); ``2000`` EUR is €20.00. Nothing here is ever a float.
    taken         the fees actually paid into a fund, less what was refunded.
    retention     the house's share of a flight's takings: ``taken × percent / 100``,
                  rounded down (the odd minor units stay in the prize fund).
    sponsor       an amount added to a flight's prize fund, not subject to retention.
    prize fund    ``taken - retention + sponsor``: everything paid out as prizes.
    payout table  the percentage of the prize fund each place takes; either fixed
                  (``50/30/20``) or by field size (one row per smallest field it serves).
                  With fewer players ranked than places paid, the places there are share
                  the whole fund in proportion to their percentages.
    place         1 + the number of players ranked strictly ahead; players who share a
                  place (two losing semifinalists at "=3") share the prizes of the places
                  they cover (=3 with two players covers places 3 and 4).
    remainder     minor units left after dividing: they go, one each, to the better
                  place first, and among players sharing a place to the first listed
                  (:data:`REMAINDER_RULE`, printed on the payout sheet).
    side pool     an optional pool of a flight with its own fee; only the players who
                  bought in share it, by their places in the flight, under its own
                  payout table; a side pool keeps no retention.
    buy-back      a re-entry into a consolation or last chance at that flight's buy-back
                  fee; it goes into that flight's fund. A player's side pool entries stay.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tourney.formats.errors import FormatUserError
from tourney.rules.messages import Message

REMAINDER_RULE = Message(
    "Amounts are in whole cents; an odd cent left after a division goes to the better "
    "place, and between players sharing a place to the one listed first."
)
"""The rule for remainders, as the payout sheet states it."""

MAX_AMOUNT = 100_000_000_00
"""The largest amount accepted anywhere (a hundred million in major units)."""
MAX_PLACES = 64
"""The most places a payout or points table may name."""


@dataclass(frozen=True)
class Currency:
    """A currency amounts are kept in, with how pages write it."""

    code: str
    symbol: str
    suffix: bool = False
    """The symbol follows the amount (``20.00 kr``)."""
    decimals: int = 2


CURRENCIES: tuple[Currency, ...] = (
    Currency("EUR", "€"),
    Currency("USD", "$"),
    Currency("GBP", "£"),
    Currency("CHF", "CHF "),
    Currency("NOK", " kr", suffix=True),
    Currency("SEK", " kr", suffix=True),
    Currency("DKK", " kr", suffix=True),
    Currency("TRY", "₺"),
)
"""Every currency the app keeps club money in."""
DEFAULT_CURRENCY = CURRENCIES[0]


def find_currency(code: str) -> Currency:
    """The currency with this ISO code.

    Raises:
        FormatUserError: a code the app does not know.
    """
    for currency in CURRENCIES:
        if currency.code == code.strip().upper():
            return currency
    known = ", ".join(c.code for c in CURRENCIES)
    raise FormatUserError(
        Message("Unknown currency %(code)s: use one of %(known)s.", code=repr(code), known=known)
    )


def format_money(amount: int, currency: Currency | str) -> str:
    """An amount in minor units as people write it.

    >>> format_money(2000, "EUR"), format_money(-5, "GBP"), format_money(123456, "NOK")
    ('€20.00', '-£0.05', '1,234.56 kr')
    """
    cur = find_currency(currency) if isinstance(currency, str) else currency
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(amount), 10**cur.decimals)
    number = f"{major:,}.{minor:0{cur.decimals}d}" if cur.decimals else f"{major:,}"
    if cur.suffix:
        return f"{sign}{number}{cur.symbol}"
    return f"{sign}{cur.symbol}{number}"


_AMOUNT = re.compile(r"^\s*(\d{1,12})(?:[.,](\d{1,2}))?\s*$")


def parse_money(text: str, currency: Currency | str = DEFAULT_CURRENCY) -> int:
    """An amount typed in major units (``20``, ``20.5``, ``20,50``) as minor units.

    >>> parse_money("20"), parse_money("20.5"), parse_money(" 0,05 ")
    (2000, 2050, 5)

    Raises:
        FormatUserError: not a plain non-negative amount with at most two decimals.
    """
    cur = find_currency(currency) if isinstance(currency, str) else currency
    found = _AMOUNT.match(text)
    if found is None:
        raise FormatUserError(
            Message(
                "%(text)s is not an amount: write it like 20 or 20.50, without a sign.",
                text=repr(text.strip()),
            )
        )
    major, minor = found.group(1), (found.group(2) or "").ljust(cur.decimals, "0")
    amount: int = int(major) * 10**cur.decimals + int(minor or 0)
    if amount > MAX_AMOUNT:
        raise FormatUserError(
            Message("%(amount)s is more than the largest amount allowed.", amount=text.strip())
        )
    return amount


@dataclass(frozen=True)
class PayoutRow:
    """The percentages by place for fields of at least ``min_field`` players."""

    min_field: int
    percents: tuple[int, ...]


@dataclass(frozen=True)
class PayoutTable:
    """Percentages of a prize fund by place, fixed or by field size."""

    rows: tuple[PayoutRow, ...]
    """Ordered by ``min_field``; the first starts at 1."""

    def percents_for(self, field: int) -> tuple[int, ...]:
        """The percentages a field of this many players pays."""
        chosen = self.rows[0].percents
        for row in self.rows:
            if field >= row.min_field:
                chosen = row.percents
        return chosen

    def format(self) -> str:
        """The table as a director types it (:func:`parse_payout_table`)."""
        if len(self.rows) == 1:
            return "/".join(map(str, self.rows[0].percents))
        return "; ".join(f"{r.min_field}+: {'/'.join(map(str, r.percents))}" for r in self.rows)

    def to_json(self) -> list[list[int | list[int]]]:
        """The table as stored: ``[[min_field, [percent, ...]], ...]``."""
        return [[r.min_field, list(r.percents)] for r in self.rows]

    @classmethod
    def from_json(cls, data: object) -> PayoutTable:
        """A stored table (:meth:`to_json`).

        Raises:
            FormatUserError: not a table of that shape.
        """
        if not isinstance(data, list) or not data:
            raise FormatUserError(Message("A payout table needs at least one row."))
        rows: list[PayoutRow] = []
        for item in data:
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not isinstance(item[0], int)
                or not isinstance(item[1], list)
                or not all(isinstance(p, int) for p in item[1])
            ):
                raise FormatUserError(
                    Message("A payout table row is [smallest field, [percents]].")
                )
            rows.append(PayoutRow(item[0], tuple(item[1])))
        return _checked(rows)


WINNER_TAKES_ALL = PayoutTable((PayoutRow(1, (100,)),))


_PAYOUT_TABLE = Message("Payout table")
"""How messages name a fixed table (one row, no field size)."""


def _fields_label(size: int | str) -> Message:
    """How messages name the row of a table by field size that serves ``size`` or more."""
    return Message("Fields of %(size)s or more", size=size)


def _percents(text: str, where: Message) -> tuple[int, ...]:
    parts = [p.strip().rstrip("%") for p in text.split("/")]
    if not all(p.isdigit() for p in parts):
        raise FormatUserError(
            Message(
                "%(where)s: write whole percentages by place separated by /, like 50/30/20.",
                where=where,
            )
        )
    return tuple(int(p) for p in parts)


def _checked(rows: Sequence[PayoutRow]) -> PayoutTable:
    previous = 0
    for row in rows:
        # One row is a fixed table: no field size to name.
        label = _fields_label(row.min_field) if len(rows) > 1 else _PAYOUT_TABLE
        if row.min_field < 1 or row.min_field <= previous:
            raise FormatUserError(Message(
                "Field sizes in a payout table must start at 1 and grow from row to row."
            ))
        previous = row.min_field
        if not row.percents or len(row.percents) > MAX_PLACES:
            raise FormatUserError(Message(
                "%(label)s: pay between 1 and %(most)s places.", label=label, most=MAX_PLACES
            ))
        if sum(row.percents) != 100:
            raise FormatUserError(Message(
                "%(label)s: the percentages add up to %(total)s, not 100.",
                label=label, total=sum(row.percents),
            ))
        if any(p <= 0 for p in row.percents):
            raise FormatUserError(
                Message("%(label)s: every paid place needs more than 0%%.", label=label)
            )
        if list(row.percents) != sorted(row.percents, reverse=True):
            raise FormatUserError(Message(
                "%(label)s: a better place cannot be paid less than a worse one.", label=label
            ))
    if rows and rows[0].min_field != 1:
        raise FormatUserError(Message(
            "The first row of a payout table must serve fields from 1 player (write 1+: ...)."
        ))
    return PayoutTable(tuple(rows))


def parse_payout_table(text: str) -> PayoutTable:
    """A payout table as a director types it: ``50/30/20`` (fixed), or by field size,
    rows separated by ``;`` or new lines: ``1+: 100; 8+: 70/30; 16+: 50/30/20``.

    >>> parse_payout_table("1+: 100; 8+: 70/30").percents_for(9)
    (70, 30)

    Raises:
        FormatUserError: percentages that do not add up to 100, fields out of order,
            or anything else that is not a table.
    """
    lines = [line.strip() for line in re.split(r"[;\n]", text) if line.strip()]
    if not lines:
        raise FormatUserError(Message("Give the payout percentages by place, like 50/30/20."))
    if len(lines) == 1 and ":" not in lines[0]:
        return _checked([PayoutRow(1, _percents(lines[0], _PAYOUT_TABLE))])
    rows: list[PayoutRow] = []
    for line in lines:
        head, sep, tail = line.partition(":")
        head = head.strip().rstrip("+").strip()
        if not sep or not head.isdigit():
            raise FormatUserError(Message(
                "%(line)s: write a row as the smallest field, then the percentages, "
                "like 8+: 70/30.",
                line=repr(line),
            ))
        rows.append(PayoutRow(int(head), _percents(tail, _fields_label(head))))
    return _checked(rows)


def retention(taken: int, percent: int) -> int:
    """The house's share of ``taken`` at ``percent``, rounded down.

    >>> retention(74000, 10), retention(999, 10)
    (7400, 99)
    """
    if not 0 <= percent <= 100:
        raise FormatUserError(Message(
            "House retention is between 0 and 100%%, not %(percent)s%%.", percent=percent
        ))
    return taken * percent // 100


def place_prizes(fund: int, percents: Sequence[int]) -> tuple[int, ...]:
    """The prize of each paid place: its share of ``fund`` (its percentage of the sum of
    ``percents``, 100 for a whole table) rounded down, the minor units left over going
    one each to the best places first.

    >>> place_prizes(66600, (50, 30, 20))
    (33300, 19980, 13320)
    >>> place_prizes(1001, (50, 30, 20))
    (501, 300, 200)
    >>> place_prizes(1000, (50, 30))
    (625, 375)
    """
    whole = sum(percents)
    if not percents or whole <= 0:
        return ()
    prizes = [fund * p // whole for p in percents]
    left = fund - sum(prizes)
    for index in range(left):
        prizes[index % len(prizes)] += 1
    return tuple(prizes)


def split_by_places(prizes: Sequence[int], standings: Sequence[tuple[int, int]]) -> dict[int, int]:
    """What each player wins: ``standings`` is (player, place) in listed order; players
    sharing a place split the prizes of the places they cover equally, the odd minor
    units going to those listed first. Players outside the paid places win nothing and
    are left out.

    >>> split_by_places((100, 60, 21, 10), [(7, 1), (8, 2), (9, 3), (4, 3)])
    {7: 100, 8: 60, 9: 16, 4: 15}
    """
    groups: dict[int, list[int]] = {}
    for player, place in standings:
        if place < 1:
            raise FormatUserError(Message("Places are counted from 1, not %(place)s.", place=place))
        groups.setdefault(place, []).append(player)
    won: dict[int, int] = {}
    for place in sorted(groups):
        players = groups[place]
        covered = sum(prizes[p - 1] for p in range(place, place + len(players)) if p <= len(prizes))
        if covered == 0:
            continue
        each, odd = divmod(covered, len(players))
        for index, player in enumerate(players):
            won[player] = each + (1 if index < odd else 0)
    return won


@dataclass(frozen=True)
class Payout:
    """One player's prize from one fund."""

    player: int
    place: int
    tied: bool
    amount: int


@dataclass(frozen=True)
class FundResult:
    """A fund's arithmetic and who it pays."""

    taken: int
    retained: int
    sponsor: int
    fund: int
    percents: tuple[int, ...]
    prizes: tuple[int, ...]
    """The prize of each place before ties are shared."""
    payouts: tuple[Payout, ...]
    """In place order (the listed order within a shared place)."""


def pay_fund(
    *,
    taken: int,
    retention_percent: int,
    sponsor: int,
    table: PayoutTable,
    field: int,
    standings: Sequence[tuple[int, int]],
) -> FundResult:
    """Share a fund out by final places: ``standings`` is (player, place) as the flight's
    standings list them; ``field`` the number of players the table looks at.

    Raises:
        FormatUserError: negative amounts, a retention outside 0-100%.
    """
    if taken < 0 or sponsor < 0:
        raise FormatUserError(Message("Money taken and sponsor amounts cannot be negative."))
    kept = retention(taken, retention_percent)
    fund = taken - kept + sponsor
    # A table paying more places than there are players (a side pool of two on 70/20/10)
    # pays the places there are, their percentages scaled up to the whole fund: no prize
    # is left with nobody to take it. (Nobody ranked yet: the table as it stands.)
    percents = table.percents_for(field)
    if standings:
        percents = percents[: len(standings)]
    prizes = place_prizes(fund, percents) if fund else tuple(0 for _ in percents)
    won = split_by_places(prizes, standings) if fund else {}
    place_of = dict(standings)
    sharing: dict[int, int] = {}
    for _, place in standings:
        sharing[place] = sharing.get(place, 0) + 1
    payouts = tuple(
        Payout(player, place_of[player], sharing[place_of[player]] > 1, amount)
        for player, amount in won.items()
    )
    return FundResult(taken, kept, sponsor, fund, percents, prizes, payouts)


def pool_places(
    standings: Sequence[tuple[int, int]], members: frozenset[int] | set[int]
) -> list[tuple[int, int]]:
    """The places of a side pool's members among themselves, by their flight places.

    >>> pool_places([(1, 1), (2, 2), (3, 3), (4, 3), (5, 5)], {2, 4, 5})
    [(2, 1), (4, 2), (5, 3)]
    """
    mine = [(player, place) for player, place in standings if player in members]
    result: list[tuple[int, int]] = []
    for player, place in mine:
        ahead = sum(1 for _, other in mine if other < place)
        result.append((player, ahead + 1))
    return result


def abt_points(
    *,
    unique_players: int,
    factor_percent: int,
    table: Sequence[int],
    standings: Sequence[tuple[int, int]],
) -> dict[int, int]:
    """Points per place in the ABT style: the event's total is the number of unique
    players in the top division times the division's factor (in percent: 100 for the
    Open), shared by the points table's percentages by place, ties splitting the places
    they cover. Whole points, the odd ones to the better place.

    >>> abt_points(unique_players=37, factor_percent=100, table=(50, 30, 20),
    ...            standings=[(1, 1), (2, 2), (3, 3)])
    {1: 19, 2: 11, 3: 7}
    """
    if unique_players < 0 or factor_percent < 0:
        raise FormatUserError(Message("Players and the division factor cannot be negative."))
    total = unique_players * factor_percent // 100
    return split_by_places(place_prizes(total, table), standings)
