/*
 * The parallel calls under requests for more memory or threads than can be had: a
 * status, never an aborted process. Byte copies of 2^40 bytes used to abort in
 * the allocator, and `threads` had no upper bound. Built as C99 under ASan and UBSan like
 * test_c.c; run.sh sets ASAN_OPTIONS=allocator_may_return_null=1 so that ASan's allocator
 * answers such a request with NULL, as the system's does, instead of ending the program.
 * Oracle: tic-tac-toe is a draw (plain negamax over the whole game tree, games.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games.h"
#include "proofnum.h"

static pn_config parallel_config(uint32_t threads) {
    pn_config c = default_config();
    c.table_bytes = 1 << 16;
    c.max_depth = 16;
    c.max_moves = 9;
    c.threads = threads;
    return c;
}

static void test_copies_beyond_memory(void) {
    pn_config c = parallel_config(2);
    size_t bytes = 0, align = 0;
    void *memory;
    pn_solver *solver = NULL;
    ttt_t board;
    pn_game game;
    pn_result r;
    int value;

    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    memory = malloc(bytes);
    CHECK(memory != NULL);
    CHECK_STATUS(pn_solver_init(memory, bytes, &c, &solver), PN_STATUS_OK);
    memset(&board, 0, sizeof board);
    game = ttt_game(&board);
    /* A position is plain data, so it may be copied byte for byte; but not 2^40 bytes of it
     * (the copy fails to be allocated before the context is read). */
    game.copy_size = (size_t)1 << (sizeof(size_t) > 4 ? 40 : 30);
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), PN_STATUS_MEMORY_LIMIT);
    CHECK(board.to_move == 0 && board.cells[0] == 0); /* the position untouched */

    /* The solver is unharmed: with a copy of the right size it finds the oracle's draw. */
    game.copy_size = sizeof board;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    CHECK_STATUS(pn_solve_value_parallel(solver, &game, NULL, &r), PN_STATUS_OK);
    value = ttt_negamax(&board);
    CHECK(value == 0 && r.outcome == PN_OUTCOME_DRAW);
    free(memory);
}

static void test_thread_bound(void) {
    const uint32_t too_many[] = {PN_MAX_THREADS + 1, 1u << 22, UINT32_MAX};
    size_t bytes = 0, align = 0, i;
    pn_config c = parallel_config(PN_MAX_THREADS);
    static uint64_t memory[1 << 16];
    pn_solver *solver = NULL;

    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    for (i = 0; i < sizeof too_many / sizeof too_many[0]; i++) {
        c = parallel_config(too_many[i]);
        CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align),
                     PN_STATUS_INVALID_ARGUMENT);
        CHECK_STATUS(pn_solver_init(memory, sizeof memory, &c, &solver),
                     PN_STATUS_INVALID_ARGUMENT);
        CHECK(solver == NULL);
    }
}

int main(void) {
    if ((pn_features() & PN_FEATURE_PARALLEL) == 0) {
        /* Without the parallel calls there is nothing to allocate; the bound still holds. */
        test_thread_bound();
        return finish("test_resources");
    }
    test_copies_beyond_memory();
    test_thread_bound();
    return finish("test_resources");
}
