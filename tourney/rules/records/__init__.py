"""Match records: reading ``.mat`` files, replaying them under the rules, writing them back.

``read_mat`` turns a file's bytes into a ``MatchRecord``; ``replay`` checks it and
returns a ``RecordReport`` with every error (``RecordError(game, line, message)``) and
the results it derives; ``validate_mat`` does both. ``format_mat`` writes a record the
way gnubg exports it, and ``record_to_json``/``record_from_json`` give its JSON form.
"""

from tourney.rules.records.json_form import SCHEMA_VERSION, record_from_json, record_to_json
from tourney.rules.records.mat import DEFAULT_MAX_BYTES, decode_mat, read_mat
from tourney.rules.records.mat_writer import format_mat
from tourney.rules.records.model import (
    Action,
    ActionKind,
    ErrorKind,
    GameRecord,
    MatchRecord,
    PlayForm,
    RecordError,
)
from tourney.rules.records.replay import GameResult, MatchRules, RecordReport, replay


def validate_mat(
    data: bytes | str,
    *,
    rules: MatchRules | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    size: int | None = None,
) -> RecordReport:
    """Read and replay a ``.mat`` file's contents; never raises on bad input.

    >>> validate_mat(b"garbage").errors[0].message
    "not a match record: no 'N point match' line"
    """
    return replay(read_mat(data, max_bytes=max_bytes, size=size), rules)


__all__ = [
    "DEFAULT_MAX_BYTES",
    "SCHEMA_VERSION",
    "Action",
    "ActionKind",
    "ErrorKind",
    "GameRecord",
    "GameResult",
    "MatchRecord",
    "MatchRules",
    "PlayForm",
    "RecordError",
    "RecordReport",
    "decode_mat",
    "format_mat",
    "read_mat",
    "record_from_json",
    "record_to_json",
    "replay",
    "validate_mat",
]
