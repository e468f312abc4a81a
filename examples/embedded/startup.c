/* The bare-metal start of the program: the vector table, the reset handler (FPU on, .data
 * copied from flash, .bss zeroed, the stack painted for the high-water mark, then main), a
 * fault handler, and the semihosting calls. No C library is linked: the Rust static library
 * brings memcpy and memset (compiler_builtins). */
#include <stdint.h>

#include "semihosting.h"

extern uint32_t _data_start[], _data_end[], _data_load[], _bss_start[], _bss_end[];
extern uint32_t _stack_top[], _stack_limit[];

int main(void);

/* The pattern the unused stack holds (main reads the high-water mark from it). */
const uint32_t stack_paint = 0x5AC4A5E5u;

static uint32_t semihosting_call(uint32_t operation, const void *argument) {
    register uint32_t r0 __asm__("r0") = operation;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void semihosting_write(const char *text) { semihosting_call(0x04, text); /* SYS_WRITE0 */ }

void semihosting_write_number(uint32_t number) {
    char digits[11];
    int at = 10;
    digits[at] = '\0';
    do {
        digits[--at] = (char)('0' + number % 10);
        number /= 10;
    } while (number != 0);
    semihosting_write(&digits[at]);
}

_Noreturn void semihosting_exit(int success) {
    /* SYS_EXIT with ADP_Stopped_ApplicationExit, or ADP_Stopped_RunTimeErrorUnknown. */
    semihosting_call(0x18, (const void *)(uintptr_t)(success ? 0x20026u : 0x20023u));
    for (;;) {
    }
}

/* A fault (a Rust panic ends in `udf`, a HardFault here): report it and fail. */
static void fault_handler(void) {
    semihosting_write("fault: the program stopped in a fault handler\n");
    semihosting_exit(0);
}

/* Paints the stack below the current frame, then runs main. Kept out of line so that its
 * own frame is small and fixed. */
static __attribute__((noinline)) void paint_stack_and_run(void) {
    volatile uint32_t *word = _stack_limit;
    uint32_t here;
    while (word < (volatile uint32_t *)&here - 64) *word++ = stack_paint;
    semihosting_exit(main() == 0);
}

void reset_handler(void) {
    uint32_t *from, *to;
    /* CPACR: full access to the FPU (coprocessors 10 and 11), before any FP instruction. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n isb" ::: "memory");
    for (from = _data_load, to = _data_start; to < _data_end;) *to++ = *from++;
    for (to = _bss_start; to < _bss_end;) *to++ = 0;
    paint_stack_and_run();
}

/* Initial stack pointer, then the exception handlers from Reset (1) to SysTick (15). */
__attribute__((section(".vectors"), used)) static void (*const vector_table[16])(void) = {
    (void (*)(void))_stack_top, reset_handler, fault_handler, fault_handler, fault_handler,
    fault_handler, fault_handler, 0, 0, 0, 0, fault_handler, fault_handler, 0, fault_handler,
    fault_handler,
};
