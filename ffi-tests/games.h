/*
 * Games for the C and C++ tests, as pn_game callback tables, each with an oracle that never
 * uses proofnum:
 * - tic-tac-toe, checked by plain negamax over the whole game tree;
 * - Nim (normal play: whoever takes the last stone wins), checked by Bouton's theorem (1901):
 *   the side to move loses exactly when the XOR of the pile sizes is zero;
 * - Connect Four on small boards, checked by memoised negamax over every position.
 * Compiles as C99 and as C++.
 */
#ifndef PN_FFI_GAMES_H
#define PN_FFI_GAMES_H

#include <stdint.h>
#include <string.h>

#include "proofnum.h"

static inline pn_game game_table(void *ctx) {
    pn_game g;
    memset(&g, 0, sizeof g);
    g.struct_size = sizeof g;
    g.ctx = ctx;
    return g;
}

/* ---- Tic-tac-toe: cells 0..8, 0 empty, 1 first player, 2 second player ---- */

typedef struct {
    uint8_t cells[9];
    uint32_t to_move;
} ttt_t;

static const uint8_t TTT_LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static inline int ttt_has_line(const ttt_t *g) {
    int i;
    for (i = 0; i < 8; i++) {
        uint8_t c = g->cells[TTT_LINES[i][0]];
        if (c != 0 && c == g->cells[TTT_LINES[i][1]] && c == g->cells[TTT_LINES[i][2]]) {
            return 1;
        }
    }
    return 0;
}

static inline int ttt_full(const ttt_t *g) {
    int i;
    for (i = 0; i < 9; i++) {
        if (g->cells[i] == 0) return 0;
    }
    return 1;
}

static inline int ttt_side(void *ctx, uint32_t *out_side) {
    *out_side = ((const ttt_t *)ctx)->to_move;
    return 0;
}

static inline int ttt_hash(void *ctx, uint64_t *out_hash) {
    const ttt_t *g = (const ttt_t *)ctx;
    uint64_t h = g->to_move;
    int i;
    for (i = 0; i < 9; i++) h = h * 3 + g->cells[i];
    *out_hash = h;
    return 0;
}

static inline int ttt_outcome(void *ctx, uint32_t *out_outcome) {
    const ttt_t *g = (const ttt_t *)ctx;
    /* A completed line was made by the previous player: the side to move has lost. */
    if (ttt_has_line(g)) {
        *out_outcome = PN_OUTCOME_LOSS;
    } else if (ttt_full(g)) {
        *out_outcome = PN_OUTCOME_DRAW;
    } else {
        *out_outcome = PN_OUTCOME_UNKNOWN;
    }
    return 0;
}

static inline int ttt_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const ttt_t *g = (const ttt_t *)ctx;
    size_t n = 0;
    uint32_t i;
    for (i = 0; i < 9; i++) {
        if (g->cells[i] == 0) {
            if (n < cap) moves[n] = i;
            n++;
        }
    }
    *out_n = n;
    return 0;
}

static inline int ttt_play(void *ctx, uint32_t mv) {
    ttt_t *g = (ttt_t *)ctx;
    if (mv >= 9 || g->cells[mv] != 0) return 1;
    g->cells[mv] = (uint8_t)(g->to_move + 1);
    g->to_move ^= 1u;
    return 0;
}

static inline int ttt_undo(void *ctx, uint32_t mv) {
    ttt_t *g = (ttt_t *)ctx;
    if (mv >= 9 || g->cells[mv] == 0) return 1;
    g->cells[mv] = 0;
    g->to_move ^= 1u;
    return 0;
}

static inline pn_game ttt_game(ttt_t *g) {
    pn_game game = game_table(g);
    game.side_to_move = ttt_side;
    game.hash = ttt_hash;
    game.outcome = ttt_outcome;
    game.generate_moves = ttt_generate;
    game.play = ttt_play;
    game.undo = ttt_undo;
    game.repetition_rule = PN_REPETITION_ACYCLIC; /* positions never repeat */
    return game;
}

