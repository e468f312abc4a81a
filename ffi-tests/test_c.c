/*
 * The C ABI as a C99 program uses it: solves checked against independent oracles, memory
 * from a static array, the stack and malloc, every status code triggered on purpose, and
 * "nothing written on failure" checked byte for byte, and (in builds with
 * PN_FEATURE_PARALLEL) the parallel calls against the same oracles, with every copy of the
 * game counted. Built with -Wall -Wextra -Wpedantic -Werror under AddressSanitizer and
 * UndefinedBehaviorSanitizer by run.sh (LeakSanitizer checks that no copy is lost).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "games.h"

/* Fill byte for outputs that must stay untouched. */
#define POISON 0xA5

static int all_bytes_are(const void *p, size_t n, unsigned char byte) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        if (b[i] != byte) return 0;
    }
    return 1;
}

static pn_result fresh_result(void) {
    pn_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

/* A result filled with POISON except struct_size, to see that a failed call leaves it. */
static pn_result poisoned_result(void) {
    pn_result r;
    memset(&r, POISON, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

static int result_is_poisoned(const pn_result *r) {
    return all_bytes_are((const unsigned char *)r + sizeof(size_t), sizeof *r - sizeof(size_t),
                         POISON);
}

static pn_config small_config(size_t table_bytes, uint32_t max_depth, uint32_t max_moves) {
    pn_config c = default_config();
    c.table_bytes = table_bytes;
    c.max_depth = max_depth;
    c.max_moves = max_moves;
    c.verify_memo_entries = 256;
    return c;
}

/* A solver in malloc'ed memory (freed by the caller with free()). */
static pn_solver *malloc_solver(const pn_config *config, void **memory) {
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    CHECK_STATUS(pn_solver_memory_requirements(config, &bytes, &align), PN_STATUS_OK);
    CHECK(align <= 16); /* malloc's alignment on the platforms we test */
    *memory = malloc(bytes);
    CHECK(*memory != NULL);
    CHECK_STATUS(pn_solver_init(*memory, bytes, config, &solver), PN_STATUS_OK);
    return solver;
}

static void test_version(void) {
    char expected[32];
    CHECK(pn_version() == PN_VERSION_NUMBER);
    CHECK(pn_version() == PN_VERSION_MAJOR * 10000 + PN_VERSION_MINOR * 100 + PN_VERSION_PATCH);
    CHECK(pn_abi_version() == PN_ABI_VERSION);
    snprintf(expected, sizeof expected, "%d.%d.%d", PN_VERSION_MAJOR, PN_VERSION_MINOR,
             PN_VERSION_PATCH);
    CHECK(strcmp(pn_version_string(), expected) == 0);
    CHECK((pn_features() & ~(uint32_t)(PN_FEATURE_STD | PN_FEATURE_PARALLEL | PN_FEATURE_PNS |
                                       PN_FEATURE_MESSAGES)) == 0);
}

static void test_status_strings(void) {
    uint32_t s, t;
    const char *unknown = pn_status_str(PN_STATUS_CERTIFICATE_INVALID + 1); /* the last status */
    CHECK(strcmp(unknown, "unknown status code") == 0);
    CHECK(strcmp(pn_status_str(0xFFFFFFFFu), "unknown status code") == 0);
    for (s = PN_STATUS_OK; s <= PN_STATUS_CERTIFICATE_INVALID; s++) {
        const char *m = pn_status_str(s);
        CHECK(m != NULL && m[0] != '\0' && strcmp(m, unknown) != 0);
        for (t = 0; t < s; t++) CHECK(strcmp(m, pn_status_str(t)) != 0);
    }
}

static void test_requirements(void) {
    pn_config c = default_config();
    size_t bytes = 12345, align = 678;
    CHECK(c.struct_size == sizeof(pn_config));
    CHECK(c.table_bytes == PN_DEFAULT_TABLE_BYTES);
    CHECK(c.max_depth == PN_DEFAULT_MAX_DEPTH && c.max_moves == PN_DEFAULT_MAX_MOVES);
    CHECK(c.epsilon_numerator == 1 && c.epsilon_denominator == 4);

    CHECK_STATUS(pn_solver_memory_requirements(NULL, &bytes, &align), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_memory_requirements(&c, NULL, &align), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, NULL), PN_STATUS_NULL_POINTER);
    c.struct_size = sizeof(pn_config) - 1;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_BAD_STRUCT_SIZE);
    c.struct_size = 0;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_BAD_STRUCT_SIZE);
    c = default_config();
    c.epsilon_denominator = 0;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    c = default_config();
    c.max_moves = 0;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    c = default_config();
    c.max_depth = PN_MAX_DEPTH_LIMIT + 1;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    c = default_config();
    c.table_bytes = PN_TABLE_MIN_BYTES - 1;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    CHECK(bytes == 12345 && align == 678); /* nothing written on failure */

    c = default_config();
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    CHECK(bytes > c.table_bytes);
    CHECK(align > 0 && (align & (align - 1)) == 0);
    {
        size_t bigger = 0;
        c.table_bytes *= 2;
        CHECK_STATUS(pn_solver_memory_requirements(&c, &bigger, &align), PN_STATUS_OK);
        CHECK(bigger == bytes + PN_DEFAULT_TABLE_BYTES);
    }
}

