"""The ``tourney`` command: thin wrappers over the rules core, the store and the exports.

Every user error becomes one line on stderr and the exit status the contracts name:
0 success, 1 a finding (an invalid record), 2 a usage error or unreadable input.
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tourney import __version__
from tourney.exports.registry import (
    PAPERS,
    PDF_EXPORTS,
    EventSource,
    Export,
    Paper,
    export_named,
    paper_named,
)
from tourney.i18n import DEFAULT_LANGUAGE, LANGUAGE_CODES
from tourney.rules import Position, Roll, RulesError, format_play
from tourney.rules.board import Side
from tourney.rules.diagram import format_board
from tourney.rules.layout import (
    MAX_JSON_CHARS,
    SIDES,
    JsonPosition,
    format_position_json,
    parse_position_json,
)
from tourney.rules.match_forms import SINGLE, registered_match_forms
from tourney.rules.moves import legal_play_map
from tourney.rules.records import (
    DEFAULT_MAX_BYTES,
    ErrorKind,
    MatchRules,
    RecordReport,
    validate_record,
)
from tourney.rules.variant_protocol import VariantPosition
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    GameVariant,
    VariantOptions,
    registered_variants,
    variant_named,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sqlalchemy.engine import Engine

    from tourney.store.clocks import EventTimes
    from tourney.web.deps import AppState


class UsageFailure(click.ClickException):
    """A user error: printed as one line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: object = None) -> None:
        click.echo(f"tourney: {self.format_message()}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tourney")
def cli() -> None:
    """Backgammon tournaments: rules, records, draws, results."""


# --- rules -------------------------------------------------------------------------


@cli.group()
def rules() -> None:
    """Positions and legal plays."""


def _read_variant(name: str) -> GameVariant:
    try:
        return variant_named(name)
    except RulesError as error:
        raise UsageFailure(str(error)) from None


START = "start"
"""The POSITION that stands for the variant's opening position."""

_FLAG_OPTIONS = tuple(sorted(f.name for f in fields(VariantOptions) if "bool" in str(f.type)))
"""The event options ``--option`` turns on (every on/off option)."""


_OFF_WORDS = ("false", "off", "no", "0")
_ON_WORDS = ("true", "on", "yes", "1")


def _read_options(names: tuple[str, ...], variant: GameVariant | None,
                  strict_block: bool = False) -> VariantOptions:
    """The options ``--option NAME`` turns on (``NAME=false`` turns off one that is on by
    default); where the variant is known, only those it offers.

    Raises:
        UsageFailure: a name that is no option, one the variant does not offer, or a
            value that is neither on nor off.
    """
    chosen: dict[str, bool] = {}
    for written in names:
        name, _, value = written.partition("=")
        offered = variant is None or variant.offers(name)
        if name not in _FLAG_OPTIONS or not offered:
            choices = [spec.key for spec in variant.options if spec.key in _FLAG_OPTIONS] \
                if variant is not None else list(_FLAG_OPTIONS)
            where = f"{variant.name} offers" if variant is not None else "options are"
            raise UsageFailure(f"--option {name}: {where} "
                               f"{', '.join(choices) if choices else 'none'}")
        if value.lower() not in ("", *_ON_WORDS, *_OFF_WORDS):
            raise UsageFailure(f"--option {written}: write {name} or {name}=false")
        chosen[name] = value.lower() not in _OFF_WORDS
    if strict_block:
        chosen["strict_block"] = True
    return VariantOptions(**chosen)  # type: ignore[arg-type]


def _read_position(position_id: str, variant: GameVariant,
                   options: VariantOptions = DEFAULT_OPTIONS) -> VariantPosition:
    if position_id == START:
        return variant.initial(options)
    try:
        return variant.decode_position_id(position_id, options)
    except RulesError as error:
        raise UsageFailure(str(error)) from None


def _read_json_position(text: str, variant: GameVariant,
                        options: VariantOptions = DEFAULT_OPTIONS
                        ) -> tuple[VariantPosition, JsonPosition]:
    """A position in the JSON form (``@file.json`` reads a file; ``start`` the opening)."""
    if text == START:
        position = variant.initial(options)
        return position, JsonPosition(variant.position_layout(position, options), "x",
                                      (0, 0))
    try:
        if text.startswith("@"):
            with open(text[1:], encoding="utf-8") as source:
                text = source.read(MAX_JSON_CHARS + 1)
        read = parse_position_json(text)
        return variant.position_from_layout(read.layout, options), read
    except (OSError, RulesError) as error:
        raise UsageFailure(str(error)) from None


def _read_roll(dice: tuple[str, ...]) -> Roll:
    try:
        return Roll.parse("".join(dice))
    except RulesError as error:
        raise UsageFailure(str(error)) from None


_VARIANT_HELP = "Rules to play by (`tourney rules variants` lists them)."


@rules.command("legal")
@click.argument("position_id")
@click.argument("dice", nargs=-1, required=True)
@click.option("--variant", default=DEFAULT_VARIANT.name, show_default=True, help=_VARIANT_HELP)
@click.option("--strict-block", is_flag=True,
              help="Long nardy: a six-point block only once an opposing checker is home.")
@click.option("--option", "option_names", multiple=True, metavar="NAME",
              help="Turn on an event option of the variant (free_entry, "
              "maximise_across_stages, ...); repeat for several.")
@click.option("--json", "as_json", is_flag=True,
              help="POSITION_ID is a position in the JSON form (or @file.json); print one "
              "JSON position per line.")
