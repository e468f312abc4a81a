/*
 * Dominance through the C ABI: pn_game's class_hash, material and material_at_least.
 *
 * The games: random layered DAGs whose positions are a graph node and the first player's
 * stones in hand. The first player may play a graph move, or, with a stone in hand, drop one
 * on the way: the same graph move, spending a stone. A leaf is won by the first player when it
 * holds at least the leaf's threshold of stones, and lost otherwise. More stones never hurt the
 * first player (its moves with more stones are a superset, the second player's are the same,
 * the leaves are monotone), so the dominance the callbacks declare is true by construction:
 * the class is the node, the material the stones, more at least as good for the first player
 * and fewer for the second. The oracle is negamax over (node, stones), memoised, in this file:
 * it never uses proofnum.
 *
 * Checked: the same answers with and without the callbacks on many random games (df-pn, and
 * PNS where built in), against the oracle, and fewer MID calls in all with them (the counts
 * are deterministic: a fixed seed, fresh tables); answers confirmed by default, and pn_verify
 * and the principal variation after a solve with dominance; a false order is not reported
 * as an answer under confirmation on these games (UNCONFIRMED or right), while without it does
 * mislead (so the test asks something); broken callbacks (garbage or a failure from
 * material_at_least, a class_hash or material failing at any call) give their status, never a
 * wrong answer, and leave nothing in the table that misleads a later call; one or two of the
 * three callbacks, and the three under PN_REPETITION_BY_POSITION, are refused; a caller built
 * against the header before them gets no dominance; the parallel calls' copies (std builds).
 * Built with -Wall -Wextra -Wpedantic -Werror under AddressSanitizer and
 * UndefinedBehaviorSanitizer by run.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games.h"

/* The games' shape (tests/dominance.rs's in Rust, a little larger): 2 to MAX_LAYERS layers of 1 to
 * MAX_WIDTH nodes, up to MAX_CHILDREN children in the next layer, leaves' thresholds up to
 * MAX_THRESHOLD stones, and up to MAX_STONES stones in hand at the root. */
#define MAX_LAYERS 12
#define MAX_WIDTH 8
#define MAX_NODES (1 + (MAX_LAYERS - 1) * MAX_WIDTH)
#define MAX_CHILDREN 4
#define MAX_THRESHOLD 4
#define MAX_STONES 5
/* A drop doubles the moves of the first player. */
#define MAX_MOVES (2 * MAX_CHILDREN)
/* Random games per engine. */
#define GAMES 3000
#define SEED 0x5EEDD0D1u

/* ---- SplitMix64 ---- */

typedef struct {
    uint64_t state;
} rng_t;

