/*
 * Trust through the C ABI, under ASan and UBSan (run.sh):
 * - the "two doors" game (as tests/common/doors.rs builds it in Rust), whose positions P and
 *   Q get equal hashes while its exact encoding tells them apart: every unconfirmed answer is
 *   wrong (asserted, so the test bites), and with the default configuration the answer is
 *   PN_STATUS_UNCONFIRMED, never wrong: df-pn, PNS, PN2, pn_solve_value and the parallel calls;
 * - certificates of tic-tac-toe written through a sink (pn_certify) and checked by
 *   pn_certificate_check, the known values from games.h's negamax; spoiled certificates (a
 *   truncated buffer, a changed byte, a wrong move, another game, another position) rejected
 *   with their reasons; a sink that refuses bytes gives PN_STATUS_OUTPUT_FAILED; an encode
 *   callback reporting an over-long encoding gives PN_STATUS_CALLBACK_INVALID;
 * - default configurations confirm (the statistics count the confirming walk's positions).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games.h"
#include "proofnum.h"

static pn_result fresh(void) {
    pn_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

static pn_solver *new_solver(pn_config c, void **memory) {
    size_t bytes = 0, align = 0;
    pn_solver *solver = NULL;
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_OK);
    *memory = malloc(bytes);
    CHECK(*memory != NULL);
    CHECK_STATUS(pn_solver_init(*memory, bytes, &c, &solver), PN_STATUS_OK);
    return solver;
}

static pn_config config_of(size_t table_bytes, uint32_t engine, size_t confirm) {
    pn_config c = default_config();
    c.table_bytes = table_bytes;
    c.max_depth = 16;
    c.max_moves = 9;
    c.verify_memo_entries = 1024;
    c.engine = engine;
    c.arena_nodes = engine == PN_ENGINE_DFPN ? 0 : 4096;
    c.second_level_nodes = engine == PN_ENGINE_PN2 ? 64 : 0;
    c.threads = 2;
    c.confirm = confirm;
    return c;
}

static int parallel_available(void) { return (pn_features() & PN_FEATURE_PARALLEL) != 0; }

/* ---- The two doors ---- */

/* The attacker (the first player) opens door A or B; behind each the defender has one move,
 * to P (behind A) or Q (behind B), where the attacker has one move: from P to a loss, from Q
 * to a win. So the attacker wins, through B. A search tries A first and stores P as lost; when
 * P and Q collide in the table, Q reads P's entry and the root comes out disproven: wrong. */
enum door { ROOT, DOOR_A, DOOR_B, P, Q, LOST, WON };

typedef struct {
    uint32_t at;
    uint32_t long_encoding; /* report PN_ENCODING_CAPACITY + 1 bytes */
    uint64_t hash_p, hash_q;
} doors_t;

static const uint32_t PARENT[7] = {ROOT, ROOT, ROOT, DOOR_A, DOOR_B, P, Q};

static int doors_side(void *ctx, uint32_t *out) {
    uint32_t at = ((const doors_t *)ctx)->at;
    *out = (at == ROOT || at == P || at == Q) ? 0u : 1u;
    return 0;
}

static int doors_hash(void *ctx, uint64_t *out) {
    const doors_t *d = (const doors_t *)ctx;
    *out = d->at == P ? d->hash_p : d->at == Q ? d->hash_q : 0x5EED0000u + d->at;
    return 0;
}

static int doors_outcome(void *ctx, uint32_t *out) {
    uint32_t at = ((const doors_t *)ctx)->at;
    /* The defender is to move at LOST (it has won) and at WON (it has lost). */
    *out = at == LOST ? PN_OUTCOME_WIN : at == WON ? PN_OUTCOME_LOSS : PN_OUTCOME_UNKNOWN;
    return 0;
}

