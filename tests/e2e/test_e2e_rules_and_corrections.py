"""Changing rules after results, and withdrawing then reinstating a player, in a real browser.

The evening is set up through the store on the live app's database: a knockout to 5
points without the Crawford rule, Anna Ek, Ben Olsen, Cy Berg and Dag Lund seeded in that
order (semifinals Anna v Dag and Ben v Cy), and Anna beating Dag 5-3: a gammon at 2
(4-0), Dag a single (4-1) and a single at 2 (4-3), Anna a single (5-3). Everything after
that is done by the director in the browser. Screenshots go to ``/tmp/c2/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_harness import DEMO_LOGIN
from sqlmodel import Session, create_engine, select

from tourney.store import draws, events, results, roster
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.results import GameFields
from tourney.store.tables import User
from tourney.store.tournament_views import flight_board

SHOTS = Path("/tmp/c2")
PLAYERS = ["Anna Ek", "Ben Olsen", "Cy Berg", "Dag Lund"]
ANNA_WINS_5_3 = (
    GameFields("a", "played", 2, "gammon"),
    GameFields("b", "played", 1, "single"),
    GameFields("b", "played", 2, "single"),
    GameFields("a", "played", 1, "single"),
)


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def evening(tmp_path: Path) -> tuple[int, int, dict[str, int]]:
    """The event, its flight and the entries by name, with Anna's 5-3 win entered."""
    engine = create_engine(f"sqlite:///{tmp_path / 'tourney.db'}")
    with Session(engine) as session:
        user = session.exec(select(User).where(User.email == DEMO_LOGIN[0])).one()
        actor = Actor(user_id=user.id, label=user.email, role=user.role)
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Rules Night", crawford=False)
        )
        flight = events.add_flight(
            session, actor=actor, event_id=event.id,
            fields=events.FlightFields(name="Main", format="knockout", match_length=5),
        )
        entries = {}
        for seed, name in enumerate(PLAYERS, start=1):
            player = roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=name)
            )
            entries[name] = roster.enter_player(
                session, actor=actor, event_id=event.id, player_id=player.id, seed=seed
            ).id
        draws.make_draw(session, actor=actor, flight_id=flight.id, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=flight.id)
        semifinal = flight_board(session, actor, flight.id).rounds[0].matches[0].id
    for game in ANNA_WINS_5_3:
        with transaction(engine) as session:
            results.record_game(session, actor=actor, match_id=semifinal, game=game)
    engine.dispose()
    return event.id, flight.id, entries


def log_in(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/login")
    page.get_by_label("E-mail address").fill(DEMO_LOGIN[0])
    page.get_by_label("Password").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def flash(page: Any) -> str:
    return str(page.locator(".flashes").inner_text())


def final_round(page: Any) -> str:
    """The text of the flight page's second round, the final."""
    return str(page.locator("section", has=page.locator("#round-2-name")).last.inner_text())


def header(page: Any) -> str:
    return re.sub(r"\s+", " ", str(page.locator("p.meta").first.inner_text()))


def test_crawford_turned_on_after_results_is_listed_confirmed_and_shown(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    event_id, flight_id, _ = evening(tmp_path)
    log_in(page, base_url)

    page.goto(f"{base_url}/director/events/{event_id}/edit")
    page.locator("#crawford").check()
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    shot(page, "rules-change-warning")
    listed = page.locator("#rules-change li").all_inner_texts()
    page.get_by_role("button", name="Confirm the change").click()
    page.wait_for_load_state()
    saved = flash(page)

    page.goto(f"{base_url}/director/flights/{flight_id}/edit")
    page.get_by_label("Match length (points)").fill("7")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    shot(page, "length-change-warning")
    length_listed = page.locator("#rules-change li").all_inner_texts()
    page.get_by_role("button", name="Confirm the change").click()
    page.wait_for_load_state()
    page.goto(f"{base_url}/director/flights/{flight_id}")
    shot(page, "flight-after-length-change")
    flight_header = header(page)
    # The round's own section (the clocks card above it names the semifinal too).
    semifinal = page.locator("section", has=page.locator("#round-1-name")).last.inner_text()

    # Anna reached 4 = N-1 in game 1: game 2 becomes the Crawford game.
    assert listed == [
        "Main round 1 match 1 (Anna Ek – Dag Lund): game 2 becomes the Crawford game."
    ]
    assert "Event saved. The results listed were changed as you confirmed." in saved
    # To 7 points Anna's 4-0 is no longer at N-1, so game 2 is no longer the Crawford
    # game, and 5-3 does not finish the match.
    assert length_listed == [
        "Main round 1 match 1 (Anna Ek – Dag Lund): game 2 is no longer the Crawford game; "
        "its score of 5–3 would become a match to 7 still playing."
    ]
    assert "7-point matches" in flight_header and "5-point" not in flight_header
    assert "7 pt" in semifinal and "5 pt" not in semifinal


def test_withdraw_then_reinstate_gives_the_match_back(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    event_id, flight_id, _ = evening(tmp_path)
    log_in(page, base_url)

    page.goto(f"{base_url}/director/events/{event_id}/entries")
    page.get_by_role("link", name="Withdraw: Cy Berg").click()
    page.wait_for_load_state()
    shot(page, "withdraw-confirmation")
    consequences = page.locator("#consequences").inner_text()
    page.get_by_role("button", name="Withdraw Cy Berg").click()
    page.wait_for_load_state()
    page.goto(f"{base_url}/director/flights/{flight_id}")
    final_while_withdrawn = final_round(page)
    page.goto(f"{base_url}/director/events/{event_id}/entries")
    page.get_by_role("button", name="Reinstate: Cy Berg").click()
    page.wait_for_load_state()
    reinstated = flash(page)
    page.goto(f"{base_url}/director/flights/{flight_id}")
    shot(page, "flight-after-reinstate")
    ben_cy = page.locator("tr:not(.clock-row), li, .match", has_text="Ben Olsen").filter(
        has_text="Cy Berg"
    )
    ben_cy_text = ben_cy.first.inner_text()
    final_after = final_round(page)

    assert "Main Semifinal: Ben Olsen goes through against Cy Berg by walkover." in consequences
    assert "Reinstating Cy Berg later turns these walkovers back into matches to play" in (
        consequences
    )
    assert "Ben Olsen" in final_while_withdrawn
    assert "Cy Berg is back in the event." in reinstated
    assert "ready to play" in ben_cy_text.lower()
    assert "Ben Olsen" not in final_after
