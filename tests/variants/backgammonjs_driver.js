// Lists every completed turn that backgammonjs's rule code allows, for
// tests/variants/make_backgammonjs_data.py (run by hand, never by the test suite).
//
// Usage: node backgammonjs_driver.js CHECKOUT < cases.json > results.json
//
// CHECKOUT is an extracted copy of the backgammonjs project; its lib/model.js and
// lib/rules/<Rule>.js are loaded from there by path. Nothing of it is copied here.
//
// Input: {"rule": "RuleBgCasual" | "RuleBgTapa" | "RuleBgGulbara", "cases": [case...]},
// each case {"dice": [a, b], "turn_number": n, "points": [24 stacks], "bar": [w, b],
// "outside": [w, b]}: a stack lists piece types bottom to top (0 white, 1 black), the
// side on roll is always white (type 0).
// Output: one JSON array, per case {"ends": [board...], "dead_ends": k}: every distinct
// board reached by a completed turn (same form as the input's board), and how many
// distinct part-played boards the validator let the player reach but never let him
// finish from (their game cannot confirm such a turn; the player must undo).
//
// Which of their functions decide: the dice to play are those rollDice (the rule's
// own, so Gul bara's too) leaves in turnDice.movesLeft, i.e. calculateMoveWeights'
// playableMoves; each single move is one that validateMove (turn and dice checks, then
// isMoveActionRestricted over calculateMoveWeights) accepts and getMoveActions gives
// actions for, applied with applyMoveActions and markAsPlayed, exactly as their server
// handles a move request. A turn is complete when movesLeft is empty (validateConfirm's
// condition). For Gul bara, the rule's nextTurn then decides whether the same player
// goes on with the next doublet of the cascade (a fresh rollDice of that stage) or the
// turn passes (the rest transferred or the cascade over); the driver follows it and
// stops where the turn leaves the player who rolled.
'use strict';

const fs = require('fs');
const path = require('path');

const checkout = process.argv[2];
if (!checkout) {
  throw new Error('usage: node backgammonjs_driver.js CHECKOUT < cases.json');
}

// Their code logs every step it takes; the driver's only output is its JSON.
const quiet = () => {};
console.log = quiet;
console.time = quiet;
console.timeEnd = quiet;

const model = require(path.resolve(checkout, 'lib', 'model.js'));
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const rule = require(path.resolve(checkout, 'lib', 'rules', input.rule + '.js'));

const ROLLER = { id: 1, currentPieceType: model.PieceType.WHITE };
const OTHER = { id: 2, currentPieceType: model.PieceType.BLACK };

function addPiece(state, type, where) {
  const piece = new model.Piece(type, state.nextPieceID);
  state.nextPieceID += 1;
  state.pieces[type].push(piece);
  where.push(piece);
}

function buildGame(item) {
  const game = model.Game.createNew(rule);
  const state = game.state;
  model.State.clear(state);
  item.points.forEach((stack, index) => {
    stack.forEach((type) => addPiece(state, type, state.points[index]));
  });
  for (const type of [0, 1]) {
    for (let i = 0; i < item.bar[type]; i += 1) {
      addPiece(state, type, state.bar[type]);
    }
    for (let i = 0; i < item.outside[type]; i += 1) {
      addPiece(state, type, state.outside[type]);
    }
  }
  game.hasStarted = true;
  game.turnPlayer = ROLLER;
  game.turnNumber = item.turn_number;
  game.turnStarted = false;
  game.turnDice = rule.rollDice(game, item.dice);
  return game;
}

function board(state) {
  return {
    points: state.points.map((stack) => stack.map((piece) => piece.type)),
    bar: [state.bar[0].length, state.bar[1].length],
    outside: [state.outside[0].length, state.outside[1].length],
  };
}

function copyGame(game) {
  const copy = model.Utils.shallowCopy(game);
  copy.state = model.State.clone(game.state);
  copy.turnDice = model.Utils.deepCopy(game.turnDice);
  return copy;
}

function explore(item) {
  const ends = new Map();
  const seen = new Set();
  const finished = new Set();
  let deadEnds = 0;

  // Whether any completed turn is reached from ``game``.
  function walk(game) {
    const dice = game.turnDice;
    const key = JSON.stringify([board(game.state), dice.values, dice.movesLeft.slice().sort(),
      Boolean(game.turnStarted), game.turnNumber]);
    if (seen.has(key)) {
      return finished.has(key);
    }
    seen.add(key);
    let completes = false;
    if (dice.movesLeft.length === 0) {
      const after = copyGame(game);
      const match = { currentGame: after, host: ROLLER, guest: OTHER };
      rule.nextTurn(match);
      if (after.turnPlayer === ROLLER && after.turnDice !== null) {
        completes = walk(after);
      } else {
        const end = board(game.state);
        ends.set(JSON.stringify(end), end);
        completes = true;
      }
    } else {
      const pieces = game.state.pieces[model.PieceType.WHITE];
      const steps = Array.from(new Set(dice.movesLeft));
      for (const piece of pieces) {
        for (const step of steps) {
          if (!rule.validateMove(game, ROLLER, piece, step)) {
            continue;
          }
          const next = copyGame(game);
          const actions = rule.getMoveActions(next.state, piece, step);
          if (actions.length === 0) {
            continue;
          }
          rule.applyMoveActions(next.state, actions);
          rule.markAsPlayed(next, step);
          if (walk(next)) {
            completes = true;
          }
        }
      }
      if (!completes) {
        deadEnds += 1;
      }
    }
    if (completes) {
      finished.add(key);
    }
    return completes;
  }

  walk(buildGame(item));
  return { ends: Array.from(ends.values()), dead_ends: deadEnds };
}

process.stdout.write(JSON.stringify(input.cases.map(explore)));
process.stdout.write('\n');
