"""The text board names the cells moves use: columns a-f above, rows 1-5 beside."""
from savanna.zebres.game import ZebresGame


def test_text_board_labels_cells_and_track():
    game = ZebresGame()
    lines = game.render(game.from_text("L...../....../....../....../..c... g 18 r place")[0])
    lines = lines.splitlines()
    assert lines[1].split() == list("abcdef")
    assert lines[3].split()[:3] == ["21", "1", "|"] and lines[3].split()[3] == "L"     # a1
    assert lines[11].split()[:4] == ["17", "5", "|", "."] and "| c " in lines[11]      # c5
    assert lines[9].split()[:3] == ["18", ">", "4"]          # Impala faces row 4 from the left
    assert lines[0].split() == [str(p) for p in range(6)]
