"""The repository's Python example and the README's Python snippet run as written, and say
what the references say."""

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


def test_the_readme_python_snippet() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Use from Python"):]
    snippet = re.search(r"```python\n(.*?)```", section, re.S)
    assert snippet is not None, "README's Python section has a ```python block"
    exec(compile(snippet.group(1), "README.md", "exec"), {})  # its asserts check the answers
