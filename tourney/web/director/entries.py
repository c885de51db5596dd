"""Entries and the roster: an event's entries with check-in and withdrawal, the player
roster with its search, its file import and its clubs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext
from sqlmodel import Session

from tourney.store import bulk_entry, events, queries, roster, withdrawal
from tourney.store.bulk_entry import PastedLine
from tourney.store.errors import StoreUserError
from tourney.store.player_import import apply_player_import, preview_player_import
from tourney.store.queries import EntryView, EventDetail
from tourney.store.roster import PlayerFields
from tourney.web.auth import DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp, club_choices, load_event
from tourney.web.forms import (
    ActionForm,
    BulkEntryForm,
    ClubForm,
    EntryForm,
    PastedNamesForm,
    PlayerForm,
    PlayerImportConfirmForm,
    PlayerImportForm,
    PreviewedFile,
    SeedByRatingForm,
    SeedForm,
    apply_error,
    options,
)
from tourney.web.i18n import lazy_gettext
from tourney.web.submit import Done, submit_form

# --- entries -------------------------------------------------------------------------


@bp.route("/events/<int:event_id>/entries", methods=["GET", "POST"])
@requires(*DIRECTORS)
def entries(event_id: int) -> ResponseReturnValue:
    """The event's entries with check-in and withdrawal; a form enters roster players."""
    detail = load_event(event_id)
    form = _entry_form(event_id)

    def change(session: Session) -> Done:
        entry = roster.enter_player(
            session,
            actor=actor(),
            event_id=event_id,
            player_id=form.player_id.data or 0,
            seed=form.seed.data,
        )
        return Done(
            gettext("%(player_name)s entered.", player_name=entry.player_name),
            url_for(".entries", event_id=event_id),
        )

    return submit_form(form, change, lambda: _entries_page(detail, form=form))


ENTRY_CHOICES = 200
"""How many roster players the "Player" list offers; the rest are found by searching the
list of players to enter below it (a roster of 10,000 makes a list nobody can use)."""


def _entry_form(event_id: int, *, fresh: bool = False) -> EntryForm:
    """The form that enters a roster player: it offers the first of those not entered yet,
    and the one the director chose if they came from elsewhere."""
    form = EntryForm(formdata=None) if fresh else EntryForm()
    chosen = form.player_id.data if isinstance(form.player_id.data, int) else None
    with reading() as session:
        candidates = queries.players_not_entered(session, event_id, limit=ENTRY_CHOICES + 1)
        more = len(candidates) > ENTRY_CHOICES
        candidates = candidates[:ENTRY_CHOICES]
        if chosen is not None and all(p.id != chosen for p in candidates):
            candidates += queries.players_not_entered(session, event_id, only=chosen)
    if more:
        form.player_id.description = gettext(
            "The first %(count)s players not entered, by name: "
            "search “Enter many players” below for the others.",
            count=ENTRY_CHOICES,
        )
    form.player_id.choices = options(
        [
            ("", lazy_gettext("Choose a player…")),
            *((p.id, f"{p.name} ({p.country})" if p.country else p.name) for p in candidates),
        ]
    )
    return form


def _entries_page(
    detail: EventDetail,
    *,
    form: EntryForm | None = None,
    action_form: ActionForm | SeedByRatingForm | None = None,
    bulk_form: BulkEntryForm | None = None,
    pasted_form: PastedNamesForm | None = None,
    pasted: tuple[PastedLine, ...] = (),
    seed_form: SeedForm | None = None,
    seed_entry_id: int | None = None,
) -> str:
    """The entries page (a page of entries, a page of roster players to enter), with the
    form a director just sent where it was refused."""
    search = request.args.get("q", "").strip()[:80]
    roster_search = request.args.get("cq", "").strip()[:80]
    with reading() as session:
        rows = bulk_entry.entries_page(
            session, detail.id, search=search, number=_page_number("page")
        )
        candidates = bulk_entry.candidates_page(
            session, detail.id, search=roster_search, number=_page_number("cpage")
        )
    return render_template(
        "director/entries.html",
        event=detail,
        entries=rows,
        candidates=candidates,
        form=form or _entry_form(detail.id, fresh=True),
        action_form=action_form or ActionForm(formdata=None),
        bulk_form=bulk_form or BulkEntryForm(formdata=None),
        pasted_form=pasted_form or PastedNamesForm(formdata=None),
        pasted=pasted,
        seed_form=seed_form,
        seed_entry_id=seed_entry_id,
        here=lambda **changes: _this_page(detail.id, **changes),
    )


