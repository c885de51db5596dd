"""Every error a director or player can be shown is a translatable message.

The store and the formats raise their user errors with a :class:`Message` (or a
``PluralMessage``) so the page, the API and the e-mail can show it in the reader's
language. A bare string or f-string handed to a user error would reach a German, Russian,
Greek or Turkish page in English: this scan of the source finds any such ``raise``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCANNED = ("tourney/store", "tourney/formats", "tourney/match.py")
# The error classes whose message is shown to the person who caused it.
USER_ERRORS = {
    "StoreUserError", "NotFoundError", "AccessDeniedError", "ConflictError",
    "CascadeRequiredError", "EventImportError", "LoginThrottledError", "PlayerImportError",
    "RatingsInputError", "RulesChangeNeedsConfirmation", "VariantOptionsError", "WorkbookError",
    "FormatUserError", "MatchEntryError",
}
# Internal checks (schema migrations, start-up configuration) that no director or player
# can trigger from a page, an upload or the command line of an event.
NOT_SHOWN_TO_USERS = {"tourney/store/migrations"}


def _raised_texts(path: Path) -> list[tuple[int, str, str]]:
    """(line, error class, English text) of every user error raised with a plain string."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        called = node.exc.func
        name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
        if name not in USER_ERRORS or not node.exc.args:
            continue
        first = node.exc.args[0]
        if isinstance(first, ast.JoinedStr) or (
            isinstance(first, ast.Constant) and isinstance(first.value, str)
        ):
            found.append((node.lineno, name, ast.unparse(first)[:80]))
    return found


def _sources() -> list[Path]:
    files: list[Path] = []
    for folder in SCANNED:
        root = REPO / folder
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            relative = path.relative_to(REPO).as_posix()
            if not any(relative.startswith(skip) for skip in NOT_SHOWN_TO_USERS):
                files.append(path)
    return files


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_user_errors_are_raised_as_translatable_messages(path: Path) -> None:
    untranslatable = _raised_texts(path)
    assert not untranslatable, "\n".join(
        f"{path.relative_to(REPO)}:{line}: {name}({text}) is shown in English only; "
        "raise it with Message(...)"
        for line, name, text in untranslatable
    )


def test_the_scan_finds_a_plain_string_error(tmp_path: Path) -> None:
    """The scan itself: a plain and an f-string error are found, a Message is not."""
    source = tmp_path / "sample.py"
    source.write_text(
        "def f(name):\n"
        "    if name:\n"
        "        raise StoreUserError(f'{name} is taken')\n"
        "    if not name:\n"
        "        raise NotFoundError('No such flight.')\n"
        "    raise StoreUserError(Message('%(name)s is taken', name=name))\n",
        encoding="utf-8",
    )
    assert [line for line, _, _ in _raised_texts(source)] == [3, 5]
