"""Loading GNU Backgammon's evaluator (the optional ``gnubg`` package).

The package is GPL-licensed, so it is an optional extra (``tourney[analysis]``): the
rest of tourney works without it, and everything that needs it asks ``load_gnubg``,
which raises ``AnalysisUnavailable`` with one sentence a person can act on.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Any, TypeVar

NOT_INSTALLED = (
    "analysis is not installed: install tourney with the 'analysis' extra "
    "(pip install 'tourney[analysis]') to analyse records and show winning chances"
)


class AnalysisUnavailable(RuntimeError):
    """The evaluator cannot be loaded, so nothing can be analysed."""


_loaded: dict[str, ModuleType] = {}

_ENGINE_THREAD = "gnubg-engine"
# gnubg's evaluator keeps per-thread state set up where it was imported: every use of
# it (the import included) runs on this one thread, whichever thread asks.
_engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix=_ENGINE_THREAD)

T = TypeVar("T")


def in_engine_thread(function: Callable[..., T], *args: Any) -> T:
    """Run ``function(*args)`` on the evaluator's thread and return what it returns."""
    if threading.current_thread().name.startswith(_ENGINE_THREAD):
        return function(*args)
    return _engine.submit(function, *args).result()


def load_gnubg() -> Any:
    """The ``gnubg`` module, imported once (on the evaluator's thread).

    Raises:
        AnalysisUnavailable: the package is not installed or does not load.
    """
    if "gnubg" not in _loaded:
        try:
            _loaded["gnubg"] = in_engine_thread(importlib.import_module, "gnubg")
        except ImportError as error:
            raise AnalysisUnavailable(NOT_INSTALLED) from error
    return _loaded["gnubg"]


def is_available() -> bool:
    """Whether the evaluator loads."""
    try:
        load_gnubg()
    except AnalysisUnavailable:
        return False
    return True


_LIBC = ctypes.CDLL(None)

_SETTINGS = (
    # One thread: the module's own worker threads are not started, so commands that
    # evaluate would wait for them for ever.
    "set threads 1",
    "set output mwc off",
    "new match 1",
    "set player 0 human",
    "set player 1 human",
)


def run_commands(gnubg: Any, commands: list[str]) -> str:
    """Run gnubg commands and return what they print.

    gnubg prints straight to the process's standard output (file descriptor 1), so it is
    pointed at a temporary file for the while. Only the evaluation fallback of the
    analysis needs this.
    """
    if "settings" not in _loaded:
        _loaded["settings"] = gnubg
        _capture(gnubg, list(_SETTINGS))
    return _capture(gnubg, commands)


CACHE_ENTRIES = 65536
"""gnubg's evaluation cache for an analysis: its default (524288 entries, about 30 MB)
is mostly untouched by one match, and the second process of an analysis copies every
page of it that either process writes to; a match fits in this one, and its figures are
the same."""


def size_cache(gnubg: Any) -> None:
    """Give gnubg's evaluation cache ``CACHE_ENTRIES`` entries (once a process)."""
    if "cache" not in _loaded:
        _loaded["cache"] = gnubg
        _capture(gnubg, [f"set cache {CACHE_ENTRIES}"])


def _capture(gnubg: Any, commands: list[str]) -> str:
    with tempfile.TemporaryFile() as out:
        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(out.fileno(), 1)
        try:
            for command in commands:
                gnubg.command(command)
        finally:
            sys.stdout.flush()
            # gnubg writes through C's buffered stdout: flush it into the file now.
            _LIBC.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode("utf-8", "replace")
