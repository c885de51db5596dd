// Lists every turn result long-nardy-engine (DmitriiNov/long-nardy-engine, MIT) allows
// for the long nardy positions given on standard input. Used by
// tests/variants/make_long_nardy_engine_data.py; nothing of that project is part of
// tourney: its compiled code is loaded by path from a built copy given as the argument.
//
// Input: {"cases": [{"mover": [24 counts], "opponent": [24 counts], "first": bool,
// "dice": [a, b]}]}, each side's counts indexed as the engine's boards are (index 0 the
// side's head, its own 24 point; index 23 its own 1 point). Output: one answer per case,
// {"ends": [[24 counts of the mover], ...]}, the distinct mover boards the engine's move
// tree leads to (the opponent's board never changes: nothing is hit).
//
// The engine's own functions decide everything: LongNardyEngine.SetPossibleMoves builds
// the tree of single moves allowed by its validators (moveValidators.ts) and keeps the
// branches of the greatest pip sum (MovesTreeNode.filterMovesTree); allMovesToArray lists
// its paths. The mover is the engine's White; "first" gives the turn's moveNumber 1 (the
// head rule's first-roll exception applies while moveNumber < 3), else 3.

'use strict';

const path = require('path');

const checkout = process.argv[2];
const load = (name) => require(path.join(checkout, 'dist', name)).default;
const Board = load('board.js');
const MoveState = load('moveState.js');
const LongNardyEngine = load(path.join('engine', 'long-nardy', 'engine.js'));

function ends(item) {
	const engine = new LongNardyEngine(() => {});
	const board = new Board(item.mover.slice(), item.opponent.slice());
	const [a, b] = item.dice;
	const remaining = a === b ? [a, a, a, a] : [a, b];
	const state = new MoveState(item.first ? 1 : 3, true, [a, b], remaining, []);
	engine.SetPossibleMoves(state, board);
	const tree = state.getMovesTree();
	const paths = tree === null ? [] : tree.allMovesToArray();
	const found = new Map();
	for (const moves of paths.length ? paths : [[]]) {
		const mine = item.mover.slice();
		for (const [from, to] of moves) {
			mine[from] -= 1;
			if (to < 24) mine[to] += 1; // 24 and beyond: borne off
		}
		found.set(mine.join(','), mine);
	}
	return { ends: [...found.values()] };
}

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
	const cases = JSON.parse(input).cases;
	process.stdout.write(JSON.stringify(cases.map(ends)));
});
