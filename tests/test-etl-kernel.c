/* test-etl-kernel.c: processes, images, samples and stacks from ETL kernel events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The Diagnostics Hub session of the shared fixtures gives the processes
 * and images of a real machine and the target the profiler names; records
 * made by hand give samples their stacks in each of the ways the kernel
 * writes them (direct kernel and user parts, stack key references before
 * and after the key's definition).
 */

#include "config.h"

#include <string.h>

#include "sps-etl-kernel.h"
#include "sps-etl-map.h"
#include "sps-etl-private.h"
#include "sps-test-util.h"
#include "sps-test-zip.h"

#define DIAGHUB "perfview__diaghub-dotnetcore3.1-win-x64-diagsession.etls.zip"
#define DIAGHUB_DIR "diaghub-dotnetcore3.1-win-x64-diagsession/"

static void
on_record (const SpsEtlRecord *record,
           gpointer            user_data)
{
  sps_etl_kernel_add (user_data, record);
}

static const SpsEtlReaderFuncs funcs = { NULL, on_record, NULL, NULL };

/* Reads a member of a zip of the shared fixtures into @kernel; FALSE after
 * g_test_skip() */
static gboolean
read_into (SpsEtlKernel *kernel,
           const char   *member)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", DIAGHUB, member);
  g_autoptr(GError) error = NULL;
  SpsEtlStats stats;

  if (etl == NULL)
    return FALSE;
  g_assert_true (sps_etl_read (g_bytes_get_data (etl, NULL), g_bytes_get_size (etl), member,
                               &funcs, kernel, &stats, &error));
  g_assert_no_error (error);
  return TRUE;
}

static const SpsEtlProcess *
find_process (SpsEtlKernel *kernel,
              guint32       pid)
{
  for (guint i = 0; i < kernel->processes->len; i++)
    {
      const SpsEtlProcess *p = g_ptr_array_index (kernel->processes, i);

      if (p->pid == pid)
        return p;
    }
  return NULL;
}

static void
test_diaghub_processes (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const SpsEtlProcess *target;
  const SpsEtlImage *coreclr = NULL;
  guint n_target_images = 0;

  g_test_summary ("The Diagnostics Hub session's kernel logger and injected events: 241 "
                  "processes with names and command lines, the target process, its 85 images");
  if (!read_into (kernel, DIAGHUB_DIR "diaghub.kernel.1.etl") ||
      !read_into (kernel, DIAGHUB_DIR "diaghub.user_injected.1.etl"))
    return;
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->processes->len, ==, 241);
  g_assert_cmpuint (kernel->images->len, ==, 15103);
  g_assert_cmpuint (kernel->samples.len, ==, 0);
  g_assert_cmpuint (kernel->n_bad_payloads, ==, 0);
  g_assert_cmpuint (kernel->target_pid, ==, 2140);

  target = find_process (kernel, 2140);
  g_assert_nonnull (target);
  g_assert_cmpstr (target->image, ==, "locProject.exe");
  g_assert_cmpstr (target->command_line, ==,
                   "\"C:\\Users\\liha.REDMOND\\Desktop\\TestCase25\\locProject\\bin\\Debug\\"
                   "netcoreapp3.1\\locProject.exe\" ");
  g_assert_cmpuint (target->parent_pid, ==, 13540);
  /* Started during the trace; still running at its end */
  g_assert_cmpuint (target->start, ==, 13779847311);
  g_assert_cmpuint (target->end, ==, G_MAXUINT64);
  /* In the rundown at the start: there before the trace */
  g_assert_cmpuint (find_process (kernel, 1040)->start, ==, 0);
  g_assert_cmpstr (find_process (kernel, 1040)->command_line, ==,
                   "C:\\WINDOWS\\system32\\svchost.exe -k RPCSS -p");

  for (guint i = 0; i < kernel->images->len; i++)
    {
      const SpsEtlImage *image = g_ptr_array_index (kernel->images, i);

      if (image->pid != 2140)
        continue;
      n_target_images++;
      if (g_strcmp0 (image->name, "coreclr.dll") == 0)
        coreclr = image;
    }
  g_assert_cmpuint (n_target_images, ==, 85);
  g_assert_nonnull (coreclr);
  g_assert_cmphex (coreclr->base, ==, 0x7ffd2df60000);
  g_assert_cmphex (coreclr->size, ==, 0x56f000);
  g_assert_cmpuint (coreclr->load, ==, 13793504445);
  g_assert_cmpuint (coreclr->unload, ==, 13874884222);
}

