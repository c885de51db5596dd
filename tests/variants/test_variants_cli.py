"""The variant options of ``tourney rules`` and ``tourney validate``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tourney.cli import cli

NACK = Path(__file__).resolve().parent.parent / "data" / "variants" / "nackgammon"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_long_nardy_legal_from_the_start_with_six_five() -> None:
    # One checker 24/18/13 (hand-worked); the output is the position turned round, as
    # for backgammon: the opponent on roll with its 15 on its head. Bits by hand: X (not
    # on roll) 12 zeros, 1 on 13, 11 zeros, 14 ones on 24, 0, bar 0; O 23 zeros, 15 ones,
    # 0, 0 -> bytes 00 10 00 ff 3f 00 00 80 ff 3f.
    code, out, _ = run("rules", "legal", "--variant", "long-nardy", "AACA/z8AAID/Pw", "65")

    assert code == 0
    assert out.splitlines() == ["ABAA/z8AAID/Pw"]


def test_long_nardy_show_draws_the_heads() -> None:
    code, out, _ = run("rules", "show", "--variant", "long", "AACA/z8AAID/Pw")

    assert code == 0
    assert out.splitlines()[0] == " Long nardy position ID: AACA/z8AAID/Pw"


def test_long_nardy_rejects_a_backgammon_id() -> None:
    # A backgammon position with a checker on the bar: long nardy has no bar.
    code, _, err = run("rules", "legal", "--variant", "long-nardy", "4P8PAADg/wcAQA", "31")

    assert code == 2
    assert "which long nardy does not have" in err


def test_nackgammon_legal_from_the_start() -> None:
    # Nackgammon start 24:2 23:2 13:4 8:3 6:4, whose ID gnubg shows as 4Dl4ADbgOXgANg
    # (`set variation nackgammon`, `new game`). 6-6: the checkers on 24 and 23 are both
    # blocked (18 and 17 are the opponent's 7 and 8... its 8 point holds 3) - worked out:
    # 24/18 lands on the opponent's 7: open; the play results are distinct lines.
    code, out, _ = run("rules", "legal", "--variant", "nackgammon", "4Dl4ADbgOXgANg", "21")

    assert code == 0
    assert len(out.splitlines()) == len(set(out.splitlines())) > 5


def test_validate_reads_the_variation_header() -> None:
    path = sorted(NACK.glob("*.mat"))[0]

    code, out, _ = run("validate", "--json", str(path))

    assert code == 0
    assert json.loads(out)["ok"] is True


def test_validate_unknown_variant_is_a_usage_error() -> None:
    path = sorted(NACK.glob("*.mat"))[0]

    code, _, err = run("validate", "--variant", "chess", str(path))

    assert code == 2
    assert "unknown variant" in err


def test_validate_reads_a_long_nardy_json_record(tmp_path: Path) -> None:
    # Two plays worked by hand: X opens 6-5 24/18/13; O 6-6 on its first roll: 24/18(2).
    record = {
        "schema": "tourney.match-record", "version": 1, "match_length": 1,
        "players": ["X", "O"], "variant": "long-nardy",
        "games": [{"number": 1, "line": 1, "actions": [
            {"line": 2, "kind": "roll", "side": "X", "dice": [6, 5], "form": "moved",
             "play": [[24, 18, False], [18, 13, False]]},
            {"line": 3, "kind": "roll", "side": "O", "dice": [6, 6], "form": "moved",
             "play": [[24, 18, False], [24, 18, False], [24, 18, False]]},
        ]}],
    }
    path = tmp_path / "nardy.json"
    path.write_text(json.dumps(record))

    code, out, _ = run("validate", "--json", str(path))

    report = json.loads(out)
    assert code == 1
    assert report["errors"][0]["line"] == 3
    assert "24/18: only two checkers may leave the head on this first roll" in \
        report["errors"][0]["message"]
