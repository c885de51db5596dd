"""``tourney ratings compute FILE... [--start 1500] --json`` (DESIGN §9) on results lists
and event exports, and its refusals: one line naming the file, line and field, exit 2."""

from __future__ import annotations

import doctest
import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result
from event_json_builders import exported, play_match, ready_matches
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import tourney.store.rating_sources as rating_sources
from tourney.cli import cli
from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.tables import Entry, FlightEntry, Match, MatchStatus, Player

if TYPE_CHECKING:
    from conftest import BuiltEvent

HEADER = "finished_at,player_a,player_b,match_length,winner\n"
NEWCOMERS_7 = 4 * 5 * math.sqrt(7) * 0.5
"""What a newcomer wins from another newcomer in a 7-point match (K = 5, P = 1/2)."""


def write(path: Path, text: str | bytes) -> str:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return str(path)


def compute(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(cli, ["ratings", "compute", *args])


# --- results lists ------------------------------------------------------------------------


def test_ratings_cli_csv_json_is_the_contract_document(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", HEADER + "2024-03-01T20:15:00,Ann,Ben,7,Ann\n")

    result = compute(runner, path, "--json")

    assert (result.exit_code, result.stderr) == (0, "")
    assert json.loads(result.stdout) == [
        {"player": "Ann", "rating": round(1500 + NEWCOMERS_7, 2), "experience": 7, "matches": 1},
        {"player": "Ben", "rating": round(1500 - NEWCOMERS_7, 2), "experience": 7, "matches": 1},
    ]
    assert result.stdout == (
        '[{"player": "Ann", "rating": 1526.46, "experience": 7, "matches": 1}, '
        '{"player": "Ben", "rating": 1473.54, "experience": 7, "matches": 1}]\n'
    )


def test_ratings_cli_start_option_moves_everyone(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", HEADER + "2024-03-01T20:15:00,Ann,Ben,7,Ben\n")

    result = compute(runner, path, "--start", "1600", "--json")

    assert [(r["player"], r["rating"]) for r in json.loads(result.stdout)] == [
        ("Ben", 1626.46),
        ("Ann", 1573.54),
    ]


def test_ratings_cli_rows_in_any_order_replay_by_time(runner: CliRunner, tmp_path: Path) -> None:
    # The later match comes first in the file; times in two zones and a bare date.
    path = write(
        tmp_path / "club.csv",
        HEADER
        + "2024-03-02T21:00:00+01:00,Ben,Cas,1,Ben\n"
        + "\n"
        + "2024-03-02,Ann,Ben,7,Ann\n",
    )

    result = compute(runner, path, "--json")

    # Ann beat Ben first (both K = 5); then Ben, now the underdog with 7 points of
    # experience, beat the newcomer Cas in a 1-point match.
    ben = 1500 - NEWCOMERS_7
    p = 1 - 1 / (10 ** ((1500 - ben) * 1 / 2000) + 1)
    assert json.loads(result.stdout) == [
        {"player": "Ann", "rating": round(1500 + NEWCOMERS_7, 2), "experience": 7, "matches": 1},
        {"player": "Cas", "rating": round(1500 - 4 * 5 * p, 2), "experience": 1, "matches": 1},
        {"player": "Ben", "rating": round(ben + 4 * 4.93 * p, 2), "experience": 8, "matches": 2},
    ]


def test_ratings_cli_equal_ratings_listed_by_name(runner: CliRunner, tmp_path: Path) -> None:
    path = write(
        tmp_path / "club.csv",
        HEADER + "2024-03-01T20:00,Zed,Yan,3,Zed\n2024-03-01T21:00,Bob,Abe,3,Abe\n",
    )

    result = compute(runner, path, "--json")

    assert [r["player"] for r in json.loads(result.stdout)] == ["Abe", "Zed", "Bob", "Yan"]


def test_ratings_cli_several_files_equal_times_in_file_order(
    runner: CliRunner, tmp_path: Path
) -> None:
    first = write(tmp_path / "a.csv", HEADER + "2024-03-01T20:00,Ann,Ben,7,Ann\n")
    second = write(tmp_path / "b.csv", HEADER + "2024-03-01T20:00,Ben,Cas,3,Ben\n")
    both = write(
        tmp_path / "both.csv",
        HEADER + "2024-03-01T20:00,Ann,Ben,7,Ann\n2024-03-01T20:00,Ben,Cas,3,Ben\n",
    )
    reversed_both = write(
        tmp_path / "reversed.csv",
        HEADER + "2024-03-01T20:00,Ben,Cas,3,Ben\n2024-03-01T20:00,Ann,Ben,7,Ann\n",
    )

    two_files = compute(runner, first, second, "--json").stdout

    assert two_files == compute(runner, both, "--json").stdout
    assert two_files != compute(runner, reversed_both, "--json").stdout


def test_ratings_cli_table_without_json(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", HEADER + "2024-03-01T20:15:00,Ann,Benedikt,7,Ann\n")

    result = compute(runner, path)

    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "rank  player      rating  experience  matches",
        "   1  Ann        1526.46           7        1",
        "   2  Benedikt   1473.54           7        1",
    ]


def test_ratings_cli_header_only_is_an_empty_list(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", "\ufeff" + HEADER)

    result = compute(runner, path, "--json")

    assert (result.exit_code, result.stdout) == (0, "[]\n")


# --- refusals -----------------------------------------------------------------------------


def refused(result: Result) -> str:
    """The one line on stderr of a refusal, checked to be exit 2 without a traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("2024-03-01T20:00,Ann,Ben,7,Cas\n", "line 3: winner: 'Cas' is neither 'Ann' nor 'Ben'."),
        ("2024-13-01T20:00,Ann,Ben,7,Ann\n",
         "line 3: finished_at: '2024-13-01T20:00' is not an ISO date and time."),
        ("yesterday,Ann,Ben,7,Ann\n",
         "line 3: finished_at: 'yesterday' is not an ISO date and time."),
        ("2024-03-01T20:00,Ann,Ben,seven,Ann\n",
         "line 3: match_length: 'seven' is not a match length from 1 to 99 points."),
        ("2024-03-01T20:00,Ann,Ben,0,Ann\n",
         "line 3: match_length: 0 is not a match length from 1 to 99 points."),
        ("2024-03-01T20:00,Ann,Ben,-3,Ann\n",
         "line 3: match_length: '-3' is not a match length from 1 to 99 points."),
        ("2024-03-01T20:00,Ann,Ben,100,Ann\n",
         "line 3: match_length: 100 is not a match length from 1 to 99 points."),
        ("2024-03-01T20:00,Ann,Ann,7,Ann\n", "line 3: player_b: 'Ann' is also player_a."),
        ("2024-03-01T20:00,,Ben,7,Ben\n", "line 3: player_a: no player named."),
        ("2024-03-01T20:00,Ann,Ben,7\n",
         "line 3: expected 5 fields (finished_at,player_a,player_b,match_length,winner), "
         "found 4."),
    ],
)
def test_ratings_cli_bad_row_names_file_line_and_field(
    runner: CliRunner, tmp_path: Path, rows: str, message: str
) -> None:
    path = write(tmp_path / "club.csv", HEADER + "2024-03-01T19:00,Cas,Dee,5,Dee\n" + rows)

    assert refused(compute(runner, path, "--json")) == f"tourney: {path}: {message}"


def test_ratings_cli_wrong_header(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", "date,a,b,length,winner\n2024-03-01,Ann,Ben,7,Ann\n")

    assert refused(compute(runner, path, "--json")) == (
        f"tourney: {path}: line 1: the header is 'date,a,b,length,winner', expected "
        "'finished_at,player_a,player_b,match_length,winner'."
    )


def test_ratings_cli_empty_file(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", "")

    assert refused(compute(runner, path)) == (
        f"tourney: {path}: empty file: expected the header "
        "finished_at,player_a,player_b,match_length,winner."
    )


def test_ratings_cli_not_utf8(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", HEADER.encode() + b"2024-03-01,J\xf8rn,Ben,7,Ben\n")

    assert refused(compute(runner, path)) == (
        f"tourney: {path}: not UTF-8 text (byte {len(HEADER) + 13} cannot be read)."
    )


def test_ratings_cli_unreadable_file(runner: CliRunner, tmp_path: Path) -> None:
    path = str(tmp_path / "missing.csv")

    assert refused(compute(runner, path)) == (
        f"tourney: cannot read {path}: No such file or directory"
    )


def test_ratings_cli_unknown_extension(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.txt", HEADER)

    assert refused(compute(runner, path)) == (
        f"tourney: {path}: unknown kind of file .txt: expected .csv (a results list) or .json "
        "(an event export)."
    )


def test_ratings_cli_file_over_the_limit(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", HEADER + "2024-03-01T20:00,Ann,Ben,7,Ann\n")

    assert refused(compute(runner, path, "--max-bytes", "40")) == (
        f"tourney: {path}: larger than 40 bytes (raise the limit with --max-bytes)."
    )


def test_ratings_cli_start_must_be_a_number(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path / "club.csv", HEADER)

    assert refused(compute(runner, path, "--start", "nan")) == (
        "tourney: --start: nan is not a rating."
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON: "),
        ('{"format": "something else"}',
         "not an event export (`tourney export EVENT --json FILE` writes one)."),
        ('{"format": "tourney-event", "version": 99, "tables": {}}',
         "version: 99 is not an event export version this tourney reads (1 to 1)."),
    ],
)
def test_ratings_cli_json_that_is_no_event_export(
    runner: CliRunner, tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path / "event.json", text)

    assert refused(compute(runner, path)).startswith(f"tourney: {path}: {message}")


# --- event exports ------------------------------------------------------------------------


def play_with_a_walkover(engine: Engine, built: BuiltEvent, seed: int) -> None:
    """Draw and publish the knockout (byes to the top seeds), give the first ready match
    to its first player by walkover and play every other match with random games."""
    actor = built.director.actor
    rng = random.Random(seed)
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    with transaction(engine) as session:
        first = ready_matches(session, built.event_id)[0]
        results.award_walkover(session, actor=actor, match_id=first.id or 0, winner="a")
    while True:
        with transaction(engine) as session:
            ready = ready_matches(session, built.event_id)
            for match in ready:
                play_match(session, actor, match, rng)
        if not ready:
            return


def results_list(engine: Engine, event_id: int) -> tuple[str, list[str], list[str]]:
    """The event's finished matches as a results list, with the walkover's and the byes'
    players."""
    with Session(engine) as session:
        names = {
            fe.id: player.name
            for fe, player in session.exec(
                select(FlightEntry, Player)
                .join(Entry, col(Entry.id) == FlightEntry.entry_id)
                .join(Player, col(Player.id) == Entry.player_id)
                .where(Entry.event_id == event_id)
            )
        }
        rows, walkover, byes = [HEADER], [], []
        query = select(Match).where(col(Match.entry_a_id).in_(list(names))).order_by(col(Match.id))
        for m in session.exec(query):
            a, b = names.get(m.entry_a_id or 0, ""), names.get(m.entry_b_id or 0, "")
            if m.status == MatchStatus.WALKOVER.value:
                walkover = [a, b]
            elif m.status == MatchStatus.BYE.value or not b:
                byes.append(a)
            elif m.status == MatchStatus.FINISHED.value:
                assert m.finished_at is not None
                winner = names[m.winner_entry_id or 0]
                rows.append(f"{m.finished_at.isoformat()},{a},{b},{m.match_length},{winner}\n")
    return "".join(rows), walkover, byes


def test_ratings_cli_event_export_rates_finished_matches_only(
    runner: CliRunner,
    engine: Engine,
    tmp_path: Path,
    build_event: Callable[..., BuiltEvent],
) -> None:
    players = ["Ann", "Ben", "Cas", "Dee", "Eva", "Fay"]
    built = build_event(players, [{"name": "Main", "format": "knockout", "match_length": 3}])
    play_with_a_walkover(engine, built, seed=11)
    export = write(tmp_path / "club-night.json", exported(engine, built.event_id))
    csv_text, walkover, byes = results_list(engine, built.event_id)
    same = write(tmp_path / "same.csv", csv_text)

    result = compute(runner, export, "--json")

    assert (result.exit_code, result.stderr) == (0, "")
    listed = json.loads(result.stdout)
    assert result.stdout == compute(runner, same, "--json").stdout
    rated = csv_text.count("\n") - 1
    assert (rated, len(walkover), len(byes)) == (4, 2, 2)
    assert sum(row["matches"] for row in listed) == 2 * rated
    assert sum(row["experience"] for row in listed) == 2 * 3 * rated
    # The walkover's loser is out of a knockout and played no rated match.
    assert walkover[1] not in [row["player"] for row in listed]
    assert [list(row) for row in listed] == [["player", "rating", "experience", "matches"]] * len(
        listed
    )


def test_ratings_cli_event_export_and_results_list_together(
    runner: CliRunner,
    engine: Engine,
    tmp_path: Path,
    build_event: Callable[..., BuiltEvent],
) -> None:
    built = build_event(["Ann", "Ben", "Cas", "Dee"],
                        [{"name": "Main", "format": "knockout", "match_length": 5}])
    play_with_a_walkover(engine, built, seed=3)
    export = write(tmp_path / "event.json", exported(engine, built.event_id))
    earlier = write(tmp_path / "earlier.csv", HEADER + "2000-01-01T00:00:00Z,Ann,Zoe,7,Zoe\n")

    listed = json.loads(compute(runner, export, earlier, "--json").stdout)

    zoe = next(row for row in listed if row["player"] == "Zoe")
    assert (zoe["rating"], zoe["experience"], zoe["matches"]) == (1526.46, 7, 1)
    assert sum(row["matches"] for row in listed) == 2 * 3


def test_ratings_cli_event_export_bad_winner_names_the_match(
    runner: CliRunner,
    engine: Engine,
    tmp_path: Path,
    build_event: Callable[..., BuiltEvent],
) -> None:
    built = build_event(["Ann", "Ben", "Cas", "Dee"],
                        [{"name": "Main", "format": "knockout", "match_length": 3}])
    play_with_a_walkover(engine, built, seed=5)
    document = json.loads(exported(engine, built.event_id))
    matches = document["tables"]["matches"]
    n = next(i for i, m in enumerate(matches, 1) if m["status"] == "finished")
    matches[n - 1]["winner_entry_id"] = "flight_entries/99"
    path = write(tmp_path / "edited.json", json.dumps(document))

    assert refused(compute(runner, path)) == (
        f"tourney: {path}: matches/{n}: winner_entry_id: 'flight_entries/99' is neither "
        "entry_a_id nor entry_b_id."
    )


def test_rating_sources_doctests_pass() -> None:
    assert doctest.testmod(rating_sources).failed == 0