def rules_legal(position_id: str, dice: tuple[str, ...], variant: str,
                strict_block: bool, option_names: tuple[str, ...], as_json: bool) -> None:
    """Print every distinct position a legal play of DICE reaches from POSITION_ID.

    Each line is the gnubg Position ID after the play, with the opponent on roll
    (for long nardy the same layout over each side's own nardy numbering).
    POSITION_ID ``start`` is the variant's opening position.
    DICE is two digits (31) or two arguments (3 1).
    """
    chosen = _read_variant(variant)
    options = _read_options(option_names, chosen, strict_block)
    read: JsonPosition | None = None
    if as_json:
        position, read = _read_json_position(position_id, chosen, options)
    else:
        position = _read_position(position_id, chosen, options)
    roll = _read_roll(dice)
    found = chosen.legal_positions(position, roll, options)
    if read is None:
        lines = [result.turned().to_id() for result in found]
    else:
        mover = SIDES.index(read.on_roll)
        played = tuple(n + (side == mover) for side, n in enumerate(read.turns_played))
        lines = [format_position_json(chosen.position_layout(result.turned(), options),
                                      SIDES[1 - mover], (played[0], played[1]))
                 for result in found]
    for line in sorted(lines):
        click.echo(line)


@rules.command("show")
@click.argument("position_id")
@click.option("--variant", default=DEFAULT_VARIANT.name, show_default=True, help=_VARIANT_HELP)
@click.option("--option", "option_names", multiple=True, metavar="NAME",
              help="Turn on an event option of the variant (nard_himly plays another game "
              "on the board); repeat for several.")
def rules_show(position_id: str, variant: str, option_names: tuple[str, ...]) -> None:
    """Draw POSITION_ID as a board, the side on roll at the bottom."""
    chosen = _read_variant(variant)
    options = _read_options(option_names, chosen)
    click.echo(chosen.format_board(_read_position(position_id, chosen, options), options))


@rules.command("variants")
def rules_variants() -> None:
    """List every variant by the NAME --variant takes, with a one-line description."""
    known = registered_variants()
    width = max(len(variant.name) for variant in known)
    for variant in known:
        click.echo(f"{variant.name:<{width}}  {variant.description}")


@cli.command("demo-rules", hidden=True)
def demo_rules() -> None:
    """Show what the rules core does with the opening position."""
    position = Position.initial()
    click.echo(format_board(position))
    roll = Roll(3, 1)
    click.echo(f"\nLegal plays of {roll.first}-{roll.second} from the opening position:")
    for position_after, play in sorted(
        legal_play_map(position, roll).items(), key=lambda item: format_play(item[1])
    ):
        click.echo(f"  {format_play(play, words=True):<16} -> {position_after.turned().to_id()}")


# --- simulate ----------------------------------------------------------------------


@cli.command("simulate")
@click.option(
    "--format",
    "event_format",
    type=click.Choice(["knockout", "swiss", "roundrobin"]),
    default=None,
    help="The event format (a round robin when --pools is given).",
)
@click.option("--players", type=int, default=None, help="Number of players (ids 1..N).")
@click.option(
    "--teams",
    type=int,
    default=None,
    help="A team event of this many teams (ids 1..N) instead of --players.",
)
@click.option(
    "--boards",
    type=int,
    default=None,
    help="Team event: board matches in each fixture (default 3).",
)
@click.option("--rounds", type=int, default=None, help="Swiss: number of rounds.")
@click.option("--lives", type=int, default=None, help="Swiss: out after this many losses.")
@click.option("--consolation", is_flag=True, help="Knockout: add a consolation flight.")
@click.option("--last-chance", is_flag=True, help="Knockout: add a last-chance flight.")
@click.option("--double-elimination", is_flag=True, help="Knockout: double elimination.")
@click.option("--match-length", type=int, default=5, show_default=True, help="Points to win.")
@click.option("--seed", type=int, default=None, help="Seed of every random choice.")
@click.option(
    "--variant",
    default=DEFAULT_VARIANT.name,
    show_default=True,
    help="The game played, for its match scoring (`tourney rules variants` lists them).",
)
@click.option(
    "--match-form",
    default=SINGLE.name,
    show_default=True,
    help="Several variants in turn (tavli: Portes, Plakoto, Fevga); "
    f"one of {', '.join(form.name for form in registered_match_forms())}.",
)
@click.option("--pools", type=int, default=None, help="Round robin: played in this many pools.")
@click.option(
    "--qualifiers",
    type=int,
    default=None,
    help="The top K of each pool (of the Swiss) go on to a knockout.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the event as one JSON document.")
def simulate(
    event_format: str | None,
    players: int | None,
    teams: int | None,
    boards: int | None,
    rounds: int | None,
    lives: int | None,
    consolation: bool,
    last_chance: bool,
    double_elimination: bool,
    match_length: int,
    seed: int | None,
    variant: str,
    match_form: str,
    pools: int | None,
    qualifiers: int | None,
    as_json: bool,
) -> None:
    """Run a whole event with random results through the real format and match code.

    With ``--pools P --qualifiers K`` the players play round robins in P snake-seeded
    pools, and the top K of each go on to a knockout (pool winners against other pools'
    runners-up).

    With ``--teams N [--boards K]`` teams of K players play fixtures of K board matches
    (knockout, Swiss by rounds or lives, or round robin)."""
    import json
    import random

    from tourney.formats.errors import FormatUserError
    from tourney.formats.simulation import SimulationOptions
    from tourney.formats.simulation import simulate as run_simulation

    if teams is not None:
        _simulate_teams(
            event_format, teams, boards, rounds, lives, match_length, seed, as_json,
            players=players,
            single_only=consolation or last_chance or double_elimination
            or pools is not None or qualifiers is not None
            or variant != DEFAULT_VARIANT.name or match_form != SINGLE.name,
        )  # fmt: skip
        return
    if players is None:
        raise click.UsageError("Missing option '--players'.")
    if boards is not None:
        raise click.UsageError("--boards needs --teams.")
    if event_format is None:
        if pools is None:
            raise click.UsageError("Missing option '--format'.")
        event_format = "roundrobin"
    if seed is None:
        # The seed is always printed, so an unseeded run can still be reproduced.
        seed = random.SystemRandom().randrange(2**31)
    options = SimulationOptions(
        event_format, players, rounds, lives, consolation, last_chance,
        double_elimination, match_length, seed, variant, match_form, pools, qualifiers,
    )  # fmt: skip
    try:
        document = run_simulation(options)
    except FormatUserError as error:
        raise UsageFailure(str(error)) from None
    if as_json:
        click.echo(json.dumps(document))
        return
    click.echo(f"seed {document['seed']}")
    if "match_form" in document:
        click.echo(f"match form {document['match_form']}")
    elif document["variant"] != DEFAULT_VARIANT.name:
        click.echo(f"variant {document['variant']}")
    for flight in document["flights"]:
        if "pools" in flight:
            click.echo(f"{flight['name']}: {len(flight['rounds'])} rounds")
            for pool in flight["pools"]:
                click.echo(f"  pool {pool['name']}: {_places(pool['standings'])}")
            continue
        places = _places(flight["standings"])
        click.echo(f"{flight['name']}: {len(flight['rounds'])} rounds; {places}")