static void test_init_errors(void) {
    pn_config c = small_config(4096, 16, 9);
    size_t bytes = 0, align = 0;
    unsigned char *mem;
    pn_solver *solver = (pn_solver *)&solver; /* a sentinel: must stay as it is */
    pn_solver *const sentinel = solver;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    mem = (unsigned char *)malloc(bytes + align);
    CHECK(mem != NULL);
    memset(mem, POISON, bytes + align);

    CHECK_STATUS(pn_solver_init(NULL, bytes, &c, &solver), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_init(mem, bytes, NULL, &solver), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_init(mem, bytes, &c, NULL), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_init(mem, bytes - 1, &c, &solver), PN_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(pn_solver_init(mem, 0, &c, &solver), PN_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(pn_solver_init(mem + 1, bytes, &c, &solver), PN_STATUS_MISALIGNED);
    c.struct_size = sizeof c + 8;
    CHECK_STATUS(pn_solver_init(mem, bytes, &c, &solver), PN_STATUS_BAD_STRUCT_SIZE);
    c = small_config(4096, 16, 9);
    c.epsilon_denominator = 0;
    CHECK_STATUS(pn_solver_init(mem, bytes, &c, &solver), PN_STATUS_INVALID_ARGUMENT);
    CHECK(solver == sentinel);
    CHECK(all_bytes_are(mem, bytes + align, POISON)); /* the memory was not touched */
    free(mem);
}

/* Every position of tic-tac-toe up to `plies` moves deep, solved and checked by negamax. */
static void check_ttt_positions(pn_solver *solver, ttt_t *g, int plies, int *checked) {
    int oracle = ttt_negamax(g);
    ttt_t before = *g;
    pn_game game = ttt_game(g);
    pn_result r = fresh_result();
    uint32_t i;

    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.status == PN_STATUS_OK);
    CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_WIN : oracle < 0 ? PN_OUTCOME_LOSS
                                                                  : PN_OUTCOME_DRAW));
    CHECK(memcmp(&before, g, sizeof before) == 0); /* the position is restored */
    if (r.has_best_move) {
        /* The best move keeps the value: the child's value for the opponent is its negation. */
        CHECK(ttt_play(g, r.best_move) == 0);
        CHECK(-ttt_negamax(g) == oracle);
        ttt_undo(g, r.best_move);
    } else {
        CHECK(ttt_has_line(g) || ttt_full(g));
    }
    /* Each attacker: the side to move is proven exactly when it wins, the opponent when it
     * loses. */
    r = fresh_result();
    CHECK_STATUS(pn_solve(solver, &game, g->to_move, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
    r = fresh_result();
    CHECK_STATUS(pn_solve(solver, &game, g->to_move ^ 1u, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle < 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
    (*checked)++;

    if (plies == 0 || ttt_has_line(g) || ttt_full(g)) return;
    for (i = 0; i < 9; i++) {
        if (g->cells[i] != 0) continue;
        ttt_play(g, i);
        check_ttt_positions(solver, g, plies - 1, checked);
        ttt_undo(g, i);
    }
}

static void solve_ttt_start(pn_solver *solver, const char *where) {
    ttt_t g;
    pn_game game = ttt_game(&g);
    pn_result r = fresh_result();
    memset(&g, 0, sizeof g);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    /* Tic-tac-toe is a draw (and negamax agrees). */
    CHECK(r.outcome == PN_OUTCOME_DRAW);
    CHECK(ttt_negamax(&g) == 0);
    CHECK(r.has_best_move == 1 && r.best_move < 9);
    CHECK(r.stats.nodes > 0 && r.stats.mid_calls > 0);
    printf("tic-tac-toe from %s memory: draw, %llu nodes\n", where,
           (unsigned long long)r.stats.nodes);
}

static uint64_t static_memory[1 << 15]; /* 256 KiB, aligned for uint64_t */

static void test_static_memory(void) {
    pn_config c = small_config(128 * 1024, 16, 9);
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    CHECK(bytes <= sizeof static_memory && align <= sizeof(uint64_t));
    CHECK_STATUS(pn_solver_init(static_memory, sizeof static_memory, &c, &solver),
                 PN_STATUS_OK);
    CHECK((void *)solver == (void *)static_memory);
    solve_ttt_start(solver, "a static array");
}

static void test_stack_memory(void) {
    uint64_t stack_memory[2048]; /* 16 KiB on the stack */
    pn_config c = small_config(4096, 10, 9);
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    CHECK(bytes <= sizeof stack_memory);
    CHECK_STATUS(pn_solver_init(stack_memory, sizeof stack_memory, &c, &solver), PN_STATUS_OK);
    solve_ttt_start(solver, "the stack");
    {
        pn_config back;
        CHECK_STATUS(pn_solver_config(solver, &back), PN_STATUS_OK);
        CHECK(memcmp(&back, &c, sizeof c) == 0);
    }
}

static void test_malloc_memory_and_ttt_oracle(void) {
    pn_config c = small_config(64 * 1024, 16, 9);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    ttt_t g;
    int checked = 0;
    solve_ttt_start(solver, "malloc'ed");
    memset(&g, 0, sizeof g);
    check_ttt_positions(solver, &g, 3, &checked);
    CHECK(checked == 1 + 9 + 72 + 504);
    printf("tic-tac-toe: %d positions agree with negamax\n", checked);
    free(mem);
}

/* `c` with best-first PNS (PN_ENGINE_PNS) or PN² over an arena of `arena_nodes` nodes; df-pn
 * configurations are returned as they are. */
static pn_config with_engine(pn_config c, uint32_t engine, size_t arena_nodes) {
    c.engine = engine;
    if (engine != PN_ENGINE_DFPN) c.arena_nodes = arena_nodes;
    if (engine == PN_ENGINE_PN2) c.second_level_nodes = 1024;
    return c;
}

static const char *engine_name(uint32_t engine) {
    return engine == PN_ENGINE_PNS ? "pns" : engine == PN_ENGINE_PN2 ? "pn2" : "dfpn";
}

/* ---- Value bounds: tic-tac-toe whose outcome callback reports a true bound (from negamax)
 * for every unfinished position: CANNOT_WIN when the side to move draws or loses, CANNOT_LOSE
 * when it draws or wins (draws alternate between the two by the first empty cell). ---- */

typedef struct {
    ttt_t g;
    uint32_t reported; /* bounds reported */
} bounded_ttt_t;

static int bounded_outcome(void *ctx, uint32_t *out_outcome) {
    bounded_ttt_t *b = (bounded_ttt_t *)ctx;
    int v, first_empty = 0;
    CHECK(ttt_outcome(&b->g, out_outcome) == 0);
    if (*out_outcome != PN_OUTCOME_UNKNOWN) return 0;
    v = ttt_negamax(&b->g);
    while (b->g.cells[first_empty] != 0) first_empty++;
    if (v > 0 || (v == 0 && first_empty % 2 == 0)) {
        *out_outcome = PN_OUTCOME_CANNOT_LOSE;
    } else {
        *out_outcome = PN_OUTCOME_CANNOT_WIN;
    }
    b->reported++;
    return 0;
}

/* Every position up to `plies` deep: both attackers and the value, by every engine, against
 * negamax; results never carry a bound. */
static void check_bounded_positions(pn_solver *solver, bounded_ttt_t *b, int plies,
                                    uint64_t *mid_calls) {
    int oracle = ttt_negamax(&b->g);
    pn_game game = ttt_game(&b->g); /* b->g is bounded_ttt_t's first member: ctx is b too */
    pn_result r = fresh_result();
    uint32_t i;
    game.outcome = bounded_outcome;

    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_WIN : oracle < 0 ? PN_OUTCOME_LOSS
                                                                  : PN_OUTCOME_DRAW));
    *mid_calls += r.stats.mid_calls;
    r = fresh_result();
    CHECK_STATUS(pn_solve(solver, &game, b->g.to_move, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
    r = fresh_result();
    CHECK_STATUS(pn_solve(solver, &game, b->g.to_move ^ 1u, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle < 0 ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
    /* A disproof that rests on a bound verifies, and the opposite claim is refuted. */
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &game, b->g.to_move, oracle > 0 ? PN_OUTCOME_PROVEN
                                                                    : PN_OUTCOME_DISPROVEN,
                           NULL, &r),
                 PN_STATUS_OK);
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &game, b->g.to_move, oracle > 0 ? PN_OUTCOME_DISPROVEN
                                                                    : PN_OUTCOME_PROVEN,
                           NULL, &r),
                 PN_STATUS_REFUTED);

    if (plies == 0 || ttt_has_line(&b->g) || ttt_full(&b->g)) return;
    for (i = 0; i < 9; i++) {
        if (b->g.cells[i] != 0) continue;
        ttt_play(&b->g, i);
        check_bounded_positions(solver, b, plies - 1, mid_calls);
        ttt_undo(&b->g, i);
    }
}

static void test_value_bounds(void) {
    static const uint32_t engines[3] = {PN_ENGINE_DFPN, PN_ENGINE_PNS, PN_ENGINE_PN2};
    uint32_t e;
    for (e = 0; e < 3; e++) {
        pn_config c = with_engine(small_config(64 * 1024, 16, 9), engines[e], 1 << 14);
        void *mem = NULL;
        pn_solver *solver = malloc_solver(&c, &mem);
        bounded_ttt_t b;
        ttt_t plain;
        pn_game plain_game = ttt_game(&plain);
        pn_result r = fresh_result();
        uint64_t with_bounds = 0;
        memset(&b, 0, sizeof b);
        memset(&plain, 0, sizeof plain);
        check_bounded_positions(solver, &b, 2, &with_bounds);
        CHECK(b.reported > 0);
        /* The bounds save work: the start position's value without them costs more. */
        memset(&b, 0, sizeof b);
        with_bounds = 0;
        check_bounded_positions(solver, &b, 0, &with_bounds);
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        with_bounds = 0;
        check_bounded_positions(solver, &b, 0, &with_bounds);
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        CHECK_STATUS(pn_solve_value(solver, &plain_game, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == PN_OUTCOME_DRAW);
        CHECK(with_bounds < r.stats.mid_calls);
        printf("bounds (%s): tic-tac-toe to 2 plies agrees with negamax; start position %llu "
               "MID calls with bounds, %llu without\n",
               engine_name(engines[e]), (unsigned long long)with_bounds,
               (unsigned long long)r.stats.mid_calls);
        free(mem);
    }
}

static void test_nim_against_bouton(uint32_t engine) {
    pn_config c = with_engine(small_config(256 * 1024, 64, 32), engine, 1 << 16);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    nim_t g;
    pn_game game = nim_game(&g);
    uint32_t a, b, d, agreed = 0;
    memset(&g, 0, sizeof g);
    g.n_piles = 3;
    for (a = 0; a <= 5; a++) {
        for (b = 0; b <= 5; b++) {
            for (d = 0; d <= 5; d++) {
                pn_result r = fresh_result();
                int wins;
                g.piles[0] = a, g.piles[1] = b, g.piles[2] = d, g.to_move = (a + b + d) & 1;
                wins = nim_sum(&g) != 0;
                CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
                CHECK(r.outcome == (wins ? PN_OUTCOME_WIN : PN_OUTCOME_LOSS));
                if (wins) {
                    /* The winning move leaves a nim-sum of zero. */
                    CHECK(r.has_best_move && nim_play(&g, r.best_move) == 0);
                    CHECK(nim_sum(&g) == 0);
                    nim_undo(&g, r.best_move);
                }
                agreed += r.outcome == (wins ? PN_OUTCOME_WIN : PN_OUTCOME_LOSS);
            }
        }
    }
    CHECK(agreed == 216);
    printf("nim (%s): %u positions agree with Bouton's theorem\n", engine_name(engine),
           (unsigned)agreed);
    free(mem);
}

static void connect4_oracle(int width, int height, uint32_t engine, int deferred) {
    pn_config c = with_engine(small_config(1 << 20, 48, 8), engine, 1 << 20); /* 20 MiB */
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    size_t memo_bytes = (size_t)1 << (width * (height + 1));
    uint8_t *memo = (uint8_t *)calloc(memo_bytes, 1);
    c4_t g;
    pn_game game = c4_game(&g);
    int col, oracle;
    CHECK(memo != NULL);
    if (deferred) game.deferred_moves = c4_deferred;
    c4_init(&g, width, height);
    oracle = c4_negamax(&g, memo);
    {
        pn_result r = fresh_result();
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_WIN : oracle < 0 ? PN_OUTCOME_LOSS
                                                                      : PN_OUTCOME_DRAW));
        CHECK(g.moves == 0 && g.mask == 0);
        if (engine != PN_ENGINE_DFPN) {
            /* pn_verify walks the proof PNS left in the table with df-pn. */
            pn_result v = fresh_result();
            uint32_t winner = oracle < 0 ? 1u : 0u;
            CHECK_STATUS(pn_verify(solver, &game, winner,
                                   oracle == 0 ? PN_OUTCOME_DISPROVEN : PN_OUTCOME_PROVEN, NULL,
                                   &v),
                         PN_STATUS_OK);
        }
        printf("connect four %dx%d (%s%s): %s (negamax: %d), %llu nodes\n", width, height,
               engine_name(engine), deferred ? ", deferred moves" : "",
               r.outcome == PN_OUTCOME_WIN    ? "win"
               : r.outcome == PN_OUTCOME_LOSS ? "loss"
               : r.outcome == PN_OUTCOME_DRAW ? "draw"
                                              : pn_status_str(r.status),
               oracle, (unsigned long long)r.stats.nodes);
    }
    /* Every opening move, and every reply to it. */
    for (col = 0; col < width * width; col++) {
        pn_result r = fresh_result();
        int v;
        c4_play(&g, (uint32_t)(col / width));
        c4_play(&g, (uint32_t)(col % width));
        v = c4_negamax(&g, memo);
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == (v > 0 ? PN_OUTCOME_WIN : v < 0 ? PN_OUTCOME_LOSS : PN_OUTCOME_DRAW));
        c4_undo(&g, (uint32_t)(col % width));
        c4_undo(&g, (uint32_t)(col / width));
    }
    free(memo);
    free(mem);
}

static void test_connect4_against_negamax(int width, int height, uint32_t engine) {
    connect4_oracle(width, height, engine, 0);
}

/* Deferred moves (pn_game.deferred_moves) change no value: df-pn, and PNS, which ignores them. */
static void test_connect4_with_deferred_moves(int width, int height, uint32_t engine) {
    connect4_oracle(width, height, engine, 1);
}

/* ---- Best-first PNS and PN² ---- */

static void test_pns_engines(void) {
    uint32_t engine;
    for (engine = PN_ENGINE_PNS; engine <= PN_ENGINE_PN2; engine++) {
        pn_config c = with_engine(small_config(64 * 1024, 16, 9), engine, 1 << 14);
        pn_config dfpn = small_config(64 * 1024, 16, 9);
        size_t bytes = 0, dfpn_bytes = 0, align = 0;
        void *mem = NULL;
        pn_solver *solver;
        ttt_t g;
        int checked = 0;
        /* The arena comes on top of df-pn's memory: 20 bytes a node (16 and a move). */
        CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
        CHECK_STATUS(pn_solver_memory_requirements(&dfpn, &dfpn_bytes, &align), PN_STATUS_OK);
        CHECK(bytes > dfpn_bytes + ((size_t)1 << 14) * 20);
        solver = malloc_solver(&c, &mem);
        solve_ttt_start(solver, engine == PN_ENGINE_PNS ? "malloc'ed (PNS)" : "malloc'ed (PN2)");
        memset(&g, 0, sizeof g);
        check_ttt_positions(solver, &g, 2, &checked);
        CHECK(checked == 1 + 9 + 72);
        printf("tic-tac-toe (%s): %d positions agree with negamax\n", engine_name(engine),
               checked);
        {
            /* The line of the first player's disproof, by df-pn over the table PNS filled:
             * every move legal, the first player never has a win anywhere on it (negamax,
             * from the side to move's view), and it ends in a finished game the first player
             * has not won. */
            uint32_t line[9];
            size_t n = 0, i;
            pn_game game = ttt_game(&g);
            memset(&g, 0, sizeof g);
            CHECK_STATUS(pn_principal_variation(solver, &game, PN_SIDE_FIRST, NULL, line, 9, &n),
                         PN_STATUS_OK);
            CHECK(n >= 1 && n <= 9);
            for (i = 0; i < n; i++) {
                int v = ttt_negamax(&g);
                CHECK((g.to_move == 0 ? v : -v) <= 0);
                CHECK(line[i] < 9 && g.cells[line[i]] == 0 && ttt_play(&g, line[i]) == 0);
            }
            /* Finished: drawn, or won by the second player, who made the last move. */
            CHECK(ttt_has_line(&g) ? n % 2 == 0 : ttt_full(&g));
        }
        free(mem);
    }
}

/* A PNS arena too small for the search ends it with PN_STATUS_MEMORY_LIMIT: the result says
 * so, with no answer, and the position is restored. */
