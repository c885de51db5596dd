"""Each player's chance to win a match from its score, from gnubg's match equity table.

Terminology: *away* is how many points a player still needs (0: the match is won). The
table gnubg ships (Kazaross-XG2) has one part for games before the Crawford game and
for the Crawford game itself (a player 1-away facing the Crawford game), and one for
post-Crawford games, where the leader is 1-away and the trailer may double freely.
"""

from __future__ import annotations

from tourney.analysis.engine import in_engine_thread, load_gnubg
from tourney.match import GameKind


def winning_chances(away: tuple[int, int], next_kind: GameKind | None) -> tuple[float, float]:
    """The two players' chances (0..1, adding to 1) to win the match from ``away``.

    ``next_kind`` is the kind of the next game as match scoring knows it (Crawford or
    post-Crawford matters only where a player is 1-away); ``None`` once the match is
    over, when the winner (the player 0-away) has 1.

    Raises:
        AnalysisUnavailable: the evaluator is not installed.
        ValueError: an away count is negative, or both are 0.
    """
    first, second = away
    if first < 0 or second < 0 or (first == 0 and second == 0):
        raise ValueError(f"no match stands at {first}-away, {second}-away")
    if first == 0 or second == 0:
        return (1.0, 0.0) if first == 0 else (0.0, 1.0)
    gnubg = load_gnubg()
    table = in_engine_thread(gnubg.met, max(first, second))
    pre_crawford, post_crawford = table[0], table[1]
    if next_kind is GameKind.POST_CRAWFORD and 1 in (first, second) and first != second:
        # The trailer's chance at a post-Crawford score, by the trailer's away count.
        if first == 1:
            trailer = float(post_crawford[second - 1])
            return (1.0 - trailer, trailer)
        trailer = float(post_crawford[first - 1])
        return (trailer, 1.0 - trailer)
    # Before the Crawford game and in it (a player 1-away before the Crawford game is
    # played is always about to play it), the table's first part.
    chance = float(pre_crawford[first - 1][second - 1])
    return (chance, 1.0 - chance)