def _simulate_teams(
    event_format: str | None,
    teams: int,
    boards: int | None,
    rounds: int | None,
    lives: int | None,
    match_length: int,
    seed: int | None,
    as_json: bool,
    *,
    players: int | None,
    single_only: bool,
) -> None:
    """``tourney simulate --teams``: a team event, printed like a single-player one."""
    import json
    import random

    from tourney.formats.errors import FormatUserError
    from tourney.formats.team_simulation import TeamSimulationOptions, simulate_teams
    from tourney.formats.teams import DEFAULT_BOARDS

    if players is not None:
        raise click.UsageError("Give --players or --teams, not both.")
    if single_only:
        raise click.UsageError(
            "A team event takes --format, --boards, --rounds, --lives, --match-length "
            "and --seed only."
        )
    if event_format is None:
        raise click.UsageError("Missing option '--format'.")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    options = TeamSimulationOptions(
        event_format, teams, DEFAULT_BOARDS if boards is None else boards,
        rounds, lives, match_length, seed,
    )  # fmt: skip
    try:
        document = simulate_teams(options)
    except FormatUserError as error:
        raise UsageFailure(str(error)) from None
    if as_json:
        click.echo(json.dumps(document))
        return
    click.echo(f"seed {document['seed']}; {document['boards']} boards a fixture")
    for flight in document["flights"]:
        places = ", ".join(
            f"{'=' if row['tied'] else ''}{row['rank']} team {row['team']}"
            for row in flight["standings"][:3]
        )
        click.echo(f"{flight['name']}: {len(flight['rounds'])} rounds; {places}")


def _places(standings: list[dict[str, Any]]) -> str:
    """The top four of a table: ``1. 7, 2. 21, =3. 1, =3. 3``."""
    top = [row for row in standings if row["rank"] <= 4]
    return ", ".join(f"{'=' if row['tied'] else ''}{row['rank']}. {row['player']}" for row in top)


# --- validate ----------------------------------------------------------------------

_PROGRESS_FROM_FILES = 6
"""Show a progress bar (on a terminal) from this many files on."""


