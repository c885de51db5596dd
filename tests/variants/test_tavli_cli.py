"""``tourney rules`` for the Tavli variants: ``start`` as POSITION, the board diagram, and
the JSON position form (DESIGN.md section 6)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tourney.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def side(points: dict[str, int], off: int = 0) -> dict[str, object]:
    return {"bar": 0, "off": off, "points": points, "pool": 0}


def test_fevga_start_three_one_moves_one_checker_as_json() -> None:
    # One checker 24/21/20 (24/23 24/21 would move a second checker off the 24).
    code, out, _ = run("rules", "legal", "--variant", "fevga", "--json", "start", "31")

    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [{
        "on_roll": "o",
        "x": side({"20": 1, "24": 14}), "o": side({"24": 15}),
        "pins": {"x": [], "o": []}, "turns_played": {"x": 1, "o": 0},
    }]


def test_plakoto_start_three_one_gives_two_plays() -> None:
    # 24/21 24/23 and 24/21/20: the opponent's stack on our 1 is never reached.
    code, out, _ = run("rules", "legal", "--variant", "plakoto", "start", "31")

    assert code == 0
    assert len(out.splitlines()) == 2


def test_portes_start_three_one_gives_backgammons_sixteen_plays() -> None:
    code, out, _ = run("rules", "legal", "--variant", "portes", "start", "31")
    _, standard, _ = run("rules", "legal", "--variant", "standard", "start", "31")

    assert code == 0
    assert len(out.splitlines()) == 16
    assert out == standard


def test_plakoto_show_start_draws_both_stacks() -> None:
    code, out, _ = run("rules", "show", "--variant", "plakoto", "start")

    lines = out.splitlines()
    assert code == 0
    assert lines[0] == " Position ID: AACA/z8AAID/Pw"
    assert lines[2].split()[-1] == "X15"  # A24, top right
    assert lines[3].split()[-1] == "O15"  # A1, bottom right: the opponent's 24


def test_plakoto_json_names_the_pins_after_the_play(tmp_path: Path) -> None:
    # E-PLK-1 with O on roll: O {24:10, 10:1, 6:4}; X {24:14, 18:1} (X's 18 is O's 7).
    # 3-1 plays that leave a pin: 10/7* 24/23 and 10/7* 6/5 (10/7*/6 leaves again).
    document = {"on_roll": "o", "o": side({"24": 10, "10": 1, "6": 4}),
                "x": side({"24": 14, "18": 1}), "turns_played": {"x": 4, "o": 3}}
    path = tmp_path / "pin.json"
    path.write_text(json.dumps(document))

    code, out, _ = run("rules", "legal", "--variant", "plakoto", "--json", f"@{path}", "31")

    read = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r["o"]["points"] for r in read if r["pins"]["x"] == [18]] == [
        {"24": 9, "23": 1, "7": 1, "6": 4}, {"24": 10, "7": 1, "6": 3, "5": 1}]
    assert {(r["on_roll"], r["turns_played"]["o"], r["turns_played"]["x"]) for r in read} == {
        ("x", 4, 4)}


def test_malformed_json_is_a_usage_error() -> None:
    code, out, err = run("rules", "legal", "--variant", "plakoto", "--json", "{on_roll", "31")

    assert (code, out, len(err.splitlines())) == (2, "", 1)
    assert err.startswith("tourney: the position is not JSON")


def test_both_sides_on_one_point_without_a_pin_is_refused() -> None:
    # Fevga: O's 12 is X's 24, where X's fifteen stand.
    document = {"on_roll": "x", "x": side({"24": 15}), "o": side({"12": 15})}

    code, _, err = run("rules", "legal", "--variant", "fevga", "--json", json.dumps(document),
                       "31")

    assert code == 2
    assert err == ("tourney: both sides have checkers on the 24 point of the side on roll, "
                   "and neither is pinned\n")
