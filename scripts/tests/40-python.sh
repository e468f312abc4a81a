# The Python package (python/): installed with pip into a fresh virtual environment as a user
# would (`pip install ./python` builds libproofnum with cargo; pip fetches setuptools-rust,
# pytest and mypy from PyPI), then its type check (mypy --strict) and its pytest suite
# (tic-tac-toe, Nim and Connect Four against independent references, bad input, limits,
# Ctrl-C, the example and the Python blocks of the README and the guide). About a minute, most of it the build.
venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "./python[test]" mypy
"$venv/bin/python" -m mypy --strict python/src/proofnum python/tests python/bench.py \
    examples/python/tictactoe.py
"$venv/bin/python" -m pytest -q python/tests
