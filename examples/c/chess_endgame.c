/*
 * King and queen, or king and rook, against a lone king: a small chess move generator in C
 * (0x88 board, make/unmake) plugged into proofnum through the C ABI as a cyclic game, and
 * checked against a retrograde analysis of both endgames written apart (chess_oracle.c).
 *
 *   make chess_endgame
 *   ./chess_endgame "7k/8/5K2/8/8/8/8/R7 w - - 0 1"    # can White force mate? move, line
 *   ./chess_endgame "8/8/8/4k3/8/8/8/R3K3 w - - 0 1" 1000000   # a node limit (40 M default)
 *   ./chess_endgame --check 200 1                      # 200 random positions, seed 1
 *
 * The question is "can White force mate?" (pn_solve with White as the attacker). Checkmate
 * loses for the side to move; stalemate, a repeated position and Black taking the White piece
 * (bare kings) are draws; there is no fifty-move rule. --check exits 1 on any wrong answer or
 * on more unknowns (searches that hit their limits) than MAX_UNKNOWN_PERCENT allows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess_oracle.h"
#include "proofnum.h"

/* All the solver's memory (the table takes what the fixed parts leave). */
#define MEMORY_BYTES (32u << 20)
static uint64_t memory[MEMORY_BYTES / sizeof(uint64_t)];

/* Limits of one search, so that no position can hang a run. */
#define MAX_NODES_PER_SEARCH 40000000u
#define MAX_CPU_SECONDS_PER_SEARCH 60u
#define MAX_DEPTH 1000u          /* plies; repetitions end cycles long before */
#define MAX_MOVES 40u            /* a queen has at most 27 moves and a king 8 */
#define MAX_UNKNOWN_PERCENT 1u   /* --check fails above this share of unknowns */
/* ε of df-pn's 1+ε trick: 2, against the library's 1/4, takes 5.5 and 3.5 times fewer MID
 * calls on `--check 30 1` and `--check 30 2`: long quiet KRK mates want deep dives. */
#define EPSILON 2u

enum { WHITE = 0, BLACK = 1 };
enum { EMPTY = 0, W_KING, W_QUEEN, W_ROOK, B_KING };
#define NO_SQUARE 0x7f /* the White piece's square once Black has taken it */

/* ---------------------------------------------------------------------------------------
 * The engine: a 0x88 board (square = 16 * rank + file; off the board when sq & 0x88).
 * A move is from | to << 8 | CAPTURE (Black's king taking the White piece), so undo needs
 * nothing but the move.
 * --------------------------------------------------------------------------------------- */
#define CAPTURE (1u << 16)
#define MOVE_FROM(m) ((int)((m)&0xffu))
#define MOVE_TO(m) ((int)(((m) >> 8) & 0xffu))

typedef struct {
    uint8_t board[128];
    int king[2];  /* squares of the White and the Black king */
    int piece_sq; /* square of the White queen or rook, NO_SQUARE once taken */
    int piece;    /* W_QUEEN or W_ROOK */
    int side;     /* WHITE or BLACK to move */
} position_t;

static const int king_steps[8] = {-17, -16, -15, -1, 1, 15, 16, 17};
static const int rook_steps[4] = {-16, -1, 1, 16};
static const int queen_steps[8] = {-17, -16, -15, -1, 1, 15, 16, 17};

static int on_board(int sq) { return (sq & 0x88) == 0; }

static int kings_touch(int a, int b) {
    int i;
    for (i = 0; i < 8; i++)
        if (a + king_steps[i] == b) return 1;
    return 0;
}

/* The 64-square index of a 0x88 square, and its bit. */
static int sq64(int sq) { return (sq >> 4) * 8 + (sq & 7); }
static uint64_t bit(int sq) { return (uint64_t)1 << sq64(sq); }

/* Does the White queen or rook reach `target` (on its line, nothing in between)? */
static int piece_reaches(const position_t *p, int target) {
    int from = p->piece_sq, df, dr, step, t;
    if (from == NO_SQUARE || from == target) return 0;
    df = (target & 7) - (from & 7);
    dr = (target >> 4) - (from >> 4);
    if (df != 0 && dr != 0 && (p->piece == W_ROOK || (df != dr && df != -dr))) return 0;
    step = ((dr > 0) - (dr < 0)) * 16 + ((df > 0) - (df < 0));
    for (t = from + step; t != target; t += step)
        if (p->board[t] != EMPTY) return 0;
    return 1;
}