def _this_page(event_id: int, **changes: Any) -> str:
    """The entries page's address with its searches and pages, changed by ``changes``."""
    args: dict[str, Any] = {
        k: v for k, v in request.args.items() if k in ("q", "page", "cq", "cpage")
    }
    args.update(changes)
    return url_for(".entries", event_id=event_id, **{k: v for k, v in args.items() if v})


def _page_number(name: str) -> int:
    """A page number from the query string; anything else is the first page."""
    text = request.args.get(name, "1")
    return int(text) if text.isdigit() and 0 < len(text) < 7 else 1


@bp.post("/events/<int:event_id>/entries/bulk")
@requires(*DIRECTORS)
def enter_selected(event_id: int) -> ResponseReturnValue:
    """Enter every roster player ticked in the list of those not entered yet."""
    form = BulkEntryForm()

    def change(session: Session) -> Done:
        done = bulk_entry.enter_players(
            session, actor=actor(), event_id=event_id, player_ids=form.player_ids.data or []
        )
        return _bulk_done(event_id, done)

    return submit_form(form, change, lambda: _entries_page(load_event(event_id), bulk_form=form))


def _bulk_done(event_id: int, done: bulk_entry.BulkEntry) -> Done:
    count = len(done.entered)
    if count:
        message = ngettext(
            "%(num)d player entered: %(names)s.",
            "%(num)d players entered: %(names)s.",
            count,
            names=_listed(done.entered),
        )
    else:
        message = gettext("No player entered.")
    if done.already_entered:
        message += " " + gettext("Entered already: %(names)s.", names=_listed(done.already_entered))
    category = "success" if count else "info"
    return Done(message, url_for(".entries", event_id=event_id), category)


def _listed(names: tuple[str, ...], most: int = 10) -> str:
    shown = ", ".join(names[:most])
    if len(names) <= most:
        return shown
    return gettext("%(names)s and %(count)s more", names=shown, count=len(names) - most)


@bp.post("/events/<int:event_id>/entries/paste")
@requires(*DIRECTORS)
def enter_pasted(event_id: int) -> ResponseReturnValue:
    """Enter the roster players named in a pasted list, one per line.

    Every line must name exactly one roster player not entered yet; otherwise nothing is
    entered and the page lists the lines that did not, saying why, to be corrected.
    """
    form = PastedNamesForm()
    lines: tuple[PastedLine, ...] = ()

    def change(session: Session) -> Done:
        nonlocal lines
        lines = bulk_entry.match_pasted_names(session, event_id, form.names.data or "")
        if any(line.problem for line in lines):
            problems = sum(1 for line in lines if line.problem)
            raise StoreUserError(
                gettext(
                    "Nobody was entered: %(problems)s of %(lines)s lines do not name exactly "
                    "one roster player to enter. Correct them and enter again.",
                    problems=problems,
                    lines=len(lines),
                ),
                field="names",
            )
        ids = [line.players[0].id for line in lines]
        return _bulk_done(
            event_id,
            bulk_entry.enter_players(session, actor=actor(), event_id=event_id, player_ids=ids),
        )

    return submit_form(
        form,
        change,
        lambda: _entries_page(load_event(event_id), pasted_form=form, pasted=lines),
    )


@bp.post("/entries/<int:entry_id>/seed")
@requires(*DIRECTORS)
def set_seed(entry_id: int) -> ResponseReturnValue:
    """Change an entry's seed (empty: no seed)."""
    form = SeedForm()

    def change(session: Session) -> Done:
        entry = bulk_entry.set_seed(session, actor=actor(), entry_id=entry_id, seed=form.seed.data)
        page = bulk_entry.entry_page_number(session, entry_id)
        location = url_for(".entries", event_id=entry.event_id, page=page) + f"#entry-{entry.id}"
        if entry.seed:
            said = gettext(
                "%(name)s now has seed %(seed)s.", name=entry.player_name, seed=entry.seed
            )
        else:
            said = gettext("%(name)s now has no seed.", name=entry.player_name)
        return Done(said, location)

    def page() -> str:
        with reading() as session:
            event_id = queries.entry_event_id(session, entry_id)
        return _entries_page(load_event(event_id), seed_form=form, seed_entry_id=entry_id)

    return submit_form(form, change, page)


