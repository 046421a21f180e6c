#!/usr/bin/env python3
"""html_check.py PAGE [--dom] [--text STRING]... [--element TAG]... [--href URL]...:
check a page of `agentview --print --format html` (or, with --dom, the DOM
Chromium dumped from one after its script ran) against what agentview
writes, whatever the recording held:

  - every element is one agentview writes, and every attribute of it is
    one agentview writes, with a value of the shape agentview gives it (no
    event text ever reaches a tag or an attribute: no <script>, <img>,
    onerror=, href="javascript:..." of a recording's making); a link out of
    the page (a reply's Markdown) goes only to http:, https: or mailto:, and
    says rel="noopener noreferrer nofollow";
  - between tags, no raw '<' or '>' (event text is escaped), and every
    entity is one of the five text_html_escape writes;
  - one <style> and one <script>, the page's own, whose SHA-256 are the
    ones its Content-Security-Policy names (a page whose CSS or script
    changed without its hash fails here, saying the hash it should name);
  - the page's text holds each --text STRING (after entities are read), and
    the page at least one element of each --element TAG and a link to
    each --href URL.

Prints nothing and exits 0 when all holds; else one line per fault, 1."""

import base64
import hashlib
import html.parser
import re
import sys

NUM = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
# Class names agentview writes: fixed words, st-STATE, q-DECISION, r-ROLE.
CLASS = re.compile(
    r"^(page|session|sessions|facts|status|timeline|axis|transcript|prompt|who|"
    r"text|md|code|lang|image|url|check|task|reply|cutoff|thinking|call|g|"
    r"detail|lead|add|del|query|line|"
    r"notice|diag|stderr|result|cut|none|depth[1-4]|"
    r"st-(ok|failed|rejected|error|orphaned|running|live|incomplete|waiting)|"
    r"q-(pending|approved|rejected)|r-[a-z_]+)$")


def classes(v):
    return all(CLASS.match(c) for c in v.split())


def one_of(*words):
    return lambda v: v in words


def numeric(v):
    return NUM.match(v) is not None


def href(v):
    """An anchor of the page, or a link out of it that may be one."""
    return (re.match(r"^#[sc][0-9]+$", v) is not None or
            re.match(r"^(https?://|mailto:)", v, re.I) is not None)


REL = "noopener noreferrer nofollow"


def viewbox(v):
    return all(NUM.match(x) for x in v.split()) and len(v.split()) == 4


CSP = re.compile(r"^default-src 'none'; style-src '(sha256-[A-Za-z0-9+/=]+)'; "
                 r"script-src '(sha256-[A-Za-z0-9+/=]+)'; base-uri 'none'; "
                 r"form-action 'none'$")
META_CONTENT = re.compile(r"^(width=device-width, initial-scale=1|light dark|"
                          r"agentview [0-9A-Za-z.+-]+)$")

# The elements agentview writes, each with the attributes it may carry.
ALLOWED = {
    "html": {"lang": one_of("en")},
    "head": {},
    "meta": {"charset": one_of("utf-8"),
             "http-equiv": one_of("Content-Security-Policy"),
             "name": one_of("viewport", "color-scheme", "generator"),
             "content": lambda v: CSP.match(v) or META_CONTENT.match(v)},
    "title": {},
    "style": {},
    "script": {},
    "body": {},
    "main": {},
    "header": {"class": classes},
    "h1": {}, "h2": {}, "h3": {}, "h4": {}, "h5": {}, "h6": {},
    "span": {"class": classes},
    "div": {"class": classes, "id": one_of("folding")},
    "section": {"class": classes, "id": lambda v: re.match(r"^s[0-9]+$", v)},
    "nav": {"class": classes},
    "ol": {"start": lambda v: re.match(r"^[0-9]+$", v)},
    "ul": {}, "li": {"class": classes},
    "blockquote": {}, "hr": {}, "br": {}, "em": {}, "del": {},
    "table": {}, "thead": {}, "tbody": {}, "tr": {}, "th": {}, "td": {},
    "dl": {"class": classes}, "dt": {}, "dd": {},
    "p": {"class": classes, "id": lambda v: re.match(r"^c[0-9]+$", v)},
    "strong": {},
    "details": {"class": classes, "id": lambda v: re.match(r"^c[0-9]+$", v)},
    "summary": {},
    "pre": {"class": classes},
    "code": {},
    "footer": {},
    "svg": {"class": classes, "viewbox": viewbox, "role": one_of("img"),
            "aria-label": one_of("tool calls on the session's time axis")},
    "g": {"class": classes},
    "a": {"href": href, "rel": one_of(REL), "class": classes},
    "text": {"x": numeric, "y": numeric,
             "text-anchor": one_of("start", "middle", "end")},
    "line": {"x1": numeric, "y1": numeric, "x2": numeric, "y2": numeric},
    "rect": {"x": numeric, "y": numeric, "width": numeric, "height": numeric,
             "rx": numeric},
}
# Made by the page's script, in the DOM only.
DOM_ONLY = {"button": {"type": one_of("button")}}
ENTITIES = {"amp", "lt", "gt", "quot"}
CHARREFS = {"39"}


