/*
 * Error messages: every failure the status alone leaves vague is said in words that name the
 * field, argument or callback, with its value. pn_config_error for configurations (there is
 * no solver yet to keep a message), pn_solver_last_error for every call on a solver. Each
 * check looks at the words, not just at a non-empty string.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games.h"

/* The message text contains `part`; prints the message when it does not. */
static int has(const char *message, const char *part) {
    if (strstr(message, part) != NULL) return 1;
    fprintf(stderr, "    message \"%s\" lacks \"%s\"\n", message, part);
    return 0;
}

/* pn_config_error's message for `c` (into a static buffer). */
static const char *config_message(const pn_config *c) {
    static char buf[PN_ERROR_CAPACITY];
    size_t n = pn_config_error(c, buf, sizeof buf);
    CHECK(n == strlen(buf));
    return buf;
}

/* The solver's last error (into a static buffer). */
static const char *last_error(const pn_solver *s) {
    static char buf[PN_ERROR_CAPACITY];
    size_t n = pn_solver_last_error(s, buf, sizeof buf);
    CHECK(n == strlen(buf));
    return buf;
}

static void test_config_messages(void) {
    size_t bytes = 0, align = 0;
    pn_config c = default_config();
    CHECK(pn_config_error(&c, NULL, 0) == 0);
    CHECK(strcmp(config_message(&c), "") == 0);

    /* The examples: a 10-byte table, a zero denominator of epsilon, max_moves 0. */
    c.table_bytes = 10;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(config_message(&c), "config.table_bytes is 10"));
    CHECK(has(config_message(&c), "at least 191"));

    c = default_config();
    c.epsilon_denominator = 0;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(config_message(&c), "config.epsilon_denominator is 0"));

    c = default_config();
    c.max_moves = 0;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(config_message(&c), "config.max_moves is 0; expected 1 to "));

    c = default_config();
    c.max_depth = 70000;
    CHECK(has(config_message(&c), "config.max_depth is 70000; expected 1 to 65534"));

    c = default_config();
    c.threads = PN_MAX_THREADS + 1;
    CHECK(has(config_message(&c), "config.threads is 1025"));

    c = default_config();
    c.engine = 9;
    CHECK(has(config_message(&c), "config.engine is 9"));

    c = default_config();
    c.confirm = 2;
    CHECK(has(config_message(&c), "config.confirm is 2"));

    c = default_config();
    c.struct_size = 12;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_BAD_STRUCT_SIZE);
    CHECK(has(config_message(&c), "config->struct_size is 12; expected"));

    CHECK(has(config_message(NULL), "config is NULL"));

    /* snprintf's contract: the whole length returned, the text cut to the buffer, NUL ended. */
    {
        char small[8];
        size_t whole;
        c = default_config();
        c.max_moves = 0;
        whole = pn_config_error(&c, NULL, 0);
        CHECK(whole > sizeof small);
        memset(small, 'x', sizeof small);
        CHECK(pn_config_error(&c, small, sizeof small) == whole);
        CHECK(strcmp(small, "config.") == 0);
        CHECK(whole < PN_ERROR_CAPACITY);
    }
}

static int fails_play(void *ctx, uint32_t mv) {
    (void)ctx;
    (void)mv;
    return 7;
}

static int side_five(void *ctx, uint32_t *out_side) {
    (void)ctx;
    *out_side = 5;
    return 0;
}

static int writes_no_count(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    (void)ctx;
    (void)moves;
    (void)cap;
    (void)out_n;
    return 0;
}

static uint64_t a_clock(void *ctx) {
    (void)ctx;
    return 0;
}

