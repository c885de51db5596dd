"""Only the rules core knows which variants there are: every other module asks the
registry, so a new variant is one definition in ``tourney/rules`` and nothing else.

The check reads the source: outside ``tourney/rules`` no module may name a variant's
class or position type, import long nardy's engine, or spell a registered variant's name
in a string (docstrings excepted: they may explain by example). Templates may not spell
one either. Migrations are history and keep the names they were written with.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tourney.rules.variants import registered_variants

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tourney"
OUTSIDE_RULES = sorted(
    path for path in PACKAGE.rglob("*.py")
    if not path.is_relative_to(PACKAGE / "rules")
    and not path.is_relative_to(PACKAGE / "store" / "migrations")
)
RULES_ONLY_NAMES = {"LongNardy", "NardyPosition", "NardyRules", "NardyMovement",
                    "BackgammonMovement"}
NOT_VARIANTS = {
    ("tourney/config.py", "standard"): "the password hashing profile",
    ("tourney/store/passwords.py", "standard"): "the password hashing profile",
    ("tourney/formats/simulation.py", "standard"): "SimulationOptions' default variant",
    ("tourney/formats/stages.py", "snake"): "pools seeded snake-wise",
    ("tourney/store/tables.py", "snake"): "a flight's pools seeded snake-wise by default",
}
"""Strings equal to a variant's name that mean something else, or lie outside this check's
reach (the formats layer keeps its own default)."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (module, class, function)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            found.add(id(body[0].value))
    return found


def _findings(path: Path, names: set[str]) -> list[str]:
    relative = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name) and node.id in RULES_ONLY_NAMES:
            found.append(f"{relative}:{line}: names {node.id}")
        elif isinstance(node, ast.alias) and node.name in RULES_ONLY_NAMES:
            found.append(f"{relative}:{line}: imports {node.name}")
        elif isinstance(node, ast.ImportFrom) and node.module in (
                "tourney.rules.nardy", "tourney.rules.movement"):
            found.append(f"{relative}:{line}: imports {node.module}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value in names and id(node) not in docstrings \
                and (relative, node.value) not in NOT_VARIANTS:
            found.append(f"{relative}:{line}: spells the variant {node.value!r}")
    return found


def test_no_module_outside_the_rules_core_names_a_variant() -> None:
    names = {variant.name for variant in registered_variants()}

    found = [finding for path in OUTSIDE_RULES for finding in _findings(path, names)]

    assert len(OUTSIDE_RULES) > 40
    assert found == []


def test_no_template_spells_a_variant_name() -> None:
    names = "|".join(re.escape(variant.name) for variant in registered_variants())
    quoted = re.compile(rf"""["'](?:[^"']*\s)?(?:{names})(?:\s[^"']*)?["']""")

    found = [
        f"{path.relative_to(ROOT).as_posix()}:{number}: {line.strip()}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if quoted.search(line)
    ]

    assert found == []
