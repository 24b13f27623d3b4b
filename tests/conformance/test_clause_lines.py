"""A failing clause's line says the cause and the values that differ: an observation's raw
bytes and an SVG picture are named, not printed, and a traceback shows its last line."""
from savanna.conformance.plugin import readable


def test_raw_bytes_and_pictures_are_named_and_short_values_kept():
    observation = repr(bytes(range(40)))
    svg = repr('<svg width="60">\n<rect x="1"/></svg>')
    line = readable(f"assert ({observation}, 'seat 1', {svg}) == (b'\\x01', 'seat 2', {svg})")
    assert line == ("assert (<raw bytes>, 'seat 1', <an SVG picture>) == (b'\\x01', 'seat 2', "
                    "<an SVG picture>)")


def test_a_traceback_shows_its_cause():
    why = "Traceback (most recent call last):\n  File \"x.py\", line 3\n    f()\nKeyError: 'k'\n"
    assert readable(why) == "KeyError: 'k'"
