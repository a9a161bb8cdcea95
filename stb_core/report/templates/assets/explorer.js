// The position explorer of "Shut the Box, solved exactly". Plain script, no framework, no network.
//
// This script knows no rule of the game. For each rules choice the report writes assets/explorer/<key>.js, which
// calls stbValues(key, game): the game as the project's engine computes it (stb_core.report.explorer) -- the
// board's layout (each tile position's value, weight, the tiles it waits for, its name), the boards that can
// arise, the dice each board may roll, each number of dice's outcomes and throws, each outcome's moves with the
// tiles each needs down after it, and for each goal (the command line's --objective: win, remaining-sum, digits)
// the value of a finished game and of perfect play on every board. The script looks all of it up: a move is legal
// where its tiles are open and the tiles it needs are down (as stb_core.game.Game.legal reads the same data), a
// roll's value is the chance-weighted best value after it. Rules objects take the command line's option names
// (tiles, one_die, moves, layout, objective...) and any other key or value is refused with its words. Tiles go in
// and out by name: [1, 4, "b9"].
(function () {
  "use strict";

  function data(id) { return JSON.parse(document.getElementById(id).textContent); }
  var CHOICES = data("stb-explorer-choices"), OPTIONS = data("stb-explorer-options"), ANALYSIS = data("stb-explorer-analysis");
  var script = document.currentScript ? document.currentScript.src : "";
  var BASE = script.replace(/explorer\.js(\?.*)?$/, "explorer/");
  var raw = {}, decoded = {}, loading = {};

  function bytesOf(base64) {
    var text = atob(base64), view = new DataView(new ArrayBuffer(text.length));
    for (var i = 0; i < text.length; i++) view.setUint8(i, text.charCodeAt(i));
    return view;
  }
  function floats(base64) {
    var view = bytesOf(base64), out = new Float64Array(view.byteLength / Float64Array.BYTES_PER_ELEMENT);
    for (var j = 0; j < out.length; j++) out[j] = view.getFloat64(j * Float64Array.BYTES_PER_ELEMENT, true);
    return out;
  }
  function ints(base64, Kind) {  // little-endian integers of an array kind: Int32Array, Uint32Array, Uint8Array
    var view = bytesOf(base64), size = Kind.BYTES_PER_ELEMENT, out = new Kind(view.byteLength / size);
    var read = {1: "getUint8", 4: Kind === Int32Array ? "getInt32" : "getUint32"}[size];
    for (var j = 0; j < out.length; j++) out[j] = view[read](j * size, true);
    return out;
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // The rules object of the command line's options, checked: each key one of the explorer's, each value one it offers.
  function checkRules(rules) {
    if (!rules || typeof rules !== "object" || Array.isArray(rules))
      throw new Error("rules must be an object of the command line's options, like {tiles: 9, objective: \"win\"}; got " +
                      JSON.stringify(rules));
    Object.keys(rules).forEach(function (key) {
      if (!(key in OPTIONS.offered)) throw new Error(OPTIONS.unknown.replace("{key}", JSON.stringify(key)));
    });
    var out = {};
    Object.keys(OPTIONS.offered).forEach(function (key) {
      var value = rules[key] === undefined ? OPTIONS.defaults[key] : rules[key];
      if (!OPTIONS.offered[key].some(function (v) { return same(v, value); }))
        throw new Error(OPTIONS.refusals[key] + JSON.stringify(value));
      out[key] = value;
    });
    var offered = CHOICES[out.layout];
    if (offered.tiles.indexOf(out.tiles) < 0)
      throw new Error("tiles must be one of " + offered.tiles.join(", ") + " for layout " + out.layout + "; got " + out.tiles);
    if (offered.objectives.indexOf(out.objective) < 0)
      throw new Error("objective must be one of " + offered.objectives.join(", ") + " for layout " + out.layout + "; got " +
                      JSON.stringify(out.objective));
    return out;
  }

  function keyOf(rules) { return OPTIONS.keyParts.map(function (name) { return rules[name]; }).join("-"); }

  // Called by each game script as it loads.
  window.stbValues = function (key, values) {
    raw[key] = values;
    if (loading[key]) loading[key].resolve();
  };

  // Load the game of `rules` (a promise; resolved at once when it is there).
  function stbLoad(rules) {
    var key = keyOf(checkRules(rules));
    if (raw[key]) return Promise.resolve();
    if (!loading[key]) {
      var done = {};
      loading[key] = done;
      done.promise = new Promise(function (resolve, reject) { done.resolve = resolve; done.reject = reject; });
      var tag = document.createElement("script");
      tag.src = BASE + key + ".js";
      tag.onerror = function () { done.reject(new Error("the values of " + key + " are missing from the report")); };
      document.head.appendChild(tag);
    }
    return loading[key].promise;
  }

  // The loaded game of `rules`, decoded once: where each board's values are stored, the goals' values, the dice and
  // the moves.
  function game(rules) {
    var key = keyOf(rules);
    if (!raw[key]) throw new Error("the values of " + key + " are not loaded yet: wait for stbLoad(rules)");
    if (!decoded[key]) {
      var R = raw[key], n = R.layout.values.length, boards = ints(R.boards, Uint32Array), place = new Int32Array(1 << n);
      place.fill(-1);
      boards.forEach(function (b, i) { place[b] = i; });
      var G = {layout: R.layout, positions: n, place: place, values: {}, finished: {}, moves: {}, outcomes: {},
               dice: R.dice, choiceOf: ints(R.dice.board, Uint8Array), options: R.options, moveWords: R.moveWords,
               describe: R.rules, grades: R.grades, formats: R.formats};
      Object.keys(R.values).forEach(function (goal) {
        G.values[goal] = floats(R.values[goal]);
        G.finished[goal] = floats(R.finished[goal]);
      });
      Object.keys(R.moves).forEach(function (code) {
        G.moves[code] = {masks: ints(R.moves[code][0], Int32Array), needs: ints(R.moves[code][1], Int32Array)};
      });
      var throws = R.dice.outcomes[R.dice.all].reduce(function (s, o) { return s + o[3]; }, 0);
      Object.keys(R.dice.outcomes).forEach(function (d) {
        G.outcomes[d] = R.dice.outcomes[d].map(function (o) { return {code: o[0], roll: o[1], words: o[2], p: o[3] / throws}; });
      });
      decoded[key] = G;
    }
    return decoded[key];
  }
  function at(G, board) { return G.place[board]; }
  function valueOf(G, goal, board) { return G.values[goal][at(G, board)]; }
  function finished(G, goal, board) { return G.finished[goal][at(G, board)]; }
  function won(G, board) { return finished(G, "win", board) === 1; }
  function sense(goal) { return ANALYSIS.senses[goal]; }
  function diceChoices(G, board) { return G.dice.choices[G.choiceOf[at(G, board)]]; }
  function allDice(G) { return G.dice.all; }

  function tilesOf(board, n) { var out = []; for (var p = 0; p < n; p++) if (board >> p & 1) out.push(p); return out; }
  function nameOf(L, p) { var s = L.labels[p]; return /^[0-9]+$/.test(s) ? Number(s) : s; }
  function namesOf(G, board) { return tilesOf(board, G.positions).map(function (p) { return nameOf(G.layout, p); }); }
  function label(G, board) { return "{" + tilesOf(board, G.positions).map(function (p) { return G.layout.labels[p]; }).join(", ") + "}"; }
  function total(G, board, weighted) {
    return tilesOf(board, G.positions).reduce(function (s, p) { return s + G.layout.values[p] * (weighted ? G.layout.weights[p] : 1); }, 0);
  }
  function weighted(G) { return G.layout.weights.some(function (w) { return w !== G.layout.weights[0]; }); }
  function fullBoardOf(G) { return (1 << G.positions) - 1; }

  // The legal moves of outcome `code` on `board` (bit-masks, in the engine's canonical order): the outcome's moves
  // whose tiles are open and whose needed tiles are down once they are played.
  function legalMoves(G, board, code) {
    var found = [], m = G.moves[code];
    if (!m) return found;
    for (var i = 0; i < m.masks.length; i++) {
      if ((board & m.masks[i]) === m.masks[i] && (board & ~m.masks[i] & m.needs[i]) === 0) found.push(m.masks[i]);
    }
    return found;
  }

  // The outcomes a player may face from `board` (those of each number of dice it may roll).
  function outcomesFrom(G, board) {
    var out = [];
    diceChoices(G, board).forEach(function (d) {
      G.outcomes[d].forEach(function (o) { if (!out.some(function (x) { return x.code === o.code; })) out.push(o); });
    });
    return out;
  }

  // A board from the tiles' names ([1, 4, "b9"]), checked: names the board has, none twice, a board that can arise.
  function boardOf(G, open) {
    var board = 0, L = G.layout;
    if (open !== undefined && open !== null && !Array.isArray(open))
      throw new Error("open must be a list of tile names, like [1, 4, \"b9\"]; got " + JSON.stringify(open));
    (open || []).forEach(function (name) {
      var p = L.labels.indexOf(String(name));
      if (p < 0) throw new Error("open tiles must be among " + L.labels.join(", ") + "; got " + JSON.stringify(name));
      if (board >> p & 1) throw new Error("open lists tile " + name + " twice");
      board |= 1 << p;
    });
    if (at(G, board) < 0) throw new Error("open " + label(G, board) + " cannot arise: a tile is down while one it waits for is up");
    return board;
  }

  // The outcome of a roll as the command line's advise takes it (a total; the dice, [3, 5]; one die, 5) from `board`.
  function codeOf(G, board, roll) {
    var wanted = Array.isArray(roll) ? roll.slice().sort(function (a, b) { return a - b; }) : roll;
    var found = outcomesFrom(G, board).filter(function (o) { return same(o.roll, wanted); });
    if (found.length) return found[0].code;
    var shown = outcomesFrom(G, board).map(function (o) { return o.words; });
    throw new Error("roll must be a roll the dice can show from open " + label(G, board) + ", one of " +
                    shown.join("; ") + "; got " + JSON.stringify(roll));
  }

  // Every legal move with the values after it, best first for the rules' objective; equally good moves in the
  // engine's order. [] when no move is legal.
  function advise(rules, G, board, code) {
    var goal = rules.objective, s = sense(goal);
    var rows = legalMoves(G, board, code).map(function (move, order) {
      var row = {move: namesOf(G, move), order: order};
      Object.keys(G.values).forEach(function (g) { row[g] = valueOf(G, g, board & ~move); });
      return row;
    });
    rows.sort(function (a, b) { return s * (b[goal] - a[goal]) || a.order - b.order; });
    return rows.map(function (r) { delete r.order; return r; });
  }
  function stbAdvise(rules, open, roll) {
    rules = checkRules(rules);
    var G = game(rules), board = boardOf(G, open);
    return advise(rules, G, board, codeOf(G, board, roll));
  }

  // Q(S, r) for a goal: the value after the best legal move for outcome `code`, or the finished game's when there
  // is none.
  function bestAfter(G, goal, board, code) {
    var moves = legalMoves(G, board, code), s = sense(goal);
    if (!moves.length) return finished(G, goal, board);
    return moves.reduce(function (best, m) {
      var after = valueOf(G, goal, board & ~m);
      return s * after > s * best ? after : best;
    }, valueOf(G, goal, board & ~moves[0]));
  }

  // V_d(S): the value of rolling `dice` dice from the board, for each goal (perfect play for that goal afterwards).
  function rollValue(G, board, dice) {
    var out = {};
    Object.keys(G.values).forEach(function (goal) {
      out[goal] = G.outcomes[dice].reduce(function (s, o) { return s + o.p * bestAfter(G, goal, board, o.code); }, 0);
    });
    return out;
  }

  // {dice: values} for each number of dice the player may choose from the board; null where there is no choice.
  function diceValues(G, board) {
    var choices = diceChoices(G, board);
    if (choices.length < 2) return null;
    var out = {};
    choices.forEach(function (d) { out[d] = rollValue(G, board, d); });
    return out;
  }

  // -- game analysis: the luck of each roll and the loss of each decision, as the command line's analyse ---------
  // A record is one turn per roll, "8:2+6 7:7 11:8+3 12:-": the dice rolled where the rules give a choice (1d),
  // the roll as a record writes it (the total; in the Thai style the dice, 3,4), then the tiles shut (- where no
  // move was legal). With V the values of perfect play, V_d(S) the value of rolling d dice and Q(S, r) the value
  // after the best move for roll r, in the goal's sense s: dice loss s (V(S) - V_d(S)), luck s (Q(S, r) - V_d(S)),
  // move loss s (Q(S, r) - V(after)); start + s (luck - loss) = outcome.
  var TURN = new RegExp("^" + ANALYSIS.turn + "$");

  function sameValue(a, b) { return Math.abs(a - b) <= ANALYSIS.valueRtol * Math.max(Math.abs(a), Math.abs(b)); }
  function noLoss(x) { return Math.abs(x) <= ANALYSIS.noLoss; }
  function grade(G, loss, goal) {
    if (noLoss(loss)) return "best";
    var reached = "good";
    (G.grades[goal] || []).forEach(function (threshold, i) { if (loss >= threshold) reached = ANALYSIS.gradeNames[i]; });
    return reached;
  }

  // The outcome of a roll as a record writes it, `dice` dice rolled (the dice in any order).
  function rollOfWords(G, text, dice) {
    var words = text.indexOf(",") >= 0 ? text.split(",").map(Number).sort(function (a, b) { return a - b; }).join(",") : text;
    var found = G.outcomes[dice].filter(function (o) { return o.words === words; });
    if (found.length) return found[0];
    var listed = G.outcomes[dice], example = listed[Math.floor(listed.length / 2)].words;
    var noun = dice + " " + (dice === 1 ? "die" : "dice");
    if (G.dice.totals)
      throw new Error(noun + " show a total from " + listed[0].words + " to " + listed[listed.length - 1].words + "; got " + text);
    var faces = G.dice.faces;
    throw new Error("under moves " + G.options.moves + " a roll is the dice, each " + faces[0] + " to " + faces[faces.length - 1] +
                    ": " + noun + ", like " + example + "; got " + text);
  }

  // The tiles a record's turn shuts, by name.
  function tilesOfWords(G, text, n) {
    var move = 0;
    text.split("+").forEach(function (name) {
      var p = G.layout.labels.indexOf(name);
      if (p < 0 || move >> p & 1)
        throw new Error("game turn " + n + ": tiles must be among " + G.layout.labels.join(", ") + " joined by +, each once, like " +
                        G.layout.labels.slice(0, 2).join("+") + "; got '" + text + "'");
      move |= 1 << p;
    });
    return move;
  }

  // The turns of a record, each checked against the game so far (the refusals of stb analyse).
  // The optimal move for outcome `code` on `board` (a bit-mask): the best value after it for the goal, equal values
  // (to the engine's tolerance) going to the first in canonical order, as Solution.move_values ranks them.
  function bestMove(G, goal, board, code) {
    var moves = legalMoves(G, board, code), s = sense(goal);
    var after = moves.map(function (m) { return s * valueOf(G, goal, board & ~m); });
    var top = Math.max.apply(null, after);
    return moves.filter(function (m, i) { return sameValue(after[i], top); })[0];
  }
  function parseRecord(G, goal, record) {
    var board = fullBoardOf(G), over = "", turns = [];
    if (typeof record === "string" && !record.trim() && won(G, board)) return turns;
    if (typeof record !== "string" || !record.trim())
      throw new Error("game must be " + ANALYSIS.recordHelp + "; got an empty record");
    record.trim().split(/\s+/).forEach(function (item, i) {
      var n = i + 1, match = TURN.exec(item);
      if (!match) throw new Error("game turn " + n + " must read " + ANALYSIS.turnHelp + "; got '" + item + "'");
      if (over || won(G, board)) throw new Error("game turn " + n + " (" + item + ") comes after the game ended: " + (over || "the box was won"));
      var choices = diceChoices(G, board), dice = match[1] ? Number(match[1]) : null;
      if (dice === null && choices.length > 1)
        throw new Error("game turn " + n + ": from open " + label(G, board) + " the player may roll " + choices.join(" or ") +
                        " dice; write the number rolled, like " + choices[0] + "d" + match[2] + ":" + match[3]);
      if (dice === null) dice = choices[choices.length - 1];
      if (choices.indexOf(dice) < 0)
        throw new Error("game turn " + n + ": from open " + label(G, board) + " the player rolls " + choices.join(" or ") + " dice, not " + dice);
      var outcome;
      try { outcome = rollOfWords(G, match[2], dice); } catch (error) { throw new Error("game turn " + n + ": " + error.message); }
      var legal = legalMoves(G, board, outcome.code);
      if (match[3] === "-") {
        if (legal.length) throw new Error("game turn " + n + ": a roll of " + match[2] + " on open " + label(G, board) +
                                          " has a legal move (" + label(G, bestMove(G, goal, board, outcome.code)) + "); write the tiles shut");
        turns.push({dice: dice, outcome: outcome, played: null});
        over = "turn " + n + " found no move for " + match[2];
        return;
      }
      var move = tilesOfWords(G, match[3], n);
      if (move & ~board) throw new Error("game turn " + n + ": tiles " + label(G, move & ~board) + " are not open (open: " + label(G, board) + ")");
      if (legal.indexOf(move) < 0)
        throw new Error("game turn " + n + ": shutting " + label(G, move) + " is not a legal move for a roll of " + match[2] + " on open " + label(G, board));
      turns.push({dice: dice, outcome: outcome, played: move});
      board &= ~move;
    });
    if (!over && !won(G, board))
      throw new Error("game ends at turn " + turns.length + " with open " + label(G, board) +
                      ", which is neither won nor ended: add the roll that found no move (like 5:-)");
    return turns;
  }

  // One turn's analysis from `board`: the luck of its roll, the loss of its choice of dice and of its move.
  function analyseTurn(G, goal, board, t) {
    var s = sense(goal), values = {};
    diceChoices(G, board).forEach(function (d) { values[d] = rollValue(G, board, d)[goal]; });
    var rolled = values[t.dice], bestDice = rolled;
    Object.keys(values).forEach(function (d) { if (s * values[d] > s * bestDice) bestDice = values[d]; });
    var diceLoss = s * (bestDice - rolled) + 0, best = bestAfter(G, goal, board, t.outcome.code);
    var after = t.played === null ? board : board & ~t.played;
    var valueAfter = t.played === null ? finished(G, goal, board) : valueOf(G, goal, after);
    var moveLoss = s * (best - valueAfter) + 0;
    return {open: label(G, board), dice: t.dice, roll: t.outcome.roll, played: t.played === null ? "-" : label(G, t.played),
            best: legalMoves(G, board, t.outcome.code).filter(function (m) { return sameValue(valueOf(G, goal, board & ~m), best); })
              .map(function (m) { return label(G, m); }),
            grade: grade(G, diceLoss + moveLoss, goal), luck: s * (best - rolled) + 0, dice_loss: diceLoss,
            move_loss: moveLoss, loss: diceLoss + moveLoss, value_after: valueAfter};
  }

  // The analysis of a game record for the rules' objective, as `stb analyse --game RECORD --json` gives it.
  function stbAnalyse(rules, record) {
    rules = checkRules(rules);
    var G = game(rules), goal = rules.objective, s = sense(goal);
    var turns = parseRecord(G, goal, record), board = fullBoardOf(G), start = valueOf(G, goal, board);
    var rows = turns.map(function (t) {
      var row = analyseTurn(G, goal, board, t);
      if (t.played !== null) board &= ~t.played;
      return row;
    });
    var outcome = finished(G, goal, board), luck = 0, loss = 0;
    rows.forEach(function (r) { luck += r.luck; loss += r.loss; });
    var grades = {};
    (G.grades[goal] || []).forEach(function (threshold, i) { grades[ANALYSIS.gradeNames[i]] = threshold; });
    var reached = start + s * (luck - loss);
    return {game: record, start: start, outcome: outcome, luck: luck, loss: loss,
            identity: s > 0 ? "start + luck - loss = outcome" : "start - luck + loss = outcome",
            holds: sameValue(reached, outcome) || noLoss(reached - outcome), turns: rows, grades: grades,
            rules: G.describe, objective: goal};
  }

  window.stbLoad = stbLoad;
  window.stbAdvise = stbAdvise;
  window.stbAnalyse = stbAnalyse;
  window.stbDiceValues = function (rules, open) {
    rules = checkRules(rules);
    var G = game(rules);
    return diceValues(G, boardOf(G, open));
  };

  // -- the page ----------------------------------------------------------------------------------------------
  // Numbers as a player reads them, each goal in its own units and scale (the decimals the engine chose for the
  // rules: stb_core.luck.number_format): a chance in per cent, a luck or a loss of it in percentage points; a score with
  // its decimals and digit groups, a finished game's score as the whole number it is.
  function grouped(x, decimals) {
    return x.toLocaleString("en-US", {minimumFractionDigits: decimals, maximumFractionDigits: decimals});
  }
  function percent(p) {
    if (p === 0) return "0%";
    var x = 100 * p;
    return (x >= 0.01 ? x.toFixed(2) : x.toPrecision(2)) + "%";
  }
  function inPercent(G, goal) { return G.formats[goal].percent; }
  function amount(G, goal, x) { return inPercent(G, goal) ? percent(x) : grouped(x, G.formats[goal].decimals); }
  function whole(G, goal, x) { return inPercent(G, goal) ? (x === 1 ? "won" : "not won") : grouped(x, 0); }
  function change(G, goal, x, signed, unit, trim) {  // a luck (signed) or a loss: never a negative zero
    var pp = inPercent(G, goal), shown = pp ? (100 * x).toFixed(2) : grouped(x, G.formats[goal].decimals);
    if (trim && shown.indexOf(".") >= 0) shown = shown.replace(/0+$/, "").replace(/\.$/, "");  // a threshold: 1, not 1.000
    if (/^-?0(\.0+)?$/.test(shown.replace(/,/g, ""))) shown = "0";
    var text = shown.charAt(0) === "-" ? "−" + shown.slice(1) : (signed && shown !== "0" ? "+" : "") + shown;
    return text + (unit ? (pp ? " pp" : " points") : "");
  }

  var state = {rules: checkRules({}), board: 0, roll: null, history: []};
  var $ = function (id) { return document.getElementById(id); };
  function rollLabel(G, code) {
    var o = outcomeOfCode(G, code);
    return Array.isArray(o.roll) ? o.roll.join(" and ") : (o.words.indexOf(",") < 0 ? o.words : o.words.replace(",", " and "));
  }
  function outcomeOfCode(G, code) {
    for (var d in G.outcomes) for (var i = 0; i < G.outcomes[d].length; i++) if (G.outcomes[d][i].code === code) return G.outcomes[d][i];
    return null;
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function current() { return game(state.rules); }
  // The goals in words: the score is the sum left, or with weights (Double Shutter) the weighted sum.
  function goalWords(G) {
    return {win: "the win", "remaining-sum": weighted(G) ? "the lowest score" : "the lowest sum left",
            digits: "the lowest digit score"};
  }
  // The goals' names in the "best for" column, narrow enough for a phone.
  function shortNames(G) { return {win: "win", "remaining-sum": weighted(G) ? "score" : "sum", digits: "digits"}; }
  function heads(G) { return {"remaining-sum": weighted(G) ? "expected score" : "expected sum left", digits: "expected digit score"}; }
  // The second goal shown beside the chance of winning: the reader's goal, or the lowest score when it is the win.
  function other() { return state.rules.objective === "win" ? "remaining-sum" : state.rules.objective; }

  // The tiles of a board as buttons, each tile that waits for another standing above it (at any width).
  function drawTiles(G, box, button) {
    var L = G.layout, placed = 0;
    box.textContent = "";
    for (var f = 0; f < G.positions; f++) {
      if (L.needs[f]) continue;
      var behind = [];
      for (var q = 0; q < G.positions; q++) if (L.needs[q] === 1 << f) behind.push(q);
      if (!behind.length) { box.appendChild(button(f)); continue; }
      var pair = el("div", {"class": "stb-pair", role: "group", "aria-label": "tile " + L.labels[f] + " and the tiles behind it"});
      behind.forEach(function (q) { pair.appendChild(button(q)); placed |= 1 << q; });
      pair.appendChild(button(f));
      box.appendChild(pair);
    }
    for (var r = 0; r < G.positions; r++) if (L.needs[r] && !(placed >> r & 1)) box.appendChild(button(r));
  }
  function waitsFor(G, board, p) {  // the open tiles tile p waits for on `board`, by name
    return tilesOf(board & G.layout.needs[p], G.positions).map(function (q) { return G.layout.labels[q]; });
  }

  function tileButton(G, p) {
    var open = !!(state.board >> p & 1), back = !!G.layout.needs[p];
    var b = el("button", {type: "button", "class": "stb-tile" + (back ? " stb-back" : ""), "aria-pressed": String(open),
                          "data-tile": G.layout.labels[p]}, String(G.layout.values[p]));
    b.title = (back ? "back tile " : "tile ") + G.layout.labels[p] + ": " + (open ? "open (tap to shut)" : "shut (tap to open)");
    b.setAttribute("aria-label", (back ? "back tile worth " : "tile ") + G.layout.values[p] + (open ? ", open" : ", shut"));
    return b;
  }

  function drawBoard() {
    var G = current(), L = G.layout, board = state.board, second = other(), words = goalWords(G);
    drawTiles(G, $("stb-board"), function (p) { return tileButton(G, p); });
    $("stb-layout-note").hidden = !L.needs.some(function (n) { return n; });
    $("stb-board-value").textContent = won(G, board) ? "Every tile is shut: the box is shut, the game is won." :
      "Open " + label(G, board) + " (" + (weighted(G) ? "score " + total(G, board, true) : "sum " + total(G, board, false)) +
      "): with perfect play the chance of shutting the box is " + percent(valueOf(G, "win", board)) + "; playing for " +
      words[second] + ", the " + heads(G)[second] + " is " + amount(G, second, valueOf(G, second, board)) + ".";
    var dice = won(G, board) ? null : diceValues(G, board), target = $("stb-dice");
    target.textContent = "";
    if (!dice) return;
    var counts = Object.keys(dice).map(Number), noun = function (d) { return G.dice.words[d]; };
    var t1 = el("table", {"class": "stb-table", id: "stb-dice-table"});
    t1.appendChild(el("caption", {}, "One die or " + noun(allDice(G)) + " from this board (perfect play afterwards)"));
    var head = el("tr"); ["roll", "P(win)", heads(G)[second]].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    t1.appendChild(head);
    counts.forEach(function (d) {
      var row = el("tr");
      [noun(d), percent(dice[d].win), amount(G, second, dice[d][second])].forEach(function (c) { row.appendChild(el("td", {}, c)); });
      t1.appendChild(row);
    });
    var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(t1); target.appendChild(wrap);
    var pick = function (goal) {
      var a = sense(goal) * dice[counts[0]][goal], b = sense(goal) * dice[counts[1]][goal];
      return a > b ? noun(counts[0]) : a < b ? noun(counts[1]) : "either";
    };
    var forWin = pick("win"), forOther = pick(second);
    target.appendChild(el("p", {"class": "stb-finding", id: "stb-dice-advice"}, forWin === forOther ?
      (forWin === "either" ? "One die and " + noun(allDice(G)) + " are worth the same here, for either goal." :
       "Roll " + forWin + ", whether you play to shut the box or for " + words[second] + ".") :
      "To shut the box, roll " + forWin + "; for " + words[second] + ", roll " + forOther + ". The two goals disagree here."));
  }

  // The rolls a player may face from the board: all the dice's, and one die's where it may be rolled (a roll both
  // can show listed once).
  function drawRolls() {
    var G = current(), box = $("stb-rolls"), board = won(G, state.board) ? fullBoardOf(G) : state.board;
    var thrown = G.outcomes[allDice(G)].some(function (o) { return Array.isArray(o.roll); }), seen = {};
    box.textContent = "";
    diceChoices(G, board).slice().reverse().forEach(function (d) {
      G.outcomes[d].forEach(function (o) {
        if (seen[o.words]) return;
        seen[o.words] = true;
        var text = d !== allDice(G) && thrown ? "one die: " + o.words : o.words.replace(",", "·");
        box.appendChild(el("button", {type: "button", "class": "stb-roll", "aria-pressed": String(state.roll === o.code),
                                      "data-roll": o.words}, text));
      });
    });
  }

  function drawMoves() {
    var box = $("stb-moves"), G = current(), words = goalWords(G), board = state.board;
    box.textContent = "";
    if (state.roll === null) { box.appendChild(el("p", {}, "Tap a roll to see the moves.")); return; }
    if (won(G, board)) { box.appendChild(el("p", {}, "The box is shut: nothing left to move.")); return; }
    var rows = advise(state.rules, G, board, state.roll), second = other();
    if (!rows.length) {
      box.appendChild(el("p", {id: "stb-no-move"}, "No open tile can be shut with a roll of " + rollLabel(G, state.roll) +
        ": the game ends with " + label(G, board) + " open."));
      return;
    }
    var best = {}, asLabel = function (move) { return "{" + move.join(", ") + "}"; };
    Object.keys(G.values).forEach(function (goal) {
      best[goal] = asLabel(advise({objective: goal}, G, board, state.roll)[0].move);
    });
    var short = shortNames(G), names = Object.keys(G.values).map(function (g) { return short[g]; }).join(", ");
    var table = el("table", {"class": "stb-table", id: "stb-moves-table"});
    table.appendChild(el("caption", {}, "Every legal move for open " + label(G, board) + " and a roll of " +
      rollLabel(G, state.roll) + ", best first for " + words[state.rules.objective] + "; “best for” names the goals (" +
      names + ") each move is best for"));
    var head = el("tr");
    ["shut", "P(win) after", heads(G)[second] + " after", "best for", ""].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    rows.forEach(function (r) {
      var row = el("tr"), name = asLabel(r.move);
      row.appendChild(el("td", {}, name));
      row.appendChild(el("td", {}, percent(r.win)));
      row.appendChild(el("td", {}, amount(G, second, r[second])));
      var marks = Object.keys(best).filter(function (goal) { return best[goal] === name; })
        .map(function (goal) { return short[goal]; });
      row.appendChild(el("td", {}, marks.join(", ")));
      var cell = el("td"), play = el("button", {type: "button", "class": "stb-play", "data-move": r.move.join(",")}, "play");
      cell.appendChild(play); row.appendChild(cell);
      table.appendChild(row);
    });
    var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(table); box.appendChild(wrap);
    if (best.win !== best[second]) {
      box.appendChild(el("p", {"class": "stb-finding", id: "stb-disagree"}, "Playing for the win, shut " + best.win +
        "; playing for " + words[second] + ", shut " + best[second] + ": here the two goals disagree."));
    }
  }

  // Redraw, keeping the keyboard on the control just used: the same tile, roll, move, dice or button after the
  // redraw, else the first button still usable in the group it was in (a roll that is gone), else the first in the
  // group ``next`` names, where play goes on (a move played: the rolls; dice thrown: the tiles to pick).
  function keepFocus(redraw, next) {
    var active = document.activeElement, keys = ["data-tile", "data-roll", "data-move", "data-dice", "id"];
    var key = active && active !== document.body ? keys.filter(function (k) { return active.hasAttribute(k); })[0] : null;
    var value = key && active.getAttribute(key), group = key && active.parentElement.closest("[id]");
    var groupId = group && group.id;
    redraw();
    if (!key) return;
    var scope = groupId ? document.getElementById(groupId) : null;
    var found = key === "id" ? document.getElementById(value) :
      scope && scope.querySelector("[" + key + "=\"" + CSS.escape(value) + "\"]");
    var usable = function (box) { return box && !box.hidden ? box.querySelector("button:not([disabled])") : null; };
    if (!found || found.disabled || found.hidden) found = usable(scope) || usable(next && document.getElementById(next));
    if (found && found !== document.activeElement) found.focus();
  }
  function draw() {
    keepFocus(function () { drawBoard(); drawRolls(); drawMoves(); $("stb-undo").disabled = !state.history.length; },
              "stb-rolls");
  }

  function remember() { state.history.push({board: state.board, roll: state.roll}); }

  // Tap a tile: shut it (and the tiles it waits for, which go down first), or open it (and the tiles waiting for
  // it, which cannot be down while it is up): the board stays one that can arise.
  function toggle(p) {
    var L = current().layout, bit = 1 << p;
    if (state.board & bit) {
      state.board &= ~(bit | L.needs[p]);
    } else {
      state.board |= bit;
      L.needs.forEach(function (need, q) { if (need & bit) state.board |= 1 << q; });
    }
  }

  document.addEventListener("click", function (event) {
    var t = event.target.closest("button");
    if (!t || t.closest("#stb-trainer")) return;  // the trainer's own board answers its own taps
    var G = current();
    if (t.classList.contains("stb-tile")) {
      remember();
      toggle(G.layout.labels.indexOf(t.getAttribute("data-tile")));
      if (state.roll !== null && !outcomesFrom(G, state.board).some(function (o) { return o.code === state.roll; })) state.roll = null;
      draw();
    } else if (t.classList.contains("stb-roll")) {
      var words = t.getAttribute("data-roll");
      state.roll = outcomesFrom(G, won(G, state.board) ? fullBoardOf(G) : state.board).filter(function (o) { return o.words === words; })[0].code;
      draw();
    } else if (t.classList.contains("stb-play")) {
      remember();
      state.board = state.board & ~boardOf(G, t.getAttribute("data-move").split(",").map(function (s) {
        return /^[0-9]+$/.test(s) ? Number(s) : s; }));
      state.roll = null; draw();
    }
  });
  $("stb-undo").addEventListener("click", function () {
    var last = state.history.pop();
    if (last) { state.board = last.board; state.roll = last.roll; draw(); }
  });
  $("stb-reset").addEventListener("click", function () { remember(); state.board = fullBoardOf(current()); state.roll = null; draw(); });
  // A throw of `dice` dice: each die a face drawn by `random`, and the outcome the engine gives those faces.
  function throwOf(G, dice, random) {
    var faces = [];
    for (var i = 0; i < dice; i++) faces.push(G.dice.faces[Math.floor(random() * G.dice.faces.length)]);
    return {faces: faces, code: G.dice.throws[dice][faces.join(",")]};
  }
  $("stb-roll-again").addEventListener("click", function () {
    var G = current(), board = won(G, state.board) ? fullBoardOf(G) : state.board, goal = state.rules.objective;
    var dice = diceValues(G, board), count = diceChoices(G, board)[diceChoices(G, board).length - 1];
    if (dice) count = Object.keys(dice).map(Number).reduce(function (a, b) {
      return sense(goal) * dice[b][goal] > sense(goal) * dice[a][goal] ? b : a; });
    state.roll = throwOf(G, count, Math.random).code;
    draw();
  });

  // The controls offer what the picked layout has: its tiles, its goals (the digit score reads one row only), and
  // the score's name (the sum left, or Double Shutter's weighted score).
  function fitControls() {
    var layout = $("stb-layout").value, offered = CHOICES[layout];
    [["stb-tiles", offered.tiles.map(String)], ["stb-goal", offered.objectives]].forEach(function (pair) {
      var select = $(pair[0]);
      [].forEach.call(select.options, function (o) { o.disabled = pair[1].indexOf(o.value) < 0; o.hidden = o.disabled; });
      if (select.selectedOptions[0].disabled) select.value = pair[1][0];
    });
    $("stb-goal").querySelector("option[value=remaining-sum]").textContent = offered.score;
  }

  function rulesChanged() {
    var picked;
    try {  // a value the form does not offer (an edited page, a script) is named on the page, the board kept
      if (!CHOICES[$("stb-layout").value]) throw new Error(OPTIONS.refusals.layout + JSON.stringify($("stb-layout").value));
      fitControls();
      picked = checkRules({layout: $("stb-layout").value, tiles: Number($("stb-tiles").value),
                           one_die: $("stb-one-die").value, moves: $("stb-moves-rule").value,
                           objective: $("stb-goal").value});
    } catch (error) {
      $("stb-board-value").textContent = error.message;
      return;
    }
    var sameBoard = keyOf(picked) === keyOf(state.rules) && state.board;
    stbLoad(picked).then(function () {
      state.rules = picked;
      if (!sameBoard) { state.board = fullBoardOf(current()); state.roll = null; state.history = []; }
      if (trainer && trainer.rules && (keyOf(trainer.rules) !== keyOf(picked) || trainer.rules.objective !== picked.objective)) trainer = null;
      draw(); drawTrainer();
    }, function (error) { $("stb-board-value").textContent = error.message; });
  }
  ["stb-layout", "stb-tiles", "stb-one-die", "stb-moves-rule", "stb-goal"].forEach(function (id) {
    $(id).addEventListener("change", rulesChanged);
  });

  // -- the trainer: a seeded game the reader plays, then its analysis (stbAnalyse) -----------------------------
  // mulberry32, a small seeded generator: the same seed throws the same dice in every browser.
  function seeded(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  var trainer = null;  // {rules, random, board, turns, dice, roll, faces, picked, note, record, analysis, error}

  function trainerRecord(T) {
    var G = game(T.rules);
    return T.turns.map(function (t) {
      return (t.choice ? t.dice + "d" : "") + outcomeOfCode(G, t.roll).words + ":" + (t.played === null ? "-" : namesOf(G, t.played).join("+"));
    }).join(" ");
  }
  function throwDice(T, dice) {
    var G = game(T.rules), thrown = throwOf(G, dice, T.random);
    T.faces = thrown.faces; T.dice = dice; T.picked = 0; T.roll = thrown.code; T.note = "";
    T.choice = diceChoices(G, T.board).length > 1;
    if (!legalMoves(G, T.board, T.roll).length) {
      T.turns.push({dice: dice, roll: T.roll, played: null, choice: T.choice});
      return trainerEnd(T);
    }
  }
  function trainerTurn(T) {  // the next turn: the reader picks the dice where the rules give a choice
    var G = game(T.rules), choices = diceChoices(G, T.board);
    T.roll = null; T.dice = null; T.picked = 0; T.note = "";
    if (won(G, T.board)) return trainerEnd(T);
    if (choices.length === 1) throwDice(T, choices[0]);
  }
  function trainerEnd(T) {
    T.roll = null;
    T.record = trainerRecord(T);
    T.analysis = stbAnalyse(T.rules, T.record);
  }
  function trainerStart() {
    var text = $("stb-train-seed").value.trim(), seed = Number(text);
    if (!/^\d+$/.test(text) || seed > 4294967295) {
      trainer = {error: "The seed must be a whole number from 0 to 4294967295; got “" + text + "”."};
    } else {
      trainer = {rules: state.rules, random: seeded(seed), board: fullBoardOf(current()), turns: [], seed: seed};
      trainerTurn(trainer);
    }
    drawTrainer();
  }

  function cliFlags(G, rules) {
    var flags = [];
    Object.keys(OPTIONS.defaults).forEach(function (key) {
      if (!same(rules[key], OPTIONS.defaults[key])) flags.push("--" + key.replace(/_/g, "-") + " " + rules[key]);
    });
    return flags.join(" ");
  }
  function shortOpen(open) { return open.replace(/[{}]/g, "").replace(/, /g, " ") || "–"; }

  function drawAnalysis(T, box) {
    var A = T.analysis, goal = T.rules.objective, G = game(T.rules), words = goalWords(G)[goal];
    box.appendChild(el("p", {}, "Playing for " + words + ", each roll's luck and each decision's loss against " +
      "perfect play, " + (inPercent(G, goal) ? "in percentage points (pp) of the chance of shutting the box" :
      "in points of the " + (goal === "digits" ? "digit score" : "score")) + ", with the best moves for the roll:"));
    var table = el("table", {"class": "stb-table stb-train-table", id: "stb-train-table"});
    table.appendChild(el("caption", {}, "Your game, turn by turn"));
    var head = el("tr"), unit = inPercent(G, goal) ? " (pp)" : "";
    ["turn", "open", "open", "roll", "shut", "best", "luck" + unit, "loss" + unit, "grade"].forEach(function (h, i) {
      head.appendChild(el("th", i === 1 ? {"class": "stb-wide"} : i === 2 ? {"class": "stb-short"} : {}, h));
    });
    table.appendChild(head);
    A.turns.forEach(function (t, i) {
      var row = el("tr"), words = outcomeOfCode(G, T.turns[i].roll).words;
      [String(i + 1), t.open, shortOpen(t.open), (T.turns[i].choice ? t.dice + "d " : "") + words, t.played,
       t.best.join("; ") || "-", change(G, goal, t.luck, true), change(G, goal, t.loss, false), t.grade].forEach(function (c, j) {
        row.appendChild(el("td", j === 1 ? {"class": "stb-wide"} : j === 2 ? {"class": "stb-short"} : {}, c));
      });
      table.appendChild(row);
    });
    var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(table); box.appendChild(wrap);
    var sign = sense(goal) > 0 ? ["+", "−"] : ["−", "+"];
    box.appendChild(el("p", {"class": "stb-finding", id: "stb-train-identity"}, "Start " + amount(G, goal, A.start) +
      " " + sign[0] + " luck (" + change(G, goal, A.luck, true, true) + ") " + sign[1] + " loss " +
      change(G, goal, A.loss, false, true) + " = outcome " + (inPercent(G, goal) ? percent(A.outcome) : whole(G, goal, A.outcome)) +
      (A.holds ? "" : " — the sums do not meet here: please report it") + "."));
    var names = Object.keys(A.grades);
    if (names.length) {
      box.appendChild(el("p", {id: "stb-train-grades"}, "A decision that loses nothing is best; one that loses at least " +
        names.map(function (g) { return change(G, goal, A.grades[g], false, true, true) + " is " + (g === "inaccuracy" ? "an " : "a ") + g; }).join(", ") +
        "; any smaller loss is good."));
    }
    var cmd = el("p", {id: "stb-train-command"}, "The same analysis on the command line: ");
    var flags = cliFlags(G, T.rules);
    cmd.appendChild(el("code", {}, "stb analyse " + (flags ? flags + " " : "") + "--game \"" + A.game + "\""));
    box.appendChild(cmd);
  }

  // Why the picked tiles are not a move yet: a picked tile that waits for an open tile not picked with it.
  function whyNot(G, T) {
    var waiting = tilesOf(T.picked, G.positions).filter(function (p) { return T.board & ~T.picked & G.layout.needs[p]; });
    if (waiting.length) {
      var p = waiting[0];
      return "Tile " + G.layout.labels[p] + " stands behind " + waitsFor(G, T.board, p).join(", ") + ": shut " +
             (waitsFor(G, T.board, p).length > 1 ? "those" : "it") + " with it, or first.";
    }
    return T.picked ? "The picked tiles are not a move for this roll." : "";
  }

  function trainerTile(G, T, p) {
    var L = G.layout, open = !!(T.board >> p & 1), picked = !!(T.picked >> p & 1);
    var waits = open && waitsFor(G, T.board & ~T.picked, p).length > 0;
    var b = el("button", {type: "button", "class": "stb-tile" + (L.needs[p] ? " stb-back" : "") + (picked ? " stb-picked" : "") +
                          (waits ? " stb-waits" : ""), "aria-pressed": String(open), "data-tile": L.labels[p]}, String(L.values[p]));
    b.disabled = !open || T.roll === null;
    b.setAttribute("aria-label", (L.needs[p] ? "back tile worth " : "tile ") + L.values[p] +
                   (open ? (picked ? ", picked" : waits ? ", open, behind " + waitsFor(G, T.board, p).join(", ") : ", open") : ", shut"));
    return b;
  }

  function drawTrainer() {
    keepFocus(function () { trainerView(trainer); }, "stb-train-board");
  }
  function trainerView(T) {
    var status = $("stb-train-status"), board = $("stb-train-board"), diceBox = $("stb-train-dice");
    var playButton = $("stb-train-play"), out = $("stb-train-analysis");
    board.textContent = ""; diceBox.textContent = ""; out.textContent = ""; diceBox.hidden = true; playButton.disabled = true;
    $("stb-train-why").textContent = "";
    if (!T) { status.textContent = "Press “start a game” to play."; return; }
    if (T.error) { status.textContent = T.error; return; }
    var G = game(T.rules);
    drawTiles(G, board, function (p) { return trainerTile(G, T, p); });
    if (T.analysis) {
      status.textContent = "Game over after " + T.turns.length + (T.turns.length === 1 ? " roll" : " rolls") + ": " +
        (won(G, T.board) ? "you won." : "no move for the last roll, " + label(G, T.board) + " left open.");
      return drawAnalysis(T, out);
    }
    if (T.roll === null) {
      status.textContent = "Roll " + (T.turns.length + 1) + ": the rules let you roll " +
        G.dice.words[1] + " or " + G.dice.words[allDice(G)] + " from " + label(G, T.board) + ".";
      diceBox.hidden = false;
      diceChoices(G, T.board).forEach(function (d) {
        diceBox.appendChild(el("button", {type: "button", "class": "stb-roll", "data-dice": String(d), "aria-pressed": "false"},
                               "roll " + G.dice.words[d]));
      });
      return;
    }
    var sum = tilesOf(T.picked, G.positions).reduce(function (x, q) { return x + G.layout.values[q]; }, 0);
    var words = outcomeOfCode(G, T.roll).words, faces = T.faces.join(",");
    var thrown = T.faces.length === 1 ? "one die: " + T.faces[0] : T.faces.join(" and ") + (words !== faces &&
      words !== T.faces.slice().sort(function (a, b) { return a - b; }).join(",") ? " (" + words + ")" : "");
    status.textContent = "Roll " + (T.turns.length + 1) + ": " + thrown + ". Tap the tiles to shut — " + G.moveWords +
      "; picked so far: " + (T.picked ? label(G, T.picked) + ", adding up to " + sum : "none") + ".";
    playButton.disabled = legalMoves(G, T.board, T.roll).indexOf(T.picked) < 0;
    if (playButton.disabled) $("stb-train-why").textContent = T.note || whyNot(G, T);
  }

  $("stb-trainer").addEventListener("click", function (event) {
    var t = event.target.closest("button"), T = trainer;
    if (!t || !T || T.error || T.analysis) return;
    var G = game(T.rules);
    if (t.hasAttribute("data-dice")) {
      throwDice(T, Number(t.getAttribute("data-dice")));
    } else if (t.hasAttribute("data-tile") && T.roll !== null) {
      var p = G.layout.labels.indexOf(t.getAttribute("data-tile"));
      T.picked ^= 1 << p;
      var waits = waitsFor(G, T.board & ~T.picked, p);
      T.note = T.picked >> p & 1 && waits.length ? "Tile " + G.layout.labels[p] + " stands behind " + waits.join(", ") +
        ": pick " + (waits.length > 1 ? "those" : "it") + " too (or shut " + (waits.length > 1 ? "them" : "it") + " first)." : "";
    } else if (t.id === "stb-train-play" && T.roll !== null) {
      if (legalMoves(G, T.board, T.roll).indexOf(T.picked) < 0) return;
      T.turns.push({dice: T.dice, roll: T.roll, played: T.picked, choice: T.choice});
      T.board &= ~T.picked;
      trainerTurn(T);
    }
    drawTrainer();
  });
  $("stb-train-start").addEventListener("click", trainerStart);
  rulesChanged();
})();
