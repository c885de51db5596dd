"""Small records written by hand in each producer's style, each with its verdict."""

from __future__ import annotations

from tourney.rules import Move, Side
from tourney.rules.records import ActionKind, ErrorKind, PlayForm, read_mat, validate_mat

XG_BOM_CRLF = "\r\n".join([
    '\ufeff; [Site "Online"]',
    '; [Player 1 "Kévin Unger"]',
    '; [Player 2 "Bob"]',
    '; [Crawford "On"]',
    '; [MyOwnTag "kept"]',
    "",
    "2 point match",
    "",
    "Game 1",
    "Kévin Unger : 0                   Bob : 0",
    "  1) 31: 8/5 6/5                    64: 24/14",
    "  2) 62: 13/11* 24/18               52: bar/23 13/8",
    "  3)  Doubles => 2                   Takes",
    "  4) 33: ???",
    "                                    Wins 2 point and the match",
    "",
])

STUDIO_MONEY = "\n".join([
    '; [Site "Backgammon Studio"]',
    "",
    "0 point match",
    "",
    "Game 1",
    "Alice : 0                          Bob : 0",
    "  1)                                64: 24/18 13/9",
    "  2) 63: 13/7*/4                    21: bar/23 9/8",
    "; connection lost and restored",
    "  3) 11: 8/7(2) 6/5(2)              43: Cannot Move",
    "      Wins 1 point",
    "",
])


def test_xg_record_with_bom_crlf_bar_and_question_marks_is_valid() -> None:
    data = XG_BOM_CRLF.encode("utf-8")

    report = validate_mat(data)

    assert report.errors == ()
    assert report.record.bom and report.record.crlf
    assert report.record.encoding == "utf-8"
    assert report.players == ("Kévin Unger", "Bob")
    assert report.record.tag("MyOwnTag") == "kept"
    assert report.final_score == (0, 2)
    assert report.winner_name == "Bob"
    assert report.games[0].cube == 2


def test_xg_record_reads_question_marks_as_roll_then_resign() -> None:
    record = read_mat(XG_BOM_CRLF.encode("utf-8"))

    rolls = [a for a in record.games[0].actions if a.kind is ActionKind.ROLL]

    assert rolls[-1].form is PlayForm.UNKNOWN
    assert rolls[-1].side is Side.X
    assert rolls[1].play is not None and rolls[1].play.moves == (Move(24, 14),)


def test_studio_chain_multiplier_and_comment_read_as_moves() -> None:
    record = read_mat(STUDIO_MONEY)

    actions = record.games[0].actions

    assert record.match_length == 0
    assert actions[1].play is not None
    assert actions[1].play.moves == (Move(13, 7, hit=True), Move(7, 4))
    assert actions[3].kind is ActionKind.COMMENT
    assert actions[4].play is not None
    assert actions[4].play.moves == (Move(8, 7), Move(8, 7), Move(6, 5), Move(6, 5))
    assert actions[5].form is PlayForm.DANCE


def test_studio_cannot_move_when_a_move_exists_is_a_false_dance() -> None:
    report = validate_mat(STUDIO_MONEY)

    assert [(e.game, e.line, e.kind) for e in report.errors] == [(1, 10, ErrorKind.FALSE_DANCE)]
    assert [w.line for w in report.warnings] == [9]
    assert report.final_score == (1, 0)
    assert report.winner is None


def test_bearing_off_from_the_start_is_illegal() -> None:
    text = " 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 65: 6/off 13/8\n"

    report = validate_mat(text)

    assert [(e.game, e.line, e.kind) for e in report.errors] == [(1, 5, ErrorKind.ILLEGAL_PLAY)]
    assert "outside the home board" in report.errors[0].message


def test_galaxy_losses_line_is_a_warning_and_the_match_is_won() -> None:
    text = "\n".join([
        '; [Site "Backgammon Galaxy"]', '; [Player 1 Elo "0,00/0"]', "", "1 point match", "",
        "Game 1", "Ann : 0                           Ben : 0",
        "  1) 31: 8/5 6/5                    64: 24/18 18/14",
        "      Losses 1 point                Wins 1 point and the match", "",
    ])

    report = validate_mat(text)

    assert report.errors == ()
    assert report.final_score == (0, 1)
    assert report.winner_name == "Ben"
    assert [w.line for w in report.warnings] == [9]


