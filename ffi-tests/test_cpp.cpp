// The C ABI from C++ through the RAII wrapper (include/proofnum.hpp): games as classes,
// solves checked against independent oracles, memory owned by the wrapper, from a static
// array and from the stack, exceptions that must not cross the library, a stop from a
// std::thread, the table through vectors, and the parallel calls with counted copies. Built as
// C++11 and C++17 by run.sh.
#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "check.h"
#include "games.h"
#include "proofnum.hpp"

namespace {

// Connect Four as a class, over the bitboard functions of games.h.
class ConnectFour {
public:
    ConnectFour(int width, int height) { c4_init(&g_, width, height); }

    pn_side side_to_move() const { return (g_.moves & 1) ? PN_SIDE_SECOND : PN_SIDE_FIRST; }
    uint64_t hash() const { return c4_key(&g_); }
    pn_outcome outcome() const {
        uint32_t out = 0;
        c4_outcome(const_cast<c4_t *>(&g_), &out);
        return static_cast<pn_outcome>(out);
    }
    std::size_t generate_moves(uint32_t *moves, std::size_t cap) const {
        std::size_t n = 0;
        c4_generate(const_cast<c4_t *>(&g_), moves, cap, &n);
        return n;
    }
    void play(uint32_t col) {
        if (c4_play(&g_, col) != 0) throw std::logic_error("illegal move");
    }
    void undo(uint32_t col) {
        if (c4_undo(&g_, col) != 0) throw std::logic_error("illegal undo");
    }

    c4_t &board() { return g_; }
    const c4_t &board() const { return g_; }

private:
    c4_t g_;
};

// Connect Four with deferred moves (the last 0 to 3 of each list, from games.h's
// c4_deferred); the wrapper finds deferred_moves() by its signature.
class DeferringConnectFour : public ConnectFour {
public:
    DeferringConnectFour(int width, int height) : ConnectFour(width, height) {}
    std::size_t deferred_moves() const {
        std::size_t n = 0;
        c4_deferred(const_cast<c4_t *>(&board()), &n);
        return n;
    }
};

// Tic-tac-toe whose play() throws after a number of moves: the exception must be caught by
// the wrapper, not unwind through the library.
class ThrowingTicTacToe {
public:
    explicit ThrowingTicTacToe(int throw_after) : throw_after_(throw_after), plays_(0) {
        std::memset(&g_, 0, sizeof g_);
    }

    pn_side side_to_move() const { return g_.to_move ? PN_SIDE_SECOND : PN_SIDE_FIRST; }
    uint64_t hash() const {
        uint64_t h = 0;
        ttt_hash(const_cast<ttt_t *>(&g_), &h);
        return h;
    }
    pn_outcome outcome() const {
        uint32_t out = 0;
        ttt_outcome(const_cast<ttt_t *>(&g_), &out);
        return static_cast<pn_outcome>(out);
    }
    std::size_t generate_moves(uint32_t *moves, std::size_t cap) const {
        std::size_t n = 0;
        ttt_generate(const_cast<ttt_t *>(&g_), moves, cap, &n);
        return n;
    }
    void play(uint32_t mv) {
        if (throw_after_ >= 0 && ++plays_ > throw_after_) throw std::runtime_error("boom");
        ttt_play(&g_, mv);
    }
    void undo(uint32_t mv) { ttt_undo(&g_, mv); }

private:
    ttt_t g_;
    int throw_after_;
    int plays_;
};

// Connect Four whose objects are counted, for the parallel calls' copies (made with the copy
// constructor, released with delete): every copy must be destroyed by the time a call
// returns. The copy constructor can be told to throw.
class CountedConnectFour : public ConnectFour {
public:
    static std::atomic<int> live;
    static std::atomic<int> copies;
    static std::atomic<int> throw_at_copy;  // the copy number that throws, counting from 1; 0: none