static void test_solver_messages(void) {
    pn_config c = default_config();
    size_t bytes = 0, align = 0;
    void *memory;
    pn_solver *solver = NULL;
    ttt_t g;
    pn_game game;
    pn_limits limits = pn_limits_default();
    pn_result r;
    char buf[PN_ERROR_CAPACITY];

    c.table_bytes = 64 * 1024;
    c.verify_memo_entries = 256;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    memory = malloc(bytes);
    CHECK(memory != NULL);
    CHECK_STATUS(pn_solver_init(memory, bytes, &c, &solver), PN_STATUS_OK);
    CHECK(pn_solver_last_error(solver, NULL, 0) == 0);
    CHECK(strcmp(last_error(solver), "") == 0);

    memset(&g, 0, sizeof g);
    game = ttt_game(&g);
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;

    /* The examples: an attacker of 5, a time limit without a clock. */
    CHECK_STATUS(pn_solve(solver, &game, 5, NULL, &r), PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(last_error(solver), "attacker is 5; expected 0 (PN_SIDE_FIRST) or 1"));

    limits.max_time_us = 1000;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, &limits, &r),
                 PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(last_error(solver), "limits->max_time_us is 1000"));
    CHECK(has(last_error(solver), "limits->clock is NULL"));

    /* A success clears the message. */
    limits.clock = a_clock;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, &limits, &r), PN_STATUS_OK);
    CHECK(strcmp(last_error(solver), "") == 0);
    limits = pn_limits_default();

    /* Broken callbacks, by name and by what they returned or wrote. */
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    game.play = fails_play;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_CALLBACK_FAILED);
    CHECK(has(last_error(solver), "callback play returned 7 for move 0"));

    game = ttt_game(&g);
    game.side_to_move = side_five;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_CALLBACK_INVALID);
    CHECK(has(last_error(solver), "callback side_to_move wrote 5; expected 0"));

    game = ttt_game(&g);
    game.generate_moves = writes_no_count;
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_CALLBACK_INVALID);
    CHECK(has(last_error(solver), "callback generate_moves returned 0 but wrote nothing"));

    game = ttt_game(&g);
    game.hash = NULL;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_MISSING_CALLBACK);
    CHECK(has(last_error(solver), "game->hash is NULL"));

    game = ttt_game(&g);
    game.repetition_rule = 9;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(last_error(solver), "game->repetition_rule is 9"));

    game = ttt_game(&g);
    game.struct_size = 3;
    CHECK_STATUS(pn_solve(solver, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_BAD_STRUCT_SIZE);
    CHECK(has(last_error(solver), "game->struct_size is 3"));

    CHECK_STATUS(pn_solve(solver, NULL, PN_SIDE_FIRST, NULL, &r), PN_STATUS_NULL_POINTER);
    CHECK(has(last_error(solver), "game is NULL"));

    game = ttt_game(&g);
    CHECK_STATUS(pn_verify(solver, &game, PN_SIDE_FIRST, 1, NULL, &r),
                 PN_STATUS_INVALID_ARGUMENT);
    CHECK(has(last_error(solver), "claim is 1"));

    /* A limit hit, with its value. */
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    limits.max_nodes = 3;
    CHECK_STATUS(pn_solve_value(solver, &game, &limits, &r), PN_STATUS_NODE_LIMIT);
    CHECK(has(last_error(solver), "limits->max_nodes is 3"));

    /* Tables: bytes that are not a table, and a buffer too small to save into. */
    {
        unsigned char ten[10] = {0};
        unsigned char *small = (unsigned char *)malloc(100);
        size_t written = 0;
        CHECK_STATUS(pn_table_load(solver, ten, sizeof ten), PN_STATUS_TABLE_TRUNCATED);
        CHECK(has(last_error(solver), "the 10 saved bytes are too few"));
        CHECK(small != NULL);
        memset(small, 'x', 100);
        CHECK_STATUS(pn_table_load(solver, small, 100), PN_STATUS_TABLE_BAD_MAGIC);
        CHECK(has(last_error(solver), "the 100 saved bytes do not begin with a proofnum table"));
        CHECK_STATUS(pn_table_save(solver, small, 100, &written), PN_STATUS_BUFFER_TOO_SMALL);
        CHECK(has(last_error(solver), "buffer of 100 bytes; the table needs "));
        free(small);
    }

    /* Calls that never had the solver leave its message alone, and say what is wrong with
     * the pointer when asked about it. */
    CHECK_STATUS(pn_solve(NULL, &game, PN_SIDE_FIRST, NULL, &r), PN_STATUS_NULL_POINTER);
    CHECK(has(last_error(solver), "buffer of 100 bytes"));
    CHECK(pn_solver_last_error(NULL, buf, sizeof buf) > 0);
    CHECK(has(buf, "solver"));
    CHECK(has(buf, "NULL"));
    free(memory);
}

int main(void) {
    /* run.sh builds the library with its messages (the `messages` feature). */
    CHECK((pn_features() & PN_FEATURE_MESSAGES) != 0);
    test_config_messages();
    test_solver_messages();
    return finish("ffi-tests/test_errors");
}
