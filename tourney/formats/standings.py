"""Standings tables for Swiss and round-robin flights.

Rows are ordered by match wins, then by the event's tiebreak chain in order; entrants the
chain cannot separate share a rank (shown "=3": many backgammon events split prizes
rather than break every tie). Each row whose position over the next row was settled by a
tiebreak carries the reason, e.g. "ahead on Buchholz 11 to 9": a message naming the
tiebreak, so that a page shows it in its reader's language.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from tourney.formats.model import EntrantId, MatchOutcome, Standing
from tourney.formats.tiebreaks import Record, Tiebreak, build_records
from tourney.rules.messages import Message


def compute_standings(
    outcomes: Iterable[MatchOutcome],
    chain: Sequence[Tiebreak] = (),
    *,
    entrants: Collection[EntrantId] = (),
    bye_is_win: bool = True,
) -> tuple[Standing, ...]:
    """The standings after ``outcomes``, broken by ``chain``; best first.

    ``entrants`` adds players with no outcome yet (a late entry, or before round 1).
    Within a shared rank rows are listed by entrant id.
    """
    records = build_records(outcomes, entrants=entrants, bye_is_win=bye_is_win)
    # Metrics that do not depend on who is tied are worked out once for everyone: they
    # are also the standings' columns.
    values: dict[Tiebreak, Mapping[EntrantId, int]] = {}
    for tiebreak in chain:
        if not tiebreak.within_group:
            scores = tiebreak.metric(records.keys(), records)
            assert scores is not None, f"{tiebreak.key} scores everyone"
            values[tiebreak] = scores
    ordered: list[list[EntrantId]] = []
    reasons: dict[EntrantId, str] = {}
    by_wins: dict[int, list[EntrantId]] = {}
    for entrant, record in records.items():
        by_wins.setdefault(record.wins, []).append(entrant)
    for wins in sorted(by_wins, reverse=True):
        _refine(sorted(by_wins[wins]), list(chain), records, values, ordered, reasons)
    rows: list[Standing] = []
    placed = 0
    for group in ordered:
        for entrant in group:
            metrics = (
                ("wins", records[entrant].wins),
                *((tb.metric_key, values[tb][entrant]) for tb in chain if tb in values),
            )
            rows.append(
                Standing(entrant, placed + 1, len(group) > 1, metrics, reasons.get(entrant))
            )
        placed += len(group)
    return tuple(rows)


def _refine(
    group: list[EntrantId],
    chain: list[Tiebreak],
    records: Mapping[EntrantId, Record],
    values: Mapping[Tiebreak, Mapping[EntrantId, int]],
    ordered: list[list[EntrantId]],
    reasons: dict[EntrantId, str],
) -> None:
    """Split a tied group with the first tiebreak that separates it, then recurse."""
    if len(group) == 1 or not chain:
        ordered.append(group)
        return
    tiebreak, rest = chain[0], chain[1:]
    scores = values[tiebreak] if tiebreak in values else tiebreak.metric(group, records)
    if scores is None:
        _refine(group, rest, records, values, ordered, reasons)
        return
    levels: dict[int, list[EntrantId]] = {}
    for entrant in group:
        levels.setdefault(scores[entrant], []).append(entrant)
    keys = sorted(levels, reverse=True)
    for i, key in enumerate(keys):
        sub = levels[key]
        _refine(sub, rest, records, values, ordered, reasons)
        if i + 1 < len(keys):
            # The last row of this level is ahead of the first row of the next one.
            reasons[ordered[-1][-1]] = Message(
                "ahead on %(tiebreak)s %(ahead)s to %(behind)s",
                tiebreak=tiebreak.name,
                ahead=key,
                behind=keys[i + 1],
            )


def places_within(ranks: Sequence[int]) -> tuple[tuple[int, bool], ...]:
    """The places of some rows of a standings table among themselves (one division's
    players in a mixed flight): ``ranks`` are their overall ranks in table order.

    Each gets 1 + the number of those rows placed strictly ahead of it, and is tied when
    another of them shares its overall rank, so a tie in the whole table stays a tie here
    (overall 1, =2, =2, 4 taken as =2, =2, 4 gives =1, =1, 3).
    """
    count = {rank: 0 for rank in ranks}
    for rank in ranks:
        count[rank] += 1
    places: list[tuple[int, bool]] = []
    ahead = 0
    for i, rank in enumerate(ranks):
        if i and rank != ranks[i - 1]:
            ahead = i
        places.append((ahead + 1, count[rank] > 1))
    return tuple(places)
