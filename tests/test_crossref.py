"""A rendered page as a book's page: numbered sections, references as links, each finding stated once."""

from stb_core.report import crossref

PAGE = ('<h1>Title</h1><section class="stb-opening"><h2 class="stb-opening-title" id="results">What this chapter '
        'finds</h2><ul><li id="result-1">First result.</li><li id="result-2">Second result.</li></ul></section>'
        '<h2 id="intro">1. Intro</h2><p>As section 2 shows, and Table 3.1.</p>'
        '<h2 id="more">More</h2><div class="stb-finding" id="finding-1"><p>First result.</p></div>'
        '<table id="table-3-1"></table><div class="stb-finding" id="finding-2"><p>Second result.</p></div>')


def built() -> str:
    body = crossref.number_headings(PAGE, 3)
    body = crossref.link_references(body, 3, {3: "03.html"})
    return crossref.fold_findings(body, 3)


def test_sections_are_numbered_and_named_with_their_chapter():
    body = built()
    assert '<span class="stb-chapter-number">3.1</span> Intro' in body
    assert '<span class="stb-chapter-number">3.2</span> More' in body
    # "section 2" of chapter 3 reads 3.2 (a reader could take "section 2" for chapter 2) and links to it
    assert '<a href="#section-2">section 3.2</a>' in body
    assert '<a href="#table-3-1">Table 3.1</a>' in body


def test_each_finding_is_printed_once_with_links_both_ways():
    body = built()
    assert body.count("First result.") == 1 and body.count("Second result.") == 1
    assert '<a class="stb-where" href="#finding-1">§3.2</a>' in body
    assert 'id="finding-2"><a href="#result-2">Finding 2 of this chapter</a>' in body


def test_a_finding_the_opening_does_not_list_stays():
    page = PAGE.replace('<li id="result-2">Second result.</li>', "")
    body = crossref.fold_findings(crossref.number_headings(page, 3), 3)
    assert body.count("Second result.") == 1 and 'class="stb-finding" id="finding-2"' in body


def test_a_numbered_table_is_anchored_by_its_number_with_or_without_its_csv():
    import pandas as pd

    from stb_core.report.present import table_html

    frame = pd.DataFrame({"tiles": [1, 2]})
    for href in (None, "data/x/t.csv"):
        body = table_html(frame, "Caption", "uid", label="Table 3.2", csv_href=href)
        assert 'class="stb-table-wrap" id="table-3-2"' in body, href


def test_a_search_result_s_heading_keeps_the_chapter_number_apart():
    """The search index reads a heading's number and its words as two words: ``A Glossary``, not ``AGlossary``."""
    from stb_core.report.shell import page_sections

    page = ('<main><h1 id="glossary"><span class="stb-chapter-number">A</span>Glossary<a class="anchor-link">¶</a>'
            '</h1><p>board: the tiles still open</p></main>')
    assert page_sections(page) == [("glossary", "A Glossary", "board: the tiles still open")]
