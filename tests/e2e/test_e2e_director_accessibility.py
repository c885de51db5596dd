"""Every director page in a real browser, on a real evening: the club night drawn and
published, one match in play with a game entered. No page repeats an id (a label tied
to a repeated id names the wrong field), and axe finds nothing serious or critical.

And a game typed after the login has lapsed: logged in again, the director is back on
the match page with the game filled in as typed, and saves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browser_harness import DEMO_LOGIN
from sqlmodel import col, select
from test_e2e_public import _axe_violations

from tourney.store import draws, results
from tourney.store.audit import Actor
from tourney.store.db import make_engine, read_session, transaction
from tourney.store.results import GameFields
from tourney.store.tables import Entry, Event, Flight, Player, User

ADMIN = ("admin@example.org", DEMO_LOGIN[1])
SHOTS = Path("/tmp/c1")


@dataclass(frozen=True)
class Evening:
    """The ids of the club night once drawn, with one match in play."""

    event_id: int
    main: int
    consolation: int
    in_play: int
    entry_id: int
    player_id: int


def _evening(folder: Path) -> Evening:
    """Draw and publish the demo club night (seeded), enter a game of its first match, and
    add an admin (with the demo director's password) for the accounts page."""
    engine = make_engine(f"sqlite:///{folder / 'tourney.db'}")
    with read_session(engine) as session:
        director = session.exec(select(User).where(User.email == DEMO_LOGIN[0])).one()
        actor = Actor(user_id=director.id, label=director.email, role=director.role)
        event_id = session.exec(
            select(Event.id).where(Event.slug == "thursday-club-night")
        ).one() or 0
        flights = {
            f.name: f.id or 0
            for f in session.exec(select(Flight).where(Flight.event_id == event_id))
        }
        entry, player = session.exec(
            select(Entry.id, Player.id)
            .join(Player, col(Player.id) == col(Entry.player_id))
            .where(Entry.event_id == event_id)
            .order_by(col(Entry.id))
        ).first() or (0, 0)
        password_hash = director.password_hash
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=actor, flight_id=flights["Main"], method="seeded", present_only=False
        )
        board = draws.publish_draw(session, actor=actor, flight_id=flights["Main"])
        first = next(m for m in board.rounds[0].matches if not m.is_bye)
        results.record_game(
            session, actor=actor, match_id=first.id, game=GameFields(winner="a", end="played")
        )
        session.add(User(email=ADMIN[0], name="Club Admin", password_hash=password_hash,
                         role="admin"))
    engine.dispose()
    return Evening(
        event_id, flights["Main"], flights["Consolation"], first.id, entry or 0, player or 0
    )


def _log_in(page: Any, base_url: str, login: tuple[str, str] = DEMO_LOGIN) -> None:
    page.goto(f"{base_url}/login")
    page.get_by_label("E-mail address").fill(login[0])
    page.get_by_label("Password").fill(login[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def _repeated_ids(page: Any) -> list[str]:
    found: list[str] = page.evaluate(
        "(() => { const seen = {}; document.querySelectorAll('[id]').forEach(e =>"
        " { seen[e.id] = (seen[e.id] || 0) + 1; });"
        " return Object.keys(seen).filter(k => seen[k] > 1).sort(); })()"
    )
    return found


def _problems(page: Any) -> dict[str, Any]:
    serious = [v for v in _axe_violations(page) if v["impact"] in ("serious", "critical")]
    return {"repeated ids": _repeated_ids(page), "axe": serious}


DIRECTOR_PAGES = [
    "/director/",
    "/director/events/new",
    "/director/events/{event}",
    "/director/events/{event}/edit",
    "/director/events/{event}/entries",
    "/director/events/{event}/audit",
    "/director/events/{event}/sharing",
    "/director/events/{event}/flights/new",
    "/director/flights/{main}",
    "/director/flights/{consolation}",
    "/director/flights/{main}/edit",
    "/director/matches/{match}",
    "/director/entries/{entry}/withdraw",
    "/director/players",
    "/director/players/{player}/edit",
    "/account/password",
    "/account/tokens",
]


def test_every_director_page_has_unique_ids_and_no_serious_accessibility_violation(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    evening = _evening(tmp_path)
    _log_in(page, base_url)
    found: dict[str, Any] = {}
    for path in DIRECTOR_PAGES:
        page.goto(base_url + path.format(
            event=evening.event_id, main=evening.main, consolation=evening.consolation,
            match=evening.in_play, entry=evening.entry_id, player=evening.player_id,
        ))
        assert page.url.startswith(base_url + "/director") or "/account/" in page.url, path
        if (problems := _problems(page)) != {"repeated ids": [], "axe": []}:
            found[path] = problems
    SHOTS.mkdir(exist_ok=True)
    page.goto(f"{base_url}/director/matches/{evening.in_play}")
    page.screenshot(path=str(SHOTS / "director-match-in-play.png"), full_page=True)

    # The import preview: a page shown after a file is sent.
    page.goto(f"{base_url}/director/players")
    importing = page.locator("form#import")
    importing.get_by_label("File (.csv or .xlsx)").set_input_files(
        files=[{"name": "players.csv", "mimeType": "text/csv",
                "buffer": b"name,country\nNils Spare,NO\n"}]
    )
    importing.get_by_role("button", name="Check the file").click()
    page.wait_for_load_state()
    if (problems := _problems(page)) != {"repeated ids": [], "axe": []}:
        found["player import preview"] = problems

    # The accounts page is an admin's.
    page.context.clear_cookies()
    _log_in(page, base_url, ADMIN)
    page.goto(f"{base_url}/director/users")
    if (problems := _problems(page)) != {"repeated ids": [], "axe": []}:
        found["/director/users"] = problems

    assert found == {}


def test_game_typed_after_the_login_lapsed_is_kept_through_the_login(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    evening = _evening(tmp_path)
    _log_in(page, base_url)
    page.goto(f"{base_url}/director/matches/{evening.in_play}")
    names = page.locator("h1 .player").all_inner_texts()
    # The login ends elsewhere (logged out on another device) while the page is open.
    engine = make_engine(f"sqlite:///{tmp_path / 'tourney.db'}")
    with transaction(engine) as session:
        director = session.exec(select(User).where(User.email == DEMO_LOGIN[0])).one()
        director.session_version += 1
    engine.dispose()

    game = page.locator("form", has=page.get_by_role("button", name="Add game"))
    game.get_by_label("Winner").select_option(label=names[1])
    game.get_by_label("Result").select_option(label="Gammon")
    game.get_by_role("button", name="Add game").click()
    page.wait_for_load_state()
    on_login = page.url
    page.get_by_label("E-mail address").fill(DEMO_LOGIN[0])
    page.get_by_label("Password").fill(DEMO_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "director-game-kept.png"), full_page=True)

    assert "/login" in on_login
    assert page.url == f"{base_url}/director/matches/{evening.in_play}"
    notice = page.locator(".flashes").inner_text()
    assert "Your game was not saved yet: check it and save." in notice
    refilled = page.locator("form", has=page.get_by_role("button", name="Add game"))
    assert refilled.get_by_label("Winner").locator("option:checked").inner_text() == names[1]
    assert refilled.get_by_label("Result").locator("option:checked").inner_text() == "Gammon"

    refilled.get_by_role("button", name="Add game").click()
    page.wait_for_load_state()

    assert "Saved." in page.locator(".flashes").inner_text()
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 2
    assert rows.nth(1).locator("td").nth(1).inner_text() == names[1]