/* Squares the Black king may not step on: next to the White king, or attacked by the White
 * piece with the Black king off the board (it does not shield the squares behind it). The
 * piece's own square is in only when the White king guards it. */
static uint64_t black_king_danger(const position_t *p) {
    uint64_t danger = 0;
    int i, t;
    for (i = 0; i < 8; i++)
        if (on_board(t = p->king[WHITE] + king_steps[i])) danger |= bit(t);
    if (p->piece_sq != NO_SQUARE) {
        const int *steps = p->piece == W_QUEEN ? queen_steps : rook_steps;
        int dirs = p->piece == W_QUEEN ? 8 : 4;
        for (i = 0; i < dirs; i++)
            for (t = p->piece_sq + steps[i]; on_board(t); t += steps[i]) {
                danger |= bit(t);
                if (p->board[t] != EMPTY && p->board[t] != B_KING) break;
            }
    }
    return danger;
}

/* Is the side to move in check? (White's king is never: a lone king cannot give check.) */
static int in_check(const position_t *p) {
    if (kings_touch(p->king[WHITE], p->king[BLACK])) return 1;
    return p->side == BLACK && piece_reaches(p, p->king[BLACK]);
}

static void make_move(position_t *p, uint32_t m) {
    int from = MOVE_FROM(m), to = MOVE_TO(m), man = p->board[from];
    if (m & CAPTURE) p->piece_sq = NO_SQUARE;
    p->board[to] = (uint8_t)man;
    p->board[from] = EMPTY;
    if (man == W_KING) p->king[WHITE] = to;
    else if (man == B_KING) p->king[BLACK] = to;
    else p->piece_sq = to;
    p->side ^= 1;
}

static void unmake_move(position_t *p, uint32_t m) {
    int from = MOVE_FROM(m), to = MOVE_TO(m), man = p->board[to];
    p->board[from] = (uint8_t)man;
    p->board[to] = (m & CAPTURE) ? (uint8_t)p->piece : EMPTY;
    if (m & CAPTURE) p->piece_sq = to;
    if (man == W_KING) p->king[WHITE] = from;
    else if (man == B_KING) p->king[BLACK] = from;
    else p->piece_sq = from;
    p->side ^= 1;
}

/* Legal moves of the side to move into moves[] (room for 64); returns how many. Order:
 * White's checks first, Black's capture first. */
static int legal_moves(position_t *p, uint32_t *moves) {
    uint32_t quiet[64];
    int n = 0, nq = 0, i, t, k = p->king[p->side];
    if (p->side == BLACK) {
        uint64_t danger = black_king_danger(p);
        for (i = 0; i < 8; i++) {
            if (!on_board(t = k + king_steps[i]) || (danger & bit(t))) continue;
            if (t == p->piece_sq) moves[n++] = (uint32_t)k | (uint32_t)t << 8 | CAPTURE;
            else quiet[nq++] = (uint32_t)k | (uint32_t)t << 8;
        }
    } else {
        uint32_t all[64];
        int na = 0;
        for (i = 0; i < 8; i++) /* the White king may not step next to the Black one */
            if (on_board(t = k + king_steps[i]) && p->board[t] == EMPTY &&
                !kings_touch(t, p->king[BLACK]))
                all[na++] = (uint32_t)k | (uint32_t)t << 8;
        if (p->piece_sq != NO_SQUARE) {
            const int *steps = p->piece == W_QUEEN ? queen_steps : rook_steps;
            int dirs = p->piece == W_QUEEN ? 8 : 4;
            for (i = 0; i < dirs; i++)
                for (t = p->piece_sq + steps[i]; on_board(t) && p->board[t] == EMPTY;
                     t += steps[i])
                    all[na++] = (uint32_t)p->piece_sq | (uint32_t)t << 8;
        }
        for (i = 0; i < na; i++) { /* every one is legal; sort the checks first */
            int checks;
            make_move(p, all[i]);
            checks = in_check(p);
            unmake_move(p, all[i]);
            if (checks) moves[n++] = all[i];
            else quiet[nq++] = all[i];
        }
    }
    for (i = 0; i < nq; i++) moves[n + i] = quiet[i];
    return n + nq;
}


/* ---------------------------------------------------------------------------------------
 * The game's callbacks for proofnum. Side 0 (PN_SIDE_FIRST) is White.
 * --------------------------------------------------------------------------------------- */
