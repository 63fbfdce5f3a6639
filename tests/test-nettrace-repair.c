/* test-nettrace-repair.c: the .nettrace importer and the stack repair on
 * generated V5 files whose true stacks are known
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-nettrace-repair"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <spanscope-core.h>

#include "nettrace-gen/nettrace-writer.h"

#include "sps-test-util.h"

/* Methods of the generated files, by index:
 *   0            Program.Main(class System.String[])
 *   1 … 300      Cmf.Foundation.Chain.StepNNN(int32&,class System.String)  ("C1" … "C300")
 *   301 … 450    Other.Unknown`1[System.Int32].<Run>b__NNN()               ("U1" … "U150")
 *   451 …        recursion nodes X, Y, Z, W, A, B, Cn, D, E and a leaf L
 *   461 …        the filter scenario's methods
 * All in module Cmf.Test.Services. */

#define M_MAIN  0
#define C(i)    (i)
#define U(i)    (300 + (i))
#define M_X     451
#define M_Y     452
#define M_Z     453
#define M_W     454
#define M_A     455
#define M_B     456
#define M_CN    457
#define M_D     458
#define M_EN     459
#define M_L     460
#define M_HOST  461
#define M_ORDER_CREATE 462
#define M_ORDER_SAVE   463
#define M_LIST_ADD     464
#define M_VALIDATE     465
#define M_TASK_WAIT    466
#define M_MATERIAL_GET 467
#define N_METHODS      468

#define MODULE_ID 0x5000
#define SYNC_QPC  G_GINT64_CONSTANT (987654321987)

static char *scratch_dir;

typedef struct
{
  guint        pointer_size;
  gint64       frequency;
} Clock;

static const Clock clock_8_1e7 = { 8, 10000000 };
static const Clock clock_4_1e9 = { 4, 1000000000 };

static guint64
method_start (const Clock *clock,
              guint        m)
{
  return (clock->pointer_size == 8 ? G_GUINT64_CONSTANT (0x7ff812340000) : 0x40000000) + (guint64) m * 0x400;
}

static void
method_names (guint        m,
              const char **ns,
              char       **name,
              const char **signature)
{
  static const char * const nodes[] = { "X", "Y", "Z", "W", "A", "B", "Cn", "D", "E", "L" };

  *signature = "instance void  ()";
  if (m == M_MAIN)
    {
      *ns = "Program";
      *name = g_strdup ("Main");
      *signature = "void  (class System.String[])";
    }
  else if (m <= 300)
    {
      *ns = "Cmf.Foundation.Chain";
      *name = g_strdup_printf ("Step%03u", m);
      *signature = "instance void  (int32&,class System.String)";
    }
  else if (m <= 450)
    {
      *ns = "Other.Unknown`1[System.Int32]";
      *name = g_strdup_printf ("<Run>b__%u", m - 300);
    }
  else if (m <= M_L)
    {
      *ns = "Recursion.Node";
      *name = g_strdup (nodes[m - M_X]);
    }
  else
    {
      switch (m)
        {
        case M_HOST:
          *ns = "Cmf.Foundation.Host";
          *name = g_strdup ("Run");
          break;
        case M_ORDER_CREATE:
          *ns = "Cmf.Foundation.Services.OrderController";
          *name = g_strdup ("Create");
          *signature = "instance void  (class System.String,int32&)";
          break;
        case M_ORDER_SAVE:
          *ns = "Cmf.Foundation.Orders.Order";
          *name = g_strdup ("Save");
          break;
        case M_LIST_ADD:
          *ns = "System.Collections.Generic.List`1[System.Int32]";
          *name = g_strdup ("Add");
          *signature = "instance void  (!0)";
          break;
        case M_VALIDATE:
          *ns = "Cmf.Foundation.Orders.Order";
          *name = g_strdup ("Validate");
          break;
        case M_TASK_WAIT:
          *ns = "System.Threading.Tasks.Task";
          *name = g_strdup ("Wait");
          break;
        default:
          *ns = "Cmf.Foundation.Services.MaterialController";
          *name = g_strdup ("Get");
          break;
        }
    }
}

/* The frame name the importer gives method @m */
static char *
frame_name (guint m)
{
  const char *ns;
  const char *signature;
  g_autofree char *name = NULL;

  method_names (m, &ns, &name, &signature);

  return g_strdup_printf ("Cmf.Test.Services!%s.%s%s", ns, name, strchr (signature, '('));
}

static NtWriter *
new_writer (const Clock *clock)
{
  NtWriter *w = nt_writer_new (clock->pointer_size, clock->frequency, SYNC_QPC);

  for (guint m = 0; m < N_METHODS; m++)
    {
      const char *ns;
      const char *signature;
      g_autofree char *name = NULL;

      method_names (m, &ns, &name, &signature);
      /* A few are JIT-compiled during the session, the rest named by the
       * end rundown */
      nt_writer_add_method (w, method_start (clock, m), 0x300, MODULE_ID, ns, name, signature,
                            m == C (5) || m == C (6));
    }
  nt_writer_add_module (w, MODULE_ID, "/app/bin/Cmf.Test.Services.dll");

  return w;
}

