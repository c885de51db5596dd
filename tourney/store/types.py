"""Column types shared by the tables and the migrations.

``UTCDateTime`` stores instants as UTC on every database: SQLite keeps no time zone, so
values are written as naive UTC there and read back as aware UTC everywhere.

``StoredEnum`` keeps a closed set of values (a ``StrEnum``) as its plain text, so the
column is an ordinary ``VARCHAR`` and rows written before it are read unchanged.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import DateTime, String
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    """The current instant, aware, in UTC (microseconds dropped for portable round trips)."""
    return datetime.now(UTC).replace(microsecond=0)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always aware UTC in Python."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Normalise to UTC; naive values are refused, they are a bug at the call site."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        """Attach UTC to what SQLite returns naive."""
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise TypeError(f"expected a datetime from the database, got {value!r}")
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


E = TypeVar("E", bound=StrEnum)


class StoredEnum(TypeDecorator[E]):
    """A ``StrEnum`` member in Python, its value as text in the database."""

    impl = String
    cache_ok = True

    def __init__(self, values: type[E], length: int) -> None:
        super().__init__(length)
        self.values = values

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        """Store the member's text; a string that names no member is refused."""
        return None if value is None else self.values(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        """The member named by the stored text."""
        return None if value is None else self.values(value)
