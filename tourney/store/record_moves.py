"""The moves of a match's record, game by game, as its match pages list them.

A match played from an uploaded record shows every roll and play of the record that was
used (the newest valid upload), with the name of each roll in the language the event
chose (``tourney.rules.dice_names``: du ek, dubara, shesh besh ...). The record was
checked when it was uploaded, so here it is only read again, never replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from tourney.i18n import DEFAULT_LANGUAGE
from tourney.rules.dice import Roll
from tourney.rules.dice_names import DiceNames, dice_names_for
from tourney.rules.messages import N_
from tourney.rules.records import read_record
from tourney.rules.records.model import ActionKind, MatchRecord, PlayForm
from tourney.store.tables import UploadedRecord


@dataclass(frozen=True)
class TurnView:
    """One roll of a record and what was played with it."""

    player: str
    dice: str
    """As players say it: ``5-2``."""
    dice_name: str
    """The roll's name in the event's language; empty where the event shows none."""
    dice_name_language: str
    play: str
    """The play as written (``13/8 24/22``), or what stood for it (``cannot move``)."""


@dataclass(frozen=True)
class GameMoves:
    """The rolls of one game of a record, in order."""

    number: int
    turns: tuple[TurnView, ...]


def match_moves(
    session: Session, match_id: int, dice_names: str, language: str = DEFAULT_LANGUAGE
) -> tuple[GameMoves, ...]:
    """The games of the record the match was played from (none without a valid upload),
    each roll named in ``dice_names`` (a registered key; empty: no names)."""
    upload = session.exec(
        select(UploadedRecord)
        .where(UploadedRecord.match_id == match_id, col(UploadedRecord.is_valid))
        .order_by(col(UploadedRecord.id).desc())
        .limit(1)
    ).first()
    if upload is None:
        return ()
    naming = dice_names_for(dice_names, language)
    return _games(_read(upload.filename, upload.original_text), naming)


def _read(filename: str, text: str) -> MatchRecord:
    # Checked when uploaded; a record that no longer reads shows no moves.
    return read_record(filename, text)


def _games(record: MatchRecord, naming: DiceNames | None) -> tuple[GameMoves, ...]:
    names = record.players or ("", "")
    out = []
    for game in record.games:
        turns = []
        for action in game.actions:
            if action.kind is not ActionKind.ROLL or action.dice is None or action.side is None:
                continue
            roll = Roll(*action.dice)
            turns.append(
                TurnView(
                    player=names[action.side],
                    dice=f"{roll.first}-{roll.second}",
                    dice_name=naming.name_of(roll) if naming is not None else "",
                    dice_name_language=naming.language if naming is not None else "",
                    play=_play_text(action.text, action.form),
                )
            )
        out.append(GameMoves(game.number, tuple(turns)))
    return tuple(out)


def _play_text(text: str, form: PlayForm | None) -> str:
    """The play part of a roll as written (``52: 13/8 24/22`` -> ``13/8 24/22``)."""
    if form is PlayForm.DANCE:
        return N_("cannot move")
    _, _, play = text.partition(":")
    return play.strip() or text
