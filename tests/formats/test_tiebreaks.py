"""The tiebreak registry: lookups by key, refusals that say what exists, the words shown."""

from __future__ import annotations

import pytest

from tourney.formats import tiebreaks
from tourney.formats.errors import FormatInvariantError, FormatUserError
from tourney.formats.tiebreaks import (
    TIEBREAKS,
    tiebreak_chain,
    tiebreak_named,
    tiebreak_of_metric,
)

STORED_KEYS = (
    "head_to_head",
    "buchholz",
    "median_buchholz",
    "buchholz_cut1",
    "sonneborn_berger",
    "net_game_points",
    "game_points",
)
"""The names events have stored since the first release (DESIGN §4 lists the tiebreaks),
then game points (draws counting half)."""


def test_tiebreaks_are_offered_in_the_design_order_under_their_stored_keys() -> None:
    assert tuple(t.key for t in TIEBREAKS) == STORED_KEYS


def test_tiebreak_named_finds_every_tiebreak_by_its_key() -> None:
    assert [tiebreak_named(key) for key in STORED_KEYS] == list(TIEBREAKS)


def test_unknown_tiebreak_is_refused_listing_the_known_keys() -> None:
    with pytest.raises(FormatUserError) as caught:
        tiebreak_named("coin_toss")

    assert str(caught.value) == (
        "Unknown tiebreak 'coin_toss': use one of head_to_head, buchholz, median_buchholz, "
        "buchholz_cut1, sonneborn_berger, net_game_points, game_points."
    )


def test_chain_keeps_the_order_given() -> None:
    chain = tiebreak_chain(["net_game_points", "head_to_head", "buchholz"])

    assert chain == (tiebreaks.NET_GAME_POINTS, tiebreaks.HEAD_TO_HEAD, tiebreaks.BUCHHOLZ)


def test_chain_refuses_a_tiebreak_named_twice() -> None:
    with pytest.raises(FormatUserError) as caught:
        tiebreak_chain(["buchholz", "net_game_points", "buchholz"])

    assert str(caught.value) == "Each tiebreak may appear once in the chain."


def test_chain_with_an_unknown_key_is_refused_whatever_its_place() -> None:
    with pytest.raises(FormatUserError, match="Unknown tiebreak 'progressive'"):
        tiebreak_chain(["buchholz", "progressive"])


def test_headings_capitalise_the_name_a_sentence_uses() -> None:
    names = [(t.name, t.title) for t in TIEBREAKS]

    assert names == [
        ("head-to-head", "Head-to-head"),
        ("Buchholz", "Buchholz"),
        ("median Buchholz", "Median Buchholz"),
        ("Buchholz minus worst opponent", "Buchholz minus worst opponent"),
        ("Sonneborn-Berger", "Sonneborn-Berger"),
        ("net game points", "Net game points"),
        ("game points", "Game points"),
    ]


def test_short_names_fit_a_narrow_column() -> None:
    # A printed standings column is 52 points wide: ten characters at most.
    assert [len(t.short_name) <= 10 for t in TIEBREAKS] == [True] * len(TIEBREAKS)


def test_every_tiebreak_explains_itself_in_one_sentence() -> None:
    sentences = [t.explanation.count(". ") == 0 and t.explanation.endswith(".") for t in TIEBREAKS]

    assert sentences == [True] * len(TIEBREAKS)


def test_only_head_to_head_depends_on_who_is_tied() -> None:
    assert [t.key for t in TIEBREAKS if t.within_group] == ["head_to_head"]


def test_standings_values_lead_back_to_their_tiebreak() -> None:
    # The names `tourney simulate` writes in its standings rows.
    metric_keys = ["median-buchholz", "buchholz-minus-worst", "net-game-points"]

    found = [tiebreak_of_metric(key) for key in metric_keys]

    assert found == [
        tiebreaks.MEDIAN_BUCHHOLZ,
        tiebreaks.BUCHHOLZ_MINUS_WORST,
        tiebreaks.NET_GAME_POINTS,
    ]


def test_a_value_no_tiebreak_writes_is_an_invariant_error() -> None:
    with pytest.raises(FormatInvariantError, match="'luck'"):
        tiebreak_of_metric("luck")


def test_repr_names_the_lookup_that_gives_the_tiebreak_back() -> None:
    assert repr(tiebreaks.SONNEBORN_BERGER) == "tiebreak_named('sonneborn_berger')"
