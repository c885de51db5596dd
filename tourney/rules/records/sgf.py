"""Reading GNU Backgammon's ``.sgf`` match files into a ``MatchRecord``.

gnubg saves a match as one SGF game tree per game, each marked ``GM[6]`` (backgammon).
The root node of a tree carries the game's facts: ``MI[length:L][game:G][ws:W][bs:B]``
(match length, 0-based game number, the score before the game of White and Black),
``PW``/``PB`` (White's and Black's names), ``RE[W+2]`` or ``RE[B+1R]`` (winner, points,
``R`` for a resignation), ``RU[Crawford:Jacoby:...]`` (rules), and the match details
``EV`` (event), ``RO`` (round), ``PC`` (place), ``DT`` (date), ``AN`` (annotator) and
``GC`` (comment). Each later node is one action: ``W[double]``, ``B[take]``,
``W[drop]``, or a roll and its play ``B[52ywwr]``: the two dice, then one letter pair
per checker moved (from, to). Letters are absolute board points: ``a``..``x`` are White's
points 1..24 and Black's points 24..1, ``y`` is the bar and ``z`` off. A node
``PL[B]DI[63]`` sets dice without a play (a roll after which the player resigned).

White is gnubg's first player, the left column of its ``.mat`` export: ``Side.X``.
Actions are located by the line of their node; the reader never raises on bad input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tourney.rules.board import BAR, OFF, Side
from tourney.rules.moves import Move, Play
from tourney.rules.records.mat import DEFAULT_MAX_BYTES, MAX_DIGITS, decode_mat
from tourney.rules.records.model import (
    Action,
    ActionKind,
    ErrorKind,
    GameRecord,
    MatchRecord,
    PlayForm,
    RecordError,
)

MAX_NODES = 100_000
"""More nodes than any match has (a 25-point match has a few thousand); past this the
file is not read."""
MAX_DEPTH = 200
"""Variations nested deeper than this are not read (gnubg writes none)."""

_SIDE_OF = {"W": Side.X, "B": Side.O}
_PROPERTY = re.compile(r"[A-Za-z]+")
_RE = re.compile(r"\s*([WB])\+(\d{1,9})\s*(R?)\s*", re.IGNORECASE)
_MI_FIELD = re.compile(r"\s*(length|game|ws|bs)\s*:\s*(-?\d+)\s*", re.IGNORECASE)
_RULE_VARIATION = {
    "nackgammon": "NackGammon",
    "hypergammon1": "HyperGammon (1)",
    "hypergammon2": "HyperGammon (2)",
    "hypergammon3": "HyperGammon (3)",
}
"""gnubg's RU names of its variations, as the .mat ``[Variation]`` tag spells them."""
_INFO_TAGS = {"EV": "Event", "RO": "Round", "PC": "Site", "AN": "Transcriber"}
"""Root properties gnubg writes for the match details, and the .mat tag of each."""


