/* proofnum on a microcontroller: tic-tac-toe solved by the C ABI's static library in a static
 * buffer, on a Cortex-M4 (thumbv7em-none-eabihf) without an operating system or C library.
 * Output and exit go through semihosting (QEMU's mps2-an386 machine runs it; so does a
 * debugger on a real board). examples/embedded/build.sh builds it, runs it and prints its
 * flash and RAM (the guide's "Embedded" chapter).
 *
 * It solves the empty board and the position after X takes a corner and O an edge next to it,
 * and fails unless the values are the known ones: a draw, and a win for X (tic-tac-toe's
 * classics, also checked by minimax in ffi-tests/test_c.c). */
#include <stddef.h>
#include <stdint.h>

#include "proofnum.h"
#include "semihosting.h"

/* The solver's memory, all of it: a 4 KiB transposition table (256 entries; the table is
 * lossy, so any size gives the right answer, more only saves work), the search stack for 9
 * plies of up to 9 moves, and the move buffer. main checks that it is large enough. */
#define TABLE_BYTES 4096u
#define SOLVER_MEMORY_BYTES 8688u
static uint64_t solver_memory[SOLVER_MEMORY_BYTES / 8];

/* The board as two 9-bit sets of cells (bit i: cell i, row by row), X moving first. */
typedef struct {
    uint16_t x, o;
    uint32_t moves;
} board_t;

static const uint16_t lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

static int side_to_move(void *ctx, uint32_t *out_side) {
    *out_side = ((const board_t *)ctx)->moves & 1u;
    return 0;
}

static int hash(void *ctx, uint64_t *out_hash) {
    const board_t *b = (const board_t *)ctx;
    *out_hash = (uint64_t)b->x << 9 | b->o; /* the side to move follows from the counts */
    return 0;
}

static int outcome(void *ctx, uint32_t *out_outcome) {
    const board_t *b = (const board_t *)ctx;
    uint16_t previous = (b->moves & 1u) ? b->x : b->o; /* the player who just moved */
    int i;
    *out_outcome = b->moves == 9 ? PN_OUTCOME_DRAW : PN_OUTCOME_UNKNOWN;
    for (i = 0; i < 8; i++) {
        if ((previous & lines[i]) == lines[i]) *out_outcome = PN_OUTCOME_LOSS;
    }
    return 0;
}

static int generate_moves(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    const board_t *b = (const board_t *)ctx;
    size_t n = 0;
    uint32_t cell;
    for (cell = 0; cell < 9; cell++) {
        if (!((b->x | b->o) >> cell & 1u)) {
            if (n < cap) moves[n] = cell;
            n++;
        }
    }
    *out_n = n;
    return 0;
}

static int play(void *ctx, uint32_t cell) {
    board_t *b = (board_t *)ctx;
    uint16_t *mine = (b->moves & 1u) ? &b->o : &b->x;
    *mine = (uint16_t)(*mine | 1u << cell);
    b->moves++;
    return 0;
}

static int undo(void *ctx, uint32_t cell) {
    board_t *b = (board_t *)ctx;
    b->moves--;
    if (b->moves & 1u) {
        b->o = (uint16_t)(b->o & ~(1u << cell));
    } else {
        b->x = (uint16_t)(b->x & ~(1u << cell));
    }
    return 0;
}

/* SysTick, the Cortex-M core's 24-bit down-counter, on the processor clock: the time of a
 * search in clock cycles (under QEMU with -icount shift=0, one tick per 40 instructions). */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

/* Solves the board and checks its value; returns 1 when it is `expected`. */
static int check(pn_solver *solver, board_t *board, const char *name, uint32_t expected) {
    static const char *const names[] = {"unknown", "win", "loss", "draw"};
    const pn_game game = {
        .struct_size = sizeof(pn_game),
        .ctx = board,
        .side_to_move = side_to_move,
        .hash = hash,
        .outcome = outcome,
        .generate_moves = generate_moves,
        .play = play,
        .undo = undo,
        .repetition_rule = PN_REPETITION_ACYCLIC,
    };
    pn_result result = {.struct_size = sizeof(pn_result)};
    uint32_t start = SYST_CVR, ticks;
    pn_status status = pn_solve_value(solver, &game, NULL, &result);
    ticks = (start - SYST_CVR) & 0xFFFFFFu;
    semihosting_write(name);
    if (status != PN_STATUS_OK) {
        semihosting_write(": ");
        semihosting_write(pn_status_str(status));
        semihosting_write("\n");
        return 0;
    }
    semihosting_write(": ");
    semihosting_write(result.outcome <= 3 ? names[result.outcome] : "?");
    semihosting_write(" for the side to move (");
    semihosting_write_number((uint32_t)result.stats.mid_calls);
    semihosting_write(" MID calls, ");
    semihosting_write_number(ticks);
    semihosting_write(" SysTick ticks)");
    semihosting_write(result.outcome == expected ? "\n" : "  <-- wrong\n");
    return result.outcome == expected;
}

extern const uint32_t stack_paint;
extern uint32_t _stack_limit[];

int main(void) {
    pn_config config = {.struct_size = sizeof(pn_config)};
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    board_t empty = {.moves = 0};
    board_t corner_edge = {.x = 1u << 0, .o = 1u << 1, .moves = 2};
    const volatile uint32_t *word = _stack_limit;
    int right;

    SYST_RVR = 0xFFFFFFu; /* the longest period; a search must take fewer ticks */
    SYST_CVR = 0;
    SYST_CSR = 5u; /* on, processor clock, no interrupt */
    if (pn_config_init(&config) != PN_STATUS_OK) return 1; /* the defaults */
    config.table_bytes = TABLE_BYTES;
    config.verify_memo_entries = 0;
    config.max_depth = 9;
    config.max_moves = 9;
    if (pn_solver_memory_requirements(&config, &bytes, &align) != PN_STATUS_OK ||
        bytes > sizeof solver_memory ||
        pn_solver_init(solver_memory, sizeof solver_memory, &config, &solver) != PN_STATUS_OK) {
        semihosting_write("the solver needs ");
        semihosting_write_number((uint32_t)bytes);
        semihosting_write(" bytes\n");
        return 1;
    }
    semihosting_write("proofnum ");
    semihosting_write(pn_version_string());
    semihosting_write(" on a Cortex-M4: solver memory ");
    semihosting_write_number((uint32_t)bytes);
    semihosting_write(" bytes of a static ");
    semihosting_write_number((uint32_t)sizeof solver_memory);
    semihosting_write("\n");
    right = check(solver, &empty, "tic-tac-toe", PN_OUTCOME_DRAW);
    right &= check(solver, &corner_edge, "X corner, O edge next to it", PN_OUTCOME_WIN);
    while (*word == stack_paint) word++;
    semihosting_write("machine stack used: ");
    semihosting_write_number((uint32_t)((uintptr_t)_stack_limit + 16384u - (uintptr_t)word));
    semihosting_write(" bytes\n");
    semihosting_write(right ? "both values agree with the known ones\n" : "WRONG\n");
    return right ? 0 : 1;
}
