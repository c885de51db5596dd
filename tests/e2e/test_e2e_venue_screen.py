"""The venue screen on a 1920x1080 projector: it rotates through its panels and follows a
result entered elsewhere without reloading; every panel fits the screen and long names
are cut, not wrapped or spilled.

The event: 64 players (a few with very long names), a Swiss of all of them (32 pairings
in round 1) and a knockout of the 16 checked in first, both published; the screen shows
every panel, five seconds each, with an announcement.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browser_harness import DEMO_LOGIN, screenshot_path
from sqlmodel import col, select
from test_e2e_public import _axe_violations

from tourney.config import load_settings
from tourney.store import clocks, draws, events, roster, screens
from tourney.store.audit import Actor
from tourney.store.db import engine_from_settings, read_session, transaction
from tourney.store.results import record_final_score
from tourney.store.tables import Match, Round, User

LONG_NAMES = [
    "Maximiliane Wilhelmina von Hohenzollern-Sigmaringen",
    "Bartholomew Alexander Featherstonehaugh-Cholmondeley",
    "Þórunn Guðmundsdóttir Kristjánsdóttir-Sigurðardóttir",
]
FIRST = ["Ann", "Bjørn", "Cecilie", "Dmitri", "Elif", "Frode", "Greta", "Hamid"]
LAST = ["Lee", "Ødegård", "Kaya", "Ivanova", "Papadopoulos", "Weiß", "O'Brien", "Nakamura"]
PANELS = ("pairings", "bracket", "standings", "clock", "announcement")
WIDTH, HEIGHT = 1920, 1080


def _players() -> list[str]:
    names = [f"{first} {last}" for last in LAST for first in FIRST][: 64 - len(LONG_NAMES)]
    return LONG_NAMES + names


def _prepare(folder: Path) -> int:
    """Build the event in the live app's database; the id of the Swiss's table-1 match."""
    engine = engine_from_settings(
        load_settings({"DATABASE_URL": f"sqlite:///{folder / 'tourney.db'}"})
    )
    try:
        with transaction(engine) as session:
            user = session.exec(select(User).where(User.email == DEMO_LOGIN[0])).one()
            actor = Actor(user.id, user.email, user.role)
            event = events.create_event(
                session,
                actor=actor,
                fields=events.EventFields(name="Venue Night", slug="venue-night", is_public=True),
            )
            swiss = events.add_flight(
                session,
                actor=actor,
                event_id=event.id,
                fields=events.FlightFields(
                    name="Open Swiss", format="swiss", match_length=5, swiss_rounds=3
                ),
            )
            knockout = events.add_flight(
                session,
                actor=actor,
                event_id=event.id,
                fields=events.FlightFields(
                    name="Masters",
                    format="knockout",
                    match_length=5,
                    round_lengths={"final": 7},
                ),
            )
            for n, name in enumerate(_players()):
                player = roster.register_player(
                    session, actor=actor, fields=roster.PlayerFields(name=name)
                )
                entry = roster.enter_player(
                    session, actor=actor, event_id=event.id, player_id=player.id
                )
                if n < 16:
                    roster.check_in(session, actor=actor, entry_id=entry.id)
            draws.make_draw(session, actor=actor, flight_id=knockout.id, method="seeded")
            draws.publish_draw(session, actor=actor, flight_id=knockout.id)
            draws.make_draw(
                session, actor=actor, flight_id=swiss.id, method="seeded", present_only=False
            )
            draws.publish_draw(session, actor=actor, flight_id=swiss.id)
            screens.set_screen(
                session,
                actor=actor,
                event_id=event.id,
                panels=PANELS,
                rotation_seconds=5,
                announcement="Prize-giving at 22:00 in the bar. Last round starts at 21:00.",
                clock_minutes=None,
            )
            first_round = select(Round.id).where(Round.flight_id == swiss.id)
            table_one = session.exec(
                select(Match.id)
                .where(col(Match.round_id).in_(first_round))
                .order_by(col(Match.position))
            ).first()
            assert table_one is not None
            clocks.start_match(session, actor=actor, match_id=table_one)
            return table_one
    finally:
        engine.dispose()


def _enter_result(folder: Path, match_id: int) -> str:
    """Enter the match's result as its scorer would, elsewhere; its score as shown."""
    engine = engine_from_settings(
        load_settings({"DATABASE_URL": f"sqlite:///{folder / 'tourney.db'}"})
    )
    try:
        with transaction(engine) as session:
            user = session.exec(select(User).where(User.email == DEMO_LOGIN[0])).one()
            record_final_score(
                session,
                actor=Actor(user.id, user.email, user.role),
                match_id=match_id,
                score_a=5,
                score_b=2,
            )
        with read_session(engine) as session:
            assert session.get(Match, match_id) is not None
        return "5-2"
    finally:
        engine.dispose()


def _visible_overflow(page: Any) -> list[str]:
    """Elements of the shown slide that reach past the screen's edges."""
    found: list[str] = page.evaluate(
        """([w, h]) => {
          const out = [];
          const slide = document.querySelector('#live .slide:not([hidden])');
          slide.querySelectorAll('*').forEach((el) => {
            const r = el.getBoundingClientRect();
            if (r.width && (r.right > w + 1 || r.bottom > h + 1 || r.left < -1)) {
              out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right) + 'x'
                       + Math.round(r.bottom));
            }
          });
          if (document.documentElement.scrollHeight > h + 1) { out.push('page scrolls'); }
          return out;
        }""",
        [WIDTH, HEIGHT],
    )
    return found


def test_venue_screen_rotates_fits_1080p_and_follows_a_result(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    table_one = _prepare(tmp_path)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(f"{base_url}/events/venue-night/screen")
    page.evaluate("window.screenMarker = 'the same page'")

    seen: dict[str, list[str]] = {}
    cut: list[str] = []
    shown_pairings = 0
    deadline = time.monotonic() + 180  # a loaded machine rotates slowly
    while len(seen) < len(PANELS) and time.monotonic() < deadline:
        panel = page.evaluate("document.documentElement.getAttribute('data-panel')")
        if panel in PANELS and panel not in seen:
            page.wait_for_timeout(300)  # let the slide settle before the picture
            page.screenshot(path=str(screenshot_path(f"venue-screen-{panel}")))
            serious = [
                v["id"] for v in _axe_violations(page) if v["impact"] in ("serious", "critical")
            ]
            seen[panel] = _visible_overflow(page) + serious
            if panel == "pairings":
                # Names too long for their cell are cut with an ellipsis, not wrapped.
                cut = page.evaluate(
                    """() => Array.from(document.querySelectorAll(
                         '#live .slide:not([hidden]) .name'))
                       .filter((el) => el.scrollWidth > el.clientWidth + 1)
                       .map((el) => el.textContent)"""
                )
                shown_pairings = page.locator("#live .slide:not([hidden]) li.pairing").count()
        page.wait_for_timeout(500)

    assert sorted(seen) == sorted(PANELS)
    assert seen == {panel: [] for panel in PANELS}
    assert set(LONG_NAMES) <= set(cut)
    assert shown_pairings == 32

    version = page.get_attribute("#live", "data-version")
    score = _enter_result(tmp_path, table_one)
    page.wait_for_function(
        "v => document.querySelector('#live').getAttribute('data-version') !== v",
        arg=version,
        timeout=20_000,
    )
    first_line = page.locator("#live .slide-pairings li.pairing").first
    assert first_line.locator(".score").text_content() == score
    assert first_line.locator(".name.won").count() == 1
    assert page.evaluate("window.screenMarker") == "the same page"
