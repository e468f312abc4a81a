// Tic-tac-toe played perfectly by proofnum, from C++ through the RAII wrapper
// (include/proofnum.hpp). Each turn the solver finds the value of the position and the move
// that keeps it; with perfect play on both sides the game ends in a draw.
//
//   make && ./tictactoe           # from the empty board
//   ./tictactoe 40                # after X in the centre (cell 4), O in a corner (cell 0)
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "proofnum.hpp"

namespace {

// The game as a class with the six methods proofnum::Game asks for.
class TicTacToe {
public:
    pn_side side_to_move() const { return to_move_ == 0 ? PN_SIDE_FIRST : PN_SIDE_SECOND; }

    uint64_t hash() const {
        uint64_t h = to_move_;
        for (int c : cells_) h = h * 3 + uint64_t(c);
        return h;
    }

    pn_outcome outcome() const {
        static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
        for (const auto &l : lines) {
            int c = cells_[l[0]];
            if (c != 0 && c == cells_[l[1]] && c == cells_[l[2]]) return PN_OUTCOME_LOSS;
        }
        for (int c : cells_) {
            if (c == 0) return PN_OUTCOME_UNKNOWN;
        }
        return PN_OUTCOME_DRAW;
    }

    std::size_t generate_moves(uint32_t *moves, std::size_t cap) const {
        std::size_t n = 0;
        for (uint32_t i = 0; i < 9; i++) {
            if (cells_[i] != 0) continue;
            if (n < cap) moves[n] = i;
            n++;
        }
        return n;
    }

    void play(uint32_t cell) {
        if (cell >= 9 || cells_[cell] != 0) throw std::invalid_argument("occupied cell");
        cells_[cell] = to_move_ + 1;
        to_move_ ^= 1;
    }

    void undo(uint32_t cell) {
        cells_[cell] = 0;
        to_move_ ^= 1;
    }

    void print() const {
        for (int row = 0; row < 3; row++) {
            std::printf("  %c %c %c\n", ".XO"[cells_[row * 3]], ".XO"[cells_[row * 3 + 1]],
                        ".XO"[cells_[row * 3 + 2]]);
        }
    }

private:
    std::array<int, 9> cells_{};
    int to_move_ = 0;
};

}  // namespace

// Cells only fill up: no position repeats, so the solver can share everything.
template <>
struct proofnum::GameTraits<TicTacToe> {
    static const uint32_t repetition_rule = PN_REPETITION_ACYCLIC;
};

namespace {

const char *name(uint32_t outcome) {
    switch (outcome) {
        case PN_OUTCOME_WIN: return "win";
        case PN_OUTCOME_LOSS: return "loss";
        case PN_OUTCOME_DRAW: return "draw";
        default: return "unknown";
    }
}

// A fixed memory budget in a static array: the solver allocates nothing.
constexpr std::size_t kMemoryBytes = 64 * 1024;

}  // namespace

int main(int argc, char **argv) {
    if (pn_abi_version() != PN_ABI_VERSION) {
        std::fprintf(stderr, "libproofnum ABI %u, header ABI %u\n", pn_abi_version(),
                     PN_ABI_VERSION);
        return 2;
    }
    TicTacToe game;
    try {
        for (const char *p = argc > 1 ? argv[1] : ""; *p != '\0'; p++) game.play(uint32_t(*p - '0'));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bad opening: %s\n", e.what());
        return 2;
    }

    pn_config config = proofnum::default_config();
    config.max_depth = 9;
    config.max_moves = 9;
    config.table_bytes = 32 * 1024;
    config.verify_memo_entries = 0;  // no pn_verify here
    alignas(alignof(std::max_align_t)) static unsigned char memory[kMemoryBytes];
    try {
        proofnum::Solver solver(memory, sizeof memory, config);
        game.print();
        while (game.outcome() == PN_OUTCOME_UNKNOWN) {
            proofnum::Result r = solver.solve_value(game);
            if (!r.solved()) {
                std::fprintf(stderr, "not solved: %s\n", pn_status_str(r.status));
                return 1;
            }
            std::printf("%c to move: %s, plays cell %u (%llu positions searched)\n",
                        game.side_to_move() == PN_SIDE_FIRST ? 'X' : 'O', name(r.result.outcome),
                        r.result.best_move, (unsigned long long)r.result.stats.nodes);
            game.play(r.result.best_move);
            game.print();
            solver.new_generation();  // old entries stay useful but give way first
        }
    } catch (const proofnum::Error &e) {
        std::fprintf(stderr, "proofnum: %s\n", e.what());
        return 2;
    }
    // A finished game's outcome is for the side to move: a loss means the other side won.
    std::printf("result: %s\n", game.outcome() == PN_OUTCOME_DRAW ? "draw"
                                : game.side_to_move() == PN_SIDE_FIRST ? "O wins" : "X wins");
    return 0;
}