/* The oracle: +1 if the side to move wins, 0 for a draw, -1 if it loses. */
static inline int ttt_negamax(ttt_t *g) {
    int best = -1;
    uint32_t i;
    if (ttt_has_line(g)) return -1;
    if (ttt_full(g)) return 0;
    for (i = 0; i < 9 && best < 1; i++) {
        int v;
        if (g->cells[i] != 0) continue;
        ttt_play(g, i);
        v = -ttt_negamax(g);
        ttt_undo(g, i);
        if (v > best) best = v;
    }
    return best;
}

/* ---- Nim: up to 4 piles; a move (pile << 8 | take) takes 1..pile stones from one pile ---- */

typedef struct {
    uint32_t piles[4];
    uint32_t n_piles;
    uint32_t to_move;
} nim_t;

static inline int nim_side(void *ctx, uint32_t *out_side) {
    *out_side = ((const nim_t *)ctx)->to_move;
    return 0;
}

static inline int nim_hash(void *ctx, uint64_t *out_hash) {
    const nim_t *g = (const nim_t *)ctx;
    uint64_t h = g->to_move;
    uint32_t i;
    for (i = 0; i < g->n_piles; i++) h = (h << 8) | g->piles[i];
    *out_hash = h;
    return 0;
}

static inline int nim_outcome(void *ctx, uint32_t *out_outcome) {
    const nim_t *g = (const nim_t *)ctx;
    uint32_t i, stones = 0;
    for (i = 0; i < g->n_piles; i++) stones += g->piles[i];
    /* The previous player took the last stone. */
    *out_outcome = stones == 0 ? PN_OUTCOME_LOSS : PN_OUTCOME_UNKNOWN;
    return 0;
}

static inline int nim_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const nim_t *g = (const nim_t *)ctx;
    size_t n = 0;
    uint32_t p, take;
    for (p = 0; p < g->n_piles; p++) {
        for (take = 1; take <= g->piles[p]; take++) {
            if (n < cap) moves[n] = p << 8 | take;
            n++;
        }
    }
    *out_n = n;
    return 0;
}

static inline int nim_play(void *ctx, uint32_t mv) {
    nim_t *g = (nim_t *)ctx;
    uint32_t p = mv >> 8, take = mv & 0xFF;
    if (p >= g->n_piles || take == 0 || take > g->piles[p]) return 1;
    g->piles[p] -= take;
    g->to_move ^= 1u;
    return 0;
}

static inline int nim_undo(void *ctx, uint32_t mv) {
    nim_t *g = (nim_t *)ctx;
    uint32_t p = mv >> 8, take = mv & 0xFF;
    if (p >= g->n_piles) return 1;
    g->piles[p] += take;
    g->to_move ^= 1u;
    return 0;
}

static inline pn_game nim_game(nim_t *g) {
    pn_game game = game_table(g);
    game.side_to_move = nim_side;
    game.hash = nim_hash;
    game.outcome = nim_outcome;
    game.generate_moves = nim_generate;
    game.play = nim_play;
    game.undo = nim_undo;
    game.repetition_rule = PN_REPETITION_ACYCLIC; /* positions never repeat */
    return game;
}

/* Bouton's theorem: the side to move wins exactly when the nim-sum is not zero. */
static inline uint32_t nim_sum(const nim_t *g) {
    uint32_t i, x = 0;
    for (i = 0; i < g->n_piles; i++) x ^= g->piles[i];
    return x;
}

/* ---- Connect Four on a width x height board, (height + 1) * width <= 64 bits ---- */

typedef struct {
    int width, height;
    uint64_t stones[2]; /* stones of each player; bit col * (height + 1) + row */
    uint64_t mask;      /* all stones */
    int heights[16];
    int moves;
} c4_t;

static inline void c4_init(c4_t *g, int width, int height) {
    memset(g, 0, sizeof *g);
    g->width = width;
    g->height = height;
}

static inline int c4_aligned(const c4_t *g, uint64_t b) {
    const int h1 = g->height + 1;
    const int dirs[4] = {1, h1, h1 - 1, h1 + 1};
    int i;
    for (i = 0; i < 4; i++) {
        uint64_t m = b & (b >> dirs[i]);
        if (m & (m >> (2 * dirs[i]))) return 1;
    }
    return 0;
}

