"""HTML tables of text cells, for results and analyses shown in a notebook (``_repr_html_``)."""
import html

__all__ = ["html_table"]


def html_table(caption, head, rows):
    """An HTML table of text cells (escaped), with a caption and a header row."""

    def line(cells, tag):
        return "<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"

    return (f"<table><caption>{html.escape(caption)}</caption>" + line(head, "th")
            + "".join(line(r, "td") for r in rows) + "</table>")
