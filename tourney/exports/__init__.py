"""Printed and exported documents of an event, and of a player's rating history: PDF, XLSX,
CSV and the event JSON.

Renderers take plain document models (:mod:`tourney.store.documents`, the exported event
JSON document) and return :class:`Rendered` bytes with a filename stem, an extension and
a content type; only the CLI or a view writes them to a file or a response (STYLE
convention 9). Nothing here reads or writes the database.
"""

from __future__ import annotations

from dataclasses import dataclass

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
JSON = "application/json"
ZIP = "application/zip"
"""The content types of the files the exports make."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered document: its bytes and how to name and serve them."""

    content: bytes
    stem: str
    """The filename without extension (``thursday-club-night-drawsheets``)."""
    extension: str
    """Without the dot: ``pdf``, ``xlsx``, ``csv``, ``json``."""
    content_type: str

    @property
    def filename(self) -> str:
        """The stem and the extension."""
        return f"{self.stem}.{self.extension}"