static uint64_t rng_next(rng_t *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n small: the bias of the multiply-shift is negligible). */
static uint32_t rng_below(rng_t *r, uint32_t n) {
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* ---- The graph ---- */

typedef struct {
    uint32_t mover; /* 0: the first player, 1: the second */
    uint32_t n_children;
    uint32_t children[MAX_CHILDREN];
    int32_t threshold; /* a leaf: the first player wins with at least this many stones; -1 */
    uint64_t hash;     /* the node's class hash */
} dnode;

typedef struct {
    uint32_t n;
    dnode nodes[MAX_NODES];
} dgraph;

/* A layered DAG: layer 0 is the root, each node's children are in the next layer, the last
 * layer (and a few nodes before it) are leaves. */
static void random_graph(rng_t *r, dgraph *g) {
    uint32_t layers = 2 + rng_below(r, MAX_LAYERS - 1);
    uint32_t width = 1 + rng_below(r, MAX_WIDTH);
    uint32_t start[MAX_LAYERS + 1];
    uint32_t l, i;
    memset(g, 0, sizeof *g);
    for (l = 0; l < layers; l++) {
        uint32_t count = l == 0 ? 1 : 1 + rng_below(r, width);
        start[l] = g->n;
        for (i = 0; i < count; i++) {
            dnode *n = &g->nodes[g->n++];
            n->mover = l % 2;
            n->threshold = -1;
            n->hash = rng_next(r);
        }
    }
    start[layers] = g->n;
    for (l = 0; l < layers; l++) {
        for (i = start[l]; i < start[l + 1]; i++) {
            dnode *n = &g->nodes[i];
            uint32_t k, tries;
            if (l + 1 == layers || rng_below(r, 100) < 15) {
                n->threshold = (int32_t)rng_below(r, MAX_THRESHOLD + 1);
                continue;
            }
            /* Biased towards few children: the smaller of two draws. */
            tries = 1 + rng_below(r, MAX_CHILDREN);
            k = 1 + rng_below(r, MAX_CHILDREN);
            if (k < tries) tries = k;
            for (k = 0; k < tries; k++) {
                uint32_t c = start[l + 1] + rng_below(r, start[l + 2] - start[l + 1]);
                uint32_t j;
                int seen = 0;
                for (j = 0; j < n->n_children; j++) seen |= n->children[j] == c;
                if (!seen) n->children[n->n_children++] = c;
            }
        }
    }
}

/* The oracle: does the first player win at `node` with `stones`? Negamax over (node, stones),
 * memoised in `memo` (-1: not known yet). */
typedef int8_t memo_t[MAX_NODES][MAX_STONES + 1];

static int first_wins(const dgraph *g, uint32_t node, uint32_t stones, memo_t memo) {
    const dnode *n = &g->nodes[node];
    int v, first = n->mover == 0;
    uint32_t i, drop;
    if (memo[node][stones] >= 0) return memo[node][stones];
    if (n->threshold >= 0) {
        v = stones >= (uint32_t)n->threshold;
    } else {
        /* The first player needs one winning option, the second one refuting option. */
        v = !first;
        for (drop = 0; drop <= (first && stones > 0 ? 1u : 0u); drop++) {
            for (i = 0; i < n->n_children; i++) {
                int w = first_wins(g, n->children[i], stones - drop, memo);
                if (first && w) v = 1;
                if (!first && !w) v = 0;
            }
        }
    }
    memo[node][stones] = (int8_t)v;
    return v;
}

static int oracle(const dgraph *g, uint32_t stones) {
    memo_t memo;
    memset(memo, -1, sizeof memo);
    return first_wins(g, 0, stones, memo);
}

/* ---- The game's callbacks ---- */

/* The order material_at_least claims. */
enum order {
    ORDER_TRUE,      /* more stones at least as good for the first player, fewer for the second */
    ORDER_REVERSED,  /* the wrong way round: a partial order, but a false dominance */
    ORDER_ALL_EQUAL  /* every material as good as any other (stones ignored): false too */
};

typedef struct {
    const dgraph *g;
    uint32_t at, stones;
    /* Knobs for misbehaving. */
    enum order order;
    uint32_t at_least_writes;        /* non-zero: written instead of the answer (garbage) */
    int at_least_fails;              /* material_at_least returns -1 */
    uint32_t class_hash_fails_from;  /* the class_hash call (from 1) from which it fails; 0 */
    uint32_t material_fails_from;    /* the same for material (which writes garbage first) */
    /* Calls so far. */
    uint32_t class_hashes, materials, comparisons;
} stones_t;

#define MOVE(from, to, drop) ((uint32_t)(from) | (uint32_t)(to) << 8 | (uint32_t)(drop) << 16)
#define MOVE_FROM(mv) ((mv) & 0xFFu)
#define MOVE_TO(mv) (((mv) >> 8) & 0xFFu)
#define MOVE_DROP(mv) ((mv) >> 16)

static int st_side(void *ctx, uint32_t *out) {
    const stones_t *s = (const stones_t *)ctx;
    *out = s->g->nodes[s->at].mover;
    return 0;
}

static int st_hash(void *ctx, uint64_t *out) {
    const stones_t *s = (const stones_t *)ctx;
    *out = s->g->nodes[s->at].hash ^ ((uint64_t)s->stones + 1) * 0x9E3779B97F4A7C15ull;
    return 0;
}

static int st_class_hash(void *ctx, uint64_t *out) {
    stones_t *s = (stones_t *)ctx;
    s->class_hashes++;
    if (s->class_hash_fails_from != 0 && s->class_hashes >= s->class_hash_fails_from) return -1;
    *out = s->g->nodes[s->at].hash;
    return 0;
}

static int st_material(void *ctx, uint32_t *out) {
    stones_t *s = (stones_t *)ctx;
    s->materials++;
    if (s->material_fails_from != 0 && s->materials >= s->material_fails_from) {
        *out = 0; /* garbage first: none of it may reach the table */
        return -1;
    }
    *out = s->stones;
    return 0;
}

static int st_at_least(void *ctx, uint32_t side, uint32_t a, uint32_t b, uint32_t *out) {
    stones_t *s = (stones_t *)ctx;
    int first = side == PN_SIDE_FIRST;
    uint32_t at_least;
    s->comparisons++;
    if (s->at_least_fails) return -1;
    switch (s->order) {
    case ORDER_TRUE: at_least = first ? a >= b : a <= b; break;
    case ORDER_REVERSED: at_least = first ? a <= b : a >= b; break;
    default: at_least = 1; break;
    }
    *out = s->at_least_writes != 0 ? s->at_least_writes : at_least;
    return 0;
}

static int st_outcome(void *ctx, uint32_t *out) {
    const stones_t *s = (const stones_t *)ctx;
    const dnode *n = &s->g->nodes[s->at];
    if (n->threshold < 0) {
        *out = PN_OUTCOME_UNKNOWN;
    } else {
        int first_wins_here = s->stones >= (uint32_t)n->threshold;
        *out = first_wins_here == (n->mover == 0) ? PN_OUTCOME_WIN : PN_OUTCOME_LOSS;
    }
    return 0;
}

static int st_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const stones_t *s = (const stones_t *)ctx;
    const dnode *n = &s->g->nodes[s->at];
    size_t count = 0;
    uint32_t i, drop;
    for (drop = 0; drop <= (n->mover == 0 && s->stones > 0 ? 1u : 0u); drop++) {
        for (i = 0; i < n->n_children; i++) {
            if (count < cap) moves[count] = MOVE(s->at, n->children[i], drop);
            count++;
        }
    }
    *out_n = count;
    return 0;
}