/* Tick @k: 1 s + k ms after the sync time */
static gint64
tick (const Clock *clock,
      guint        k)
{
  return SYNC_QPC + clock->frequency + (gint64) k * (clock->frequency / 1000);
}

typedef struct
{
  guint64 tid;
  guint   n;
  GArray *stacks[12];    /* true stacks, root first (method indexes) */
} Scenario;

static GArray *
stack_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint));
}

static GArray *
stack_add (GArray *s,
           guint   m)
{
  g_array_append_val (s, m);
  return s;
}

static GArray *
stack_chain (GArray *s,
             guint   first,
             guint   last)
{
  for (guint m = first; m <= last; m++)
    g_array_append_val (s, m);
  return s;
}

/* Main, C1 … C(depth − 1) */
static GArray *
main_chain (guint depth)
{
  return stack_chain (stack_add (stack_new (), M_MAIN), C (1), C (depth - 1));
}

/* Main, U1 … U149: 150 deep; cut to U50 … U149, a root found nowhere else */
static GArray *
lost_stack (void)
{
  return stack_chain (stack_add (stack_new (), M_MAIN), U (1), U (149));
}

static guint
n_scenarios (void)
{
  return 6;
}

/* The scenarios of shared/formats/nettrace.md, Appendix A, one per thread.
 * Expected results are derived by hand in check_repaired(). */
static void
build_scenarios (Scenario *sc)
{
  GArray *s;

  memset (sc, 0, sizeof (Scenario) * n_scenarios ());

  /* 101: depth 80 → 130 → 130 → 60, then exactly 100 (complete) and 99 */
  sc[0].tid = 101;
  sc[0].stacks[sc[0].n++] = main_chain (80);
  sc[0].stacks[sc[0].n++] = main_chain (130);
  sc[0].stacks[sc[0].n++] = stack_add (main_chain (129), M_L);
  sc[0].stacks[sc[0].n++] = main_chain (60);
  sc[0].stacks[sc[0].n++] = main_chain (100);
  sc[0].stacks[sc[0].n++] = main_chain (99);

  /* 102: recursion: candidates with different overlaps, then a tie */
  sc[1].tid = 102;
  s = stack_add (stack_new (), M_MAIN);
  s = stack_add (stack_add (stack_add (s, M_X), M_Y), M_Z);
  s = stack_add (stack_add (stack_add (s, M_X), M_Y), M_W);
  sc[1].stacks[sc[1].n++] = stack_chain (s, C (1), C (83));                 /* 90 */
  s = stack_add (stack_new (), M_MAIN);
  s = stack_add (stack_add (stack_add (s, M_X), M_Y), M_Z);
  s = stack_add (stack_add (stack_add (s, M_X), M_Y), M_W);
  sc[1].stacks[sc[1].n++] = stack_chain (s, C (1), C (97));                 /* 104 */
  s = stack_add (stack_new (), M_MAIN);
  s = stack_add (stack_add (stack_add (s, M_A), M_B), M_CN);
  s = stack_add (stack_add (stack_add (s, M_A), M_B), M_D);
  sc[1].stacks[sc[1].n++] = stack_chain (s, C (1), C (43));                 /* 50 */
  s = stack_add (stack_new (), M_MAIN);
  s = stack_add (stack_add (stack_add (s, M_A), M_B), M_EN);
  sc[1].stacks[sc[1].n++] = stack_chain (s, C (1), C (97));                 /* 101 */

  /* 103: three unrecoverable in a row, then one more later */
  sc[2].tid = 103;
  sc[2].stacks[sc[2].n++] = main_chain (50);
  sc[2].stacks[sc[2].n++] = lost_stack ();
  sc[2].stacks[sc[2].n++] = lost_stack ();
  sc[2].stacks[sc[2].n++] = lost_stack ();
  sc[2].stacks[sc[2].n++] = main_chain (40);
  sc[2].stacks[sc[2].n++] = main_chain (40);
  sc[2].stacks[sc[2].n++] = lost_stack ();
  sc[2].stacks[sc[2].n++] = main_chain (30);

  /* 104: the first sample is cut; it and the next one stay as they are */
  sc[3].tid = 104;
  sc[3].stacks[sc[3].n++] = main_chain (130);
  sc[3].stacks[sc[3].n++] = main_chain (130);

  /* 106: a cut sample right after an unrecoverable one is compared with
   * the last kept sample */
  sc[4].tid = 106;
  sc[4].stacks[sc[4].n++] = main_chain (60);
  sc[4].stacks[sc[4].n++] = lost_stack ();
  sc[4].stacks[sc[4].n++] = main_chain (120);

  /* 107: never deeper than 100 */
  sc[5].tid = 107;
  for (guint k = 0; k < 10; k++)
    sc[5].stacks[sc[5].n++] = main_chain (20 + 8 * k);
}

static void
clear_scenarios (Scenario *sc)
{
  for (guint i = 0; i < n_scenarios (); i++)
    for (guint k = 0; k < sc[i].n; k++)
      g_array_unref (sc[i].stacks[k]);
}