static int doors_generate(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    uint32_t at = ((const doors_t *)ctx)->at, to[2];
    size_t n = 0, i;
    switch (at) {
    case ROOT: to[n++] = DOOR_A; to[n++] = DOOR_B; break;
    case DOOR_A: to[n++] = P; break;
    case DOOR_B: to[n++] = Q; break;
    case P: to[n++] = LOST; break;
    case Q: to[n++] = WON; break;
    default: break;
    }
    for (i = 0; i < n && i < cap; i++) moves[i] = to[i];
    *out_n = n;
    return 0;
}

static int doors_play(void *ctx, uint32_t mv) {
    doors_t *d = (doors_t *)ctx;
    if (mv > WON || mv == ROOT || PARENT[mv] != d->at) return 1;
    d->at = mv;
    return 0;
}

static int doors_undo(void *ctx, uint32_t mv) {
    doors_t *d = (doors_t *)ctx;
    if (mv != d->at || mv == ROOT) return 1;
    d->at = PARENT[mv];
    return 0;
}

/* The exact encoding: the position's number, one byte. */
static int doors_encode(void *ctx, uint8_t *out, size_t cap, size_t *out_length) {
    const doors_t *d = (const doors_t *)ctx;
    if (cap < 1) return 1;
    out[0] = (uint8_t)d->at;
    *out_length = d->long_encoding ? PN_ENCODING_CAPACITY + 1 : 1;
    return 0;
}

static pn_game doors_game(doors_t *d) {
    pn_game g = game_table(d);
    g.side_to_move = doors_side;
    g.hash = doors_hash;
    g.outcome = doors_outcome;
    g.generate_moves = doors_generate;
    g.play = doors_play;
    g.undo = doors_undo;
    g.encode = doors_encode;
    g.copy_size = sizeof *d; /* plain data: the parallel calls copy it byte for byte */
    g.repetition_rule = PN_REPETITION_ACYCLIC;
    return g;
}

static doors_t doors(uint64_t hash_p, uint64_t hash_q) {
    doors_t d;
    memset(&d, 0, sizeof d);
    d.at = ROOT;
    d.hash_p = hash_p;
    d.hash_q = hash_q;
    return d;
}

#define SAME 0xC0FFEE0012345678ull

/* One engine and table size: colliding, the unconfirmed answers are wrong and the confirmed
 * ones unknown; told apart, every answer is right. Every search starts from an empty table:
 * the positions before the doors hash the same in both games, so a table that proved the
 * root of the game told apart would answer the colliding one from that entry (rightly, once
 * the walk confirmed it). */
