"""Match records: reading ``.mat`` files, replaying them under the rules, writing them back.

``read_mat`` turns a file's bytes into a ``MatchRecord``; ``replay`` checks it and
returns a ``RecordReport`` with every error (``RecordError(game, line, message)``) and
the results it derives; ``validate_mat`` does both, through a compiled replay
(``compiled``) for clean records where it is built. ``format_mat`` writes a record the
way gnubg exports it, and ``record_to_json``/``record_from_json`` give its JSON form.
"""

from tourney.rules.messages import Message
from tourney.rules.records.compiled import replay_compiled
from tourney.rules.records.json_form import (
    SCHEMA_VERSION,
    JsonBoundsError,
    parse_json,
    record_from_json,
    record_to_json,
)
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


def validate_record(
    name: str,
    data: bytes,
    *,
    rules: MatchRules | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    size: int | None = None,
) -> RecordReport:
    """Read and replay one uploaded file: a JSON match record when ``name`` ends in
    ``.json`` (long nardy's records are JSON), else a ``.mat`` file. Never raises on bad
    input: what cannot be read is the report's error. ``size`` is the file's full size
where ``data`` holds only its first ``max_bytes + 1`` bytes.

    >>> validate_record("match.json", b"[1]").errors[0].message
    'not a JSON match record: a JSON match record is an object'
    """
    if not name.lower().endswith(".json"):
        return validate_mat(data, rules=rules, max_bytes=max_bytes, size=size)
    try:
        total = max(size or 0, len(data))
        if total > max_bytes:
            raise ValueError(f"the file is {total} bytes, more than the limit of {max_bytes}")
        document = parse_json(data.decode("utf-8-sig"))
        if not isinstance(document, dict):
            raise ValueError("a JSON match record is an object")
        record = record_from_json(document)
    except (ValueError, UnicodeDecodeError) as error:
        kind = ErrorKind.BOUNDS if isinstance(error, JsonBoundsError) else ErrorKind.UNREADABLE
        problem = RecordError(None, None, Message(
            "not a JSON match record: %(error)s",
            error=error,
        ), kind)
        return replay(MatchRecord(None, None, problems=(problem,)), rules)
    return replay(record, rules)


def validate_mat(
    data: bytes | str,
    *,
    rules: MatchRules | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    size: int | None = None,
) -> RecordReport:
    """Read and replay a ``.mat`` file's contents; never raises on bad input.

    A clean record goes through the compiled replay when it is built; anything else,
    or every record where it is not, through the Python reader and replay. Both give
    the same report.

    >>> validate_mat(b"garbage").errors[0].message
    "not a match record: no 'N point match' line"
    """
    report = replay_compiled(data, rules, max_bytes, size)
    if report is not None:
        return report
    return replay(read_mat(data, max_bytes=max_bytes, size=size), rules)


__all__ = [
    "DEFAULT_MAX_BYTES",
    "SCHEMA_VERSION",
    "Action",
    "ActionKind",
    "ErrorKind",
    "GameRecord",
    "GameResult",
    "JsonBoundsError",
    "MatchRecord",
    "MatchRules",
    "PlayForm",
    "RecordError",
    "RecordReport",
    "decode_mat",
    "format_mat",
    "parse_json",
    "read_mat",
    "record_from_json",
    "record_to_json",
    "replay",
    "validate_mat",
    "validate_record",
]
