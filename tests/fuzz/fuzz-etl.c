/* fuzz-etl.c: an ETL file through the diagsession importer's ETL reader and
 * its reading of kernel events
 *
 * Every record's header and payload is read (a payload outside the input
 * is an AddressSanitizer report) and given to the kernel event reader,
 * whose stacks must stay within its IP pool; every warning must name the
 * file, and a file that fails must say why.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "sps-etl-kernel.h"
#include "sps-xca.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

#define NAME "fuzz.etl"

static void
on_header (const SpsEtlHeader *header,
           gpointer            user_data)
{
  g_assert_true (header->pointer_size == 4 || header->pointer_size == 8);
  g_assert_cmpuint (header->perf_freq, >, 0);
  g_assert_true (g_utf8_validate (header->session_name, -1, NULL));
}

typedef struct
{
  guint64       sum;
  SpsEtlKernel *kernel;
} State;

static void
on_record (const SpsEtlRecord *record,
           gpointer            user_data)
{
  State *state = user_data;
  guint64 *sum = &state->sum;

  g_assert_cmpint (record->kind, <, SPS_ETL_N_RECORD_KINDS);
  g_assert_true (record->pointer_size == 4 || record->pointer_size == 8);
  if (record->provider != NULL)
    *sum += record->provider[0] + record->provider[15];
  for (gsize i = 0; i < record->extended_len; i++)
    *sum += record->extended[i];
  for (gsize i = 0; i < record->payload_len; i++)
    *sum += record->payload[i];
  sps_etl_kernel_add (state->kernel, record);
}

static void
check_kernel (SpsEtlKernel *kernel)
{
  for (guint i = 0; i < kernel->stacks->len; i++)
    {
      const SpsEtlStack *stack = &g_array_index (kernel->stacks, SpsEtlStack, i);

      g_assert_cmpuint ((guint64) stack->start + stack->len, <=, stack->wide ? kernel->wide_ips->len : kernel->ips->len);
    }
  for (guint i = 0; i < kernel->samples.len; i++)
    {
      const SpsEtlSample *sample = sps_etl_samples_at (&kernel->samples, i);
      guint32 kernel_part = sps_etl_kernel_sample_stack (kernel, i, FALSE);
      guint32 user_part = sps_etl_kernel_sample_stack (kernel, i, TRUE);

      g_assert_true (kernel_part == SPS_ETL_NO_ID || kernel_part < kernel->stacks->len);
      g_assert_true (user_part == SPS_ETL_NO_ID || user_part < kernel->stacks->len);
      g_assert_cmpuint (sample->ip, <, kernel->sample_ips->len);
    }
  for (guint i = 1; i < kernel->sample_stacks->len; i++)
    g_assert_cmpuint (g_array_index (kernel->sample_stacks, SpsEtlSampleStacks, i - 1).sample, <,
                      g_array_index (kernel->sample_stacks, SpsEtlSampleStacks, i).sample);
  for (guint i = 0; i < kernel->processes->len; i++)
    g_assert_nonnull (g_ptr_array_index (kernel->processes, i));
  for (guint i = 0; i < kernel->images->len; i++)
    g_assert_true (g_utf8_validate (((SpsEtlImage *) g_ptr_array_index (kernel->images, i))->name, -1, NULL));
}

static void
on_warning (const char *kind,
            const char *message,
            gpointer    user_data)
{
  g_assert_nonnull (kind);
  if (!g_str_has_prefix (message, NAME " (byte "))
    g_error ("a warning does not say the file and where: %s", message);
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  static const SpsEtlReaderFuncs funcs = { on_header, on_record, on_warning, sps_xca_decompress_buffer };
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  State state = { 0, kernel };
  SpsEtlStats stats;

  sps_fuzz_init ();
  if (!sps_etl_read (data, size, NAME, &funcs, &state, &stats, &error))
    {
      g_assert_nonnull (error);
      if (!g_str_has_prefix (error->message, NAME " (byte "))
        g_error ("the error does not say the file and where: %s", error->message);
    }
  else
    g_assert_no_error (error);
  g_assert_cmpuint (stats.n_skipped_buffers, <=, stats.n_compressed_buffers);
  sps_etl_kernel_finish (kernel);
  check_kernel (kernel);
  return state.sum == G_MAXUINT64;
}