static void test_pns_memory_limit(void) {
    uint32_t engine;
    for (engine = PN_ENGINE_PNS; engine <= PN_ENGINE_PN2; engine++) {
        pn_config c = with_engine(small_config(64 * 1024, 16, 9), engine, 4);
        void *mem = NULL;
        pn_solver *solver = malloc_solver(&c, &mem);
        ttt_t g;
        pn_game game = ttt_game(&g);
        pn_result r = poisoned_result();
        memset(&g, 0, sizeof g);
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_MEMORY_LIMIT);
        CHECK(r.status == PN_STATUS_MEMORY_LIMIT && r.outcome == PN_OUTCOME_UNKNOWN);
        CHECK(r.distance == 0 && r.stats.mid_calls > 0);
        CHECK(g.to_move == 0 && !ttt_has_line(&g) && all_bytes_are(g.cells, 9, 0));
        r = poisoned_result();
        CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_MEMORY_LIMIT);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
        free(mem);
    }
}

/* A configuration from before the engine fields (its struct_size ends at threads) gets df-pn,
 * exactly as before, whatever lies past it; an engine the library does not know is refused. */
static void test_config_versions_and_engines(void) {
    const size_t config_v1 = offsetof(pn_config, arena_nodes);
    pn_config dfpn = small_config(64 * 1024, 16, 9);
    pn_config old = with_engine(dfpn, PN_ENGINE_PN2, 1);
    size_t bytes = 0, old_bytes = 0, align = 0;
    void *mem = NULL, *old_mem = NULL;
    pn_solver *solver, *old_solver;
    ttt_t g;
    pn_game game = ttt_game(&g);
    pn_result want = fresh_result(), got = fresh_result();
    old.struct_size = config_v1;
    old.engine = 77; /* past the caller's struct: never read */
    CHECK_STATUS(pn_solver_memory_requirements(&dfpn, &bytes, &align), PN_STATUS_OK);
    CHECK_STATUS(pn_solver_memory_requirements(&old, &old_bytes, &align), PN_STATUS_OK);
    CHECK(old_bytes == bytes);
    solver = malloc_solver(&dfpn, &mem);
    old_solver = malloc_solver(&old, &old_mem);
    memset(&g, 0, sizeof g);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &want), PN_STATUS_OK);
    CHECK_STATUS(pn_solve_value(old_solver, &game, NULL, &got), PN_STATUS_OK);
    CHECK(got.outcome == PN_OUTCOME_DRAW);
    CHECK(got.stats.mid_calls == want.stats.mid_calls && got.stats.nodes == want.stats.nodes);
    {
        /* The configuration comes back in the caller's version, and only that far. */
        pn_config back;
        memset(&back, POISON, sizeof back);
        CHECK_STATUS(pn_solver_config(old_solver, &back), PN_STATUS_OK);
        CHECK(back.struct_size == config_v1 && back.max_depth == 16 && back.threads == 0);
        CHECK(all_bytes_are((const unsigned char *)&back + config_v1, sizeof back - config_v1,
                            POISON));
    }
    {
        pn_config bad = with_engine(dfpn, PN_ENGINE_PN2 + 1, 1 << 10);
        pn_solver *sentinel = (pn_solver *)&sentinel, *out = sentinel;
        unsigned char *raw = (unsigned char *)malloc(1 << 16);
        CHECK(raw != NULL);
        memset(raw, POISON, 1 << 16);
        CHECK_STATUS(pn_solver_memory_requirements(&bad, &bytes, &align),
                     PN_STATUS_INVALID_ARGUMENT);
        CHECK_STATUS(pn_solver_init(raw, 1 << 16, &bad, &out), PN_STATUS_INVALID_ARGUMENT);
        bad.engine = 0xFFFFFFFFu;
        CHECK_STATUS(pn_solver_init(raw, 1 << 16, &bad, &out), PN_STATUS_INVALID_ARGUMENT);
        /* PNS records a position's move count in 15 bits. */
        bad = with_engine(small_config(4096, 16, PN_PNS_MAX_MOVES + 1), PN_ENGINE_PNS, 16);
        CHECK_STATUS(pn_solver_init(raw, 1 << 16, &bad, &out), PN_STATUS_INVALID_ARGUMENT);
        CHECK(out == sentinel && all_bytes_are(raw, 1 << 16, POISON));
        free(raw);
    }
    free(mem);
    free(old_mem);
}

/* ---- Games that break the contract ---- */

enum fault {
    FAULT_NONE,
    FAULT_SIDE_OUT_OF_RANGE,
    FAULT_OUTCOME_OUT_OF_RANGE,
    FAULT_COUNT_NOT_WRITTEN,
    FAULT_PLAY_RETURNS_ERROR,
    FAULT_HASH_RETURNS_ERROR,
    FAULT_REENTER,
    FAULT_INIT_INSIDE,
    FAULT_STOP_INSIDE
};

typedef struct {
    ttt_t g;
    enum fault fault;
    int calls;
    pn_solver *solver;
    pn_status reentered; /* what a call back into the solver returned */
    pn_status reentered_clear;
    /* FAULT_INIT_INSIDE: the solver's memory, rebuilt from inside a callback. */
    void *memory;
    size_t memory_bytes;
    const pn_config *config;
    int memory_unchanged;
    int undos_of_unplayed_moves; /* undo of a move whose cell is empty: never played */
} faulty_t;

/* Misbehave only after a few calls, so the search is under way. */
#define FAULT_AFTER 20

static int faulty_side(void *ctx, uint32_t *out_side) {
    faulty_t *f = (faulty_t *)ctx;
    if (f->fault == FAULT_SIDE_OUT_OF_RANGE && ++f->calls > FAULT_AFTER) {
        *out_side = 2;
        return 0;
    }
    return ttt_side(&f->g, out_side);
}

static int faulty_hash(void *ctx, uint64_t *out_hash) {
    faulty_t *f = (faulty_t *)ctx;
    if (f->fault == FAULT_HASH_RETURNS_ERROR && ++f->calls > FAULT_AFTER) return -1;
    return ttt_hash(&f->g, out_hash);
}

static int faulty_outcome(void *ctx, uint32_t *out_outcome) {
    faulty_t *f = (faulty_t *)ctx;
    if (f->fault == FAULT_OUTCOME_OUT_OF_RANGE && ++f->calls > FAULT_AFTER) {
        *out_outcome = PN_OUTCOME_CANNOT_LOSE + 1; /* the first value no version knows */
        return 0;
    }
    return ttt_outcome(&f->g, out_outcome);
}

static int faulty_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    faulty_t *f = (faulty_t *)ctx;
    if (f->fault == FAULT_COUNT_NOT_WRITTEN && ++f->calls > 3) return 0;
    return ttt_generate(&f->g, moves, cap, out_n);
}

static int faulty_play(void *ctx, uint32_t mv) {
    faulty_t *f = (faulty_t *)ctx;
    ++f->calls;
    if (f->fault == FAULT_PLAY_RETURNS_ERROR && f->calls > FAULT_AFTER) return 3;
    if (f->fault == FAULT_REENTER && f->calls == FAULT_AFTER) {
        pn_game game = ttt_game(&f->g);
        pn_result r = poisoned_result();
        f->reentered = pn_solve(f->solver, &game, 0, NULL, &r);
        f->reentered_clear = pn_table_clear(f->solver);
        CHECK(result_is_poisoned(&r));
    }
    if (f->fault == FAULT_INIT_INSIDE && f->calls == FAULT_AFTER) {
        /* pn_solver_init on the memory of the solver running this very callback. */
        unsigned char *before = (unsigned char *)malloc(f->memory_bytes);
        pn_solver *rebuilt = NULL;
        CHECK(before != NULL);
        memcpy(before, f->memory, f->memory_bytes);
        f->reentered = pn_solver_init(f->memory, f->memory_bytes, f->config, &rebuilt);
        f->memory_unchanged = memcmp(before, f->memory, f->memory_bytes) == 0;
        CHECK(rebuilt == NULL);
        free(before);
    }
    if (f->fault == FAULT_STOP_INSIDE && f->calls == FAULT_AFTER) {
        CHECK_STATUS(pn_solver_stop(f->solver), PN_STATUS_OK);
    }
    return ttt_play(&f->g, mv);
}

static int faulty_undo(void *ctx, uint32_t mv) {
    faulty_t *f = (faulty_t *)ctx;
    if (mv < 9 && f->g.cells[mv] == 0) f->undos_of_unplayed_moves++;
    return ttt_undo(&f->g, mv);
}

static pn_game faulty_game(faulty_t *f) {
    pn_game game = game_table(f);
    game.side_to_move = faulty_side;
    game.hash = faulty_hash;
    game.outcome = faulty_outcome;
    game.generate_moves = faulty_generate;
    game.play = faulty_play;
    game.undo = faulty_undo;
    return game;
}

/* Runs one faulty search and checks status, and that nothing claims an answer. */
static void check_fault(pn_solver *solver, enum fault fault, pn_status want) {
    faulty_t f;
    pn_game game = faulty_game(&f);
    pn_result r = fresh_result();
    memset(&f, 0, sizeof f);
    f.fault = fault;
    f.solver = solver;
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), want);
    CHECK(r.status == (uint32_t)want);
    CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
    if (want == PN_STATUS_CALLBACK_FAILED || want == PN_STATUS_CALLBACK_INVALID) {
        CHECK(r.has_best_move == 0);
    }
    if (fault == FAULT_PLAY_RETURNS_ERROR) {
        /* A play that fails has not played its move: the library never undoes it, and takes
         * back the moves that were played, so the board is empty again. */
        ttt_t start;
        memset(&start, 0, sizeof start);
        CHECK(f.undos_of_unplayed_moves == 0);
        CHECK(memcmp(&f.g, &start, sizeof start) == 0);
    }
    if (fault == FAULT_REENTER) {
        CHECK_STATUS(f.reentered, PN_STATUS_BUSY);
        CHECK_STATUS(f.reentered_clear, PN_STATUS_BUSY);
    }
}

