"""PDF exports read back with poppler: names, scores, headings and page counts.

Every test also renders the document's first page to ``test-artifacts/`` so a person can
look at it (pdftoppm).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from exports_builders import (
    HAND_NAMES,
    PdfWord,
    fed_knockout_event,
    first_page_png,
    hand_event,
    knockout_event,
    pdf_pages,
    pdf_text,
    pdf_words,
)

from tourney.exports.documents import SAMPLE_NAMES, documents_from_simulation
from tourney.exports.pdf import (
    render_drawsheets_pdf,
    render_pairings_pdf,
    render_scoresheets_pdf,
    render_standings_pdf,
)
from tourney.exports.registry import PAPERS, PDF_EXPORTS, EventSource
from tourney.formats.simulation import SimulationOptions
from tourney.store.documents import EventDocument, FlightDocument, PlayerDocument, StandingRow


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_drawsheet_hand_event_shows_names_seeds_scores_and_rounds(tmp_path: Path) -> None:
    rendered = render_drawsheets_pdf(hand_event())
    text = _squash(pdf_text(rendered.content, tmp_path))
    assert (rendered.filename, rendered.content_type) == (
        "hand-made-cup-drawsheets.pdf",
        "application/pdf",
    )
    for seed, name in HAND_NAMES.items():
        assert f"[{seed}] {name}" in text
    # Semifinals to 5, the final to 7; the champion is seed 3.
    assert "Semifinal 5 points" in text or ("Semifinal" in text and "5 points" in text)
    assert "7 points" in text
    assert re.search(r"\[1\] Bjørn Ødegård 6", text)
    assert re.search(r"\[3\] Αλέξανδρος 7", text)
    assert text.count("Αλέξανδρος") == 3  # round 1, final, winner
    first_page_png(rendered.content, "drawsheet-hand")


def test_drawsheet_before_play_has_first_round_names_and_blank_lines(tmp_path: Path) -> None:
    rendered = render_drawsheets_pdf(hand_event(played=False))
    text = pdf_text(rendered.content, tmp_path)
    assert [name in text for name in HAND_NAMES.values()] == [True] * 4
    assert (
        re.search(r"\b[5-7]\b(?! points)", text.replace("5 points", "").replace("7 points", ""))
        is None
    )
    first_page_png(rendered.content, "drawsheet-hand-empty")


@pytest.mark.parametrize(
    ("players", "pages"),
    [
        # main 8 (1 page), consolation of 4 round-1 losers (1), last chance of 2+1 (1)
        (8, 3),
        # 32 players fit a page; consolation 16, last chance 8+4 -> 16
        (32, 3),
        # main: sections A, B + finals; consolation 32 (1); last chance 16+8 -> 32 (1)
        (64, 5),
        # main: 4 sections + finals; consolation 64 (2 + finals); last chance 32+16 -> 64 (3)
        (128, 11),
    ],
)
def test_drawsheet_page_counts_with_consolation_and_last_chance(
    players: int, pages: int, tmp_path: Path
) -> None:
    played = render_drawsheets_pdf(knockout_event(players))
    empty = render_drawsheets_pdf(knockout_event(players, played=False))
    assert (pdf_pages(played.content, tmp_path), pdf_pages(empty.content, tmp_path)) == (
        pages,
        pages,
    )
    first_page_png(played.content, f"drawsheet-{players}")
    if players == 128:
        text = pdf_text(played.content, tmp_path)
        assert "Section D" in text and "Finals" in text and "continues on page 5" in text


def test_drawsheet_poster_puts_64_players_on_one_a3_page(tmp_path: Path) -> None:
    rendered = render_drawsheets_pdf(knockout_event(64), poster=True)
    # main 64 (1), consolation 32 (1), last chance 32 (1)
    assert pdf_pages(rendered.content, tmp_path) == 3
    first_page_png(rendered.content, "drawsheet-64-poster")


def test_drawsheet_letter_paper_is_landscape(tmp_path: Path) -> None:
    rendered = render_drawsheets_pdf(knockout_event(8), paper="letter")
    first_page_png(rendered.content, "drawsheet-8-letter")
    assert b"/MediaBox [ 0 0 792 612 ]" in rendered.content


def test_every_document_prints_every_sample_name(tmp_path: Path) -> None:
    source = EventSource.from_document(knockout_event(8))
    for export in PDF_EXPORTS:
        (rendered,) = export.render(source, PAPERS["a4"])
        text = pdf_text(rendered.content, tmp_path, export.identifier)
        assert [name for name in SAMPLE_NAMES if name not in text] == [], export.identifier
        first_page_png(rendered.content, f"{export.identifier}-8")


def test_consolation_pages_say_where_losers_go_and_come_from(tmp_path: Path) -> None:
    text = _squash(pdf_text(render_drawsheets_pdf(knockout_event(8)).content, tmp_path))
    assert "losers → Consolation" in text
    assert "Entered by the losers of Main round 1" in text
    assert "Fresh draw of the losers of Consolation rounds 1, 2" in text


SLOT_LABEL = re.compile(r"(?:First-match loser|Loser|Winner) of (?:[A-Z][a-z]+ )?R\d M\d|\bbye\b")
"""What a drawsheet writes on a slot line whose player is not known."""


def _last_chance_page(data: bytes, tmp_path: Path) -> str:
    text = pdf_text(data, tmp_path)
    return text[text.index("Last chance — drawsheet") :]


def test_last_chance_drawsheet_says_where_every_empty_slot_comes_from(tmp_path: Path) -> None:
    doc = fed_knockout_event(12, played=False)
    # Twelve players in 16 slots: seed 2 draws main round 1 with matches 1, 2, 6 and 7
    # played and byes in 3, 4, 5 and 8. The consolation takes those four losers and the
    # first-match losers of main round 2 matches 2, 3 and 4 (a bye holder in each): 7 in
    # 8 slots, so its match 4 is a bye and has no loser. The last chance takes the losers
    # of consolation round 1 matches 1-3 and round 2 matches 1-2: 5 in 8 slots, 3 byes.
    main_round_1 = [m.status for m in doc.flights[0].rounds[0].matches]
    assert main_round_1 == ["ready", "ready", "bye", "bye", "bye", "ready", "ready", "bye"]
    rendered = render_drawsheets_pdf(doc)

    page = _last_chance_page(rendered.content, tmp_path)

    assert sorted(SLOT_LABEL.findall(page)) == sorted(
        [
            *(f"Loser of Consolation R1 M{n}" for n in (1, 2, 3)),
            "Loser of Consolation R2 M1",
            "Loser of Consolation R2 M2",
            *(["bye"] * 3),
            *(f"Winner of R1 M{n}" for n in (1, 2, 3, 4)),
            "Winner of R2 M1",
            "Winner of R2 M2",
        ]
    )
    first_page_png(rendered.content, "drawsheet-fed-12-empty")


def test_finished_drawsheets_show_no_placeholders(tmp_path: Path) -> None:
    # Seed 2 leaves slots nobody reached: a consolation match whose bye holder won in main
    # round 2, and a last-chance match fed by the loser of a consolation bye.
    doc = fed_knockout_event(12, played=True)
    rendered = render_drawsheets_pdf(doc)

    text = pdf_text(rendered.content, tmp_path)

    assert [f.champion is not None for f in doc.flights] == [True, True, True]
    assert [label for label in SLOT_LABEL.findall(text) if label != "bye"] == []


def test_pairings_list_by_table_and_alphabetically(tmp_path: Path) -> None:
    rendered = render_pairings_pdf(hand_event(played=False))
    text = _squash(pdf_text(rendered.content, tmp_path))
    assert "Main — Semifinal — pairings by table" in text
    assert "Main — Semifinal — find your name" in text
    assert "Matches to 5 points" in text
    # Table 1: seeds 1 v 4; table 2: seeds 2 v 3 (standard seeding order 1, 4, 2, 3).
    assert "1 Bjørn Ødegård [1] Şükrü Çağlar [4]" in text
    assert "2 Дмитрий Иванов [2] Αλέξανδρος [3]" in text
    alphabetical = text[text.index("find your name") :]
    order = [alphabetical.index(n) for n in ("Bjørn", "Şükrü", "Αλέξανδρος", "Дмитрий")]
    assert order == sorted(order)
    first_page_png(rendered.content, "pairings-hand")


def test_scoresheet_lists_games_crawford_and_running_score(tmp_path: Path) -> None:
    rendered = render_scoresheets_pdf(hand_event(), round_number=1)
    text = _squash(pdf_text(rendered.content, tmp_path))
    assert "no doubling in the first game after a player reaches 4 (N−1)" in text
    assert "Match to 5 points" in text
    # game, cube, Crawford mark, winner, how, points, running score A and B
    assert "4 1 C B played · single 1 4 3" in text
    assert "3 2 A dropped 2 4 2" in text
    assert "5 1 A resigned · single 1 5 3" in text
    assert "Signature A: Bjørn Ødegård" in text
    assert pdf_pages(rendered.content, tmp_path) == 1  # two matches, two to a page
    first_page_png(rendered.content, "scoresheet-hand")


def test_scoresheet_of_an_eleven_point_match_takes_a_whole_page(tmp_path: Path) -> None:
    options = SimulationOptions("knockout", 4, match_length=11, seed=2)
    rendered = render_scoresheets_pdf(documents_from_simulation(options, played=False))
    # Round 1 has two matches of up to 21 games each: one sheet a page.
    assert pdf_pages(rendered.content, tmp_path) == 2


def test_standings_show_places_with_tie_marks(tmp_path: Path) -> None:
    rendered = render_standings_pdf(hand_event())
    text = _squash(pdf_text(rendered.content, tmp_path))
    assert "Main — final standings" in text
    assert "1 Αλέξανδρος 2 Winner" in text
    assert "2 Bjørn Ødegård 1 Final" in text
    assert "=3 Дмитрий Иванов 0 Semifinal" in text
    assert "=3 Şükrü Çağlar 0 Semifinal" in text


def test_swiss_standings_have_tiebreak_columns(tmp_path: Path) -> None:
    # The simulated Swiss chains Buchholz, median Buchholz and net game points: the
    # printed columns carry the tiebreaks' short names from the registry.
    doc = documents_from_simulation(SimulationOptions("swiss", 9, seed=4))
    rendered = render_standings_pdf(doc)
    text = pdf_text(rendered.content, tmp_path)
    # Headings as pdftotext reads them, spaces left out: the narrow columns run together.
    headings = re.sub(r"\s+", "", text)
    assert "PlacePlayerWinsBuch.Med.Buch.NetWhyahead" in headings
    first_page_png(rendered.content, "standings-swiss")


CLUB_NIGHT = ("Anna Lindqvist", "Bartholomew Ashford", "Chen Wei", "Dorota Wójcik")


def _swiss_standings(labels: tuple[str, ...]) -> EventDocument:
    """A Swiss flight of four whose standings carry one column per label."""
    rows = tuple(
        StandingRow(
            player_id=number,
            name=name,
            rank=number,
            tied=False,
            metrics=tuple(
                (label, 10 * (4 - number) - 3 * column) for column, label in enumerate(labels)
            ),
            reason=f"{labels[1]} {30 - number} vs {29 - number}" if number < 4 else None,
        )
        for number, name in enumerate(CLUB_NIGHT, start=1)
    )
    return EventDocument(
        name="Club night",
        slug="club-night",
        players=tuple(PlayerDocument(n, name) for n, name in enumerate(CLUB_NIGHT, start=1)),
        flights=(FlightDocument(name="Swiss", format="swiss", rounds=(), standings=rows),),
    )


def _heading_columns(words: list[PdfWord]) -> list[str]:
    """The table's column headings left to right: the heading-row words grouped where their
    boxes share horizontal space or stand a space apart, each group read line by line (a
    wrapped heading's lines joined, spaces dropped)."""
    title = next(w for w in words if w.text == "Swiss")
    first_row = next(w for w in words if w.text == CLUB_NIGHT[0].split()[0])
    heading = sorted(
        (w for w in words if title.bottom <= w.top and w.bottom <= first_row.top),
        key=lambda w: w.left,
    )
    columns: list[list[PdfWord]] = []
    for word in heading:
        # A space in 8.5 pt type is under 3 pt; columns stand at least 8 pt apart.
        if columns and word.left < max(w.right for w in columns[-1]) + 5:
            columns[-1].append(word)
        else:
            columns.append([word])
    return ["".join(w.text for w in sorted(c, key=lambda w: (w.top, w.left))) for c in columns]


@pytest.mark.parametrize(
    "labels",
    [
        # The standings' own short headings, the whole chain after match wins.
        ("Wins", "H2H", "Buchholz", "Median BH", "BH−worst", "S-B", "Net pts"),
        # The tiebreaks' full names (DESIGN §4), the longest headings there are.
        (
            "Wins",
            "Head-to-head",
            "Buchholz",
            "Median Buchholz",
            "Buchholz minus worst",
            "Sonneborn-Berger",
            "Net game points",
        ),
    ],
)
def test_standings_headings_of_the_longest_tiebreak_chain_never_overlap(
    labels: tuple[str, ...], tmp_path: Path
) -> None:
    rendered = render_standings_pdf(_swiss_standings(labels))

    words = pdf_words(rendered.content, tmp_path)
    text = pdf_text(rendered.content, tmp_path)

    # Every player's name prints whole.
    assert [name for name in CLUB_NIGHT if name not in text] == []
    # Every heading reads as itself, in its own column, in order.
    expected = ["Place", "Player", *labels, "Why ahead"]
    assert _heading_columns(words) == [label.replace(" ", "") for label in expected]
    # No two words on the page share any ink, and none runs past the right margin (A4,
    # 28 pt margins).
    touching = [
        (a.text, b.text) for i, a in enumerate(words) for b in words[i + 1 :] if a.overlaps(b)
    ]
    assert touching == []
    assert max(w.right for w in words) <= 595.28 - 28 + 0.5
    first_page_png(rendered.content, f"standings-longest-chain-{len(labels[1])}")


def test_pdf_output_is_reproducible() -> None:
    doc = hand_event()
    assert render_drawsheets_pdf(doc).content == render_drawsheets_pdf(doc).content


def test_scoresheet_of_a_tavli_match_names_each_games_variant(tmp_path: Path) -> None:
    tavli = dataclasses.replace(hand_event(), match_form="tavli")

    rendered = render_scoresheets_pdf(tavli, round_number=1)
    text = _squash(pdf_text(rendered.content, tmp_path))

    assert "Match to 5 points · Tavli" in text
    assert "Portes, Plakoto and Fevga in turn, first to the match length, no cube." in text
    assert "Crawford" not in text and "N−1" not in text
    # Rows 1 to 7 go Portes, Plakoto, Fevga and round again, filled in or not.
    for number, variant in enumerate(["Portes", "Plakoto", "Fevga"] * 2 + ["Portes"], 1):
        assert f"{number} {variant}" in text
    first_page_png(rendered.content, "scoresheet-tavli")
