"""A competition's rules, written in Markdown by its organizer, turned into HTML that is safe to show: parsed by
markdown-it-py (CommonMark, raw HTML off, so `<script>` stays text) and then cleaned by nh3 (the Ammonia
sanitizer: only a list of harmless tags and attributes, links limited to http(s)/mailto and given
rel="noopener noreferrer nofollow"), so even a parser bug cannot put script into the page."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")

TAGS = {"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "code", "pre", "blockquote", "ul",
        "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "del"}
ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"style"}, "td": {"style"}}


def render(markdown: str) -> str:
    """Safe HTML for the Markdown text (images are left out: an organizer's page loads nothing from elsewhere)."""
    html = _md.render(markdown or "")
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes={"http", "https", "mailto"},
                     link_rel="noopener noreferrer nofollow", filter_style_properties={"text-align"})