static int cb_side_to_move(void *ctx, uint32_t *out_side) {
    *out_side = (uint32_t)((const position_t *)ctx)->side;
    return 0;
}

/* An exact hash: the three squares, the piece and the side are 22 bits, spread over 64 by a
 * bijective mixer (the SplitMix64 finaliser), so two positions never share a hash. */
static int cb_hash(void *ctx, uint64_t *out_hash) {
    const position_t *p = (const position_t *)ctx;
    uint64_t x = (uint64_t)sq64(p->king[WHITE]) | (uint64_t)sq64(p->king[BLACK]) << 6 |
                 (uint64_t)(p->piece_sq == NO_SQUARE ? 64 : sq64(p->piece_sq)) << 12 |
                 (uint64_t)(p->piece == W_QUEEN) << 19 | (uint64_t)p->side << 20;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    *out_hash = x;
    return 0;
}

static int cb_outcome(void *ctx, uint32_t *out_outcome) {
    position_t *p = (position_t *)ctx;
    uint32_t moves[64];
    int n;
    if (p->piece_sq == NO_SQUARE) {
        *out_outcome = PN_OUTCOME_DRAW; /* bare kings */
        return 0;
    }
    n = legal_moves(p, moves);
    if (n > 0) *out_outcome = PN_OUTCOME_UNKNOWN;
    else *out_outcome = in_check(p) ? PN_OUTCOME_LOSS : PN_OUTCOME_DRAW; /* mate, stalemate */
    return 0;
}

/* The Black king's box: the squares it could walk to if White stood still (not attacked by
 * the White piece, not next to the White king). Mating means shrinking it. */
static int black_king_box(const position_t *p) {
    uint64_t danger = black_king_danger(p) | bit(p->king[WHITE]), seen = bit(p->king[BLACK]);
    int stack[64], top = 0, size = 0, i;
    stack[top++] = p->king[BLACK];
    while (top > 0) {
        int sq = stack[--top], t;
        size++;
        for (i = 0; i < 8; i++) {
            if (!on_board(t = sq + king_steps[i]) || (seen & bit(t))) continue;
            seen |= bit(t);
            if (!(danger & bit(t))) stack[top++] = t;
        }
    }
    return size;
}

/* df-pn+ estimates: White's win looks cheaper the smaller the Black king's box. Without them
 * `--check 30 1` takes 29 times more MID calls (24.9 M against 0.85 M) and leaves 2 positions
 * unknown at the node limit. */
static int cb_estimate(void *ctx, uint32_t *out_phi, uint32_t *out_delta) {
    position_t *p = (position_t *)ctx;
    uint32_t cost = p->piece_sq == NO_SQUARE ? 1 : (uint32_t)(1 + black_king_box(p) / 4);
    if (p->side == WHITE) {
        *out_phi = cost;
        *out_delta = 1;
    } else {
        *out_phi = 1;
        *out_delta = cost;
    }
    return 0;
}

static int cb_generate_moves(void *ctx, uint32_t *moves, size_t cap, size_t *out_n) {
    uint32_t all[64];
    int n = legal_moves((position_t *)ctx, all), i;
    if ((size_t)n <= cap)
        for (i = 0; i < n; i++) moves[i] = all[i];
    *out_n = (size_t)n;
    return 0;
}

static int cb_play(void *ctx, uint32_t m) {
    make_move((position_t *)ctx, m);
    return 0;
}

static int cb_undo(void *ctx, uint32_t m) {
    unmake_move((position_t *)ctx, m);
    return 0;
}

/* CPU time in microseconds, the clock of the time limit (standard C, unlike wall clocks). */
static uint64_t cpu_clock_us(void *ctx) {
    (void)ctx;
    return (uint64_t)((double)clock() * 1e6 / CLOCKS_PER_SEC);
}

/* The oracle's verdict on an engine position (see chess_oracle.h); bare kings are a draw. */
static int oracle_lookup(const position_t *p) {
    if (p->piece_sq == NO_SQUARE) return 0;
    return oracle_dtm(p->piece == W_QUEEN, p->side, sq64(p->king[WHITE]), sq64(p->piece_sq),
                      sq64(p->king[BLACK]));
}

/* ---------------------------------------------------------------------------------------
 * Input, output and the solver.
 * --------------------------------------------------------------------------------------- */