/* Records made by hand: a 64-bit kernel event of @group/@opcode */
static SpsEtlRecord
kernel_record (guint8        group,
               guint8        opcode,
               guint64       ts,
               const guint8 *payload,
               gsize         len)
{
  SpsEtlRecord r;

  memset (&r, 0, sizeof r);
  r.kind = SPS_ETL_RECORD_SYSTEM;
  r.pointer_size = 8;
  r.group = group;
  r.opcode = opcode;
  r.version = 2;
  r.timestamp = ts;
  r.pid = r.tid = SPS_ETL_NO_ID;
  r.payload = payload;
  r.payload_len = len;
  return r;
}

static void
put64 (guint8  *p,
       guint64  v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

static void
put32 (guint8  *p,
       guint32  v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static void
add_sample (SpsEtlKernel *kernel,
            guint64       ts,
            guint32       tid,
            guint64       ip)
{
  guint8 p[16] = { 0 };
  SpsEtlRecord r;

  put64 (p, ip);
  put32 (p + 8, tid);
  r = kernel_record (15, 46, ts, p, sizeof p);
  g_assert_true (sps_etl_kernel_add (kernel, &r));
}

/* A StackWalk event for the sample at (@ts, @tid) with @n IPs */
static void
add_stack (SpsEtlKernel  *kernel,
           guint64        ts,
           guint32        tid,
           const guint64 *ips,
           guint          n)
{
  guint8 p[16 + 8 * 8] = { 0 };
  SpsEtlRecord r;

  g_assert_cmpuint (n, <=, 8);
  put64 (p, ts);
  put32 (p + 8, 1);
  put32 (p + 12, tid);
  for (guint i = 0; i < n; i++)
    put64 (p + 16 + 8 * i, ips[i]);
  r = kernel_record (24, 32, ts + 1, p, 16 + 8 * n);
  g_assert_true (sps_etl_kernel_add (kernel, &r));
}

/* A reference to stack key @key for the sample at (@ts, @tid), logged at
 * @logged */
static void
add_key_ref_logged (SpsEtlKernel *kernel,
                    guint64       ts,
                    guint64       logged,
                    guint32       tid,
                    guint64       key,
                    gboolean      user)
{
  guint8 p[24] = { 0 };
  SpsEtlRecord r;

  put64 (p, ts);
  put32 (p + 8, 1);
  put32 (p + 12, tid);
  put64 (p + 16, key);
  r = kernel_record (24, user ? 38 : 37, logged, p, sizeof p);
  g_assert_true (sps_etl_kernel_add (kernel, &r));
}

static void
add_key_ref (SpsEtlKernel *kernel,
             guint64       ts,
             guint32       tid,
             guint64       key,
             gboolean      user)
{
  add_key_ref_logged (kernel, ts, ts + 2, tid, key, user);
}

static void
add_key (SpsEtlKernel  *kernel,
         guint64        ts,
         guint8         opcode,
         guint64        key,
         const guint64 *ips,
         guint          n)
{
  guint8 p[8 + 8 * 8] = { 0 };
  SpsEtlRecord r;

  put64 (p, key);
  for (guint i = 0; i < n; i++)
    put64 (p + 8 + 8 * i, ips[i]);
  r = kernel_record (24, opcode, ts, p, 8 + 8 * n);
  g_assert_true (sps_etl_kernel_add (kernel, &r));
}

/* The IPs of @stack (at most 8), read back through the pool's accessor */
static const guint64 *
stack_ips (SpsEtlKernel *kernel,
           guint32       stack,
           guint        *n)
{
  static guint64 ips[8];
  const SpsEtlStack *s = &g_array_index (kernel->stacks, SpsEtlStack, stack);

  g_assert_cmpuint (s->len, <=, G_N_ELEMENTS (ips));
  *n = s->len;
  for (guint i = 0; i < s->len; i++)
    ips[i] = sps_etl_stack_ip (kernel, s, i);
  return ips;
}

static void
test_stacks (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 kernel_part[] = { 0xfffff80001000010, 0xfffff80001000020 };
  const guint64 user_part[] = { 0x401000, 0x402000, 0x403000 };
  const guint64 key_user[] = { 0x7ff000001000, 0x7ff000002000 };
  const guint64 key_kernel[] = { 0xfffff80002000000 };
  const guint64 *ips;
  const SpsEtlSample *s;
  guint n;

  g_test_summary ("Samples get their stacks: direct kernel and user parts by thread and "
                  "time, stack keys defined before or after their reference; strays counted");

  add_sample (kernel, 1000, 7, 0xfffff80001000000);
  add_sample (kernel, 1000, 8, 0x400000);
  add_sample (kernel, 2000, 7, 0x401000);
  /* Sample 0: kernel part then, later, its user part */
  add_stack (kernel, 1000, 7, kernel_part, 2);
  add_stack (kernel, 1000, 7, user_part, 3);
  /* Sample 1: a key defined before the reference; sample 2: a kernel key
   * defined only in the rundown, after its reference */
  add_key (kernel, 900, 34, 0xabc0, key_user, 2);
  add_key_ref (kernel, 1000, 8, 0xabc0, TRUE);
  add_key_ref (kernel, 2000, 7, 0xdef0, FALSE);
  /* No sample at (3000, 7); a key never defined */
  add_stack (kernel, 3000, 7, user_part, 1);
  add_key_ref (kernel, 2000, 7, 0x1234, TRUE);
  add_key (kernel, 5000, 36, 0xdef0, key_kernel, 1);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->samples.len, ==, 3);
  g_assert_cmpuint (kernel->n_stack_events, ==, 3);
  g_assert_cmpuint (kernel->n_samples, ==, 3);
  g_assert_cmpuint (kernel->n_key_refs_user, ==, 2);
  g_assert_cmpuint (kernel->n_key_refs_kernel, ==, 1);
  g_assert_cmpuint (kernel->n_key_definitions, ==, 1);
  g_assert_cmpuint (kernel->n_key_rundowns, ==, 1);
  g_assert_cmpuint (kernel->n_stacks_attached, ==, 4);
  g_assert_cmpuint (kernel->n_stacks_unmatched, ==, 1);
  g_assert_cmpuint (kernel->n_keys_unresolved, ==, 1);

  s = sps_etl_samples_at (&kernel->samples, 0);
  g_assert_cmpuint (s->tid, ==, 7);
  g_assert_cmphex (sps_etl_sample_ip (kernel, s), ==, 0xfffff80001000000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, FALSE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[1], ==, 0xfffff80001000020);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, TRUE), &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmphex (ips[0], ==, 0x401000);

  s = sps_etl_samples_at (&kernel->samples, 1);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 1, FALSE), ==, SPS_ETL_NO_ID);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[1], ==, 0x7ff000002000);

  s = sps_etl_samples_at (&kernel->samples, 2);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 2, TRUE), ==, SPS_ETL_NO_ID);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 2, FALSE), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (ips[0], ==, 0xfffff80002000000);
}

