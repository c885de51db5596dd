"""Jinja filters for display: dates, ratings, cube values, status labels."""

from __future__ import annotations

from datetime import date, datetime

from flask import Flask

STATUS_LABELS = {
    "draft": "Draft",
    "open": "Open",
    "running": "Running",
    "finished": "Finished",
    "setup": "Not drawn",
    "drawn": "Drawn",
    "active": "Active",
    "withdrawn": "Withdrawn",
    "eliminated": "Eliminated",
}


def format_date(value: date | datetime | None) -> str:
    """``2025-03-06`` as ``Thu 6 Mar 2025``; empty for none."""
    if value is None:
        return ""
    return f"{value:%a} {value.day} {value:%b %Y}"


def format_datetime(value: datetime | None) -> str:
    """A UTC timestamp as ``2025-03-06 19:04 UTC``."""
    if value is None:
        return ""
    return f"{value:%Y-%m-%d %H:%M} UTC"


def format_rating(value: float | None) -> str:
    """A rating with one decimal; an en dash for none."""
    return "–" if value is None else f"{value:.1f}"


def format_cube(exponent: int | None) -> str:
    """A cube exponent as its value: 3 -> ``8``; none -> ``no limit``."""
    return "no limit" if exponent is None else str(2**exponent)


def format_status(value: str) -> str:
    """A stored status as a label."""
    return STATUS_LABELS.get(value, value.replace("_", " ").capitalize())


def init_app(app: Flask) -> None:
    """Register the filters on ``app``."""
    app.add_template_filter(format_date, "date")
    app.add_template_filter(format_datetime, "datetime")
    app.add_template_filter(format_rating, "rating")
    app.add_template_filter(format_cube, "cube")
    app.add_template_filter(format_status, "status")
