// The position explorer of "Shut the Box, solved exactly". Plain script, no framework, no network.
//
// The page embeds, for each rules choice, two arrays indexed by board bit-mask (tile t open <=> bit t-1 set):
// the chance of shutting the box with perfect play, V_win(S), and the least expected sum left, V_sum(S), both
// computed by the project's engine (stb_core.sweep). Here we only find the legal moves (sets of open tiles
// adding up to the roll) and read the values after each move.
(function () {
  "use strict";

  var RAW = JSON.parse(document.getElementById("stb-values").textContent);
  var TILES = [9, 10, 12];
  var ONE_DIE = ["never", "high-shut", "sum-le-6"];
  var decoded = {};

  function decode(base64) {
    var bytes = atob(base64), view = new DataView(new ArrayBuffer(bytes.length));
    for (var i = 0; i < bytes.length; i++) view.setUint8(i, bytes.charCodeAt(i));
    var out = new Float64Array(bytes.length / 8);
    for (var j = 0; j < out.length; j++) out[j] = view.getFloat64(8 * j, true);
    return out;
  }

  function checkRules(rules) {
    if (!rules || TILES.indexOf(rules.tiles) < 0) throw new Error("rules.tiles must be one of 9, 10, 12");
    var oneDie = rules.oneDie === undefined ? "never" : rules.oneDie;
    if (ONE_DIE.indexOf(oneDie) < 0) throw new Error("rules.oneDie must be one of never, high-shut, sum-le-6");
    return {tiles: rules.tiles, oneDie: oneDie};
  }

  function values(rules) {
    var key = rules.tiles + "/" + rules.oneDie;
    if (!decoded[key]) decoded[key] = {win: decode(RAW[key].win), sum: decode(RAW[key].sum)};
    return decoded[key];
  }

  function maskOf(tiles) { return tiles.reduce(function (m, t) { return m | (1 << (t - 1)); }, 0); }
  function sumOf(tiles) { return tiles.reduce(function (s, t) { return s + t; }, 0); }

  // Every set of open tiles adding up to the roll, tiles increasing, moves in lexicographic order.
  function legalMoves(open, roll) {
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
    if (rules.oneDie === "sum-le-6") return sumOf(open) <= 6;
    return false;
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

  // Every legal move, best first for the chance of shutting the box (ties: the lower expected sum, then
  // the first in lexicographic order); [] when no move is legal.
  function stbAdvise(rules, open, roll) {
    rules = checkRules(rules);
    open = checkOpen(rules, open || []);
    if (!Number.isInteger(roll)) throw new Error("roll must be an integer total");
    var v = values(rules), board = maskOf(open);
    var rows = legalMoves(open, roll).map(function (move, order) {
      var after = board & ~maskOf(move);
      return {move: move, pWin: v.win[after], expectedSum: v.sum[after], order: order};
    });
    rows.sort(function (a, b) {
      if (a.pWin !== b.pWin) return b.pWin - a.pWin;
      if (a.expectedSum !== b.expectedSum) return a.expectedSum - b.expectedSum;
      return a.order - b.order;
    });
    return rows.map(function (r) { return {move: r.move, pWin: r.pWin, expectedSum: r.expectedSum}; });
  }

  // The value of rolling `dice` dice from the board, for both objectives (perfect play afterwards).
  function rollValue(rules, open, dice) {
    var v = values(rules), board = maskOf(open), total = sumOf(open), win = 0, sum = 0;
    var faces = dice === 1 ? [1, 2, 3, 4, 5, 6] : [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    faces.forEach(function (r) {
      var p = dice === 1 ? 1 / 6 : (6 - Math.abs(r - 7)) / 36;
      var moves = legalMoves(open, r);
      if (!moves.length) { win += p * (total === 0 ? 1 : 0); sum += p * total; return; }
      var bestWin = -1, bestSum = Infinity;
      moves.forEach(function (m) {
        var after = board & ~maskOf(m);
        bestWin = Math.max(bestWin, v.win[after]); bestSum = Math.min(bestSum, v.sum[after]);
      });
      win += p * bestWin; sum += p * bestSum;
    });
    return {win: win, sum: sum};
  }

  window.stbAdvise = stbAdvise;
  window.stbDiceValues = function (rules, open) {
    rules = checkRules(rules); open = checkOpen(rules, open || []);
    return oneDieAllowed(rules, open) ? {1: rollValue(rules, open, 1), 2: rollValue(rules, open, 2)} : null;
  };

  // -- the page ----------------------------------------------------------------------------------------------
  var state = {rules: {tiles: 9, oneDie: "never"}, open: [], roll: null, history: []};
  var $ = function (id) { return document.getElementById(id); };

  function percent(p) {
    if (p === 0) return "0%";
    var x = 100 * p;
    return (x >= 0.01 ? x.toFixed(2) : x.toPrecision(2)) + "%";
  }
  function label(tiles) { return "{" + tiles.join(", ") + "}"; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function allOpen() { var t = []; for (var i = 1; i <= state.rules.tiles; i++) t.push(i); return t; }

  function drawBoard() {
    var box = $("stb-board");
    box.textContent = "";
    for (var t = 1; t <= state.rules.tiles; t++) {
      var open = state.open.indexOf(t) >= 0;
      var b = el("button", {type: "button", "class": "stb-tile", "aria-pressed": String(open), "data-tile": t}, String(t));
      b.title = open ? "open (tap to shut)" : "shut (tap to open)";
      box.appendChild(b);
    }
    var v = values(state.rules), board = maskOf(state.open);
    $("stb-board-value").textContent = state.open.length === 0 ? "Every tile is shut: the box is shut, the game is won." :
      "Open " + label(state.open) + " (sum " + sumOf(state.open) + "): with perfect play the chance of shutting the box is " +
      percent(v.win[board]) + "; playing for the lowest sum, " + v.sum[board].toFixed(2) + " is left on average.";
    var dice = window.stbDiceValues(state.rules, state.open), target = $("stb-dice");
    target.textContent = "";
    if (dice && state.open.length) {
      var t1 = el("table", {"class": "stb-table", id: "stb-dice-table"});
      t1.appendChild(el("caption", {}, "One die or two from this board (perfect play afterwards)"));
      var head = el("tr"); ["roll", "P(win)", "expected sum left"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      t1.appendChild(head);
      [1, 2].forEach(function (d) {
        var row = el("tr");
        row.appendChild(el("td", {}, d === 1 ? "one die" : "two dice"));
        row.appendChild(el("td", {}, percent(dice[d].win)));
        row.appendChild(el("td", {}, dice[d].sum.toFixed(3)));
        t1.appendChild(row);
      });
      var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(t1); target.appendChild(wrap);
      var forWin = dice[1].win > dice[2].win ? "one die" : (dice[1].win < dice[2].win ? "two dice" : "either");
      var forSum = dice[1].sum < dice[2].sum ? "one die" : (dice[1].sum > dice[2].sum ? "two dice" : "either");
      target.appendChild(el("p", {"class": "stb-finding", id: "stb-dice-advice"},
        "To shut the box, roll " + forWin + "; for the lowest sum, roll " + forSum + "." +
        (forWin !== forSum ? " The two goals disagree here." : "")));
    }
  }

  function drawRolls() {
    var box = $("stb-rolls");
    box.textContent = "";
    var first = oneDieAllowed(state.rules, state.open) ? 1 : 2;
    for (var r = first; r <= 12; r++) {
      box.appendChild(el("button", {type: "button", "class": "stb-roll", "aria-pressed": String(state.roll === r), "data-roll": r}, String(r)));
    }
  }

  function drawMoves() {
    var box = $("stb-moves");
    box.textContent = "";
    if (state.roll === null) { box.appendChild(el("p", {}, "Tap a roll to see the moves.")); return; }
    if (state.open.length === 0) { box.appendChild(el("p", {}, "The box is shut: nothing left to move.")); return; }
    var rows = stbAdvise(state.rules, state.open, state.roll);
    if (!rows.length) {
      box.appendChild(el("p", {id: "stb-no-move"}, "No set of open tiles adds up to " + state.roll + ": the game ends with " +
        sumOf(state.open) + " left open."));
      return;
    }
    var bestWin = rows[0], bestSum = rows.slice().sort(function (a, b) { return a.expectedSum - b.expectedSum || b.pWin - a.pWin; })[0];
    var table = el("table", {"class": "stb-table", id: "stb-moves-table"});
    table.appendChild(el("caption", {}, "Every legal move for open " + label(state.open) + " and a roll of " + state.roll +
      ", best first for the chance of shutting the box"));
    var head = el("tr");
    ["shut", "P(win) after", "expected sum left after", "best for", ""].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    rows.forEach(function (r) {
      var row = el("tr");
      row.appendChild(el("td", {}, label(r.move)));
      row.appendChild(el("td", {}, percent(r.pWin)));
      row.appendChild(el("td", {}, r.expectedSum.toFixed(3)));
      var marks = [];
      if (r === bestWin) marks.push("the win");
      if (r === bestSum) marks.push("the lowest sum");
      row.appendChild(el("td", {}, marks.join(" and ")));
      var cell = el("td"), play = el("button", {type: "button", "class": "stb-play", "data-move": r.move.join(",")}, "play");
      cell.appendChild(play); row.appendChild(cell);
      table.appendChild(row);
    });
    var wrap = el("div", {"class": "stb-table-wrap"}); wrap.appendChild(table); box.appendChild(wrap);
    if (bestWin !== bestSum) {
      box.appendChild(el("p", {"class": "stb-finding", id: "stb-disagree"}, "Playing for the win, shut " + label(bestWin.move) +
        "; playing for the lowest sum, shut " + label(bestSum.move) + ": here the two goals disagree."));
    }
  }

  function draw() { drawBoard(); drawRolls(); drawMoves(); $("stb-undo").disabled = !state.history.length; }

  function remember() { state.history.push({open: state.open.slice(), roll: state.roll}); }

  document.addEventListener("click", function (event) {
    var t = event.target;
    if (t.classList.contains("stb-tile")) {
      remember();
      var tile = Number(t.getAttribute("data-tile")), at = state.open.indexOf(tile);
      if (at >= 0) state.open.splice(at, 1); else state.open.push(tile);
      state.open.sort(function (a, b) { return a - b; });
      if (state.roll === 1 && !oneDieAllowed(state.rules, state.open)) state.roll = null;
      draw();
    } else if (t.classList.contains("stb-roll")) {
      state.roll = Number(t.getAttribute("data-roll")); draw();
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
    var dice = window.stbDiceValues(state.rules, state.open), one = dice && dice[1].win > dice[2].win;
    var die = function () { return 1 + Math.floor(Math.random() * 6); };
    state.roll = one ? die() : die() + die(); draw();
  });
  function rulesChanged() {
    state.rules = {tiles: Number($("stb-tiles").value), oneDie: $("stb-one-die").value};
    state.open = allOpen(); state.roll = null; state.history = []; draw();
  }
  $("stb-tiles").addEventListener("change", rulesChanged);
  $("stb-one-die").addEventListener("change", rulesChanged);
  rulesChanged();
})();