/* A stack key is a cache slot that is reused: a reference takes the
 * stack of the key's next definition (its eviction or the rundown), not
 * the stack the slot held before */
static void
test_key_reuse (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 first[] = { 0x401000 };
  const guint64 second[] = { 0x502000, 0x503000 };
  const guint64 *ips;
  guint n;

  g_test_summary ("A reused stack key: each reference gets the definition that follows it");

  add_sample (kernel, 1000, 7, 0x401000);
  add_sample (kernel, 2000, 8, 0x502000);
  add_sample (kernel, 3000, 9, 0x600000);
  add_key_ref (kernel, 1000, 7, 0xabc0, TRUE);
  /* Evicted: the first use's stack */
  add_key (kernel, 1500, 35, 0xabc0, first, 1);
  /* The slot again, for another stack, defined by the rundown */
  add_key_ref (kernel, 2000, 8, 0xabc0, TRUE);
  add_key (kernel, 2500, 36, 0xabc0, second, 2);
  /* After the last definition: nothing says which stack it was */
  add_key_ref (kernel, 3000, 9, 0xabc0, TRUE);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->n_stacks_attached, ==, 2);
  g_assert_cmpuint (kernel->n_keys_unresolved, ==, 1);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, TRUE), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (ips[0], ==, 0x401000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0x502000);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 2, TRUE), ==, SPS_ETL_NO_ID);
}

