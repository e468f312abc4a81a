# The chess referee: proofnum on the CI mate suite (games/suites/chess-ci.epd), each line
# searched again by Stockfish on this machine (--referee: go nodes with the line's budget, one
# thread) and every answer checked: mating lines replayed move by move on cozy-chess, mates of
# up to 3 moves against an exhaustive search, N against Stockfish's. Fails on any wrong or
# disputed answer, and when Stockfish is missing (scripts/install-deps installs it).
# About a minute after the release build.
cargo run --release -p proofnum-tools --bin chesssuite -- run games/suites/chess-ci.epd --referee --cap 5