static int st_play(void *ctx, uint32_t mv) {
    stones_t *s = (stones_t *)ctx;
    if (MOVE_FROM(mv) != s->at || MOVE_DROP(mv) > s->stones) return 1;
    s->stones -= MOVE_DROP(mv);
    s->at = MOVE_TO(mv);
    return 0;
}

static int st_undo(void *ctx, uint32_t mv) {
    stones_t *s = (stones_t *)ctx;
    if (MOVE_TO(mv) != s->at) return 1;
    s->at = MOVE_FROM(mv);
    s->stones += MOVE_DROP(mv);
    return 0;
}

static int st_encode(void *ctx, uint8_t *out, size_t cap, size_t *out_length) {
    const stones_t *s = (const stones_t *)ctx;
    if (cap < 2) return 1;
    out[0] = (uint8_t)s->at;
    out[1] = (uint8_t)s->stones;
    *out_length = 2;
    return 0;
}

static stones_t stones_at_root(const dgraph *g, uint32_t stones) {
    stones_t s;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.stones = stones;
    s.order = ORDER_TRUE;
    return s;
}

/* The game's callback table, with the dominance callbacks when `dominance` is set. The
 * position is plain data (the graph it points to is constant): the parallel calls copy it by
 * bytes. */
static pn_game stones_game(stones_t *s, int dominance) {
    pn_game game = game_table(s);
    game.side_to_move = st_side;
    game.hash = st_hash;
    game.outcome = st_outcome;
    game.generate_moves = st_generate;
    game.play = st_play;
    game.undo = st_undo;
    game.encode = st_encode;
    game.repetition_rule = PN_REPETITION_ACYCLIC; /* a DAG */
    game.copy_size = sizeof *s;
    if (dominance) {
        game.class_hash = st_class_hash;
        game.material = st_material;
        game.material_at_least = st_at_least;
    }
    return game;
}

/* ---- Helpers ---- */