/* Each processor logs into its own buffers, so the file interleaves
 * them: a reference takes its key's next definition in time, whether the
 * file has it before or after the reference */
static void
test_key_time_order (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 evicted[] = { 0x401000 };
  const guint64 earlier[] = { 0x501000 };
  const guint64 later[] = { 0x601000, 0x602000 };
  const guint64 *ips;
  guint n;

  g_test_summary ("Stack keys are matched in time order: a definition read before its reference "
                  "but logged after it applies, one read after but logged before does not");

  add_sample (kernel, 1000, 7, 0x401000);
  add_sample (kernel, 2000, 8, 0x601000);
  /* Sample 0's slot evicted at 1500, read first (another processor's
   * buffer); then the reference at 1000 */
  add_key (kernel, 1500, 35, 0xabc0, evicted, 1);
  add_key_ref (kernel, 1000, 7, 0xabc0, TRUE);
  /* Sample 1 at 2000: its slot's previous use was evicted at 1800, read
   * after the reference; its own stack is the rundown's at 9000 */
  add_key_ref (kernel, 2000, 8, 0xdef0, TRUE);
  add_key (kernel, 1800, 35, 0xdef0, earlier, 1);
  add_key (kernel, 9000, 36, 0xdef0, later, 2);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->n_stacks_attached, ==, 2);
  g_assert_cmpuint (kernel->n_keys_unresolved, ==, 0);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, TRUE), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (ips[0], ==, 0x401000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0x601000);
}

static void
test_key_when_logged (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 previous_use[] = { 0x7776ac3c };
  const guint64 own[] = { 0x7ff600001000, 0x7ffd00002000 };
  const guint64 user_before[] = { 0x401000 };
  const guint64 kernel_stack[] = { 0xfffff80001000010, 0xfffff80001000020 };
  const guint64 user_after[] = { 0x402000 };
  const guint64 *ips;
  guint n;

  g_test_summary ("A stack key reference takes the key's first definition after the reference "
                  "was logged (not after its sample), among definitions of its own mode "
                  "(kernel or user, by the stack's root), as TraceEvent matches them");

  /* Sample 0 at 1000; its user key is logged at 1600, when the thread
   * returns to user mode. The slot's previous use is evicted at 1300, in
   * between: not this sample's stack. Its own is the rundown's. */
  add_sample (kernel, 1000, 7, 0x7ff600001000);
  add_key_ref_logged (kernel, 1000, 1600, 7, 0xabc0, TRUE);
  add_key (kernel, 1300, 35, 0xabc0, previous_use, 1);
  add_key (kernel, 9000, 36, 0xabc0, own, 2);
  /* Sample 1 at 2000: a kernel and a user stack under the same key. The
   * user definition at 2050 comes before the user reference (2100): it is
   * another use's, and not the kernel reference's either. */
  add_sample (kernel, 2000, 8, 0xfffff80001000010);
  add_key_ref_logged (kernel, 2000, 2002, 8, 0xdef0, FALSE);
  add_key_ref_logged (kernel, 2000, 2100, 8, 0xdef0, TRUE);
  add_key (kernel, 2050, 35, 0xdef0, user_before, 1);
  add_key (kernel, 3000, 35, 0xdef0, kernel_stack, 2);
  add_key (kernel, 4000, 35, 0xdef0, user_after, 1);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->n_keys_unresolved, ==, 0);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0x7ff600001000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, FALSE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0xfffff80001000010);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, TRUE), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (ips[0], ==, 0x402000);
}

/* Stacks whose IPs share their upper 32 bits are kept in 4 bytes an IP,
 * with those bits once; the others in 8 */
