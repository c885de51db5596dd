"""Event documents made by the pure format code, for tests and benchmarks.

:func:`documents_from_bracket` and :func:`documents_from_simulation` fill the document
models of :mod:`tourney.store.documents` from a knockout bracket or a simulated event
(``tourney simulate``), without a database, so the renderers can be exercised on any
field size; :data:`SAMPLE_NAMES` are names every renderer must print correctly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from tourney.formats import knockout as ko
from tourney.formats.model import EntrantId, MatchId, Standing
from tourney.formats.rounds import bracket_round_name, numbered_round_name, round_name
from tourney.formats.simulation import (
    SimulationOptions,
    knockout_plan,
    play_bracket,
    simulate,
    simulation_variant,
)
from tourney.match import GameKind, MatchState
from tourney.rules.messages import N_, Message, PluralMessage
from tourney.rules.variants import DEFAULT_VARIANT, GameVariant
from tourney.store.documents import (
    WINS_LABEL,
    EventDocument,
    FlightDocument,
    GameDocument,
    MatchDocument,
    PlayerDocument,
    RoundDocument,
    SideDocument,
    StandingRow,
    metric_label,
)
from tourney.store.message_lists import SemicolonList

# --- labels --------------------------------------------------------------------------


def flight_title(name: str) -> str:
    """A flight name as printed: ``last-chance`` becomes ``Last chance``."""
    text = name.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]


SAMPLE_NAMES = (
    "Bjørn Ødegård",
    "Łukasz Żółć",
    "Дмитрий Иванов",
    "Αλέξανδρος Παπαδόπουλος",
    "Şükrü Çağlar",
    "Zoë Martin",
    "Jürgen Weiß",
    "Åsa Lindqvist",
)
"""Names every renderer must print correctly (Nordic, Polish, Cyrillic, Greek, Turkish)."""

_FIRST = (
    "Anna",
    "Mikkel",
    "Sofia",
    "Emre",
    "Ingrid",
    "Tomasz",
    "Lars",
    "Mette",
    "Sean",
    "Kari",
    "Olga",
    "Nikos",
    "Pablo",
    "Chiara",
    "Hiroshi",
    "Fatima",
    "Jean-Luc",
    "Ayşe",
    "Piotr",
    "Ewa",
    "Sven",
    "Hanna",
    "Marco",
    "Ivan",
    "Eleni",
    "Miguel",
    "Noor",
    "Kasper",
    "Liv",
    "Omar",
)
_LAST = (
    "Hansen",
    "Nowak",
    "Rossi",
    "Yılmaz",
    "Solheim",
    "Kowalski",
    "Haugen",
    "Kjær",
    "O'Brien",
    "Nordmann",
    "Petrova",
    "Georgiou",
    "García",
    "Bianchi",
    "Tanaka",
    "Haddad",
    "Dubois",
    "Demir",
    "Wiśniewski",
    "Lindström",
    "Müller",
    "Andersen",
    "Ferrari",
    "Volkov",
    "Costa",
)


def sample_names(count: int) -> dict[int, str]:
    """Distinct player names for ids 1..count: the :data:`SAMPLE_NAMES` first, then made up."""
    names: dict[int, str] = {}
    seen: set[str] = set()
    for i in range(1, count + 1):
        if i <= len(SAMPLE_NAMES):
            name = SAMPLE_NAMES[i - 1]
        else:
            k = i - len(SAMPLE_NAMES) - 1
            name = f"{_FIRST[k % len(_FIRST)]} {_LAST[(7 * k + k // len(_FIRST)) % len(_LAST)]}"
            if name in seen:
                name = f"{name} {k // (len(_FIRST) * len(_LAST)) + 1}"
        seen.add(name)
        names[i] = name
    return names


# --- building documents from the pure format code ------------------------------------


def game_documents(state: MatchState) -> tuple[GameDocument, ...]:
    """The games of a scored match, side a being the match's first player."""
    return tuple(
        GameDocument(
            number=g.number,
            winner=None if g.winner is None else "a" if g.winner.value == 0 else "b",
            end=g.entry.end.value,
            cube=g.entry.cube,
            level=None if g.entry.level is None else g.entry.level.name.lower(),
            points=g.points,
            score_after=(g.score_after[0], g.score_after[1]),
            crawford=g.kind is GameKind.CRAWFORD,
        )
        for g in state.games
    )