    CountedConnectFour(int width, int height) : ConnectFour(width, height) { ++live; }
    CountedConnectFour(const CountedConnectFour &other) : ConnectFour(other) {
        const int n = ++copies;
        if (throw_at_copy != 0 && n >= throw_at_copy) throw std::runtime_error("no copy today");
        ++live;
    }
    CountedConnectFour &operator=(const CountedConnectFour &) = delete;
    ~CountedConnectFour() { --live; }
};

std::atomic<int> CountedConnectFour::live(0);
std::atomic<int> CountedConnectFour::copies(0);
std::atomic<int> CountedConnectFour::throw_at_copy(0);

// Tic-tac-toe with its exact encoding (the nine cells and the side to move), for
// certificates; the wrapper finds encode() by its signature.
class EncodedTicTacToe {
public:
    EncodedTicTacToe() { std::memset(&g_, 0, sizeof g_); }

    pn_side side_to_move() const { return g_.to_move ? PN_SIDE_SECOND : PN_SIDE_FIRST; }
    uint64_t hash() const {
        uint64_t h = 0;
        ttt_hash(const_cast<ttt_t *>(&g_), &h);
        return h;
    }
    pn_outcome outcome() const {
        uint32_t out = 0;
        ttt_outcome(const_cast<ttt_t *>(&g_), &out);
        return static_cast<pn_outcome>(out);
    }
    std::size_t generate_moves(uint32_t *moves, std::size_t cap) const {
        std::size_t n = 0;
        ttt_generate(const_cast<ttt_t *>(&g_), moves, cap, &n);
        return n;
    }
    void play(uint32_t mv) {
        if (ttt_play(&g_, mv) != 0) throw std::logic_error("illegal move");
    }
    void undo(uint32_t mv) { ttt_undo(&g_, mv); }
    std::size_t encode(uint8_t *out, std::size_t cap) const {
        if (cap < 10) throw std::length_error("no room");
        std::memcpy(out, g_.cells, 9);
        out[9] = static_cast<uint8_t>(g_.to_move);
        return 10;
    }

    ttt_t &board() { return g_; }

private:
    ttt_t g_;
};

static_assert(proofnum::detail::has_encode<EncodedTicTacToe>::value, "encode() is found");
static_assert(!proofnum::detail::has_encode<ConnectFour>::value, "and not invented");
static_assert(proofnum::detail::has_deferred_moves<DeferringConnectFour>::value,
              "deferred_moves() is found");
static_assert(!proofnum::detail::has_deferred_moves<ConnectFour>::value, "and not invented");

// The subtraction game "take one or two; whoever takes the last stone wins", where the first
// player also holds tokens and may take three stones by spending one. A position's class is
// its pile and side to move, its material the tokens: more only add moves for the first
// player, so they are at least as good for it, and fewer for the second (true dominance,
// declared by the three methods the wrapper finds by their signatures). The oracle is a table
// filled from the rules (tokens_wins below).
class Tokens {
public:
    Tokens(uint32_t pile, uint32_t tokens)
        : asked_(0), classes_encoded_(0), pile_(pile), tokens_(tokens), to_move_(0) {}

    pn_side side_to_move() const { return to_move_ ? PN_SIDE_SECOND : PN_SIDE_FIRST; }
    uint64_t hash() const { return class_of() << 8 | tokens_; }
    pn_outcome outcome() const { return pile_ == 0 ? PN_OUTCOME_LOSS : PN_OUTCOME_UNKNOWN; }
    std::size_t generate_moves(uint32_t *moves, std::size_t cap) const {
        std::size_t n = 0;
        for (uint32_t take = 1; take <= 3; take++) {
            bool legal = pile_ >= take && (take < 3 || (to_move_ == 0 && tokens_ > 0));
            if (!legal) continue;
            if (n < cap) moves[n] = take;
            n++;
        }
        return n;
    }
    void play(uint32_t take) {
        pile_ -= take;
        tokens_ -= take == 3 ? 1 : 0;
        to_move_ ^= 1;
    }
    void undo(uint32_t take) {
        to_move_ ^= 1;
        tokens_ += take == 3 ? 1 : 0;
        pile_ += take;
    }

