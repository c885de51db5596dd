"""The event JSON file: an exported event document as UTF-8 JSON text, and back.

The document itself (plain dicts and lists: a format name, a version, the event's rows
table by table) is built and imported by :mod:`tourney.store.event_json`; this module
only writes it out and reads it in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tourney.exports import JSON, Rendered
from tourney.store.errors import EventImportError


def dump_event(document: Mapping[str, Any]) -> bytes:
    """The document as UTF-8 JSON text, indented, ending in a newline."""
    return (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def render_event_json(document: Mapping[str, Any]) -> Rendered:
    """The event JSON file of an exported document, named after the event's slug."""
    # The document names its event by reference: ``events/1`` is the first events row.
    table, _, number = str(document["event"]).partition("/")
    event = document["tables"][table][int(number) - 1]
    return Rendered(dump_event(document), str(event["slug"]), "json", JSON)


def parse_event_json(data: bytes | str) -> dict[str, Any]:
    """The document in ``data`` (bytes or text), not yet checked against the tables.

    Raises:
        EventImportError: not JSON, or not a JSON object.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        document = json.loads(text)
    except UnicodeDecodeError:
        raise EventImportError("The file is not UTF-8 text.") from None
    except ValueError as error:
        raise EventImportError(f"The file is not JSON: {error}.") from None
    if not isinstance(document, dict):
        raise EventImportError("The file is not an event export: expected a JSON object.")
    return document