static void test_callback_faults(void) {
    pn_config c = small_config(64 * 1024, 16, 9);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    faulty_t f;
    pn_game game;
    pn_result r;

    check_fault(solver, FAULT_SIDE_OUT_OF_RANGE, PN_STATUS_CALLBACK_INVALID);
    check_fault(solver, FAULT_OUTCOME_OUT_OF_RANGE, PN_STATUS_CALLBACK_INVALID);
    check_fault(solver, FAULT_COUNT_NOT_WRITTEN, PN_STATUS_CALLBACK_INVALID);
    check_fault(solver, FAULT_PLAY_RETURNS_ERROR, PN_STATUS_CALLBACK_FAILED);
    check_fault(solver, FAULT_HASH_RETURNS_ERROR, PN_STATUS_CALLBACK_FAILED);
    check_fault(solver, FAULT_STOP_INSIDE, PN_STATUS_STOPPED);

    /* A call back into the solver from a callback is refused; the outer search goes on. */
    memset(&f, 0, sizeof f);
    f.fault = FAULT_REENTER;
    f.solver = solver;
    game = faulty_game(&f);
    r = fresh_result();
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DRAW);
    CHECK_STATUS(f.reentered, PN_STATUS_BUSY);
    CHECK_STATUS(f.reentered_clear, PN_STATUS_BUSY);

    /* A stop request is consumed by the search it stopped: the next one runs to the end. */
    r = fresh_result();
    memset(&f, 0, sizeof f);
    game = ttt_game(&f.g);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DRAW);

    /* A stop requested while no search runs is dropped: a late stop never reaches a later
     * search (it used to stop the next search at once). */
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    CHECK_STATUS(pn_solver_stop(solver), PN_STATUS_OK);
    r = fresh_result();
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DRAW);
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    CHECK_STATUS(pn_solver_stop(solver), PN_STATUS_OK);
    r = fresh_result();
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DISPROVEN);

    /* pn_solver_init on the memory of the solver whose callback is running: BUSY, not a byte
     * touched, and the outer search goes on to its answer. Once it has returned, the memory
     * may be rebuilt. */
    {
        size_t align = 0;
        pn_solver *again = NULL;
        memset(&f, 0, sizeof f);
        f.fault = FAULT_INIT_INSIDE;
        f.solver = solver;
        f.memory = mem;
        f.config = &c;
        f.reentered = PN_STATUS_OK;
        CHECK_STATUS(pn_solver_memory_requirements(&c, &f.memory_bytes, &align), PN_STATUS_OK);
        game = faulty_game(&f);
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        r = fresh_result();
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == PN_OUTCOME_DRAW);
        CHECK(f.calls >= FAULT_AFTER);
        CHECK_STATUS(f.reentered, PN_STATUS_BUSY);
        CHECK(f.memory_unchanged);
        CHECK_STATUS(pn_solver_init(mem, f.memory_bytes, &c, &again), PN_STATUS_OK);
        CHECK(again == solver);
    }

    /* A required callback missing; nothing is written. */
    game.undo = NULL;
    r = poisoned_result();
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_MISSING_CALLBACK);
    CHECK(result_is_poisoned(&r));
    free(mem);
}

/* ---- Argument errors, limits and handles ---- */

static uint64_t fake_clock(void *ctx) {
    uint64_t *now = (uint64_t *)ctx;
    *now += 1000000; /* a second per reading */
    return *now;
}

typedef struct {
    pn_solver *solver;
    int reports;
    uint64_t last_nodes;
    int monotonic;
} progress_log;

/* Counts reports, checks they grow, and stops the search at the third. */
static void on_progress(void *ctx, const pn_progress *p) {
    progress_log *log = (progress_log *)ctx;
    if (p->struct_size != sizeof *p || p->nodes < log->last_nodes || p->root_phi == 0) {
        log->monotonic = 0;
    }
    log->last_nodes = p->nodes;
    if (++log->reports == 3) pn_solver_stop(log->solver);
}

static void test_arguments_and_limits(void) {
    pn_config c = small_config(1 << 20, 48, 8);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    c4_t big;
    ttt_t t;
    pn_game game, tgame;
    pn_limits limits = pn_limits_default();
    pn_result r;
    uint64_t now = 0;

    c4_init(&big, 7, 6); /* standard Connect Four: far too big to solve here */
    game = c4_game(&big);
    memset(&t, 0, sizeof t);
    tgame = ttt_game(&t);

    CHECK(limits.struct_size == sizeof limits && limits.max_nodes == PN_UNLIMITED);
    CHECK(limits.max_time_us == PN_UNLIMITED && limits.clock == NULL);

    /* NULL pointers: nothing is written. */
    r = poisoned_result();
    CHECK_STATUS(pn_solve(NULL, &game, 0, NULL, &r), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solve(solver, NULL, 0, NULL, &r), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solve(solver, &game, 0, NULL, NULL), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solve_value(NULL, &game, NULL, &r), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_stop(NULL), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_solver_config(solver, NULL), PN_STATUS_NULL_POINTER);
    CHECK(result_is_poisoned(&r));

    /* Out-of-range values and struct sizes. */
    CHECK_STATUS(pn_solve(solver, &game, 2, NULL, &r), PN_STATUS_INVALID_ARGUMENT);
    limits.max_time_us = 1000; /* a time limit without a clock */
    CHECK_STATUS(pn_solve(solver, &game, 0, &limits, &r), PN_STATUS_INVALID_ARGUMENT);
    limits = pn_limits_default();
    limits.struct_size = 0;
    CHECK_STATUS(pn_solve(solver, &game, 0, &limits, &r), PN_STATUS_BAD_STRUCT_SIZE);
    limits = pn_limits_default();
    game.struct_size = sizeof game - 1;
    CHECK_STATUS(pn_solve(solver, &game, 0, NULL, &r), PN_STATUS_BAD_STRUCT_SIZE);
    game.struct_size = sizeof game;
    r.struct_size = sizeof r + 1;
    CHECK_STATUS(pn_solve(solver, &game, 0, NULL, &r), PN_STATUS_BAD_STRUCT_SIZE);
    r.struct_size = sizeof r;
    CHECK(result_is_poisoned(&r));

    /* Node limit: the result is written, with the status and no answer. */
    limits.max_nodes = 100;
    r = fresh_result();
    CHECK_STATUS(pn_solve(solver, &game, 0, &limits, &r), PN_STATUS_NODE_LIMIT);
    CHECK(r.status == PN_STATUS_NODE_LIMIT && r.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(r.stats.nodes >= 100 && r.stats.nodes < 100 + 7 * 48);
    CHECK(big.moves == 0 && big.mask == 0);

    /* Time limit, on a clock that advances a second per reading. */
    limits = pn_limits_default();
    limits.max_time_us = 1;
    limits.clock = fake_clock;
    limits.clock_ctx = &now;
    r = fresh_result();
    CHECK_STATUS(pn_solve_value(solver, &game, &limits, &r), PN_STATUS_TIME_LIMIT);
    CHECK(r.outcome == PN_OUTCOME_UNKNOWN && r.stats.elapsed_us >= 1000000);
    CHECK(now > 0);

    /* Progress reports, every 1024 steps; this callback stops the search at the third. */
    {
        progress_log log = {NULL, 0, 0, 1};
        log.solver = solver;
        limits = pn_limits_default();
        limits.progress = on_progress;
        limits.progress_ctx = &log;
        r = fresh_result();
        CHECK_STATUS(pn_solve(solver, &game, 0, &limits, &r), PN_STATUS_STOPPED);
        CHECK(log.reports == 3 && log.monotonic);
        CHECK(r.stats.mid_calls >= 3 * 1024 && r.stats.mid_calls < 4 * 1024);
    }

    /* Depth and move limits, in solvers too small for tic-tac-toe. */
    {
        pn_config shallow = small_config(4096, 3, 9);
        pn_config narrow = small_config(4096, 16, 4);
        void *m1 = NULL, *m2 = NULL;
        pn_solver *s1 = malloc_solver(&shallow, &m1);
        pn_solver *s2 = malloc_solver(&narrow, &m2);
        r = fresh_result();
        CHECK_STATUS(pn_solve_value(s1, &tgame, NULL, &r), PN_STATUS_DEPTH_LIMIT);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
        r = fresh_result();
        CHECK_STATUS(pn_solve_value(s2, &tgame, NULL, &r), PN_STATUS_TOO_MANY_MOVES);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
        /* Both restored the position. */
        CHECK(all_bytes_are(t.cells, sizeof t.cells, 0) && t.to_move == 0);
        free(m1);
        free(m2);
    }

    /* Handles that are not solvers. */
    {
        static uint64_t zeros[4096];
        uint64_t *copy = (uint64_t *)malloc(1 << 16);
        pn_config back;
        CHECK_STATUS(pn_solver_config(solver, &back), PN_STATUS_OK); /* the real one */
        CHECK_STATUS(pn_solver_config((pn_solver *)zeros, &back), PN_STATUS_INVALID_HANDLE);
        r = poisoned_result();
        CHECK_STATUS(pn_solve((pn_solver *)zeros, &tgame, 0, NULL, &r),
                     PN_STATUS_INVALID_HANDLE);
        CHECK_STATUS(pn_solver_stop((pn_solver *)zeros), PN_STATUS_INVALID_HANDLE);
        CHECK_STATUS(pn_table_clear((pn_solver *)zeros), PN_STATUS_INVALID_HANDLE);
        CHECK_STATUS(pn_solve((pn_solver *)((char *)zeros + 1), &tgame, 0, NULL, &r),
                     PN_STATUS_MISALIGNED);
        /* A byte copy of a solver at another address is not a solver. */
        CHECK(copy != NULL);
        memcpy(copy, mem, 1 << 16);
        CHECK_STATUS(pn_solve((pn_solver *)copy, &tgame, 0, NULL, &r),
                     PN_STATUS_INVALID_HANDLE);
        CHECK(result_is_poisoned(&r));
        free(copy);
    }

    /* The parallel calls exist in every build. */
    r = poisoned_result();
    if ((pn_features() & PN_FEATURE_PARALLEL) == 0) {
        CHECK_STATUS(pn_solve_parallel(solver, &tgame, 0, NULL, &r), PN_STATUS_UNSUPPORTED);
        CHECK_STATUS(pn_solve_value_parallel(solver, &tgame, NULL, &r), PN_STATUS_UNSUPPORTED);
        CHECK(result_is_poisoned(&r));
    }
    free(mem);
}

/* ---- Stop from another thread ---- */

typedef struct {
    pn_solver *solver;
    c4_t game;
    pn_status status;
    pn_result result;
    int done;
} search_job;

static void *run_search(void *arg) {
    search_job *job = (search_job *)arg;
    pn_game game = c4_game(&job->game);
    job->result = fresh_result();
    job->status = pn_solve_value(job->solver, &game, NULL, &job->result);
    __atomic_store_n(&job->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

/* A stop reaches only the call running when it is made, so a thread that cancels a search
 * another thread starts repeats the request until that search has returned. */
static void stop_until_done(pn_solver *solver, int *done) {
    struct timespec pause = {0, 10 * 1000 * 1000};
    while (!__atomic_load_n(done, __ATOMIC_SEQ_CST)) {
        CHECK_STATUS(pn_solver_stop(solver), PN_STATUS_OK);
        nanosleep(&pause, NULL);
    }
}

static void test_stop_from_another_thread(void) {
    pn_config c = small_config(1 << 20, 48, 8);
    void *mem = NULL;
    search_job job;
    pthread_t thread;
    struct timespec pause = {0, 50 * 1000 * 1000};
    memset(&job, 0, sizeof job);
    job.solver = malloc_solver(&c, &mem);
    c4_init(&job.game, 7, 6); /* never finishes in this test's time */
    CHECK(pthread_create(&thread, NULL, run_search, &job) == 0);
    nanosleep(&pause, NULL);
    stop_until_done(job.solver, &job.done);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(job.status, PN_STATUS_STOPPED);
    CHECK(job.result.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(job.game.moves == 0 && job.game.mask == 0); /* restored */
    printf("stopped from another thread after %llu nodes\n",
           (unsigned long long)job.result.stats.nodes);
    free(mem);
}

/* ---- The table: info, generations, save and load with header validation ---- */

static pn_table_info table_info(pn_solver *solver) {
    pn_table_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK_STATUS(pn_table_get_info(solver, &info), PN_STATUS_OK);
    return info;
}

static void test_table_save_and_load(void) {
    pn_config c = small_config(64 * 1024, 16, 9);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    pn_table_info info, after;
    ttt_t t;
    pn_game game;
    pn_result cold = fresh_result(), warm = fresh_result();
    unsigned char *saved, *bad;
    size_t n = 777;

    memset(&t, 0, sizeof t);
    game = ttt_game(&t);
    info = table_info(solver);
    CHECK(info.fill_per_mille == 0 && info.generation == 0);
    CHECK(info.entries >= 4 && info.saved_bytes <= c.table_bytes);
    info.struct_size = 3;
    CHECK_STATUS(pn_table_get_info(solver, &info), PN_STATUS_BAD_STRUCT_SIZE);

    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &cold), PN_STATUS_OK);
    CHECK_STATUS(pn_table_new_generation(solver), PN_STATUS_OK);
    info = table_info(solver);
    CHECK(info.fill_per_mille > 0 && info.generation == 1);

    /* Save: too small a buffer writes nothing. */
    saved = (unsigned char *)malloc(info.saved_bytes);
    CHECK(saved != NULL);
    memset(saved, POISON, info.saved_bytes);
    CHECK_STATUS(pn_table_save(solver, saved, info.saved_bytes - 1, &n),
                 PN_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 777 && all_bytes_are(saved, info.saved_bytes, POISON));
    CHECK_STATUS(pn_table_save(solver, NULL, info.saved_bytes, &n), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_table_save(solver, saved, info.saved_bytes, NULL), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_table_save(solver, mem, info.saved_bytes, &n), PN_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(pn_table_save(solver, saved, info.saved_bytes, &n), PN_STATUS_OK);
    CHECK(n == info.saved_bytes);

    /* Clear, then load it back. */
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    after = table_info(solver);
    CHECK(after.fill_per_mille == 0 && after.generation == 0);
    CHECK_STATUS(pn_table_load(solver, saved, n), PN_STATUS_OK);
    after = table_info(solver);
    CHECK(after.fill_per_mille == info.fill_per_mille && after.generation == 1);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &warm), PN_STATUS_OK);
    CHECK(warm.outcome == PN_OUTCOME_DRAW && cold.outcome == PN_OUTCOME_DRAW);
    CHECK(warm.stats.table_hits > 0 && warm.stats.nodes < cold.stats.nodes);
    printf("table: %llu nodes cold, %llu after loading the saved table\n",
           (unsigned long long)cold.stats.nodes, (unsigned long long)warm.stats.nodes);

    /* Corrupt headers (layout of src/table/mod.rs: magic at 0, version at 8, byte-order mark
     * at 12) are refused and leave the current table as it was. */
    bad = (unsigned char *)malloc(n);
    CHECK(bad != NULL);
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    memcpy(bad, saved, n);
    bad[0] ^= 0xFF;
    CHECK_STATUS(pn_table_load(solver, bad, n), PN_STATUS_TABLE_BAD_MAGIC);
    memcpy(bad, saved, n);
    bad[8] ^= 0x40;
    CHECK_STATUS(pn_table_load(solver, bad, n), PN_STATUS_TABLE_VERSION_MISMATCH);
    memcpy(bad, saved, n);
    bad[12] ^= 0x07;
    CHECK_STATUS(pn_table_load(solver, bad, n), PN_STATUS_TABLE_LAYOUT_MISMATCH);
    CHECK_STATUS(pn_table_load(solver, saved, n - 1), PN_STATUS_TABLE_TRUNCATED);
    CHECK_STATUS(pn_table_load(solver, saved, 10), PN_STATUS_TABLE_TRUNCATED);
    CHECK_STATUS(pn_table_load(solver, NULL, n), PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_table_load(solver, mem, n), PN_STATUS_INVALID_ARGUMENT);
    after = table_info(solver);
    CHECK(after.fill_per_mille == 0 && after.generation == 0);

    /* A larger solver's table does not fit this one. */
    {
        pn_config big = small_config(256 * 1024, 16, 9);
        void *mem2 = NULL;
        pn_solver *large = malloc_solver(&big, &mem2);
        pn_table_info li = table_info(large);
        unsigned char *bytes = (unsigned char *)malloc(li.saved_bytes);
        size_t m = 0;
        CHECK(bytes != NULL);
        CHECK_STATUS(pn_table_save(large, bytes, li.saved_bytes, &m), PN_STATUS_OK);
        CHECK_STATUS(pn_table_load(solver, bytes, m), PN_STATUS_BUFFER_TOO_SMALL);
        /* The other way round fits: the smaller table is used at its own size. */
        CHECK_STATUS(pn_table_load(large, saved, n), PN_STATUS_OK);
        li = table_info(large);
        CHECK(li.saved_bytes == n && li.generation == 1);
        CHECK_STATUS(pn_table_clear(large), PN_STATUS_OK);
        li = table_info(large);
        CHECK(li.saved_bytes > n); /* clearing gives back the configured size */
        free(bytes);
        free(mem2);
    }
    free(bad);
    free(saved);
    free(mem);
}


/* ---- Repetition rules: a two-position cycle A <-> B ---- */

/* A (side 0 to move) and B (side 1 to move), each with one move to the other. Whoever moves
 * into a repetition hands the scoring to the rule: under the draw rule A is a draw; when the
 * game scores a repetition as a loss (win) for its side to move, side 1 wins (loses) by
 * moving back to A, so A is a loss (win) for side 0. */
typedef struct {
    uint32_t at; /* 0: A, 1: B */
    uint32_t repetition;
} cycle_t;

static int cycle_side(void *ctx, uint32_t *out) {
    *out = ((const cycle_t *)ctx)->at;
    return 0;
}
static int cycle_hash(void *ctx, uint64_t *out) {
    *out = 0x1234 + ((const cycle_t *)ctx)->at;
    return 0;
}
static int cycle_outcome(void *ctx, uint32_t *out) {
    (void)ctx;
    *out = PN_OUTCOME_UNKNOWN;
    return 0;
}
static int cycle_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    if (cap > 0) moves[0] = ((const cycle_t *)ctx)->at ^ 1u;
    *out_n = 1;
    return 0;
}
static int cycle_play(void *ctx, uint32_t mv) {
    ((cycle_t *)ctx)->at = mv;
    return 0;
}
static int cycle_undo(void *ctx, uint32_t mv) {
    ((cycle_t *)ctx)->at = mv ^ 1u;
    return 0;
}
static int cycle_repetition(void *ctx, uint32_t *out) {
    *out = ((const cycle_t *)ctx)->repetition;
    return 0;
}

