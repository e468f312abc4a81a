/* Arm semihosting (the debugger's or QEMU's console and exit), the two calls this program
 * needs. Each is one `bkpt 0xAB` with the operation in r0 and its argument in r1. */
#ifndef SEMIHOSTING_H
#define SEMIHOSTING_H

#include <stdint.h>

/* Writes a NUL-terminated string to the host's console. */
void semihosting_write(const char *text);
/* Writes an unsigned number in decimal. */
void semihosting_write_number(uint32_t number);
/* Ends the program: QEMU exits with status 0 when `success`, 1 otherwise. */
_Noreturn void semihosting_exit(int success);

#endif
