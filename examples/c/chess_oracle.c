/*
 * The oracle of chess_endgame.c: a breadth-first retrograde analysis of KQK and KRK over
 * 2 x 64^3 positions each (see chess_oracle.h). It starts from the checkmates and walks moves
 * backwards: a Black-to-move position is lost once all of its replies reach won positions
 * (a count per position), a White-to-move position is won as soon as one move reaches a lost
 * one. Taking the White piece leads to bare kings, a draw, so such a reply never counts down.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chess_oracle.h"

enum { WHITE = 0, BLACK = 1 };

#define ORACLE_POSITIONS (2 * 64 * 64 * 64)
static uint8_t dtm_tables[2][ORACLE_POSITIONS]; /* [0] KQK, [1] KRK: see oracle_dtm */
static uint8_t replies_left[ORACLE_POSITIONS]; /* Black's replies not yet shown lost */
static uint32_t queue[ORACLE_POSITIONS];

static uint32_t table_index(int side, int wk, int wp, int bk) {
    return (uint32_t)(((side * 64 + wk) * 64 + wp) * 64 + bk);
}

static int absdiff(int a, int b) { return a > b ? a - b : b - a; }
static int adjacent(int a, int b) {
    int df = absdiff(a % 8, b % 8), dr = absdiff(a / 8, b / 8);
    return a != b && df <= 1 && dr <= 1;
}

/* Does a queen (or rook) on `from` reach `to`, no square strictly between being b1 or b2? */
static int line_reaches(int queen, int from, int to, int b1, int b2) {
    int df = to % 8 - from % 8, dr = to / 8 - from / 8, sf, sr, f, r;
    if (from == to) return 0;
    if (!(df == 0 || dr == 0 || (queen && (df == dr || df == -dr)))) return 0;
    sf = (df > 0) - (df < 0);
    sr = (dr > 0) - (dr < 0);
    for (f = from % 8 + sf, r = from / 8 + sr; f != to % 8 || r != to / 8; f += sf, r += sr)
        if (r * 8 + f == b1 || r * 8 + f == b2) return 0;
    return 1;
}

int oracle_legal(int queen, int side, int wk, int wp, int bk) {
    if (wk == wp || wk == bk || wp == bk || adjacent(wk, bk)) return 0;
    return side == BLACK || !line_reaches(queen, wp, bk, wk, -1);
}

int oracle_black_moves(int queen, int wk, int wp, int bk, int *captures) {
    int to, n = 0;
    *captures = 0;
    for (to = 0; to < 64; to++) {
        if (!adjacent(bk, to) || to == wk || adjacent(to, wk)) continue;
        if (to == wp) { /* the piece is taken: legal since the White king does not guard it */
            *captures = 1;
            n++;
        } else if (!line_reaches(queen, wp, to, wk, -1)) { /* bk has left its square */
            n++;
        }
    }
    return n;
}

int oracle_white_moves(int queen, int wk, int wp, int bk) {
    int to, n = 0;
    for (to = 0; to < 64; to++) {
        if (to == wk || to == wp || to == bk) continue;
        if (adjacent(wk, to) && !adjacent(to, bk)) n++;
        if (line_reaches(queen, wp, to, wk, bk)) n++;
    }
    return n;
}

/* Fills dtm_tables[kind] (kind 0: queen, 1: rook) by a breadth-first retrograde search from
 * the checkmates; returns the longest mate with White to move, in plies. */
static int oracle_build(int kind) {
    int queen = kind == 0, wk, wp, bk, side, longest = 0;
    uint8_t *dtm = dtm_tables[kind];
    size_t head = 0, tail = 0;
    memset(dtm, 0, ORACLE_POSITIONS);
    for (wk = 0; wk < 64; wk++)
        for (wp = 0; wp < 64; wp++)
            for (bk = 0; bk < 64; bk++) {
                uint32_t i = table_index(BLACK, wk, wp, bk);
                int captures;
                replies_left[i] = 0;
                if (!oracle_legal(queen, BLACK, wk, wp, bk)) continue;
                replies_left[i] = (uint8_t)oracle_black_moves(queen, wk, wp, bk, &captures);
                if (replies_left[i] == 0 && line_reaches(queen, wp, bk, wk, -1)) {
                    dtm[i] = 1; /* checkmate */
                    queue[tail++] = i;
                }
            }
    while (head < tail) {
        uint32_t i = queue[head++];
        int d = dtm[i];
        bk = (int)(i % 64);
        wp = (int)(i / 64 % 64);
        wk = (int)(i / 4096 % 64);
        side = (int)(i / 262144);
        if (side == BLACK) { /* lost for Black: every White move into it wins */
            int from;
            for (from = 0; from < 64; from++) {
                uint32_t j;
                if (from == wk || from == wp || from == bk) continue;
                /* the king came from `from`, or the piece slid from it (rays are symmetric) */
                if (adjacent(from, wk) && oracle_legal(queen, WHITE, from, wp, bk)) {
                    j = table_index(WHITE, from, wp, bk);
                    if (dtm[j] == 0) {
                        dtm[j] = (uint8_t)(d + 1);
                        queue[tail++] = j;
                    }
                }
                if (line_reaches(queen, wp, from, wk, bk) &&
                    oracle_legal(queen, WHITE, wk, from, bk)) {
                    j = table_index(WHITE, wk, from, bk);
                    if (dtm[j] == 0) {
                        dtm[j] = (uint8_t)(d + 1);
                        queue[tail++] = j;
                    }
                }
            }
        } else { /* won for White: Black's king moves into it lose one more reply each */
            int from;
            if (d - 1 > longest) longest = d - 1;
            for (from = 0; from < 64; from++) {
                uint32_t j;
                if (!adjacent(from, bk) || from == wk || from == wp) continue;
                if (!oracle_legal(queen, BLACK, wk, wp, from)) continue;
                j = table_index(BLACK, wk, wp, from);
                if (replies_left[j] > 0 && --replies_left[j] == 0) {
                    dtm[j] = (uint8_t)(d + 1);
                    queue[tail++] = j;
                }
            }
        }
    }
    return longest;
}

int oracle_dtm(int queen, int side, int wk, int wp, int bk) {
    return dtm_tables[queen ? 0 : 1][table_index(side, wk, wp, bk)];
}

int oracle_black_in_check(int queen, int wk, int wp, int bk) {
    return line_reaches(queen, wp, bk, wk, -1);
}

int oracle_build_and_check(void) {
    static const int longest_moves[2] = {10, 16};
    int kind, wk, wp, bk, bad = 0;
    for (kind = 0; kind < 2; kind++) {
        int longest = oracle_build(kind), unwon = 0;
        for (wk = 0; wk < 64; wk++)
            for (wp = 0; wp < 64; wp++)
                for (bk = 0; bk < 64; bk++)
                    if (oracle_legal(kind == 0, WHITE, wk, wp, bk) &&
                        dtm_tables[kind][table_index(WHITE, wk, wp, bk)] == 0)
                        unwon++;
        printf("oracle K%cK: longest mate %d plies (%d moves), %d White-to-move positions "
               "not won\n",
               kind == 0 ? 'Q' : 'R', longest, (longest + 1) / 2, unwon);
        if (unwon != 0 || (longest + 1) / 2 != longest_moves[kind]) {
            printf("WRONG: the retrograde table contradicts the published facts\n");
            bad = 1;
        }
    }
    return bad;
}

