"""A rendered page as a book's page: numbered headings, and every reference in its prose a link.

* :func:`number_headings` -- the chapter's number before its title (``3``), each section numbered within it
  (``3.2``), whatever the notebook's Markdown wrote, and each section given a stable anchor (``section-2``);
* :func:`link_references` -- ``Table 3.2``, ``Figure 6.1``, ``chapter 3`` and ``section 5`` written in the page's
  text become links to the table, the figure, the chapter's page or the section (on this page, or on the
  chapter's page for a table or figure of another chapter);
* :func:`fold_findings` -- a finding the opening box lists in full is not printed again in the body: where the
  page derives it, a one-line marker points up to it, and the opening's bullet points down to its section.

Both work on the HTML nbconvert wrote, token by token: text inside links, code, scripts, styles and headings is
left as it is.
"""

from __future__ import annotations

import re

HEADING = re.compile(r'<h([12])\b([^>]*)>(.*?)</h\1>', re.S)
REFERENCE = re.compile(r"\b(Table|Figure) (\d+)\.(\d+)\b|\b([Cc]hapter) (\d+)\b|\b(section) (\d+)\b")
QUIET = ("a", "code", "pre", "script", "style", "h1", "h2", "h3", "h4", "mjx-container", "summary", "title", "button")


def number_headings(body: str, chapter: int) -> str:
    """Number the page's ``h1`` with the chapter and its ``h2`` sections ``chapter.k``, with anchors ``section-k``
    (a leading ``1.`` the Markdown wrote is replaced; headings of the opening box are left alone)."""
    count = 0

    def renumber(match: re.Match) -> str:
        nonlocal count
        level, attributes, inner = match.groups()
        if "stb-opening-title" in attributes:
            return match.group(0)
        text = re.sub(r"^\s*\d+(\.\d+)*\.?\s+", "", inner)
        if level == "1":
            return f'<h1{attributes}><span class="stb-chapter-number">{chapter}</span> {text}</h1>'
        count += 1
        anchor = f"section-{count}"
        old = re.search(r'id="([^"]*)"', attributes)
        attributes = re.sub(r'\sid="[^"]*"', "", attributes) + f' id="{anchor}"'
        if old:
            text = text.replace(f'href="#{old.group(1)}"', f'href="#{anchor}"')
        return f'<h2{attributes}><span class="stb-chapter-number">{chapter}.{count}</span> {text}</h2>'

    return HEADING.sub(renumber, body)


def link_references(body: str, chapter: int, pages: dict[int, str], up: str = "") -> str:
    """Make ``Table c.n``, ``Figure c.n``, ``chapter c`` and ``section n`` in the page's text into links (``pages``:
    chapter number -> its page file; ``up``: the way from this page to the report's folder)."""
    anchors = set(re.findall(r'\sid="([^"]+)"', body))
    tokens = re.split(r"(<[^>]+>)", body)
    quiet: list[str] = []
    for i, token in enumerate(tokens):
        if token.startswith("<"):
            tag = re.match(r"</?([a-zA-Z][\w-]*)", token)
            if tag and tag.group(1).lower() in QUIET and not token.endswith("/>"):
                if token.startswith("</"):
                    if quiet and quiet[-1] == tag.group(1).lower():
                        quiet.pop()
                else:
                    quiet.append(tag.group(1).lower())
            continue
        if quiet or not token.strip():
            continue
        tokens[i] = REFERENCE.sub(lambda m: _link(m, chapter, pages, up, anchors), token)
    return "".join(tokens)


def _link(match: re.Match, chapter: int, pages: dict[int, str], up: str, anchors: set[str]) -> str:
    text = match.group(0)
    if match.group(1):  # Table or Figure c.n
        number, item = int(match.group(2)), int(match.group(3))
        anchor = f"{match.group(1).lower()}-{number}-{item}"
        if number == chapter:
            return f'<a href="#{anchor}">{text}</a>' if anchor in anchors else text
        return f'<a href="{up}{pages[number]}#{anchor}">{text}</a>' if number in pages else text
    if match.group(4):  # chapter c
        number = int(match.group(5))
        if number not in pages:
            return text
        return f'<a href="{up}{pages[number]}">{text}</a>'
    anchor = f"section-{int(match.group(7))}"  # section n, on this page: numbered as its heading is (3.5)
    return f'<a href="#{anchor}">section {chapter}.{int(match.group(7))}</a>' if anchor in anchors else text


FINDING = re.compile(r'<div class="stb-finding" id="finding-(\d+)">.*?</div>', re.S)
SECTION = re.compile(r'<h2[^>]*id="(section-\d+)"[^>]*><span class="stb-chapter-number">([\d.]+)</span>')


def fold_findings(body: str, chapter: int) -> str:
    """Replace each body finding (``finding-n``) that the opening box lists as ``result-n`` with a marker that
    points up to it, and end that bullet with a link down to the section whose tables show it."""
    if 'id="result-' not in body:
        return body
    sections = [(m.start(), m.group(1), m.group(2)) for m in SECTION.finditer(body)]
    where: dict[str, tuple[str, str]] = {}

    def marker(match: re.Match) -> str:
        number = match.group(1)
        if f'id="result-{number}"' not in body:
            return match.group(0)
        before = [s for s in sections if s[0] < match.start()]
        anchor, label = (before[-1][1], before[-1][2]) if before else ("", "")
        where[number] = (anchor, label)
        return (f'<p class="stb-finding-ref" id="finding-{number}"><a href="#result-{number}">Finding {number} of '
                f'this chapter</a>, listed at the top of the page, rests on this section.</p>')

    body = FINDING.sub(marker, body)
    for number, (anchor, label) in where.items():
        if anchor:
            link = f' <a class="stb-where" href="#finding-{number}">§{label}</a></li>'
            body = re.sub(rf'(<li id="result-{number}">.*?)</li>', lambda m, link=link: m.group(1) + link,
                          body, count=1, flags=re.S)
    return body
