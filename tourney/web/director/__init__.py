"""The director's pages: events, flights and draws, entries and the roster, results, accounts.

Each view parses its form, calls one service in one transaction, flashes what happened and
redirects (Post/Redirect/Get, through ``tourney.web.submit``), or renders a read model.
Rights are checked twice: the ``requires`` guard by account role, the services by the
actor's part in the event. All views hang on one blueprint, ``director``, one module per
area:

    events     the events list, an event's dashboard, its form and audit log
    flights    flight settings, the draw, publishing, Swiss rounds, late entries, tables
    entries    entries and check-in, the player roster, its import, clubs
    divisions  an event's divisions and draw scoring, players' and flights' divisions,
               a match's handicap start
    matches    a match page and its results: games, final score, record upload, walkover
    accounts   the admin's list of accounts
    money      money sessions and chouettes, their games and settlement sheets
    teams      an event's teams, a team flight's fixtures and standings, a fixture
    prizes     club money: fees, side pools, the ledger, payouts and the payout sheet
    clocks     starting a match's clock, the event's timetable, its venue screen
    ratings    a club's rating list from the results of its events, its options, a
               player's history (page, chart, PDF), seasons
"""

from __future__ import annotations

# Importing the area modules registers their views on the blueprint.
from tourney.web.director import (  # noqa: F401
    accounts,
    clocks,
    divisions,
    entries,
    events,
    flights,
    matches,
    money,
    prizes,
    ratings,
    teams,
)
from tourney.web.director.base import bp

__all__ = ["bp"]