static void square_name(int sq, char *out) {
    out[0] = (char)('a' + (sq & 7));
    out[1] = (char)('1' + (sq >> 4));
    out[2] = '\0';
}

static void move_name(uint32_t m, char *out) {
    square_name(MOVE_FROM(m), out);
    square_name(MOVE_TO(m), out + 2);
}

/* The position as a FEN (no castling, no en passant, move counters 0 1). */
static void to_fen(const position_t *p, char *out) {
    int rank, file;
    for (rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (file = 0; file < 8; file++) {
            static const char letters[] = ".KQRk";
            int man = p->board[rank * 16 + file];
            if (man == EMPTY) {
                empty++;
                continue;
            }
            if (empty > 0) *out++ = (char)('0' + empty);
            empty = 0;
            *out++ = letters[man];
        }
        if (empty > 0) *out++ = (char)('0' + empty);
        if (rank > 0) *out++ = '/';
    }
    strcpy(out, p->side == WHITE ? " w - - 0 1" : " b - - 0 1");
}

static void set_position(position_t *p, int piece, int side, int wk, int wp, int bk) {
    memset(p, 0, sizeof *p);
    p->piece = piece;
    p->side = side;
    p->king[WHITE] = wk;
    p->king[BLACK] = bk;
    p->piece_sq = wp;
    p->board[wk] = W_KING;
    p->board[bk] = B_KING;
    p->board[wp] = (uint8_t)piece;
}

/* A legal position for this program: kings apart, and with White to move Black not in check. */
static int engine_legal(position_t *p) {
    int side = p->side, checked;
    if (kings_touch(p->king[WHITE], p->king[BLACK])) return 0;
    p->side = BLACK;
    checked = in_check(p);
    p->side = side;
    return side == BLACK || !checked;
}

/* Parses the board and side of a FEN with K, k and one Q or R; returns 0 or an error text. */
static const char *parse_fen(const char *fen, position_t *p) {
    int rank = 7, file = 0, wk = -1, bk = -1, wp = -1, piece = 0;
    for (; *fen != ' ' && *fen != '\0'; fen++) {
        char c = *fen;
        if (c == '/') {
            if (file != 8 || rank == 0) return "a rank of the FEN does not have 8 squares";
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return "a rank of the FEN has more than 8 squares";
        } else {
            int sq = rank * 16 + file;
            if (file >= 8) return "a rank of the FEN has more than 8 squares";
            if (c == 'K' && wk < 0) wk = sq;
            else if (c == 'k' && bk < 0) bk = sq;
            else if ((c == 'Q' || c == 'R') && wp < 0) {
                wp = sq;
                piece = c == 'Q' ? W_QUEEN : W_ROOK;
            } else return "only K+Q or K+R against k: one white king, one queen or rook, one "
                          "black king";
            file++;
        }
    }
    if (rank != 0 || file != 8) return "the FEN board does not have 8 ranks of 8 squares";
    if (wk < 0 || bk < 0 || wp < 0)
        return "only K+Q or K+R against k: one white king, one queen or rook, one black king";
    while (*fen == ' ') fen++;
    if ((fen[0] != 'w' && fen[0] != 'b') || (fen[1] != ' ' && fen[1] != '\0'))
        return "the side to move must be w or b";
    set_position(p, piece, fen[0] == 'w' ? WHITE : BLACK, wk, wp, bk);
    if (!engine_legal(p)) return "illegal position (kings touching, or Black in check with "
                                 "White to move)";
    return NULL;
}

static pn_game make_game(position_t *p) {
    pn_game game;
    memset(&game, 0, sizeof game);
    game.struct_size = sizeof game;
    game.ctx = p;
    game.side_to_move = cb_side_to_move;
    game.hash = cb_hash;
    game.outcome = cb_outcome;
    game.generate_moves = cb_generate_moves;
    game.play = cb_play;
    game.undo = cb_undo;
    game.estimate = cb_estimate;
    game.repetition_rule = PN_REPETITION_DRAW; /* positions repeat: a repetition is a draw */
    return game;
}

static pn_limits search_limits(void) {
    pn_limits limits = pn_limits_default();
    limits.max_nodes = MAX_NODES_PER_SEARCH;
    limits.max_time_us = (uint64_t)MAX_CPU_SECONDS_PER_SEARCH * 1000000u;
    limits.clock = cpu_clock_us;
    return limits;
}