def _loser_destinations(bracket: ko.Bracket) -> dict[str, list[tuple[str, bool | None]]]:
    """For each match id, the flights its loser may go to, with the first-match condition."""
    out: dict[str, list[tuple[str, bool | None]]] = {}
    for match in bracket.matches:
        for side in (match.a, match.b):
            if isinstance(side, ko.LoserOf):
                out.setdefault(side.match, []).append((match.flight, side.first_match))
    for flight in bracket.flights:
        for source in flight.pool:
            out.setdefault(source.match, []).append((flight.name, source.first_match))
    return out


def _short(match_id: str, titles: Mapping[str, str], here: str) -> str:
    """``Consolation R1 M2``; a match of the flight ``here`` without its flight: ``R1 M3``."""
    flight, rnd, index = match_id.split("/")
    where = Message("R%(round)s M%(match)s", round=rnd, match=index)
    if flight == here:
        return where
    return Message(
        "%(flight)s %(match)s", flight=titles.get(flight, flight_title(flight)), match=where
    )


def _source_note(source: ko.Source, titles: Mapping[str, str], here: str) -> str:
    """Where the player of a slot in flight ``here`` comes from, while not known yet
    (a seat or an empty slot is never pending)."""
    if isinstance(source, ko.WinnerOf):
        return Message("Winner of %(match)s", match=_short(source.match, titles, here))
    if isinstance(source, ko.LoserOf):
        where = _short(source.match, titles, here)
        if source.first_match:
            return Message("First-match loser of %(match)s", match=where)
        return Message("Loser of %(match)s", match=where)
    return ""


def _fed_text(
    flight: ko.Flight, matches: Sequence[ko.BracketMatch], titles: Mapping[str, str]
) -> str:
    sources: dict[str, set[int]] = {}
    loser_sources = [s for m in matches for s in (m.a, m.b) if isinstance(s, ko.LoserOf)]
    for source in (*loser_sources, *flight.pool):
        name, rnd, _ = source.match.split("/")
        sources.setdefault(name, set()).add(int(rnd))
    parts: list[str] = []
    for name, rounds in sources.items():
        listed = ", ".join(str(r) for r in sorted(rounds))
        parts.append(PluralMessage(
            "losers of %(flight)s round %(rounds)s",
            "losers of %(flight)s rounds %(rounds)s",
            len(rounds),
            flight=titles.get(name, flight_title(name)),
            rounds=listed,
        ))
    if not parts:
        return ""
    losers = SemicolonList(tuple(parts))
    if flight.pool:
        return Message("Fresh draw of the %(losers)s", losers=losers)
    return Message("Entered by the %(losers)s", losers=losers)



