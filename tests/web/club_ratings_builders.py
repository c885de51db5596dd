"""A club with one played knockout, for the rating list's pages.

Club Night (7-point knockout, seeds Ann 1, Ben 2, Cid 3, Dee 4): Ann beats Dee and Ben
beats Cid in the first round, then Ann beats Ben in the final. Worked by hand with the
FIBS formula (DESIGN §8), everyone starting at 1500:

* first round: equal ratings, P = 1/2, newcomers (K = 5): each winner gains and each
  loser loses 4 * 5 * sqrt(7) / 2 = 26.4575: Ann and Ben 1526.46, Cid and Dee 1473.54;
* final: equal ratings again, P = 1/2, K = 5 - 7/100 = 4.93 for both:
  4 * 4.93 * sqrt(7) / 2 = 26.0871: Ann 1552.54, Ben 1500.37.

Experience: Ann and Ben 14, Cid and Dee 7.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, results
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
KNOCKOUT = [{"name": "Main", "format": "knockout", "match_length": 7}]


@dataclass(frozen=True)
class PlayedClub:
    club_id: int
    built: BuiltEvent

    @property
    def director_email(self) -> str:
        return self.built.director.email


def play_round(engine: Engine, actor: Actor, flight_id: int, number: int,
               winners: set[str]) -> None:
    """Each match of round ``number`` (from 1) won 7-0 by the one of ``winners`` in it."""
    with Session(engine) as session:
        matches = flight_board(session, actor, flight_id).rounds[number - 1].matches
    for match in matches:
        assert match.a is not None and match.b is not None
        a_wins = match.a.name in winners
        with transaction(engine) as session:
            results.record_final_score(session, actor=actor, match_id=match.id,
                                       score_a=7 if a_wins else 0, score_b=0 if a_wins else 7)


def club_night(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
    **event_fields: object,
) -> PlayedClub:
    """The club and its played Club Night (see the module)."""
    built = build_event(["Ann", "Ben", "Cid", "Dee"], KNOCKOUT, **event_fields)
    actor = built.director.actor
    club_id = into_club(built)
    flight = built.flights["Main"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=flight)
    play_round(engine, actor, flight, 1, {"Ann", "Ben"})
    play_round(engine, actor, flight, 2, {"Ann"})
    return PlayedClub(club_id, built)