def _entry_button(
    entry_id: int, run: Callable[[Session], EntryView], message: str
) -> ResponseReturnValue:
    """A button of the entries page that changes one entry; a refusal shows there.

    ``message`` names the player as ``%(name)s``.
    """
    form = ActionForm()

    def change(session: Session) -> Done:
        entry = run(session)
        # Back to the page of the list that shows the entry.
        page = bulk_entry.entry_page_number(session, entry.id)
        location = url_for(".entries", event_id=entry.event_id, page=page) + f"#entry-{entry.id}"
        return Done(str(message) % {"name": entry.player_name}, location)

    def page() -> str:
        with reading() as session:
            event_id = queries.entry_event_id(session, entry_id)
        return _entries_page(load_event(event_id), action_form=form)

    return submit_form(form, change, page)


@bp.post("/events/<int:event_id>/entries/check-in-everyone")
@requires(*DIRECTORS)
def check_in_everyone(event_id: int) -> ResponseReturnValue:
    """Mark every active entry present (a club night where everyone is in the room)."""
    form = ActionForm()

    def change(session: Session) -> Done:
        count = roster.check_in_everyone(session, actor=actor(), event_id=event_id)
        return Done(
            ngettext("%(num)d player checked in.", "%(num)d players checked in.", count),
            url_for(".entries", event_id=event_id),
        )

    return submit_form(form, change, lambda: _entries_page(load_event(event_id), action_form=form))


@bp.post("/events/<int:event_id>/entries/seed-by-rating")
@requires(*DIRECTORS)
def seed_by_rating(event_id: int) -> ResponseReturnValue:
    """Seed the event's best-rated players by its club's rating list."""
    form = SeedByRatingForm()

    def change(session: Session) -> Done:
        count = bulk_entry.seed_by_rating(
            session, actor=actor(), event_id=event_id, seeds=form.seeds.data or 0
        )
        return Done(
            ngettext(
                "%(num)d player seeded by the club's rating list.",
                "%(num)d players seeded by the club's rating list.",
                count,
            ),
            url_for(".entries", event_id=event_id),
        )

    return submit_form(form, change, lambda: _entries_page(load_event(event_id), action_form=form))


@bp.post("/entries/<int:entry_id>/check-in")
@requires(*DIRECTORS)
def check_in(entry_id: int) -> ResponseReturnValue:
    """Mark an entry present."""
    return _entry_button(
        entry_id,
        lambda s: roster.check_in(s, actor=actor(), entry_id=entry_id),
        lazy_gettext("%(name)s checked in."),
    )


@bp.post("/entries/<int:entry_id>/undo-check-in")
@requires(*DIRECTORS)
def undo_check_in(entry_id: int) -> ResponseReturnValue:
    """Take back a check-in."""
    return _entry_button(
        entry_id,
        lambda s: roster.check_in(s, actor=actor(), entry_id=entry_id, checked_in=False),
        lazy_gettext("%(name)s is no longer checked in."),
    )


@bp.get("/entries/<int:entry_id>/withdraw")
@requires(*DIRECTORS)
def confirm_withdraw(entry_id: int) -> ResponseReturnValue:
    """Ask before withdrawing: the walkovers it gives and what it does later."""
    with reading() as session:
        preview = withdrawal.withdrawal_preview(session, actor(), entry_id)
    return render_template("director/withdraw.html", preview=preview)


@bp.post("/entries/<int:entry_id>/withdraw")
@requires(*DIRECTORS)
def withdraw(entry_id: int) -> ResponseReturnValue:
    """Withdraw an entry."""
    return _entry_button(
        entry_id,
        lambda s: roster.withdraw(s, actor=actor(), entry_id=entry_id),
        lazy_gettext("%(name)s withdrawn."),
    )


@bp.post("/entries/<int:entry_id>/reinstate")
@requires(*DIRECTORS)
def reinstate(entry_id: int) -> ResponseReturnValue:
    """Undo a withdrawal."""
    return _entry_button(
        entry_id,
        lambda s: _reinstate(s, entry_id),
        lazy_gettext("%(name)s is back in the event."),
    )


def _reinstate(session: Session, entry_id: int) -> EntryView:
    """Reinstate, unless walkovers given for the withdrawal would stay lost."""
    refusal = withdrawal.reinstatement_refusal(session, actor(), entry_id)
    if refusal is not None:
        raise StoreUserError(refusal)
    return roster.reinstate(session, actor=actor(), entry_id=entry_id)


# --- the roster ----------------------------------------------------------------------


@bp.route("/players", methods=["GET", "POST"])
@requires(*DIRECTORS)
def players() -> ResponseReturnValue:
    """The roster, with a search box and a form to add a player."""
    search = request.args.get("q", "").strip()[:80]
    form = PlayerForm()
    club_choices(form)

    def change(session: Session) -> Done:
        player = roster.register_player(
            session,
            actor=actor(),
            fields=_player_fields(form),
            allow_namesake=bool(form.add_as_new.data),
        )
        return Done(gettext("%(name)s added to the roster.", name=player.name), url_for(".players"))

    return submit_form(form, change, lambda: _players_page(search, form=form))


