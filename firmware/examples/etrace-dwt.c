/* etrace-dwt.c: the DWT cycle counter as the trace clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Cortex-M3/M4/M7/M33 count core cycles in DWT->CYCCNT. Reading it is one
 * volatile load; the encoder extends the 32-bit count to 64 bits, so use it
 * with ETRACE_TIMEBASE_CYCLES and the core frequency in Hz:
 *
 *   etrace_config_t config = {
 *     etrace_rtt_write, &rtt, etrace_dwt_now, NULL,
 *     ETRACE_TIMEBASE_CYCLES, 168000000u
 *   };
 *
 * At 168 MHz the counter wraps every 25.6 s; events (or etrace_poll())
 * must come at least every 2^31 cycles, 12.8 s, for the extension to hold.
 */

#include "etrace-ports.h"

#define DEMCR 0xe000edfcu      /* Debug Exception and Monitor Control */
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL 0xe0001000u
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CYCCNT 0xe0001004u
#define DWT_LAR 0xe0001fb0u    /* lock access register (Cortex-M7) */
#define DWT_LAR_KEY 0xc5acce55u

/**
 * etrace_dwt_init:
 *
 * Switches the cycle counter on (a debugger may already have).
 */
void
etrace_dwt_init (void)
{
  ETRACE_REG32 (DEMCR) |= DEMCR_TRCENA;
  ETRACE_REG32 (DWT_LAR) = DWT_LAR_KEY;
  ETRACE_REG32 (DWT_CYCCNT) = 0;
  ETRACE_REG32 (DWT_CTRL) |= DWT_CTRL_CYCCNTENA;
}

/**
 * etrace_dwt_now:
 * @user: unused
 *
 * An #etrace_now_fn.
 *
 * Returns: the raw 32-bit cycle count
 */
uint64_t
etrace_dwt_now (void *user)
{
  (void) user;
  return ETRACE_REG32 (DWT_CYCCNT);
}
