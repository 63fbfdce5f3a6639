/* fuzz-sql.c: SQL over whatever a fuzzed Chrome JSON import produced
 *
 * The input is SQL text, a NUL byte, then the trace: the query runs on the
 * engine's tables over the trace (virtual tables, the functions the
 * engine adds). An input without a NUL is only a trace, and every table
 * is read whole, as `SELECT *` from the SQL panel does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "sps-chrome-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

/* A query may take as long as it likes (a recursive CTE counting to
 * 10^12 is valid SQL): after QUERY_MS it is cancelled, as a user would,
 * and must then stop well within the harness's time limit. A quarter of a
 * second is long enough for any query over a fuzzed trace's few rows that
 * is not a loop; with 2 s, such loops held the harness at a few inputs a
 * second. SQLite's own heap is bounded too (a query that grows a string
 * to gigabytes fails with "out of memory", as the engine must report). */
#define QUERY_MS 250
#define SQLITE_HEAP_LIMIT "PRAGMA hard_heap_limit = 67108864"

static GMutex watch_lock;
static GCancellable *watched;
static gint64 watch_deadline;

static gpointer
watchdog (gpointer user_data)
{
  for (;;)
    {
      g_usleep (G_USEC_PER_SEC / 100);
      g_mutex_lock (&watch_lock);
      if (watched != NULL && g_get_monotonic_time () > watch_deadline)
        g_cancellable_cancel (watched);
      g_mutex_unlock (&watch_lock);
    }
  return NULL;
}

static void
watch (GCancellable *cancellable)
{
  static gsize started = 0;

  if (g_once_init_enter (&started))
    {
      g_thread_unref (g_thread_new ("fuzz-sql-watchdog", watchdog, NULL));
      g_once_init_leave (&started, 1);
    }
  g_mutex_lock (&watch_lock);
  g_set_object (&watched, cancellable);
  watch_deadline = g_get_monotonic_time () + QUERY_MS * (G_USEC_PER_SEC / 1000);
  g_mutex_unlock (&watch_lock);
}

static void
run (SpsSqlEngine *engine,
     const char   *sql)
{
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  watch (cancellable);
  result = sps_sql_engine_query (engine, sql, NULL, cancellable, &error);
  watch (NULL);
  if (result == NULL)
    {
      g_assert_nonnull (error);
      return;
    }
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    for (guint c = 0; c < sps_sql_result_get_n_columns (result); c++)
      g_free (sps_sql_result_dup_display_text (result, r, c));
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  g_autoptr(SpsImporter) importer = NULL;
  g_autoptr(GVariant) options = sps_fuzz_chrome_options ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;
  const guint8 *nul = memchr (data, 0, size);
  const guint8 *json = data;
  gsize json_len = size;

  sps_fuzz_init ();
  if (nul != NULL)
    {
      sql = g_strndup ((const char *) data, nul - data);
      json = nul + 1;
      json_len = size - (nul - data) - 1;
    }

  importer = g_object_new (SPS_TYPE_CHROME_IMPORTER, NULL);
  if (!(trace = sps_fuzz_import (importer, json, json_len, options)))
    return 0;

  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);
  sps_sql_engine_set_max_rows (engine, 1000);
  /* The limit is the process's: set once */
  {
    static gsize limited = 0;

    if (g_once_init_enter (&limited))
      {
        run (engine, SQLITE_HEAP_LIMIT);
        g_once_init_leave (&limited, 1);
      }
  }

  if (sql != NULL)
    run (engine, sql);
  else
    {
      /* The schema is the same for every trace: listed once, it leaves
       * the time to the queries (the listing was a third of each run) */
      static GStrv tables;

      if (tables == NULL)
        tables = sps_sql_engine_list_tables (engine, &error);
      g_assert_no_error (error);
      for (guint i = 0; tables[i] != NULL; i++)
        {
          g_autofree char *select = g_strdup_printf ("SELECT * FROM \"%s\"", tables[i]);

          run (engine, select);
        }
    }
  return 0;
}
