"""Cleaning and checking what people type, shared by the use cases that store it."""

from __future__ import annotations

import re
import unicodedata

EMAIL_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
"""Something before and after one ``@``, and a dot in the domain; no spaces."""


def clean_text(text: str) -> str:
    """Strip and collapse whitespace; drop control characters."""
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in "\t\n")
    return " ".join(text.split())