static pn_result fresh_result(void) {
    pn_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

static pn_solver *new_solver(size_t table_bytes, uint32_t engine, uint32_t confirm,
                             uint32_t threads, void **memory) {
    pn_config c = default_config();
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    c.table_bytes = table_bytes;
    c.max_depth = 2 * MAX_LAYERS;
    c.max_moves = MAX_MOVES;
    c.verify_memo_entries = 1024;
    c.engine = engine;
    c.confirm = confirm;
    c.threads = threads;
    if (engine != PN_ENGINE_DFPN) c.arena_nodes = 4096;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    CHECK(align <= 16);
    *memory = malloc(bytes);
    CHECK(*memory != NULL);
    CHECK_STATUS(pn_solver_init(*memory, bytes, &c, &solver), PN_STATUS_OK);
    return solver;
}

static uint32_t value_of(int first_wins_root) {
    /* The root is the first player's to move. */
    return first_wins_root ? PN_OUTCOME_WIN : PN_OUTCOME_LOSS;
}

/* pn_solve_value over a fresh table. */
static pn_status solve_fresh(pn_solver *solver, const pn_game *game, pn_result *r) {
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    *r = fresh_result();
    return pn_solve_value(solver, game, NULL, r);
}

/* ---- The tests ---- */

/* Random games solved with and without the callbacks: the oracle's values both ways, and
 * fewer MID calls in all with them. Tables of three sizes (a few buckets, where entries are
 * replaced all the time, up to room for everything). */
static void test_random_games(uint32_t engine) {
    static const size_t table_bytes[3] = {256, 4096, 1 << 16};
    const char *name = engine == PN_ENGINE_PNS ? "pns" : "dfpn";
    void *memory[3];
    pn_solver *solver[3];
    uint64_t mid_calls[2] = {0, 0}, confirm_nodes[2] = {0, 0};
    uint32_t wrong[2] = {0, 0}, asked = 0;
    rng_t rng;
    int i, dom;
    for (i = 0; i < 3; i++) {
        solver[i] = new_solver(table_bytes[i], engine, PN_CONFIRM, 0, &memory[i]);
    }
    rng.state = SEED;
    for (i = 0; i < GAMES; i++) {
        static dgraph g;
        uint32_t stones, t;
        int want;
        random_graph(&rng, &g);
        stones = rng_below(&rng, MAX_STONES + 1);
        t = rng_below(&rng, 3);
        want = oracle(&g, stones);
        for (dom = 1; dom >= 0; dom--) {
            stones_t s = stones_at_root(&g, stones);
            pn_game game = stones_game(&s, dom);
            pn_result r;
            pn_status st = solve_fresh(solver[t], &game, &r);
            if (st != PN_STATUS_OK || r.outcome != value_of(want)) {
                if (wrong[dom]++ < 3) {
                    fprintf(stderr, "%s game %d (%u stones, dominance %d): status %s, outcome %u, "
                            "want %u\n", name, i, stones, dom, pn_status_str(st), r.outcome,
                            value_of(want));
                }
            }
            CHECK(s.at == 0 && s.stones == stones); /* restored */
            /* The callbacks are asked exactly when they are given (and there are moves). */
            if (dom) asked += s.class_hashes > 0 && s.materials > 0;
            if (!dom) CHECK(s.class_hashes == 0 && s.materials == 0 && s.comparisons == 0);
            mid_calls[dom] += r.stats.mid_calls;
            confirm_nodes[dom] += r.stats.confirm_nodes;
        }
    }
    CHECK(wrong[0] == 0);
    CHECK(wrong[1] == 0);
    CHECK(asked > GAMES / 2);
    printf("%s, %d random games: %llu MID calls with dominance, %llu without (confirming walks: "
           "%llu and %llu positions)\n",
           name, GAMES, (unsigned long long)mid_calls[1], (unsigned long long)mid_calls[0],
           (unsigned long long)confirm_nodes[1], (unsigned long long)confirm_nodes[0]);
    CHECK(mid_calls[1] < mid_calls[0]);
    for (i = 0; i < 3; i++) free(memory[i]);
}

/* After a solve with dominance, the walks that read the table: pn_verify confirms the answer
 * and the principal variation reaches the end of the game. */
static void test_walks_after_dominance(void) {
    void *memory;
    pn_solver *solver = new_solver(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM_OFF, 0, &memory);
    rng_t rng;
    int i;
    rng.state = SEED + 1;
    for (i = 0; i < 200; i++) {
        static dgraph g;
        uint32_t stones, line[2 * MAX_LAYERS];
        size_t length = 0;
        stones_t s;
        pn_game game;
        pn_result r;
        int want;
        random_graph(&rng, &g);
        stones = rng_below(&rng, MAX_STONES + 1);
        want = oracle(&g, stones);
        s = stones_at_root(&g, stones);
        game = stones_game(&s, 1);
        CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_OK);
        CHECK(r.outcome == value_of(want));
        r = fresh_result();
        /* The first player's search: proven exactly when it wins. */
        CHECK_STATUS(pn_verify(solver, &game, PN_SIDE_FIRST,
                               want ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN, NULL, &r),
                     PN_STATUS_OK);
        CHECK_STATUS(pn_principal_variation(solver, &game, PN_SIDE_FIRST, NULL, line,
                                            sizeof line / sizeof line[0], &length),
                     PN_STATUS_OK);
        CHECK(length >= 1 || g.nodes[0].threshold >= 0);
        CHECK(s.at == 0 && s.stones == stones);
    }
    free(memory);
}

/* A false order is the game's bug. Under confirmation (the default) it is not reported as an
 * answer on these games: the answer is right, or PN_STATUS_UNCONFIRMED (the walk trusts the
 * order only where it accepts a position dominated by one it has walked). Without, it misleads
 * the search on some of these games (which shows that the first half asks something). */