static void
write_sample (NtWriter    *w,
              const Clock *clock,
              guint64      tid,
              guint        k,
              GArray      *stack)
{
  g_autofree guint64 *ips = g_new (guint64, stack->len);

  /* Leaf first; IPs inside the method, not at its start, and two
   * different call sites per method */
  for (guint i = 0; i < stack->len; i++)
    ips[i] = method_start (clock, g_array_index (stack, guint, stack->len - 1 - i)) + 0x20 + 8 * ((i + k) % 2);
  nt_writer_sample (w, tid, tick (clock, k), ips, stack->len, k % 7 == 3 ? 1 : 2);
}

static char *
write_file (const char *name,
            GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (scratch_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static char *
write_scenario_file (const Clock *clock,
                     const char  *name)
{
  Scenario sc[6];
  NtWriter *w = new_writer (clock);
  g_autoptr(GBytes) bytes = NULL;

  build_scenarios (sc);

  /* Threads interleaved tick by tick like the sampler writes them, an
   * event of another capture thread slightly earlier after each tick (a
   * negative timestamp delta), and a sequence point in the middle of
   * thread 101's deep run so its stacks are declared again with new ids */
  for (guint k = 0; k < 10; k++)
    {
      for (guint i = 0; i < n_scenarios (); i++)
        if (k < sc[i].n)
          write_sample (w, clock, sc[i].tid, k, sc[i].stacks[k]);
      nt_writer_other_event (w, 101, tick (clock, k) - 3);
      if (k == 1)
        nt_writer_sequence_point (w, tick (clock, k) + 1);
    }

  bytes = nt_writer_finish (w, tick (clock, 20), TRUE);
  nt_writer_free (w);
  clear_scenarios (sc);

  return write_file (name, bytes);
}

static SpsTrace *
load (const char *path,
      GVariant   *options)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  trace = sps_trace_load (file, sps_plugin_engine_get_default (), options, SPS_LOAD_FLAGS_NONE,
                          NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);

  return trace;
}

static char *
stack_string_in (SpsTrace               *trace,
                 const SpsCallsiteTable *callsites,
                 guint32                 callsite)
{
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint32 c = callsite; c != SPS_NO_INDEX; c = callsites->parent[c])
    g_ptr_array_add (names, (gpointer) sps_trace_get_string (trace, frames->name[callsites->frame[c]]));
  for (guint i = names->len; i > 0; i--)
    {
      g_string_append (text, g_ptr_array_index (names, i - 1));
      if (i > 1)
        g_string_append_c (text, ';');
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
stack_string (SpsTrace *trace,
              guint32   callsite)
{
  return stack_string_in (trace, sps_trace_get_callsites (trace), callsite);
}

static char *
expected_string (GArray *stack,
                 guint   keep_leafmost)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint first = stack->len > keep_leafmost ? stack->len - keep_leafmost : 0;

  for (guint i = first; i < stack->len; i++)
    {
      g_autofree char *name = frame_name (g_array_index (stack, guint, i));

      if (i > first)
        g_string_append_c (text, ';');
      g_string_append (text, name);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The samples of thread @tid in @table, in time order */
static GArray *
thread_rows (SpsTrace             *trace,
             const SpsSampleTable *table,
             gint64                tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint r = 0; r < table->n_rows; r++)
    if (threads->tid[table->thread[r]] == tid)
      g_array_append_val (rows, r);

  return rows;
}

typedef struct
{
  guint  k;              /* tick of the sample */
  guint  scenario_k;     /* its true stack */
  guint  keep;           /* frames kept leafmost: 100 = the cut stack */
  guint8 flags;
} Expect;

static void
check_thread (SpsTrace     *trace,
              Scenario     *sc,
              const Expect *expect,
              guint         n_expect)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  g_autoptr(GArray) rows = thread_rows (trace, samples, (gint64) sc->tid);

  g_test_message ("thread %" G_GUINT64_FORMAT, sc->tid);
  g_assert_cmpuint (rows->len, ==, n_expect);
  for (guint i = 0; i < n_expect; i++)
    {
      guint r = g_array_index (rows, guint, i);
      g_autofree char *got = stack_string (trace, samples->callsite[r]);
      g_autofree char *want = expected_string (sc->stacks[expect[i].scenario_k], expect[i].keep);

      g_test_message ("sample at tick %u", expect[i].k);
      /* 1 s + k ms after the sync time */
      g_assert_cmpint (samples->ts[r], ==, G_GINT64_CONSTANT (1000000000) + (gint64) expect[i].k * 1000000);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (sps_sample_table_get_flags (samples, r) & (SPS_SAMPLE_REPAIRED | SPS_SAMPLE_TRUNCATED), ==, expect[i].flags);
    }
}

#define ALL G_MAXUINT
#define CUT 100
#define REP SPS_SAMPLE_REPAIRED
#define TRU SPS_SAMPLE_TRUNCATED

static void
check_repaired (SpsTrace *trace,
                gboolean  keep_unrecoverable)
{
  Scenario sc[6];
  /* 101: samples 1 and 2 get their 30 root frames back (2 from the
   * repaired 1: a chain); 100 frames with the previous root and 99 frames
   * are left alone */
  static const Expect t101[] = {
    { 0, 0, ALL, 0 }, { 1, 1, ALL, REP }, { 2, 2, ALL, REP }, { 3, 3, ALL, 0 }, { 4, 4, ALL, 0 },
    { 5, 5, ALL, 0 },
  };
  /* 102: X is at 1 (overlap 2) and 4 (overlap 86): 4 wins; then A at 1
   * and 4 both overlap 2: the most rootward, 1, wins. Both give the
   * true stacks. */
  static const Expect t102[] = {
    { 0, 0, ALL, 0 }, { 1, 1, ALL, REP }, { 2, 2, ALL, 0 }, { 3, 3, ALL, REP },
  };
  /* 103: the cut root U50 occurs in no kept sample */
  static const Expect t103_deleted[] = {
    { 0, 0, ALL, 0 }, { 4, 4, ALL, 0 }, { 5, 5, ALL, 0 }, { 7, 7, ALL, 0 },
  };
  static const Expect t103_kept[] = {
    { 0, 0, ALL, 0 }, { 1, 1, CUT, TRU }, { 2, 2, CUT, TRU }, { 3, 3, CUT, TRU }, { 4, 4, ALL, 0 },
    { 5, 5, ALL, 0 }, { 6, 6, CUT, TRU }, { 7, 7, ALL, 0 },
  };
  /* 104: a thread's first sample is never repaired, the second has its
   * root */
  static const Expect t104[] = { { 0, 0, CUT, 0 }, { 1, 1, CUT, 0 } };
  /* 106: sample 2 (root C20) is repaired from sample 0, not from the
   * unrecoverable sample 1 */
  static const Expect t106_deleted[] = { { 0, 0, ALL, 0 }, { 2, 2, ALL, REP } };
  static const Expect t106_kept[] = { { 0, 0, ALL, 0 }, { 1, 1, CUT, TRU }, { 2, 2, ALL, REP } };
  Expect t107[10];

  for (guint k = 0; k < 10; k++)
    t107[k] = (Expect) { k, k, ALL, 0 };

  build_scenarios (sc);
  check_thread (trace, &sc[0], t101, G_N_ELEMENTS (t101));
  check_thread (trace, &sc[1], t102, G_N_ELEMENTS (t102));
  if (keep_unrecoverable)
    check_thread (trace, &sc[2], t103_kept, G_N_ELEMENTS (t103_kept));
  else
    check_thread (trace, &sc[2], t103_deleted, G_N_ELEMENTS (t103_deleted));
  check_thread (trace, &sc[3], t104, G_N_ELEMENTS (t104));
  if (keep_unrecoverable)
    check_thread (trace, &sc[4], t106_kept, G_N_ELEMENTS (t106_kept));
  else
    check_thread (trace, &sc[4], t106_deleted, G_N_ELEMENTS (t106_deleted));
  check_thread (trace, &sc[5], t107, G_N_ELEMENTS (t107));
  clear_scenarios (sc);
}

/* 6 + 4 + 8 + 2 + 3 + 10 samples; 4 on 103 (ticks 1–3 and 6) and 1 on
 * 106 (tick 1) are unrecoverable: 5 / 33 = 15.152 % */
static const char expected_report[] =
  "5 samples out of 33 could not be recovered and have been deleted (15.152%)\n"
  "    Thread 103 (4): 1.001s-1.003s, 1.006s\n"
  "    Thread 106 (1): 1.001s\n";

static void
test_repair_default (gconstpointer data)
{
  const Clock *clock = data;
  g_autofree char *path = write_scenario_file (clock, clock->pointer_size == 8 ? "scen8.nettrace" : "scen4.nettrace");
  g_autoptr(SpsTrace) trace = load (path, NULL);
  g_autofree char *report = sps_stack_repair_format_report (trace);
  const SpsSampleTable *raw = sps_trace_get_raw_samples (trace);
  guint64 n_samples, n_repaired, n_unrecoverable;
  gboolean kept;
  guint n_truncated = 0;

  g_assert_cmpstr (sps_trace_get_format (trace), ==, "nettrace");
  /* Named from the rundown's RuntimeInformation command line */
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_processes (trace)->name[0]), ==,
                   "dotnet Cmf.Test.Services.dll --serve");
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 28);
  check_repaired (trace, FALSE);
  g_assert_cmpstr (report, ==, expected_report);

  g_assert_true (sps_stack_repair_get_summary (trace, &n_samples, &n_repaired, &n_unrecoverable, &kept));
  g_assert_cmpuint (n_samples, ==, 33);
  g_assert_cmpuint (n_repaired, ==, 5);
  g_assert_cmpuint (n_unrecoverable, ==, 5);
  g_assert_false (kept);

  /* The raw table holds the file's stacks: all 33, the cut ones marked */
  g_assert_cmpuint (raw->n_rows, ==, 33);
  for (guint r = 0; r < raw->n_rows; r++)
    {
      g_autofree char *stack = stack_string (trace, raw->callsite[r]);
      guint depth = 1;

      for (const char *p = stack; *p != '\0'; p++)
        depth += *p == ';';
      g_assert_cmpuint (depth, <=, 100);
      if (sps_sample_table_get_flags (raw, r) & SPS_SAMPLE_TRUNCATED)
        n_truncated++;
    }
  g_assert_cmpuint (n_truncated, ==, 5);
  g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-no-end-tag"), ==, 0);
}