static void
test_narrow_stacks (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 narrow[] = { 0x401000, 0xfffffff0 };
  const guint64 high[] = { 0xfffff80001000010, 0xfffff800ffffff00 };
  const guint64 mixed[] = { 0xfffff80001000010, 0xfffff88000200000 };
  const guint64 *ips;
  guint n;

  g_test_summary ("Stack IPs that share their upper half are kept in 4 bytes each, "
                  "the others in 8, and all read back unchanged");

  add_sample (kernel, 1000, 7, 0x401000);
  add_sample (kernel, 2000, 7, 0xfffff80001000000);
  add_sample (kernel, 3000, 8, 0xfffff80001000000);
  add_stack (kernel, 1000, 7, narrow, 2);
  add_stack (kernel, 2000, 7, high, 2);
  add_stack (kernel, 3000, 8, mixed, 2);
  sps_etl_kernel_finish (kernel);

  /* Two narrow stacks of 2 IPs, one wide */
  g_assert_cmpuint (kernel->ips->len, ==, 4);
  g_assert_cmpuint (kernel->wide_ips->len, ==, 2);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0x401000);
  g_assert_cmphex (ips[1], ==, 0xfffffff0);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, FALSE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0xfffff80001000010);
  g_assert_cmphex (ips[1], ==, 0xfffff800ffffff00);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 2, FALSE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0xfffff80001000010);
  g_assert_cmphex (ips[1], ==, 0xfffff88000200000);
}

/* A sample keeps its IP as an id among the distinct IPs, and its stack
 * parts in a table sorted by sample at the end, where each side's first
 * part wins */
static void
test_sample_ips_and_parts (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 first_user[] = { 0x401000, 0x402000 };
  const guint64 second_user[] = { 0x501000 };
  const guint64 late_user[] = { 0x601000, 0x602000, 0x603000 };
  const guint64 key_kernel[] = { 0xfffff80002000000 };
  const guint64 *ips;
  guint n;

  g_test_summary ("Samples' IPs read back through their ids (the id table grown several "
                  "times); stack parts read out of their samples' order are sorted, and "
                  "each side's first part wins");

  /* 3,000 samples over 700 distinct IPs, two in a row at each */
  for (guint i = 0; i < 3000; i++)
    add_sample (kernel, 10 + i, 100 + i % 3, 0x10000000 + (guint64) ((i / 2 * 3) % 700) * 0x10);
  g_assert_cmpuint (kernel->sample_ips->len, ==, 700);
  for (guint i = 0; i < 3000; i++)
    g_assert_cmphex (sps_etl_sample_ip (kernel, sps_etl_samples_at (&kernel->samples, i)), ==,
                     0x10000000 + (guint64) ((i / 2 * 3) % 700) * 0x10);

  /* Samples 3000 (A) and 3001 (B) of thread 7 */
  add_sample (kernel, 100000, 7, 0x401000);
  add_sample (kernel, 200000, 7, 0x10000000);
  g_assert_cmpuint (kernel->sample_ips->len, ==, 701);
  /* B: a user part, then another one that loses */
  add_stack (kernel, 200000, 7, first_user, 2);
  add_stack (kernel, 200000, 7, second_user, 1);
  /* A: a user part read after B (so after its sample's turn), and a
   * kernel key reference */
  add_stack (kernel, 100000, 7, late_user, 3);
  /* Samples 1 and 0 (threads 101 and 100), read after later samples of
   * their threads and in reverse: the parts come in no order then */
  add_stack (kernel, 11, 101, second_user, 1);
  add_stack (kernel, 10, 100, first_user, 2);
  add_key_ref (kernel, 100000, 7, 0xabc0, FALSE);
  add_key (kernel, 300000, 36, 0xabc0, key_kernel, 1);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->n_stack_events, ==, 5);
  g_assert_cmpuint (kernel->n_stacks_attached, ==, 5);
  g_assert_cmpuint (kernel->n_stacks_unmatched, ==, 0);
  g_assert_cmpuint (kernel->sample_stacks->len, ==, 4);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 0, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[1], ==, 0x402000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 1, TRUE), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (ips[0], ==, 0x501000);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 2, TRUE), ==, SPS_ETL_NO_ID);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 2999, TRUE), ==, SPS_ETL_NO_ID);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 2999, FALSE), ==, SPS_ETL_NO_ID);

  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 3000, TRUE), &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmphex (ips[2], ==, 0x603000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 3000, FALSE), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmphex (ips[0], ==, 0xfffff80002000000);
  ips = stack_ips (kernel, sps_etl_kernel_sample_stack (kernel, 3001, TRUE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmphex (ips[0], ==, 0x401000);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 3001, FALSE), ==, SPS_ETL_NO_ID);
  g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, 3002, TRUE), ==, SPS_ETL_NO_ID);
  g_assert_cmphex (sps_etl_sample_ip (kernel, sps_etl_samples_at (&kernel->samples, 3000)), ==, 0x401000);
}