    uint64_t class_hash() const {
        ++asked_;
        return class_of();
    }
    uint32_t material() const { return tokens_; }
    bool material_at_least(pn_side side, uint32_t a, uint32_t b) const {
        if (asked_ < 0) throw std::runtime_error("a broken order");
        return side == PN_SIDE_FIRST ? a >= b : a <= b;
    }
    // The class exactly: the pile and the side to move.
    std::size_t encode_class(uint8_t *out, std::size_t cap) const {
        ++classes_encoded_;
        if (cap >= 2) {
            out[0] = uint8_t(pile_);
            out[1] = uint8_t(to_move_);
        }
        return 2;
    }

    uint32_t pile() const { return pile_; }
    uint32_t tokens() const { return tokens_; }
    // How often the solver asked for the class; a negative count makes the order throw.
    mutable int asked_;
    // How often the confirming walk asked for the class's encoding.
    mutable int classes_encoded_;

private:
    uint64_t class_of() const { return uint64_t(pile_) << 1 | to_move_; }

    uint32_t pile_, tokens_, to_move_;
};

static_assert(proofnum::detail::has_dominance<Tokens>::value, "dominance is found");
static_assert(!proofnum::detail::has_dominance<ConnectFour>::value, "and not invented");
static_assert(proofnum::detail::has_encode_class<Tokens>::value, "encode_class() is found");
static_assert(!proofnum::detail::has_encode_class<ConnectFour>::value, "and not invented");

}  // namespace

// Stones only accumulate in Connect Four: declare it acyclic (tic-tac-toe keeps the default
// draw rule, so both paths of the wrapper are used).
template <>
struct proofnum::GameTraits<ConnectFour> {
    static const uint32_t repetition_rule = PN_REPETITION_ACYCLIC;
};
template <>
struct proofnum::GameTraits<DeferringConnectFour> {
    static const uint32_t repetition_rule = PN_REPETITION_ACYCLIC;
};
template <>
struct proofnum::GameTraits<CountedConnectFour> {
    static const uint32_t repetition_rule = PN_REPETITION_ACYCLIC;
};
template <>
struct proofnum::GameTraits<Tokens> {
    static const uint32_t repetition_rule = PN_REPETITION_ACYCLIC;
};