/* The raw/repaired switch of a flame graph: the same trace built from the
 * raw table (a sample-table override) counts the file's 33 samples, none
 * deeper than 100 frames; the repaired table counts 28, the deepest 130
 * (thread 101's samples 1 and 2) */
static void
test_repair_flame_raw_switch (void)
{
  g_autofree char *path = write_scenario_file (&clock_8_1e7, "flame.nettrace");
  g_autoptr(SpsTrace) trace = load (path, NULL);
  g_autoptr(GError) error = NULL;
  SpsFlameTreeParams params;
  gboolean raw;

  for (raw = FALSE; raw <= TRUE; raw++)
    {
      SpsFlameTree *tree;
      const SpsFlameNode *nodes;
      guint n_nodes;
      guint max_depth = 0;

      sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
      if (raw)
        params.samples = sps_trace_get_raw_samples (trace);
      tree = sps_flame_tree_build (trace, &params, NULL, &error);
      g_assert_no_error (error);
      nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
      for (guint i = 0; i < n_nodes; i++)
        max_depth = MAX (max_depth, nodes[i].depth);
      g_assert_cmpuint (nodes[0].inclusive, ==, raw ? 33 : 28);
      g_assert_cmpuint (max_depth, ==, raw ? 100 : 130);
      sps_flame_tree_unref (tree);
    }
}