def documents_from_bracket(
    bracket: ko.Bracket,
    *,
    names: Mapping[int, str],
    states: Mapping[MatchId, MatchState] | None = None,
    seeds: Mapping[int, int] | None = None,
    titles: Mapping[str, str] | None = None,
    match_url: str | None = None,
) -> tuple[FlightDocument, ...]:
    """Flight documents of a knockout bracket, filled as far as its results go.

    ``names`` maps entrant ids to names; ``states`` gives the scored games of played
    matches; ``titles`` maps bracket flight names to printed names (default:
    :func:`flight_title`); ``match_url`` is a prefix to which ``/<match key>`` is added.
    """
    states = states or {}
    seeds = seeds or {}
    titles = {f.name: flight_title(f.name) for f in bracket.flights} | dict(titles or {})
    double = any(f.format == "double-elimination" for f in bracket.flights)
    destinations = _loser_destinations(bracket)

    def side(match: ko.BracketMatch, entrant: int | None, source: ko.Source) -> SideDocument:
        if entrant is not None:
            return SideDocument(names.get(entrant, str(entrant)), entrant, seeds.get(entrant))
        if ko.resolve(bracket, source) is not ko.PENDING:
            # The source is settled and brought nobody: the other side has a bye, or
            # the match is void and no slot of it names anyone.
            void = ko.status(bracket, match) is ko.MatchStatus.VOID
            return SideDocument(note="" if void else "bye")
        return SideDocument(note=_source_note(source, titles, match.flight))

    flights: list[FlightDocument] = []
    for flight in bracket.flights:
        planned = bracket.flight_matches(flight.name)
        title = titles[flight.name]
        if not flight.drawn:
            flights.append(_undrawn_flight(flight, title, titles))
            continue
        by_round: dict[int, list[MatchDocument]] = {}
        round_dest: dict[int, set[str]] = {}
        for match in planned:
            shown = ko.view(bracket, match)
            a_src: ko.Source
            b_src: ko.Source
            if shown.status is ko.MatchStatus.BYE and isinstance(match.a, ko.Empty):
                a_src, b_src = match.b, match.a
            else:
                a_src, b_src = match.a, match.b
            state = states.get(match.id)
            feeders = tuple(
                s.match
                if isinstance(s, ko.WinnerOf) and s.match.startswith(f"{flight.name}/")
                else None
                for s in (a_src, b_src)
            )
            winner = None
            if shown.winner is not None and shown.status is ko.MatchStatus.DECIDED:
                winner = "a" if shown.winner == shown.a else "b"
            elif shown.status is ko.MatchStatus.BYE:
                winner = "a"
            dests = destinations.get(match.id, [])
            loser_to = titles.get(dests[0][0]) if dests else None
            for dest, _cond in dests:
                round_dest.setdefault(match.round, set()).add(titles.get(dest, dest))
            status = {
                ko.MatchStatus.DECIDED: "finished",
                ko.MatchStatus.BYE: "bye",
                ko.MatchStatus.VOID: "void",
                ko.MatchStatus.READY: "ready",
                ko.MatchStatus.PENDING: "pending",
            }[shown.status]
            if status == "finished" and state is None and shown.score is None:
                status = "walkover"
            by_round.setdefault(match.round, []).append(
                MatchDocument(
                    key=match.id,
                    flight=title,
                    round=match.round,
                    round_name=bracket_round_name(
                        flight.name, match.round, flight.rounds, double_elimination=double
                    ),
                    number=match.index,
                    length=match.length,
                    a=side(match, shown.a, a_src),
                    b=side(match, shown.b, b_src),
                    status=status,
                    winner=winner,
                    score=shown.score,
                    games=game_documents(state) if state is not None else (),
                    feeders=(feeders[0], feeders[1]),
                    loser_to=loser_to,
                    url=f"{match_url}/{match.id}" if match_url else None,
                )
            )
        rounds = tuple(
            RoundDocument(
                number=r,
                name=matches[0].round_name,
                length=max(m.length for m in matches),
                matches=tuple(_with_tables(matches)),
                losers_to=", ".join(sorted(round_dest[r])) if r in round_dest else None,
            )
            for r, matches in sorted(by_round.items())
        )
        standings = _knockout_standings(bracket, flight, names, rounds)
        champion = ko.champion(bracket, flight.name)
        flights.append(
            FlightDocument(
                name=title,
                format=flight.format,
                rounds=rounds,
                standings=standings,
                fed_from=_fed_text(flight, planned, titles),
                champion=names.get(champion) if champion is not None else None,
            )
        )
    return tuple(flights)


def _with_tables(matches: Sequence[MatchDocument]) -> list[MatchDocument]:
    """Number the tables of a round's playable matches 1, 2, ... in bracket order."""
    out: list[MatchDocument] = []
    table = 0
    for match in matches:
        if match.is_playable and not match.table:
            table += 1
            out.append(_replace_table(match, str(table)))
        else:
            out.append(match)
    return out


