"""The JSON form of a match record, for the web API and for storing uploads.

Schema ``tourney.match-record``, version 1 (``SCHEMA_VERSION``); all points in each
mover's own numbering (25 the bar, 0 off)::

    {
      "schema": "tourney.match-record", "version": 1,
      "match_length": int | null,            # 0 = money session; null = no match line
      "length_line": int | null,             # the line of "N point match"
      "players": [str, str] | null,          # in the order the file names them
      "tags": [[name, value], ...],          # header tags, unknown ones included
      "comments": [str, ...],                # other header comment lines
      "encoding": "utf-8" | "latin-1", "bom": bool, "crlf": bool,
      "problems": [finding, ...], "warnings": [finding, ...],   # what the reader found
      "variant": str,                        # optional: a registered variant name
                                             # (default: the Variation tag, else
                                             # standard)
      "match_form": str,                     # optional: a registered match form (tavli:
                                             # each game in its turn's variant)
      "games": [{
        "number": int, "line": int,
        "score": [int, int] | null, "score_line": int | null, "names": [str, str] | null,
        "actions": [{
          "line": int,
          "kind": "roll" | "double" | "take" | "drop" | "beaver" | "raccoon"
                  | "win" | "resign" | "loss" | "comment",
          "side": "X" | "O" | null,          # X = first-named player, null for comments
          "text": str,                       # as written
          "dice": [int, int],                # rolls only
          "form": "moved" | "dance" | "unknown" | "unreadable",   # rolls only
          "play": [[from, to, hit], ...],    # readable plays only, one entry per link
          "value": int,                      # cube value, or N of "Wins N points"
          "and_the_match": true              # only when written
        }, ...]
      }, ...]
    }

where a finding is ``{"game": int | null, "line": int | null, "message": str, "kind": str}``.

``parse_json`` is how every JSON that reaches us from outside is read (match records,
API bodies, event files): bounded in depth, and without the NUL character that
PostgreSQL cannot store.
"""

from __future__ import annotations

import json
from typing import Any

from tourney.rules.board import Side
from tourney.rules.errors import NotationError
from tourney.rules.messages import Message
from tourney.rules.moves import Move, Play
from tourney.rules.records.model import (
    Action,
    ActionKind,
    ErrorKind,
    GameRecord,
    MatchRecord,
    PlayForm,
    RecordError,
)

SCHEMA = "tourney.match-record"
SCHEMA_VERSION = 1
MAX_JSON_DEPTH = 64
"""Arrays and objects nest at most this deep in any JSON we read (a record needs 6)."""


class JsonBoundsError(ValueError):
    """JSON that parses, or would, but goes past what we read: too deep, or a NUL."""