static void test_false_orders(void) {
    static const enum order orders[2] = {ORDER_REVERSED, ORDER_ALL_EQUAL};
    uint32_t confirm, wrong_confirmed = 0, wrong_unconfirmed = 0, unconfirmed = 0;
    int o, i;
    for (confirm = 0; confirm <= 1; confirm++) {
        void *memory;
        pn_solver *solver = new_solver(1 << 16, PN_ENGINE_DFPN,
                                       confirm ? PN_CONFIRM : PN_CONFIRM_OFF, 0, &memory);
        for (o = 0; o < 2; o++) {
            rng_t rng;
            rng.state = SEED + 2;
            for (i = 0; i < 500; i++) {
                static dgraph g;
                stones_t s;
                pn_game game;
                pn_result r;
                pn_status st;
                uint32_t stones;
                int want;
                random_graph(&rng, &g);
                stones = rng_below(&rng, MAX_STONES + 1);
                want = oracle(&g, stones);
                s = stones_at_root(&g, stones);
                s.order = orders[o];
                game = stones_game(&s, 1);
                st = solve_fresh(solver, &game, &r);
                if (st == PN_STATUS_OK && r.outcome != value_of(want)) {
                    if (confirm) {
                        wrong_confirmed++;
                    } else {
                        wrong_unconfirmed++;
                    }
                } else if (st != PN_STATUS_OK) {
                    CHECK_STATUS(st, PN_STATUS_UNCONFIRMED);
                    CHECK(confirm && r.outcome == PN_OUTCOME_UNKNOWN);
                    unconfirmed++;
                }
            }
        }
        free(memory);
    }
    printf("false orders: %u wrong answers without confirmation; with it, %u unconfirmed and "
           "%u wrong\n", wrong_unconfirmed, unconfirmed, wrong_confirmed);
    CHECK(wrong_confirmed == 0);
    CHECK(wrong_unconfirmed > 0);
}

/* Broken callbacks: material_at_least writing garbage (CALLBACK_INVALID) or failing
 * (CALLBACK_FAILED), class_hash or material failing from any of their calls (CALLBACK_FAILED).
 * A call that met no broken answer (the callback was not asked, or not that often) answers
 * right; one that met one answers nothing. After each failure, the same table, without
 * confirmation, answers every root stone count of the game right: nothing the failed call
 * stored misleads it. */
static void test_broken_callbacks(void) {
    void *memory;
    pn_solver *solver = new_solver(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM_OFF, 0, &memory);
    uint32_t failures[4] = {0, 0, 0, 0}, right = 0;
    rng_t rng;
    int i, kind;
    rng.state = SEED + 3;
    for (i = 0; i < 60; i++) {
        static dgraph g;
        uint32_t stones, k;
        int want;
        random_graph(&rng, &g);
        stones = 1 + rng_below(&rng, MAX_STONES);
        want = oracle(&g, stones);
        for (kind = 0; kind < 4; kind++) {
            for (k = 1; k <= 400; k++) {
                stones_t s = stones_at_root(&g, stones);
                pn_game game = stones_game(&s, 1);
                pn_result r;
                pn_status st, want_status = PN_STATUS_CALLBACK_FAILED;
                uint32_t calls, more;
                switch (kind) {
                case 0: s.at_least_writes = k == 1 ? 2u : 0xFFFFFFFFu; break;
                case 1: s.at_least_fails = 1; break;
                case 2: s.class_hash_fails_from = k; break;
                default: s.material_fails_from = k; break;
                }
                if (kind == 0) want_status = PN_STATUS_CALLBACK_INVALID;
                st = solve_fresh(solver, &game, &r);
                calls = kind < 2 ? s.comparisons : kind == 2 ? s.class_hashes : s.materials;
                if (kind < 2 ? calls == 0 : calls < k) {
                    /* Never met the broken answer. */
                    CHECK_STATUS(st, PN_STATUS_OK);
                    CHECK(r.outcome == value_of(want));
                    right++;
                    break;
                }
                CHECK_STATUS(st, want_status);
                CHECK(r.outcome == PN_OUTCOME_UNKNOWN && r.has_best_move == 0);
                failures[kind]++;
                /* Whatever the failed call left in the table misleads no later call. */
                for (more = 0; more <= MAX_STONES; more++) {
                    stones_t again = stones_at_root(&g, more);
                    pn_game fine = stones_game(&again, 1);
                    pn_result r2 = fresh_result();
                    CHECK_STATUS(pn_solve_value(solver, &fine, NULL, &r2), PN_STATUS_OK);
                    CHECK(r2.outcome == value_of(oracle(&g, more)));
                }
                if (kind < 2 && k >= 2) break; /* the same every time */
            }
        }
    }
    printf("broken callbacks: %u garbage orders, %u failing orders, %u failing class hashes, "
           "%u failing materials; %u calls never met them\n",
           failures[0], failures[1], failures[2], failures[3], right);
    CHECK(failures[0] > 0 && failures[1] > 0 && failures[2] > 0 && failures[3] > 0);
    free(memory);
}