namespace {

pn_config config(std::size_t table_bytes, uint32_t max_depth, uint32_t max_moves) {
    pn_config c = proofnum::default_config();
    c.table_bytes = table_bytes;
    c.max_depth = max_depth;
    c.max_moves = max_moves;
    c.verify_memo_entries = 256;
    return c;
}

uint32_t expected_outcome(int negamax) {
    return negamax > 0 ? PN_OUTCOME_WIN : negamax < 0 ? PN_OUTCOME_LOSS : PN_OUTCOME_DRAW;
}

void test_version() {
    CHECK(pn_version() == PN_VERSION_NUMBER);
    CHECK(pn_abi_version() == PN_ABI_VERSION);
}

// `engine` is a pn_engine; PNS and PN² get an arena of 2^18 nodes (5 MiB).
void test_connect_four(int width, int height, uint32_t engine = PN_ENGINE_DFPN) {
    pn_config c = config(1 << 20, 48, 8);
    c.engine = engine;
    c.arena_nodes = std::size_t(1) << 18;
    proofnum::Solver solver(c);
    ConnectFour game(width, height);
    std::vector<uint8_t> memo(std::size_t(1) << (width * (height + 1)), 0);
    int oracle = c4_negamax(&game.board(), memo.data());
    proofnum::Result r = solver.solve_value(game);
    CHECK_STATUS(r.status, PN_STATUS_OK);
    CHECK(r.result.outcome == expected_outcome(oracle));
    CHECK(game.board().moves == 0);
    // After each first move, both players as the attacker.
    for (int col = 0; col < width; col++) {
        game.play(uint32_t(col));
        int v = c4_negamax(&game.board(), memo.data());
        proofnum::Result a = solver.solve(game, PN_SIDE_SECOND);
        proofnum::Result b = solver.solve(game, PN_SIDE_FIRST);
        CHECK(a.solved() && b.solved());
        CHECK(a.result.outcome == (v > 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
        CHECK(b.result.outcome == (v < 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
        game.undo(uint32_t(col));
    }
}

// Deferred moves change no value (df-pn makes them once the others have failed).
void test_deferred_moves(int width, int height) {
    proofnum::Solver solver(config(1 << 20, 48, 8));
    DeferringConnectFour game(width, height);
    CHECK(proofnum::Game<DeferringConnectFour>::table(game).deferred_moves != nullptr);
    std::vector<uint8_t> memo(std::size_t(1) << (width * (height + 1)), 0);
    for (int col = 0; col < width; col++) {
        game.play(uint32_t(col));
        int v = c4_negamax(&game.board(), memo.data());
        proofnum::Result r = solver.solve_value(game);
        CHECK_STATUS(r.status, PN_STATUS_OK);
        CHECK(r.result.outcome == expected_outcome(v));
        game.undo(uint32_t(col));
    }
}

void test_principal_variation_and_verify() {
    proofnum::Solver solver(config(1 << 20, 48, 8));
    ConnectFour game(4, 4);
    std::vector<uint8_t> memo(std::size_t(1) << (4 * 5), 0);
    // 4 x 4 is a draw: neither side wins, both claims verify, and the opposite is refuted.
    CHECK(c4_negamax(&game.board(), memo.data()) == 0);
    for (int side = 0; side < 2; side++) {
        pn_side attacker = side ? PN_SIDE_SECOND : PN_SIDE_FIRST;
        proofnum::Result v = solver.verify(game, attacker, PN_OUTCOME_DISPROVEN);
        CHECK_STATUS(v.status, PN_STATUS_OK);
        CHECK(v.result.outcome == PN_OUTCOME_DISPROVEN);
        CHECK_STATUS(solver.verify(game, attacker, PN_OUTCOME_PROVEN).status, PN_STATUS_REFUTED);
    }
    // The line of the first player's disproof: every move legal, the first player never has
    // a win anywhere on it (negamax, from the side to move's view), and it ends in a finished
    // game the first player has not won.
    pn_status status = PN_STATUS_INTERNAL_ERROR;
    std::vector<uint32_t> line = solver.principal_variation(game, PN_SIDE_FIRST, 64, &status);
    CHECK_STATUS(status, PN_STATUS_OK);
    CHECK(!line.empty() && line.size() <= 16);
    for (uint32_t col : line) {
        game.play(col);
        int v = c4_negamax(&game.board(), memo.data());
        CHECK(game.side_to_move() == PN_SIDE_FIRST ? v <= 0 : v >= 0);
    }
    uint32_t end = PN_OUTCOME_UNKNOWN;
    c4_outcome(&game.board(), &end);
    CHECK(end == PN_OUTCOME_DRAW ||
          (end == PN_OUTCOME_LOSS && game.side_to_move() == PN_SIDE_FIRST));
    for (std::size_t i = line.size(); i-- > 0;) game.undo(line[i]);
    CHECK(game.board().moves == 0);
    // A short buffer: the line's start, and the status says it goes on.
    std::vector<uint32_t> start = solver.principal_variation(game, PN_SIDE_FIRST, 3, &status);
    CHECK_STATUS(status, PN_STATUS_BUFFER_TOO_SMALL);
    CHECK(start.size() == 3);
}

uint64_t static_memory[1 << 15];

void test_memory_sources() {
    const pn_config c = config(64 * 1024, 16, 9);
    ttt_t t;
    std::memset(&t, 0, sizeof t);
    pn_game game = ttt_game(&t);

    // Owned by the wrapper.
    proofnum::Solver owned(c);
    proofnum::Result r = owned.solve_value_table(game);
    CHECK(r.solved() && r.result.outcome == PN_OUTCOME_DRAW);

    // A static array.
    proofnum::Solver in_static(static_memory, sizeof static_memory, c);
    CHECK(static_cast<void *>(in_static.get()) == static_cast<void *>(static_memory));
    r = in_static.solve_value_table(game);
    CHECK(r.solved() && r.result.outcome == PN_OUTCOME_DRAW);

    // The stack.
    uint64_t on_stack[2048];
    const pn_config small = config(4096, 10, 9);
    CHECK(proofnum::Solver::memory_requirements(small).first <= sizeof on_stack);
    proofnum::Solver in_stack(on_stack, sizeof on_stack, small);
    r = in_stack.solve_value_table(game);
    CHECK(r.solved() && r.result.outcome == PN_OUTCOME_DRAW);

    // Too small and misaligned caller memory throw, with the status.
    const std::size_t need = proofnum::Solver::memory_requirements(small).first;
    pn_status thrown = PN_STATUS_OK;
    try {
        proofnum::Solver tiny(on_stack, need - 1, small);
    } catch (const proofnum::Error &e) {
        thrown = e.status();
    }
    CHECK_STATUS(thrown, PN_STATUS_BUFFER_TOO_SMALL);
    thrown = PN_STATUS_OK;
    try {
        proofnum::Solver crooked(reinterpret_cast<char *>(on_stack) + 1, need, small);
    } catch (const proofnum::Error &e) {
        thrown = e.status();
    }
    CHECK_STATUS(thrown, PN_STATUS_MISALIGNED);

    // Moving keeps the solver (its memory moves with it); the moved-from one is empty.
    proofnum::Solver moved(std::move(owned));
    CHECK(owned.get() == nullptr && moved.get() != nullptr);
    r = moved.solve_value_table(game);
    CHECK(r.solved() && r.result.outcome == PN_OUTCOME_DRAW);
    r = owned.solve_value_table(game);
    CHECK_STATUS(r.status, PN_STATUS_NULL_POINTER);
    CHECK(r.result.outcome == PN_OUTCOME_UNKNOWN);
}

void test_exceptions_stay_in_cpp() {
    proofnum::Solver solver(config(64 * 1024, 16, 9));
    ThrowingTicTacToe thrower(25);
    proofnum::Result r = solver.solve_value(thrower);
    CHECK_STATUS(r.status, PN_STATUS_CALLBACK_FAILED);
    CHECK(r.result.outcome == PN_OUTCOME_UNKNOWN && r.result.has_best_move == 0);
    // The same game without the exception is a draw.
    ThrowingTicTacToe fine(-1);
    solver.clear_table();
    r = solver.solve_value(fine);
    CHECK(r.solved() && r.result.outcome == PN_OUTCOME_DRAW);
}

// The library's messages reach C++: in Error::what() and in Result::message, naming the field
// or callback with its value.
void test_error_messages() {
    pn_config bad = config(64 * 1024, 16, 9);
    bad.max_moves = 0;
    std::string what;
    pn_status thrown = PN_STATUS_OK;
    try {
        proofnum::Solver solver(bad);
    } catch (const proofnum::Error &e) {
        thrown = e.status();
        what = e.what();
        CHECK(e.message().find("config.max_moves is 0; expected 1 to ") == 0);
    }
    CHECK_STATUS(thrown, PN_STATUS_INVALID_ARGUMENT);
    CHECK(what.find("an argument is out of range: config.max_moves is 0") == 0);
    bad = config(64 * 1024, 16, 9);
    bad.epsilon_denominator = 0;
    CHECK(proofnum::config_error(bad).find("config.epsilon_denominator is 0") == 0);
    CHECK(proofnum::config_error(config(64 * 1024, 16, 9)).empty());

    proofnum::Solver solver(config(64 * 1024, 16, 9));
    ThrowingTicTacToe thrower(0);
    proofnum::Result r = solver.solve(thrower, static_cast<pn_side>(5));
    CHECK_STATUS(r.status, PN_STATUS_INVALID_ARGUMENT);
    CHECK(r.message.find("attacker is 5; expected 0") == 0);
    CHECK(solver.last_error() == r.message);
    r = solver.solve_value(thrower);
    CHECK_STATUS(r.status, PN_STATUS_CALLBACK_FAILED);
    CHECK(r.message.find("callback play returned -1 for move ") == 0);

    std::vector<unsigned char> ten(10, 0);
    what.clear();
    try {
        solver.load_table(ten);
    } catch (const proofnum::Error &e) {
        what = e.what();
    }
    CHECK(what.find("the 10 saved bytes are too few") != std::string::npos);
    solver.clear_table();
    CHECK(solver.last_error().empty());
}

void test_stop_from_a_thread() {
    proofnum::Solver solver(config(1 << 20, 48, 8));
    ConnectFour game(7, 6);  // far too big to solve in this test
    proofnum::Result r;
    r.status = PN_STATUS_OK;
    std::atomic<bool> done(false);
    std::thread worker([&] {
        r = solver.solve_value(game);
        done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // A stop reaches only a running search: repeat it until the worker's has returned.
    while (!done) {
        solver.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    worker.join();
    CHECK_STATUS(r.status, PN_STATUS_STOPPED);
    CHECK(r.result.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(game.board().moves == 0);
}

void test_table_through_vectors() {
    proofnum::Solver solver(config(64 * 1024, 16, 9));
    ConnectFour game(4, 4);
    proofnum::Result cold = solver.solve_value(game);
    std::vector<unsigned char> saved = solver.save_table();
    CHECK(saved.size() == solver.table_info().saved_bytes);
    solver.clear_table();
    CHECK(solver.table_info().fill_per_mille == 0);
    solver.load_table(saved);
    proofnum::Result warm = solver.solve_value(game);
    CHECK(cold.solved() && warm.solved());
    CHECK(warm.result.outcome == cold.result.outcome);
    CHECK(warm.result.stats.nodes < cold.result.stats.nodes);
    saved[0] ^= 0xFF;
    pn_status thrown = PN_STATUS_OK;
    try {
        solver.load_table(saved);
    } catch (const proofnum::Error &e) {
        thrown = e.status();
    }
    CHECK_STATUS(thrown, PN_STATUS_TABLE_BAD_MAGIC);
}

bool parallel_available() { return (pn_features() & PN_FEATURE_PARALLEL) != 0; }

void test_parallel_calls_exist() {
    proofnum::Solver solver(config(4096, 16, 9));
    ttt_t t;
    std::memset(&t, 0, sizeof t);
    pn_game game = ttt_game(&t);
    pn_result r = pn_result();
    r.struct_size = sizeof r;
    if (!parallel_available()) {
        CHECK_STATUS(pn_solve_parallel(solver.get(), &game, PN_SIDE_FIRST, nullptr, &r),
                     PN_STATUS_UNSUPPORTED);
        CountedConnectFour c4(4, 4);
        proofnum::Result w = solver.solve_value_parallel(c4);
        CHECK_STATUS(w.status, PN_STATUS_UNSUPPORTED);
        CHECK(w.result.outcome == PN_OUTCOME_UNKNOWN && w.result.stats.nodes == 0);
    }
}

pn_config parallel_config(uint32_t threads) {
    pn_config c = config(1 << 20, 48, 8);
    c.threads = threads;
    return c;
}

// Connect Four with worker threads through the wrapper: the oracle's values, one copy per
// thread and call and one for the walk that confirms the answer, every copy destroyed.
void test_parallel_connect_four(int width, int height, uint32_t threads) {
    proofnum::Solver solver(parallel_config(threads));
    CountedConnectFour game(width, height);
    std::vector<uint8_t> memo(std::size_t(1) << (width * (height + 1)), 0);
    const int oracle = c4_negamax(&game.board(), memo.data());
    const int live = CountedConnectFour::live;
    const int copies = CountedConnectFour::copies;
    proofnum::Result r = solver.solve_value_parallel(game);
    CHECK_STATUS(r.status, PN_STATUS_OK);
    CHECK(r.result.outcome == expected_outcome(oracle));
    CHECK(r.result.stats.threads == threads && r.result.stats.jobs >= 1);
    CHECK(CountedConnectFour::copies - copies == int(threads) + 1);
    CHECK(CountedConnectFour::live == live);
    CHECK(game.board().moves == 0);
    // After each first move, both players as the attacker.
    for (int col = 0; col < width; col++) {
        game.play(uint32_t(col));
        int v = c4_negamax(&game.board(), memo.data());
        proofnum::Result a = solver.solve_parallel(game, PN_SIDE_SECOND);
        proofnum::Result b = solver.solve_parallel(game, PN_SIDE_FIRST);
        CHECK(a.solved() && b.solved());
        CHECK(a.result.outcome == (v > 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
        CHECK(b.result.outcome == (v < 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
        game.undo(uint32_t(col));
    }
    CHECK(CountedConnectFour::live == live);
}

// A copy constructor that throws: the exception stays in C++, the call fails without an
// answer, and the copies made before it are destroyed.
void test_parallel_copy_that_throws() {
    proofnum::Solver solver(parallel_config(4));
    CountedConnectFour game(4, 4);
    const int live = CountedConnectFour::live;
    CountedConnectFour::throw_at_copy = CountedConnectFour::copies + 3;
    proofnum::Result r = solver.solve_value_parallel(game);
    CountedConnectFour::throw_at_copy = 0;
    CHECK_STATUS(r.status, PN_STATUS_CALLBACK_FAILED);
    CHECK(r.result.outcome == PN_OUTCOME_UNKNOWN && r.result.stats.nodes == 0);
    CHECK(CountedConnectFour::live == live);
    r = solver.solve_value_parallel(game);
    CHECK(r.solved() && r.result.outcome == PN_OUTCOME_DRAW);  // 4 x 4 is a draw
}

void test_parallel_stop_from_a_thread() {
    proofnum::Solver solver(parallel_config(2));
    CountedConnectFour game(7, 6);  // far too big to solve in this test
    const int live = CountedConnectFour::live;
    proofnum::Result r;
    r.status = PN_STATUS_OK;
    std::atomic<bool> done(false);
    std::thread worker([&] {
        r = solver.solve_value_parallel(game);
        done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    // A stop reaches only a running search: repeat it until the worker's has returned.
    while (!done) {
        solver.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    worker.join();
    CHECK_STATUS(r.status, PN_STATUS_STOPPED);
    CHECK(r.result.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(game.board().moves == 0);
    CHECK(CountedConnectFour::live == live);
}

// Certificates: tic-tac-toe after X in a corner and O beside it (X wins: negamax), written
// into a vector and through a sink of our own, checked by the library's checker; a damaged
// one is rejected; a refusing sink ends the walk.
void test_certificates() {
    pn_config config = proofnum::default_config();
    config.table_bytes = 1 << 16;
    proofnum::Solver solver(config);
    EncodedTicTacToe game;
    game.play(0);
    game.play(1);
    CHECK(ttt_negamax(&game.board()) == 1);
    proofnum::Result r = solver.solve(game, PN_SIDE_FIRST);
    CHECK_STATUS(r.status, PN_STATUS_OK);
    CHECK(r.result.outcome == PN_OUTCOME_PROVEN && r.result.stats.confirm_nodes > 0);
    std::vector<unsigned char> cert;
    r = solver.certify(game, PN_SIDE_FIRST, PN_OUTCOME_PROVEN, "tic-tac-toe", cert);
    CHECK_STATUS(r.status, PN_STATUS_OK);
    CHECK(cert.size() > 8);
    if (pn_features() & PN_FEATURE_STD) {
        proofnum::Check c = proofnum::check_certificate(game, "tic-tac-toe", cert);
        CHECK_STATUS(c.status, PN_STATUS_OK);
        CHECK(c.valid() && c.report.exact == 1 && c.message.compare(0, 7, "valid: ") == 0);
        std::vector<unsigned char> damaged(cert.begin(), cert.end() - 3);
        c = proofnum::check_certificate(game, "tic-tac-toe", damaged);
        CHECK_STATUS(c.status, PN_STATUS_CERTIFICATE_INVALID);
        CHECK(c.report.verdict == PN_CHECK_VERDICT_MALFORMED && !c.message.empty());
    }
    // A false claim has no certificate; a sink of our own that stops after 10 bytes.
    std::vector<unsigned char> none;
    r = solver.certify(game, PN_SIDE_FIRST, PN_OUTCOME_DISPROVEN, "tic-tac-toe", none);
    CHECK_STATUS(r.status, PN_STATUS_REFUTED);
    std::size_t taken = 0;
    auto stingy = [&taken](const uint8_t *, std::size_t length) {
        if (taken + length > 10) return false;
        taken += length;
        return true;
    };
    r = solver.certify_to(game, PN_SIDE_FIRST, PN_OUTCOME_PROVEN, "tic-tac-toe", stingy);
    CHECK_STATUS(r.status, PN_STATUS_OUTPUT_FAILED);
    CHECK(taken <= 10);
}

const uint32_t TOKENS_MAX_PILE = 24, TOKENS_MAX = 3;

// Whether the side to move wins, by pile, tokens and side to move, from the rules.
bool tokens_wins(uint32_t pile, uint32_t tokens, uint32_t mover) {
    static std::vector<int> memo;
    if (memo.empty()) memo.assign((TOKENS_MAX_PILE + 1) * (TOKENS_MAX + 1) * 2, -1);
    int &m = memo[(pile * (TOKENS_MAX + 1) + tokens) * 2 + mover];
    if (m < 0) {
        bool win = false;
        for (uint32_t take = 1; take <= 2 && take <= pile; take++) {
            win = win || !tokens_wins(pile - take, tokens, 1 - mover);
        }
        if (mover == 0 && tokens > 0 && pile >= 3) {
            win = win || !tokens_wins(pile - 3, tokens - 1, 1);
        }
        m = win ? 1 : 0;
    }
    return m == 1;
}

void test_dominance() {
    proofnum::Solver solver(config(1 << 16, 64, 3));
    int classes_encoded = 0;
    for (uint32_t pile = 0; pile <= TOKENS_MAX_PILE; pile++) {
        for (uint32_t tokens = 0; tokens <= TOKENS_MAX; tokens++) {
            Tokens game(pile, tokens);
            solver.clear_table();
            proofnum::Result r = solver.solve_value(game);
            CHECK_STATUS(r.status, PN_STATUS_OK);
            CHECK(r.result.outcome ==
                  (tokens_wins(pile, tokens, 0) ? PN_OUTCOME_WIN : PN_OUTCOME_LOSS));
            CHECK(game.pile() == pile && game.tokens() == tokens);
            CHECK((game.asked_ > 0) == (pile > 0)); // the methods were found and used
            classes_encoded += game.classes_encoded_;
            if (parallel_available()) {
                solver.clear_table();
                proofnum::Result p = solver.solve_value_parallel(game);
                CHECK_STATUS(p.status, PN_STATUS_OK);
                CHECK(p.result.outcome == r.result.outcome);
            }
        }
    }
    CHECK(classes_encoded > 0);  // the confirming walk keyed classes by encode_class()
    // An order that throws: the call fails, no answer, nothing unwinds through the library.
    Tokens broken(TOKENS_MAX_PILE, TOKENS_MAX);
    broken.asked_ = -1000000;
    proofnum::Result r = solver.solve_value(broken);
    CHECK_STATUS(r.status, PN_STATUS_CALLBACK_FAILED);
    CHECK(r.result.outcome == PN_OUTCOME_UNKNOWN);
}

}  // namespace

int main() {
    test_version();
    test_connect_four(4, 4);
    test_connect_four(5, 4);
    test_connect_four(4, 4, PN_ENGINE_PNS);
    test_connect_four(4, 4, PN_ENGINE_PN2);
    test_deferred_moves(5, 4);
    test_memory_sources();
    test_exceptions_stay_in_cpp();
    test_error_messages();
    test_stop_from_a_thread();
    test_table_through_vectors();
    test_principal_variation_and_verify();
    test_parallel_calls_exist();
    test_certificates();
    test_dominance();
    if (parallel_available()) {
        test_parallel_connect_four(4, 4, 2);
        test_parallel_connect_four(5, 4, 4);
        test_parallel_copy_that_throws();
        test_parallel_stop_from_a_thread();
    }
#if __cplusplus >= 201703L
    return finish("ffi-tests/test_cpp (C++17)");
#else
    return finish("ffi-tests/test_cpp (C++11)");
#endif
}
