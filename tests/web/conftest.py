"""Web fixtures: log a test client in as an account of a given role."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from tourney.store.queries import UserView

PASSWORD = "correct horse battery staple"


@pytest.fixture
def login_as(client: FlaskClient, make_user: Callable[..., UserView]) -> Callable[..., UserView]:
    """Create an account of ``role`` and log ``client`` in with it."""

    def login(role: str = "director", **kwargs: str) -> UserView:
        user = make_user(role, **kwargs)
        response = client.post("/login", data={"email": user.email, "password": PASSWORD})
        assert response.status_code == 302, response.get_data(as_text=True)
        return user

    return login
