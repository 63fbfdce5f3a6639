/* test-trace-grow.c: a trace grown update by update is the trace a finish
 * of all its rows gives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-core.h>

#include "sps-test-trace.h"
#include "sps-trace-grow-private.h"

#define N_THREADS 4
/* Thread 3 appears from this update on */
#define LATE_UPDATE 3

/* A slice tree of a thread: a root and the slices nested in it */
typedef struct
{
  guint   thread;
  SpsTime ts;
  SpsTime dur;
  guint   n_children;
  SpsTime child_ts[3];
  SpsTime child_dur[3];
  gboolean text_args;
} Tree;

typedef struct
{
  GArray *trees;            /* Tree, per thread in time order */
  GArray *instants;         /* SpsTime, thread 0's, in time order */
  SpsTime end;
} Capture;

static void
capture_free (Capture *c)
{
  g_array_unref (c->trees);
  g_array_unref (c->instants);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, capture_free)

/* Trees back to back with gaps of 0–40 ns (0: a root starts where the
 * one before ends), some of zero length, children nested two deep */
static Capture *
make_capture (GRand *rand,
              SpsTime end)
{
  Capture *c = g_new0 (Capture, 1);

  c->trees = g_array_new (FALSE, TRUE, sizeof (Tree));
  c->instants = g_array_new (FALSE, FALSE, sizeof (SpsTime));
  c->end = end;

  for (guint t = 0; t < N_THREADS; t++)
    {
      SpsTime ts = t == 3 ? end / 3 : g_rand_int_range (rand, 0, 50);

      for (;;)
        {
          Tree tree = { t, ts, g_rand_int_range (rand, 0, 4) == 0 ? 0 : g_rand_int_range (rand, 1, 300), 0 };

          if (tree.ts + tree.dur >= end)
            break;
          if (tree.dur > 20 && g_rand_boolean (rand))
            {
              /* One child; maybe one nested in it (depth 2), maybe one
               * after it */
              SpsTime s1 = tree.ts + g_rand_int_range (rand, 0, (gint32) tree.dur / 4);
              SpsTime d1 = g_rand_int_range (rand, 0, (gint32) tree.dur / 2);
              SpsTime s3 = s1 + d1 + g_rand_int_range (rand, 0, 5);

              tree.child_ts[0] = s1;
              tree.child_dur[0] = d1;
              tree.n_children = 1;
              if (d1 > 2 && g_rand_boolean (rand))
                {
                  tree.child_ts[1] = s1 + g_rand_int_range (rand, 0, (gint32) d1 / 2);
                  tree.child_dur[1] = g_rand_int_range (rand, 0, (gint32) (s1 + d1 - tree.child_ts[1]) + 1);
                  tree.n_children = 2;
                }
              if (s3 < tree.ts + tree.dur && g_rand_boolean (rand))
                {
                  tree.child_ts[tree.n_children] = s3;
                  tree.child_dur[tree.n_children] = g_rand_int_range (rand, 0, (gint32) (tree.ts + tree.dur - s3) + 1);
                  tree.n_children++;
                }
            }
          tree.text_args = g_rand_boolean (rand);
          g_array_append_val (c->trees, tree);
          ts = tree.ts + tree.dur + g_rand_int_range (rand, 0, 41);
        }
    }

  for (SpsTime ts = g_rand_int_range (rand, 0, 30); ts < end; ts += g_rand_int_range (rand, 0, 60))
    g_array_append_val (c->instants, ts);

  return c;
}

static guint32
add_threads (SpsTraceBuilder *b,
             guint            update,
             guint32         *threads)
{
  guint32 p1 = sps_trace_builder_ensure_process (b, 10);
  guint32 p2 = sps_trace_builder_ensure_process (b, 20);

  sps_trace_builder_set_process_name (b, p1, sps_trace_builder_intern (b, "device", -1));
  threads[0] = sps_trace_builder_ensure_thread (b, p1, 1);
  threads[1] = sps_trace_builder_ensure_thread (b, p1, 2);
  threads[2] = sps_trace_builder_ensure_thread (b, p2, 1);
  threads[3] = SPS_NO_INDEX;
  if (update >= LATE_UPDATE)
    threads[3] = sps_trace_builder_ensure_thread (b, p1, 3);
  for (guint t = 0; t < N_THREADS; t++)
    if (threads[t] != SPS_NO_INDEX)
      {
        g_autofree char *name = g_strdup_printf ("thread %u", t);

        sps_trace_builder_set_thread_name (b, threads[t], sps_trace_builder_intern (b, name, -1));
        /* Sort order given at each update, reversed when thread 3 comes */
        sps_trace_builder_set_thread_sort_index (b, threads[t], update >= LATE_UPDATE ? -(gint) t : (gint) t);
      }

  return p1;
}

