/*
 * Tables loaded from bytes the solver did not write, from C under ASan
 * and UBSan:
 * - forged entries, rewritten to claim "the side to move wins" with valid checks (the check
 *   is no secret: this file recomputes it), used to make pn_solve_value answer "win" for
 *   drawn tic-tac-toe; every answer must now agree with the negamax oracle;
 * - random bit flips in a saved table used to change distances and best moves (the check
 *   covered 96 of an entry's 128 bits); now values, winning moves and distances must all be
 *   possible ones.
 * The oracle is plain negamax over the whole tic-tac-toe tree (games.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games.h"
#include "proofnum.h"

/* ---- The saved table's entry layout (version 4), as src/table/entry.rs documents it ---- */

enum { HEADER_BYTES = 64, ENTRY_BYTES = 16 };
/* The table size of the solver whose table is saved. */
enum { SAVED_TABLE_BYTES = 1 << 16 };

/* The splitmix64 finaliser. */
static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* What the check is XOR-ed with in the key word's low half. */
static uint32_t check_mask(uint64_t data_word, uint32_t meta) {
    return (uint32_t)mix64(data_word ^ (uint64_t)meta * 0x9E3779B97F4A7C15ull);
}

/* An entry's two native-endian words: key word, then data word. */
static void read_entry(const unsigned char *at, uint64_t *key_word, uint64_t *data_word) {
    memcpy(key_word, at, 8);
    memcpy(data_word, at + 8, 8);
}

/* Rewrites the entry at `at` to hold `phi`, `delta`, keeping its check and meta (best child,
 * work, generation, distance) and recomputing the key word: what a forger can do. */
static void forge_entry(unsigned char *at, uint32_t phi, uint32_t delta) {
    uint64_t key_word, data_word, forged_data;
    uint32_t meta, check;
    read_entry(at, &key_word, &data_word);
    meta = (uint32_t)(key_word >> 32);
    check = (uint32_t)key_word ^ check_mask(data_word, meta);
    forged_data = (uint64_t)phi | (uint64_t)delta << 32;
    key_word = (uint64_t)(check ^ check_mask(forged_data, meta)) | (uint64_t)meta << 32;
    memcpy(at, &key_word, 8);
    memcpy(at + 8, &forged_data, 8);
}

static int entry_is_empty(const unsigned char *at) {
    uint64_t key_word, data_word;
    read_entry(at, &key_word, &data_word);
    return data_word == 0;
}

/* ---- Positions and the solver ---- */

/* Reachable positions: X moves first; '.' empty. Values by negamax: draws, wins, a loss. */
static const char *const POSITIONS[] = {
    ".........", "....X....", "X...O....", "XO.......", "XX.OO....",
    "XOXOXO...", "X.O.X.O..", "XO..X....", "OX..X...."};
enum { N_POSITIONS = sizeof POSITIONS / sizeof POSITIONS[0] };

static ttt_t board_of(const char *cells) {
    ttt_t g;
    int i, x = 0, o = 0;
    memset(&g, 0, sizeof g);
    for (i = 0; i < 9; i++) {
        if (cells[i] == 'X') g.cells[i] = 1, x++;
        if (cells[i] == 'O') g.cells[i] = 2, o++;
    }
    g.to_move = x > o ? 1u : 0u;
    return g;
}

static int empty_cells(const ttt_t *g) {
    int i, n = 0;
    for (i = 0; i < 9; i++) n += g->cells[i] == 0;
    return n;
}

static pn_solver *new_solver(size_t table_bytes, void **memory) {
    pn_config c = default_config();
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    c.table_bytes = table_bytes;
    c.max_depth = 16;
    c.max_moves = 9;
    c.verify_memo_entries = 1024;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    *memory = malloc(bytes);
    CHECK(*memory != NULL);
    CHECK_STATUS(pn_solver_init(*memory, bytes, &c, &solver), PN_STATUS_OK);
    return solver;
}

