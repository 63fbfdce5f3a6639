/* arm-app.c: the smallest program that uses the whole recorder API, for
 * tests/arm-size.sh. Built twice, with and without ETRACE_ENABLED; the
 * difference is what the library costs a firmware.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "etrace.h"

/* Stand-ins for a transmit register and a cycle counter. */
#define TX_REGISTER (*(volatile uint32_t *) 0x40004404u)
#define CYCLE_COUNTER (*(volatile uint32_t *) 0xe0001004u)

static etrace_t trace;

static bool
app_write (void          *user,
           const uint8_t *data,
           size_t         len)
{
  size_t i;

  (void) user;
  for (i = 0; i < len; i++)
    TX_REGISTER = data[i];
  return true;
}

static uint64_t
app_now (void *user)
{
  (void) user;
  return CYCLE_COUNTER;
}

int app_main (void);

int
app_main (void)
{
  etrace_config_t config = {
    app_write, NULL, app_now, NULL, ETRACE_TIMEBASE_CYCLES, 168000000u
  };
  int failures = 0;

  etrace_init (&trace, &config);
  failures += etrace_start (&trace, 0x1f) != ETRACE_OK;
  failures += etrace_span_start_deadline (&trace, "gyro_isr", ETRACE_SOURCE_ISR, 8, 0.5f) != ETRACE_OK;
  failures += etrace_span_start (&trace, "control_task", ETRACE_SOURCE_TASK, 4) != ETRACE_OK;
  failures += etrace_marker_value (&trace, "ukf_predict", 1) != ETRACE_OK;
  failures += etrace_marker (&trace, "ukf_update") != ETRACE_OK;
  failures += etrace_span_end (&trace, "control_task") != ETRACE_OK;
  failures += etrace_span_end (&trace, "gyro_isr") != ETRACE_OK;
  failures += etrace_poll (&trace) != ETRACE_OK;
  return failures + (int) etrace_transport_failures (&trace);
}
