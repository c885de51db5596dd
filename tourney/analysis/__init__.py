"""Analysis of match records and match-winning chances with GNU Backgammon's evaluator.

The evaluator comes from the optional ``gnubg`` package (GPL), installed with the
``tourney[analysis]`` extra. Without it every entry point raises
``AnalysisUnavailable`` and the command line and the app say that analysis is not
installed. Imports the rules core and match scoring only.
"""

from tourney.analysis.chances import winning_chances
from tourney.analysis.engine import AnalysisUnavailable, is_available
from tourney.analysis.match_analysis import (
    Decision,
    MatchAnalysis,
    PlayerFigures,
    analyse_record,
    rating_words,
)

__all__ = [
    "AnalysisUnavailable",
    "Decision",
    "MatchAnalysis",
    "PlayerFigures",
    "analyse_record",
    "is_available",
    "rating_words",
    "winning_chances",
]
