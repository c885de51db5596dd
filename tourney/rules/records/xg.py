"""eXtreme Gammon's binary ``.xg`` match files: recognised, not yet read.

An ``.xg`` file is a RichGameFormat container: the magic ``RGMH`` in its first four
bytes, an 8,232-byte header, a JPEG thumbnail, then a zlib archive of the match's fixed
size records (eXtreme Gammon's published format description). The match itself is not
read yet: a file with the container's magic gets one clear finding that says how to
export the match as ``.mat`` from eXtreme Gammon instead; any other content is reported
as not an ``.xg`` file. Either way the reader never raises.
"""

from __future__ import annotations

from tourney.rules.records.mat import DEFAULT_MAX_BYTES
from tourney.rules.records.model import ErrorKind, MatchRecord, RecordError

XG_MAGIC = b"RGMH"
"""The first four bytes of every ``.xg`` (and ``.xgp``) file."""
XG_HEADER_BYTES = 8232
"""The size of the RichGameFormat header in front of the thumbnail and the archive."""


def read_xg(
    data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> MatchRecord:
    """Recognise an eXtreme Gammon ``.xg`` file; the finding says what to do with it.

    >>> read_xg(b"hello").problems[0].message
    'not an eXtreme Gammon .xg file: it does not start with RGMH'
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    total = max(size or 0, len(raw))
    if total > max_bytes:
        message = (f"the file is {total:,} bytes, over the limit of {max_bytes:,} bytes; "
                   "not read")
    elif not raw.startswith(XG_MAGIC):
        message = "not an eXtreme Gammon .xg file: it does not start with RGMH"
    elif total < XG_HEADER_BYTES:
        message = (f"a damaged .xg file: {total:,} bytes, shorter than the "
                   f"{XG_HEADER_BYTES:,}-byte header every .xg file starts with")
    else:
        message = ("eXtreme Gammon's binary .xg files are not read yet: in eXtreme Gammon "
                   "export the match as a .mat file (Jellyfish format) and upload that")
    return MatchRecord(None, None,
                       problems=(RecordError(None, None, message, ErrorKind.UNREADABLE),))