static inline int c4_side(void *ctx, uint32_t *out_side) {
    *out_side = (uint32_t)(((const c4_t *)ctx)->moves & 1);
    return 0;
}

/* Stones of the side to move plus the mask identify a position (J. Tromp's key). */
static inline uint64_t c4_key(const c4_t *g) {
    return g->stones[g->moves & 1] + g->mask;
}

static inline int c4_hash(void *ctx, uint64_t *out_hash) {
    *out_hash = c4_key((const c4_t *)ctx);
    return 0;
}

static inline int c4_outcome(void *ctx, uint32_t *out_outcome) {
    const c4_t *g = (const c4_t *)ctx;
    if (c4_aligned(g, g->stones[(g->moves & 1) ^ 1])) {
        *out_outcome = PN_OUTCOME_LOSS;
    } else if (g->moves == g->width * g->height) {
        *out_outcome = PN_OUTCOME_DRAW;
    } else {
        *out_outcome = PN_OUTCOME_UNKNOWN;
    }
    return 0;
}

static inline int c4_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const c4_t *g = (const c4_t *)ctx;
    size_t n = 0;
    int i;
    /* Centre columns first: good moves early make the search faster. */
    for (i = 0; i < g->width; i++) {
        int col = (i & 1) ? g->width / 2 - (i + 1) / 2 : g->width / 2 + i / 2;
        if (g->heights[col] < g->height) {
            if (n < cap) moves[n] = (uint32_t)col;
            n++;
        }
    }
    *out_n = n;
    return 0;
}

static inline int c4_play(void *ctx, uint32_t col) {
    c4_t *g = (c4_t *)ctx;
    uint64_t bit;
    if (col >= (uint32_t)g->width || g->heights[col] >= g->height) return 1;
    bit = (uint64_t)1 << (col * (uint32_t)(g->height + 1) + (uint32_t)g->heights[col]);
    g->stones[g->moves & 1] |= bit;
    g->mask |= bit;
    g->heights[col]++;
    g->moves++;
    return 0;
}

static inline int c4_undo(void *ctx, uint32_t col) {
    c4_t *g = (c4_t *)ctx;
    uint64_t bit;
    if (col >= (uint32_t)g->width || g->heights[col] == 0) return 1;
    g->heights[col]--;
    g->moves--;
    bit = (uint64_t)1 << (col * (uint32_t)(g->height + 1) + (uint32_t)g->heights[col]);
    g->stones[g->moves & 1] &= ~bit;
    g->mask &= ~bit;
    return 0;
}

/* Optional deferred moves (pn_game.deferred_moves): the last 0 to 3 moves of the list, a
 * count mixed from the position's key, for either side. They change the search's order only. */
static inline int c4_deferred(void *ctx, size_t *out_n) {
    *out_n = (size_t)((c4_key((const c4_t *)ctx) * 0x9E3779B97F4A7C15ull) >> 62);
    return 0;
}

static inline pn_game c4_game(c4_t *g) {
    pn_game game = game_table(g);
    game.side_to_move = c4_side;
    game.hash = c4_hash;
    game.outcome = c4_outcome;
    game.generate_moves = c4_generate;
    game.play = c4_play;
    game.undo = c4_undo;
    game.repetition_rule = PN_REPETITION_ACYCLIC; /* positions never repeat */
    return game;
}

/* The oracle: negamax over every position, memoised by key in `memo` (one byte per key,
 * 1 << (width * (height + 1)) bytes, zeroed): +1 win, 0 draw, -1 loss for the side to move. */
static inline int c4_negamax(c4_t *g, uint8_t *memo) {
    uint64_t key;
    int best = -1, col;
    if (c4_aligned(g, g->stones[(g->moves & 1) ^ 1])) return -1;
    if (g->moves == g->width * g->height) return 0;
    key = c4_key(g);
    if (memo[key] != 0) return (int)memo[key] - 2;
    for (col = 0; col < g->width && best < 1; col++) {
        int v;
        if (c4_play(g, (uint32_t)col) != 0) continue;
        v = -c4_negamax(g, memo);
        c4_undo(g, (uint32_t)col);
        if (v > best) best = v;
    }
    memo[key] = (uint8_t)(best + 2);
    return best;
}

#endif /* PN_FFI_GAMES_H */