static GVariant *
options_new (const char *first_span,
             const char *span_filter,
             gboolean    keep,
             gboolean    repair)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  if (first_span != NULL)
    g_variant_dict_insert (&dict, "first-span", "s", first_span);
  if (span_filter != NULL)
    g_variant_dict_insert (&dict, "span-filter", "s", span_filter);
  g_variant_dict_insert (&dict, "keep-unrecoverable", "b", keep);
  g_variant_dict_insert (&dict, "repair", "b", repair);

  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static void
test_repair_keep_unrecoverable (void)
{
  g_autofree char *path = write_scenario_file (&clock_8_1e7, "keep.nettrace");
  g_autoptr(GVariant) options = options_new (NULL, NULL, TRUE, TRUE);
  g_autoptr(SpsTrace) trace = load (path, options);
  g_autofree char *report = sps_stack_repair_format_report (trace);

  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 33);
  check_repaired (trace, TRUE);
  g_assert_cmpstr (report, ==,
                   "5 samples out of 33 could not be recovered and have been kept truncated (15.152%)\n"
                   "    Thread 103 (4): 1.001s-1.003s, 1.006s\n"
                   "    Thread 106 (1): 1.001s\n");
}

/* The conversion's options: the same repaired samples, no raw copy */
static void
test_repair_without_raw (void)
{
  g_autofree char *path = write_scenario_file (&clock_8_1e7, "noraw.nettrace");
  g_autoptr(GVariant) options = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "keep-raw", "b", FALSE);
  options = g_variant_ref_sink (g_variant_dict_end (&dict));
  trace = load (path, options);

  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 28);
  g_assert_cmpuint (sps_trace_get_raw_samples (trace)->n_rows, ==, 0);
  check_repaired (trace, FALSE);
}

/* A cancelled load stops with G_IO_ERROR_CANCELLED */
static void
test_import_cancelled (void)
{
  g_autofree char *path = write_scenario_file (&clock_8_1e7, "cancel.nettrace");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SpsProgress) progress = sps_progress_new (cancellable);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  g_cancellable_cancel (cancellable);
  trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_KEEP_PARTIAL,
                          progress, cancellable, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_repair_disabled (void)
{
  g_autofree char *path = write_scenario_file (&clock_8_1e7, "norepair.nettrace");
  g_autoptr(GVariant) options = options_new (NULL, NULL, FALSE, FALSE);
  g_autoptr(SpsTrace) trace = load (path, options);
  const SpsSampleTable *samples = sps_trace_get_samples (trace);

  /* Everything as read: 33 samples, no raw copy, no report */
  g_assert_cmpuint (samples->n_rows, ==, 33);
  g_assert_cmpuint (sps_trace_get_raw_samples (trace)->n_rows, ==, 0);
  g_assert_false (sps_stack_repair_get_summary (trace, NULL, NULL, NULL, NULL));
  for (guint r = 0; r < samples->n_rows; r++)
    g_assert_cmpuint (sps_sample_table_get_flags (samples, r) & (SPS_SAMPLE_REPAIRED | SPS_SAMPLE_TRUNCATED), ==, 0);
}

/* Filter scenario: thread 201 with four samples
 *   a: Main, Host.Run, OrderController.Create, Order.Save, List.Add, Order.Validate
 *   b: Main, Host.Run, Task.Wait
 *   c: Main, Host.Run, MaterialController.Get, OrderController.Create, Order.Save
 *   a again */
