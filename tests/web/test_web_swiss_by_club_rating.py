"""A Swiss drawn "seeded" after "Seed by rating" pairs its first round by the club's
rating list, not by the ratings the players came in with.

Worked by hand with the FIBS formula (DESIGN §8), 7-point matches at the club's first
event: Ann came in at 1400 and Ben at 1450 (an imported list), Cid and Dee start at
1500. Ann, the underdog by D = 50, beats Ben: 50 * sqrt(7) / 2000 = 0.066144,
10^0.066144 = 1.164518, P_upset = 0.461996, the underdog's P = 0.538004, K = 5: 4 * 5 *
sqrt(7) * 0.538004 = 28.4685: Ann 1428.47, Ben 1421.53. Cid beats Dee at equal ratings:
26.4575: Cid 1526.46, Dee 1473.54. The club's list: Cid, Dee, Ann, Ben.

The Swiss pairs the top half with the bottom half (1 v 3, 2 v 4): Cid v Ann and Dee v
Ben. By the ratings they came in with (Ben 1450, Ann 1400, then the unrated) it would
be Ben v Cid and Ann v Dee.
"""

from __future__ import annotations

from collections.abc import Callable

from club_ratings_builders import play_round
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, events, roster
from tourney.store.db import transaction
from tourney.store.queries import UserView
from tourney.store.tournament_views import flight_board

CAME_IN_WITH = {"Ann": 1400.0, "Ben": 1450.0, "Cid": None, "Dee": None}


def test_seed_by_rating_then_a_seeded_swiss_pairs_round_one_by_the_club_list(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    director = login_as("director")
    actor = director.actor
    with transaction(engine) as session:
        club = events.create_club(session, actor=actor, name="Fjordside BG").id
        ids = {
            name: roster.register_player(session, actor=actor, fields=roster.PlayerFields(
                name=name, rating=rating, club_id=club)).id
            for name, rating in CAME_IN_WITH.items()
        }
        first = events.create_event(session, actor=actor, fields=events.EventFields(
            name="Club Night", club_id=club))
        knockout = events.add_flight(session, actor=actor, event_id=first.id,
                                     fields=events.FlightFields(
                                         name="Main", format="knockout", match_length=7)).id or 0
        # Seeds 1 v 4 and 2 v 3: Ann v Ben, Cid v Dee.
        for seed, name in enumerate(("Ann", "Cid", "Dee", "Ben"), start=1):
            roster.enter_player(session, actor=actor, event_id=first.id, player_id=ids[name],
                                seed=seed)
        draws.make_draw(session, actor=actor, flight_id=knockout, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=knockout)
    play_round(engine, actor, knockout, 1, {"Ann", "Cid"})
    with transaction(engine) as session:
        second = events.create_event(session, actor=actor, fields=events.EventFields(
            name="Swiss Night", club_id=club))
        swiss = events.add_flight(session, actor=actor, event_id=second.id,
                                  fields=events.FlightFields(
                                      name="Swiss", format="swiss", match_length=7,
                                      swiss_rounds=2, draw_method="seeded")).id or 0
        for name in ("Ann", "Ben", "Cid", "Dee"):
            roster.enter_player(session, actor=actor, event_id=second.id, player_id=ids[name])

    seeded = client.post(f"/director/events/{second.id}/entries/seed-by-rating",
                         data={"seeds": "4"}, follow_redirects=True)
    entries = client.get(f"/director/events/{second.id}/entries").text
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=swiss, method="seeded")
    with Session(engine) as session:
        round_one = flight_board(session, actor, swiss).rounds[0].matches
    pairs = {
        frozenset((m.a.name, m.b.name)) for m in round_one if m.a is not None and m.b is not None
    }

    assert "4 players seeded by the club&#39;s rating list." in seeded.text
    assert [entries.index(name) for name in ("Cid", "Dee", "Ann", "Ben")] == sorted(
        entries.index(name) for name in ("Cid", "Dee", "Ann", "Ben"))
    assert pairs == {frozenset(("Cid", "Ann")), frozenset(("Dee", "Ben"))}