class SgfSyntaxError(ValueError):
    """The text is not SGF; ``line`` is where the reader gave up."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Node:
    """One SGF node: its properties in order (each with one or more values) and its line."""

    line: int
    properties: list[tuple[str, list[str]]] = field(default_factory=list)

    def get(self, name: str) -> list[str] | None:
        """The values of the first property called ``name``, or ``None``."""
        for key, values in self.properties:
            if key == name:
                return values
        return None

    def first(self, name: str) -> str | None:
        """The first value of property ``name``, or ``None``."""
        values = self.get(name)
        return values[0] if values else None


def parse_sgf(text: str) -> list[list[Node]]:
    """The main line of each game tree of an SGF collection, as lists of nodes.

    Where a tree branches, the first variation is the main line (gnubg writes no
    variations and reads only the first).

    >>> [[n.properties for n in tree] for tree in parse_sgf("(;GM[6];W[31hefe])")]
    [[[('GM', ['6'])], [('W', ['31hefe'])]]]

    Raises:
        SgfSyntaxError: the text is not an SGF collection, or goes past the bounds.
    """
    parser = _Parser(text)
    return parser.collection()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.line = 1
        self.nodes = 0

    def fail(self, message: str) -> SgfSyntaxError:
        return SgfSyntaxError(self.line, message)

    def skip_space(self) -> None:
        text = self.text
        while self.at < len(text) and text[self.at].isspace():
            if text[self.at] == "\n":
                self.line += 1
            self.at += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.at] if self.at < len(self.text) else ""

    def collection(self) -> list[list[Node]]:
        trees = []
        while self.peek() == "(":
            trees.append(self.tree(0))
        rest = self.peek()
        if rest:
            raise self.fail(f"unexpected {rest!r} outside a game tree")
        if not trees:
            raise self.fail("no SGF game tree: the file does not start with '(;'")
        return trees

    def tree(self, depth: int) -> list[Node]:
        if depth > MAX_DEPTH:
            raise self.fail(f"variations nested more than {MAX_DEPTH} deep")
        self.at += 1  # "("
        nodes: list[Node] = []
        if self.peek() != ";":
            raise self.fail("a game tree must start with a node (';')")
        while self.peek() == ";":
            nodes.append(self.node())
        first_variation = True
        while self.peek() == "(":
            variation = self.tree(depth + 1)
            if first_variation:
                nodes.extend(variation)
                first_variation = False
        if self.peek() != ")":
            end = self.peek()
            raise self.fail(f"expected ')' to close the game tree, found "
                            f"{end!r}" if end else "the file ends inside a game tree")
        self.at += 1
        return nodes

    def node(self) -> Node:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(f"more than {MAX_NODES:,} nodes; not read")
        self.at += 1  # ";"
        node = Node(self.line)
        while True:
            self.skip_space()
            name = _PROPERTY.match(self.text, self.at)
            if name is None:
                return node
            self.at = name.end()
            values = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.fail(f"property {name.group()} has no value")
            # FF[4] property names are upper case; older files mixed in lower case.
            node.properties.append(("".join(c for c in name.group() if c.isupper()), values))

    def value(self) -> str:
        text = self.text
        self.at += 1  # "["
        out: list[str] = []
        while self.at < len(text):
            char = text[self.at]
            if char == "\\" and self.at + 1 < len(text):
                self.at += 1
                char = text[self.at]
                if char == "\n":  # an escaped line break is no character
                    self.line += 1
                    self.at += 1
                    continue
            elif char == "]":
                self.at += 1
                return "".join(out)
            if char == "\n":
                self.line += 1
            out.append(char)
            self.at += 1
        raise self.fail("the file ends inside a property value (no closing ']')")


def sgf_point(letter: str, side: Side) -> int | None:
    """A board letter as a point in the mover's own numbering (25 the bar, 0 off).

    >>> sgf_point("a", Side.X), sgf_point("a", Side.O), sgf_point("y", Side.O)
    (1, 24, 25)
    """
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    if "a" <= letter <= "x":
        index = ord(letter) - ord("a")
        return index + 1 if side is Side.X else 24 - index
    return None


def sgf_letter(point: int, side: Side) -> str:
    """The board letter of a point in the mover's own numbering (the inverse of
    ``sgf_point``).

    >>> sgf_letter(24, Side.O), sgf_letter(8, Side.X), sgf_letter(0, Side.X)
    ('a', 'h', 'z')
    """
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + (point - 1 if side is Side.X else 24 - point))


def read_sgf(
    data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> MatchRecord:
    """Read a gnubg ``.sgf`` file's contents into a ``MatchRecord``; never raises on bad
    input.

    >>> record = read_sgf("(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]RE[W+1R]"
    ...                   "\\n;W[31hefe])")
    >>> record.match_length, record.players, record.games[0].actions[0].text
    (1, ('A', 'B'), '31: 8/5 6/5')
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    total = max(size or 0, len(raw))
    if total > max_bytes:
        problem = RecordError(
            None, None,
            f"the file is {total:,} bytes, over the limit of {max_bytes:,} bytes; not read",
            ErrorKind.UNREADABLE,
        )
        return MatchRecord(None, None, problems=(problem,))
    if isinstance(data, str):
        text, encoding, bom = data.removeprefix("\ufeff"), "utf-8", data.startswith("\ufeff")
    else:
        text, encoding, bom = decode_mat(data)
    warnings: list[RecordError] = []
    if encoding != "utf-8":
        warnings.append(RecordError(None, None, "the file is not UTF-8; it was read as Latin-1"))
    if "\x00" in text:
        return _unreadable("the file holds binary data, not an SGF match record", None)
    try:
        trees = parse_sgf(text)
    except SgfSyntaxError as error:
        return _unreadable(f"not an SGF match record: {error}", error.line)
    return _Reader(trees, encoding, bom, "\r\n" in text, warnings).read()


