// Shut the Box, solved exactly: the offline search of the sidebar. The index (search-index.js) is every page's
// sections as plain text, loaded by a <script> tag, so the search works from file:// with the network off.
(function () {
  "use strict";
  var box = document.getElementById("stb-search-box");
  var list = document.getElementById("stb-search-results");
  var records = window.STB_SEARCH || [];
  if (!box || !list) return;
  var up = box.getAttribute("data-up") || "";
  var SHOWN = 12;  // sections listed at most; the rest are counted

  function words(text) {
    return text.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
  }

  function snippet(text, word) {
    var at = text.toLowerCase().indexOf(word);
    var start = Math.max(0, at - 50);
    return (start > 0 ? "… " : "") + text.slice(start, start + 140) + (start + 140 < text.length ? " …" : "");
  }

  function wholeWords(text, word) {  // how often word stands whole in text (not inside a longer word)
    var escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return (text.match(new RegExp("(^|[^a-z0-9])" + escaped + "(?![a-z0-9])", "g")) || []).length;
  }

  function ranked(found, query) {
    // Sections naming a query word whole in their heading first, then by how often they use the words whole, then
    // in reading order: "expect" finds the sections that say "expect" before the many that say "expected".
    var scored = found.map(function (r, at) {
      var heading = (r.title + " " + r.heading).toLowerCase(), text = r.text.toLowerCase();
      var score = 0;
      query.forEach(function (w) { score += 1000 * Math.min(wholeWords(heading, w), 1) + wholeWords(text, w); });
      return {r: r, score: score, at: at};
    });
    scored.sort(function (a, b) { return b.score - a.score || a.at - b.at; });
    return scored.map(function (s) { return s.r; });
  }

  function search() {
    var query = words(box.value);
    list.textContent = "";
    if (!query.length) return;
    var all = records.filter(function (r) {
      var hay = (r.title + " " + r.heading + " " + r.text).toLowerCase();
      return query.every(function (w) { return hay.indexOf(w) >= 0; });
    });
    all = ranked(all, query);
    var found = all.slice(0, SHOWN);
    if (!found.length) {
      var none = document.createElement("li");
      none.textContent = "No page mentions " + box.value.trim() + ".";
      list.appendChild(none);
      return;
    }
    found.forEach(function (r) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = up + r.page + "#" + r.anchor;
      link.textContent = (r.number ? r.number + ". " : "") + r.title + (r.heading && r.heading !== r.title ?
        " — " + r.heading : "");
      var text = document.createElement("span");
      text.className = "stb-snippet";
      text.textContent = snippet(r.text, query[0]);
      item.appendChild(link);
      item.appendChild(text);
      list.appendChild(item);
    });
    if (all.length > found.length) {
      var more = document.createElement("li");
      more.className = "stb-search-more";
      more.textContent = (all.length - found.length) + " more section" + (all.length - found.length > 1 ? "s" : "") +
        " mention" + (all.length - found.length > 1 ? "" : "s") + " it: add a word to narrow the search.";
      list.appendChild(more);
    }
  }

  box.addEventListener("input", search);
  window.stbSearch = function (query) {  // for readers who script, and for the tests
    box.value = query;
    search();
    return Array.prototype.map.call(list.querySelectorAll("a"), function (a) { return a.getAttribute("href"); });
  };
})();
