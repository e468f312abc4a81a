"""Puts the repository's Python example on the path: its tic-tac-toe is one of the games the
tests solve (and so the example is tested too)."""

import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"
sys.path.insert(0, str(EXAMPLES))