static void
add_tree (SpsTraceBuilder *b,
          const guint32   *threads,
          const Tree      *tree,
          gsize            index)
{
  g_autofree char *name = g_strdup_printf ("span %u", (guint) (index % 7));
  g_autofree char *args = g_strdup_printf ("{\"tree\":%" G_GSIZE_FORMAT "}", index);
  guint32 category = sps_trace_builder_intern (b, "cat", -1);

  sps_trace_builder_add_complete (b, threads[tree->thread], tree->ts, tree->dur,
                                  sps_trace_builder_intern (b, name, -1), category,
                                  tree->text_args ? sps_trace_builder_add_args_text (b, args, -1) : SPS_ARGS_REF_NONE,
                                  SPS_SLICE_NONE);
  for (guint k = 0; k < tree->n_children; k++)
    sps_trace_builder_add_complete (b, threads[tree->thread], tree->child_ts[k], tree->child_dur[k],
                                    sps_trace_builder_intern (b, "child", -1), category,
                                    SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
}

/* The rows of the capture up to @cut: trees that ended by @prev (when
 * @with_old) and those that ended by @cut, the ones still open at @cut
 * unfinished, instants up to @cut (after @prev unless @with_old), and
 * what is derived from all of it (a counter, metadata, a warning) */
static void
add_rows (SpsTraceBuilder *b,
          const Capture   *c,
          guint            update,
          SpsTime          prev,
          SpsTime          cut,
          gboolean         with_old)
{
  guint32 threads[N_THREADS];
  guint32 process = add_threads (b, update, threads);
  g_autofree char *meta = g_strdup_printf ("{\"update\":%u}", update);
  guint32 counter;
  guint n_closed = 0;

  for (gsize i = 0; i < c->trees->len; i++)
    {
      const Tree *tree = &g_array_index (c->trees, Tree, i);
      SpsTime end = tree->ts + tree->dur;

      if (end > cut || (tree->thread == 3 && update < LATE_UPDATE))
        continue;
      /* Derived from all of them, whatever the part holds */
      n_closed++;
      /* Thread 3's trees come all at once with the thread */
      if (!with_old && end <= prev && !(tree->thread == 3 && update == LATE_UPDATE))
        continue;
      add_tree (b, threads, tree, i);
    }

  for (gsize i = 0; i < c->trees->len; i++)
    {
      const Tree *tree = &g_array_index (c->trees, Tree, i);

      if (tree->ts <= cut && tree->ts + tree->dur > cut && (tree->thread != 3 || update >= LATE_UPDATE))
        sps_trace_builder_add_complete (b, threads[tree->thread], tree->ts, cut - tree->ts,
                                        sps_trace_builder_intern (b, "open", -1), 0,
                                        sps_trace_builder_add_args_text (b, "{\"open\":true}", -1),
                                        SPS_SLICE_UNFINISHED);
    }

  for (guint i = 0; i < c->instants->len; i++)
    {
      SpsTime ts = g_array_index (c->instants, SpsTime, i);

      if (ts <= cut && (with_old || ts > prev))
        sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, threads[0],
                                       ts, sps_trace_builder_intern (b, "mark", -1), 0, SPS_ARGS_REF_NONE);
    }

  counter = sps_trace_builder_ensure_counter_track (b, process, sps_trace_builder_intern (b, "load", -1), 0);
  for (SpsTime ts = 0; ts <= cut; ts += MAX (cut / 5, 1))
    sps_trace_builder_add_counter_value (b, counter, ts, (double) (ts % 97) + update);
  sps_trace_builder_add_metadata (b, "update", sps_trace_builder_add_args_text (b, meta, -1));
  sps_trace_builder_set_info_section (b, "live", meta);
  sps_trace_builder_warn (b, "closed", "%u closed", n_closed);
  sps_trace_builder_set_format (b, "test");
  sps_trace_builder_add_events_read (b, (guint64) cut);
}

