/*
 * The smallest complete C client of proofnum: tic-tac-toe, solved in a static buffer.
 *
 * At the repository root (the guide's C chapter gives the same lines):
 *   cargo build --release -p proofnum-capi
 *   cc -std=c99 -Wall -Wextra -Wpedantic -Iinclude examples/c/minimal.c \
 *       target/release/libproofnum.a -lpthread -ldl -lm -o minimal
 *   ./minimal
 *
 * It solves the empty board and the position after X takes a corner and O an edge next to
 * it, prints both values, and exits 1 if either differs from the known one: tic-tac-toe is a
 * draw with best play, and that reply to a corner loses (a classic of the game, also checked
 * by minimax in ffi-tests/test_c.c and by examples/cpp).
 */
#include <stdint.h>
#include <stdio.h>

#include "proofnum.h"

/* Cells 0..8 row by row, each 0 (empty), 1 (X) or 2 (O); X moves first. */
typedef struct {
    uint8_t cells[9];
    uint32_t moves;
} board_t;

/* Whether `player` (1 or 2) holds a full row, column or diagonal. */
static int has_line(const board_t *b, uint8_t player) {
    static const uint8_t lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    int i;
    for (i = 0; i < 8; i++) {
        if (b->cells[lines[i][0]] == player && b->cells[lines[i][1]] == player &&
            b->cells[lines[i][2]] == player) {
            return 1;
        }
    }
    return 0;
}

/* The callbacks: each returns 0 for success. */

static int side_to_move(void *ctx, uint32_t *out_side) {
    *out_side = ((const board_t *)ctx)->moves % 2; /* 0: X, 1: O */
    return 0;
}

static int hash(void *ctx, uint64_t *out_hash) {
    const board_t *b = (const board_t *)ctx;
    uint64_t h = 0;
    int i;
    for (i = 0; i < 9; i++) h = h * 3 + b->cells[i]; /* distinct for distinct boards */
    *out_hash = h;
    return 0;
}

static int outcome(void *ctx, uint32_t *out_outcome) {
    const board_t *b = (const board_t *)ctx;
    uint8_t previous = (b->moves % 2 == 0) ? 2 : 1; /* the player who just moved */
    if (has_line(b, previous)) {
        *out_outcome = PN_OUTCOME_LOSS; /* for the side to move */
    } else if (b->moves == 9) {
        *out_outcome = PN_OUTCOME_DRAW;
    } else {
        *out_outcome = PN_OUTCOME_UNKNOWN; /* not over */
    }
    return 0;
}

static int generate_moves(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const board_t *b = (const board_t *)ctx;
    size_t n = 0;
    uint32_t cell;
    for (cell = 0; cell < 9; cell++) {
        if (b->cells[cell] == 0) {
            if (n < cap) moves[n] = cell;
            n++; /* the count is always the full one */
        }
    }
    *out_n = n;
    return 0;
}

static int play(void *ctx, uint32_t cell) {
    board_t *b = (board_t *)ctx;
    if (cell >= 9 || b->cells[cell] != 0) return 1;
    b->cells[cell] = (uint8_t)(b->moves % 2 + 1);
    b->moves++;
    return 0;
}

static int undo(void *ctx, uint32_t cell) {
    board_t *b = (board_t *)ctx;
    if (cell >= 9 || b->cells[cell] == 0) return 1;
    b->cells[cell] = 0;
    b->moves--;
    return 0;
}

/* The solver's memory: 2 MiB, 8-byte aligned, more than the default config asks for. */
static uint64_t memory[(2u << 20) / 8];

/* Solves `board` for the side to move; returns its outcome, or PN_OUTCOME_UNKNOWN on error. */
static uint32_t solve(pn_solver *solver, board_t *board) {
    const pn_game game = {
        .struct_size = sizeof(pn_game),
        .ctx = board,
        .side_to_move = side_to_move,
        .hash = hash,
        .outcome = outcome,
        .generate_moves = generate_moves,
        .play = play,
        .undo = undo,
        .repetition_rule = PN_REPETITION_ACYCLIC, /* a position never repeats */
    };
    pn_result result = {.struct_size = sizeof(pn_result)};
    pn_status status = pn_solve_value(solver, &game, NULL, &result);
    if (status != PN_STATUS_OK) {
        fprintf(stderr, "pn_solve_value: %s\n", pn_status_str(status));
        return PN_OUTCOME_UNKNOWN;
    }
    printf("value for %s to move: %s", board->moves % 2 == 0 ? "X" : "O",
           result.outcome == PN_OUTCOME_WIN    ? "win"
           : result.outcome == PN_OUTCOME_LOSS ? "loss"
                                               : "draw");
    if (result.has_best_move) printf(", best move: cell %u", (unsigned)result.best_move);
    printf(" (%llu MID calls)\n", (unsigned long long)result.stats.mid_calls);
    return result.outcome;
}

int main(void) {
    pn_config config = {.struct_size = sizeof(pn_config)}; /* this header's version */
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    board_t empty = {.moves = 0};
    board_t corner_edge = {.cells = {1, 2}, .moves = 2}; /* X in cell 0, O in cell 1 */
    pn_status status;
    int wrong = 0;

    if (pn_abi_version() != PN_ABI_VERSION) {
        fprintf(stderr, "library ABI %u, header ABI %u\n", (unsigned)pn_abi_version(),
                (unsigned)PN_ABI_VERSION);
        return 2;
    }
    /* The defaults: a 1 MiB table, 128 plies, 64 moves. */
    status = pn_config_init(&config);
    if (status != PN_STATUS_OK) {
        fprintf(stderr, "pn_config_init: %s\n", pn_status_str(status));
        return 2;
    }
    status = pn_solver_memory_requirements(&config, &bytes, &align);
    if (status != PN_STATUS_OK || bytes > sizeof memory) {
        fprintf(stderr, "the solver needs %zu bytes: %s\n", bytes, pn_status_str(status));
        return 2;
    }
    status = pn_solver_init(memory, sizeof memory, &config, &solver);
    if (status != PN_STATUS_OK) {
        fprintf(stderr, "pn_solver_init: %s\n", pn_status_str(status));
        return 2;
    }
    printf("solver: %zu bytes (aligned to %zu) of a %zu-byte static buffer\n", bytes, align,
           sizeof memory);

    /* The known values: the empty board is a draw; after 0 and 1, X (to move) wins. */
    wrong |= solve(solver, &empty) != PN_OUTCOME_DRAW;
    wrong |= solve(solver, &corner_edge) != PN_OUTCOME_WIN;
    if (wrong) {
        fprintf(stderr, "a value differs from the known one\n");
        return 1;
    }
    printf("both values agree with the known ones\n");
    return 0;
}
