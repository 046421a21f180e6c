#!/usr/bin/env python3
"""md_check.py FILE... [--text STRING]...: check Markdown that agentview
wrote (--print --format markdown, the session list's table, --compare) as
GitHub renders it: cmark-gfm with GitHub's extensions (tables, autolinks,
strikethrough, task lists) and raw HTML let through (--unsafe), so that
whatever a permissive renderer would make of it shows here:

  - every element is one a Markdown document of agentview's makes (the
    headings, paragraphs, lists, quotes, code, emphasis and tables of
    text, the <details> of a thinking): no <img> (a renderer fetches it),
    no <script>, no tag of a recording's making;
  - no link but an e-mail address as it is written: a stream's
    [text](url), <url> or bare URL is text, never a link;
  - the rendered text holds each --text STRING.

Prints nothing and exits 0 when all holds; else one line per fault, 1."""

import html.parser
import subprocess
import sys
import urllib.parse

ELEMENTS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "ul", "ol",
    "li", "pre", "code", "em", "strong", "del", "details", "summary", "table",
    "thead", "tbody", "tr", "th", "td", "a",
}
# Attributes cmark-gfm writes of Markdown (never of raw HTML).
ATTRS = {"code": {"class"}, "ol": {"start"}, "th": {"align"}, "td": {"align"},
         "a": {"href"}}


class Check(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.faults = []
        self.text = []
        self.link = None  # [href, text] of the <a> open

    def handle_starttag(self, tag, attrs):
        if tag not in ELEMENTS:
            self.faults.append("element <%s %s>" % (tag, attrs))
            return
        for k, v in attrs:
            if k not in ATTRS.get(tag, ()):
                self.faults.append("attribute %s=%r on <%s>" % (k, v, tag))
            if k == "class" and not (v or "").startswith("language-"):
                self.faults.append("class %r on <%s>" % (v, tag))
        if tag == "a":
            self.link = [dict(attrs).get("href") or "", ""]

    def handle_endtag(self, tag):
        if tag == "a" and self.link is not None:
            href, text = urllib.parse.unquote(self.link[0]), self.link[1]
            # An e-mail address GFM links (a URL stays text: GFM's
            # autolinks end at a space or '<' only, across code spans).
            if href != "mailto:" + text:
                self.faults.append("a link to %r reads %r" % (href, text))
            self.link = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self.text.append(data)
        if self.link is not None:
            self.link[1] += data

    def handle_comment(self, data):
        self.faults.append("comment <!--%s-->" % data[:60])


def main(argv):
    files, want = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--text" and i + 1 < len(argv):
            want.append(argv[i + 1])
            i += 2
            continue
        files.append(argv[i])
        i += 1
    bad = 0
    for f in files:
        page = subprocess.run(
            ["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink", "-e",
             "strikethrough", "-e", "tasklist", f],
            check=True, capture_output=True).stdout.decode("utf-8", "replace")
        c = Check()
        c.feed(page)
        c.close()
        text = "".join(c.text)
        c.faults += ["no %r in the text" % w for w in want if w not in text]
        for fault in c.faults:
            print("%s: %s" % (f, fault))
        bad += len(c.faults) > 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