static pn_outcome cycle_value(pn_solver *solver, uint32_t rule, uint32_t repetition,
                              pn_status want, int clear) {
    cycle_t c;
    pn_game game = game_table(&c);
    pn_result r = fresh_result();
    c.at = 0;
    c.repetition = repetition;
    game.side_to_move = cycle_side;
    game.hash = cycle_hash;
    game.outcome = cycle_outcome;
    game.generate_moves = cycle_generate;
    game.play = cycle_play;
    game.undo = cycle_undo;
    game.repetition_value = cycle_repetition;
    game.repetition_rule = rule;
    /* Another repetition value makes another game with the same hashes: forget the last. */
    if (clear) CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), want);
    CHECK(c.at == 0);
    return (pn_outcome)r.outcome;
}

static void test_repetition_rules(void) {
    pn_config c = small_config(64 * 1024, 32, 9);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    ttt_t t;
    pn_game game;
    pn_result r;
    uint32_t rule;

    CHECK(cycle_value(solver, PN_REPETITION_DRAW, 0, PN_STATUS_OK, 1) == PN_OUTCOME_DRAW);
    CHECK(cycle_value(solver, PN_REPETITION_BY_POSITION, PN_OUTCOME_LOSS, PN_STATUS_OK, 1) ==
          PN_OUTCOME_LOSS);
    CHECK(cycle_value(solver, PN_REPETITION_BY_POSITION, PN_OUTCOME_WIN, PN_STATUS_OK, 1) ==
          PN_OUTCOME_WIN);
    CHECK(cycle_value(solver, PN_REPETITION_BY_POSITION, PN_OUTCOME_DRAW, PN_STATUS_OK, 1) ==
          PN_OUTCOME_DRAW);
    /* A repetition scored with garbage is the callback's error. */
    CHECK(cycle_value(solver, PN_REPETITION_BY_POSITION, 9, PN_STATUS_CALLBACK_INVALID, 1) ==
          PN_OUTCOME_UNKNOWN);
    /* A cyclic game declared acyclic runs away: a limit, never an answer. */
    CHECK(cycle_value(solver, PN_REPETITION_ACYCLIC, 0, PN_STATUS_DEPTH_LIMIT, 1) ==
          PN_OUTCOME_UNKNOWN);
    /* What one rule stored is not read under another, without clearing in between. */
    CHECK(cycle_value(solver, PN_REPETITION_DRAW, 0, PN_STATUS_OK, 1) == PN_OUTCOME_DRAW);
    CHECK(cycle_value(solver, PN_REPETITION_BY_POSITION, PN_OUTCOME_WIN, PN_STATUS_OK, 0) ==
          PN_OUTCOME_WIN);
    CHECK(cycle_value(solver, PN_REPETITION_ACYCLIC, 0, PN_STATUS_DEPTH_LIMIT, 0) ==
          PN_OUTCOME_UNKNOWN);
    CHECK(cycle_value(solver, PN_REPETITION_DRAW, 0, PN_STATUS_OK, 0) == PN_OUTCOME_DRAW);

    /* Tic-tac-toe under every rule (switching the solver's searcher each time): a draw. */
    memset(&t, 0, sizeof t);
    game = ttt_game(&t);
    for (rule = PN_REPETITION_DRAW; rule <= PN_REPETITION_BY_POSITION; rule++) {
        game.repetition_rule = rule;
        game.repetition_value = rule == PN_REPETITION_BY_POSITION ? cycle_repetition : NULL;
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        r = fresh_result();
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == PN_OUTCOME_DRAW);
    }
    /* The by-position rule needs its callback; unknown rules are refused. */
    r = poisoned_result();
    game.repetition_rule = PN_REPETITION_BY_POSITION;
    game.repetition_value = NULL;
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_MISSING_CALLBACK);
    game.repetition_rule = 3;
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_INVALID_ARGUMENT);
    CHECK(result_is_poisoned(&r));
    free(mem);
}

/* ---- Principal variation and proof checking ---- */

