// The position explorer of "Shut the Box, solved exactly". Plain script, no framework, no network.
//
// For each rules choice the report writes assets/explorer/<tiles>-<one die>-<moves>.js, which calls
// stbValues(key, {win, sum, digits}): three arrays indexed by board bit-mask (tile t open <=> bit t-1 set), the
// chance of shutting the box with perfect play V_win(S), the least expected sum left V_sum(S) and the least
// expected digit score V_digits(S), all computed by the project's engine (stb_core.sweep). This script loads the
// arrays of the rules the reader picks, finds the legal moves and reads the values after each move.
(function () {
  "use strict";

  var TILES = [9, 10, 12];
  var ONE_DIE = ["never", "high-shut", "sum-le-5", "sum-le-6"];
  var MOVES = ["sum", "die-or-sum"];
  var GOALS = {win: "the win", sum: "the lowest sum", digits: "the lowest digit score"};
  var SHORT = {win: "win", sum: "sum", digits: "digits"};  // the "best for" column, narrow enough for a phone
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
    if (!rules || TILES.indexOf(rules.tiles) < 0) throw new Error("rules.tiles must be one of " + TILES.join(", "));
    var oneDie = rules.oneDie === undefined ? "never" : rules.oneDie;
    if (ONE_DIE.indexOf(oneDie) < 0) throw new Error("rules.oneDie must be one of " + ONE_DIE.join(", "));
    var moves = rules.moves === undefined ? "sum" : rules.moves;
    if (MOVES.indexOf(moves) < 0) throw new Error("rules.moves must be one of " + MOVES.join(", "));
    var goal = rules.goal === undefined ? "win" : rules.goal;
    if (!GOALS[goal]) throw new Error("rules.goal must be one of " + Object.keys(GOALS).join(", "));
    return {tiles: rules.tiles, oneDie: oneDie, moves: moves, goal: goal};
  }

  function keyOf(rules) { return rules.tiles + "-" + rules.oneDie + "-" + rules.moves; }

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

  function values(rules) {
    var key = keyOf(rules);
    if (!raw[key]) throw new Error("the values of " + key + " are not loaded yet: wait for stbLoad(rules)");
    if (!decoded[key]) decoded[key] = {win: decode(raw[key].win), sum: decode(raw[key].sum), digits: decode(raw[key].digits)};
    return decoded[key];
  }

  function maskOf(tiles) { return tiles.reduce(function (m, t) { return m | (1 << (t - 1)); }, 0); }
  function sumOf(tiles) { return tiles.reduce(function (s, t) { return s + t; }, 0); }
  function digitsOf(tiles) { return tiles.length ? Number(tiles.join("")) : 0; }

  // The value of a finished game with `open` standing, for each goal.
  function finished(open) { return {win: open.length === 0 ? 1 : 0, sum: sumOf(open), digits: digitsOf(open)}; }

  // Every legal move, tiles increasing, moves in lexicographic order. A roll is a total (moves that add up to
  // it), or for the Thai style the dice themselves: [a, b] (one tile equal to a, to b or to a + b) or one die a.
  function legalMoves(rules, open, roll) {
    if (rules.moves === "die-or-sum") {
      var faces = Array.isArray(roll) ? [roll[0], roll[1], roll[0] + roll[1]] : [roll];
      return open.filter(function (t) { return faces.indexOf(t) >= 0; }).map(function (t) { return [t]; });
    }
    var found = [];
    (function extend(start, left, chosen) {
      if (left === 0) { found.push(chosen.slice()); return; }
      for (var i = start; i < open.length && open[i] <= left; i++) {
        chosen.push(open[i]); extend(i + 1, left - open[i], chosen); chosen.pop();
      }
    })(0, roll, []);
    return found;
  }

  function oneDieAllowed(rules, open) {
    if (rules.oneDie === "high-shut") return open.every(function (t) { return t < 7; });
    var threshold = /^sum-le-(\d+)$/.exec(rules.oneDie);
    return threshold ? sumOf(open) <= Number(threshold[1]) : false;
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

  function checkOpen(rules, open) {
    var seen = {};
    open.forEach(function (t) {
      if (!Number.isInteger(t) || t < 1 || t > rules.tiles) throw new Error("open tiles must be between 1 and " + rules.tiles);
      if (seen[t]) throw new Error("open lists tile " + t + " twice");
      seen[t] = true;
    });
    return open.slice().sort(function (a, b) { return a - b; });
  }

  function checkRoll(rules, roll) {
    var die = function (x) { return Number.isInteger(x) && x >= 1 && x <= 6; };
    if (rules.moves === "die-or-sum") {
      if (!(Array.isArray(roll) ? roll.length === 2 && die(roll[0]) && die(roll[1]) : die(roll)))
        throw new Error("roll must be two dice [a, b] or one die, each 1 to 6");
    } else if (!Number.isInteger(roll)) {
      throw new Error("roll must be an integer total");
    }
    return roll;
  }

  // Every legal move with the three values after it, best first for rules.goal (default: the chance of shutting
  // the box); equally good moves in lexicographic order. [] when no move is legal.
  function stbAdvise(rules, open, roll) {
    rules = checkRules(rules);
    open = checkOpen(rules, open || []);
    roll = checkRoll(rules, roll);
    var v = values(rules), board = maskOf(open), field = FIELD[rules.goal], sign = rules.goal === "win" ? -1 : 1;
    var rows = legalMoves(rules, open, roll).map(function (move, order) {
      var after = board & ~maskOf(move);
      return {move: move, pWin: v.win[after], expectedSum: v.sum[after], expectedDigits: v.digits[after], order: order};
    });
    rows.sort(function (a, b) { return sign * (a[field] - b[field]) || a.order - b.order; });
    return rows.map(function (r) {
      return {move: r.move, pWin: r.pWin, expectedSum: r.expectedSum, expectedDigits: r.expectedDigits};
    });
  }

  // The value of rolling `dice` dice from the board, for each goal (perfect play for that goal afterwards).
  function rollValue(rules, open, dice) {
    var v = values(rules), board = maskOf(open), end = finished(open), out = {win: 0, sum: 0, digits: 0};
    outcomes(rules, dice).forEach(function (o) {
      var moves = legalMoves(rules, open, o.roll);
      Object.keys(out).forEach(function (goal) {
        if (!moves.length) { out[goal] += o.p * end[goal]; return; }
        var best = goal === "win" ? -1 : Infinity;
        moves.forEach(function (m) {
          var after = v[goal][board & ~maskOf(m)];
          best = goal === "win" ? Math.max(best, after) : Math.min(best, after);
        });
        out[goal] += o.p * best;
      });
    });
    return out;
  }

  window.stbLoad = stbLoad;
  window.stbAdvise = stbAdvise;
  // {1: values, 2: values} where the rules let the player roll one die from this board; null otherwise.
  window.stbDiceValues = function (rules, open) {
    rules = checkRules(rules); open = checkOpen(rules, open || []);
    return oneDieAllowed(rules, open) ? {1: rollValue(rules, open, 1), 2: rollValue(rules, open, 2)} : null;
  };

  // -- the page ----------------------------------------------------------------------------------------------
  var state = {rules: checkRules({tiles: 9}), open: [], roll: null, history: []};
  var $ = function (id) { return document.getElementById(id); };

  function percent(p) {
    if (p === 0) return "0%";
    var x = 100 * p;
    return (x >= 0.01 ? x.toFixed(2) : x.toPrecision(2)) + "%";
  }
  function amount(x) { return x.toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2}); }
  function shown(goal, x) { return goal === "win" ? percent(x) : amount(x); }
  function label(tiles) { return "{" + tiles.join(", ") + "}"; }
  function rollLabel(roll) { return Array.isArray(roll) ? roll[0] + " and " + roll[1] : String(roll); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function allOpen() { var t = []; for (var i = 1; i <= state.rules.tiles; i++) t.push(i); return t; }
  // The second goal shown beside the chance of winning: the reader's goal, or the lowest sum when it is the win.
  function other() { return state.rules.goal === "win" ? "sum" : state.rules.goal; }
  var HEADS = {sum: "expected sum left", digits: "expected digit score"};

  function drawBoard() {
    var box = $("stb-board");
    box.textContent = "";
    for (var t = 1; t <= state.rules.tiles; t++) {
      var open = state.open.indexOf(t) >= 0;
      var b = el("button", {type: "button", "class": "stb-tile", "aria-pressed": String(open), "data-tile": t}, String(t));
      b.title = open ? "open (tap to shut)" : "shut (tap to open)";
      box.appendChild(b);
    }
    var v = values(state.rules), board = maskOf(state.open), second = other();
    $("stb-board-value").textContent = state.open.length === 0 ? "Every tile is shut: the box is shut, the game is won." :
      "Open " + label(state.open) + " (sum " + sumOf(state.open) + "): with perfect play the chance of shutting the box is " +
      percent(v.win[board]) + "; playing for " + GOALS[second] + ", the " + HEADS[second] + " is " +
      amount(v[second][board]) + ".";
    var dice = window.stbDiceValues(state.rules, state.open), target = $("stb-dice");
    target.textContent = "";
    if (dice && state.open.length) {
      var t1 = el("table", {"class": "stb-table", id: "stb-dice-table"});
      t1.appendChild(el("caption", {}, "One die or two from this board (perfect play afterwards)"));
      var head = el("tr"); ["roll", "P(win)", HEADS[second]].forEach(function (h) { head.appendChild(el("th", {}, h)); });
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
         "Roll " + forWin + ", whether you play to shut the box or for " + GOALS[second] + ".") :
        "To shut the box, roll " + forWin + "; for " + GOALS[second] + ", roll " + forOther + ". The two goals disagree here."));
    }
  }

  function rollButton(roll, text) {
    var pressed = JSON.stringify(state.roll) === JSON.stringify(roll);
    return el("button", {type: "button", "class": "stb-roll", "aria-pressed": String(pressed),
                         "data-roll": Array.isArray(roll) ? roll.join(",") : String(roll)}, text);
  }

  function drawRolls() {
    var box = $("stb-rolls"), one = oneDieAllowed(state.rules, state.open);
    box.textContent = "";
    if (state.rules.moves === "die-or-sum") {
      for (var a = 1; a <= 6; a++) for (var b = a; b <= 6; b++) box.appendChild(rollButton([a, b], a + "·" + b));
      if (one) for (var d = 1; d <= 6; d++) box.appendChild(rollButton(d, "one die: " + d));
      return;
    }
    for (var r = one ? 1 : 2; r <= 12; r++) box.appendChild(rollButton(r, String(r)));
  }

  function drawMoves() {
    var box = $("stb-moves");
    box.textContent = "";
    if (state.roll === null) { box.appendChild(el("p", {}, "Tap a roll to see the moves.")); return; }
    if (state.open.length === 0) { box.appendChild(el("p", {}, "The box is shut: nothing left to move.")); return; }
    var rows = stbAdvise(state.rules, state.open, state.roll), second = other();
    if (!rows.length) {
      box.appendChild(el("p", {id: "stb-no-move"}, "No open tile can be shut with a roll of " + rollLabel(state.roll) +
        ": the game ends with " + label(state.open) + " open."));
      return;
    }
    var best = {};
    Object.keys(GOALS).forEach(function (goal) {
      best[goal] = stbAdvise({tiles: state.rules.tiles, oneDie: state.rules.oneDie, moves: state.rules.moves, goal: goal},
                             state.open, state.roll)[0].move.join(",");
    });
    var table = el("table", {"class": "stb-table", id: "stb-moves-table"});
    table.appendChild(el("caption", {}, "Every legal move for open " + label(state.open) + " and a roll of " +
      rollLabel(state.roll) + ", best first for " + GOALS[state.rules.goal] + "; “best for” names the goals (win, " +
      "sum, digits) each move is best for"));
    var head = el("tr");
    ["shut", "P(win) after", HEADS[second] + " after", "best for", ""].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    rows.forEach(function (r) {
      var row = el("tr");
      row.appendChild(el("td", {}, label(r.move)));
      row.appendChild(el("td", {}, percent(r.pWin)));
      row.appendChild(el("td", {}, amount(r[FIELD[second]])));
      var marks = Object.keys(GOALS).filter(function (goal) { return best[goal] === r.move.join(","); })
        .map(function (goal) { return SHORT[goal]; });
      row.appendChild(el("td", {}, marks.join(", ")));
      var cell = el("td"), play = el("button", {type: "button", "class": "stb-play", "data-move": r.move.join(",")}, "play");
      cell.appendChild(play); row.appendChild(cell);
      table.appendChild(row);
    });
    var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(table); box.appendChild(wrap);
    if (best.win !== best[second]) {
      box.appendChild(el("p", {"class": "stb-finding", id: "stb-disagree"}, "Playing for the win, shut {" +
        best.win.replace(/,/g, ", ") + "}; playing for " + GOALS[second] + ", shut {" + best[second].replace(/,/g, ", ") +
        "}: here the two goals disagree."));
    }
  }

  function draw() { drawBoard(); drawRolls(); drawMoves(); $("stb-undo").disabled = !state.history.length; }

  function remember() { state.history.push({open: state.open.slice(), roll: state.roll}); }

  function readRoll(text) {
    var parts = text.split(",").map(Number);
    return parts.length === 2 ? parts : parts[0];
  }

  document.addEventListener("click", function (event) {
    var t = event.target;
    if (t.classList.contains("stb-tile")) {
      remember();
      var tile = Number(t.getAttribute("data-tile")), at = state.open.indexOf(tile);
      if (at >= 0) state.open.splice(at, 1); else state.open.push(tile);
      state.open.sort(function (a, b) { return a - b; });
      var oneDieRoll = state.rules.moves === "die-or-sum" ? !Array.isArray(state.roll) : state.roll === 1;
      if (state.roll !== null && oneDieRoll && !oneDieAllowed(state.rules, state.open)) state.roll = null;
      draw();
    } else if (t.classList.contains("stb-roll")) {
      state.roll = readRoll(t.getAttribute("data-roll")); draw();
    } else if (t.classList.contains("stb-play")) {
      remember();
      var move = t.getAttribute("data-move").split(",").map(Number);
      state.open = state.open.filter(function (x) { return move.indexOf(x) < 0; });
      state.roll = null; draw();
    }
  });
  $("stb-undo").addEventListener("click", function () {
    var last = state.history.pop();
    if (last) { state.open = last.open; state.roll = last.roll; draw(); }
  });
  $("stb-reset").addEventListener("click", function () { remember(); state.open = allOpen(); state.roll = null; draw(); });
  $("stb-roll-again").addEventListener("click", function () {
    var dice = window.stbDiceValues(state.rules, state.open), goal = state.rules.goal, one = false;
    if (dice) one = goal === "win" ? dice[1].win > dice[2].win : dice[1][goal] < dice[2][goal];
    var die = function () { return 1 + Math.floor(Math.random() * 6); };
    if (one) state.roll = die();
    else if (state.rules.moves === "die-or-sum") state.roll = [die(), die()].sort(function (a, b) { return a - b; });
    else state.roll = die() + die();
    draw();
  });
  function rulesChanged() {
    var picked = checkRules({tiles: Number($("stb-tiles").value), oneDie: $("stb-one-die").value,
                             moves: $("stb-moves-rule").value, goal: $("stb-goal").value});
    var sameBoard = picked.tiles === state.rules.tiles && picked.oneDie === state.rules.oneDie &&
      picked.moves === state.rules.moves && state.open.length;
    stbLoad(picked).then(function () {
      state.rules = picked;
      if (!sameBoard) { state.open = allOpen(); state.roll = null; state.history = []; }
      draw();
    }, function (error) { $("stb-board-value").textContent = error.message; });
  }
  ["stb-tiles", "stb-one-die", "stb-moves-rule", "stb-goal"].forEach(function (id) {
    $(id).addEventListener("change", rulesChanged);
  });
  rulesChanged();
})();
