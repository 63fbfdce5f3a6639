/* simulate.c: two iterations of a control loop, traced to a file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: etrace-simulate [OUTPUT]   (default trace.bin)
 *        etrace-simulate --help
 *
 * Runs on the host with a simulated clock, so the output is the same byte
 * for byte on every run. Timebase nanoseconds, source mask 0x1F. Each
 * iteration k (k = 0, 1) starts at base = 1 ms + k * 10 ms:
 *
 *   base + 0        gyro_isr starts      (ISR, priority 8, deadline 0.5 ms)
 *   base + 40 us    gyro_isr ends
 *   base + 50 us    control_task starts  (task, priority 4, deadline 5 ms)
 *   base + 1 ms     marker ukf_predict   (value k)
 *   base + 2 ms     marker ukf_update    (no value; k = 1: base + 5 ms)
 *   base + 3 ms     control_task ends    (k = 1: base + 6.5 ms)
 *
 * The second control_task runs 6.45 ms against its 5 ms deadline: a host
 * reading the file finds 2 gyro_isr and 2 control_task spans, 4 markers
 * and exactly one deadline miss.
 *
 * The same source builds with -DETRACE_ENABLED=0: every etrace_* call then
 * compiles to nothing and the output file stays empty.
 */

#include "etrace.h"

#include <stdio.h>
#include <string.h>

#define US 1000u
#define MS 1000000u

typedef struct
{
  FILE *file;
  uint64_t now_ns;
} Simulation;

/* Transport: append to the file. */
static bool
sim_write (void          *user,
           const uint8_t *data,
           size_t         len)
{
  Simulation *sim = user;

  return fwrite (data, 1, len, sim->file) == len;
}

/* Clock: the simulated time, moved forward by the loop below. */
static uint64_t
sim_now (void *user)
{
  Simulation *sim = user;

  return sim->now_ns;
}

static void
control_loop_iteration (etrace_t   *trace,
                        Simulation *sim,
                        unsigned    k)
{
  uint64_t base = 1 * (uint64_t) MS + k * 10 * (uint64_t) MS;

  sim->now_ns = base;
  etrace_span_start_deadline (trace, "gyro_isr", ETRACE_SOURCE_ISR, 8, 0.5f);
  sim->now_ns = base + 40 * US;
  etrace_span_end (trace, "gyro_isr");

  sim->now_ns = base + 50 * US;
  etrace_span_start_deadline (trace, "control_task", ETRACE_SOURCE_TASK, 4,
                              5.0f);
  sim->now_ns = base + 1 * MS;
  etrace_marker_value (trace, "ukf_predict", k);
  /* The second update takes longer and the task misses its deadline. */
  sim->now_ns = base + (k == 0 ? 2 * MS : 5 * MS);
  etrace_marker (trace, "ukf_update");
  sim->now_ns = base + (k == 0 ? 3 * MS : 6 * MS + 500 * US);
  etrace_span_end (trace, "control_task");
}

static void
usage (FILE *out)
{
  fputs ("Usage: etrace-simulate [OUTPUT]\n"
         "Writes two iterations of a simulated control loop as an embedded\n"
         "trace stream to OUTPUT (default trace.bin), byte for byte the same\n"
         "on every run.\n"
         "\n"
         "  -h, --help  show this help and exit\n"
         "\n"
         "An OUTPUT whose name starts with '-' is given as ./-NAME.\n", out);
}

int
main (int   argc,
      char *argv[])
{
  const char *path = argc > 1 ? argv[1] : "trace.bin";
  Simulation sim = { NULL, 0 };
  etrace_config_t config = {
    sim_write, &sim, sim_now, &sim, ETRACE_TIMEBASE_NANOSECONDS, 0
  };
  etrace_t trace;
  unsigned k;

  /* An option is never taken for the output's name */
  if (argc > 1 && (strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "--help") == 0))
    {
      usage (stdout);
      return 0;
    }
  if (argc > 2 || (argc > 1 && argv[1][0] == '-'))
    {
      fprintf (stderr, "etrace-simulate: %s: %s\n", argc > 2 ? argv[2] : argv[1],
               argc > 2 ? "one output at most" : "unknown option");
      usage (stderr);
      return 2;
    }

  sim.file = fopen (path, "wb");
  if (sim.file == NULL)
    {
      perror (path);
      return 1;
    }

  etrace_init (&trace, &config);
  etrace_start (&trace, 0x1f);
  for (k = 0; k < 2; k++)
    control_loop_iteration (&trace, &sim, k);

  if (fclose (sim.file) != 0 || etrace_transport_failures (&trace) != 0)
    {
      fprintf (stderr, "%s: write failed\n", path);
      return 1;
    }
  return 0;
}