static pn_solver *make_solver(void) {
    pn_config config = {.struct_size = sizeof(pn_config)};
    pn_solver *solver = NULL;
    size_t fixed = 0, align = 0;
    pn_status status = pn_config_init(&config); /* the defaults, in this header's version */
    config.max_depth = MAX_DEPTH;
    config.max_moves = MAX_MOVES;
    config.epsilon_numerator = EPSILON; /* 1+ε = 3: see the defines */
    config.epsilon_denominator = 1;
    config.table_bytes = PN_TABLE_MIN_BYTES;
    if (status == PN_STATUS_OK) status = pn_solver_memory_requirements(&config, &fixed, &align);
    if (status == PN_STATUS_OK && (fixed >= MEMORY_BYTES || align > sizeof memory[0]))
        status = PN_STATUS_BUFFER_TOO_SMALL;
    if (status == PN_STATUS_OK) {
        config.table_bytes = MEMORY_BYTES - (fixed - PN_TABLE_MIN_BYTES);
        status = pn_solver_init(memory, sizeof memory, &config, &solver);
    }
    if (status != PN_STATUS_OK) {
        fprintf(stderr, "solver: %s\n", pn_status_str(status));
        return NULL;
    }
    return solver;
}

/* `chess_endgame FEN`: the value, the best move, the line and the search's work. */
static int solve_one(const char *fen, uint64_t max_nodes) {
    position_t p;
    pn_game game = make_game(&p);
    pn_limits limits = search_limits();
    pn_result result;
    pn_solver *solver;
    pn_status status;
    const char *error = parse_fen(fen, &p);
    int dtm;
    limits.max_nodes = max_nodes;
    if (error != NULL) {
        fprintf(stderr, "bad FEN \"%s\": %s\n", fen, error);
        return 2;
    }
    if (oracle_build_and_check() != 0) return 1;
    if ((solver = make_solver()) == NULL) return 2;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    status = pn_solve(solver, &game, PN_SIDE_FIRST, &limits, &result);
    if (status != PN_STATUS_OK) {
        printf("value: unknown (%s)\n", pn_status_str(status));
    } else {
        int white_wins = result.outcome == PN_OUTCOME_PROVEN;
        char name[5];
        printf("value: %s for %s to move (%s)\n",
               white_wins ? (p.side == WHITE ? "win" : "loss") : "draw",
               p.side == WHITE ? "White" : "Black",
               white_wins ? "White forces mate" : "White cannot force mate");
        if (result.has_best_move) {
            move_name(result.best_move, name);
            printf("best move: %s\n", name);
        }
        if (white_wins && result.distance == 0) {
            printf("Black is checkmated\n");
        } else if (white_wins) {
            uint32_t line[256];
            size_t length = 0, i;
            pn_status line_status = pn_principal_variation(solver, &game, PN_SIDE_FIRST,
                                                           &limits, line, 256, &length);
            printf("line:");
            for (i = 0; i < length; i++) {
                move_name(line[i], name);
                printf(" %s", name);
            }
            printf("%s\n", line_status == PN_STATUS_OK ? "" : " ...");
            printf("the proof's line mates in %u plies (an upper bound, not the shortest mate)\n",
                   (unsigned)result.distance);
        }
    }
    dtm = oracle_lookup(&p);
    if (dtm > 0)
        printf("oracle: the shortest mate takes %d plies (%d White moves)\n", dtm - 1,
               (dtm - 1 + (p.side == WHITE)) / 2);
    else printf("oracle: draw\n");
    printf("MID calls: %llu, positions: %llu\n", (unsigned long long)result.stats.mid_calls,
           (unsigned long long)result.stats.nodes);
    if (status == PN_STATUS_OK && (dtm > 0) != (result.outcome == PN_OUTCOME_PROVEN)) {
        printf("WRONG: proofnum and the oracle disagree\n");
        return 1;
    }
    return 0;
}

