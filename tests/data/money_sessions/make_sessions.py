"""Make the money sessions of this folder: GNU Backgammon playing itself.

    python3 make_sessions.py [--sessions 12] [--games 8]

Each session is played by gnubg against itself (0-ply, some evaluation noise, so that
gammons on a centred cube, beavers and odd cube actions happen), half with the Jacoby rule
on and half with it off, beavers allowed. gnubg writes the .mat (no rule tags: gnubg tags
nothing) and prints the session's total after each game; ``sessions.json`` keeps the last
total of each, the oracle the tests compare with.

The script runs itself inside gnubg (``gnubg -t -q -r -p``); the settings travel in the
environment.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

# gnubg runs the file without a __file__; inside it only the settings are needed.
HERE = Path(globals().get("__file__", ".")).resolve().parent
SETTINGS = "MONEY_SESSION_SETTINGS"
TOTAL_LINE = r"The score \(after \d+ games?\) is: Anna (\d+), Boris (\d+)"
"""What gnubg prints after each game of a session: the running totals."""


def play_inside_gnubg(settings: dict[str, object]) -> None:
    """Inside gnubg: play one session and export it."""
    import gnubg  # type: ignore[import-not-found]  # gnubg's embedded Python only

    command = gnubg.command
    for line in (
        "set display off",
        "set delay 0",
        "set confirm new off",
        "set confirm save off",
        "set automatic game off",
        "set automatic roll on",
        "set cube use on",
        f"set jacoby {'on' if settings['jacoby'] else 'off'}",
        "set beavers 3",
        "set rng mersenne",
        f"set seed {settings['seed']}",
    ):
        command(line)
    for player in (0, 1):
        command(f"set player {player} gnubg")
        command(f"set player {player} name {('Anna', 'Boris')[player]}")
        for kind in ("chequerplay", "cubedecision"):
            command(f"set player {player} {kind} evaluation plies 0")
            command(f"set player {player} {kind} evaluation noise {settings['noise']}")
    command("new session")
    for _ in range(int(str(settings["games"])) - 1):
        command("new game")
    command(f"export match mat {settings['file']}")


def main() -> None:
    """Play the sessions and write ``sessions.json``."""
    sessions = int(sys.argv[sys.argv.index("--sessions") + 1]) if "--sessions" in sys.argv else 12
    games = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 8
    manifest = []
    for number in range(sessions):
        jacoby = number % 2 == 0
        name = f"money_{'jacoby' if jacoby else 'plain'}_{number:02d}.mat"
        settings = {
            "seed": 1000 + number,
            "jacoby": jacoby,
            "games": games,
            "noise": 0.06 if number % 4 < 2 else 0.12,
            "file": str(HERE / name),
        }
        run = subprocess.run(
            ["gnubg", "-t", "-q", "-r", "-p", __file__],
            env={**os.environ, SETTINGS: json.dumps(settings)},
            capture_output=True,
            text=True,
            check=True,
        )
        totals = re.findall(TOTAL_LINE, run.stdout)
        anna, boris = totals[-1]
        manifest.append({"file": name, "jacoby": jacoby, "totals": [int(anna), int(boris)]})
        print(name, anna, boris)
    (HERE / "sessions.json").write_text(json.dumps(manifest, indent=1) + "\n")


if SETTINGS in os.environ:
    play_inside_gnubg(json.loads(os.environ[SETTINGS]))
elif __name__ == "__main__":
    main()