def _read_record_file(path: str, max_bytes: int) -> tuple[bytes, int]:
    """The first ``max_bytes + 1`` bytes of ``path`` and its full size; raises OSError."""
    with open(path, "rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        return stream.read(max_bytes + 1), size


def _validate_lines(name: str, report: RecordReport) -> list[str]:
    players = report.players
    length = report.match_length
    what = f"{length}-point match" if length else "money session"
    score = (
        f"{players[0]} {report.final_score[0]}, {players[1]} {report.final_score[1]}"
        if report.record.players
        else "no players named"
    )
    outcome = (
        f"{report.winner_name} wins" if report.winner_name else
        ("unfinished" if length else "")
    )
    games = f"{len(report.games)} game{'' if len(report.games) == 1 else 's'}"
    jacoby = f"Jacoby rule {report.jacoby}" if report.jacoby else ""
    details = ", ".join(part for part in (what, score, outcome, games, jacoby) if part)
    if report.ok:
        verdict = "valid"
    else:
        count = len(report.errors)
        verdict = f"INVALID ({count} error{'' if count == 1 else 's'})"
    lines = [f"{name}: {verdict} - {details}"]
    lines.extend(f"  {error}" for error in report.errors)
    lines.extend(f"  warning: {warning}" for warning in report.warnings)
    return lines


def _read_start(text: str) -> tuple[int, int]:
    """A starting score written ``1-0``.

    Raises:
        UsageFailure: not two whole numbers joined by a dash.
    """
    first, dash, second = text.strip().partition("-")
    if not (dash and first.strip().isdigit() and second.strip().isdigit()):
        raise UsageFailure(f"--start {text!r}: write the starting score as two whole numbers "
                           "joined by a dash, such as 1-0")
    return int(first), int(second)


@cli.command("validate")
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file per line.")
@click.option(
    "--max-bytes",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_BYTES,
    show_default=True,
    help="Refuse files larger than this.",
)
@click.option("--holland", is_flag=True, help="Apply the Holland rule in post-Crawford games.")
@click.option(
    "--expect-finished", is_flag=True, help="An unfinished match is an error, not a warning."
)
@click.option(
    "--variant",
    default=None,
    help="Replay by this variant (`tourney rules variants` lists them) instead of the one "
    "the record names.",
)
@click.option(
    "--automatic-doubles",
    type=click.IntRange(min=0, max=10),
    default=0,
    help="Money sessions: equal opening dice turned the cube in the middle, up to this "
    "many times a game.",
)
@click.option(
    "--condoned",
    is_flag=True,
    help="An illegal play the opponent played on from stands, as a warning (a condoned "
    "play), and the game goes on from it.",
)
@click.option("--option", "option_names", multiple=True, metavar="NAME",
              help="Replay under an event option of the variant (free_entry, "
              "maximise_across_stages, ...) instead of the record's own tags; repeat for "
              "several.")
@click.option("--start", "start_score", default=None, metavar="X-Y",
              help="The match's starting score (a handicap start such as 1-0), in the order "
              "the record names the players; game 1's score line must show it.")
def validate(
    files: tuple[str, ...], as_json: bool, max_bytes: int, holland: bool, expect_finished: bool,
    variant: str | None, automatic_doubles: int, condoned: bool, option_names: tuple[str, ...],
    start_score: str | None,
) -> None:
    """Replay match records move by move and report every rule they break.

    The file name picks the reader: .sgf (GNU Backgammon), .json (our JSON form), .xg
    (eXtreme Gammon; findings name the move, as the file has no lines), else .mat (also
    .txt). The variant comes from
    the record ([Variation "NackGammon"] in a .mat header, RU[Nackgammon] in an .sgf,
    the "variant" field of a JSON record) unless --variant names one.

    Exit status 0 when every file is valid, 1 when any is invalid, 2 when a file
    cannot be read.
    """
    import json
    from contextlib import nullcontext

    named = _read_variant(variant) if variant is not None else None
    options = _read_options(option_names, named) if option_names else None
    rules = MatchRules(holland=True if holland else None, expect_finished=expect_finished,
                       variant=variant, automatic_doubles=automatic_doubles,
                       allow_condoned=condoned, options=options,
                       start=_read_start(start_score) if start_score is not None else None)
    unreadable: list[str] = []
    invalid = False
    progress: Any = nullcontext()
    task = None
    if sys.stderr.isatty() and len(files) >= _PROGRESS_FROM_FILES:
        from rich.console import Console
        from rich.progress import Progress

        progress = Progress(console=Console(stderr=True), transient=True)
    with progress:
        if task is None and not isinstance(progress, nullcontext):
            task = progress.add_task("validating", total=len(files))
        for path in files:
            try:
                data, size = _read_record_file(path, max_bytes)
            except OSError as error:
                message = f"cannot read {path}: {error.strerror or error}"
                unreadable.append(message)
                click.echo(f"tourney: {message}", err=True)
                if as_json:
                    click.echo(json.dumps({
                        "file": path, "ok": False, "match_length": 0, "players": ["", ""],
                        "final_score": [0, 0], "winner": None, "games": 0,
                        "errors": [{"game": None, "line": None, "message": message}],
                        "warnings": [],
                    }, ensure_ascii=False))
            else:
                report = validate_record(path, data, rules=rules, max_bytes=max_bytes,
                                         size=size)
                beyond = [e.message for e in report.errors if e.kind is ErrorKind.BOUNDS]
                if beyond:
                    # Past the reader's bounds: unreadable, like a file that cannot be opened.
                    unreadable.append(beyond[0])
                    click.echo(f"tourney: {path}: {beyond[0]}", err=True)
                else:
                    invalid = invalid or not report.ok
                if as_json:
                    click.echo(json.dumps(report.to_json(path), ensure_ascii=False))
                elif not beyond:
                    click.echo("\n".join(_validate_lines(path, report)))
            if task is not None:
                progress.advance(task)
    if unreadable:
        count = len(unreadable)
        raise UsageFailure(f"{count} file{'' if count == 1 else 's'} could not be read")
    if invalid:
        sys.exit(1)


@cli.command("analyse")
@click.argument("file")
@click.option("--plies", type=click.IntRange(min=0, max=2), default=0, show_default=True,
              help="Evaluation depth for checker plays and cube decisions (luck: always 0).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object with the figures.")
def analyse(file: str, plies: int, as_json: bool) -> None:
    """Analyse a .mat match record with GNU Backgammon's evaluator (the 'analysis' extra).

    Prints per player the error rate (mEMG per decision, as gnubg's "Error rate mEMG"),
    the XG-scale performance rating (PR, half of it) and the luck rate (mEMG per roll).
    Exit status 0, 1 for an invalid record, 2 for an unreadable file or when analysis is
    not installed.
    """
    import json

    from tourney.analysis import AnalysisUnavailable, analyse_record, rating_words

    try:
        data, size = _read_record_file(file, DEFAULT_MAX_BYTES)
    except OSError as error:
        raise UsageFailure(f"cannot read {file}: {error.strerror or error}") from None
    report = validate_record(file, data, size=size)
    if not report.ok:
        click.echo(f"tourney: {file}: not a valid record: {report.errors[0]}", err=True)
        sys.exit(1)
    try:
        analysis = analyse_record(report, plies=plies)
    except AnalysisUnavailable as error:
        raise UsageFailure(str(error)) from None
    except ValueError as error:
        raise UsageFailure(f"{file}: {error}") from None
    if as_json:
        click.echo(json.dumps(analysis.to_json(), ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{file}: {analysis.games} games, {plies}-ply analysis")
    table.add_column("")
    for name in analysis.players:
        table.add_column(name, justify="right")
    figures = analysis.figures
    table.add_row("Error rate (mEMG)", *(f"{f.error_rate:.1f}" for f in figures))
    table.add_row("PR", *(f"{f.pr:.1f}" for f in figures))
    table.add_row("Rating", *(rating_words(f.error_rate) for f in figures))
    table.add_row("Luck rate (mEMG)", *(f"{f.luck_rate:+.1f}" for f in figures))
    table.add_row("Unforced moves", *(str(f.unforced_moves) for f in figures))
    table.add_row("Cube decisions", *(str(f.close_cube) for f in figures))
    console = Console()
    console.print(table)
    for side, name in enumerate(analysis.players):
        worst = analysis.worst(Side(side), 3)
        if worst:
            console.print(f"Biggest errors of {name}:")
        for decision in worst:
            roll = f"{decision.dice} " if decision.dice else ""
            console.print(
                f"  game {decision.game}, {decision.position_id}: {roll}{decision.played} "
                f"(best {decision.best}), -{1000 * decision.error:.0f} mEMG"
            )


# --- app ---------------------------------------------------------------------------

SAMPLE_EVENTS = Path(__file__).resolve().parent.parent / "sample_events"


@contextlib.contextmanager
def _app_engine() -> Iterator[Engine]:
    """The engine for the configured database (``TOURNEY_DATABASE_URL``), closed after use."""
    from tourney.config import load_settings
    from tourney.store.db import engine_from_settings

    engine = engine_from_settings(load_settings())
    try:
        yield engine
    finally:
        engine.dispose()


def _require_current_schema(engine: Engine) -> None:
    from tourney.store.schema import SchemaOutOfDateError, check_current

    try:
        check_current(engine)
    except SchemaOutOfDateError as error:
        raise click.ClickException(str(error)) from None


@cli.group("db")
def db_group() -> None:
    """The database: migrations."""


@db_group.command("upgrade")
def db_upgrade() -> None:
    """Apply the migrations to the configured database (TOURNEY_DATABASE_URL)."""
    from tourney.store import schema

    with _app_engine() as engine:
        before = schema.current_revisions(engine)
        schema.upgrade(engine)
        after = schema.current_revisions(engine)
    revision = ", ".join(sorted(after))
    if before == after:
        click.echo(f"Database already up to date (revision {revision}).")
    else:
        click.echo(f"Database upgraded to revision {revision}.")


@db_group.command("downgrade")
@click.argument("revision", default="-1")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def db_downgrade(revision: str, yes: bool) -> None:
    """Revert the configured database to REVISION (default: one migration back).

    What the older schema has no place for (a column, a table) is dropped.
    """
    from alembic.util import CommandError

    from tourney.store import schema

    if not yes:
        click.confirm(
            f"Revert the database to revision {revision}? Data the older schema cannot hold "
            "is lost.",
            abort=True,
        )
    with _app_engine() as engine:
        try:
            schema.downgrade(engine, revision)
        except (CommandError, RuntimeError) as error:
            raise UsageFailure(str(error)) from None
        after = schema.current_revisions(engine)
    click.echo(f"Database downgraded to revision {', '.join(sorted(after)) or 'none'}.")


@cli.group("mail")
def mail_group() -> None:
    """The mail outbox: players' mails are sent by this worker, never by a request."""


@mail_group.command("work")
@click.option("--once", is_flag=True, help="One pass over the due mails, then stop.")
@click.option(
    "--interval", type=click.IntRange(1, 3600), default=10, show_default=True,
    help="Seconds between passes.",
)
def mail_work(once: bool, interval: int) -> None:
    """Queue deadline reminders and next-match mails and send due mails (TOURNEY_SMTP_*),
    retrying failures with a growing delay; runs until stopped unless --once."""
    import time

    from tourney.config import load_settings
    from tourney.store import outbox, selfservice
    from tourney.store.db import transaction

    settings = load_settings()
    root = (settings.public_url or "http://127.0.0.1:5000").rstrip("/") + "/"
    links = selfservice.LinkMaker(settings.resolved_secret_key(), root)
    with _app_engine() as engine:
        _require_current_schema(engine)
        while True:
            with transaction(engine) as session:
                reminders = selfservice.queue_deadline_reminders(session, links=links)
                # Knockout matches whose players became known since the last pass.
                next_matches = selfservice.queue_next_match_mails(session, links=links)
            report = outbox.deliver_due(engine, settings)
            if once or reminders or next_matches or report.sent or report.retried or report.failed:
                click.echo(
                    f"reminders queued {reminders}, next-match mails queued {next_matches}, "
                    f"sent {report.sent}, "
                    f"to retry {report.retried}, failed {report.failed}"
                )
            if once:
                return
            time.sleep(interval)


@cli.command("demo")
@click.option(
    "--directory",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=SAMPLE_EVENTS,
    show_default=True,
    help="Where the demo description files are.",
)
def demo(directory: Path) -> None:
    """Load sample_events/ into the database; running it twice changes nothing."""
    from tourney.config import load_settings
    from tourney.store.db import transaction
    from tourney.store.demo import load_demo
    from tourney.store.errors import StoreUserError
    from tourney.store.passwords import make_hasher

    hasher = make_hasher(load_settings().password_hash_profile)
    with _app_engine() as engine:
        _require_current_schema(engine)
        try:
            with transaction(engine) as session:
                report = load_demo(session, directory=directory, hasher=hasher)
        except StoreUserError as error:
            raise click.ClickException(error.message) from None
    if report.events_created or report.players_created:
        events = ", ".join(report.events_created) or "none"
        click.echo(
            f"Demo loaded: {len(report.events_created)} event(s) ({events}), "
            f"{report.players_created} player(s)."
        )
    else:
        click.echo("Demo data already loaded; nothing changed.")
    for login in report.logins:
        click.echo(f"Demo director login: {login.email} / password: {login.password}")


def _serving_lines(state: AppState, address: str) -> list[str]:
    """What ``serve`` prints last before serving: where to open the app and log in, and
    the demo director's login while that account still has the demo password."""
    from tourney.store.db import read_session
    from tourney.store.demo import usable_demo_logins

    public = state.settings.public_url
    lines = [f"tourney is serving on {address}  (Ctrl-C to stop)"]
    if public:
        lines.append(f"Players' address (QR codes and printed links): {public}")
    lines.append(f"Directors log in at {public.rstrip('/') + '/' if public else address}login")
    with read_session(state.engine) as session:
        logins = usable_demo_logins(session, directory=SAMPLE_EVENTS, hasher=state.hasher)
    lines.extend(f"Demo director: {login.email} / password {login.password}" for login in logins)
    return lines


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--workers", default=1, show_default=True, type=int, help="Worker processes.")
@click.option("--threads", default=4, show_default=True, type=int, help="Threads per worker.")
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Serve the app on the configured database (gunicorn; Ctrl-C stops it)."""
    from tourney.store.schema import SchemaOutOfDateError
    from tourney.web import create_app, log_redaction

    try:
        app = create_app()
    except SchemaOutOfDateError as error:
        raise click.ClickException(str(error)) from None
    shown = f"[{host}]" if ":" in host else host
    lines = _serving_lines(app.extensions["tourney"], f"http://{shown}:{port}/")
    # Workers are forked: none may inherit a connection opened by the schema check.
    app.extensions["tourney"].engine.dispose()
    for line in lines:
        click.echo(line)
    # Access log lines must not keep share keys or API tokens (forked workers inherit it).
    log_redaction.install()
    try:
        from gunicorn.app.base import BaseApplication
    except ImportError:  # pragma: no cover - gunicorn is Unix-only
        app.run(host=host, port=port, threaded=True)
        return

    class _Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{shown}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("accesslog", "-")
            if "control_socket_disable" in self.cfg.settings:
                self.cfg.set("control_socket_disable", True)

        def load(self) -> Any:
            return app

    _Server().run()


@cli.command("worker")
@click.option("--once", is_flag=True, help="Run the queued jobs, then stop.")
@click.option("--idle", default=2.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds to wait before looking again when nothing is queued.")
def worker(once: bool, idle: float) -> None:
    """Work off queued analyses of match records (Ctrl-C stops it).

    Requests only queue analyses; this process runs them, one at a time. Run as many as
    the machine has cores to spare: no job runs twice.
    """
    import time

    from tourney.analysis import AnalysisUnavailable
    from tourney.analysis.engine import load_gnubg
    from tourney.store.analyses import run_next_job

    try:
        load_gnubg()
    except AnalysisUnavailable as error:
        raise UsageFailure(str(error)) from None
    with _app_engine() as engine:
        try:
            while True:
                done = run_next_job(engine)
                if done is not None:
                    click.echo(f"analysis job {done} finished", err=True)
                    continue
                if once:
                    return
                time.sleep(idle)
        except KeyboardInterrupt:
            return


@cli.command("create-director")
@click.argument("email")
@click.option("--password", default=None, help="For scripts; asked for when left out.")
@click.option("--name", default=None, help="Display name (default: the address's local part).")
@click.option(
    "--role",
    type=click.Choice(["director", "admin", "scorer"]),
    default="director",
    show_default=True,
)
def create_director(email: str, password: str | None, name: str | None, role: str) -> None:
    """Create an account that can log in to the director's pages."""
    from tourney.config import load_settings
    from tourney.store import accounts
    from tourney.store.audit import Actor
    from tourney.store.db import transaction
    from tourney.store.errors import StoreUserError
    from tourney.store.passwords import make_hasher

    with _app_engine() as engine:
        _require_current_schema(engine)
        if password is None:
            password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
        try:
            with transaction(engine) as session:
                user = accounts.create_user(
                    session,
                    actor=Actor.cli(),
                    email=email,
                    name=name or email.split("@")[0],
                    password=password,
                    role=role,
                    hasher=make_hasher(load_settings().password_hash_profile),
                )
        except StoreUserError as error:
            raise UsageFailure(error.message) from None
    click.echo(f"Created {user.role} account {user.email}.")


# --- export ------------------------------------------------------------------------


_PDF_KINDS = [export.identifier for export in PDF_EXPORTS]


@cli.command("export")
@click.argument("event")
@click.option(
    "--pdf",
    "pdfs",
    type=(click.Choice(_PDF_KINDS), click.Path()),
    multiple=True,
    metavar="KIND FILE",
    help=f"A PDF document ({', '.join(_PDF_KINDS)}) to FILE; repeatable.",
)
@click.option("--xlsx", "xlsx_file", type=click.Path(), default=None, help="The workbook.")
@click.option(
    "--csv", "csv_dir", type=click.Path(file_okay=False), default=None, help="One CSV per table."
)
@click.option(
    "--paper", type=click.Choice(list(PAPERS)), default="a4", show_default=True,
    help="Paper size (a3: drawsheets as posters).",
)
@click.option("--base-url", default=None, help="Public site address, for the QR codes.")
@click.option(
    "--json", "json_file", type=click.Path(), default=None,
    help="The whole event as one JSON document, for `tourney import`.",
)
@click.option(
    "--lang", "language", type=click.Choice(LANGUAGE_CODES), default=DEFAULT_LANGUAGE,
    show_default=True, help="Language of the documents' headings and words.",
)
def export(
    event: str,
    pdfs: tuple[tuple[str, str], ...],
    xlsx_file: str | None,
    csv_dir: str | None,
    paper: str,
    base_url: str | None,
    json_file: str | None,
    language: str,
) -> None:
    """Write an event's (id or slug) printed documents and spreadsheets to files."""
    from tourney.store.db import read_session
    from tourney.store.errors import NotFoundError
    from tourney.store.event_documents import event_document, find_event
    from tourney.store.event_json import export_event

    wanted = [
        *([("json", json_file)] if json_file else []),
        *pdfs,
        *([("xlsx", xlsx_file)] if xlsx_file else []),
        *([("csv", csv_dir)] if csv_dir else []),
    ]
    if not wanted:
        raise UsageFailure(
            "nothing to export: give --pdf KIND FILE, --xlsx FILE, --csv DIR or --json FILE."
        )
    with _app_engine() as engine:
        _require_current_schema(engine)
        try:
            with read_session(engine) as session:
                event_id = find_event(session, event).id or 0
                source = EventSource(
                    lambda: event_document(session, str(event_id), base_url=base_url),
                    make_event_file=lambda tell: export_event(session, event_id, progress=tell),
                ).in_language(language)
                for identifier, target in wanted:
                    _export_to(export_named(identifier), source, paper_named(paper), Path(target))
        except NotFoundError as error:
            raise UsageFailure(str(error)) from None


@cli.command("timetable")
@click.argument("event")
@click.option(
    "--at", "at", default=None, metavar="TIME",
    help="Plan as at this ISO time (UTC unless it names a zone); default: now.",
)
def timetable(event: str, at: str | None) -> None:
    """Print an event's (id or slug) timetable: each flight's rounds with their expected
    start and end, the final, and the matches running late (times in UTC)."""
    from tourney.store.clocks import event_times
    from tourney.store.db import read_session
    from tourney.store.errors import NotFoundError
    from tourney.store.event_documents import find_event

    now = None
    if at is not None:
        try:
            now = datetime.fromisoformat(at)
        except ValueError:
            raise UsageFailure(f"--at {at!r} is not an ISO time (2026-11-24T19:00).") from None
        now = now if now.tzinfo else now.replace(tzinfo=UTC)
    with _app_engine() as engine:
        _require_current_schema(engine)
        try:
            with read_session(engine) as session:
                times = event_times(session, find_event(session, event).id or 0, now=now)
        except NotFoundError as error:
            raise UsageFailure(str(error)) from None
    for line in _timetable_lines(times):
        click.echo(line)


def _timetable_lines(times: EventTimes) -> list[str]:
    def hhmm(when: datetime) -> str:
        return when.astimezone(UTC).strftime("%H:%M")

    model = times.model
    source = (
        f"median of {model.samples} timed matches" if model.from_history else "default"
    )
    lines = [
        f"{times.event_name} at {times.now.astimezone(UTC):%Y-%m-%d %H:%M} UTC: "
        f"{model.seconds_per_point / 60:g} min a point ({source})"
    ]
    for flight in times.flights:
        clock = flight.clock
        lines.append(
            f"  {flight.name} (clock {clock.seconds_per_point / 60:g} min a point, "
            f"{clock.delay_seconds} s delay)"
        )
        for r in flight.rounds:
            lines.append(
                f"    {r.name:<16} to {r.length:>2}  {hhmm(r.start)}-{hhmm(r.end)}"
                f"  {r.minutes:>4} min  {r.state}"
            )
        if flight.final is not None:
            lines.append(f"    final expected {hhmm(flight.final.start)}-{hhmm(flight.final.end)}")
        if not flight.rounds:
            lines.append("    not drawn yet")
    if times.end is not None:
        lines.append(f"  expected end {hhmm(times.end)}")
    for late in times.late:
        lines.append(
            f"  late: {late.players} ({late.flight_name}, {late.round_name}) running "
            f"{late.running_minutes} of {late.budget_minutes} min"
        )
    return lines


@contextlib.contextmanager
def _table_progress(label: str) -> Iterator[Any]:
    """A progress callback ``(step, done, total)`` drawing a bar on stderr when it is a
    terminal; otherwise one that does nothing."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def tell(step: str, done: int, total: int) -> None:
            bar.update(task, description=f"{label}: {step}", completed=done, total=total)

        yield tell


def _export_to(export: Export, source: EventSource, paper: Paper, target: Path) -> None:
    """Render one export and write it to the file ``target`` (an export of several files:
    into the directory ``target``)."""
    click.echo(f"rendering {export.verbose_name.lower()} ...", err=True)
    with _table_progress(f"exporting {export.verbose_name.lower()}") as tell:
        source.progress = tell
        files = export.render(source, paper)
    if not export.several_files:
        (rendered,) = files
        _write(target, rendered.content)
        return
    target.mkdir(parents=True, exist_ok=True)
    for rendered in files:
        _write(target / rendered.filename, rendered.content)


def _write(path: Path, content: bytes) -> None:
    try:
        path.write_bytes(content)
    except OSError as error:
        raise UsageFailure(f"cannot write {path}: {error.strerror}") from None
    click.echo(f"wrote {path} ({len(content):,} bytes)", err=True)


@cli.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--as-copy", is_flag=True,
    help="When the event exists already, import it as a copy under a new name and address.",
)
def import_command(file: Path, as_copy: bool) -> None:
    """Rebuild an event from a file written by `tourney export EVENT --json FILE`."""
    from tourney.exports.event_json import parse_event_json
    from tourney.store.db import transaction
    from tourney.store.errors import StoreUserError
    from tourney.store.event_json import import_event

    try:
        data = file.read_bytes()
    except OSError as error:
        raise UsageFailure(f"cannot read {file}: {error.strerror}") from None
    with _app_engine() as engine:
        _require_current_schema(engine)
        try:
            document = parse_event_json(data)
            with _table_progress("importing") as tell, transaction(engine) as session:
                imported = import_event(session, document, as_copy=as_copy, progress=tell)
        except StoreUserError as error:
            raise UsageFailure(f"{file}: {error.message}") from None
    click.echo(
        f"Imported {imported.name!r} as {imported.slug} (event {imported.event_id}): "
        f"{imported.players_created} player(s) created, "
        f"{imported.players_matched} matched to the roster."
    )


@cli.group("players")
def players_group() -> None:
    """The player roster."""


@players_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--apply", "apply_rows", is_flag=True, help="Save the rows (default: preview).")
def players_import(file: Path, apply_rows: bool) -> None:
    """Check a CSV or XLSX list of players (name, country, rating, experience, matches,
    email) and, with --apply, add the good rows to the roster. Exit 1 when a row has a
    problem."""
    from tourney.store.db import read_session, transaction
    from tourney.store.errors import StoreUserError
    from tourney.store.player_import import apply_player_import, preview_player_import

    try:
        data = file.read_bytes()
    except OSError as error:
        raise UsageFailure(f"cannot read {file}: {error.strerror}") from None
    with _app_engine() as engine:
        _require_current_schema(engine)
        try:
            with read_session(engine) as session:
                preview = preview_player_import(session, data, filename=file.name)
            for row in preview.rows:
                for problem in row.problems:
                    click.echo(f"{file}: row {row.line}: {problem}", err=True)
            if apply_rows:
                with transaction(engine) as session:
                    done = apply_player_import(session, preview)
        except StoreUserError as error:
            raise UsageFailure(f"{file}: {error.message}") from None
    good, bad = len(preview.good_rows), len(preview.problem_rows)
    if apply_rows:
        bad = len(done.skipped)
        click.echo(f"Added {len(done.created)} player(s); skipped {bad} row(s) with problems.")
    else:
        click.echo(f"{good} row(s) ready, {bad} with problems; run with --apply to save.")
    if bad:
        sys.exit(1)


# --- ratings -----------------------------------------------------------------------


@cli.group("ratings")
def ratings_group() -> None:
    """FIBS ratings replayed from match results."""


def _rating_lines(rows: list[dict[str, Any]]) -> list[str]:
    width = max([len("player"), *(len(row["player"]) for row in rows)])
    lines = [f"{'rank':>4}  {'player':<{width}}  {'rating':>8}  {'experience':>10}  {'matches':>7}"]
    lines.extend(
        f"{rank:>4}  {row['player']:<{width}}  {row['rating']:>8.2f}  "
        f"{row['experience']:>10}  {row['matches']:>7}"
        for rank, row in enumerate(rows, 1)
    )
    return lines


@ratings_group.command("compute")
@click.argument("files", nargs=-1, required=True)
@click.option(
    "--start", type=float, default=1500.0, show_default=True,
    help="Everyone's rating before their first rated match.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the list as one JSON document.")
@click.option(
    "--max-bytes", type=click.IntRange(min=1), default=None,
    help="Refuse files larger than this (default 32 MiB).",
)
def ratings_compute(
    files: tuple[str, ...], start: float, as_json: bool, max_bytes: int | None
) -> None:
    """Replay the rated matches of results lists (.csv) and event exports (.json).

    A results list has the header finished_at,player_a,player_b,match_length,winner,
    one finished match per row in any order. Every match is replayed in order of its
    finishing time (file order, files in the order given, for equal times) with the FIBS
    formula, everyone starting at --start with no experience. Walkovers and byes are not
    rated. Players with the same rating are listed by name.

    Exit status 0, or 2 when a file cannot be read or holds a bad row.
    """
    import json
    import math

    from tourney.formats.ratings import compute_ratings
    from tourney.store.rating_sources import (
        DEFAULT_MAX_BYTES,
        RatingsInputError,
        read_rated_matches,
    )

    if not math.isfinite(start):
        raise UsageFailure(f"--start: {start} is not a rating.")
    limit = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    matches = []
    for path in files:
        try:
            data, size = _read_record_file(path, limit)
        except OSError as error:
            raise UsageFailure(f"cannot read {path}: {error.strerror or error}") from None
        if size > limit or len(data) > limit:
            raise UsageFailure(
                f"{path}: larger than {limit:,} bytes (raise the limit with --max-bytes)."
            )
        try:
            matches.extend(read_rated_matches(path, data))
        except RatingsInputError as error:
            raise UsageFailure(error.message) from None
    # Sorted by the rating as printed, so players shown with the same rating are in
    # name order (compute_ratings orders by the unrounded rating).
    rows: list[dict[str, Any]] = sorted(
        (
            {"player": r.player, "rating": round(r.rating, 2), "experience": r.experience,
             "matches": r.matches}
            for r in compute_ratings(matches, start=start)
        ),
        key=lambda row: (-row["rating"], row["player"]),
    )
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
    elif rows:
        click.echo("\n".join(_rating_lines(rows)))
    else:
        click.echo("no rated matches")


def main() -> None:
    """Entry point of the console script."""
    try:
        cli.main(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        sys.exit(130)


@cli.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(file: Path) -> None:
    """Copy the configured database to FILE while the app may keep running.

    SQLite is copied with its online backup API; PostgreSQL is dumped with pg_dump.
    """
    from tourney.config import load_settings
    from tourney.store.backup import BackupError, backup

    try:
        backup(load_settings().database_url, file)
    except BackupError as error:
        raise UsageFailure(str(error)) from None
    click.echo(f"Database backed up to {file}.")


@cli.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def restore_command(file: Path, yes: bool) -> None:
    """Replace the configured database by the backup in FILE (psql for PostgreSQL)."""
    from tourney.config import load_settings
    from tourney.store.backup import BackupError, restore

    if not yes:
        click.confirm(
            f"Replace the whole database by the backup in {file}? Everything saved since "
            "that backup is lost.",
            abort=True,
        )
    try:
        restore(load_settings().database_url, file)
    except BackupError as error:
        raise UsageFailure(str(error)) from None
    click.echo(f"Database restored from {file}.")
