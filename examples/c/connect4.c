/*
 * Connect Four solver: a complete C client of proofnum with a fixed memory budget.
 *
 *   make && ./connect4 4453        # columns 1..WIDTH played so far; prints the value
 *   ./connect4 4453 200000         # at most 200000 positions
 *
 * All the solver's memory is one static array (MEMORY_BYTES): nothing is allocated. The
 * transposition table gets whatever the budget leaves after the solver's fixed parts. The
 * board is WIDTH x HEIGHT (7 x 6 unless compiled with -DWIDTH=.. -DHEIGHT=..); positions near
 * the start of a 7 x 6 game are far beyond a small budget, so give a few moves.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proofnum.h"

#ifndef WIDTH
#define WIDTH 7
#endif
#ifndef HEIGHT
#define HEIGHT 6
#endif
#define H1 (HEIGHT + 1) /* one spare bit on top of each column */
#if WIDTH * H1 > 64 || WIDTH > 9
#error "the board must fit a 64-bit bitboard, and columns are given as digits"
#endif

/* The whole memory budget, aligned for any solver (8 bytes is what it asks for). */
#define MEMORY_BYTES (16u << 20)
static uint64_t memory[MEMORY_BYTES / sizeof(uint64_t)];

/* The board as two bitboards (J. Tromp's layout): bit col * H1 + row. */
typedef struct {
    uint64_t stones[2]; /* each player's stones */
    uint64_t mask;      /* all stones */
    int heights[WIDTH];
    int moves;
} board_t;

static int aligned4(uint64_t b) {
    static const int dirs[4] = {1, H1, H1 - 1, H1 + 1};
    int i;
    for (i = 0; i < 4; i++) {
        uint64_t m = b & (b >> dirs[i]);
        if (m & (m >> (2 * dirs[i]))) return 1;
    }
    return 0;
}

static int side_to_move(void *ctx, uint32_t *out_side) {
    *out_side = (uint32_t)(((const board_t *)ctx)->moves & 1);
    return 0;
}

static int hash(void *ctx, uint64_t *out_hash) {
    const board_t *b = (const board_t *)ctx;
    *out_hash = b->stones[b->moves & 1] + b->mask; /* unique per position */
    return 0;
}

static int outcome(void *ctx, uint32_t *out_outcome) {
    const board_t *b = (const board_t *)ctx;
    if (aligned4(b->stones[(b->moves & 1) ^ 1])) {
        *out_outcome = PN_OUTCOME_LOSS; /* the previous player connected four */
    } else if (b->moves == WIDTH * HEIGHT) {
        *out_outcome = PN_OUTCOME_DRAW;
    } else {
        *out_outcome = PN_OUTCOME_UNKNOWN;
    }
    return 0;
}

static int generate_moves(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const board_t *b = (const board_t *)ctx;
    size_t n = 0;
    int i;
    for (i = 0; i < WIDTH; i++) { /* centre columns first */
        int col = (i & 1) ? WIDTH / 2 - (i + 1) / 2 : WIDTH / 2 + i / 2;
        if (b->heights[col] < HEIGHT) {
            if (n < cap) moves[n] = (uint32_t)col;
            n++;
        }
    }
    *out_n = n;
    return 0;
}

static int play(void *ctx, uint32_t col) {
    board_t *b = (board_t *)ctx;
    uint64_t bit;
    if (col >= WIDTH || b->heights[col] >= HEIGHT) return 1;
    bit = (uint64_t)1 << (col * H1 + (uint32_t)b->heights[col]);
    b->stones[b->moves & 1] |= bit;
    b->mask |= bit;
    b->heights[col]++;
    b->moves++;
    return 0;
}

static int undo(void *ctx, uint32_t col) {
    board_t *b = (board_t *)ctx;
    uint64_t bit;
    if (col >= WIDTH || b->heights[col] == 0) return 1;
    b->heights[col]--;
    b->moves--;
    bit = (uint64_t)1 << (col * H1 + (uint32_t)b->heights[col]);
    b->stones[b->moves & 1] &= ~bit;
    b->mask &= ~bit;
    return 0;
}

static void print_board(const board_t *b) {
    int row, col;
    for (row = HEIGHT - 1; row >= 0; row--) {
        for (col = 0; col < WIDTH; col++) {
            uint64_t bit = (uint64_t)1 << (col * H1 + row);
            putchar(' ');
            putchar((b->stones[0] & bit) ? 'X' : (b->stones[1] & bit) ? 'O' : '.');
        }
        putchar('\n');
    }
    for (col = 0; col < WIDTH; col++) printf(" %d", col + 1);
    putchar('\n');
}

