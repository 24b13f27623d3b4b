"""Pictures of a Nim position: a text diagram and a ``savanna.draw.Drawing``."""
from nim_toy.spec import HEAP_NAMES, MAX_HEAP
from savanna.draw import Drawing


def text(pos, misere):
    """One line per heap (``b | ooo``), then whose turn it is or who won."""
    rows = [f"{name} | {'o' * size}" for name, size in zip(HEAP_NAMES, pos.heaps)]
    if sum(pos.heaps):
        status = f"player {pos.to_move} to move"
    else:
        status = f"player {1 - pos.to_move if misere else pos.to_move} wins"
    return "\n".join([*rows, status + (" (misere)" if misere else "")])


def drawing(pos, misere):
    """The heaps as rows of counters, and the same status line as ``text``."""
    cell = 30
    d = Drawing(cell * (MAX_HEAP + 1) + 20, cell * len(HEAP_NAMES) + 50,
                background=(245, 245, 240))
    for row, (name, size) in enumerate(zip(HEAP_NAMES, pos.heaps)):
        y = 20 + cell * row + cell / 2
        d.text(20, y + 5, name, size=14)
        for k in range(size):
            d.circle(20 + cell * (k + 1), y, cell * 0.4, fill=(200, 120, 40))
    d.text(d.width / 2, cell * len(HEAP_NAMES) + 40, text(pos, misere).splitlines()[-1],
           size=14)
    return d