static void test_principal_variation(void) {
    pn_config c = small_config(256 * 1024, 64, 32);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    nim_t g;
    pn_game game = nim_game(&g);
    uint32_t line[64], a, b, d, i;
    size_t n = 999;
    int lines = 0;

    /* Every winning Nim position with piles up to 4: the winner's moves leave a nim-sum of 0
     * (Bouton), and the line ends with the last stone taken by the winner. */
    memset(&g, 0, sizeof g);
    g.n_piles = 3;
    for (a = 0; a <= 4; a++) {
        for (b = 0; b <= 4; b++) {
            for (d = 1; d <= 4; d++) {
                nim_t before;
                g.piles[0] = a, g.piles[1] = b, g.piles[2] = d, g.to_move = 0;
                if (nim_sum(&g) == 0) continue;
                before = g;
                CHECK_STATUS(pn_principal_variation(solver, &game, 0, NULL, line, 64, &n),
                             PN_STATUS_OK);
                CHECK(memcmp(&before, &g, sizeof g) == 0);
                CHECK(n > 0 && n % 2 == 1); /* the winner makes the first and the last move */
                for (i = 0; i < n; i++) {
                    CHECK(nim_play(&g, line[i]) == 0);
                    if (i % 2 == 0) CHECK(nim_sum(&g) == 0);
                }
                CHECK(g.piles[0] + g.piles[1] + g.piles[2] == 0);
                g = before;
                lines++;
            }
        }
    }
    printf("principal variations: %d nim lines follow Bouton's strategy\n", lines);

    /* A buffer too small for the line: the first moves, and the status says so. */
    g.piles[0] = 4, g.piles[1] = 4, g.piles[2] = 1, g.to_move = 0;
    memset(line, 0, sizeof line);
    CHECK_STATUS(pn_principal_variation(solver, &game, 0, NULL, line, 1, &n),
                 PN_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 1 && nim_play(&g, line[0]) == 0 && nim_sum(&g) == 0);
    nim_undo(&g, line[0]);
    CHECK(line[1] == 0); /* nothing past the capacity */
    CHECK_STATUS(pn_principal_variation(solver, &game, 0, NULL, NULL, 5, &n),
                 PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_principal_variation(solver, &game, 0, NULL, line, 5, NULL),
                 PN_STATUS_NULL_POINTER);
    CHECK_STATUS(pn_principal_variation(solver, &game, 2, NULL, line, 5, &n),
                 PN_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(pn_principal_variation(solver, &game, 0, NULL, (uint32_t *)mem, 5, &n),
                 PN_STATUS_INVALID_ARGUMENT);

    /* Tic-tac-toe, X's disproof: X never has a win on the line (negamax), which ends in a
     * finished game X has not won. */
    {
        ttt_t t;
        pn_game tg;
        uint32_t end = PN_OUTCOME_UNKNOWN;
        memset(&t, 0, sizeof t);
        tg = ttt_game(&t);
        CHECK_STATUS(pn_principal_variation(solver, &tg, 0, NULL, line, 64, &n), PN_STATUS_OK);
        CHECK(n >= 5 && n <= 9);
        for (i = 0; i < n; i++) {
            int v;
            CHECK(ttt_play(&t, line[i]) == 0);
            v = ttt_negamax(&t);
            CHECK(t.to_move == 0 ? v <= 0 : v >= 0);
        }
        ttt_outcome(&t, &end);
        CHECK(end == PN_OUTCOME_DRAW || (end == PN_OUTCOME_LOSS && t.to_move == 0));
    }
    free(mem);
}

static void test_verify(void) {
    pn_config c = small_config(64 * 1024, 32, 32);
    void *mem = NULL;
    pn_solver *solver = malloc_solver(&c, &mem);
    ttt_t t;
    nim_t g;
    pn_game tg, ng;
    pn_result r;

    memset(&t, 0, sizeof t);
    tg = ttt_game(&t);
    /* Tic-tac-toe is a draw: neither side wins, and a claimed win is refuted. */
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &tg, 0, PN_OUTCOME_DISPROVEN, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DISPROVEN && r.stats.nodes > 0);
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &tg, 1, PN_OUTCOME_DISPROVEN, NULL, &r), PN_STATUS_OK);
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &tg, 0, PN_OUTCOME_PROVEN, NULL, &r), PN_STATUS_REFUTED);
    CHECK(r.status == PN_STATUS_REFUTED && r.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(all_bytes_are(t.cells, sizeof t.cells, 0) && t.to_move == 0);

    /* Nim (3, 4, 5): the first player wins, by a move to nim-sum 0. */
    memset(&g, 0, sizeof g);
    g.n_piles = 3, g.piles[0] = 3, g.piles[1] = 4, g.piles[2] = 5;
    ng = nim_game(&g);
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &ng, 0, PN_OUTCOME_PROVEN, NULL, &r), PN_STATUS_OK);
    CHECK(r.has_best_move && nim_play(&g, r.best_move) == 0 && nim_sum(&g) == 0);
    nim_undo(&g, r.best_move);
    r = fresh_result();
    CHECK_STATUS(pn_verify(solver, &ng, 1, PN_OUTCOME_PROVEN, NULL, &r), PN_STATUS_REFUTED);

    /* A node limit stops the walk; a claim that is not a claim is refused. */
    {
        pn_limits limits = pn_limits_default();
        limits.max_nodes = 5;
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        r = fresh_result();
        CHECK_STATUS(pn_verify(solver, &tg, 0, PN_OUTCOME_DISPROVEN, &limits, &r),
                     PN_STATUS_NODE_LIMIT);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
    }
    r = poisoned_result();
    CHECK_STATUS(pn_verify(solver, &tg, 0, PN_OUTCOME_WIN, NULL, &r), PN_STATUS_INVALID_ARGUMENT);
    CHECK(result_is_poisoned(&r));
    free(mem);
}

/* ---- The parallel calls ---- */

/* A game position with a log of its copies: the game is the first member, so the game's own
 * callbacks take a `counted *` as their context. Copies are malloc'ed byte copies. */
typedef struct {
    int made;       /* successful clones */
    int freed;      /* frees */
    int calls;      /* clone calls, failed ones included */
    int fail_from;  /* the clone call (from 1) from which clone fails; 0: never */
    int fail_mode;  /* 0: returns -1; 1: a NULL copy; 2: the original as its copy */
} copy_log;

typedef struct {
    union {
        ttt_t ttt;
        nim_t nim;
        c4_t c4;
        faulty_t faulty;
    } g;
    copy_log *log;
} counted;

/* The log is shared by copies on different threads: atomic counters. */
static int bump(int *counter) { return __atomic_add_fetch(counter, 1, __ATOMIC_SEQ_CST); }
static int count_of(int *counter) { return __atomic_load_n(counter, __ATOMIC_SEQ_CST); }

static int counted_clone(void *ctx, void **out_ctx) {
    counted *c = (counted *)ctx;
    counted *copy;
    int call = bump(&c->log->calls);
    if (c->log->fail_from != 0 && call >= c->log->fail_from) {
        if (c->log->fail_mode == 0) return -1;
        *out_ctx = c->log->fail_mode == 1 ? NULL : ctx;
        return 0;
    }
    copy = (counted *)malloc(sizeof *copy);
    if (copy == NULL) return -1;
    memcpy(copy, c, sizeof *copy);
    bump(&c->log->made);
    *out_ctx = copy;
    return 0;
}

static void counted_free(void *ctx) {
    counted *c = (counted *)ctx;
    bump(&c->log->freed);
    free(c);
}

/* `base` (a game table over &c->g) with c as its context and the counting copy callbacks. */
static pn_game counted_game(counted *c, pn_game base) {
    base.ctx = c;
    base.clone = counted_clone;
    base.free = counted_free;
    return base;
}

static int parallel_available(void) { return (pn_features() & PN_FEATURE_PARALLEL) != 0; }

static pn_solver *parallel_solver(uint32_t threads, size_t table_bytes, void **memory) {
    pn_config c = small_config(table_bytes, 48, 32);
    c.threads = threads;
    return malloc_solver(&c, memory);
}

/* Checks one value call: the oracle's value, one copy per thread and one for the walk that
 * confirms the answer made and freed, the position untouched, the statistics of a parallel
 * call. */
static void check_parallel_value(pn_solver *solver, const pn_game *game, counted *c,
                                 uint32_t threads, int oracle) {
    counted before = *c;
    copy_log log_before = *c->log;
    pn_result r = fresh_result();
    CHECK_STATUS(pn_solve_value_parallel(solver, game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_WIN : oracle < 0 ? PN_OUTCOME_LOSS
                                                                  : PN_OUTCOME_DRAW));
    CHECK(r.stats.threads == threads && r.stats.jobs >= 1 && r.distance == 0);
    CHECK(r.stats.worker_idle_per_mille <= 1000);
    CHECK(count_of(&c->log->made) - log_before.made == (int)threads + 1);
    CHECK(count_of(&c->log->freed) - log_before.freed == (int)threads + 1);
    CHECK(r.stats.confirm_nodes > 0 && r.stats.refutations == 0);
    CHECK(memcmp(&before.g, &c->g, sizeof before.g) == 0); /* only read */
}

static void test_parallel_oracles(void) {
    static const uint32_t thread_counts[2] = {2, 4};
    copy_log log;
    int t;
    memset(&log, 0, sizeof log);
    for (t = 0; t < 2; t++) {
        const uint32_t threads = thread_counts[t];
        void *mem = NULL;
        pn_solver *solver = parallel_solver(threads, 1 << 20, &mem);
        counted c;
        pn_game game;
        uint32_t i, a, b, d;

        /* Tic-tac-toe: a draw; every first move too, and neither side can force a win. */
        memset(&c, 0, sizeof c);
        c.log = &log;
        game = counted_game(&c, ttt_game(&c.g.ttt));
        check_parallel_value(solver, &game, &c, threads, 0);
        for (i = 0; i < 9; i++) {
            ttt_play(&c.g.ttt, i);
            check_parallel_value(solver, &game, &c, threads, ttt_negamax(&c.g.ttt));
            ttt_undo(&c.g.ttt, i);
        }
        for (i = 0; i < 2; i++) {
            pn_result r = fresh_result();
            CHECK_STATUS(pn_solve_parallel(solver, &game, i, NULL, &r), PN_STATUS_OK);
            CHECK(r.outcome == PN_OUTCOME_DISPROVEN);
        }

        /* Nim against Bouton's theorem; the winning move leaves a nim-sum of zero. Another
         * game: a table cleared first (the two games' small hashes overlap). */
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        memset(&c, 0, sizeof c);
        c.log = &log;
        c.g.nim.n_piles = 3;
        game = counted_game(&c, nim_game(&c.g.nim));
        for (a = 1; a <= 5; a += 2) {
            for (b = 0; b <= 4; b += 2) {
                for (d = 1; d <= 6; d += 5) {
                    pn_result r = fresh_result();
                    int wins;
                    c.g.nim.piles[0] = a, c.g.nim.piles[1] = b, c.g.nim.piles[2] = d;
                    wins = nim_sum(&c.g.nim) != 0;
                    check_parallel_value(solver, &game, &c, threads, wins ? 1 : -1);
                    CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), PN_STATUS_OK);
                    if (wins) {
                        CHECK(r.has_best_move && nim_play(&c.g.nim, r.best_move) == 0);
                        CHECK(nim_sum(&c.g.nim) == 0);
                        nim_undo(&c.g.nim, r.best_move);
                    }
                }
            }
        }
        free(mem);
    }
    printf("parallel: tic-tac-toe and nim agree with the oracles with 2 and 4 threads, %d copies "
           "made and freed\n", count_of(&log.made));
    CHECK(count_of(&log.made) == count_of(&log.freed) && count_of(&log.calls) == log.made);
}