def _players_page(
    search: str = "",
    *,
    form: PlayerForm | None = None,
    import_form: PlayerImportForm | None = None,
    club_form: ClubForm | None = None,
) -> str:
    """The roster page, with the form a director just sent where it was refused."""
    if form is None:
        form = PlayerForm(formdata=None)
        club_choices(form)
    if import_form is None:
        import_form = PlayerImportForm(formdata=None)
        club_choices(import_form)
    with reading() as session:
        rows = queries.roster_for(session, actor(), search=search)
    return render_template(
        "director/players.html",
        players=rows,
        form=form,
        club_form=club_form or ClubForm(formdata=None),
        import_form=import_form,
        search=search,
    )


def _player_fields(form: PlayerForm) -> PlayerFields:
    return PlayerFields(
        name=form.name.data or "",
        country=form.country.data or "",
        rating=form.rating.data,
        email=form.email.data or None,
        club_id=form.club_id.data,
    )


@bp.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
@requires(*DIRECTORS)
def edit_player(player_id: int) -> ResponseReturnValue:
    """Correct a roster player (one the director may change: see ``permissions``)."""
    with reading() as session:
        player = queries.editable_player(session, actor(), player_id)
    data = None
    if request.method != "POST":
        data = {
            "name": player.name,
            "country": player.country,
            "rating": player.rating,
            "email": player.email,
            "club_id": player.club_id,
        }
    form = PlayerForm(data=data)
    club_choices(form)

    def change(session: Session) -> Done:
        roster.update_player(
            session, actor=actor(), player_id=player_id, fields=_player_fields(form)
        )
        return Done(gettext("Player saved."), url_for(".players"))

    return submit_form(
        form,
        change,
        lambda: render_template("director/player_form.html", form=form, player=player),
    )


@bp.post("/clubs")
@requires(*DIRECTORS)
def add_club() -> ResponseReturnValue:
    """Add a club (from the roster page)."""
    form = ClubForm()

    def change(session: Session) -> Done:
        club = events.create_club(session, actor=actor(), name=form.club_name.data or "")
        return Done(gettext("Club “%(name)s” added.", name=club.name), url_for(".players"))

    return submit_form(form, change, lambda: _players_page(club_form=form))


# --- importing a list of players -----------------------------------------------------


@bp.post("/players/import")
@requires(*DIRECTORS)
def import_players() -> ResponseReturnValue:
    """Preview a CSV or XLSX list of players: every row with its problems; nothing is saved.

    Not a change, so no redirect: the preview page carries the signed file on to the
    confirm step. A refused file is shown on the roster page like any refused form.
    """
    form = PlayerImportForm()
    club_choices(form)
    if not form.validate_on_submit():
        return _players_page(import_form=form), 400
    previewed = PreviewedFile(
        filename=form.file.data.filename or "players.csv",
        club_id=form.club_id.data,
        data=form.file.data.read(),
    )
    try:
        with reading() as session:
            preview = preview_player_import(
                session, previewed.data, filename=previewed.filename, club_id=previewed.club_id
            )
    except StoreUserError as error:
        apply_error(form, error)
        return _players_page(import_form=form), error.status_code
    return render_template(
        "director/player_import.html",
        preview=preview,
        form=PlayerImportConfirmForm.of(previewed),
    )


@bp.post("/players/import/confirm")
@requires(*DIRECTORS)
def confirm_player_import() -> ResponseReturnValue:
    """Save the good rows of a previewed file, checked again from the file itself."""
    form = PlayerImportConfirmForm()

    def change(session: Session) -> Done:
        previewed = form.previewed()
        preview = preview_player_import(
            session, previewed.data, filename=previewed.filename, club_id=previewed.club_id
        )
        done = apply_player_import(session, preview, actor=actor())
        return Done(
            gettext(
                "Added %(added)s player(s); skipped %(skipped)s row(s).",
                added=len(done.created),
                skipped=len(done.skipped),
            ),
            url_for(".players"),
            "success" if done.created else "info",
        )

    return submit_form(form, change, lambda: _players_page(import_form=_import_again(form)))


def _import_again(refused: PlayerImportConfirmForm) -> PlayerImportForm:
    """The roster's import form, saying why the confirmed file was refused."""
    form = PlayerImportForm(formdata=None)
    club_choices(form)
    form.form_errors.extend([*refused.form_errors, *refused.upload.errors])
    return form
