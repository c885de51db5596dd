"""Live public pages: version-keyed fragments, cheap "nothing changed" answers, access.

Every public page of an event is a frame around one *live region*. The region's HTML is
rendered once per event ``data_version`` (which every write bumps) and kept in a small
per-app cache, so a venue's worth of phones refreshing costs one indexed query each. The
page polls its own address with ``?since=<version>`` (htmx, every few seconds): the answer
is 204 when the version is unchanged, else the new region, swapped in place; nothing is
pushed to the browser history, so the back button is untouched.

Access: a public event is open to all; a private one to its staff when logged in, and to
whoever opened its share link (``?key=``). The first visit with the key stores it in a
cookie of that event's pages only (HttpOnly, SameSite=Lax, its path the event's address)
and redirects to the same address without it, so the key never stays in an address bar,
a browser history, a ``Referer`` or an access log line of the pages after it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import Flask, Response, current_app, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_login import current_user
from markupsafe import Markup
from sqlmodel import Session

from tourney.store import public_views as pv
from tourney.store.access import is_share_token
from tourney.store.audit import Actor
from tourney.store.errors import NotFoundError
from tourney.store.permissions import is_staff
from tourney.web.deps import reading
from tourney.web.i18n import current_language

POLL_SECONDS = 5
CACHE_EXTENSION = "tourney.live"
PROFILE_CACHE_EXTENSION = "tourney_profile_cache"
V = TypeVar("V")
SHARE_COOKIE = "tourney_share_{event_id}"
"""The name of the cookie that holds an event's share key (one per event)."""
SHARE_COOKIE_DAYS = 30


@dataclass(frozen=True)
class Region:
    """A rendered live region and the page title that goes with it."""

    title: str
    html: Markup


class VersionedCache(Generic[V]):
    """Values by keys that carry a data version: a bounded LRU, safe across threads.

    Keys carry the data version, so a write makes every older entry unreachable: nothing
    is ever served stale, and old entries simply age out.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> V | None:
        """The cached value, or none."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], region: V) -> None:
        """Keep ``region``; the least recently used entry goes when full."""
        with self._lock:
            self._items[key] = region
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


RegionCache = VersionedCache[Region]
"""Rendered regions by (event, data version, page)."""


def init_app(app: Flask) -> None:
    """Give the app its region cache, its cache of players' club pages and the
    share-key cookie."""
    app.extensions[CACHE_EXTENSION] = RegionCache()
    app.extensions[PROFILE_CACHE_EXTENSION] = VersionedCache[Any](size=512)
    app.after_request(_set_share_cookie)


def _set_share_cookie(response: Response) -> Response:
    """Keep a share key accepted by ``open_event`` in this event's cookie."""
    accepted: tuple[int, str, str] | None = g.pop("share_key_accepted", None)
    if accepted is not None:
        event_id, slug, key = accepted
        response.set_cookie(
            SHARE_COOKIE.format(event_id=event_id),
            key,
            max_age=SHARE_COOKIE_DAYS * 24 * 3600,
            path=url_for("public.event", slug=slug),
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
            httponly=True,
            samesite="Lax",
        )
    return response


def _cache() -> RegionCache:
    found: RegionCache = current_app.extensions[CACHE_EXTENSION]
    return found


def profile_cache() -> VersionedCache[Any]:
    """The app's cache of players' public pages at clubs, keyed by the club's data
    version (:func:`tourney.store.player_profiles.club_data_version`)."""
    found: VersionedCache[Any] = current_app.extensions[PROFILE_CACHE_EXTENSION]
    return found


class ShareKeyAccepted(Exception):
    """The request carried a valid share key: redirect to the same page without it."""


def viewer() -> Actor | None:
    """The logged-in user, if any; call it before opening a session (it may query)."""
    return current_user.actor if current_user.is_authenticated else None


def open_event(db: Session, slug: str, who: Actor | None) -> pv.EventAccess:
    """The event if this visitor (``who``: from ``viewer()``) may see it.

    Raises:
        NotFoundError: no such event, or a private one this visitor has no key or role for.
        ShareKeyAccepted: a valid ``?key=`` goes into the event's cookie (set on the
            response); the caller redirects to the address without it.
    """
    access = pv.event_access(db, slug)
    if access.is_public:
        return access
    given = request.args.get("key", "")
    if given and is_share_token(db, access.id, given):
        g.share_key_accepted = (access.id, slug, given)
        raise ShareKeyAccepted
    remembered = request.cookies.get(SHARE_COOKIE.format(event_id=access.id), "")
    if remembered and is_share_token(db, access.id, remembered):
        return access
    if who is not None and is_staff(db, who, access.id):
        return access
    raise NotFoundError(gettext("No such event."))


def current_address(*, leaving_out: tuple[str, ...] = ("key",), **adding: object) -> str:
    """This request's address without the query arguments ``leaving_out``, with ``adding``.

    A page opened with a valid share key redirects here: the key is remembered in the
    event's cookie and leaves the address.
    """
    values: dict[str, Any] = dict(request.view_args or {})
    values.update((k, v) for k, v in request.args.items() if k not in leaving_out)
    values.update(adding)
    return url_for(request.endpoint or "public.index", **values)


def live_page(
    slug: str,
    *,
    page: str,
    template: str,
    build: Callable[[Session, pv.EventAccess], dict[str, Any]],
    title: Callable[[dict[str, Any]], str],
    frame: str = "public/page.html",
    wrapper: str = "public/_live.html",
) -> ResponseReturnValue:
    """Answer a live page: the whole page, its region (``?since=``), or 204 when unchanged.

    ``build`` makes the template's context from the database (only on a cache miss);
    ``page`` names the page within the event for the cache key. ``frame`` is the whole
    page around the region, ``wrapper`` the polled element that holds it (the venue
    screen has its own of both).
    """
    since = request.args.get("since")
    who = viewer()
    with reading() as db:
        try:
            access = open_event(db, slug, who)
        except ShareKeyAccepted:
            return redirect(current_address())
        if since is not None and since == str(access.data_version):
            return _no_store(Response(status=204))
        key = (access.id, access.data_version, page, current_language())
        region = _cache().get(key)
        if region is None:
            context = build(db, access)
            html = Markup(render_template(template, **context))
            region = Region(title(context), html)
            _cache().put(key, region)
    poll_url = current_address(leaving_out=("since", "key"), since=access.data_version)
    context = {"region": region, "access": access, "poll_url": poll_url, "poll": POLL_SECONDS}
    if since is not None:
        return _no_store(Response(render_template(wrapper, **context)))
    return _no_store(Response(render_template(frame, **context)))


def _no_store(response: Response) -> Response:
    # Pages change with every result: browsers revalidate, shared caches keep nothing
    # (a private event's pages must never land in a proxy's cache).
    response.headers["Cache-Control"] = "private, no-cache"
    return response
