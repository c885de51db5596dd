"""Schemathesis over /api/v1/openapi.json: no 500s, every response matches its schema.

The app runs on its own SQLite file with the sample events loaded once; each operation
gets a bounded number of generated requests, anonymous and with a director's token.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlmodel import select

from tourney.store import access, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, read_session, transaction
from tourney.store.demo import load_demo
from tourney.store.passwords import make_hasher
from tourney.store.tables import User
from tourney.web.api import OPERATIONS, PREFIX

SAMPLE_EVENTS = Path(__file__).resolve().parents[2] / "sample_events"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tourney.web import create_app

    folder = tmp_path_factory.mktemp("schemathesis")
    url = f"sqlite:///{folder / 'api.db'}"
    engine = make_engine(url)
    schema.upgrade(engine)
    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=make_hasher("fast"))
    with read_session(engine) as session:
        user = session.exec(select(User).where(User.email == "director@example.org")).one()
        actor = Actor(user_id=user.id, label=user.email, role=user.role)
    with transaction(engine) as session:
        _, secret = access.create_api_token(session, actor=actor, name="schemathesis")
    app: Flask = create_app(
        {
            "DATABASE_URL": url,
            "SECRET_KEY": "schemathesis",
            "INSTANCE_PATH": str(folder),
            "PASSWORD_HASH_PROFILE": "fast",
            "TESTING": True,
        },
        engine=engine,
    )
    app.config["API_TEST_TOKEN"] = secret
    yield app
    engine.dispose()


@pytest.fixture(scope="module")
def api_schema(api_app: Flask) -> Any:
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", api_app)


@pytest.mark.parametrize(
    ("method", "path"), [(op.method, PREFIX + op.path) for op in OPERATIONS], ids=str
)
def test_api_conforms_to_its_openapi_document(
    api_app: Flask, api_schema: Any, method: str, path: str
) -> None:
    operation = api_schema[path][method]
    token = api_app.config["API_TEST_TOKEN"]

    @settings(
        max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(case=operation.as_strategy())
    def run(case: Any) -> None:
        case.call_and_validate(checks=CHECKS)
        case.call_and_validate(checks=CHECKS, headers={"Authorization": f"Bearer {token}"})

    run()
