/*
 * A tiny test harness for the C and C++ tests: every CHECK counts as one check, failures are
 * printed with their line, and finish() prints "<name>: N passed, N failed" (run.sh adds up
 * those lines).
 */
#ifndef PN_FFI_CHECK_H
#define PN_FFI_CHECK_H

#include <stdio.h>

#include "proofnum.h"

static int checks_passed = 0;
static int checks_failed = 0;
/* Which status codes a CHECK_STATUS saw as expected: every code is triggered on purpose. */
static unsigned char statuses_seen[64];

static inline void check_(int ok, const char *what, const char *file, int line) {
    if (ok) {
        checks_passed++;
    } else {
        checks_failed++;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    }
}

static inline void check_status_(pn_status got, pn_status want, const char *what,
                                 const char *file, int line) {
    if (got == want) {
        checks_passed++;
        if ((unsigned)got < sizeof statuses_seen) statuses_seen[got] = 1;
    } else {
        checks_failed++;
        fprintf(stderr, "%s:%d: FAILED: %s\n    got %u (%s), want %u (%s)\n", file, line, what,
                (unsigned)got, pn_status_str(got), (unsigned)want, pn_status_str(want));
    }
}

#define CHECK(cond) check_((cond) ? 1 : 0, #cond, __FILE__, __LINE__)
#define CHECK_STATUS(expr, want) check_status_((expr), (want), #expr, __FILE__, __LINE__)

/* The default configuration, as every caller starts one: struct_size, then pn_config_init. */
static inline pn_config default_config(void) {
    pn_config c;
    c.struct_size = sizeof c;
    CHECK_STATUS(pn_config_init(&c), PN_STATUS_OK);
    return c;
}

static inline int finish(const char *name) {
    printf("%s: %d passed, %d failed\n", name, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif /* PN_FFI_CHECK_H */
