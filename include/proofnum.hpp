/*
 * proofnum.hpp: a small C++11 RAII wrapper over proofnum.h (written by hand, not generated).
 *
 *   proofnum::Solver solver;                    // memory owned by the wrapper, or
 *   proofnum::Solver solver(buffer, bytes);     // a solver inside the caller's memory
 *   MyGame game;                                 // a class with the methods listed at Game
 *   proofnum::Result r = solver.solve_value(game);
 *   if (r.solved() && r.result.outcome == PN_OUTCOME_WIN) play(r.result.best_move);
 *
 *   proofnum::Result p = solver.solve_value_parallel(game);  // pn_config.threads workers,
 *                                                            // each on its own copy of game
 *
 *   std::vector<unsigned char> cert;                 // the proof of an answer, as a file
 *   solver.certify(game, PN_SIDE_FIRST, PN_OUTCOME_PROVEN, "my game", cert);
 *   proofnum::Check c = proofnum::check_certificate(game, "my game", cert);
 *   if (!c.valid()) std::puts(c.message.c_str());  // the first faulty step, and where
 *
 * Every answer is confirmed before it is reported (pn_config.confirm; PN_STATUS_UNCONFIRMED
 * when the confirmation kept refuting it).
 * Construction and the table calls throw proofnum::Error, whose what() carries the library's
 * message naming what was wrong ("config.max_moves is 0; expected 1 to ..."); solve calls
 * return a Result whose status says whether the search found an answer (running out of
 * budget is not exceptional), with that message in Result::message when it did not.
 * Exceptions thrown by a game's methods are caught before they reach the library and reported
 * as PN_STATUS_CALLBACK_FAILED: nothing ever unwinds through the C ABI.
 */
#ifndef PROOFNUM_HPP
#define PROOFNUM_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "proofnum.h"

namespace proofnum {

/// The solver's last error message (pn_solver_last_error): what its last call found wrong,
/// empty after a success.
inline std::string last_error(const pn_solver *solver) {
    char buf[PN_ERROR_CAPACITY];
    (void)pn_solver_last_error(solver, buf, sizeof buf);
    return std::string(buf);
}

/// What pn_solver_memory_requirements and pn_solver_init refuse in `config` (pn_config_error);
/// empty for an acceptable configuration.
inline std::string config_error(const pn_config &config) {
    char buf[PN_ERROR_CAPACITY];
    (void)pn_config_error(&config, buf, sizeof buf);
    return std::string(buf);
}

/// A call that failed, with its status and the library's message saying what was wrong.
/// what() is "<status description>: <message>" (the status's description alone when there is
/// no message).
class Error : public std::runtime_error {
public:
    explicit Error(pn_status status) : std::runtime_error(pn_status_str(status)), status_(status) {}
    Error(pn_status status, const std::string &message)
        : std::runtime_error(message.empty() ? std::string(pn_status_str(status))
                                             : std::string(pn_status_str(status)) + ": " +
                                                   message),
          status_(status),
          message_(message) {}
    pn_status status() const noexcept { return status_; }
    /// The library's message (pn_solver_last_error, pn_config_error), or empty.
    const std::string &message() const noexcept { return message_; }

private:
    pn_status status_;
    std::string message_;
};

/// Throws Error unless the status is PN_STATUS_OK.
inline void check(pn_status status) {
    if (status != PN_STATUS_OK) throw Error(status);
}

/// Throws Error, with the solver's last error message, unless the status is PN_STATUS_OK.
inline void check(pn_status status, const pn_solver *solver) {
    if (status != PN_STATUS_OK) throw Error(status, last_error(solver));
}

/// Throws Error, with what is wrong with `config`, unless the status is PN_STATUS_OK.
inline void check(pn_status status, const pn_config &config) {
    if (status != PN_STATUS_OK) throw Error(status, config_error(config));
}

/// The default configuration (pn_config_init on this header's pn_config); change what you
/// need and hand it to Solver.
inline pn_config default_config() {
    pn_config config = pn_config();
    config.struct_size = sizeof config;
    check(pn_config_init(&config));
    return config;
}

/// What a solve call returned: its status, the result the library wrote (all zero, with
/// outcome PN_OUTCOME_UNKNOWN, when the call failed before searching), and when it failed the
/// solver's message saying why (pn_solver_last_error).
struct Result {
    pn_status status;
    pn_result result;
    std::string message;