def parse_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse untrusted JSON: nested at most ``max_depth`` levels, no NUL in any text.

    >>> parse_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> parse_json("[" * 65 + "]" * 65)
    Traceback (most recent call last):
        ...
    tourney.rules.records.json_form.JsonBoundsError: it nests deeper than 64 levels

    Raises:
        JsonBoundsError: nested deeper than ``max_depth``, or a NUL character in a key
            or a text.
        ValueError: not JSON (the parser's message).
    """
    too_deep = f"it nests deeper than {max_depth} levels"
    try:
        document = json.loads(text)
    except RecursionError:
        # Python's parser gives up near the interpreter's recursion limit (about a
        # thousand levels), at once: far deeper than max_depth anyway.
        raise JsonBoundsError(too_deep) from None
    # Walked with a stack, not by recursion, so any depth the parser took is safe here.
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise JsonBoundsError("its text holds a NUL character")
        elif isinstance(value, dict | list):
            if depth > max_depth:
                raise JsonBoundsError(too_deep)
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                pending += ((key, depth), (item, depth + 1))
    return document


def _finding(error: RecordError) -> dict[str, Any]:
    return {**error.to_json(), "kind": error.kind.value}


def _action_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {
        "line": action.line,
        "kind": action.kind.value,
        "side": None if action.side is None else action.side.name,
        "text": action.text,
    }
    if action.dice is not None:
        out["dice"] = list(action.dice)
    if action.form is not None:
        out["form"] = action.form.value
    if action.play is not None:
        out["play"] = [[m.origin, m.destination, m.hit] for m in action.play.moves]
    if action.value is not None:
        out["value"] = action.value
    if action.and_the_match:
        out["and_the_match"] = True
    return out


def record_to_json(record: MatchRecord) -> dict[str, Any]:
    """The record as a JSON-ready dict (schema in the module docstring).

    >>> from tourney.rules.records.mat import read_mat
    >>> record_to_json(read_mat(" 3 point match\\n"))["version"]
    1
    """
    return {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "match_length": record.match_length,
        "length_line": record.length_line,
        "players": None if record.players is None else list(record.players),
        "tags": [list(tag) for tag in record.tags],
        "comments": list(record.comments),
        "encoding": record.encoding,
        "bom": record.bom,
        "crlf": record.crlf,
        "problems": [_finding(error) for error in record.problems],
        "warnings": [_finding(error) for error in record.warnings],
        **({} if record.variant is None else {"variant": record.variant}),
        **({} if record.match_form is None else {"match_form": record.match_form}),
        "games": [
            {
                "number": game.number,
                "line": game.line,
                "score": None if game.score is None else list(game.score),
                "score_line": game.score_line,
                "names": None if game.names is None else list(game.names),
                "actions": [_action_json(action) for action in game.actions],
            }
            for game in record.games
        ],
    }


def _pair(value: Any, kind: type) -> Any:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(
        isinstance(item, kind) for item in value
    ):
        raise NotationError(Message(
            "expected a pair of %(name__)s, got %(value)s",
            name__=kind.__name__, value=repr(value),
        ))
    return (value[0], value[1])


def _read_finding(data: dict[str, Any]) -> RecordError:
    return RecordError(data.get("game"), data.get("line"), str(data["message"]),
                       ErrorKind(data.get("kind", "note")))


def _read_action(data: dict[str, Any]) -> Action:
    side = data.get("side")
    play = data.get("play")
    return Action(
        line=int(data["line"]),
        kind=ActionKind(data["kind"]),
        side=None if side is None else Side[side],
        text=str(data.get("text", "")),
        dice=_pair(data.get("dice"), int),
        form=None if data.get("form") is None else PlayForm(data["form"]),
        play=None if play is None else Play(
            tuple(Move(int(a), int(b), bool(hit)) for a, b, hit in play)
        ),
        value=data.get("value"),
        and_the_match=bool(data.get("and_the_match", False)),
    )


def record_from_json(data: dict[str, Any]) -> MatchRecord:
    """Rebuild a record from its JSON form.

    Raises:
        NotationError: the data is not a version-1 match record.
    """
    if data.get("schema") != SCHEMA or data.get("version") != SCHEMA_VERSION:
        raise NotationError(
            Message(
                "not a %(SCHEMA)s version %(SCHEMA_VERSION)s document (schema %(get)s, version "
                "%(get2)s)",
                SCHEMA=SCHEMA, SCHEMA_VERSION=SCHEMA_VERSION, get=repr(data.get('schema')),
                get2=repr(data.get('version')),
            )
        )
    try:
        games = tuple(
            GameRecord(
                number=int(game["number"]),
                line=int(game["line"]),
                score=_pair(game.get("score"), int),
                score_line=game.get("score_line"),
                names=_pair(game.get("names"), str),
                actions=tuple(_read_action(action) for action in game["actions"]),
            )
            for game in data["games"]
        )
        return MatchRecord(
            match_length=data["match_length"],
            length_line=data.get("length_line"),
            players=_pair(data.get("players"), str),
            games=games,
            tags=tuple((str(k), str(v)) for k, v in data.get("tags", [])),
            comments=tuple(str(c) for c in data.get("comments", [])),
            encoding=str(data.get("encoding", "utf-8")),
            bom=bool(data.get("bom", False)),
            crlf=bool(data.get("crlf", False)),
            problems=tuple(_read_finding(f) for f in data.get("problems", [])),
            warnings=tuple(_read_finding(f) for f in data.get("warnings", [])),
            variant=None if data.get("variant") is None else str(data["variant"]),
            match_form=None if data.get("match_form") is None else str(data["match_form"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, NotationError):
            raise
        raise NotationError(
            Message("malformed match record JSON: %(error)s", error=error)
        ) from error
