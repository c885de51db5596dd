"""Record gnubg's own boards and Position IDs from real matches, as test data.

Run inside GNU Backgammon's embedded Python, with the match files named in the
environment:

    TOURNEY_MAT_FILES="a.mat b.mat" /usr/games/gnubg -t -q -p record_gnubg_positions.py

Prints one line per position: the Position ID gnubg shows, then the 50 counts of
gnubg's board (the side not on roll's points 1-24 and bar, then the side on roll's).
"""

import os

import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
seen = set()
for path in os.environ["TOURNEY_MAT_FILES"].split():
    gnubg.command(f"import mat {path}")
    games = len(gnubg.match(analysis=False, boards=False, statistics=False)["games"])
    for game in range(games):
        gnubg.command("first game")
        for _ in range(game):
            gnubg.command("next game")
        unchanged = 0
        while unchanged < 6:
            position_id = gnubg.positionid()
            if position_id not in seen:
                seen.add(position_id)
                board = gnubg.board() or gnubg.positionfromid(position_id)
                counts = [str(count) for side in board for count in side]
                print("POSITION", position_id, " ".join(counts))
            gnubg.command("next")
            unchanged = unchanged + 1 if gnubg.positionid() == position_id else 0