static char *
write_filter_file (void)
{
  static const guint a[] = { M_MAIN, M_HOST, M_ORDER_CREATE, M_ORDER_SAVE, M_LIST_ADD, M_VALIDATE };
  static const guint b[] = { M_MAIN, M_HOST, M_TASK_WAIT };
  static const guint c[] = { M_MAIN, M_HOST, M_MATERIAL_GET, M_ORDER_CREATE, M_ORDER_SAVE };
  const guint *stacks[] = { a, b, c, a };
  const guint lens[] = { G_N_ELEMENTS (a), G_N_ELEMENTS (b), G_N_ELEMENTS (c), G_N_ELEMENTS (a) };
  NtWriter *w = new_writer (&clock_8_1e7);
  g_autoptr(GBytes) bytes = NULL;

  for (guint k = 0; k < G_N_ELEMENTS (stacks); k++)
    {
      g_autoptr(GArray) s = stack_new ();

      for (guint i = 0; i < lens[k]; i++)
        stack_add (s, stacks[k][i]);
      write_sample (w, &clock_8_1e7, 201, k, s);
    }
  bytes = nt_writer_finish (w, tick (&clock_8_1e7, 10), TRUE);
  nt_writer_free (w);

  return write_file ("filters.nettrace", bytes);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* "stack count" lines, root first, sorted: the folded format */
static char *
folded_in (SpsTrace               *trace,
           const SpsSampleTable   *samples,
           const SpsCallsiteTable *callsites)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) text = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;

  for (guint r = 0; r < samples->n_rows; r++)
    {
      char *stack = stack_string_in (trace, callsites, samples->callsite[r]);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, stack));

      g_hash_table_replace (counts, stack, GUINT_TO_POINTER (n + 1));
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (lines, g_strdup_printf ("%s %u", (const char *) key, GPOINTER_TO_UINT (value)));
  g_ptr_array_sort (lines, compare_lines);
  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (text, g_ptr_array_index (lines, i));
      g_string_append_c (text, '\n');
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
folded (SpsTrace *trace)
{
  return folded_in (trace, sps_trace_get_samples (trace), sps_trace_get_callsites (trace));
}

static char *
read_expected (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "nettrace", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static void
test_repair_filters (void)
{
  g_autofree char *path = write_filter_file ();
  static const struct
  {
    const char *first_span;
    const char *span_filter;
    const char *expected;
  } cases[] = {
    /* b has no controller frame: dropped; a and c start at their first
     * controller (the module prefix is not part of the match) */
    { "Cmf*.Services.*Controller.*", NULL, "filters-first-span.folded" },
    /* Case-insensitive; then List.Add (module Cmf.Test.Services, but
     * its name is System.…) goes */
    { "cmf*.SERVICES.*controller.*", "Cmf*", "filters-first-span-span-filter.folded" },
    /* Only the filter: every sample keeps just Host.Run */
    { NULL, "Cmf.Foundation.?ost.*", "filters-span-filter.folded" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GVariant) options = options_new (cases[i].first_span, cases[i].span_filter, FALSE, TRUE);
      g_autoptr(SpsTrace) trace = load (path, options);
      g_autofree char *got = folded (trace);
      g_autofree char *want = read_expected (cases[i].expected);

      g_test_message ("%s", cases[i].expected);
      g_assert_cmpstr (got, ==, want);
      /* The file's four samples stay in the raw table */
      g_assert_cmpuint (sps_trace_get_raw_samples (trace)->n_rows, ==, 4);
    }

  /* The same filters applied to a loaded trace (the UI's way) */
  {
    g_autoptr(GVariant) options = options_new (NULL, NULL, FALSE, TRUE);
    g_autoptr(SpsTrace) trace = load (path, options);
    g_autoptr(GError) error = NULL;

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(SpsFilteredSamples) filtered = sps_filtered_samples_new (trace, NULL, cases[i].first_span,
                                                                           cases[i].span_filter, &error);
        g_autofree char *got = NULL;
        g_autofree char *want = read_expected (cases[i].expected);

        g_assert_no_error (error);
        got = folded_in (trace, sps_filtered_samples_get_samples (filtered),
                         sps_filtered_samples_get_callsites (filtered));
        g_assert_cmpstr (got, ==, want);
      }

    g_assert_null (sps_filtered_samples_new (trace, NULL, "", NULL, &error));
    g_assert_error (error, SPS_ANALYSIS_ERROR, SPS_ANALYSIS_ERROR_INVALID_OPTION);
  }
}

static void
test_repair_match_pattern (void)
{
  g_assert_true (sps_stack_repair_match_pattern ("Cmf*.Services.*Controller.*",
                                                 "Cmf.Foundation.Services.OrderController.Create(int32&)"));
  g_assert_true (sps_stack_repair_match_pattern ("cmf*", "CMF.x"));
  g_assert_true (sps_stack_repair_match_pattern ("A?C", "abc"));
  g_assert_false (sps_stack_repair_match_pattern ("A?C", "abbc"));
  /* The whole name, not a part of it */
  g_assert_false (sps_stack_repair_match_pattern ("Services", "Cmf.Services.X"));
}