/* The latest sample of each thread is kept in a table that grows with
 * the threads: every one of 200 threads' stack parts finds its sample */
static void
test_many_threads (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  const guint64 user_part[] = { 0x401000 };

  g_test_summary ("Stack parts find the latest sample of their thread among 200 threads "
                  "(thread 0 included), read while the threads' table grows");

  for (guint32 tid = 0; tid < 200; tid++)
    {
      add_sample (kernel, 500, tid * 4, 0x400000);
      add_sample (kernel, 1000 + tid, tid * 4, 0x400000);
    }
  for (guint32 tid = 0; tid < 200; tid++)
    add_stack (kernel, 1000 + tid, tid * 4, user_part, 1);
  /* Not the latest sample of its thread: waits, found at the end */
  add_stack (kernel, 500, 8, user_part, 1);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->n_stacks_attached, ==, 201);
  g_assert_cmpuint (kernel->n_stacks_unmatched, ==, 0);
  for (guint i = 0; i < 400; i++)
    g_assert_cmpuint (sps_etl_kernel_sample_stack (kernel, i, TRUE) != SPS_ETL_NO_ID, ==, i % 2 == 1 || i == 4);
}

static void
test_short_payloads (void)
{
  g_autoptr(SpsEtlKernel) kernel = sps_etl_kernel_new ();
  guint8 p[64] = { 0 };
  SpsEtlRecord r;

  g_test_summary ("Kernel events too short for their fields are counted and skipped");

  /* A process start needs P + 16 bytes, an image 3P + 32, a sample P + 4,
   * a stack 16 + P, a thread 8 */
  r = kernel_record (3, 1, 10, p, 23);
  sps_etl_kernel_add (kernel, &r);
  r = kernel_record (20, 3, 10, p, 55);
  sps_etl_kernel_add (kernel, &r);
  r = kernel_record (15, 46, 10, p, 11);
  sps_etl_kernel_add (kernel, &r);
  r = kernel_record (24, 32, 10, p, 16);
  sps_etl_kernel_add (kernel, &r);
  r = kernel_record (5, 1, 10, p, 7);
  sps_etl_kernel_add (kernel, &r);
  /* Long enough: a process with no SID and an empty name */
  r = kernel_record (3, 1, 10, p, 40);
  r.version = 3;
  sps_etl_kernel_add (kernel, &r);
  sps_etl_kernel_finish (kernel);

  g_assert_cmpuint (kernel->n_bad_payloads, ==, 5);
  g_assert_cmpuint (kernel->processes->len, ==, 1);
  g_assert_cmpuint (kernel->images->len, ==, 0);
  g_assert_cmpuint (kernel->samples.len, ==, 0);
  g_assert_cmpuint (kernel->threads->len, ==, 0);
}

/* The table of the import's hot lookups against a GHashTable given the
 * same keys: pids and tids shifted together, IPs, keys that differ only
 * in their upper bits, values replaced, and enough keys to grow it
 * several times */