/* Connect Four with real parallel work: against negamax, copies by clone or by bytes, and
 * the table the workers filled used by a serial search after them. */
static void test_parallel_connect4(int width, int height, uint32_t threads, int by_bytes) {
    void *mem = NULL, *cold_mem = NULL;
    pn_solver *solver = parallel_solver(threads, 1 << 20, &mem);
    pn_solver *cold = parallel_solver(threads, 1 << 20, &cold_mem);
    size_t memo_bytes = (size_t)1 << (width * (height + 1));
    uint8_t *memo = (uint8_t *)calloc(memo_bytes, 1);
    copy_log log;
    counted c;
    pn_game game;
    pn_result r = fresh_result(), warm = fresh_result(), serial = fresh_result();
    int oracle;
    CHECK(memo != NULL);
    memset(&log, 0, sizeof log);
    memset(&c, 0, sizeof c);
    c.log = &log;
    c4_init(&c.g.c4, width, height);
    oracle = c4_negamax(&c.g.c4, memo);
    if (by_bytes) {
        game = c4_game(&c.g.c4);
        game.copy_size = sizeof c.g.c4; /* plain data: byte copies, no callbacks */
    } else {
        game = counted_game(&c, c4_game(&c.g.c4));
    }
    CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == (oracle > 0 ? PN_OUTCOME_WIN : oracle < 0 ? PN_OUTCOME_LOSS
                                                                  : PN_OUTCOME_DRAW));
    CHECK(r.stats.jobs > 1 && r.stats.threads == threads);
    CHECK(c.g.c4.moves == 0 && c.g.c4.mask == 0);
    CHECK(count_of(&log.made) == (by_bytes ? 0 : (int)threads + 1)); /* + the walk's */
    CHECK(count_of(&log.freed) == count_of(&log.made));
    /* The best move keeps the value. */
    if (r.has_best_move) {
        CHECK(c4_play(&c.g.c4, r.best_move) == 0);
        CHECK(-c4_negamax(&c.g.c4, memo) == oracle);
        c4_undo(&c.g.c4, r.best_move);
    }
    /* A serial search after the parallel one finds its work in the table. */
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &warm), PN_STATUS_OK);
    CHECK_STATUS(pn_solve_value(cold, &game, NULL, &serial), PN_STATUS_OK);
    CHECK(warm.outcome == r.outcome && serial.outcome == r.outcome);
    CHECK(warm.stats.nodes < serial.stats.nodes);
    printf("parallel connect four %dx%d, %u threads, %s copies: %s, %llu jobs, %llu nodes "
           "(serial %llu), workers idle %u/1000; a serial search after it: %llu nodes\n",
           width, height, (unsigned)threads, by_bytes ? "byte" : "cloned",
           r.outcome == PN_OUTCOME_WIN ? "win" : r.outcome == PN_OUTCOME_LOSS ? "loss" : "draw",
           (unsigned long long)r.stats.jobs, (unsigned long long)r.stats.nodes,
           (unsigned long long)serial.stats.nodes, (unsigned)r.stats.worker_idle_per_mille,
           (unsigned long long)warm.stats.nodes);
    free(memo);
    free(cold_mem);
    free(mem);
}

static void test_parallel_copy_errors(void) {
    void *mem = NULL;
    pn_solver *solver = parallel_solver(4, 64 * 1024, &mem);
    copy_log log;
    counted c;
    pn_game game, broken;
    pn_result r;
    int mode;
    memset(&c, 0, sizeof c);
    c.log = &log;
    game = counted_game(&c, ttt_game(&c.g.ttt));

    /* No way to copy the game, or two: nothing searched, nothing written. */
    broken = game;
    broken.clone = NULL;
    broken.free = NULL;
    r = poisoned_result();
    CHECK_STATUS(pn_solve_value_parallel(solver, &broken, NULL, &r), PN_STATUS_MISSING_CALLBACK);
    CHECK(result_is_poisoned(&r));
    broken = game;
    broken.free = NULL;
    CHECK_STATUS(pn_solve_parallel(solver, &broken, 0, NULL, &r), PN_STATUS_MISSING_CALLBACK);
    CHECK(result_is_poisoned(&r));
    broken = game;
    broken.copy_size = sizeof c;
    CHECK_STATUS(pn_solve_parallel(solver, &broken, 0, NULL, &r), PN_STATUS_INVALID_ARGUMENT);
    CHECK(result_is_poisoned(&r));

    /* A clone that fails: at the first copy, at the third (two made, both freed), with a
     * NULL copy, with the original as its copy. */
    for (mode = 0; mode < 4; mode++) {
        static const int fail_from[4] = {1, 3, 2, 1};
        static const int fail_mode[4] = {0, 0, 1, 2};
        static const pn_status want[4] = {PN_STATUS_CALLBACK_FAILED, PN_STATUS_CALLBACK_FAILED,
                                          PN_STATUS_CALLBACK_INVALID,
                                          PN_STATUS_CALLBACK_INVALID};
        memset(&log, 0, sizeof log);
        log.fail_from = fail_from[mode];
        log.fail_mode = fail_mode[mode];
        r = poisoned_result();
        CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), want[mode]);
        CHECK(result_is_poisoned(&r));
        CHECK(log.made == fail_from[mode] - 1 && log.freed == log.made);
    }

    /* A copy's callback that fails or reports garbage: an error, not an answer, written as
     * for a serial search, with every copy freed. */
    for (mode = 0; mode < 2; mode++) {
        static const enum fault faults[2] = {FAULT_PLAY_RETURNS_ERROR,
                                             FAULT_OUTCOME_OUT_OF_RANGE};
        static const pn_status want[2] = {PN_STATUS_CALLBACK_FAILED, PN_STATUS_CALLBACK_INVALID};
        memset(&c, 0, sizeof c);
        memset(&log, 0, sizeof log);
        c.log = &log;
        c.g.faulty.fault = faults[mode];
        game = counted_game(&c, faulty_game(&c.g.faulty));
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        r = fresh_result();
        CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), want[mode]);
        CHECK(r.status == (uint32_t)want[mode]);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN && r.has_best_move == 0);
        CHECK(log.made == 5 && log.freed == 5); /* four workers' copies and the walk's */
        CHECK(c.g.faulty.calls == 0); /* the game's own position was never played on */
    }
    free(mem);
}

typedef struct {
    pn_solver *solver;
    counted game;
    copy_log log;
    pn_status status;
    pn_result result;
    int done;
} parallel_job;

static void *run_parallel_search(void *arg) {
    parallel_job *job = (parallel_job *)arg;
    pn_game game = counted_game(&job->game, c4_game(&job->game.g.c4));
    job->result = fresh_result();
    job->status = pn_solve_value_parallel(job->solver, &game, NULL, &job->result);
    __atomic_store_n(&job->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

typedef struct {
    pn_solver *solver;
    int reports;
    int stop_at;
    uint64_t last_nodes;
    uint64_t last_elapsed_us;
    int monotonic;
} parallel_progress_log;

/* From the worker threads, one call at a time: counts, checks growth, stops at `stop_at`. */
static void on_parallel_progress(void *ctx, const pn_progress *p) {
    parallel_progress_log *log = (parallel_progress_log *)ctx;
    if (p->struct_size != sizeof *p || p->nodes < log->last_nodes ||
        p->elapsed_us < log->last_elapsed_us) {
        log->monotonic = 0;
    }
    log->last_nodes = p->nodes;
    log->last_elapsed_us = p->elapsed_us;
    if (++log->reports == log->stop_at) pn_solver_stop(log->solver);
}

static void test_parallel_limits_and_stop(void) {
    const uint32_t threads = 2;
    void *mem = NULL;
    pn_solver *solver = parallel_solver(threads, 1 << 20, &mem);
    copy_log log;
    counted c;
    pn_game game;
    pn_limits limits = pn_limits_default();
    pn_result r;
    parallel_progress_log progress;
    memset(&log, 0, sizeof log);
    memset(&c, 0, sizeof c);
    c.log = &log;
    c4_init(&c.g.c4, 7, 6); /* standard Connect Four: far too big to solve here */
    game = counted_game(&c, c4_game(&c.g.c4));

    /* A node limit: the result is written; each thread's last job may overrun it. */
    limits.max_nodes = 5000;
    r = fresh_result();
    CHECK_STATUS(pn_solve_value_parallel(solver, &game, &limits, &r), PN_STATUS_NODE_LIMIT);
    CHECK(r.outcome == PN_OUTCOME_UNKNOWN && r.has_best_move == 0);
    CHECK(r.stats.nodes >= 5000 && r.stats.nodes <= threads * 5000);

    /* A time limit is wall time: no clock needed, and the clock is never called. */
    limits = pn_limits_default();
    limits.max_time_us = 300 * 1000;
    r = fresh_result();
    CHECK_STATUS(pn_solve_value_parallel(solver, &game, &limits, &r), PN_STATUS_TIME_LIMIT);
    CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(r.stats.elapsed_us >= 300 * 1000 && r.stats.elapsed_us < 10 * 1000 * 1000);
    printf("parallel time limit of 0.3 s: stopped after %.3f s, %llu nodes, %llu jobs\n",
           (double)r.stats.elapsed_us / 1e6, (unsigned long long)r.stats.nodes,
           (unsigned long long)r.stats.jobs);

    /* Progress reports from the worker threads; the second stops the search. */
    memset(&progress, 0, sizeof progress);
    progress.solver = solver;
    progress.stop_at = 2;
    progress.monotonic = 1;
    limits = pn_limits_default();
    limits.progress = on_parallel_progress;
    limits.progress_ctx = &progress;
    r = fresh_result();
    CHECK_STATUS(pn_solve_value_parallel(solver, &game, &limits, &r), PN_STATUS_STOPPED);
    CHECK(progress.reports >= 2 && progress.monotonic);
    CHECK(progress.last_nodes <= r.stats.nodes);
    CHECK(c.g.c4.moves == 0 && c.g.c4.mask == 0);
    CHECK(count_of(&log.made) == 3 * ((int)threads + 1) && count_of(&log.freed) == log.made);
    free(mem);

    /* A stop from another thread. */
    {
        parallel_job job;
        pthread_t thread;
        struct timespec pause = {0, 200 * 1000 * 1000};
        memset(&job, 0, sizeof job);
        job.solver = parallel_solver(4, 1 << 20, &mem);
        job.game.log = &job.log;
        c4_init(&job.game.g.c4, 7, 6);
        CHECK(pthread_create(&thread, NULL, run_parallel_search, &job) == 0);
        nanosleep(&pause, NULL);
        stop_until_done(job.solver, &job.done);
        CHECK(pthread_join(thread, NULL) == 0);
        CHECK_STATUS(job.status, PN_STATUS_STOPPED);
        CHECK(job.result.outcome == PN_OUTCOME_UNKNOWN);
        CHECK(job.game.g.c4.moves == 0 && job.game.g.c4.mask == 0);
        CHECK(job.log.made == 5 && job.log.freed == 5);
        printf("parallel search stopped from another thread after %llu nodes, %llu jobs\n",
               (unsigned long long)job.result.stats.nodes,
               (unsigned long long)job.result.stats.jobs);
        free(mem);
    }
}

/* Callers built against the first header: smaller pn_game and pn_result still work, and the
 * result is written only up to the caller's size. */
static void test_first_struct_versions(void) {
    const size_t game_v1 = offsetof(pn_game, copy_size);
    const size_t result_v1 = offsetof(pn_result, stats) + offsetof(pn_stats, jobs);
    void *mem = NULL;
    pn_solver *solver = parallel_solver(2, 64 * 1024, &mem);
    copy_log log;
    counted c;
    pn_game game;
    pn_result r;
    memset(&log, 0, sizeof log);
    memset(&c, 0, sizeof c);
    c.log = &log;
    game = counted_game(&c, ttt_game(&c.g.ttt));
    game.struct_size = game_v1;
    game.copy_size = 12345; /* past the caller's struct: never read */

    r = poisoned_result();
    r.struct_size = result_v1;
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.struct_size == result_v1 && r.outcome == PN_OUTCOME_DRAW && r.stats.nodes > 0);
    CHECK(all_bytes_are((const unsigned char *)&r + result_v1, sizeof r - result_v1, POISON));
    if (parallel_available()) {
        r = poisoned_result();
        r.struct_size = result_v1;
        CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), PN_STATUS_OK);
        CHECK(r.struct_size == result_v1 && r.outcome == PN_OUTCOME_DRAW);
        CHECK(all_bytes_are((const unsigned char *)&r + result_v1, sizeof r - result_v1, POISON));
        CHECK(log.made == 3 && log.freed == 3); /* two workers' copies and the walk's */
    }
    /* A size that was never a version. */
    game.struct_size = game_v1 - 4;
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_BAD_STRUCT_SIZE);
    free(mem);
}