def _beavers(actions: list[Action | None]) -> list[Action | None]:
    """gnubg records a beaver as a second double, by the doubled player, with no take
    between: read it as the .mat reader reads ``Beavers``."""
    out: list[Action | None] = []
    last: Action | None = None
    for action in actions:
        if (action is not None and last is not None and action.kind is ActionKind.DOUBLE
                and last.kind in (ActionKind.DOUBLE, ActionKind.BEAVER)
                and last.side is not action.side):
            kind = ActionKind.BEAVER if last.kind is ActionKind.DOUBLE else ActionKind.RACCOON
            action = Action(action.line, kind, action.side,
                            "Beavers" if kind is ActionKind.BEAVER else "Raccoons")
        out.append(action)
        if action is not None:
            last = action
    return out


def _unreadable(message: str, line: int | None) -> MatchRecord:
    return MatchRecord(None, None, problems=(RecordError(None, line, message,
                                                         ErrorKind.UNREADABLE),))


class _Reader:
    def __init__(self, trees: list[list[Node]], encoding: str, bom: bool, crlf: bool,
                 warnings: list[RecordError]) -> None:
        self.trees = trees
        self.encoding = encoding
        self.bom = bom
        self.crlf = crlf
        self.problems: list[RecordError] = []
        self.warnings = warnings
        self.tags: list[tuple[str, str]] = []
        self.comments: list[str] = []

    def problem(self, game: int | None, line: int | None, message: str,
                kind: ErrorKind = ErrorKind.SYNTAX) -> None:
        self.problems.append(RecordError(game, line, message, kind))

    def read(self) -> MatchRecord:
        games: list[GameRecord] = []
        length: int | None = None
        length_line: int | None = None
        players: tuple[str, str] | None = None
        for number, nodes in enumerate(self.trees, start=1):
            root = nodes[0]
            kind = root.first("GM")
            if kind is None or kind.strip() != "6":
                self.problem(number, root.line,
                             f"game tree {number} is not backgammon: GM[{kind or ''}] where "
                             "gnubg writes GM[6]", ErrorKind.HEADER)
                continue
            info = self._match_info(number, root)
            if info is None:
                continue
            game_length, score = info
            if length is None:
                length, length_line = game_length, root.line
                self._root_tags(root, game_length)
            elif game_length != length:
                self.problem(number, root.line,
                             f"game {number} says the match is to {game_length}, the first "
                             f"game to {length}", ErrorKind.HEADER)
            names = (root.first("PW") or "", root.first("PB") or "")
            if players is None:
                players = names
            actions = _beavers([self._action(number, node) for node in nodes[1:]])
            actions.extend(self._result(number, root))
            games.append(GameRecord(
                number=number, line=root.line, score=score, score_line=root.line,
                names=names, actions=tuple(a for a in actions if a is not None),
            ))
        if length is None and not self.problems:
            self.problem(None, None, "not an SGF match record: no backgammon game tree",
                         ErrorKind.HEADER)
        return MatchRecord(
            match_length=length, players=players, games=tuple(games), tags=tuple(self.tags),
            comments=tuple(self.comments), length_line=length_line, encoding=self.encoding,
            bom=self.bom, crlf=self.crlf, problems=tuple(self.problems),
            warnings=tuple(self.warnings),
        )

    def _match_info(self, number: int, root: Node) -> tuple[int, tuple[int, int]] | None:
        fields: dict[str, int] = {}
        for value in root.get("MI") or ():
            found = _MI_FIELD.fullmatch(value)
            if found is None:
                continue
            digits = len(found.group(2).lstrip("-"))
            if digits > MAX_DIGITS:
                self.problem(number, root.line, f"MI[{found.group(1)}:...] has {digits:,} "
                             "digits, more than any match needs; not read", ErrorKind.BOUNDS)
                return None
            fields[found.group(1).lower()] = int(found.group(2))
        length = fields.get("length", 0)
        if length < 0:
            self.problem(number, root.line, f"a match length of {length} is impossible",
                         ErrorKind.HEADER)
            return None
        if "length" not in fields:
            self.warnings.append(RecordError(number, root.line, "no MI[length:...]: read as "
                                             "a money session, as gnubg does"))
        return length, (fields.get("ws", 0), fields.get("bs", 0))

    def _root_tags(self, root: Node, length: int) -> None:
        for key, tag in _INFO_TAGS.items():
            value = root.first(key)
            if value is not None:
                self.tags.append((tag, value))
        date = root.first("DT")
        if date is not None:
            self.tags.append(("EventDate", date.replace("-", ".")))
        rules = {part.strip().lower() for part in (root.first("RU") or "").split(":")}
        if length > 0:
            self.tags.append(("Crawford", "On" if "crawford" in rules else "Off"))
        if "jacoby" in rules:
            self.tags.append(("Jacoby", "On"))
        for rule in rules:
            if rule in _RULE_VARIATION:
                self.tags.append(("Variation", _RULE_VARIATION[rule]))
        if "nocube" in rules:
            self.tags.append(("CubeLimit", "1"))
        comment = root.first("GC")
        if comment:
            self.comments.extend(comment.splitlines())

    def _action(self, number: int, node: Node) -> Action | None:
        for name in ("AE", "AB", "AW", "CP"):
            if node.get(name) is not None:
                self.problem(number, node.line, f"{name}[...] edits the position; records "
                             "with edited positions are not checked")
                return None
        mover = next(((key, values) for key, values in node.properties
                      if key in _SIDE_OF), None)
        if mover is None:
            dice = node.first("DI")
            turn = node.first("PL")
            if dice is not None and turn is not None and turn.strip() in _SIDE_OF:
                return self._roll(number, node.line, _SIDE_OF[turn.strip()], dice.strip(),
                                  dice_only=True)
            if node.get("CV") is not None:
                self.problem(number, node.line, "CV[...] sets the cube by hand; records "
                             "with a cube set by hand are not checked")
            return None
        side = _SIDE_OF[mover[0]]
        value = mover[1][0].strip()
        word = value.lower()
        if word == "double":
            return Action(node.line, ActionKind.DOUBLE, side, "Doubles")
        if word == "take":
            return Action(node.line, ActionKind.TAKE, side, "Takes")
        if word == "drop":
            return Action(node.line, ActionKind.DROP, side, "Drops")
        return self._roll(number, node.line, side, value, dice_only=False)

    def _roll(self, number: int, line: int, side: Side, value: str, *,
              dice_only: bool) -> Action:
        name = "BW"[side is Side.X]
        if len(value) < 2 or not all("1" <= c <= "6" for c in value[:2]):
            self.problem(number, line, f"{name}[{value[:20]}]: a roll starts with two dice "
                         "1-6")
            return Action(line, ActionKind.ROLL, side, value[:40], form=PlayForm.UNREADABLE)
        dice = (int(value[0]), int(value[1]))
        head = f"{dice[0]}{dice[1]}:"
        if dice_only:
            return Action(line, ActionKind.ROLL, side, f"{head} ???", dice, PlayForm.UNKNOWN)
        letters = value[2:]
        points = [sgf_point(letter, side) for letter in letters]
        bad = next((letters[i] for i, point in enumerate(points) if point is None), None)
        problem = None
        if bad is not None:
            problem = f"{bad!r} is no board point (a-x, y the bar, z off)"
        elif len(letters) % 2:
            problem = "the play has an odd number of letters (one pair per checker moved)"
        elif len(letters) > 8:
            problem = "more than four checker moves in one roll"
        if problem is not None:
            self.problem(number, line, f"{name}[{value[:20]}]: {problem}")
            return Action(line, ActionKind.ROLL, side, f"{head} {letters[:20]}", dice,
                          PlayForm.UNREADABLE)
        if not letters:
            return Action(line, ActionKind.ROLL, side, head, dice, PlayForm.DANCE)
        moves = tuple(Move(origin, destination) for origin, destination
                      in zip(points[0::2], points[1::2], strict=True)
                      if origin is not None and destination is not None)
        play = Play(moves)
        return Action(line, ActionKind.ROLL, side, f"{head} {play}", dice, PlayForm.MOVED,
                      play)

    def _result(self, number: int, root: Node) -> list[Action]:
        result = root.first("RE")
        if result is None:
            return []
        found = _RE.fullmatch(result)
        if found is None:
            self.problem(number, root.line, f"RE[{result[:20]}] is not a result (W+N or B+N, "
                         "R after N for a resignation)", ErrorKind.RESULT)
            return []
        side = _SIDE_OF[found.group(1).upper()]
        points = int(found.group(2))
        text = f"Wins {points} point{'' if points == 1 else 's'}"
        return [Action(root.line, ActionKind.WIN, side, text, value=points)]