static uint64_t rng_state;
static uint64_t rng_next(void) { /* SplitMix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int random_square(void) {
    int s = (int)(rng_next() % 64);
    return (s / 8) * 16 + s % 8;
}

/* What the rules alone say about a position, without search: White to move always wins
 * (KQK and KRK are won in every legal position with the stronger side to move); Black to
 * move draws by taking an unguarded piece or by stalemate, is lost when mated, and otherwise
 * loses too (each reply leaves a legal position with White to move and the piece on). */
static int known_white_wins(position_t *p, const char **why) {
    uint32_t moves[64];
    int n, i;
    if (p->side == WHITE) {
        *why = "White to move";
        return 1;
    }
    n = legal_moves(p, moves);
    for (i = 0; i < n; i++)
        if (moves[i] & CAPTURE) {
            *why = "Black takes the piece";
            return 0;
        }
    if (n == 0) {
        *why = in_check(p) ? "checkmate" : "stalemate";
        return in_check(p);
    }
    *why = "Black to move, piece safe";
    return 1;
}

/* The engine against the oracle's geometry on every placement of both endgames, both sides to
 * move: the same positions legal, the same number of legal moves, the same checks (a perft
 * of depth 1 over all 1,048,576 placements). Returns the number of disagreements. */
static long check_move_generator(void) {
    long legal_positions = 0, bad = 0;
    int kind, side, wk, wp, bk;
    for (kind = 0; kind < 2; kind++)
        for (side = 0; side < 2; side++)
            for (wk = 0; wk < 64; wk++)
                for (wp = 0; wp < 64; wp++)
                    for (bk = 0; bk < 64; bk++) {
                        position_t p;
                        uint32_t moves[64];
                        int legal, n, want, captures, checked;
                        if (wk == wp || wk == bk || wp == bk) continue;
                        set_position(&p, kind == 0 ? W_QUEEN : W_ROOK, side,
                                     wk / 8 * 16 + wk % 8, wp / 8 * 16 + wp % 8,
                                     bk / 8 * 16 + bk % 8);
                        legal = oracle_legal(kind == 0, side, wk, wp, bk);
                        if (engine_legal(&p) != legal) {
                            bad++;
                            continue;
                        }
                        if (!legal) continue;
                        legal_positions++;
                        n = legal_moves(&p, moves);
                        want = side == WHITE
                                   ? oracle_white_moves(kind == 0, wk, wp, bk)
                                   : oracle_black_moves(kind == 0, wk, wp, bk, &captures);
                        checked = side == BLACK && oracle_black_in_check(kind == 0, wk, wp, bk);
                        if (n != want || in_check(&p) != checked) bad++;
                    }
    printf("move generator against the oracle's geometry: %ld legal positions, %ld "
           "disagreements\n",
           legal_positions, bad);
    return bad;
}

/* `chess_endgame --check N SEED`. */
static int check_random(long count, uint64_t seed) {
    pn_solver *solver;
    long i, wrong = 0, unknown = 0, passed = 0, dist_exact = 0, dist_longer = 0,
            dist_shorter = 0, by_fact[4] = {0, 0, 0, 0};
    uint64_t mid_calls = 0, max_mid_calls = 0;
    clock_t start = clock();
    double seconds;
    if (oracle_build_and_check() != 0) return 1;
    if (check_move_generator() != 0) return 1;
    printf("oracle tables and move generator check: %.2f s of CPU\n",
           (double)(clock() - start) / CLOCKS_PER_SEC);
    if ((solver = make_solver()) == NULL) return 2;
    rng_state = seed;
    start = clock();
    for (i = 0; i < count; i++) {
        position_t p;
        pn_game game = make_game(&p);
        pn_limits limits = search_limits();
        pn_result result;
        pn_status status;
        const char *why = "";
        char fen_note[96], name[5];
        uint32_t legal[64];
        int n_legal, j;
        int fact, dtm, ok = 1;
        do {
            set_position(&p, i % 2 == 0 ? W_QUEEN : W_ROOK, (int)(i / 2 % 2), random_square(),
                         random_square(), random_square());
        } while (p.king[WHITE] == p.king[BLACK] || p.piece_sq == p.king[WHITE] ||
                 p.piece_sq == p.king[BLACK] || !engine_legal(&p));
        to_fen(&p, fen_note);
        fact = known_white_wins(&p, &why);
        by_fact[p.side == WHITE ? 0 : fact ? (why[0] == 'c' ? 2 : 1) : 3]++;
        dtm = oracle_lookup(&p);
        if ((dtm > 0) != fact) {
            printf("WRONG (oracle against the rules): %s: oracle %s, rules %s (%s)\n", fen_note,
                   dtm > 0 ? "win" : "draw", fact ? "win" : "draw", why);
            wrong++;
            continue;
        }
        pn_table_new_generation(solver);
        memset(&result, 0, sizeof result);
        result.struct_size = sizeof result;
        status = pn_solve(solver, &game, PN_SIDE_FIRST, &limits, &result);
        mid_calls += result.stats.mid_calls;
        if (result.stats.mid_calls > max_mid_calls) max_mid_calls = result.stats.mid_calls;
        if (status != PN_STATUS_OK) {
            printf("unknown: %s: %s after %llu MID calls\n", fen_note, pn_status_str(status),
                   (unsigned long long)result.stats.mid_calls);
            unknown++;
            continue;
        }
        if ((result.outcome == PN_OUTCOME_PROVEN) != fact) {
            printf("WRONG: %s: proofnum says %s, oracle and rules say %s (%s)\n", fen_note,
                   result.outcome == PN_OUTCOME_PROVEN ? "White mates" : "no mate",
                   fact ? "White mates" : "draw", why);
            ok = 0;
        }
        /* The side that gets its way must name a move that keeps it, by the oracle. */
        if (ok && (fact == (p.side == WHITE)) && (fact || strcmp(why, "stalemate") != 0)) {
            int after;
            n_legal = legal_moves(&p, legal);
            for (j = 0; j < n_legal && result.has_best_move; j++)
                if (legal[j] == result.best_move) break;
            if (!result.has_best_move || j == n_legal) {
                printf("WRONG: %s: solved without a legal best move\n", fen_note);
                ok = 0;
            } else {
                make_move(&p, result.best_move);
                after = oracle_lookup(&p);
                unmake_move(&p, result.best_move);
                if ((after > 0) != fact) {
                    move_name(result.best_move, name);
                    printf("WRONG: %s: best move %s does not keep the result\n", fen_note,
                           name);
                    ok = 0;
                }
            }
        }
        if (ok && fact) { /* the proof's line against the shortest mate: reported only */
            if ((int)result.distance == dtm - 1) dist_exact++;
            else if ((int)result.distance > dtm - 1) dist_longer++;
            else dist_shorter++;
        }
        if (ok) passed++;
        else wrong++;
    }
    seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("positions: %ld (White to move %ld; Black to move: lost %ld, mated %ld, "
           "draw %ld)\n",
           count, by_fact[0], by_fact[1], by_fact[2], by_fact[3]);
    printf("wrong: %ld, unknown: %ld (at most %u%% allowed), MID calls: %llu (largest %llu), "
           "%.2f s of CPU\n",
           wrong, unknown, MAX_UNKNOWN_PERCENT, (unsigned long long)mid_calls,
           (unsigned long long)max_mid_calls, seconds);
    printf("mate length on the proof's line against the shortest: equal %ld, longer %ld, "
           "shorter %ld\n",
           dist_exact, dist_longer, dist_shorter);
    if (unknown * 100 > count * (long)MAX_UNKNOWN_PERCENT) wrong += unknown;
    printf("chess_endgame: %ld passed, %ld failed\n", passed, wrong);
    return wrong == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (pn_abi_version() != PN_ABI_VERSION) {
        fprintf(stderr, "libproofnum ABI %u, header ABI %u\n", (unsigned)pn_abi_version(),
                (unsigned)PN_ABI_VERSION);
        return 2;
    }
    if (argc == 4 && strcmp(argv[1], "--check") == 0) {
        char *end1, *end2;
        long count = strtol(argv[2], &end1, 10);
        unsigned long long seed = strtoull(argv[3], &end2, 10);
        if (*end1 != '\0' || *end2 != '\0' || count <= 0 || count > 1000000) {
            fprintf(stderr, "usage: %s --check N SEED (N from 1 to 1000000)\n", argv[0]);
            return 2;
        }
        return check_random(count, (uint64_t)seed);
    }
    if ((argc == 2 || argc == 3) && argv[1][0] != '-') {
        char *end = NULL;
        unsigned long long max_nodes = argc == 3 ? strtoull(argv[2], &end, 10) : 0;
        if (argc == 3 && (*end != '\0' || max_nodes == 0)) {
            fprintf(stderr, "MAX_NODES must be a positive number, not \"%s\"\n", argv[2]);
            return 2;
        }
        return solve_one(argv[1], argc == 3 ? (uint64_t)max_nodes : MAX_NODES_PER_SEARCH);
    }
    fprintf(stderr,
            "usage: %s FEN [MAX_NODES]  solve one KQK or KRK position (default %u nodes)\n"
            "       %s --check N SEED    check N random positions against retrograde tables\n",
            argv[0], MAX_NODES_PER_SEARCH, argv[0]);
    return 2;
}
