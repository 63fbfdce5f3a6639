/* gen-nettrace.c: writes a large .nettrace of deep CPU samples for the
 * benchmark
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: gen-nettrace N_SAMPLES OUT
 *
 * Four threads sampled every millisecond, tick by tick. Each thread's
 * true stack walks between 20 and 300 frames deep: it stays put for a
 * few samples (a hot spot), then returns or calls a few levels, now and
 * then deep recursion; the file keeps the 100 frames nearest the leaf,
 * as the runtime does. 4,000 methods named by the end rundown, a sequence
 * point every 50,000 samples. Deterministic (fixed seed).
 */

#include "config.h"

#include <stdlib.h>

#include <glib.h>

#include "nettrace-writer.h"

#define N_THREADS  4
#define N_METHODS  4000
#define MAX_DEPTH  300
#define MIN_DEPTH  20

static guint64
method_start (guint m)
{
  return G_GUINT64_CONSTANT (0x7ff900000000) + (guint64) m * 0x200;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (424970285);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  NtWriter *w;
  guint depth[N_THREADS];
  guint stay[N_THREADS];
  guint stacks[N_THREADS][MAX_DEPTH];
  guint64 ips[MAX_DEPTH];
  guint64 n_samples;
  guint64 written = 0;
  gint64 frequency = 10000000;
  gint64 sync = G_GINT64_CONSTANT (5000000000000);

  if (argc != 3)
    {
      g_printerr ("usage: gen-nettrace N_SAMPLES OUT\n");
      return 2;
    }
  n_samples = g_ascii_strtoull (argv[1], NULL, 10);

  w = nt_writer_new (8, frequency, sync);
  for (guint m = 0; m < N_METHODS; m++)
    {
      g_autofree char *ns = g_strdup_printf ("Bench.Generated.Namespace%02u.Type%03u", m % 37, m % 211);
      g_autofree char *name = g_strdup_printf ("Method%04u", m);

      nt_writer_add_method (w, method_start (m), 0x180, 0x7000, ns, name,
                            "instance void  (int32,class System.String)", FALSE);
    }
  nt_writer_add_module (w, 0x7000, "/app/Bench.Generated.dll");

  for (guint t = 0; t < N_THREADS; t++)
    {
      depth[t] = MIN_DEPTH + g_rand_int_range (rand, 0, 100);
      stay[t] = 0;
      for (guint d = 0; d < MAX_DEPTH; d++)
        stacks[t][d] = g_rand_int_range (rand, 0, N_METHODS);
    }

  for (guint64 k = 0; written < n_samples; k++)
    {
      gint64 ticks = sync + frequency / 10 + (gint64) k * (frequency / 1000);

      for (guint t = 0; t < N_THREADS && written < n_samples; t++)
        {
          if (stay[t] == 0)
            {
              gint32 r = g_rand_int_range (rand, 0, 100);
              gint32 step;
              guint d;

              if (r < 45)
                step = -g_rand_int_range (rand, 1, 6);
              else if (r < 90)
                step = g_rand_int_range (rand, 1, 6);
              else if (r < 95)
                step = g_rand_int_range (rand, 20, 80);
              else
                step = -g_rand_int_range (rand, 20, 80);
              d = (guint) CLAMP ((gint32) depth[t] + step, MIN_DEPTH, MAX_DEPTH);

              /* Frames above the old depth are new calls */
              for (guint i = MIN (d, depth[t]) - 2; i < d; i++)
                stacks[t][i] = g_rand_int_range (rand, 0, N_METHODS);
              depth[t] = d;
              stay[t] = g_rand_int_range (rand, 5, 40);
            }
          stay[t]--;

          for (guint i = 0; i < depth[t]; i++)
            ips[i] = method_start (stacks[t][depth[t] - 1 - i]) + 0x10 + 4 * (i % 3);
          nt_writer_sample (w, 1000 + t, ticks + t, ips, depth[t], 2);
          written++;
          if (written % 50000 == 0)
            nt_writer_sequence_point (w, ticks + N_THREADS);
        }
    }

  bytes = nt_writer_finish (w, sync + frequency * 10000, TRUE);
  nt_writer_free (w);

  if (!g_file_set_contents (argv[2], g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error))
    {
      g_printerr ("gen-nettrace: %s\n", error->message);
      return 1;
    }

  return 0;
}
