"""The repository's Python example, and the Python blocks of the README and of the guide's
Python chapter, run as written and say what the references say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tictactoe

import references as ref

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("played", ["", "40", "01", "0142"])
def test_the_tic_tac_toe_example(played: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert tictactoe.main(["tictactoe.py", played]) == 0
    out = capsys.readouterr().out
    value = ref.tic_tac_toe(ref.tic_tac_toe_board(played))
    mover = "XO"[len(played) % 2]
    word = {ref.WIN: "win", ref.DRAW: "draw", ref.LOSS: "loss"}[value]
    assert f"value: {word} for {mover}" in out
    line = re.search(r"principal variation: ([0-8 ]+)", out)
    assert (line is None) == (value == ref.DRAW)
    if line:
        board = ref.tic_tac_toe_board(played + line.group(1).replace(" ", ""))
        assert ref.tic_tac_toe(board) == ref.LOSS  # the line ends with the winner's three


def test_the_tic_tac_toe_example_rejects_bad_cells(capsys: pytest.CaptureFixture[str]) -> None:
    assert tictactoe.main(["tictactoe.py", "44"]) == 2
    assert "usage" in capsys.readouterr().err


@pytest.mark.parametrize("document", ["README.md", "docs/src/python.md"])
def test_the_python_blocks_of(document: str) -> None:
    """Every ```python block of the document, in order, in one namespace (a later block uses
    what an earlier one defined), as a reader would paste them; their asserts check the
    answers."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / document).read_text(), re.S)
    assert blocks, f"{document} has ```python blocks"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, document, "exec"), namespace)