/* ---- A program whose pn_config is the first version ---- */

/* The first version of pn_config (up to `threads`), filled by pn_config_init in its own size,
 * as a program built against a header of that version does: nothing is written past it. */
typedef struct {
    size_t struct_size;
    size_t table_bytes;
    size_t verify_memo_entries;
    uint32_t max_depth;
    uint32_t max_moves;
    uint32_t epsilon_numerator;
    uint32_t epsilon_denominator;
    uint32_t threads;
} config_v1;

static void test_first_config_binary(void) {
    /* The struct and, after it, bytes that pn_config_init must leave as they were. */
    struct {
        config_v1 c;
        unsigned char after[sizeof(pn_config)];
    } v;
    config_v1 c;
    pn_config now = default_config();
    size_t bytes = 0, want_bytes = 0, align = 0;
    pn_solver *solver = NULL;
    void *mem;
    ttt_t g;
    pn_game game = ttt_game(&g);
    pn_result r = fresh_result();
    memset(&v, POISON, sizeof v);
    v.c.struct_size = sizeof v.c;
    CHECK_STATUS(pn_config_init((pn_config *)&v.c), PN_STATUS_OK);
    CHECK(all_bytes_are(v.after, sizeof v.after, POISON));
    c = v.c;
    CHECK(sizeof c == offsetof(pn_config, arena_nodes) && c.struct_size == sizeof c);
    CHECK(c.table_bytes == now.table_bytes && c.max_depth == now.max_depth &&
          c.max_moves == now.max_moves && c.epsilon_denominator == now.epsilon_denominator);
    CHECK(now.engine == PN_ENGINE_DFPN && now.arena_nodes == PN_DEFAULT_ARENA_NODES);
    c.table_bytes = now.table_bytes = 64 * 1024;
    c.max_depth = now.max_depth = 16;
    c.max_moves = now.max_moves = 9;
    /* Handed in by its struct_size, it is the df-pn configuration it always was. */
    CHECK_STATUS(pn_solver_memory_requirements((const pn_config *)&c, &bytes, &align),
                 PN_STATUS_OK);
    CHECK_STATUS(pn_solver_memory_requirements(&now, &want_bytes, &align), PN_STATUS_OK);
    CHECK(bytes == want_bytes);
    mem = malloc(bytes);
    CHECK(mem != NULL);
    CHECK_STATUS(pn_solver_init(mem, bytes, (const pn_config *)&c, &solver), PN_STATUS_OK);
    memset(&g, 0, sizeof g);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DRAW);
    CHECK(r.stats.confirm_nodes > 0); /* its answers are confirmed: it never opted out */
    free(mem);
}

/* ---- A program whose pn_config is the second version ---- */

/* The second version of pn_config (up to `engine`), filled by pn_config_init in its own size. */
typedef struct {
    size_t struct_size;
    size_t table_bytes;
    size_t verify_memo_entries;
    uint32_t max_depth;
    uint32_t max_moves;
    uint32_t epsilon_numerator;
    uint32_t epsilon_denominator;
    uint32_t threads;
    size_t arena_nodes;
    size_t second_level_nodes;
    uint32_t engine;
} config_v2;

static void test_second_config_binary(void) {
    /* The struct and, after it, bytes that pn_config_init must leave as they were. */
    struct {
        config_v2 c;
        unsigned char after[sizeof(pn_config)];
    } v;
    config_v2 c;
    pn_config now = default_config();
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    void *mem;
    ttt_t g;
    pn_game game = ttt_game(&g);
    pn_result r = fresh_result();
    pn_config back;
    memset(&v, POISON, sizeof v);
    v.c.struct_size = sizeof v.c;
    CHECK_STATUS(pn_config_init((pn_config *)&v.c), PN_STATUS_OK);
    CHECK(all_bytes_are(v.after, sizeof v.after, POISON));
    c = v.c;
    CHECK(sizeof c == offsetof(pn_config, confirm) && c.struct_size == sizeof c);
    CHECK(c.engine == now.engine && c.arena_nodes == now.arena_nodes &&
          c.verify_memo_entries == now.verify_memo_entries);
    CHECK(now.confirm == PN_CONFIRM);
    c.table_bytes = 64 * 1024;
    c.max_depth = 16;
    c.max_moves = 9;
    CHECK_STATUS(pn_solver_memory_requirements((const pn_config *)&c, &bytes, &align),
                 PN_STATUS_OK);
    mem = malloc(bytes);
    CHECK(mem != NULL);
    CHECK_STATUS(pn_solver_init(mem, bytes, (const pn_config *)&c, &solver), PN_STATUS_OK);
    memset(&g, 0, sizeof g);
    /* Its answers are confirmed: the field it cannot set reads as zero, which is not "off"
     * for a caller that could not write it. */
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DRAW && r.stats.confirm_nodes > 0);
    /* Its configuration comes back in its version, and only that far. */
    memset(&back, POISON, sizeof back);
    CHECK_STATUS(pn_solver_config(solver, &back), PN_STATUS_OK);
    CHECK(back.struct_size == sizeof c && back.max_depth == 16);
    CHECK(all_bytes_are((const unsigned char *)&back + sizeof c, sizeof back - sizeof c,
                        POISON));
    free(mem);
}

/* pn_config_init fills the caller's version of the struct: all of it from this header, only
 * the older fields from an older one. */
static void test_config_init(void) {
    pn_config c;
    memset(&c, POISON, sizeof c);
    c.struct_size = sizeof c;
    CHECK_STATUS(pn_config_init(&c), PN_STATUS_OK);
    CHECK(c.struct_size == sizeof c && c.table_bytes == PN_DEFAULT_TABLE_BYTES);
    CHECK(c.verify_memo_entries == PN_DEFAULT_VERIFY_MEMO_ENTRIES &&
          c.max_depth == PN_DEFAULT_MAX_DEPTH && c.max_moves == PN_DEFAULT_MAX_MOVES);
    CHECK(c.epsilon_numerator == 1 && c.epsilon_denominator == 4 && c.threads == 0);
    CHECK(c.arena_nodes == PN_DEFAULT_ARENA_NODES &&
          c.second_level_nodes == PN_DEFAULT_SECOND_LEVEL_NODES);
    CHECK(c.engine == PN_ENGINE_DFPN && c.confirm == PN_CONFIRM);
    memset(&c, POISON, sizeof c);
    c.struct_size = offsetof(pn_config, confirm);
    CHECK_STATUS(pn_config_init(&c), PN_STATUS_OK);
    CHECK(c.struct_size == offsetof(pn_config, confirm));
    CHECK(c.table_bytes == PN_DEFAULT_TABLE_BYTES && c.engine == PN_ENGINE_DFPN);
    CHECK(all_bytes_are(&c.confirm, sizeof c.confirm, POISON));
    c.struct_size = 5;
    CHECK_STATUS(pn_config_init(&c), PN_STATUS_BAD_STRUCT_SIZE);
    CHECK_STATUS(pn_config_init(NULL), PN_STATUS_NULL_POINTER);
}

int main(void) {
    test_version();
    test_config_init();
    test_status_strings();
    test_requirements();
    test_init_errors();
    test_static_memory();
    test_stack_memory();
    test_malloc_memory_and_ttt_oracle();
    test_value_bounds();
    test_nim_against_bouton(PN_ENGINE_DFPN);
    test_connect4_against_negamax(4, 4, PN_ENGINE_DFPN);
    test_connect4_against_negamax(5, 4, PN_ENGINE_DFPN);
    test_connect4_with_deferred_moves(4, 4, PN_ENGINE_DFPN);
    test_connect4_with_deferred_moves(5, 4, PN_ENGINE_DFPN);
    test_pns_engines();
    test_nim_against_bouton(PN_ENGINE_PNS);
    test_nim_against_bouton(PN_ENGINE_PN2);
    test_connect4_against_negamax(4, 4, PN_ENGINE_PNS);
    test_connect4_against_negamax(4, 4, PN_ENGINE_PN2);
    test_connect4_against_negamax(5, 4, PN_ENGINE_PNS);
    test_connect4_against_negamax(5, 4, PN_ENGINE_PN2);
    test_connect4_with_deferred_moves(4, 4, PN_ENGINE_PNS);
    test_pns_memory_limit();
    test_config_versions_and_engines();
    test_first_config_binary();
    test_second_config_binary();
    test_callback_faults();
    test_arguments_and_limits();
    test_stop_from_another_thread();
    test_table_save_and_load();
    test_repetition_rules();
    test_principal_variation();
    test_verify();
    test_first_struct_versions();
    if (parallel_available()) {
        test_parallel_oracles();
        test_parallel_connect4(4, 4, 2, 0);
        test_parallel_connect4(5, 4, 4, 1);
        test_parallel_copy_errors();
        test_parallel_limits_and_stop();
    }

    /* Every status code was triggered on purpose above, except the internal error (a bug;
     * the Rust tests trigger it with a deliberate panic) and, in builds with the parallel
     * solver, UNSUPPORTED. */
    {
        uint32_t code;
        for (code = PN_STATUS_OK; code <= PN_STATUS_MEMORY_LIMIT; code++) {
            if (code == PN_STATUS_INTERNAL_ERROR) continue;
            if (code == PN_STATUS_UNSUPPORTED && (pn_features() & PN_FEATURE_PARALLEL)) continue;
            if (!statuses_seen[code]) fprintf(stderr, "status %u never triggered\n", code);
            CHECK(statuses_seen[code]);
        }
    }
    return finish("ffi-tests/test_c");
}
