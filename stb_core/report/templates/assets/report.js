// Shut the Box, solved exactly: the code toggle and the in-page contents of a chapter. Plain script, no network.
(function () {
  "use strict";
  var toggle = document.getElementById("stb-toggle-code");
  if (toggle) {
    toggle.addEventListener("click", function () {
      var hidden = document.body.classList.toggle("stb-hide-code");
      toggle.textContent = hidden ? "show code" : "hide code";
      toggle.setAttribute("aria-pressed", String(!hidden));
    });
  }
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
      // after the verdict box of a source's page, else after the opening cell
      var anchor = document.querySelector("main .stb-verdict") ||
        (document.querySelector("main .jp-Cell") || {}).nextElementSibling;
      var cell = anchor && anchor.closest ? (anchor.closest(".jp-Cell") || anchor) : null;
      if (cell && cell.parentNode) cell.parentNode.insertBefore(contents, cell.nextSibling);
    }
  }
})();