def _replace_table(match: MatchDocument, table: str) -> MatchDocument:
    from dataclasses import replace

    return replace(match, table=table)


def _waiting_for_winner(
    flight: str, rnd: int, index: int, titles: Mapping[str, str]
) -> SideDocument:
    """A slot of a flight not drawn yet: round 1 waits for the draw (``rnd`` 0), a later
    round for the winner of match ``index`` of round ``rnd``."""
    if rnd == 0:
        return SideDocument()
    source = ko.WinnerOf(MatchId(f"{flight}/{rnd}/{index}"))
    return SideDocument(note=_source_note(source, titles, flight))


def _undrawn_flight(flight: ko.Flight, title: str, titles: Mapping[str, str]) -> FlightDocument:
    """A fresh-draw flight before its draw: a blank bracket as large as its pool needs."""
    size = ko.bracket_size(max(len(flight.pool), 2))
    rounds_count = size.bit_length() - 1
    rounds: list[RoundDocument] = []
    for number in range(1, rounds_count + 1):
        length = flight.lengths.for_round(number, rounds_count)
        name = round_name(number, rounds_count)
        count = size >> number
        matches = tuple(
            MatchDocument(
                key=f"{flight.name}/{number}/{i}",
                flight=title,
                round=number,
                round_name=name,
                number=i,
                length=length,
                a=_waiting_for_winner(flight.name, number - 1, 2 * i - 1, titles),
                b=_waiting_for_winner(flight.name, number - 1, 2 * i, titles),
                status="pending",
                feeders=(
                    (
                        f"{flight.name}/{number - 1}/{2 * i - 1}",
                        f"{flight.name}/{number - 1}/{2 * i}",
                    )
                    if number > 1
                    else (None, None)
                ),
            )
            for i in range(1, count + 1)
        )
        rounds.append(RoundDocument(number, name, length, matches))
    return FlightDocument(
        name=title,
        format=flight.format,
        rounds=tuple(rounds),
        fed_from=_fed_text(flight, (), titles),
        drawn=False,
    )


def _knockout_standings(
    bracket: ko.Bracket,
    flight: ko.Flight,
    names: Mapping[int, str],
    rounds: Sequence[RoundDocument],
) -> tuple[StandingRow, ...]:
    table = ko.knockout_standings(bracket, flight.name)
    out_in = {e: m.round for e, m in ko.eliminations(bracket, flight.name).items()}
    round_names = {r.number: r.name for r in rounds}
    champion = ko.champion(bracket, flight.name)
    rows = []
    for row in table:
        if row.entrant == champion:
            note = "Winner"
        elif row.entrant in out_in:
            note = round_names.get(out_in[row.entrant], numbered_round_name(out_in[row.entrant]))
        else:
            note = "still in"
        metrics = ((WINS_LABEL, row.metric("wins")),)
        rows.append(
            StandingRow(
                row.entrant,
                names.get(row.entrant, str(row.entrant)),
                row.rank,
                row.tied,
                metrics,
                row.reason,
                note,
            )
        )
    return tuple(rows)


def _standing_rows(rows: Sequence[Standing], names: Mapping[int, str]) -> tuple[StandingRow, ...]:
    return tuple(
        StandingRow(
            r.entrant,
            names.get(r.entrant, str(r.entrant)),
            r.rank,
            r.tied,
            tuple((metric_label(k), v) for k, v in r.metrics),
            r.reason,
        )
        for r in rows
    )


def _json_games(games: Sequence[Mapping[str, Any]]) -> tuple[GameDocument, ...]:
    return tuple(
        GameDocument(
            number=i,
            winner=g["winner"],
            end=g["end"],
            cube=g["cube"],
            level=g["level"],
            points=g["points"],
            score_after=(g["score"][0], g["score"][1]),
            crawford=g["kind"] == "crawford",
        )
        for i, g in enumerate(games, start=1)
    )


