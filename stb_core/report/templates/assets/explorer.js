// The position explorer of "Shut the Box, solved exactly". Plain script, no framework, no network.
//
// For each rules choice the report writes assets/explorer/<layout>-<tiles>-<one die>-<moves>.js, which calls
// stbValues(key, {layout, win, sum[, digits]}). `layout` is the board as data -- each tile position's value, its
// weight in the score, the tiles it waits for (a bit-mask of positions that must be down before it can be shut)
// and its name ("7", or "b7" for a back tile) -- and each goal is an array over the boards that can arise (no
// tile down while one it waits for is up), in increasing bit-mask order (position p open <=> bit p-1 set): the
// chance of shutting the box with perfect play V_win(S), the least expected score left V_sum(S) and, on one row,
// the least expected digit score V_digits(S), all computed by the project's engine (stb_core.sweep). This script
// knows no layout of its own: it loads the arrays of the rules the reader picks, finds the legal moves from the
// layout and reads the values after each move. Tiles go in and out of stbAdvise by name: [1, 4, "b9"].
(function () {
  "use strict";

  var CHOICES = JSON.parse(document.getElementById("stb-explorer-choices").textContent);
  var ONE_DIE = ["never", "high-shut", "sum-le-5", "sum-le-6"];
  var MOVES = ["sum", "die-or-sum"];
  var GOAL_NAMES = ["win", "sum", "digits"];
  var FIELD = {win: "pWin", sum: "expectedSum", digits: "expectedDigits"};
  var script = document.currentScript ? document.currentScript.src : "";
  var BASE = script.replace(/explorer\.js(\?.*)?$/, "explorer/");
  var raw = {}, decoded = {}, loading = {};

  function decode(base64) {
    var bytes = atob(base64), view = new DataView(new ArrayBuffer(bytes.length));
    for (var i = 0; i < bytes.length; i++) view.setUint8(i, bytes.charCodeAt(i));
    var out = new Float64Array(bytes.length / 8);
    for (var j = 0; j < out.length; j++) out[j] = view.getFloat64(8 * j, true);
    return out;
  }

  function checkRules(rules) {
    if (!rules) throw new Error("rules must be an object like {tiles: 9}");
    var layout = rules.layout === undefined ? "row" : rules.layout;
    if (!CHOICES[layout]) throw new Error("rules.layout must be one of " + Object.keys(CHOICES).join(", "));
    var offered = CHOICES[layout];
    if (offered.tiles.indexOf(rules.tiles) < 0)
      throw new Error("rules.tiles must be one of " + offered.tiles.join(", ") + " for layout " + layout);
    var oneDie = rules.oneDie === undefined ? "never" : rules.oneDie;
    if (ONE_DIE.indexOf(oneDie) < 0) throw new Error("rules.oneDie must be one of " + ONE_DIE.join(", "));
    var moves = rules.moves === undefined ? "sum" : rules.moves;
    if (MOVES.indexOf(moves) < 0) throw new Error("rules.moves must be one of " + MOVES.join(", "));
    var goal = rules.goal === undefined ? "win" : rules.goal;
    if (offered.goals.indexOf(goal) < 0)
      throw new Error("rules.goal must be one of " + offered.goals.join(", ") + " for layout " + layout);
    return {layout: layout, tiles: rules.tiles, oneDie: oneDie, moves: moves, goal: goal};
  }

  function keyOf(rules) { return [rules.layout, rules.tiles, rules.oneDie, rules.moves].join("-"); }

  // Called by each values script as it loads.
  window.stbValues = function (key, values) {
    raw[key] = values;
    if (loading[key]) loading[key].resolve();
  };

  // Load the values of `rules` (a promise; resolved at once when they are there).
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

  // Too soon: the tiles of `board` that are down while a tile they wait for is up (0 when the board can arise).
  function shutTooSoon(L, board) {
    var out = 0;
    for (var p = 0; p < L.values.length; p++) if (L.needs[p] && !(board >> p & 1) && (board & L.needs[p])) out |= 1 << p;
    return out;
  }

  // The loaded game of `rules`: its layout, each goal's values, and where each board's value is stored.
  function game(rules) {
    var key = keyOf(rules);
    if (!raw[key]) throw new Error("the values of " + key + " are not loaded yet: wait for stbLoad(rules)");
    if (!decoded[key]) {
      var L = raw[key].layout, n = L.values.length, place = new Int32Array(1 << n), k = 0;
      for (var b = 0; b < 1 << n; b++) place[b] = shutTooSoon(L, b) ? -1 : k++;
      var values = {};
      GOAL_NAMES.forEach(function (g) { if (raw[key][g]) values[g] = decode(raw[key][g]); });
      decoded[key] = {layout: L, values: values, place: place, positions: n};
    }
    return decoded[key];
  }
  function valueOf(G, goal, board) { return G.values[goal][G.place[board]]; }

  function tilesOf(board, n) { var out = []; for (var p = 0; p < n; p++) if (board >> p & 1) out.push(p); return out; }
  function nameOf(L, p) { var s = L.labels[p]; return /^[0-9]+$/.test(s) ? Number(s) : s; }
  function namesOf(G, board) { return tilesOf(board, G.positions).map(function (p) { return nameOf(G.layout, p); }); }
  function label(G, board) { return "{" + tilesOf(board, G.positions).map(function (p) { return G.layout.labels[p]; }).join(", ") + "}"; }
  function total(G, board, weighted) {
    return tilesOf(board, G.positions).reduce(function (s, p) { return s + G.layout.values[p] * (weighted ? G.layout.weights[p] : 1); }, 0);
  }
  function weighted(G) { return G.layout.weights.some(function (w) { return w !== 1; }); }

  // The value of a finished game with `board` standing, for each goal.
  function finished(G, board) {
    var digits = tilesOf(board, G.positions).map(function (p) { return G.layout.labels[p]; }).join("");
    return {win: board === 0 ? 1 : 0, sum: total(G, board, true), digits: digits ? Number(digits) : 0};
  }

  // Every legal move (a bit-mask), in canonical order: tuples of positions compared lexicographically. A roll is
  // a total (open tiles whose values add up to it), or for the Thai style the dice themselves: [a, b] (one tile
  // equal to a, to b or to a + b) or one die a. A tile may be shut only if the tiles it waits for are down once
  // the move is played.
  function legalMoves(rules, G, board, roll) {
    var L = G.layout, found = [];
    if (rules.moves === "die-or-sum") {
      var faces = Array.isArray(roll) ? [roll[0], roll[1], roll[0] + roll[1]] : [roll];
      tilesOf(board, G.positions).forEach(function (p) { if (faces.indexOf(L.values[p]) >= 0) found.push(1 << p); });
    } else {
      (function extend(start, left, chosen) {
        if (left === 0) { found.push(chosen); return; }
        for (var p = start; p < G.positions; p++) {
          if (board >> p & 1 && L.values[p] <= left) extend(p + 1, left - L.values[p], chosen | 1 << p);
        }
      })(0, roll, 0);
    }
    return found.filter(function (move) {
      var after = board & ~move;
      return tilesOf(move, G.positions).every(function (p) { return !(after & L.needs[p]); });
    });
  }

  function oneDieAllowed(rules, G, board) {
    var tiles = tilesOf(board, G.positions), L = G.layout;
    if (rules.oneDie === "high-shut") return tiles.every(function (p) { return L.values[p] < 7; });
    var threshold = /^sum-le-(\d+)$/.exec(rules.oneDie);
    if (!threshold) return false;
    var exposed = tiles.reduce(function (s, p) { return s + (board & L.needs[p] ? 0 : L.values[p]); }, 0);
    return exposed <= Number(threshold[1]);
  }

  // The outcomes of rolling `dice` dice, each with its chance: totals, or for the Thai style the dice themselves.
  function outcomes(rules, dice) {
    var out = [], a, b;
    if (dice === 1) { for (a = 1; a <= 6; a++) out.push({roll: a, p: 1 / 6}); return out; }
    for (a = 1; a <= 6; a++) {
      for (b = a; b <= 6; b++) {
        var p = (a === b ? 1 : 2) / 36;
        out.push({roll: rules.moves === "die-or-sum" ? [a, b] : a + b, p: p});
      }
    }
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
    if (shutTooSoon(L, board)) throw new Error("open " + label(G, board) + " cannot arise: a tile is down while one it waits for is up");
    return board;
  }

  function checkRoll(rules, roll) {
    var die = function (x) { return Number.isInteger(x) && x >= 1 && x <= 6; };
    if (rules.moves === "die-or-sum") {
      if (!(Array.isArray(roll) ? roll.length === 2 && die(roll[0]) && die(roll[1]) : die(roll)))
        throw new Error("roll must be two dice [a, b] or one die, each 1 to 6");
    } else if (!(Number.isInteger(roll) && roll >= 1 && roll <= 12)) {
      throw new Error("roll must be a total the dice can show: 2 to 12 (1 to 6 with one die); got " + JSON.stringify(roll));
    }
    return roll;
  }

  // Every legal move with the values after it, best first for rules.goal (default: the chance of shutting the
  // box); equally good moves in canonical order. [] when no move is legal.
  function stbAdvise(rules, open, roll) {
    rules = checkRules(rules);
    var G = game(rules), board = boardOf(G, open);
    roll = checkRoll(rules, roll);
    var field = FIELD[rules.goal], sign = rules.goal === "win" ? -1 : 1;
    var rows = legalMoves(rules, G, board, roll).map(function (move, order) {
      var after = board & ~move, row = {move: namesOf(G, move), order: order};
      Object.keys(G.values).forEach(function (g) { row[FIELD[g]] = valueOf(G, g, after); });
      return row;
    });
    rows.sort(function (a, b) { return sign * (a[field] - b[field]) || a.order - b.order; });
    return rows.map(function (r) { delete r.order; return r; });
  }

  // Q(S, r) for a goal: the value after the best of `moves` (the legal moves for the roll), or the finished
  // game's value when there is none.
  function bestAfter(G, goal, board, moves) {
    if (!moves.length) return finished(G, board)[goal];
    var best = goal === "win" ? -1 : Infinity;
    moves.forEach(function (m) {
      var after = valueOf(G, goal, board & ~m);
      best = goal === "win" ? Math.max(best, after) : Math.min(best, after);
    });
    return best;
  }

  // The value of rolling `dice` dice from the board, for each goal (perfect play for that goal afterwards).
  function rollValue(rules, G, board, dice) {
    var out = {};
    Object.keys(G.values).forEach(function (goal) { out[goal] = 0; });
    outcomes(rules, dice).forEach(function (o) {
      var moves = legalMoves(rules, G, board, o.roll);
      Object.keys(out).forEach(function (goal) { out[goal] += o.p * bestAfter(G, goal, board, moves); });
    });
    return out;
  }

  // {1: values, 2: values} where the rules let the player roll one die from this board; null otherwise.
  function diceValues(rules, G, board) {
    return oneDieAllowed(rules, G, board) ? {1: rollValue(rules, G, board, 1), 2: rollValue(rules, G, board, 2)} : null;
  }

  // -- game analysis: the luck of each roll and the loss of each decision, as the command line's analyse ---------
  // A record is one turn per roll, "8:2+6 7:7 11:8+3 12:-": the dice rolled where the rules give a choice (1d),
  // the roll (the total; in the Thai style the dice, 3,4), then the tiles shut (- where no move was legal). With
  // V the values of perfect play, V_d(S) the value of rolling d dice and Q(S, r) the value after the best move for
  // roll r, in the goal's sense s (+1 for the win, -1 for a score): dice loss s (V(S) - V_d(S)), luck
  // s (Q(S, r) - V_d(S)), move loss s (Q(S, r) - V(after)); start + s (luck - loss) = outcome.
  var ANALYSIS = JSON.parse(document.getElementById("stb-explorer-analysis").textContent);
  var TURN = /^(?:(\d+)d)?([\d,]+):(-|[^\s:]+)$/;

  function sameValue(a, b) { return Math.abs(a - b) <= ANALYSIS.valueRtol * Math.max(Math.abs(a), Math.abs(b)); }
  function noLoss(x) { return Math.abs(x) <= ANALYSIS.noLoss; }
  function grade(loss, objective) {
    if (noLoss(loss)) return "best";
    var reached = "good";
    (ANALYSIS.grades[objective] || []).forEach(function (at, i) { if (loss >= at) reached = ANALYSIS.gradeNames[i]; });
    return reached;
  }
  function diceChoices(rules, G, board) { return oneDieAllowed(rules, G, board) ? [1, 2] : [2]; }
  function rollWords(roll) { return Array.isArray(roll) ? roll.join(",") : String(roll); }

  // A roll as a record writes it, `dice` dice rolled: a total, or in the Thai style the dice (sorted).
  function rollOfWords(rules, text, dice) {
    if (rules.moves === "sum") {
      if (!/^\d+$/.test(text) || +text < dice || +text > 6 * dice)
        throw new Error(dice + " " + (dice === 1 ? "die" : "dice") + " show a total from " + dice + " to " + 6 * dice + "; got " + text);
      return Number(text);
    }
    var faces = text.split(",");
    if (faces.length !== dice || !faces.every(function (f) { return /^\d+$/.test(f) && +f >= 1 && +f <= 6; }))
      throw new Error("under moves " + rules.moves + " a roll is the dice, each 1 to 6: " +
                      (dice === 1 ? "one die, like 5" : "two, like 3,4") + "; got " + text);
    faces = faces.map(Number).sort(function (a, b) { return a - b; });
    return dice === 1 ? faces[0] : faces;
  }

  // The turns of a record, each checked against the rules and the game so far (the refusals of stb analyse).
  function parseRecord(rules, G, record) {
    if (typeof record !== "string" || !record.trim())
      throw new Error("game must be one turn per roll, like '8:2+6 7:7 5:-' (the total rolled, then the tiles shut, " +
                      "or - where no move was legal); got an empty record");
    var board = (1 << G.positions) - 1, over = "", turns = [];
    record.trim().split(/\s+/).forEach(function (item, i) {
      var n = i + 1, match = TURN.exec(item);
      if (!match) throw new Error("game turn " + n + " must read ROLL:TILES, like 8:2+6 or 5:- (with a choice of dice, " +
                                  "1d4:4; under moves die-or-sum the dice, 3,4:7); got '" + item + "'");
      if (over || board === 0) throw new Error("game turn " + n + " (" + item + ") comes after the game ended: " + (over || "the box was won"));
      var choices = diceChoices(rules, G, board), dice = match[1] ? Number(match[1]) : null;
      if (dice === null && choices.length > 1)
        throw new Error("game turn " + n + ": from open " + label(G, board) + " the player may roll " + choices.join(" or ") +
                        " dice; write the number rolled, like " + choices[0] + "d" + match[2] + ":" + match[3]);
      if (dice === null) dice = choices[choices.length - 1];
      if (choices.indexOf(dice) < 0)
        throw new Error("game turn " + n + ": from open " + label(G, board) + " the player rolls " + choices.join(" or ") + " dice, not " + dice);
      var roll;
      try { roll = rollOfWords(rules, match[2], dice); } catch (error) { throw new Error("game turn " + n + ": " + error.message); }
      var legal = legalMoves(rules, G, board, roll);
      if (match[3] === "-") {
        if (legal.length) throw new Error("game turn " + n + ": a roll of " + match[2] + " on open " + label(G, board) +
                                          " has a legal move (" + label(G, boardOf(G, stbAdvise(rules, namesOf(G, board), roll)[0].move)) +
                                          "); write the tiles shut");
        turns.push({dice: dice, roll: roll, played: null});
        over = "turn " + n + " found no move for " + match[2];
        return;
      }
      var move = 0;
      match[3].split("+").forEach(function (name) {
        var p = G.layout.labels.indexOf(name);
        if (p < 0 || move >> p & 1)
          throw new Error("game turn " + n + ": tiles must be among " + G.layout.labels.join(", ") + " joined by +, each once, like 2+6; got '" + match[3] + "'");
        move |= 1 << p;
      });
      if (move & ~board) throw new Error("game turn " + n + ": tiles " + label(G, move & ~board) + " are not open (open: " + label(G, board) + ")");
      if (legal.indexOf(move) < 0)
        throw new Error("game turn " + n + ": shutting " + label(G, move) + " is not a legal move for a roll of " + match[2] + " on open " + label(G, board));
      turns.push({dice: dice, roll: roll, played: move});
      board &= ~move;
    });
    if (!over && board !== 0)
      throw new Error("game ends at turn " + turns.length + " with open " + label(G, board) +
                      ", which is neither won nor ended: add the roll that found no move (like 5:-)");
    return turns;
  }

  // The analysis of a game record for rules.goal, as `stb analyse --game RECORD --json` gives it.
  function stbAnalyse(rules, record) {
    rules = checkRules(rules);
    var G = game(rules), goal = rules.goal, objective = ANALYSIS.objectives[goal], sense = goal === "win" ? 1 : -1;
    var turns = parseRecord(rules, G, record), board = (1 << G.positions) - 1, start = valueOf(G, goal, board);
    var rows = turns.map(function (t) {
      var values = {};
      diceChoices(rules, G, board).forEach(function (d) { values[d] = rollValue(rules, G, board, d)[goal]; });
      var rolled = values[t.dice], bestDice = rolled;
      Object.keys(values).forEach(function (d) { if (sense * values[d] > sense * bestDice) bestDice = values[d]; });
      var diceLoss = sense * (bestDice - rolled) + 0;
      var legal = legalMoves(rules, G, board, t.roll), best = bestAfter(G, goal, board, legal);
      var after = t.played === null ? board : board & ~t.played;
      var valueAfter = t.played === null ? finished(G, board)[goal] : valueOf(G, goal, after);
      var moveLoss = sense * (best - valueAfter) + 0;
      var row = {open: label(G, board), dice: t.dice, roll: t.roll,
                 played: t.played === null ? "-" : label(G, t.played),
                 best: legal.filter(function (m) { return sameValue(valueOf(G, goal, board & ~m), best); })
                   .map(function (m) { return label(G, m); }),
                 grade: grade(diceLoss + moveLoss, objective), luck: sense * (best - rolled) + 0, dice_loss: diceLoss,
                 move_loss: moveLoss, loss: diceLoss + moveLoss, value_after: valueAfter};
      board = after;
      return row;
    });
    var outcome = finished(G, board)[goal], luck = 0, loss = 0;
    rows.forEach(function (r) { luck += r.luck; loss += r.loss; });
    var grades = {};
    (ANALYSIS.grades[objective] || []).forEach(function (at, i) { grades[ANALYSIS.gradeNames[i]] = at; });
    var reached = start + sense * (luck - loss);
    return {game: record, start: start, outcome: outcome, luck: luck, loss: loss,
            identity: sense > 0 ? "start + luck - loss = outcome" : "start - luck + loss = outcome",
            holds: sameValue(reached, outcome) || noLoss(reached - outcome), turns: rows, grades: grades,
            rules: raw[keyOf(rules)].rules, objective: objective};
  }

  window.stbLoad = stbLoad;
  window.stbAdvise = stbAdvise;
  window.stbAnalyse = stbAnalyse;
  window.stbDiceValues = function (rules, open) {
    rules = checkRules(rules);
    var G = game(rules);
    return diceValues(rules, G, boardOf(G, open));
  };

  // -- the page ----------------------------------------------------------------------------------------------
  var state = {rules: checkRules({tiles: 9}), board: 0, roll: null, history: []};
  var $ = function (id) { return document.getElementById(id); };

  function percent(p) {
    if (p === 0) return "0%";
    var x = 100 * p;
    return (x >= 0.01 ? x.toFixed(2) : x.toPrecision(2)) + "%";
  }
  function amount(x) { return x.toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2}); }
  function rollLabel(roll) { return Array.isArray(roll) ? roll[0] + " and " + roll[1] : String(roll); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function current() { return game(state.rules); }
  function fullBoard() { return (1 << current().positions) - 1; }
  // The goals in words: the score is the sum left, or with weights (Double Shutter) the weighted sum.
  function goalWords(G) {
    return {win: "the win", sum: weighted(G) ? "the lowest score" : "the lowest sum left", digits: "the lowest digit score"};
  }
  // The goals' names in the "best for" column, narrow enough for a phone.
  function shortNames(G) { return {win: "win", sum: weighted(G) ? "score" : "sum", digits: "digits"}; }
  function heads(G) { return {sum: weighted(G) ? "expected score" : "expected sum left", digits: "expected digit score"}; }
  // The second goal shown beside the chance of winning: the reader's goal, or the lowest score when it is the win.
  function other() { return state.rules.goal === "win" ? "sum" : state.rules.goal; }

  function tileButton(G, p) {
    var open = !!(state.board >> p & 1), back = !!G.layout.needs[p];
    var b = el("button", {type: "button", "class": "stb-tile" + (back ? " stb-back" : ""), "aria-pressed": String(open),
                          "data-tile": G.layout.labels[p]}, String(G.layout.values[p]));
    b.title = (back ? "back tile " : "tile ") + G.layout.labels[p] + ": " + (open ? "open (tap to shut)" : "shut (tap to open)");
    b.setAttribute("aria-label", (back ? "back tile worth " : "tile ") + G.layout.values[p] + (open ? ", open" : ", shut"));
    return b;
  }

  function drawBoard() {
    var G = current(), L = G.layout, box = $("stb-board"), second = other(), words = goalWords(G);
    box.textContent = "";
    var fronts = [], placed = 0;
    for (var p = 0; p < G.positions; p++) if (!L.needs[p]) fronts.push(p);
    fronts.forEach(function (f) {  // a tile that waits for front tile f stands above it, the two kept together
      var behind = [];
      for (var q = 0; q < G.positions; q++) if (L.needs[q] === 1 << f) behind.push(q);
      if (!behind.length) { box.appendChild(tileButton(G, f)); return; }
      var pair = el("div", {"class": "stb-pair", role: "group", "aria-label": "tile " + L.labels[f] + " and the tiles behind it"});
      behind.forEach(function (q) { pair.appendChild(tileButton(G, q)); placed |= 1 << q; });
      pair.appendChild(tileButton(G, f));
      box.appendChild(pair);
    });
    for (var r = 0; r < G.positions; r++) if (L.needs[r] && !(placed >> r & 1)) box.appendChild(tileButton(G, r));
    var hasBack = L.needs.some(function (n) { return n; });
    $("stb-layout-note").hidden = !hasBack;
    var board = state.board;
    $("stb-board-value").textContent = board === 0 ? "Every tile is shut: the box is shut, the game is won." :
      "Open " + label(G, board) + " (" + (weighted(G) ? "score " + total(G, board, true) : "sum " + total(G, board, false)) +
      "): with perfect play the chance of shutting the box is " + percent(valueOf(G, "win", board)) + "; playing for " +
      words[second] + ", the " + heads(G)[second] + " is " + amount(valueOf(G, second, board)) + ".";
    var dice = board ? diceValues(state.rules, G, board) : null;
    var target = $("stb-dice");
    target.textContent = "";
    if (dice) {
      var t1 = el("table", {"class": "stb-table", id: "stb-dice-table"});
      t1.appendChild(el("caption", {}, "One die or two from this board (perfect play afterwards)"));
      var head = el("tr"); ["roll", "P(win)", heads(G)[second]].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      t1.appendChild(head);
      [1, 2].forEach(function (d) {
        var row = el("tr");
        row.appendChild(el("td", {}, d === 1 ? "one die" : "two dice"));
        row.appendChild(el("td", {}, percent(dice[d].win)));
        row.appendChild(el("td", {}, amount(dice[d][second])));
        t1.appendChild(row);
      });
      var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(t1); target.appendChild(wrap);
      var forWin = dice[1].win > dice[2].win ? "one die" : (dice[1].win < dice[2].win ? "two dice" : "either");
      var forOther = dice[1][second] < dice[2][second] ? "one die" : (dice[1][second] > dice[2][second] ? "two dice" : "either");
      target.appendChild(el("p", {"class": "stb-finding", id: "stb-dice-advice"}, forWin === forOther ?
        (forWin === "either" ? "One die and two dice are worth the same here, for either goal." :
         "Roll " + forWin + ", whether you play to shut the box or for " + words[second] + ".") :
        "To shut the box, roll " + forWin + "; for " + words[second] + ", roll " + forOther + ". The two goals disagree here."));
    }
  }

  function rollButton(roll, text) {
    var pressed = JSON.stringify(state.roll) === JSON.stringify(roll);
    return el("button", {type: "button", "class": "stb-roll", "aria-pressed": String(pressed),
                         "data-roll": Array.isArray(roll) ? roll.join(",") : String(roll)}, text);
  }

  function drawRolls() {
    var box = $("stb-rolls"), one = oneDieAllowed(state.rules, current(), state.board);
    box.textContent = "";
    if (state.rules.moves === "die-or-sum") {
      for (var a = 1; a <= 6; a++) for (var b = a; b <= 6; b++) box.appendChild(rollButton([a, b], a + "·" + b));
      if (one) for (var d = 1; d <= 6; d++) box.appendChild(rollButton(d, "one die: " + d));
      return;
    }
    for (var r = one ? 1 : 2; r <= 12; r++) box.appendChild(rollButton(r, String(r)));
  }

  function drawMoves() {
    var box = $("stb-moves"), G = current(), words = goalWords(G);
    box.textContent = "";
    if (state.roll === null) { box.appendChild(el("p", {}, "Tap a roll to see the moves.")); return; }
    if (state.board === 0) { box.appendChild(el("p", {}, "The box is shut: nothing left to move.")); return; }
    var open = namesOf(G, state.board), rows = stbAdvise(state.rules, open, state.roll), second = other();
    if (!rows.length) {
      box.appendChild(el("p", {id: "stb-no-move"}, "No open tile can be shut with a roll of " + rollLabel(state.roll) +
        ": the game ends with " + label(G, state.board) + " open."));
      return;
    }
    var best = {}, asLabel = function (move) { return "{" + move.join(", ") + "}"; };
    Object.keys(G.values).forEach(function (goal) {
      var rules = {layout: state.rules.layout, tiles: state.rules.tiles, oneDie: state.rules.oneDie,
                   moves: state.rules.moves, goal: goal};
      best[goal] = asLabel(stbAdvise(rules, open, state.roll)[0].move);
    });
    var short = shortNames(G), names = Object.keys(G.values).map(function (g) { return short[g]; }).join(", ");
    var table = el("table", {"class": "stb-table", id: "stb-moves-table"});
    table.appendChild(el("caption", {}, "Every legal move for open " + label(G, state.board) + " and a roll of " +
      rollLabel(state.roll) + ", best first for " + words[state.rules.goal] + "; “best for” names the goals (" +
      names + ") each move is best for"));
    var head = el("tr");
    ["shut", "P(win) after", heads(G)[second] + " after", "best for", ""].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    rows.forEach(function (r) {
      var row = el("tr"), name = asLabel(r.move);
      row.appendChild(el("td", {}, name));
      row.appendChild(el("td", {}, percent(r.pWin)));
      row.appendChild(el("td", {}, amount(r[FIELD[second]])));
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

  function draw() { drawBoard(); drawRolls(); drawMoves(); $("stb-undo").disabled = !state.history.length; }

  function remember() { state.history.push({board: state.board, roll: state.roll}); }

  function readRoll(text) {
    var parts = text.split(",").map(Number);
    return parts.length === 2 ? parts : parts[0];
  }

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
    if (t.classList.contains("stb-tile")) {
      remember();
      toggle(current().layout.labels.indexOf(t.getAttribute("data-tile")));
      var oneDieRoll = state.rules.moves === "die-or-sum" ? !Array.isArray(state.roll) : state.roll === 1;
      if (state.roll !== null && oneDieRoll && !oneDieAllowed(state.rules, current(), state.board)) state.roll = null;
      draw();
    } else if (t.classList.contains("stb-roll")) {
      state.roll = readRoll(t.getAttribute("data-roll")); draw();
    } else if (t.classList.contains("stb-play")) {
      remember();
      state.board = state.board & ~boardOf(current(), t.getAttribute("data-move").split(",").map(function (s) {
        return /^[0-9]+$/.test(s) ? Number(s) : s; }));
      state.roll = null; draw();
    }
  });
  $("stb-undo").addEventListener("click", function () {
    var last = state.history.pop();
    if (last) { state.board = last.board; state.roll = last.roll; draw(); }
  });
  $("stb-reset").addEventListener("click", function () { remember(); state.board = fullBoard(); state.roll = null; draw(); });
  $("stb-roll-again").addEventListener("click", function () {
    var dice = state.board ? diceValues(state.rules, current(), state.board) : null, goal = state.rules.goal,
      one = false;
    if (dice) one = goal === "win" ? dice[1].win > dice[2].win : dice[1][goal] < dice[2][goal];
    var die = function () { return 1 + Math.floor(Math.random() * 6); };
    if (one) state.roll = die();
    else if (state.rules.moves === "die-or-sum") state.roll = [die(), die()].sort(function (a, b) { return a - b; });
    else state.roll = die() + die();
    draw();
  });

  // The controls offer what the picked layout has: its tiles, its goals (the digit score reads one row only), and
  // the score's name (the sum left, or Double Shutter's weighted score).
  function fitControls() {
    var layout = $("stb-layout").value, offered = CHOICES[layout];
    [["stb-tiles", offered.tiles.map(String)], ["stb-goal", offered.goals]].forEach(function (pair) {
      var select = $(pair[0]);
      [].forEach.call(select.options, function (o) { o.disabled = pair[1].indexOf(o.value) < 0; o.hidden = o.disabled; });
      if (select.selectedOptions[0].disabled) select.value = pair[1][0];
    });
    $("stb-goal").querySelector("option[value=sum]").textContent =
      layout === "row" ? "the lowest sum left" : "the lowest score";
  }

  function rulesChanged() {
    var picked;
    try {  // a value the form does not offer (an edited page, a script) is named on the page, the board kept
      if (!CHOICES[$("stb-layout").value]) throw new Error("rules.layout must be one of " + Object.keys(CHOICES).join(", "));
      fitControls();
      picked = checkRules({layout: $("stb-layout").value, tiles: Number($("stb-tiles").value),
                           oneDie: $("stb-one-die").value, moves: $("stb-moves-rule").value, goal: $("stb-goal").value});
    } catch (error) {
      $("stb-board-value").textContent = error.message;
      return;
    }
    var sameBoard = keyOf(picked) === keyOf(state.rules) && state.board;
    stbLoad(picked).then(function () {
      state.rules = picked;
      if (!sameBoard) { state.board = fullBoard(); state.roll = null; state.history = []; }
      if (trainer && trainer.rules && (keyOf(trainer.rules) !== keyOf(picked) || trainer.rules.goal !== picked.goal)) trainer = null;
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
  var trainer = null;  // {rules, random, board, turns, dice, roll, faces, picked, record, analysis, error}

  function trainerRecord(T) {
    var G = game(T.rules);
    return T.turns.map(function (t) {
      return (t.choice ? t.dice + "d" : "") + rollWords(t.roll) + ":" + (t.played === null ? "-" : namesOf(G, t.played).join("+"));
    }).join(" ");
  }
  function throwDice(T, dice) {
    var faces = [];
    for (var i = 0; i < dice; i++) faces.push(1 + Math.floor(T.random() * 6));
    T.faces = faces; T.dice = dice; T.picked = 0;
    if (T.rules.moves === "die-or-sum") T.roll = dice === 1 ? faces[0] : faces.slice().sort(function (a, b) { return a - b; });
    else T.roll = faces.reduce(function (x, f) { return x + f; }, 0);
    T.choice = oneDieAllowed(T.rules, game(T.rules), T.board);
    if (!legalMoves(T.rules, game(T.rules), T.board, T.roll).length) {
      T.turns.push({dice: dice, roll: T.roll, played: null, choice: T.choice});
      return trainerEnd(T);
    }
  }
  function trainerTurn(T) {  // the next turn: the reader picks the dice where the rules give a choice
    T.roll = null; T.dice = null; T.picked = 0;
    if (T.board === 0) return trainerEnd(T);
    if (!oneDieAllowed(T.rules, game(T.rules), T.board)) throwDice(T, 2);
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
      trainer = {rules: state.rules, random: seeded(seed), board: fullBoard(), turns: [], seed: seed};
      trainerTurn(trainer);
    }
    drawTrainer();
  }

  // Luck with its sign, a loss (never negative) without one: percentage points of the chance of winning, or
  // points of the score; `unit` adds " pp" for the win. Rounding never shows a negative zero.
  function points(x, win, sign, unit) {
    var shown = win ? (100 * x).toFixed(2) : x.toFixed(3);
    if (/^-?0\.0+$/.test(shown)) shown = "0";
    var text = shown.charAt(0) === "-" ? "−" + shown.slice(1) : (sign && shown !== "0" ? "+" : "") + shown;
    return text + (unit && win ? " pp" : "");
  }
  function valueText(x, win) { return win ? percent(x) : x.toFixed(3); }
  function cliFlags(rules) {
    var flags = [];
    if (rules.layout !== "row") flags.push("--layout " + rules.layout);
    if (rules.tiles !== 9) flags.push("--tiles " + rules.tiles);
    if (rules.oneDie !== "never") flags.push("--one-die " + rules.oneDie);
    if (rules.moves !== "sum") flags.push("--moves " + rules.moves);
    if (rules.goal !== "win") flags.push("--objective " + ANALYSIS.objectives[rules.goal]);
    return flags.join(" ");
  }

  function drawAnalysis(T, box) {
    var A = T.analysis, win = T.rules.goal === "win", G = game(T.rules), words = goalWords(G)[T.rules.goal];
    box.appendChild(el("p", {}, "Playing for " + words + ", each roll's luck and each decision's loss against " +
      "perfect play, " + (win ? "in percentage points (pp) of the chance of shutting the box" : "in points of the score") +
      ", with the best moves for the roll:"));
    var table = el("table", {"class": "stb-table stb-train-table", id: "stb-train-table"});
    table.appendChild(el("caption", {}, "Your game, turn by turn"));
    var head = el("tr"), unit = win ? " (pp)" : "";
    ["turn", "open", "roll", "shut", "best", "luck" + unit, "loss" + unit, "grade"].forEach(function (h, i) {
      head.appendChild(el("th", i === 1 ? {"class": "stb-wide"} : {}, h));
    });
    table.appendChild(head);
    A.turns.forEach(function (t, i) {
      var row = el("tr");
      [String(i + 1), t.open, (T.turns[i].choice ? t.dice + "d " : "") + rollWords(t.roll), t.played,
       t.best.join("; ") || "-", points(t.luck, win, true), points(t.loss, win, false), t.grade].forEach(function (c, j) {
        row.appendChild(el("td", j === 1 ? {"class": "stb-wide"} : {}, c));
      });
      table.appendChild(row);
    });
    var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(table); box.appendChild(wrap);
    var sign = win ? ["+", "−"] : ["−", "+"];
    box.appendChild(el("p", {"class": "stb-finding", id: "stb-train-identity"}, "Start " + valueText(A.start, win) +
      " " + sign[0] + " luck (" + points(A.luck, win, true, true) + ") " + sign[1] + " loss " +
      points(A.loss, win, false, true) + " = outcome " + valueText(A.outcome, win) +
      (A.holds ? "" : " — the sums do not meet here: please report it") + "."));
    var names = Object.keys(A.grades);
    if (names.length) {
      box.appendChild(el("p", {id: "stb-train-grades"}, "A decision that loses nothing is best; one that loses at least " +
        names.map(function (g) { return points(A.grades[g], win, false, true) + " is " + (g === "inaccuracy" ? "an " : "a ") + g; }).join(", ") +
        "; any smaller loss is good."));
    }
    var cmd = el("p", {id: "stb-train-command"}, "The same analysis on the command line: ");
    cmd.appendChild(el("code", {}, "stb analyse " + (cliFlags(T.rules) ? cliFlags(T.rules) + " " : "") + "--game \"" + A.game + "\""));
    box.appendChild(cmd);
  }

  function drawTrainer() {
    var status = $("stb-train-status"), board = $("stb-train-board"), diceBox = $("stb-train-dice"), T = trainer;
    var playButton = $("stb-train-play"), out = $("stb-train-analysis");
    board.textContent = ""; diceBox.textContent = ""; out.textContent = ""; diceBox.hidden = true; playButton.disabled = true;
    if (!T) { status.textContent = "Press “start a game” to play."; return; }
    if (T.error) { status.textContent = T.error; return; }
    var G = game(T.rules), L = G.layout;
    for (var p = 0; p < G.positions; p++) {
      var open = !!(T.board >> p & 1), picked = !!(T.picked >> p & 1);
      var b = el("button", {type: "button", "class": "stb-tile" + (L.needs[p] ? " stb-back" : "") + (picked ? " stb-picked" : ""),
                            "aria-pressed": String(open), "data-tile": L.labels[p]}, String(L.values[p]));
      b.disabled = !open || T.roll === null;
      b.setAttribute("aria-label", (L.needs[p] ? "back tile worth " : "tile ") + L.values[p] + (open ? (picked ? ", picked" : ", open") : ", shut"));
      board.appendChild(b);
    }
    if (T.analysis) {
      status.textContent = "Game over after " + T.turns.length + (T.turns.length === 1 ? " roll" : " rolls") + ": " +
        (T.board === 0 ? "you shut the box." : "no move for the last roll, " + label(G, T.board) + " left open.");
      return drawAnalysis(T, out);
    }
    if (T.roll === null) {
      status.textContent = "Roll " + (T.turns.length + 1) + ": the rules let you roll one die or two from " + label(G, T.board) + ".";
      diceBox.hidden = false;
      [1, 2].forEach(function (d) {
        diceBox.appendChild(el("button", {type: "button", "class": "stb-roll", "data-dice": String(d), "aria-pressed": "false"},
                               d === 1 ? "roll one die" : "roll two dice"));
      });
      return;
    }
    var sum = tilesOf(T.picked, G.positions).reduce(function (x, q) { return x + L.values[q]; }, 0);
    var thrown = T.faces.length === 1 ? "one die: " + T.faces[0] : T.faces.join(" and ") +
      (T.rules.moves === "sum" ? " (" + T.roll + ")" : "");
    status.textContent = "Roll " + (T.turns.length + 1) + ": " + thrown + ". " + (T.rules.moves === "sum" ?
      "Tap open tiles adding up to " + T.roll + "; picked so far: " + sum + "." :
      "Tap one open tile equal to a die or to their sum.");
    playButton.disabled = legalMoves(T.rules, G, T.board, T.roll).indexOf(T.picked) < 0;
  }

  $("stb-trainer").addEventListener("click", function (event) {
    var t = event.target.closest("button"), T = trainer;
    if (!t || !T || T.error || T.analysis) return;
    if (t.hasAttribute("data-dice")) {
      throwDice(T, Number(t.getAttribute("data-dice")));
    } else if (t.hasAttribute("data-tile") && T.roll !== null) {
      T.picked ^= 1 << game(T.rules).layout.labels.indexOf(t.getAttribute("data-tile"));
    } else if (t.id === "stb-train-play" && T.roll !== null) {
      if (legalMoves(T.rules, game(T.rules), T.board, T.roll).indexOf(T.picked) < 0) return;
      T.turns.push({dice: T.dice, roll: T.roll, played: T.picked, choice: T.choice});
      T.board &= ~T.picked;
      trainerTurn(T);
    }
    drawTrainer();
  });
  $("stb-train-start").addEventListener("click", trainerStart);
  rulesChanged();
})();