static SpsTrace *
finish (SpsTraceBuilder *b)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_builder_finish (b, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* What a query over the SQL tables gives, cell for cell */
static void
assert_same_query (SpsTrace   *a,
                   SpsTrace   *b,
                   const char *sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlEngine) engine_a = sps_sql_engine_new (a, &error);
  g_autoptr(SpsSqlEngine) engine_b = sps_sql_engine_new (b, &error);
  g_autoptr(SpsSqlResult) ra = NULL;
  g_autoptr(SpsSqlResult) rb = NULL;

  g_assert_no_error (error);
  ra = sps_sql_engine_query (engine_a, sql, NULL, NULL, &error);
  g_assert_no_error (error);
  rb = sps_sql_engine_query (engine_b, sql, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_sql_result_get_n_rows (ra), ==, sps_sql_result_get_n_rows (rb));
  g_assert_cmpuint (sps_sql_result_get_n_columns (ra), ==, sps_sql_result_get_n_columns (rb));
  g_assert_cmpuint (sps_sql_result_get_n_rows (ra), >, 0);
  for (guint r = 0; r < sps_sql_result_get_n_rows (ra); r++)
    for (guint c = 0; c < sps_sql_result_get_n_columns (ra); c++)
      {
        g_assert_cmpint (sps_sql_result_get_value_type (ra, r, c), ==, sps_sql_result_get_value_type (rb, r, c));
        g_assert_cmpstr (sps_sql_result_get_text (ra, r, c), ==, sps_sql_result_get_text (rb, r, c));
      }
}

/* The flame tree of the measured slices of every thread merged, node
 * for node */
static void
assert_same_flame_tree (SpsTrace *a,
                        SpsTrace *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsFlameTree) ta = NULL;
  g_autoptr(SpsFlameTree) tb = NULL;
  SpsFlameTreeParams params;
  const SpsFlameNode *na, *nb;
  guint n_a, n_b;

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  ta = sps_flame_tree_build (a, &params, NULL, &error);
  g_assert_no_error (error);
  tb = sps_flame_tree_build (b, &params, NULL, &error);
  g_assert_no_error (error);
  na = sps_flame_tree_get_nodes (ta, &n_a);
  nb = sps_flame_tree_get_nodes (tb, &n_b);
  g_assert_cmpuint (n_a, ==, n_b);
  g_assert_cmpuint (n_a, >, 1);
  for (guint i = 0; i < n_a; i++)
    {
      g_assert_cmpuint (na[i].parent, ==, nb[i].parent);
      g_assert_cmpuint (na[i].first_child, ==, nb[i].first_child);
      g_assert_cmpuint (na[i].next_sibling, ==, nb[i].next_sibling);
      g_assert_cmpstr (sps_trace_get_string (a, na[i].name), ==, sps_trace_get_string (b, nb[i].name));
      g_assert_cmpint (na[i].inclusive, ==, nb[i].inclusive);
      g_assert_cmpint (na[i].exclusive, ==, nb[i].exclusive);
      g_assert_cmpuint (na[i].n_instances, ==, nb[i].n_instances);
    }
}

/* Updates at random cuts: each grown trace (or, refused, the whole one)
 * against a finish of everything up to its cut */
