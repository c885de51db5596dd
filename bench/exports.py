"""Benchmark of the exports: every PDF, the workbook and the CSV files for 16, 128 and 512
players (a knockout with consolation and last chance, played out).

Prints the seconds per export and size, the 512/16 ratio next to the ratio of the
number of matches (linear cost means the two ratios are close), and whether a
128-player event's PDF set and workbook each stay under the 2-second target.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tourney.exports.csv import render_csv
from tourney.exports.documents import documents_from_simulation
from tourney.exports.pdf import render_drawsheets_pdf
from tourney.exports.registry import PAPERS, PDF_EXPORTS, EventSource, Export
from tourney.exports.xlsx import render_xlsx
from tourney.formats.simulation import SimulationOptions
from tourney.store.documents import EventDocument

SIZES = (16, 128, 512)
TARGET_SECONDS = 2.0


def _event(players: int) -> EventDocument:
    options = SimulationOptions("knockout", players, consolation=True, last_chance=True, seed=1)
    return documents_from_simulation(options)


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _render(export: Export, doc: EventDocument) -> object:
    return export.render(EventSource.from_document(doc), PAPERS["a4"])


def main() -> None:
    """Run every export for every size and print the table."""
    exports: dict[str, Callable[[EventDocument], object]] = {
        f"pdf {export.identifier}": (lambda doc, export=export: _render(export, doc))
        for export in PDF_EXPORTS
    }
    exports["pdf set"] = lambda doc: [_render(export, doc) for export in PDF_EXPORTS]
    exports["xlsx"] = render_xlsx
    exports["csv"] = render_csv
    render_drawsheets_pdf(_event(4))  # load fonts outside the timings
    seconds: dict[tuple[str, int], float] = {}
    matches: dict[int, int] = {}
    for size in SIZES:
        doc = _event(size)
        matches[size] = sum(
            1 for f in doc.flights for r in f.rounds for m in r.matches if m.is_playable
        )
        for name, export in exports.items():
            seconds[(name, size)] = _timed(lambda export=export, doc=doc: export(doc))
    print(f"{'export':<16}" + "".join(f"{s:>10}p" for s in SIZES) + f"{'512/16':>10}")
    for name in exports:
        row = "".join(f"{seconds[(name, s)]:>10.3f}s" for s in SIZES)
        ratio = seconds[(name, 512)] / max(seconds[(name, 16)], 1e-9)
        print(f"{name:<16}{row}{ratio:>10.1f}")
    print(
        f"{'matches':<16}"
        + "".join(f"{matches[s]:>11}" for s in SIZES)
        + f"{matches[512] / matches[16]:>10.1f}"
    )
    for name in ("pdf set", "xlsx"):
        took = seconds[(name, 128)]
        verdict = "ok" if took < TARGET_SECONDS else "OVER"
        print(f"128 players, {name}: {took:.2f}s (target < {TARGET_SECONDS:.0f}s) {verdict}")


if __name__ == "__main__":
    main()