def test_gammonview_column_49_low_high_dice_numbered_wins() -> None:
    text = "\n".join([
        "7 point match", "", "Game 1",
        "Ann: 0                                          Ben: 0",
        "  1) 13: 8/5 6/5                                46: 24/14",
        "  2) Wins 1 point", "",
    ])

    report = validate_mat(text)

    assert report.errors == ()
    assert report.games[0].winner is Side.X
    assert report.final_score == (1, 0)
    assert [w.message for w in report.warnings] == [
        "the match is unfinished: 1-0 in a 7-point match, nobody reached the length"
    ]


def test_dueller_comment_header_is_not_the_match_line() -> None:
    text = "\r\n".join([
        "; GNU Backgammon 0.14.2-devel v BGBlitz version 1.9.0", "; 3-point match", "",
        " 5 point match", "", " Game 1", " gnubg : 0                      bgblitz : 0",
        "  1) 14: 8/4 6/5                  26: 24/18 13/11",
        "                                  Wins 4 points and the match", "",
    ])

    report = validate_mat(text)

    assert report.match_length == 5
    assert report.record.comments == ("GNU Backgammon 0.14.2-devel v BGBlitz version 1.9.0",
                                      "3-point match")
    assert [e.kind for e in report.errors] == [ErrorKind.RESIGNATION]


def test_latin1_file_is_read_and_said_so() -> None:
    text = (" 1 point match\n\n Game 1\n Ren\xe9 : 0    Bob : 0\n  1) 31: 8/5 6/5\n"
            "      Wins 1 point\n")

    report = validate_mat(text.encode("latin-1"))

    assert report.ok
    assert report.record.encoding == "latin-1"
    assert report.players == ("René", "Bob")
    assert [w.message for w in report.warnings] == [
        "the file is not UTF-8; it was read as Latin-1"
    ]


def test_bad_inputs_become_reports() -> None:
    cases = {
        b"": "not a match record: no 'N point match' line",
        b"\x00\x01\x02\xff" * 100: "the file holds binary data, not a match record",
        b" -3 point match\n": "a match length of -3 is impossible",
    }

    messages = {data: validate_mat(data).errors[0].message for data in cases}

    assert messages == cases


def test_size_limit_is_reported() -> None:
    data = b" 1 point match\n" + b" " * (10 * 1024 * 1024)

    report = validate_mat(data)

    assert [e.message for e in report.errors] == [
        "the file is 10,485,775 bytes, over the limit of 5,242,880 bytes; not read"
    ]
    assert validate_mat(data[:100], max_bytes=50).errors[0].kind is ErrorKind.UNREADABLE


def test_truncated_game_in_the_middle_is_an_error() -> None:
    text = (" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 8/5 6/5\n"
            " Game 2\n A : 0    B : 0\n  1) 31: 8/5 6/5\n")

    report = validate_mat(text)

    assert [(e.game, e.kind) for e in report.errors] == [(1, ErrorKind.UNFINISHED)]


STUDIO_NUMBERED_AFTER_RESULT = "\n".join([
    '; [Site "Backgammon Studio"]',
    "",
    "3 point match",
    "",
    " Game 1",
    " Anna : 0                       Boris : 0",
    "  1) 31: 8/5 6/5                42: 8/4 6/4",
    "  2)  Doubles => 2               Drops",
    "      Wins 1 point",
    "  3)",
    "",
    " Game 2",
    " Anna : 1                       Boris : 0",
    "  1) 31: 8/5 6/5                42: 8/4 6/4",
    "  2)  Doubles => 2               Drops",
    "      Wins 1 point",
    "  3)  ",
    "",
])


def test_studio_numbered_line_left_empty_after_a_result_is_read_as_nothing() -> None:
    report = validate_mat(STUDIO_NUMBERED_AFTER_RESULT.encode())

    assert [str(e) for e in report.errors] == []
    assert report.final_score == (2, 0)