static void
test_updates (void)
{
  guint grown = 0, refused = 0;

  for (guint32 seed = 1; seed <= 40; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(Capture) c = make_capture (rand, 20000);
      g_autoptr(SpsTraceBuilder) first = sps_trace_builder_new ();
      g_autoptr(SpsTrace) shown = NULL;
      SpsTime prev = g_rand_int_range (rand, 0, 400);
      guint update = 1;

      add_rows (first, c, 0, 0, prev, TRUE);
      shown = finish (first);

      while (prev < c->end)
        {
          /* Chunks of 0 ns (nothing new) to a tenth of the capture */
          SpsTime cut = MIN (c->end, prev + (g_rand_int_range (rand, 0, 8) == 0 ? 0 : g_rand_int_range (rand, 1, 2000)));
          g_autoptr(SpsTraceBuilder) part_builder = _sps_trace_builder_new_for_growth (shown);
          g_autoptr(SpsTraceBuilder) all_builder = _sps_trace_builder_new_for_growth (shown);
          g_autoptr(SpsTrace) part = NULL;
          g_autoptr(SpsTrace) all = NULL;
          g_autoptr(SpsTrace) next = NULL;
          const char *why = NULL;

          add_rows (part_builder, c, update, prev, cut, FALSE);
          add_rows (all_builder, c, update, prev, cut, TRUE);
          part = finish (part_builder);
          all = finish (all_builder);
          next = _sps_trace_grow (shown, part, &why);
          if (next != NULL)
            {
              g_assert_null (why);
              sps_test_assert_same_trace_args (next, all, FALSE);
              /* And what reads the tables: SQL and the flame tree, every
               * few updates */
              if (update % 8 == 0)
                {
                  assert_same_query (next, all, "SELECT * FROM slices");
                  assert_same_query (next, all, "SELECT * FROM instants");
                  assert_same_query (next, all, "SELECT * FROM counters");
                  assert_same_query (next, all, "SELECT t.name, count(*), sum(s.dur) FROM slices s "
                                                "JOIN threads t ON s.thread_id = t.id GROUP BY t.name");
                  assert_same_flame_tree (next, all);
                }
              grown++;
            }
          else
            {
              g_assert_nonnull (why);
              g_test_message ("seed %u update %u refused: %s", seed, update, why);
              next = g_object_ref (all);
              refused++;
            }
          g_set_object (&shown, next);
          prev = cut;
          update++;
        }
    }

  g_test_message ("%u updates grown, %u refused", grown, refused);
  /* Refused only where a root of zero length ties with the next start */
  g_assert_cmpuint (grown, >, 10 * refused);
}

/* Why growing @base by one slice of thread (1, @tid) at @ts is refused */
static const char *
refusal (SpsTrace *base,
         gint64    tid,
         SpsTime   ts)
{
  g_autoptr(SpsTraceBuilder) b = _sps_trace_builder_new_for_growth (base);
  g_autoptr(SpsTrace) part = NULL;
  g_autoptr(SpsTrace) grown = NULL;
  const char *why = NULL;
  guint32 thread = sps_trace_builder_ensure_thread (b, sps_trace_builder_ensure_process (b, 1), tid);

  sps_trace_builder_add_complete (b, thread, ts, 10, 1, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  part = finish (b);
  grown = _sps_trace_grow (base, part, &why);
  g_assert_null (grown);

  return why;
}

/* Rows a growth cannot place: refused, not merged wrongly */
static void
test_refused (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) base = NULL;
  guint32 thread = sps_trace_builder_ensure_thread (b, sps_trace_builder_ensure_process (b, 1), 1);

  sps_trace_builder_add_complete (b, thread, 100, 50, sps_trace_builder_intern (b, "a", -1), 0,
                                  SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  base = finish (b);

  /* Starts inside the kept slice: finish would nest it */
  g_assert_cmpstr (refusal (base, 1, 120), ==, "new slices start before the kept ones end");
  /* The kept slice's thread is another one in the part */
  g_assert_cmpstr (refusal (base, 2, 200), ==, "a kept row's thread is another thread in the part");
}

/* Growing by exactly nothing new gives the base's rows again (and its
 * block index leaves, reused) */
static void
test_nothing_new (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTraceBuilder) again = NULL;
  g_autoptr(SpsTrace) base = NULL;
  g_autoptr(SpsTrace) part = NULL;
  g_autoptr(SpsTrace) grown = NULL;
  guint32 process, thread;

  process = sps_trace_builder_ensure_process (b, 1);
  thread = sps_trace_builder_ensure_thread (b, process, 1);
  /* 600 slices: two full blocks and part of a third */
  for (guint i = 0; i < 600; i++)
    sps_trace_builder_add_complete (b, thread, 10 * i, 5 + i % 3, sps_trace_builder_intern (b, "s", -1), 0,
                                    SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  base = finish (b);

  again = _sps_trace_builder_new_for_growth (base);
  process = sps_trace_builder_ensure_process (again, 1);
  sps_trace_builder_ensure_thread (again, process, 1);
  part = finish (again);
  grown = _sps_trace_grow (base, part, NULL);
  g_assert_nonnull (grown);
  sps_test_assert_same_trace_args (grown, base, FALSE);
  g_assert_cmpuint (grown->slices.n_rows, ==, 600);
  g_assert_cmpint (grown->end_time, ==, 10 * 599 + 5 + 599 % 3);
  g_assert_cmpuint (grown->n_block_leaves, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/trace-grow/updates", test_updates);
  g_test_add_func ("/core/trace-grow/refused", test_refused);
  g_test_add_func ("/core/trace-grow/nothing-new", test_nothing_new);

  return g_test_run ();
}