static void
test_import_cut_and_unterminated (void)
{
  NtWriter *w = new_writer (&clock_8_1e7);
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GArray) offsets = NULL;
  g_autoptr(GArray) before = NULL;
  g_autoptr(GBytes) cut = NULL;
  g_autoptr(GBytes) unterminated = NULL;
  g_autofree char *cut_path = NULL;
  g_autofree char *unterminated_path = NULL;
  g_autoptr(SpsTrace) cut_trace = NULL;
  g_autoptr(SpsTrace) unterminated_trace = NULL;
  g_autoptr(GArray) s = main_chain (40);
  guint block;

  /* 1000 samples with a sequence point after every 100 */
  for (guint k = 0; k < 1000; k++)
    {
      write_sample (w, &clock_8_1e7, 301, k, s);
      if (k % 100 == 99)
        nt_writer_sequence_point (w, tick (&clock_8_1e7, k) + 1);
    }
  whole = nt_writer_finish (w, tick (&clock_8_1e7, 1001), FALSE);
  offsets = g_array_copy ((GArray *) nt_writer_get_block_offsets (w));
  before = g_array_copy ((GArray *) nt_writer_get_block_samples (w));
  nt_writer_free (w);

  /* No end tag: everything, with a warning */
  unterminated = g_bytes_ref (whole);
  unterminated_path = write_file ("unterminated.nettrace", unterminated);
  unterminated_trace = load (unterminated_path, NULL);
  g_assert_cmpuint (sps_trace_get_samples (unterminated_trace)->n_rows, ==, 1000);
  g_assert_cmpuint (sps_trace_count_warning (unterminated_trace, "nettrace-no-end-tag"), ==, 1);

  /* A block that does not start like one: an error at its byte offset;
   * with KEEP_PARTIAL the blocks before it are kept */
  {
    gsize at = g_array_index (offsets, gsize, offsets->len / 3);
    g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (whole, NULL), g_bytes_get_size (whole));
    g_autoptr(GBytes) corrupt = NULL;
    g_autofree char *corrupt_path = NULL;
    g_autofree char *where = g_strdup_printf ("(byte %" G_GSIZE_FORMAT "): expected the start of a block object", at);
    g_autoptr(GFile) corrupt_file = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(SpsTrace) failed = NULL;
    g_autoptr(SpsTrace) partial = NULL;

    copy[at] = 0x7;
    corrupt = g_bytes_new (copy, g_bytes_get_size (whole));
    corrupt_path = write_file ("corrupt.nettrace", corrupt);
    corrupt_file = g_file_new_for_path (corrupt_path);

    failed = sps_trace_load (corrupt_file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE,
                             NULL, NULL, &error);
    g_assert_null (failed);
    g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
    g_assert_nonnull (strstr (error->message, where));
    g_clear_error (&error);

    partial = sps_trace_load (corrupt_file, sps_plugin_engine_get_default (), NULL,
                              SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (partial);
    g_assert_nonnull (sps_trace_get_load_error (partial));
    g_assert_cmpuint (sps_trace_get_samples (partial)->n_rows, ==, g_array_index (before, guint, offsets->len / 3));
  }

  /* Cut 7 bytes into the block that starts the second half */
  block = offsets->len / 2;
  cut = g_bytes_new_from_bytes (whole, 0, g_array_index (offsets, gsize, block) + 7);
  cut_path = write_file ("cut.nettrace", cut);
  cut_trace = load (cut_path, NULL);
  g_assert_cmpuint (g_array_index (before, guint, block), >, 0);
  g_assert_cmpuint (g_array_index (before, guint, block), <, 1000);
  g_assert_cmpuint (sps_trace_get_samples (cut_trace)->n_rows, ==, g_array_index (before, guint, block));
  g_assert_cmpuint (sps_trace_count_warning (cut_trace, "nettrace-truncated"), ==, 1);
}