static void
test_map (void)
{
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  GRand *rand = g_rand_new_with_seed (15);
  SpsEtlMap map;
  GHashTableIter iter;
  gpointer key, value;
  guint n_slots = 0;
  guint64 seven = 7;
  guint32 found = 0;

  sps_etl_map_init (&map);
  g_assert_false (sps_etl_map_lookup (&map, 0, &found));
  for (guint i = 0; i < 20000; i++)
    {
      guint64 k;
      guint32 v = g_rand_int_range (rand, 0, G_MAXINT32);

      switch (i % 4)
        {
        case 0: k = (guint64) (4 * g_rand_int_range (rand, 0, 2000)) << 32 | (guint64) (4 * g_rand_int_range (rand, 0, 4000)); break;
        case 1: k = G_GUINT64_CONSTANT (0xfffff80000000000) + (guint64) g_rand_int (rand); break;
        case 2: k = (guint64) g_rand_int_range (rand, 0, 64) << 48; break;
        default: k = (guint64) g_rand_int_range (rand, 0, 1000); break;
        }
      sps_etl_map_insert (&map, k, v);
      g_hash_table_insert (expected, g_memdup2 (&k, sizeof k), GUINT_TO_POINTER (v));
    }
  /* The value G_MAXUINT32 − 1, the largest a slot holds */
  sps_etl_map_insert (&map, seven, G_MAXUINT32 - 1);
  g_hash_table_insert (expected, g_memdup2 (&seven, sizeof seven), GUINT_TO_POINTER (G_MAXUINT32 - 1));

  g_assert_cmpuint (map.len, ==, g_hash_table_size (expected));
  g_assert_cmpuint (map.len, <=, (map.mask + 1) / 2);
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_true (sps_etl_map_lookup (&map, *(const guint64 *) key, &found));
      g_assert_cmpuint (found, ==, GPOINTER_TO_UINT (value));
    }
  for (guint i = 0; i <= map.mask; i++)
    if (map.values[i] != 0)
      {
        n_slots++;
        g_assert_true (g_hash_table_contains (expected, &map.keys[i]));
      }
  g_assert_cmpuint (n_slots, ==, map.len);
  /* Keys never given */
  for (guint i = 0; i < 1000; i++)
    {
      guint64 k = G_GUINT64_CONSTANT (0x7000000000000000) + i;

      g_assert_false (sps_etl_map_lookup (&map, k, &found));
    }
  sps_etl_map_clear (&map);
  g_rand_free (rand);
}

/* Ticks to ns on a session's clock against the 128-bit formula, for
 * clocks whose tick is a whole number of ns and others, times before the
 * start, at the edge of the fast path and past the model's range */
static void
test_clock (void)
{
  static const guint64 frequencies[] = { 10000000, 1000000000, 2500000, 1, 3579545, 2000000000,
                                         G_MAXUINT64 };
  static const guint64 starts[] = { 0, 1000, G_MAXUINT64 / 2, G_MAXUINT64 - 5 };
  GRand *rand = g_rand_new_with_seed (62);

  for (guint f = 0; f < G_N_ELEMENTS (frequencies); f++)
    for (guint s = 0; s < G_N_ELEMENTS (starts); s++)
      {
        SpsEtlClock clock;
        guint64 ticks[16];

        sps_etl_clock_init (&clock, starts[s], frequencies[f]);
        ticks[0] = starts[s];
        ticks[1] = starts[s] + 1;
        ticks[2] = starts[s] - 1;
        ticks[3] = starts[s] + clock.max_delta;
        ticks[4] = starts[s] + clock.max_delta + 1;
        ticks[5] = 0;
        ticks[6] = G_MAXUINT64;
        ticks[7] = starts[s] + frequencies[f];
        for (guint i = 8; i < G_N_ELEMENTS (ticks); i++)
          ticks[i] = starts[s] + ((guint64) g_rand_int (rand) << 20 | g_rand_int (rand));
        for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
          {
            __int128 t = ((__int128) ticks[i] - (__int128) starts[s]) * 1000000000 / frequencies[f];
            gint64 expected = (gint64) CLAMP (t, -SPS_ETL_TIME_LIMIT, SPS_ETL_TIME_LIMIT);

            g_assert_cmpint (sps_etl_clock_to_ns (&clock, ticks[i]), ==, expected);
          }
      }
  /* By hand: 10 MHz, 100 ns a tick */
  {
    SpsEtlClock clock;

    sps_etl_clock_init (&clock, 5000, 10000000);
    g_assert_cmpint (sps_etl_clock_to_ns (&clock, 5123), ==, 12300);
    g_assert_cmpint (sps_etl_clock_to_ns (&clock, 4000), ==, -100000);
    g_assert_cmpint (sps_etl_clock_to_ns (&clock, G_MAXUINT64), ==, SPS_ETL_TIME_LIMIT);
  }
  g_rand_free (rand);
}

typedef struct
{
  guint64 key;
  guint64 ts;
  guint32 order;            /* the element's place before sorting */
  guint32 pad;
} SortItem;

