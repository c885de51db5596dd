"""A club's rating list options: who is provisional, and whether the players' pages at
the club are open to everyone.

Terminology:
    provisional threshold
        ``provisional_below``: a player with less rating experience than this is marked
        provisional on the club's list and pages; 0 marks nobody.
    public profiles
        when on, a player's page at the club (events, results, rating, chart, nemesis)
        opens without a login, and the public event pages link to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from tourney.rules.messages import Message
from tourney.store.audit import Actor, record, snapshot
from tourney.store.errors import AccessDeniedError, NotFoundError, StoreUserError
from tourney.store.permissions import can_manage_club
from tourney.store.tables import Club

MAX_PROVISIONAL_BELOW = 100_000
"""The highest threshold accepted: far above any real player's experience."""


@dataclass(frozen=True)
class RatingOptions:
    """A club's rating list options, as its settings form shows them."""

    club_id: int
    club_name: str
    provisional_below: int
    public_profiles: bool
    can_change: bool
    """The viewer may change them."""


def rating_options(session: Session, actor: Actor, club_id: int) -> RatingOptions:
    """The club's options, and whether ``actor`` may change them.

    Raises:
        NotFoundError: no such club.
    """
    club = session.get(Club, club_id)
    if club is None:
        raise NotFoundError(Message("No such club."))
    return RatingOptions(
        club_id,
        club.name,
        club.provisional_below,
        club.public_profiles,
        can_manage_club(session, actor, club_id),
    )


def set_rating_options(
    session: Session,
    *,
    actor: Actor,
    club_id: int,
    provisional_below: int,
    public_profiles: bool,
) -> RatingOptions:
    """A club's director sets who is provisional and whether the players' pages are public.

    Raises:
        NotFoundError: no such club.
        AccessDeniedError: the actor directs none of the club's events (nor added it).
        StoreUserError: a threshold below 0 or above ``MAX_PROVISIONAL_BELOW``.
    """
    club = session.get(Club, club_id)
    if club is None:
        raise NotFoundError(Message("No such club."))
    if not can_manage_club(session, actor, club_id):
        raise AccessDeniedError(
            Message("Only a director of the club's events may change its list.")
        )
    if not 0 <= provisional_below <= MAX_PROVISIONAL_BELOW:
        raise StoreUserError(Message(
            "The experience threshold is a whole number from 0 (off) to %(largest)s.",
            largest=MAX_PROVISIONAL_BELOW,
        ), field="provisional_below")
    before = snapshot(club)
    club.provisional_below = provisional_below
    club.public_profiles = public_profiles
    session.add(club)
    session.flush()
    record(
        session,
        actor=actor,
        action="club.rating_options",
        entity_type="club",
        entity_id=club.id,
        before=before,
        after=snapshot(club),
    )
    return RatingOptions(club_id, club.name, provisional_below, public_profiles, True)