static int
compare_strv_items (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static char *
run_cli (const char * const *argv,
         int                *status,
         char              **err)
{
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int wait_status = 0;

  g_spawn_sync (scratch_dir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, err, &wait_status, &error);
  g_assert_no_error (error);
  *status = g_spawn_check_wait_status (wait_status, NULL) ? 0 : WEXITSTATUS (wait_status);

  return out;
}

static void
test_cli_convert_chromium (void)
{
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autofree char *path = write_scenario_file (&clock_8_1e7, "cli.nettrace");
  g_autofree char *output = g_build_filename (scratch_dir, "cli.chromium.json", NULL);
  const char *argv[] = { cli, "convert", path, "--format", "chromium", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *events;
  guint n_threads = 0;
  gboolean found_main = FALSE;
  gboolean found_c20 = FALSE;
  int status;

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  g_remove (output);
  out = run_cli (argv, &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  expected = g_strdup_printf ("Processing trace data file '%s' to create a new chromium file '%s'.\n%s"
                              "Conversion complete\n", path, output, expected_report);
  g_assert_cmpstr (out, ==, expected);

  json_parser_load_from_file (parser, output, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *name = json_object_get_string_member (e, "name");

      if (g_str_equal (json_object_get_string_member (e, "ph"), "M"))
        {
          n_threads++;
          continue;
        }
      if (json_object_get_int_member (e, "tid") != 107)
        continue;
      /* Thread 107: depths 20, 28 … 92 at ticks 0 … 9: Main spans all ten
       * samples plus the 1 ms after the last; C20 starts at tick 1 */
      if (g_str_equal (name, "Cmf.Test.Services!Program.Main(class System.String[])"))
        {
          found_main = TRUE;
          g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, 1000000.0);
          g_assert_cmpfloat (json_object_get_double_member (e, "dur"), ==, 10000.0);
        }
      if (g_str_equal (name, "Cmf.Test.Services!Cmf.Foundation.Chain.Step020(int32&,class System.String)"))
        {
          found_c20 = TRUE;
          g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, 1001000.0);
          g_assert_cmpfloat (json_object_get_double_member (e, "dur"), ==, 9000.0);
        }
    }
  g_assert_cmpuint (n_threads, ==, 6);
  g_assert_true (found_main);
  g_assert_true (found_c20);

  /* speedscope (flame-export plugin): one sampled profile per thread over
   * shared frames, 28 samples in all */
  {
    /* spelt as dotnet-trace spells it */
    const char *speedscope_argv[] = { cli, "convert", path, "--format", "Speedscope", NULL };
    g_autofree char *speedscope = g_build_filename (scratch_dir, "cli.speedscope.json", NULL);
    g_autoptr(JsonParser) sparser = json_parser_new ();
    JsonArray *profiles;
    guint n_samples = 0;

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    out = run_cli (speedscope_argv, &status, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_str_has_suffix (out, "Conversion complete\n"));
    json_parser_load_from_file (sparser, speedscope, &error);
    g_assert_no_error (error);
    profiles = json_object_get_array_member (json_node_get_object (json_parser_get_root (sparser)), "profiles");
    g_assert_cmpuint (json_array_get_length (profiles), ==, 6);
    for (guint i = 0; i < json_array_get_length (profiles); i++)
      n_samples += json_array_get_length (json_object_get_array_member (json_array_get_object_element (profiles, i),
                                                                        "samples"));
    g_assert_cmpuint (n_samples, ==, 28);
  }
}

static void
test_cli_convert_filters (void)
{
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autofree char *path = write_filter_file ();
  g_autofree char *output = g_build_filename (scratch_dir, "filters-cli.json", NULL);
  const char *argv[] = { cli, "convert", path, "--format", "chromium", "-o", output,
                         "--first-span", "Cmf*.Services.*Controller.*", "--span-filter", "Cmf*", NULL };
  const char *empty_argv[] = { cli, "convert", path, "--format", "chromium", "-o", output,
                               "--span-filter", "", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *contents = NULL;
  int status;

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  out = run_cli (argv, &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_suffix (out, "Conversion complete\n"));
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  g_assert_null (strstr (contents, "Program.Main"));
  g_assert_null (strstr (contents, "List`1"));
  g_assert_nonnull (strstr (contents, "OrderController.Create"));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  out = run_cli (empty_argv, &status, &err);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "a pattern must not be empty"));

  /* The folded format (flame-export plugin): the same stacks and counts
   * as the expected file, whatever the line order */
  {
    g_autofree char *folded_path = g_build_filename (scratch_dir, "filters.folded", NULL);
    const char *folded_argv[] = { cli, "convert", path, "--format", "folded",
                                  "--first-span", "Cmf*.Services.*Controller.*", "--span-filter", "Cmf*", NULL };
    g_autofree char *folded_text = NULL;
    g_autofree char *want = read_expected ("filters-first-span-span-filter.folded");
    g_auto(GStrv) lines = NULL;
    g_autofree char *joined = NULL;

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    out = run_cli (folded_argv, &status, &err);
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_file_get_contents (folded_path, &folded_text, NULL, NULL));
    lines = g_strsplit (g_strstrip (folded_text), "\n", -1);
    g_qsort_with_data (lines, (gint) g_strv_length (lines), sizeof (char *), compare_strv_items, NULL);
    joined = g_strjoinv ("\n", lines);
    g_assert_cmpstr (g_strstrip (want), ==, joined);
  }
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  scratch_dir = g_dir_make_tmp ("spanscope-nettrace-XXXXXX", NULL);
  g_assert_nonnull (scratch_dir);

  g_test_add_data_func ("/nettrace/repair/default", &clock_8_1e7, test_repair_default);
  g_test_add_data_func ("/nettrace/repair/default-32bit-1ghz", &clock_4_1e9, test_repair_default);
  g_test_add_func ("/nettrace/repair/keep-unrecoverable", test_repair_keep_unrecoverable);
  g_test_add_func ("/nettrace/repair/disabled", test_repair_disabled);
  g_test_add_func ("/nettrace/repair/without-raw", test_repair_without_raw);
  g_test_add_func ("/nettrace/import/cancelled", test_import_cancelled);
  g_test_add_func ("/nettrace/repair/flame-raw-switch", test_repair_flame_raw_switch);
  g_test_add_func ("/nettrace/repair/filters", test_repair_filters);
  g_test_add_func ("/nettrace/repair/match-pattern", test_repair_match_pattern);
  g_test_add_func ("/nettrace/import/cut-unterminated-corrupt", test_import_cut_and_unterminated);
  g_test_add_func ("/nettrace/cli/convert-chromium", test_cli_convert_chromium);
  g_test_add_func ("/nettrace/cli/convert-filters", test_cli_convert_filters);

  ret = g_test_run ();

  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);

  return ret;
}
