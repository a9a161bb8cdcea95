// Shut the Box, solved exactly: the sidebar drawer on phones, the figure viewer, scroll cues on wide tables, the
// code toggle and the in-page contents of a chapter. Plain script, no network.
(function () {
  "use strict";
  var body = document.body;

  // the sidebar: always shown on a wide screen, a drawer on a phone
  var drawer = document.getElementById("stb-drawer-button");
  if (drawer) {
    drawer.addEventListener("click", function () {
      var open = body.classList.toggle("stb-drawer-open");
      drawer.setAttribute("aria-expanded", String(open));
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && body.classList.contains("stb-drawer-open")) {
        body.classList.remove("stb-drawer-open");
        drawer.setAttribute("aria-expanded", "false");
      }
    });
  }

  // the code toggle of a chapter
  var toggle = document.getElementById("stb-toggle-code");
  if (toggle) {
    toggle.addEventListener("click", function () {
      var hidden = body.classList.toggle("stb-hide-code");
      toggle.textContent = hidden ? "show code" : "hide code";
      toggle.setAttribute("aria-pressed", String(!hidden));
    });
  }

  // a figure opens full-screen at its reading size (its type at 11 CSS px or more), to scroll; Escape or the
  // close button ends it
  var viewer = null;
  function closeViewer() {
    if (viewer) { viewer.remove(); viewer = null; body.classList.remove("stb-viewing"); }
  }
  document.querySelectorAll("a.stb-zoom").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var image = link.querySelector("img");
      viewer = document.createElement("div");
      viewer.className = "stb-viewer";
      viewer.setAttribute("role", "dialog");
      viewer.setAttribute("aria-label", "Figure, full size");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "stb-viewer-close";
      close.textContent = "✕ close";
      close.addEventListener("click", closeViewer);
      var pane = document.createElement("div");
      pane.className = "stb-viewer-pane";
      var big = document.createElement("img");
      big.src = image.src;
      big.alt = image.alt;
      big.style.width = link.getAttribute("data-width") + "px";
      big.style.maxWidth = "none";
      pane.appendChild(big);
      viewer.appendChild(close);
      viewer.appendChild(pane);
      body.appendChild(viewer);
      body.classList.add("stb-viewing");
      close.focus();
    });
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") closeViewer(); });

  // a table wider than the screen says so, and keeps its first column in view
  function cue() {
    document.querySelectorAll(".stb-table-wrap").forEach(function (wrap) {
      wrap.classList.toggle("stb-scrolls", wrap.scrollWidth > wrap.clientWidth + 1);
      wrap.style.setProperty("--wrap-width", wrap.clientWidth + "px");  // the caption wraps within the view
    });
  }
  cue();
  window.addEventListener("resize", cue);
  // tables a page's script draws later (the explorer's moves, the trainer's analysis) get the same cue
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; cue(); });
  }).observe(document.body, {childList: true, subtree: true});

  // the contents of a chapter: its sections, after the box that opens the page
  var contents = document.getElementById("stb-contents");
  if (contents) {
    var headings = document.querySelectorAll("main h2[id]");
    if (headings.length > 1) {
      var title = document.createElement("p");
      title.textContent = "On this page";
      var list = document.createElement("ul");
      headings.forEach(function (h) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = "#" + h.id;
        link.textContent = h.textContent.replace(/¶$/, "").trim();
        item.appendChild(link);
        list.appendChild(item);
      });
      contents.appendChild(title);
      contents.appendChild(list);
      var anchor = document.querySelector("main .stb-opening") ||
        (document.querySelector("main .jp-Cell") || {}).nextElementSibling;
      var cell = anchor && anchor.closest ? (anchor.closest(".jp-Cell") || anchor) : null;
      if (cell && cell.parentNode) cell.parentNode.insertBefore(contents, cell.nextSibling);
    }
  }
})();