static void check_doors(size_t table_bytes, uint32_t engine) {
    void *m_off, *m_on;
    pn_solver *off = new_solver(config_of(table_bytes, engine, PN_CONFIRM_OFF), &m_off);
    pn_solver *on = new_solver(config_of(table_bytes, engine, PN_CONFIRM), &m_on);
    doors_t apart = doors(1, 2), same = doors(SAME, SAME);
    pn_game g_apart = doors_game(&apart), g_same = doors_game(&same);
    pn_result r;

    /* Unconfirmed: the collision bites. */
    r = fresh();
    CHECK_STATUS(pn_solve(off, &g_same, 0, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DISPROVEN); /* wrong: the attacker wins through B */
    CHECK(r.stats.confirm_nodes == 0);
    CHECK_STATUS(pn_table_clear(off), PN_STATUS_OK);
    r = fresh();
    CHECK_STATUS(pn_solve_value(off, &g_same, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome != PN_OUTCOME_WIN); /* wrong: the side to move wins */

    /* Confirmed (the default): never wrong. */
    r = fresh();
    CHECK_STATUS(pn_solve(on, &g_same, 0, NULL, &r), PN_STATUS_UNCONFIRMED);
    CHECK(r.status == PN_STATUS_UNCONFIRMED && r.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(r.stats.refutations > 0 && r.stats.confirm_nodes > 0);
    CHECK_STATUS(pn_table_clear(on), PN_STATUS_OK);
    r = fresh();
    CHECK_STATUS(pn_solve_value(on, &g_same, NULL, &r), PN_STATUS_UNCONFIRMED);
    CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
    CHECK(same.at == ROOT);

    /* Told apart: right, and confirmed. */
    CHECK_STATUS(pn_table_clear(on), PN_STATUS_OK);
    r = fresh();
    CHECK_STATUS(pn_solve(on, &g_apart, 0, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_PROVEN && r.has_best_move && r.best_move == DOOR_B);
    CHECK(r.stats.confirm_nodes > 0 && r.stats.refutations == 0);

    if (parallel_available()) {
        /* The parallel calls (two threads), whatever the engine. */
        CHECK_STATUS(pn_table_clear(off), PN_STATUS_OK);
        r = fresh();
        CHECK_STATUS(pn_solve_parallel(off, &g_same, 0, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == PN_OUTCOME_DISPROVEN); /* wrong */
        CHECK_STATUS(pn_table_clear(on), PN_STATUS_OK);
        r = fresh();
        CHECK_STATUS(pn_solve_parallel(on, &g_same, 0, NULL, &r), PN_STATUS_UNCONFIRMED);
        CHECK(r.outcome == PN_OUTCOME_UNKNOWN && r.stats.refutations > 0);
        CHECK_STATUS(pn_table_clear(on), PN_STATUS_OK);
        r = fresh();
        CHECK_STATUS(pn_solve_value_parallel(on, &g_same, NULL, &r), PN_STATUS_UNCONFIRMED);
        CHECK_STATUS(pn_table_clear(on), PN_STATUS_OK);
        r = fresh();
        CHECK_STATUS(pn_solve_parallel(on, &g_apart, 0, NULL, &r), PN_STATUS_OK);
        CHECK(r.outcome == PN_OUTCOME_PROVEN && r.best_move == DOOR_B);
    }
    free(m_off);
    free(m_on);
}

static void test_two_doors(void) {
    static const size_t TABLES[2] = {64 * 1024, 1 << 20};
    size_t t;
    for (t = 0; t < 2; t++) {
        check_doors(TABLES[t], PN_ENGINE_DFPN);
        if (pn_features() & PN_FEATURE_PNS) {
            check_doors(TABLES[t], PN_ENGINE_PNS);
            check_doors(TABLES[t], PN_ENGINE_PN2);
        }
    }
    printf("two doors with equal hashes: every unconfirmed answer wrong, every confirmed one "
           "UNCONFIRMED\n");
}

/* A table loaded from outside is confirmed even when the caller opted out. */
static void test_loaded_tables_are_confirmed_even_when_opted_out(void) {
    void *m1, *m2;
    pn_solver *off = new_solver(config_of(64 * 1024, PN_ENGINE_DFPN, PN_CONFIRM_OFF), &m1);
    pn_solver *writer = new_solver(config_of(64 * 1024, PN_ENGINE_DFPN, PN_CONFIRM_OFF), &m2);
    doors_t d = doors(1, 2);
    pn_game g = doors_game(&d);
    pn_result r = fresh();
    pn_table_info info;
    unsigned char *saved;
    size_t length = 0;
    CHECK_STATUS(pn_solve(writer, &g, 0, NULL, &r), PN_STATUS_OK);
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK_STATUS(pn_table_get_info(writer, &info), PN_STATUS_OK);
    saved = (unsigned char *)malloc(info.saved_bytes);
    CHECK(saved != NULL);
    CHECK_STATUS(pn_table_save(writer, saved, info.saved_bytes, &length), PN_STATUS_OK);
    CHECK_STATUS(pn_table_load(off, saved, length), PN_STATUS_OK);
    r = fresh();
    CHECK_STATUS(pn_solve(off, &g, 0, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_PROVEN && r.stats.confirm_nodes > 0);
    /* Cleared, the table holds only what this solver stores: the opt-out applies again. */
    CHECK_STATUS(pn_table_clear(off), PN_STATUS_OK);
    r = fresh();
    CHECK_STATUS(pn_solve(off, &g, 0, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_PROVEN && r.stats.confirm_nodes == 0);
    free(saved);
    free(m1);
    free(m2);
}

static void test_default_configs_confirm(void) {
    pn_config c = default_config();
    void *m;
    pn_solver *solver;
    ttt_t g;
    pn_game game = ttt_game(&g);
    pn_result r = fresh();
    size_t bytes = 0, align = 0;
    CHECK(c.confirm == PN_CONFIRM);
    c.table_bytes = 64 * 1024;
    solver = new_solver(c, &m);
    memset(&g, 0, sizeof g);
    CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
    CHECK(r.outcome == PN_OUTCOME_DRAW && r.stats.confirm_nodes > 0 && r.stats.refutations == 0);
    free(m);
    c.confirm = 2; /* neither on nor off */
    CHECK_STATUS(pn_solver_memory_requirements(&c, &bytes, &align), PN_STATUS_INVALID_ARGUMENT);
}

/* ---- Certificates of tic-tac-toe ---- */

static const char TTT[] = "tic-tac-toe";

/* The exact encoding: the nine cells and the side to move. */
static int ttt_encode(void *ctx, uint8_t *out, size_t cap, size_t *out_length) {
    const ttt_t *g = (const ttt_t *)ctx;
    if (cap < 10) return 1;
    memcpy(out, g->cells, 9);
    out[9] = (uint8_t)g->to_move;
    *out_length = 10;
    return 0;
}

static pn_game ttt_encoded(ttt_t *g) {
    pn_game game = ttt_game(g);
    game.encode = ttt_encode;
    return game;
}

/* A growing byte buffer as the sink's context; `refuse_from` refuses once it holds that
 * many bytes (0: never). */
typedef struct {
    unsigned char *bytes;
    size_t length, capacity, refuse_from;
    int calls;
} buffer_t;

static int buffer_sink(void *ctx, const uint8_t *bytes, size_t length) {
    buffer_t *b = (buffer_t *)ctx;
    b->calls++;
    if (length == 0) return 2; /* never called with nothing */
    if (b->refuse_from != 0 && b->length + length > b->refuse_from) return 1;
    if (b->length + length > b->capacity) {
        size_t capacity = 2 * (b->length + length);
        unsigned char *grown = (unsigned char *)realloc(b->bytes, capacity);
        if (grown == NULL) return 1;
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
    return 0;
}

static buffer_t empty_buffer(void) {
    buffer_t b;
    memset(&b, 0, sizeof b);
    return b;
}

static pn_status certify(pn_solver *solver, pn_game *game, uint32_t attacker, uint32_t claim,
                         buffer_t *out, pn_result *r) {
    *r = fresh();
    return pn_certify(solver, game, attacker, claim, TTT, strlen(TTT), buffer_sink, out, NULL, r);
}

typedef struct {
    pn_status status;
    pn_check_report report;
    uint64_t line[16];
    char message[256];
} checked_t;

static checked_t check_certificate(const pn_game *game, const char *name,
                                   const unsigned char *bytes, size_t length) {
    checked_t c;
    memset(&c, 0, sizeof c);
    c.report.struct_size = sizeof c.report;
    c.status = pn_certificate_check(game, name, strlen(name), bytes, length, NULL, c.line, 16,
                                    c.message, sizeof c.message, &c.report);
    return c;
}

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

/* Reachable positions; their values come from games.h's negamax. */
static const char *const POSITIONS[] = {".........", "XO.......", "X...O....", "XX.OO....",
                                        "X.O.X.O..", "OX..X...."};
enum { N_POSITIONS = sizeof POSITIONS / sizeof POSITIONS[0] };

static void test_ttt_certificates_check(void) {
    void *m;
    pn_solver *solver = new_solver(config_of(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM), &m);
    int i, certificates = 0;
    uint32_t side;
    for (i = 0; i < N_POSITIONS; i++) {
        ttt_t g = board_of(POSITIONS[i]), before = g;
        pn_game game = ttt_encoded(&g);
        int value = ttt_negamax(&g);
        pn_result r = fresh();
        CHECK_STATUS(pn_solve_value(solver, &game, NULL, &r), PN_STATUS_OK);
        for (side = 0; side < 2; side++) {
            int wins = side == g.to_move ? value > 0 : value < 0;
            uint32_t claim = wins ? PN_OUTCOME_PROVEN : PN_OUTCOME_DISPROVEN;
            uint32_t false_claim = wins ? PN_OUTCOME_DISPROVEN : PN_OUTCOME_PROVEN;
            buffer_t b = empty_buffer();
            checked_t c;
            CHECK_STATUS(certify(solver, &game, side, claim, &b, &r), PN_STATUS_OK);
            CHECK(r.outcome == claim && b.length > 8 && memcmp(b.bytes, "PNCERT", 6) == 0);
            c = check_certificate(&game, TTT, b.bytes, b.length);
            CHECK_STATUS(c.status, PN_STATUS_OK);
            CHECK(c.report.verdict == PN_CHECK_VERDICT_VALID && c.report.exact == 1);
            CHECK(c.report.positions > 0 && strncmp(c.message, "valid: ", 7) == 0);
            CHECK(memcmp(&g, &before, sizeof g) == 0);
            certificates++;
            /* A false claim has no certificate. */
            b.length = 0;
            CHECK_STATUS(certify(solver, &game, side, false_claim, &b, &r), PN_STATUS_REFUTED);
            CHECK(r.status == PN_STATUS_REFUTED && r.outcome == PN_OUTCOME_UNKNOWN);
            free(b.bytes);
        }
    }
    printf("%d tic-tac-toe certificates written through a sink and checked\n", certificates);
    free(m);
}

/* Reads a varint (LEB128) at *at. */
static uint64_t varint(const unsigned char *bytes, size_t *at) {
    uint64_t value = 0;
    unsigned shift = 0;
    for (;;) {
        unsigned char b = bytes[(*at)++];
        value |= (uint64_t)(b & 0x7F) << shift;
        shift += 7;
        if ((b & 0x80) == 0) return value;
    }
}

/* The offset of the first OR record's move index (format version 2, docs/src/certificates.md),
 * or 0 when there is none. */
static size_t first_or_index(const unsigned char *bytes) {
    size_t at = 8; /* "PNCERT", version, reserved */
    uint64_t n = varint(bytes, &at), i;
    at += (size_t)n + 3; /* the game's name, rule, attacker, claim */
    n = varint(bytes, &at);
    at += (size_t)n; /* the root's encoding */
    for (;;) {
        unsigned char tag = bytes[at++];
        if (tag == 1) {
            (void)varint(bytes, &at); /* node id */
            return at;
        }
        if (tag != 2) return 0;
        (void)varint(bytes, &at);
        n = varint(bytes, &at);
        for (i = 0; i < n; i++) (void)varint(bytes, &at);
    }
}

/* Makes the trailing checksum (FNV-1a, 64-bit, of every byte before it) right again. */
static void reseal(unsigned char *bytes, size_t length) {
    uint64_t h = 0xCBF29CE484222325ull;
    size_t i;
    for (i = 0; i < length - 8; i++) {
        h ^= bytes[i];
        h *= 0x00000100000001B3ull;
    }
    for (i = 0; i < 8; i++) bytes[length - 8 + i] = (unsigned char)(h >> (8 * i));
}

static void test_spoiled_certificates_are_rejected(void) {
    void *m;
    pn_solver *solver = new_solver(config_of(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM), &m);
    ttt_t g = board_of("XO......."), other = board_of("X...O....");
    pn_game game = ttt_encoded(&g), other_game = ttt_encoded(&other);
    buffer_t b = empty_buffer();
    pn_result r;
    checked_t c;
    unsigned char *spoiled;
    size_t at;
    /* X to move wins after X in a corner and O beside it (negamax: +1). */
    CHECK(ttt_negamax(&g) == 1);
    CHECK_STATUS(certify(solver, &game, 0, PN_OUTCOME_PROVEN, &b, &r), PN_STATUS_OK);
    spoiled = (unsigned char *)malloc(b.length);
    CHECK(spoiled != NULL);

    /* Truncated: not a certificate. */
    c = check_certificate(&game, TTT, b.bytes, b.length - 1);
    CHECK_STATUS(c.status, PN_STATUS_CERTIFICATE_INVALID);
    CHECK(c.report.verdict == PN_CHECK_VERDICT_MALFORMED);
    CHECK(strstr(c.message, "not a valid certificate") != NULL);
    c = check_certificate(&game, TTT, b.bytes, 0);
    CHECK(c.status == PN_STATUS_CERTIFICATE_INVALID && c.report.verdict == PN_CHECK_VERDICT_MALFORMED);

    /* A changed byte: the checksum fails, at an offset. */
    memcpy(spoiled, b.bytes, b.length);
    spoiled[b.length / 2] ^= 0x04;
    c = check_certificate(&game, TTT, spoiled, b.length);
    CHECK(c.status == PN_STATUS_CERTIFICATE_INVALID && c.report.verdict == PN_CHECK_VERDICT_MALFORMED);
    CHECK(c.report.offset > 0);

    /* A wrong move, the checksum made right: the proof is faulty, and the line says where. */
    memcpy(spoiled, b.bytes, b.length);
    at = first_or_index(spoiled);
    CHECK(at > 0);
    if (at > 0) {
        spoiled[at] = 100; /* a one-byte varint: move index 100 of at most 9 */
        reseal(spoiled, b.length);
        c = check_certificate(&game, TTT, spoiled, b.length);
        CHECK_STATUS(c.status, PN_STATUS_CERTIFICATE_INVALID);
        CHECK(c.report.verdict == PN_CHECK_VERDICT_FAULTY);
        CHECK(strstr(c.message, "plays move 100, but the game lists") != NULL);
        CHECK(c.report.line_length <= 9 && c.report.message_length == strlen(c.message));
        printf("a wrong move: \"%s\"\n", c.message);
    }

    /* Another game's name, another position. */
    c = check_certificate(&game, "noughts and crosses", b.bytes, b.length);
    CHECK(c.status == PN_STATUS_CERTIFICATE_INVALID && c.report.verdict == PN_CHECK_VERDICT_MISMATCH);
    c = check_certificate(&other_game, TTT, b.bytes, b.length);
    CHECK(c.status == PN_STATUS_CERTIFICATE_INVALID && c.report.verdict == PN_CHECK_VERDICT_MISMATCH);
    CHECK(strstr(c.message, "another position") != NULL);

    /* NULL where the report goes: nothing checked. */
    CHECK_STATUS(pn_certificate_check(&game, TTT, strlen(TTT), b.bytes, b.length, NULL, NULL, 0,
                                      NULL, 0, NULL),
                 PN_STATUS_NULL_POINTER);
    free(spoiled);
    free(b.bytes);
    free(m);
}

static void test_refusing_sinks_and_long_encodings(void) {
    void *m;
    pn_solver *solver = new_solver(config_of(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM), &m);
    ttt_t g = board_of("XO.......");
    pn_game game = ttt_encoded(&g);
    doors_t d = doors(1, 2);
    pn_game doors_g = doors_game(&d);
    buffer_t b = empty_buffer();
    pn_result r;
    size_t budget;
    checked_t c;
    for (budget = 1; budget <= 64; budget *= 4) {
        buffer_t refusing = empty_buffer();
        refusing.refuse_from = budget;
        CHECK_STATUS(certify(solver, &game, 0, PN_OUTCOME_PROVEN, &refusing, &r),
                     PN_STATUS_OUTPUT_FAILED);
        CHECK(r.status == PN_STATUS_OUTPUT_FAILED && r.outcome == PN_OUTCOME_UNKNOWN);
        CHECK(refusing.length <= budget && g.cells[2] == 0 && g.to_move == 0);
        free(refusing.bytes);
    }
    CHECK_STATUS(pn_certify(solver, &game, 0, PN_OUTCOME_PROVEN, TTT, strlen(TTT), NULL, NULL,
                            NULL, &r),
                 PN_STATUS_NULL_POINTER);

    /* An encoding longer than PN_ENCODING_CAPACITY: the solver (its confirming walk), the
     * writer and the checker all say CALLBACK_INVALID. */
    CHECK_STATUS(certify(solver, &doors_g, 0, PN_OUTCOME_PROVEN, &b, &r), PN_STATUS_OK);
    d.long_encoding = 1;
    r = fresh();
    CHECK_STATUS(pn_solve(solver, &doors_g, 0, NULL, &r), PN_STATUS_CALLBACK_INVALID);
    CHECK(r.outcome == PN_OUTCOME_UNKNOWN);
    {
        buffer_t ignored = empty_buffer();
        CHECK_STATUS(certify(solver, &doors_g, 0, PN_OUTCOME_PROVEN, &ignored, &r),
                     PN_STATUS_CALLBACK_INVALID);
        free(ignored.bytes);
    }
    c = check_certificate(&doors_g, TTT, b.bytes, b.length);
    CHECK_STATUS(c.status, PN_STATUS_CALLBACK_INVALID);
    d.long_encoding = 0;
    c = check_certificate(&doors_g, TTT, b.bytes, b.length);
    CHECK_STATUS(c.status, PN_STATUS_OK);
    free(b.bytes);
    free(m);
}

/* The colliding doors: the wrong answer the unconfirmed search gave has no certificate, and
 * the game's true claim, certified where the hashes are told apart, checks on the colliding
 * game too: the checker replays the rules and compares encodings, never hashes. (Under the
 * collision the writer's own searches are misled as the solver's are, so it writes no
 * certificate of the true claim either: never a wrong one.) */
static void test_colliding_doors_have_no_wrong_certificate(void) {
    void *m;
    pn_solver *solver = new_solver(config_of(1 << 16, PN_ENGINE_DFPN, PN_CONFIRM), &m);
    doors_t same = doors(SAME, SAME), apart = doors(1, 2);
    pn_game g_same = doors_game(&same), g_apart = doors_game(&apart);
    buffer_t wrong = empty_buffer(), right = empty_buffer(), misled = empty_buffer();
    pn_result r;
    checked_t c;
    pn_status s;
    CHECK_STATUS(certify(solver, &g_same, 0, PN_OUTCOME_DISPROVEN, &wrong, &r),
                 PN_STATUS_REFUTED);
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    CHECK_STATUS(certify(solver, &g_apart, 0, PN_OUTCOME_PROVEN, &right, &r), PN_STATUS_OK);
    CHECK(r.has_best_move && r.best_move == DOOR_B);
    c = check_certificate(&g_same, TTT, right.bytes, right.length);
    CHECK_STATUS(c.status, PN_STATUS_OK);
    CHECK_STATUS(pn_table_clear(solver), PN_STATUS_OK);
    s = certify(solver, &g_same, 0, PN_OUTCOME_PROVEN, &misled, &r);
    CHECK(s == PN_STATUS_OK || s == PN_STATUS_REFUTED);
    if (s == PN_STATUS_OK) {
        c = check_certificate(&g_same, TTT, misled.bytes, misled.length);
        CHECK_STATUS(c.status, PN_STATUS_OK);
    }
    free(wrong.bytes);
    free(right.bytes);
    free(misled.bytes);
    free(m);
}

int main(void) {
    test_default_configs_confirm();
    test_two_doors();
    test_loaded_tables_are_confirmed_even_when_opted_out();
    if (pn_features() & PN_FEATURE_STD) {
        test_ttt_certificates_check();
        test_spoiled_certificates_are_rejected();
        test_refusing_sinks_and_long_encodings();
        test_colliding_doors_have_no_wrong_certificate();
    } else {
        ttt_t g;
        pn_game game = ttt_encoded(&g);
        pn_check_report report;
        memset(&g, 0, sizeof g);
        memset(&report, 0, sizeof report);
        report.struct_size = sizeof report;
        CHECK_STATUS(pn_certificate_check(&game, TTT, strlen(TTT), NULL, 0, NULL, NULL, 0, NULL,
                                          0, &report),
                     PN_STATUS_UNSUPPORTED);
    }
    return finish("test_certificates");
}
