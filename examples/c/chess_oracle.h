/*
 * The oracle of chess_endgame.c: a retrograde analysis of KQK and KRK, written apart from the
 * engine (its own 8 x 8 geometry, no 0x88, no move generator) and from proofnum.
 *
 * Squares are 0..63 (a1 = 0, b1 = 1, ..., h8 = 63); `queen` is 1 for KQK, 0 for KRK; `side` is
 * 0 with White to move, 1 with Black to move; wk, wp and bk are the squares of the White
 * king, the White piece and the Black king.
 */
#ifndef CHESS_ORACLE_H
#define CHESS_ORACLE_H

/* Builds both tables, prints one line per endgame, and checks them against published facts:
 * with White to move every legal position is won, and the longest mates take 10 moves (KQK)
 * and 16 moves (KRK). Returns 0 when they hold, 1 otherwise. */
int oracle_build_and_check(void);

/* After oracle_build_and_check: 0 when White cannot force mate (or the position is illegal),
 * else 1 + the plies to mate with best play (shortest mate, longest defence). */
int oracle_dtm(int queen, int side, int wk, int wp, int bk);

/* A position that can occur: three squares, kings apart, and with White to move Black not
 * in check. */
int oracle_legal(int queen, int side, int wk, int wp, int bk);

/* The number of legal moves of White, or of Black (*captures set when one takes the piece),
 * and whether Black's king is in check. */
int oracle_white_moves(int queen, int wk, int wp, int bk);
int oracle_black_moves(int queen, int wk, int wp, int bk, int *captures);
int oracle_black_in_check(int queen, int wk, int wp, int bk);

#endif