static gint
compare_items (gconstpointer a,
               gconstpointer b)
{
  const SortItem *ia = a;
  const SortItem *ib = b;
  gint by_key = (ia->key > ib->key) - (ia->key < ib->key);

  return by_key != 0 ? by_key : (ia->ts > ib->ts) - (ia->ts < ib->ts);
}

/* As a stack part: a 4-byte key first */
typedef struct
{
  guint32 key;
  guint32 order;
} SortPair;

static gint
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  guint32 ka = ((const SortPair *) a)->key;
  guint32 kb = ((const SortPair *) b)->key;

  return (ka > kb) - (ka < kb);
}

/* The radix sort of the stack parts and key definitions against GLib's
 * stable sort: keys with many repeats, equal high bytes, every byte
 * different, 4- and 8-byte keys, two keys in turn */
static void
test_radix_sort (void)
{
  GRand *rand = g_rand_new_with_seed (24);
  static const guint sizes[] = { 0, 1, 2, 3, 255, 256, 1000, 30000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint spread = 0; spread < 3; spread++)
      {
        guint n = sizes[s];
        g_autoptr(GArray) expected = g_array_sized_new (FALSE, FALSE, sizeof (SortItem), n);
        g_autoptr(GArray) got = NULL;
        g_autoptr(GArray) pairs = g_array_sized_new (FALSE, FALSE, sizeof (SortPair), n);
        g_autoptr(GArray) sorted_pairs = NULL;

        for (guint i = 0; i < n; i++)
          {
            SortItem item = { 0, 0, i, 0 };
            SortPair pair = { 0, i };

            switch (spread)
              {
              case 0:   /* a few keys, times of one second */
                item.key = G_GUINT64_CONSTANT (0xfffff80012340000) + 8 * g_rand_int_range (rand, 0, 16);
                item.ts = G_GUINT64_CONSTANT (0x1d0000000) + g_rand_int_range (rand, 0, 10000000);
                break;
              case 1:   /* every byte may differ */
                item.key = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
                item.ts = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);
                break;
              default:  /* equal keys and times: the order alone */
                item.key = 7;
                item.ts = g_rand_int_range (rand, 0, 2);
                break;
              }
            g_array_append_val (expected, item);
            pair.key = spread == 1 ? g_rand_int (rand) : (guint32) g_rand_int_range (rand, 0, 300);
            g_array_append_val (pairs, pair);
          }
        got = g_array_copy (expected);
        sorted_pairs = g_array_copy (pairs);

        g_array_sort (expected, compare_items);
        sps_etl_radix_sort (got->data, got->len, sizeof (SortItem), G_STRUCT_OFFSET (SortItem, ts), 8);
        sps_etl_radix_sort (got->data, got->len, sizeof (SortItem), G_STRUCT_OFFSET (SortItem, key), 8);
        g_assert_cmpmem (got->data, got->len * sizeof (SortItem), expected->data, expected->len * sizeof (SortItem));

        g_array_sort (pairs, compare_pairs);
        sps_etl_radix_sort (sorted_pairs->data, sorted_pairs->len, sizeof (SortPair),
                            G_STRUCT_OFFSET (SortPair, key), sizeof (guint32));
        g_assert_cmpmem (sorted_pairs->data, sorted_pairs->len * sizeof (SortPair),
                         pairs->data, pairs->len * sizeof (SortPair));
      }
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/kernel/diaghub-processes", test_diaghub_processes);
  g_test_add_func ("/etl/kernel/stacks", test_stacks);
  g_test_add_func ("/etl/kernel/key-reuse", test_key_reuse);
  g_test_add_func ("/etl/kernel/sample-ips-and-parts", test_sample_ips_and_parts);
  g_test_add_func ("/etl/kernel/many-threads", test_many_threads);
  g_test_add_func ("/etl/kernel/key-time-order", test_key_time_order);
  g_test_add_func ("/etl/kernel/key-when-logged", test_key_when_logged);
  g_test_add_func ("/etl/kernel/narrow-stacks", test_narrow_stacks);
  g_test_add_func ("/etl/kernel/short-payloads", test_short_payloads);
  g_test_add_func ("/etl/map/against-ghashtable", test_map);
  g_test_add_func ("/etl/clock/against-128-bit", test_clock);
  g_test_add_func ("/etl/radix-sort/against-g-array-sort", test_radix_sort);

  return g_test_run ();
}
