"""tourney: backgammon tournament and match management.

The package is layered: ``tourney.rules`` (the game), ``tourney.match`` (match-to-N
scoring), ``tourney.formats`` (draws, Swiss, standings), ``tourney.store``
(persistence), and the shells ``tourney.web``, ``tourney.exports`` and ``tourney.cli``.
Importing this package loads nothing else.
"""

__version__ = "0.1.0"