class Check(html.parser.HTMLParser):
    def __init__(self, dom):
        super().__init__(convert_charrefs=False)
        self.dom = dom
        self.faults = []
        self.raw = {}      # style and script text
        self.count = {}
        self.csp = None
        self.text = []
        self.open = None   # the element whose raw text is being read
        self.in_head = False
        self.hrefs = set()

    def fault(self, msg):
        if len(self.faults) < 20:
            self.faults.append("line %d: %s" % (self.getpos()[0], msg))

    def handle_starttag(self, tag, attrs):
        allowed = ALLOWED.get(tag)
        if allowed is None and self.dom:
            allowed = DOM_ONLY.get(tag)
        if allowed is None:
            self.fault("element <%s> is not one agentview writes" % tag)
            return
        self.count[tag] = self.count.get(tag, 0) + 1
        for name, value in attrs:
            check = allowed.get(name)
            if check is None or not check(value if value is not None else ""):
                self.fault("<%s %s=%r> is not an attribute agentview writes"
                           % (tag, name, value))
            if name == "content" and value is not None and CSP.match(value):
                self.csp = CSP.match(value).groups()
        # A link out of the page gives it nothing: no opener, no referrer.
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.hrefs.add(a["href"])
        if tag == "a" and not (a.get("href") or "").startswith("#") and \
                a.get("rel") != REL:
            self.fault("<a href=%r> without rel=%r" % (a.get("href"), REL))
        if tag in ("style", "script"):
            self.open = tag
            self.raw[tag] = ""

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == self.open:
            self.open = None

    def handle_data(self, data):
        if self.open is not None:
            self.raw[self.open] += data
            return
        if "<" in data or ">" in data:
            self.fault("raw markup character in text: %r" % data[:80])
        self.text.append(data)

    def handle_entityref(self, name):
        if name not in ENTITIES:
            self.fault("entity &%s; is not one text_html_escape writes" % name)
        self.text.append(html.unescape("&%s;" % name))

    def handle_charref(self, name):
        if name not in CHARREFS:
            self.fault("character reference &#%s; is not one agentview writes"
                       % name)
        self.text.append(html.unescape("&#%s;" % name))

    def handle_comment(self, data):
        self.fault("a comment: %r" % data[:80])

    def handle_pi(self, data):
        self.fault("a processing instruction: %r" % data[:80])

    def unknown_decl(self, data):
        self.fault("a declaration: %r" % data[:80])


def sha(text):
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode()


def main(argv):
    dom = "--dom" in argv
    wants = [argv[i + 1] for i, a in enumerate(argv) if a == "--text"]
    tags = [argv[i + 1] for i, a in enumerate(argv) if a == "--element"]
    hrefs = [argv[i + 1] for i, a in enumerate(argv) if a == "--href"]
    path = argv[1]
    with open(path, encoding="utf-8", errors="strict") as f:
        page = f.read()
    c = Check(dom)

    c.feed(page)
    c.close()
    if not page.startswith("<!DOCTYPE html>") and not dom:
        c.faults.append("the page does not start with <!DOCTYPE html>")
    for tag in ("style", "script"):
        if c.count.get(tag, 0) != 1:
            c.faults.append("%d <%s> elements, not 1" % (c.count.get(tag, 0), tag))
    if c.csp is None:
        c.faults.append("no Content-Security-Policy")
    elif not dom:
        # Chromium's DOM keeps the text; the hashes are checked on the page.
        for tag, want in zip(("style", "script"), c.csp):
            got = sha(c.raw.get(tag, ""))
            if got != want:
                c.faults.append("the CSP names %s for the <%s>, which hashes to "
                                "%s: put that in HTML_%s_HASH (src/print_html.c)"
                                % (want, tag, got, tag.upper()))
    text = "".join(c.text)
    for want in wants:
        if want not in text:
            c.faults.append("the page's text does not hold %r" % want)
    for tag in tags:
        if c.count.get(tag, 0) == 0:
            c.faults.append("no <%s> on the page" % tag)
    for h in hrefs:
        if h not in c.hrefs:
            c.faults.append("no link to %s on the page" % h)
    for f in c.faults:
        print("%s: %s" % (path, f))
    return 1 if c.faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