    bool solved() const noexcept { return status == PN_STATUS_OK; }
};

/// How the wrapper declares a game class's repetition rule: the draw rule unless specialized,
/// e.g. for a game whose positions never repeat (much faster):
///   template <> struct proofnum::GameTraits<MyGame> {
///       static const uint32_t repetition_rule = PN_REPETITION_ACYCLIC;
///   };
/// (Games that score repetitions themselves, PN_REPETITION_BY_POSITION, need the C table and
/// Solver::solve_table.)
template <class G>
struct GameTraits {
    static const uint32_t repetition_rule = PN_REPETITION_DRAW;
};

namespace detail {

/// Whether G has `std::size_t encode(uint8_t *out, std::size_t cap) const`.
template <class G>
class has_encode {
    template <class T>
    static auto test(int) -> decltype(static_cast<std::size_t>(std::declval<const T &>().encode(
                                          static_cast<uint8_t *>(nullptr), std::size_t())),
                                      std::true_type());
    template <class>
    static std::false_type test(...);

public:
    static const bool value = decltype(test<G>(0))::value;
};

/// Whether G has `std::size_t encode_class(uint8_t *out, std::size_t cap) const`.
template <class G>
class has_encode_class {
    template <class T>
    static auto test(int)
        -> decltype(static_cast<std::size_t>(std::declval<const T &>().encode_class(
                        static_cast<uint8_t *>(nullptr), std::size_t())),
                    std::true_type());
    template <class>
    static std::false_type test(...);

public:
    static const bool value = decltype(test<G>(0))::value;
};

/// Whether G has `std::size_t deferred_moves() const`.
template <class G>
class has_deferred_moves {
    template <class T>
    static auto test(int)
        -> decltype(static_cast<std::size_t>(std::declval<const T &>().deferred_moves()),
                    std::true_type());
    template <class>
    static std::false_type test(...);

public:
    static const bool value = decltype(test<G>(0))::value;
};

/// The encode_class callback of a class that has the method; NULL for one that has not.
template <class G, bool = has_encode_class<G>::value>
struct ClassEncoder {
    static pn_encode_fn get() noexcept { return nullptr; }
};

template <class G>
struct ClassEncoder<G, true> {
    static pn_encode_fn get() noexcept { return &encode_class; }
    static int encode_class(void *ctx, uint8_t *out, std::size_t cap,
                            std::size_t *out_length) noexcept {
        try {
            *out_length = static_cast<const G *>(ctx)->encode_class(out, cap);
            return 0;
        } catch (...) {
            return -1;
        }
    }
};

/// The deferred_moves callback of a class that has the method; NULL for one that has not.
template <class G, bool = has_deferred_moves<G>::value>
struct Deferrer {
    static pn_deferred_moves_fn get() noexcept { return nullptr; }
};

template <class G>
struct Deferrer<G, true> {
    static pn_deferred_moves_fn get() noexcept { return &deferred_moves; }
    static int deferred_moves(void *ctx, std::size_t *out_n) noexcept {
        try {
            *out_n = static_cast<const G *>(ctx)->deferred_moves();
            return 0;
        } catch (...) {
            return -1;
        }
    }
};

/// The encode callback of a class that has the method; NULL for one that has not.
template <class G, bool = has_encode<G>::value>
struct Encoder {
    static pn_encode_fn get() noexcept { return nullptr; }
};

template <class G>
struct Encoder<G, true> {
    static pn_encode_fn get() noexcept { return &encode; }
    static int encode(void *ctx, uint8_t *out, std::size_t cap, std::size_t *out_length) noexcept {
        try {
            *out_length = static_cast<const G *>(ctx)->encode(out, cap);
            return 0;
        } catch (...) {
            return -1;
        }
    }
};

/// Whether G has `uint64_t class_hash() const`.
template <class G>
class has_class_hash {
    template <class T>
    static auto test(int) -> decltype(static_cast<uint64_t>(std::declval<const T &>().class_hash()),
                                      std::true_type());
    template <class>
    static std::false_type test(...);

public:
    static const bool value = decltype(test<G>(0))::value;
};

/// Whether G has `uint32_t material() const`.
template <class G>
class has_material {
    template <class T>
    static auto test(int) -> decltype(static_cast<uint32_t>(std::declval<const T &>().material()),
                                      std::true_type());
    template <class>
    static std::false_type test(...);

public:
    static const bool value = decltype(test<G>(0))::value;
};

/// Whether G has `bool material_at_least(pn_side side, uint32_t a, uint32_t b) const`.
template <class G>
class has_material_at_least {
    template <class T>
    static auto test(int) -> decltype(static_cast<bool>(std::declval<const T &>().material_at_least(
                                          PN_SIDE_FIRST, uint32_t(), uint32_t())),
                                      std::true_type());
    template <class>
    static std::false_type test(...);

public:
    static const bool value = decltype(test<G>(0))::value;
};

/// Whether G declares dominance: all three methods (one or two of them do not compile).
template <class G>
struct has_dominance {
    static const bool value = has_class_hash<G>::value && has_material<G>::value &&
                              has_material_at_least<G>::value;
    static_assert(value || (!has_class_hash<G>::value && !has_material<G>::value &&
                            !has_material_at_least<G>::value),
                  "a game declaring dominance needs all three of class_hash(), material() and "
                  "material_at_least(pn_side, uint32_t, uint32_t), with these signatures");
};

/// The dominance callbacks of a class that has the methods; NULL for one that has not.
template <class G, bool = has_dominance<G>::value>
struct Dominance {
    static void set(pn_game &) noexcept {}
};

template <class G>
struct Dominance<G, true> {
    static void set(pn_game &t) noexcept {
        t.class_hash = &class_hash;
        t.material = &material;
        t.material_at_least = &material_at_least;
    }
    static int class_hash(void *ctx, uint64_t *out) noexcept {
        try {
            *out = static_cast<const G *>(ctx)->class_hash();
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int material(void *ctx, uint32_t *out) noexcept {
        try {
            *out = static_cast<const G *>(ctx)->material();
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int material_at_least(void *ctx, uint32_t side, uint32_t a, uint32_t b,
                                 uint32_t *out) noexcept {
        try {
            *out = static_cast<const G *>(ctx)->material_at_least(static_cast<pn_side>(side), a, b)
                       ? 1
                       : 0;
            return 0;
        } catch (...) {
            return -1;
        }
    }
};

}  // namespace detail

/// Turns a class into a pn_game (and, for the parallel calls, one that copies it). The class
/// needs:
///   pn_side     side_to_move() const;
///   uint64_t    hash() const;
///   pn_outcome  outcome() const;            // UNKNOWN, WIN, LOSS, DRAW, or a bound CANNOT_WIN / CANNOT_LOSE, for the side to move
///   std::size_t generate_moves(uint32_t *moves, std::size_t cap) const;
///                                           // writes up to cap moves, returns how many exist
///   void        play(uint32_t move);
///   void        undo(uint32_t move);
/// optionally an exact position encoding, which the walks that confirm answers and write
/// certificates use to tell positions apart (see pn_game.encode), found by its signature:
///   std::size_t encode(uint8_t *out, std::size_t cap) const;
///                                           // writes at most cap (PN_ENCODING_CAPACITY) bytes,
///                                           // returns how many
/// optionally deferred moves (see pn_game.deferred_moves), found by its signature:
///   std::size_t deferred_moves() const;     // how many of the moves generate_moves just
///                                           // wrote, from the end, df-pn may make last
/// optionally dominance (see pn_game.class_hash: positions of one class, equal but for their
/// material, ordered by it; it must be true of the game, and only for PN_REPETITION_ACYCLIC
/// and PN_REPETITION_DRAW), all three methods or none, found by their signatures:
///   uint64_t    class_hash() const;         // the hash without the material
///   uint32_t    material() const;           // the material, packed into 32 bits
///   bool        material_at_least(pn_side side, uint32_t a, uint32_t b) const;
///                                           // in this class, a is at least as good for side
///                                           // as b (a partial order)
/// and with them, optionally, an exact encoding of the class (see pn_game.encode_class):
///   std::size_t encode_class(uint8_t *out, std::size_t cap) const;
///                                           // as encode, the material left out
/// and, for parallel_table, a copy constructor making an independent copy (the parallel calls
/// run the methods of different copies on different threads at the same time). A method that
/// throws ends the call with PN_STATUS_CALLBACK_FAILED; a play that throws must leave the game
/// as it was, since its move counts as not played and is never undone.
template <class G>
class Game {
public:
    static pn_game table(G &game) noexcept {
        pn_game t = pn_game();
        t.struct_size = sizeof t;
        t.ctx = &game;
        t.side_to_move = &side_to_move;
        t.hash = &hash;
        t.outcome = &outcome;
        t.generate_moves = &generate_moves;
        t.play = &play;
        t.undo = &undo;
        t.repetition_rule = GameTraits<G>::repetition_rule;
        t.encode = detail::Encoder<G>::get();
        t.deferred_moves = detail::Deferrer<G>::get();
        detail::Dominance<G>::set(t);
        t.encode_class = detail::ClassEncoder<G>::get();
        return t;
    }

    /// As table, with clone and free for the parallel calls: a copy is `new G(game)`, released
    /// with `delete`; a copy constructor that throws makes the call return
    /// PN_STATUS_CALLBACK_FAILED (the copies already made are released).
    static pn_game parallel_table(G &game) noexcept {
        pn_game t = table(game);
        t.clone = &clone;
        t.free = &release;
        return t;
    }

private:
    static G &self(void *ctx) noexcept { return *static_cast<G *>(ctx); }

    static int side_to_move(void *ctx, uint32_t *out) noexcept {
        try {
            *out = static_cast<uint32_t>(self(ctx).side_to_move());
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int hash(void *ctx, uint64_t *out) noexcept {
        try {
            *out = self(ctx).hash();
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int outcome(void *ctx, uint32_t *out) noexcept {
        try {
            *out = static_cast<uint32_t>(self(ctx).outcome());
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int generate_moves(void *ctx, uint32_t *moves, std::size_t cap,
                              std::size_t *out_n) noexcept {
        try {
            *out_n = self(ctx).generate_moves(moves, cap);
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int play(void *ctx, uint32_t move) noexcept {
        try {
            self(ctx).play(move);
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int undo(void *ctx, uint32_t move) noexcept {
        try {
            self(ctx).undo(move);
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static int clone(void *ctx, void **out_ctx) noexcept {
        try {
            *out_ctx = new G(self(ctx));
            return 0;
        } catch (...) {
            return -1;
        }
    }
    static void release(void *ctx) noexcept { delete static_cast<G *>(ctx); }
};

/// A solver: in memory the wrapper allocates, or in memory the caller lends. Move-only.
class Solver {
public:
    /// The bytes and alignment a configuration needs.
    static std::pair<std::size_t, std::size_t> memory_requirements(
        const pn_config &config = default_config()) {
        std::size_t bytes = 0, align = 0;
        check(pn_solver_memory_requirements(&config, &bytes, &align), config);
        return std::make_pair(bytes, align);
    }

    /// A solver in memory owned by this object (freed by its destructor).
    explicit Solver(const pn_config &config = default_config()) : solver_(nullptr) {
        const std::pair<std::size_t, std::size_t> need = memory_requirements(config);
        std::size_t space = need.first + need.second - 1;
        owned_.reset(new unsigned char[space]);
        void *start = owned_.get();
        start = std::align(need.second, need.first, start, space);
        check(pn_solver_init(start, need.first, &config, &solver_), config);
    }

    /// A solver inside caller memory (a static array, the stack, an arena), which must
    /// outlive it and stay in place. Throws Error for memory that is too small or misaligned.
    Solver(void *memory, std::size_t bytes, const pn_config &config = default_config())
        : solver_(nullptr) {
        check(pn_solver_init(memory, bytes, &config, &solver_), config);
    }

    Solver(Solver &&other) noexcept : owned_(std::move(other.owned_)), solver_(other.solver_) {
        other.solver_ = nullptr;
    }
    Solver &operator=(Solver &&other) noexcept {
        owned_ = std::move(other.owned_);
        solver_ = other.solver_;
        other.solver_ = nullptr;
        return *this;
    }
    Solver(const Solver &) = delete;
    Solver &operator=(const Solver &) = delete;
    ~Solver() = default; /* the library owns nothing: only our own memory to free */

    /// The C handle (NULL after a move).
    pn_solver *get() const noexcept { return solver_; }

    /// Can `attacker` force a win? See pn_solve.
    template <class G>
    Result solve(G &game, pn_side attacker, const pn_limits *limits = nullptr) {
        pn_game t = Game<G>::table(game);
        return solve_table(t, attacker, limits);
    }

    /// The value for the side to move. See pn_solve_value.
    template <class G>
    Result solve_value(G &game, const pn_limits *limits = nullptr) {
        pn_game t = Game<G>::table(game);
        return solve_value_table(t, limits);
    }

    /// pn_solve with a callback table made by hand.
    Result solve_table(const pn_game &game, pn_side attacker, const pn_limits *limits = nullptr) {
        Result r = empty();
        r.status = pn_solve(solver_, &game, attacker, limits, &r.result);
        return said(r);
    }

    /// pn_solve_value with a callback table made by hand.
    Result solve_value_table(const pn_game &game, const pn_limits *limits = nullptr) {
        Result r = empty();
        r.status = pn_solve_value(solver_, &game, limits, &r.result);
        return said(r);
    }

    /// Can `attacker` force a win? With the configuration's `threads` worker threads, each on
    /// its own copy of `game`; see pn_solve_parallel. PN_STATUS_UNSUPPORTED unless pn_features()
    /// has PN_FEATURE_PARALLEL.
    template <class G>
    Result solve_parallel(G &game, pn_side attacker, const pn_limits *limits = nullptr) {
        pn_game t = Game<G>::parallel_table(game);
        return solve_parallel_table(t, attacker, limits);
    }

    /// The value for the side to move, with worker threads. See pn_solve_value_parallel.
    template <class G>
    Result solve_value_parallel(G &game, const pn_limits *limits = nullptr) {
        pn_game t = Game<G>::parallel_table(game);
        return solve_value_parallel_table(t, limits);
    }

    /// pn_solve_parallel with a callback table made by hand.
    Result solve_parallel_table(const pn_game &game, pn_side attacker,
                                const pn_limits *limits = nullptr) {
        Result r = empty();
        r.status = pn_solve_parallel(solver_, &game, attacker, limits, &r.result);
        return said(r);
    }

    /// pn_solve_value_parallel with a callback table made by hand.
    Result solve_value_parallel_table(const pn_game &game, const pn_limits *limits = nullptr) {
        Result r = empty();
        r.status = pn_solve_value_parallel(solver_, &game, limits, &r.result);
        return said(r);
    }

    /// The principal variation of `attacker`'s search (see pn_principal_variation), at most
    /// `max_length` moves; `*status` (if given) says whether the line is complete
    /// (PN_STATUS_OK) or why it was cut. Throws Error when no walk could run.
    template <class G>
    std::vector<uint32_t> principal_variation(G &game, pn_side attacker,
                                              std::size_t max_length = 256,
                                              pn_status *status = nullptr,
                                              const pn_limits *limits = nullptr) {
        pn_game t = Game<G>::table(game);
        std::vector<uint32_t> line(max_length);
        std::size_t length = 0;
        pn_status s = pn_principal_variation(solver_, &t, attacker, limits, line.data(),
                                             line.size(), &length);
        if (status != nullptr) *status = s;
        if (s != PN_STATUS_OK && length == 0 && s != PN_STATUS_BUFFER_TOO_SMALL) {
            bool walked = s == PN_STATUS_NODE_LIMIT || s == PN_STATUS_TIME_LIMIT ||
                          s == PN_STATUS_STOPPED || s == PN_STATUS_DEPTH_LIMIT ||
                          s == PN_STATUS_TOO_MANY_MOVES || s == PN_STATUS_REFUTED ||
                          s == PN_STATUS_CALLBACK_FAILED || s == PN_STATUS_CALLBACK_INVALID;
            if (!walked) throw Error(s, proofnum::last_error(solver_));
        }
        line.resize(length);
        return line;
    }

    /// Checks a claim (PN_OUTCOME_PROVEN or PN_OUTCOME_DISPROVEN) by walking its whole proof
    /// tree; see pn_verify. PN_STATUS_OK when it holds, PN_STATUS_REFUTED when it does not.
    template <class G>
    Result verify(G &game, pn_side attacker, pn_outcome claim,
                  const pn_limits *limits = nullptr) {
        pn_game t = Game<G>::table(game);
        Result r = empty();
        r.status = pn_verify(solver_, &t, attacker, claim, limits, &r.result);
        return said(r);
    }

    /// Writes the certificate of a claim (PN_OUTCOME_PROVEN: `attacker` wins; DISPROVEN: it
    /// does not) to `out` (appended), its header naming the game `game_name`; see pn_certify.
    /// PN_STATUS_OK when `out` holds a whole certificate; otherwise what was appended is none.
    template <class G>
    Result certify(G &game, pn_side attacker, pn_outcome claim, const std::string &game_name,
                   std::vector<unsigned char> &out, const pn_limits *limits = nullptr) {
        return certify_with(game, attacker, claim, game_name, out, &append, limits);
    }

    /// As certify, through a sink of your own: a callable taking (const uint8_t *bytes,
    /// std::size_t length) and returning true when it took them (false, or an exception,
    /// ends the walk with PN_STATUS_OUTPUT_FAILED).
    template <class G, class Sink>
    Result certify_to(G &game, pn_side attacker, pn_outcome claim, const std::string &game_name,
                      Sink &sink, const pn_limits *limits = nullptr) {
        return certify_with(game, attacker, claim, game_name, sink, &call_sink<Sink>, limits);
    }

    /// Stops the running search (with none running it does nothing: repeat it until a search
    /// another thread is starting has returned); the one call that is safe from another thread.
    void stop() noexcept { (void)pn_solver_stop(solver_); }

    void clear_table() { check(pn_table_clear(solver_), solver_); }
    void new_generation() { check(pn_table_new_generation(solver_), solver_); }

    /// What the last call on this solver found wrong (pn_solver_last_error); empty after a
    /// success.
    std::string last_error() const { return proofnum::last_error(solver_); }

    pn_table_info table_info() const {
        pn_table_info info = pn_table_info();
        info.struct_size = sizeof info;
        check(pn_table_get_info(solver_, &info), solver_);
        return info;
    }

    std::vector<unsigned char> save_table() const {
        std::vector<unsigned char> bytes(table_info().saved_bytes);
        std::size_t written = 0;
        check(pn_table_save(solver_, bytes.data(), bytes.size(), &written), solver_);
        bytes.resize(written);
        return bytes;
    }

    void load_table(const std::vector<unsigned char> &bytes) {
        check(pn_table_load(solver_, bytes.data(), bytes.size()), solver_);
    }

private:
    template <class G, class Ctx>
    Result certify_with(G &game, pn_side attacker, pn_outcome claim,
                        const std::string &game_name, Ctx &ctx, pn_sink_fn sink,
                        const pn_limits *limits) {
        pn_game t = Game<G>::table(game);
        Result r = empty();
        r.status = pn_certify(solver_, &t, attacker, claim, game_name.data(), game_name.size(),
                              sink, &ctx, limits, &r.result);
        return said(r);
    }

    static int append(void *ctx, const uint8_t *bytes, std::size_t length) noexcept {
        try {
            std::vector<unsigned char> &out = *static_cast<std::vector<unsigned char> *>(ctx);
            out.insert(out.end(), bytes, bytes + length);
            return 0;
        } catch (...) {
            return -1;
        }
    }

    template <class Sink>
    static int call_sink(void *ctx, const uint8_t *bytes, std::size_t length) noexcept {
        try {
            return (*static_cast<Sink *>(ctx))(bytes, length) ? 0 : 1;
        } catch (...) {
            return -1;
        }
    }

    /// The result with the solver's message when the call failed.
    Result said(Result r) const {
        if (r.status != PN_STATUS_OK) r.message = proofnum::last_error(solver_);
        return r;
    }

    static Result empty() {
        Result r;
        r.status = PN_STATUS_OK;
        r.result = pn_result();
        r.result.struct_size = sizeof r.result;
        return r;
    }

    std::unique_ptr<unsigned char[]> owned_;
    pn_solver *solver_;
};

/// What check_certificate found: the status (PN_STATUS_OK for a valid certificate,
/// PN_STATUS_CERTIFICATE_INVALID for a rejected one, PN_STATUS_NODE_LIMIT when the limits ran
/// out; others when nothing could be checked), the report, the faulty line (move indices from
/// the root) and the checker's message.
struct Check {
    pn_status status;
    pn_check_report report;
    std::vector<uint64_t> line;
    std::string message;

    bool valid() const noexcept { return status == PN_STATUS_OK; }
};

/// Checks a certificate from Solver::certify against `game`'s rules and position, with the
/// library's independent checker (no solver involved); see pn_certificate_check. Needs a
/// build with PN_FEATURE_STD (otherwise the status is PN_STATUS_UNSUPPORTED).
template <class G>
Check check_certificate(G &game, const std::string &game_name,
                        const std::vector<unsigned char> &certificate,
                        const pn_check_limits *limits = nullptr) {
    pn_game t = Game<G>::table(game);
    Check c;
    std::size_t line_room = 64, message_room = 256;
    for (;;) {
        c.line.assign(line_room, 0);
        std::vector<char> message(message_room);
        c.report = pn_check_report();
        c.report.struct_size = sizeof c.report;
        c.status = pn_certificate_check(&t, game_name.data(), game_name.size(),
                                        certificate.data(), certificate.size(), limits,
                                        c.line.data(), c.line.size(), message.data(),
                                        message.size(), &c.report);
        const bool written = c.status == PN_STATUS_OK ||
                             c.status == PN_STATUS_CERTIFICATE_INVALID ||
                             c.status == PN_STATUS_NODE_LIMIT;
        if (!written) {
            c.line.clear();
            c.message = pn_status_str(c.status);
            return c;
        }
        if (c.report.line_length <= line_room && c.report.message_length < message_room) {
            c.line.resize(static_cast<std::size_t>(c.report.line_length));
            c.message.assign(message.data());
            return c;
        }
        // Cut short: check again with room for all of it (the check is deterministic).
        line_room = static_cast<std::size_t>(c.report.line_length);
        message_room = static_cast<std::size_t>(c.report.message_length) + 1;
    }
}

}  // namespace proofnum

#endif /* PROOFNUM_HPP */
