"""Match records: reading ``.mat`` files, replaying them under the rules, writing them back.

``read_mat`` turns a file's bytes into a ``MatchRecord``; ``replay`` checks it and
returns a ``RecordReport`` with every error (``RecordError(game, line, message)``) and
the results it derives; ``validate_mat`` does both, through a compiled replay
(``compiled``) for clean records where it is built. ``format_mat`` writes a record the
way gnubg exports it, and ``record_to_json``/``record_from_json`` give its JSON form.
``read_sgf``/``format_sgf`` do the same for gnubg's ``.sgf`` files and ``read_xg`` reads
eXtreme Gammon's binary ``.xg`` (its findings located by move, as it has no lines);
``validate_record`` picks the reader by file name.
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
from tourney.rules.records.mat_writer import format_mat, format_mat_results
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
from tourney.rules.records.sgf import read_sgf
from tourney.rules.records.sgf_writer import format_sgf, format_sgf_results
from tourney.rules.records.summary import GameSummary, MatchHeader
from tourney.rules.records.writers import RECORD_WRITERS, RecordWriter
from tourney.rules.records.xg import locate_by_move, read_xg

RECORD_SUFFIXES = (".mat", ".txt", ".sgf", ".xg", ".json")
"""The file name endings ``validate_record`` reads; any other name is read as ``.mat``."""


def validate_record(
    name: str,
    data: bytes,
    *,
    rules: MatchRules | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    size: int | None = None,
) -> RecordReport:
    """Read and replay one uploaded file, by the ending of ``name``: ``.sgf`` (gnubg),
    ``.xg`` (eXtreme Gammon), ``.json`` (our JSON form; long nardy's records are JSON),
    else a ``.mat`` file (``.mat``, ``.txt`` or any other name). Never raises on bad
    input: what cannot be read is the report's error. ``size`` is the file's full size
    where ``data`` holds only its first ``max_bytes + 1`` bytes.

    >>> str(validate_record("match.json", b"[1]").errors[0].message)
    'not a JSON match record: a JSON match record is an object'
    >>> validate_record("match.sgf", b"(;GM[1])").errors[0].message
    'game tree 1 is not backgammon: GM[1] where gnubg writes GM[6]'
    """
    if not name.lower().endswith((".sgf", ".xg", ".json")):
        return validate_mat(data, rules=rules, max_bytes=max_bytes, size=size)
    report = replay(read_record(name, data, max_bytes=max_bytes, size=size), rules)
    return locate_by_move(report) if name.lower().endswith(".xg") else report


def read_record(
    name: str, data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> MatchRecord:
    """Read one file into a ``MatchRecord`` by the ending of ``name`` (see
    ``validate_record``), without replaying it. Never raises on bad input.

    >>> read_record("m.sgf", "(;GM[6]MI[length:1]PW[A]PB[B])").players
    ('A', 'B')
    """
    lowered = name.lower()
    if lowered.endswith(".sgf"):
        return read_sgf(data, max_bytes=max_bytes, size=size)
    if lowered.endswith(".xg"):
        return read_xg(data, max_bytes=max_bytes, size=size)
    if not lowered.endswith(".json"):
        return read_mat(data, max_bytes=max_bytes, size=size)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        total = max(size or 0, len(raw))
        if total > max_bytes:
            raise ValueError(f"the file is {total} bytes, more than the limit of {max_bytes}")
        document = parse_json(raw.decode("utf-8-sig"))
        if not isinstance(document, dict):
            raise ValueError("a JSON match record is an object")
        return record_from_json(document)
    except (ValueError, UnicodeDecodeError) as error:
        kind = ErrorKind.BOUNDS if isinstance(error, JsonBoundsError) else ErrorKind.UNREADABLE
        problem = RecordError(None, None, Message(
            "not a JSON match record: %(error)s",
            error=str(error),
        ), kind)
        return MatchRecord(None, None, problems=(problem,))


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

    >>> str(validate_mat(b"garbage").errors[0].message)
    "not a match record: no 'N point match' line"
    """
    report = replay_compiled(data, rules, max_bytes, size)
    if report is not None:
        return report
    return replay(read_mat(data, max_bytes=max_bytes, size=size), rules)


__all__ = [
    "DEFAULT_MAX_BYTES",
    "RECORD_SUFFIXES",
    "RECORD_WRITERS",
    "SCHEMA_VERSION",
    "Action",
    "ActionKind",
    "ErrorKind",
    "GameRecord",
    "GameResult",
    "GameSummary",
    "JsonBoundsError",
    "MatchHeader",
    "MatchRecord",
    "MatchRules",
    "PlayForm",
    "RecordError",
    "RecordReport",
    "RecordWriter",
    "decode_mat",
    "format_mat",
    "format_mat_results",
    "format_sgf",
    "format_sgf_results",
    "parse_json",
    "read_mat",
    "read_record",
    "read_sgf",
    "read_xg",
    "record_from_json",
    "record_to_json",
    "replay",
    "validate_mat",
    "validate_record",
]
