"""Observation layouts declared once: named parts with sizes, offsets computed at import.

A game declares its ``Layout`` in its notation module (pure Python), so that its kernels and
its reference read the same offsets; the kernels bind them to module-level ints (numba freezes
module globals) and the documented table is generated from the same declaration.
"""
from typing import NamedTuple

from savanna.errors import clip


class Part(NamedTuple):
    """One named run of observation values: ``[offset, offset + size)``."""

    name: str
    offset: int
    size: int
    description: str


class Layout:
    """Named parts ``(name, size, description)`` laid end to end, in declaration order."""

    def __init__(self, *parts: tuple[str, int, str]):
        self.parts: tuple[Part, ...] = ()
        offset = 0
        for name, size, description in parts:
            if not isinstance(size, int) or size <= 0:
                raise ValueError(f"size of layout part {name!r} must be a positive int, "
                                 f"got {clip(size)}")
            if name in self.names:
                raise ValueError(f"layout part names must be unique, got {clip(name)} twice")
            self.parts += (Part(name, offset, size, description),)
            offset += size
        self.size = offset

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(part.name for part in self.parts)

    def part(self, name: str) -> Part:
        for part in self.parts:
            if part.name == name:
                return part
        raise ValueError(f"layout part must be one of {', '.join(self.names)}, got {clip(name)}")

    def offset(self, name: str) -> int:
        """Index of the first value of part ``name``."""
        return self.part(name).offset

    def table(self) -> str:
        """The layout as a plain-text table: name, offset, size, description."""
        width = max(len("part"), *(len(part.name) for part in self.parts))
        rows = [f"{'part':<{width}}  offset  size  description"]
        rows += [f"{p.name:<{width}}  {p.offset:>6}  {p.size:>4}  {p.description}"
                 for p in self.parts]
        return "\n".join(rows)

    def document(self, doc: str | None) -> str:
        """``doc`` followed by the table as a literal block, for a module's ``__doc__``."""
        table = "\n".join("    " + row for row in self.table().splitlines())
        return f"{doc or ''}\nObservation layout (``uint8[{self.size}]``)::\n\n{table}\n"