def _rounds_from_json(
    flight: Mapping[str, Any], title: str, names: Mapping[int, str], match_url: str | None
) -> tuple[RoundDocument, ...]:
    rounds = []
    for number, items in enumerate(flight["rounds"], start=1):
        matches = []
        for index, item in enumerate(items, start=1):
            a, b = item["a"], item["b"]
            key = f"{flight['name']}/{number}/{index}"
            matches.append(
                MatchDocument(
                    key=key,
                    flight=title,
                    round=number,
                    round_name=numbered_round_name(number),
                    number=index,
                    length=item["length"],
                    a=SideDocument(names.get(a, str(a)), a),
                    b=SideDocument(names.get(b, str(b)), b)
                    if b is not None
                    else SideDocument(note="bye"),
                    status="bye" if b is None else "finished",
                    winner="a" if item["winner"] == a else "b",
                    score=None if b is None else (item["score"][0], item["score"][1]),
                    games=_json_games(item["games"]),
                    url=f"{match_url}/{key}" if match_url else None,
                )
            )
        rounds.append(
            RoundDocument(
                number,
                numbered_round_name(number),
                max(m.length for m in matches),
                tuple(_with_tables(matches)),
            )
        )
    return tuple(rounds)


def documents_from_simulation(
    options: SimulationOptions,
    *,
    names: Mapping[int, str] | None = None,
    played: bool = True,
    seeds: Mapping[int, int] | None = None,
    name: str | None = None,
    url: str | None = "https://tourney.example.org/e/simulated",
    starts_on: date | None = date(2025, 3, 6),
) -> EventDocument:
    """An event document of a simulated event (``tourney simulate``), for tests and benchmarks.

    ``played=False`` gives the knockout as drawn, before any match (Swiss and round robin
    events are always played out). Players are ids 1..N named by :func:`sample_names`
    unless ``names`` is given.
    """
    names = dict(names) if names is not None else sample_names(options.players)
    seeds = seeds or {}
    match_url = f"{url}/matches" if url else None
    if options.format == "knockout":
        bracket = knockout_plan(options)
        states: dict[MatchId, MatchState] = {}
        if played:
            bracket, states = play_bracket(
                bracket, random.Random(options.seed), variant=simulation_variant(options)
            )
        flights = documents_from_bracket(
            bracket, names=names, states=states, seeds=seeds, match_url=match_url
        )
    else:
        data = simulate(options)
        flights = tuple(
            FlightDocument(
                name=flight_title(f["name"]),
                format=f["format"],
                rounds=_rounds_from_json(f, flight_title(f["name"]), names, match_url),
                standings=_standing_rows(
                    [
                        Standing(
                            EntrantId(row["player"]),
                            row["rank"],
                            row["tied"],
                            tuple(
                                (k, v)
                                for k, v in row.items()
                                if k not in ("player", "rank", "tied", "reason")
                            ),
                            row.get("reason"),
                        )
                        for row in f["standings"]
                    ],
                    names,
                ),
            )
            for f in data["flights"]
        )
    players = tuple(
        PlayerDocument(i, names[i], seed=seeds.get(i)) for i in range(1, options.players + 1)
    )
    return EventDocument(
        name=name
        or Message(
            "Simulated %(format)s · %(players)s players",
            format=options.format,
            players=options.players,
        ),
        slug=f"simulated-{options.format}-{options.players}",
        players=players,
        flights=flights,
        starts_on=starts_on,
        venue=N_("Simulation"),
        url=url,
        rules=_simulated_rules(simulation_variant(options)),
        variant=simulation_variant(options).name,
    )


def _simulated_rules(variant: GameVariant) -> tuple[str, ...]:
    """The rule texts of a simulated event: its variant's default options."""
    named = () if variant is DEFAULT_VARIANT else (variant.title,)
    if not variant.uses_cube():
        return (*named, N_("No doubling cube"))
    return (*named, N_("Crawford rule") if variant.uses_crawford() else N_("No Crawford rule"))