static int fail(const char *what, pn_status status) {
    fprintf(stderr, "%s: %s\n", what, pn_status_str(status));
    return 2;
}

int main(int argc, char **argv) {
    board_t board;
    pn_config config = {.struct_size = sizeof(pn_config)};
    pn_limits limits = pn_limits_default();
    pn_game game;
    pn_result result;
    pn_solver *solver = NULL;
    size_t fixed_bytes = 0, align = 0;
    const char *moves = argc > 1 ? argv[1] : "";
    pn_status status;
    const char *player[2] = {"first player (X)", "second player (O)"};

    if (pn_abi_version() != PN_ABI_VERSION) {
        fprintf(stderr, "libproofnum ABI %u, header ABI %u\n", (unsigned)pn_abi_version(),
                (unsigned)PN_ABI_VERSION);
        return 2;
    }

    /* Play the given moves. */
    memset(&board, 0, sizeof board);
    for (; *moves != '\0'; moves++) {
        uint32_t over = PN_OUTCOME_UNKNOWN;
        outcome(&board, &over);
        if (over != PN_OUTCOME_UNKNOWN || *moves < '1' || *moves > '0' + WIDTH ||
            play(&board, (uint32_t)(*moves - '1')) != 0) {
            fprintf(stderr, "illegal move '%c' after %d moves\n", *moves, board.moves);
            return 2;
        }
    }
    if (argc > 2) limits.max_nodes = strtoull(argv[2], NULL, 10);

    /* The fixed parts first, then the table takes the rest of the budget (the requirement
     * grows byte for byte with table_bytes). */
    status = pn_config_init(&config); /* the defaults, in this header's version */
    if (status != PN_STATUS_OK) return fail("config init", status);
    config.max_depth = WIDTH * HEIGHT;
    config.max_moves = WIDTH;
    config.table_bytes = PN_TABLE_MIN_BYTES;
    status = pn_solver_memory_requirements(&config, &fixed_bytes, &align);
    if (status != PN_STATUS_OK) return fail("memory requirements", status);
    config.table_bytes = MEMORY_BYTES - (fixed_bytes - PN_TABLE_MIN_BYTES);
    status = pn_solver_init(memory, sizeof memory, &config, &solver);
    if (status != PN_STATUS_OK) return fail("solver init", status);

    /* Zeroed first: every field struct_size covers is read, optional callbacks included. */
    memset(&game, 0, sizeof game);
    game.struct_size = sizeof game;
    game.ctx = &board;
    game.side_to_move = side_to_move;
    game.hash = hash;
    game.outcome = outcome;
    game.generate_moves = generate_moves;
    game.play = play;
    game.undo = undo;
    game.estimate = NULL;
    game.clone = NULL;
    game.free = NULL;
    game.repetition_value = NULL;
    game.repetition_rule = PN_REPETITION_ACYCLIC; /* stones only accumulate */

    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    status = pn_solve_value(solver, &game, &limits, &result);

    print_board(&board);
    printf("%s to move, %u KiB of memory\n", player[board.moves & 1],
           (unsigned)(MEMORY_BYTES >> 10));
    if (status == PN_STATUS_OK) {
        const char *value = result.outcome == PN_OUTCOME_WIN    ? "win"
                            : result.outcome == PN_OUTCOME_LOSS ? "loss"
                                                                : "draw";
        printf("value: %s for the %s\n", value, player[board.moves & 1]);
        uint32_t line[WIDTH * HEIGHT];
        size_t length = 0, i;
        /* The winner's shortest win (or the loser's longest resistance, or a drawing line). */
        uint32_t attacker = result.outcome == PN_OUTCOME_LOSS ? (uint32_t)((board.moves & 1) ^ 1)
                                                              : (uint32_t)(board.moves & 1);
        if (result.has_best_move) printf("best move: column %u\n", (unsigned)result.best_move + 1);
        status = pn_principal_variation(solver, &game, attacker, &limits, line,
                                        WIDTH * HEIGHT, &length);
        printf("line:");
        for (i = 0; i < length; i++) printf(" %u", (unsigned)line[i] + 1);
        printf("%s\n", status == PN_STATUS_OK ? "" : " ...");
        status = PN_STATUS_OK;
    } else {
        printf("value: unknown (%s)\n", pn_status_str(status));
    }
    printf("positions: %llu, table hits: %llu of %llu probes\n",
           (unsigned long long)result.stats.nodes, (unsigned long long)result.stats.table_hits,
           (unsigned long long)result.stats.table_probes);
    return status == PN_STATUS_OK || status == PN_STATUS_NODE_LIMIT ? 0 : 1;
}