static pn_result fresh(void) {
    pn_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

/* The table after solving every position (values and both sides' pn_solve) from scratch. */
static unsigned char *solved_table(size_t *length) {
    void *memory;
    pn_solver *solver = new_solver(SAVED_TABLE_BYTES, &memory);
    pn_table_info info;
    unsigned char *saved;
    int i;
    uint32_t side;
    for (i = 0; i < N_POSITIONS; i++) {
        ttt_t g = board_of(POSITIONS[i]);
        pn_game game = ttt_game(&g);
        pn_result r = fresh();
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        for (side = 0; side < 2; side++) {
            r = fresh();
            CHECK_STATUS(pn_solve(solver, &game, side, NULL, &r), PN_STATUS_OK);
        }
    }
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK_STATUS(pn_table_get_info(solver, &info), PN_STATUS_OK);
    saved = (unsigned char *)malloc(info.saved_bytes);
    CHECK(saved != NULL);
    CHECK_STATUS(pn_table_save(solver, saved, info.saved_bytes, length), PN_STATUS_OK);
    free(memory);
    return saved;
}

/* Every answer over a table loaded from `bytes` agrees with negamax: values, pn_solve for
 * both sides, winning moves that win, distances within the moves left with the winner
 * moving last. Returns the number of answers checked (0 if the table was refused). */
static int check_answers(const unsigned char *bytes, size_t length) {
    void *memory;
    /* Room for the saved table whatever the alignment of this memory (a smaller saved table
     * is used at its own size). */
    pn_solver *solver = new_solver(2 * SAVED_TABLE_BYTES, &memory);
    int i, checked = 0;
    uint32_t side;
    if (pn_table_load(solver, bytes, length) != PN_STATUS_OK) {
        free(memory);
        return 0;
    }
    for (i = 0; i < N_POSITIONS; i++) {
        ttt_t g = board_of(POSITIONS[i]);
        pn_game game = ttt_game(&g);
        int value = ttt_negamax(&g);
        uint32_t want = value > 0 ? PN_OUTCOME_WIN : value < 0 ? PN_OUTCOME_LOSS : PN_OUTCOME_DRAW;
        pn_result r = fresh();
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == want);
        if (r.outcome != want) fprintf(stderr, "    position %s\n", POSITIONS[i]);
        if (value > 0 && r.has_best_move) {
            /* The winning move wins: the opponent then loses. */
            CHECK(ttt_play(&g, r.best_move) == 0 && ttt_negamax(&g) == -1);
            ttt_undo(&g, r.best_move);
        }
        checked++;
        for (side = 0; side < 2; side++) {
            int wins = (side == g.to_move) ? value > 0 : value < 0;
            int plies = empty_cells(&g);
            r = fresh();
            CHECK_STATUS(pn_solve(solver, &game, side, NULL, &r), PN_STATUS_OK);
            CHECK(r.outcome == (uint32_t)(wins ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN));
            if (wins) {
                /* A win ends within the moves left, the winner making the last move. */
                CHECK((int)r.distance <= plies);
                CHECK((r.distance % 2 == 1) == (side == g.to_move));
                if (side == g.to_move) {
                    CHECK(r.has_best_move && ttt_play(&g, r.best_move) == 0);
                    CHECK(ttt_negamax(&g) == -1);
                    ttt_undo(&g, r.best_move);
                }
            }
            checked++;
        }
        {
            ttt_t before = board_of(POSITIONS[i]);
            CHECK(memcmp(&g, &before, sizeof g) == 0); /* every call restored the position */
        }
    }
    free(memory);
    return checked;
}

static void test_forged_entries(const unsigned char *clean, size_t length) {
    unsigned char *forged = (unsigned char *)malloc(length);
    size_t at;
    int entries = 0;
    CHECK(forged != NULL);
    memcpy(forged, clean, length);
    for (at = HEADER_BYTES; at + ENTRY_BYTES <= length; at += ENTRY_BYTES) {
        if (entry_is_empty(forged + at)) continue;
        forge_entry(forged + at, 0, UINT32_MAX); /* "the side to move wins" */
        entries++;
    }
    CHECK(entries > 0);
    CHECK(check_answers(forged, length) == 3 * N_POSITIONS);
    printf("forged table: %d entries claiming wins, every answer agrees with negamax\n", entries);
    free(forged);
}

static void test_random_flips(const unsigned char *clean, size_t length) {
    unsigned char *damaged = (unsigned char *)malloc(length);
    size_t *at = (size_t *)malloc(length / ENTRY_BYTES * sizeof *at);
    size_t n = 0, i;
    uint64_t state = 0x243F6A8885A308D3ull;
    int trial, flips;
    CHECK(damaged != NULL && at != NULL);
    for (i = HEADER_BYTES; i + ENTRY_BYTES <= length; i += ENTRY_BYTES) {
        if (!entry_is_empty(clean + i)) at[n++] = i;
    }
    for (trial = 0; trial < 300; trial++) {
        memcpy(damaged, clean, length);
        for (flips = 0; flips <= trial % 4; flips++) {
            uint64_t r;
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            r = state >> 16;
            damaged[at[(r >> 8) % n] + (r % 128) / 8] ^= (unsigned char)(1u << (r % 8));
        }
        CHECK(check_answers(damaged, length) == 3 * N_POSITIONS);
    }
    printf("300 tables with 1 to 4 flipped entry bits: every answer agrees with negamax\n");
    free(at);
    free(damaged);
}

int main(void) {
    size_t length = 0;
    unsigned char *clean = solved_table(&length);
    CHECK(length > HEADER_BYTES);
    CHECK(check_answers(clean, length) == 3 * N_POSITIONS);
    test_forged_entries(clean, length);
    test_random_flips(clean, length);
    free(clean);
    return finish("test_loaded_table");
}