/* One or two of the three callbacks, the three under PN_REPETITION_BY_POSITION, and a caller
 * built against the header before them (its struct ends where class_hash begins: whatever
 * lies beyond is not read). */
static void test_arguments_and_versions(void) {
    void *memory;
    pn_solver *solver = new_solver(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM, 0, &memory);
    static dgraph g;
    rng_t rng;
    stones_t s;
    pn_game full, game;
    pn_result r;
    int want;
    rng.state = SEED + 4;
    do {
        random_graph(&rng, &g);
    } while (g.nodes[0].threshold >= 0);
    want = oracle(&g, 2);
    s = stones_at_root(&g, 2);
    full = stones_game(&s, 1);

    game = full;
    game.class_hash = NULL;
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_MISSING_CALLBACK);
    game = full;
    game.material = NULL;
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_MISSING_CALLBACK);
    game = full;
    game.material_at_least = NULL;
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_MISSING_CALLBACK);
    game = full;
    game.class_hash = NULL;
    game.material_at_least = NULL;
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_MISSING_CALLBACK);
    game = full;
    game.repetition_rule = PN_REPETITION_BY_POSITION;
    game.repetition_value = st_outcome; /* never called */
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_INVALID_ARGUMENT);
    CHECK(s.class_hashes == 0 && s.materials == 0 && s.comparisons == 0);

    /* Under the draw rule (this DAG has no cycles to draw), they work. */
    game = full;
    game.repetition_rule = PN_REPETITION_DRAW;
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_OK);
    CHECK(r.outcome == value_of(want) && s.class_hashes > 0);

    /* The third version of the struct: no dominance fields. */
    s = stones_at_root(&g, 2);
    game = stones_game(&s, 1);
    game.struct_size = offsetof(pn_game, class_hash);
    CHECK_STATUS(solve_fresh(solver, &game, &r), PN_STATUS_OK);
    CHECK(r.outcome == value_of(want));
    CHECK(s.class_hashes == 0 && s.materials == 0 && s.comparisons == 0);
    free(memory);
}

/* The parallel calls: every worker's byte copy of the position answers the callbacks. */
static void test_parallel(void) {
    void *memory;
    pn_solver *solver = new_solver(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM, 2, &memory);
    uint32_t wrong = 0;
    rng_t rng;
    int i;
    rng.state = SEED + 5;
    for (i = 0; i < 150; i++) {
        static dgraph g;
        stones_t s;
        pn_game game;
        pn_result r = fresh_result();
        uint32_t stones;
        random_graph(&rng, &g);
        stones = rng_below(&rng, MAX_STONES + 1);
        s = stones_at_root(&g, stones);
        game = stones_game(&s, 1);
        CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
        CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), PN_STATUS_OK);
        wrong += r.outcome != value_of(oracle(&g, stones));
    }
    CHECK(wrong == 0);
    {
        /* A copy whose class_hash fails fails the call. */
        static dgraph g;
        stones_t s;
        pn_game game;
        pn_result r = fresh_result();
        do {
            random_graph(&rng, &g);
        } while (g.nodes[0].threshold >= 0);
        s = stones_at_root(&g, 1);
        s.class_hash_fails_from = 1;
        game = stones_game(&s, 1);
        CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r),
                     PN_STATUS_CALLBACK_FAILED);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
    }
    free(memory);
}

int main(void) {
    test_random_games(PN_ENGINE_DFPN);
    if (pn_features() & PN_FEATURE_PNS) test_random_games(PN_ENGINE_PNS);
    test_walks_after_dominance();
    test_false_orders();
    test_broken_callbacks();
    test_arguments_and_versions();
    if (pn_features() & PN_FEATURE_PARALLEL) test_parallel();
    return finish("ffi-tests/test_dominance");
}
