"""Stored knockout plans: a drawn bracket as JSON, and back.

A knockout draw (``tourney.formats.knockout``) is fixed at the draw: every match, where
both of its sides come from and how long it is. The store keeps that plan as JSON on the
flight whose draw made it and the results in the ``matches`` rows; the bracket is rebuilt
as ``Bracket(seed, flights, matches, results)`` whenever a result changes.

Terminology: a *bracket flight* is a flight of the plan (``main``, ``losers``, ``final``
of a double elimination, or a consolation); a *database flight* is a ``flights`` row. A
knockout with a consolation has one database flight per bracket flight; a double
elimination keeps its three bracket flights in one database flight. The plan records
which database flight and which database round number each bracket round belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tourney.formats import knockout as ko
from tourney.formats.model import EntrantId, MatchId
from tourney.formats.rounds import bracket_round_name

PLAN_VERSION = 1


@dataclass(frozen=True)
class PlannedRound:
    """One round of a bracket flight as the database stores it."""

    bracket_flight: str
    round: int
    flight_id: int
    """The database flight it belongs to."""
    number: int
    """The database round number within that flight (1, 2, ... in display order)."""
    name: str


@dataclass(frozen=True)
class StoredPlan:
    """A decoded plan: the bracket's parts without results, and where rounds live."""

    seed: int
    flights: tuple[ko.Flight, ...]
    matches: tuple[ko.BracketMatch, ...]
    rounds: tuple[PlannedRound, ...]

    def bracket(self, results: Mapping[MatchId, ko.MatchResult]) -> ko.Bracket:
        """The bracket with these results."""
        return ko.Bracket(self.seed, self.flights, self.matches, dict(results))

    def round_of(self, match: ko.BracketMatch) -> PlannedRound:
        """The stored round a planned match is played in."""
        for planned in self.rounds:
            if planned.bracket_flight == match.flight and planned.round == match.round:
                return planned
        raise KeyError(match.id)  # pragma: no cover - every match has its round


def plan_rounds(
    bracket: ko.Bracket, flight_ids: Mapping[str, int], *, double: bool
) -> tuple[PlannedRound, ...]:
    """Number the bracket's rounds per database flight, in plan order."""
    counters: dict[int, int] = {}
    out: list[PlannedRound] = []
    for flight in bracket.flights:
        flight_id = flight_ids[flight.name]
        for number in range(1, flight.rounds + 1):
            counters[flight_id] = counters.get(flight_id, 0) + 1
            name = bracket_round_name(flight.name, number, flight.rounds, double_elimination=double)
            out.append(PlannedRound(flight.name, number, flight_id, counters[flight_id], name))
    return tuple(out)


def _source_json(source: ko.Source) -> list[Any]:
    if isinstance(source, ko.Seat):
        return ["seat", int(source.entrant)]
    if isinstance(source, ko.Empty):
        return ["empty"]
    if isinstance(source, ko.WinnerOf):
        return ["winner", str(source.match)]
    return ["loser", str(source.match), source.first_match]


def _source(data: list[Any]) -> ko.Source:
    kind = data[0]
    if kind == "seat":
        return ko.Seat(EntrantId(int(data[1])))
    if kind == "empty":
        return ko.Empty()
    if kind == "winner":
        return ko.WinnerOf(MatchId(str(data[1])))
    if kind == "loser":
        return ko.LoserOf(MatchId(str(data[1])), data[2])
    raise ValueError(f"unknown source {data!r} in a stored plan")


def _lengths_json(lengths: ko.RoundLengths) -> dict[str, Any]:
    return {"default": lengths.default, "by_round": [list(p) for p in lengths.by_round]}


def _lengths(data: dict[str, Any]) -> ko.RoundLengths:
    return ko.RoundLengths(
        int(data["default"]), tuple((int(k), int(v)) for k, v in data.get("by_round", []))
    )


def encode_plan(bracket: ko.Bracket, rounds: tuple[PlannedRound, ...]) -> dict[str, Any]:
    """The plan as JSON (results are not part of it)."""
    return {
        "version": PLAN_VERSION,
        "seed": bracket.seed,
        "flights": [
            {
                "name": f.name,
                "format": f.format,
                "rounds": f.rounds,
                "lengths": _lengths_json(f.lengths),
                "pool": [_source_json(s) for s in f.pool],
                "drawn": f.drawn,
            }
            for f in bracket.flights
        ],
        "matches": [
            {
                "id": str(m.id),
                "flight": m.flight,
                "round": m.round,
                "index": m.index,
                "a": _source_json(m.a),
                "b": _source_json(m.b),
                "length": m.length,
                "reset_of": None if m.reset_of is None else str(m.reset_of),
            }
            for m in bracket.matches
        ],
        "rounds": [
            {
                "bracket_flight": r.bracket_flight,
                "round": r.round,
                "flight_id": r.flight_id,
                "number": r.number,
                "name": r.name,
            }
            for r in rounds
        ],
    }


def decode_plan(data: Mapping[str, Any]) -> StoredPlan:
    """A stored plan back as bracket parts.

    Raises:
        ValueError: the JSON is not a plan this version wrote.
    """
    if data.get("version") != PLAN_VERSION:
        raise ValueError(f"unknown bracket plan version {data.get('version')!r}")
    flights = tuple(
        ko.Flight(
            name=f["name"],
            format=f["format"],
            rounds=int(f["rounds"]),
            lengths=_lengths(f["lengths"]),
            pool=tuple(_source(s) for s in f["pool"]),  # type: ignore[misc]
            drawn=bool(f["drawn"]),
        )
        for f in data["flights"]
    )
    matches = tuple(
        ko.BracketMatch(
            id=MatchId(m["id"]),
            flight=m["flight"],
            round=int(m["round"]),
            index=int(m["index"]),
            a=_source(m["a"]),
            b=_source(m["b"]),
            length=int(m["length"]),
            reset_of=None if m["reset_of"] is None else MatchId(m["reset_of"]),
        )
        for m in data["matches"]
    )
    rounds = tuple(
        PlannedRound(
            r["bracket_flight"], int(r["round"]), int(r["flight_id"]), int(r["number"]), r["name"]
        )
        for r in data["rounds"]
    )
    return StoredPlan(int(data["seed"]), flights, matches, rounds)
