/* sps-sql-text.c: SQL text for the engine's tables (quoting, the query
 * builder's queries, the statistics)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-text"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sps-sql-text.h"

/**
 * sps_sql_op_to_string:
 * @op: an operator
 *
 * Returns: the operator as SQL writes it
 */
const char *
sps_sql_op_to_string (SpsSqlOp op)
{
  static const char * const ops[] = {
    "=", "!=", "<", "<=", ">", ">=", "LIKE", "IS NULL", "IS NOT NULL",
  };

  g_return_val_if_fail (op < SPS_SQL_N_OPS, "=");

  return ops[op];
}

/**
 * sps_sql_aggregate_to_string:
 * @function: an aggregate function
 *
 * Returns: the function's SQL name, `count`…
 */
const char *
sps_sql_aggregate_to_string (SpsSqlAggregate function)
{
  static const char * const functions[] = { "count", "sum", "avg", "min", "max" };

  g_return_val_if_fail (function < SPS_SQL_N_AGGREGATES, "count");

  return functions[function];
}

static gboolean
is_plain_identifier (const char *name)
{
  if (!g_ascii_isalpha (name[0]) && name[0] != '_')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

/**
 * sps_sql_append_identifier:
 * @out: where the SQL goes
 * @name: a table or column name
 *
 * Appends @name as an SQL identifier: plain names stay readable, anything
 * else is double-quoted.
 */
void
sps_sql_append_identifier (GString    *out,
                           const char *name)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (name != NULL);

  if (is_plain_identifier (name))
    {
      g_string_append (out, name);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static gboolean
is_number (const char *value)
{
  char *end = NULL;

  if (value[0] == '\0' || g_ascii_isspace (value[0]))
    return FALSE;
  g_ascii_strtod (value, &end);
  /* strtod also reads "nan", "inf" and hex, which SQL does not. */
  if (end == NULL || *end != '\0')
    return FALSE;
  for (const char *p = value; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && strchr ("+-.eE", *p) == NULL)
      return FALSE;
  return TRUE;
}

/**
 * sps_sql_append_string:
 * @out: where the SQL goes
 * @text: any text
 *
 * Appends @text as an SQL string literal, its quotes doubled.
 */
void
sps_sql_append_string (GString    *out,
                       const char *text)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  g_string_append_c (out, '\'');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
}

/**
 * sps_sql_append_value:
 * @out: where the SQL goes
 * @value: what a user typed
 *
 * Appends @value as an SQL value: a number stays a number, anything else
 * becomes a string literal.
 */
void
sps_sql_append_value (GString    *out,
                      const char *value)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (value != NULL);

  if (is_number (value))
    g_string_append (out, value);
  else
    sps_sql_append_string (out, value);
}

static void
append_aggregate (GString                   *out,
                  const SpsSqlAggregateSpec *spec)
{
  gboolean all_rows = spec->column == NULL || g_str_equal (spec->column, "*");
  g_autoptr(GString) alias = g_string_new (sps_sql_aggregate_to_string (spec->function));

  g_string_append (out, sps_sql_aggregate_to_string (spec->function));
  g_string_append_c (out, '(');
  if (all_rows)
    g_string_append_c (out, '*');
  else
    sps_sql_append_identifier (out, spec->column);
  g_string_append (out, ") AS ");

  if (!all_rows)
    g_string_append_printf (alias, "_%s", spec->column);
  sps_sql_append_identifier (out, alias->str);
}

/**
 * sps_sql_build_query:
 * @table: the table to read
 * @filters: (array length=n_filters) (nullable): conditions, joined by AND
 * @n_filters: their number
 * @group_by: (nullable): a column to group by
 * @aggregates: (array length=n_aggregates) (nullable): what to compute
 * @n_aggregates: their number
 *
 * The query builder's SQL. Without aggregates a grouped query counts rows;
 * without either it lists rows, at most 1000.
 *
 * Returns: (transfer full): the SQL text
 */
char *
sps_sql_build_query (const char                *table,
                     const SpsSqlFilter        *filters,
                     guint                      n_filters,
                     const char                *group_by,
                     const SpsSqlAggregateSpec *aggregates,
                     guint                      n_aggregates)
{
  static const SpsSqlAggregateSpec count_rows = { SPS_SQL_AGGREGATE_COUNT, NULL };
  g_autoptr(GString) out = g_string_new ("SELECT ");
  gboolean grouped;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (n_filters == 0 || filters != NULL, NULL);
  g_return_val_if_fail (n_aggregates == 0 || aggregates != NULL, NULL);

  grouped = group_by != NULL && group_by[0] != '\0';
  if (grouped && n_aggregates == 0)
    {
      aggregates = &count_rows;
      n_aggregates = 1;
    }

  if (grouped)
    {
      sps_sql_append_identifier (out, group_by);
      if (n_aggregates > 0)
        g_string_append (out, ", ");
    }
  for (guint i = 0; i < n_aggregates; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_aggregate (out, &aggregates[i]);
    }
  if (!grouped && n_aggregates == 0)
    g_string_append_c (out, '*');

  g_string_append (out, "\nFROM ");
  sps_sql_append_identifier (out, table);

  for (guint i = 0; i < n_filters; i++)
    {
      g_string_append (out, i == 0 ? "\nWHERE " : "\n  AND ");
      sps_sql_append_identifier (out, filters[i].column);
      g_string_append_c (out, ' ');
      g_string_append (out, sps_sql_op_to_string (filters[i].op));
      if (filters[i].op != SPS_SQL_OP_IS_NULL && filters[i].op != SPS_SQL_OP_IS_NOT_NULL)
        {
          g_string_append_c (out, ' ');
          sps_sql_append_value (out, filters[i].value != NULL ? filters[i].value : "");
        }
    }

  if (grouped)
    {
      g_string_append (out, "\nGROUP BY ");
      sps_sql_append_identifier (out, group_by);
      g_string_append (out, "\nORDER BY 2 DESC");
    }
  else if (n_aggregates == 0)
    {
      g_string_append (out, "\nLIMIT 1000");
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * sps_sql_build_statistics:
 * @grouping: the rows
 * @filtered: count only the slices the session's filters show
 *   (`slice_visible()`)
 * @has_range: count only over [@start, @end)
 * @start: the range's start
 * @end: the range's end
 *
 * The statistics panel's query. Columns: [thread,] name, kind, count,
 * total, self_total, average, min, max, all times in ns.
 *
 * Without a range it reads the slices' own dur and self_time. With a range
 * [start, end) every slice that overlaps it (for a positive length) counts
 * once, clipped to it: total sums the overlaps, and self_total subtracts
 * from each overlap the overlaps of the slice's children, which nest
 * inside it (for a slice wholly inside the range, that is its self time).
 * A zero-length slice counts when its ts is inside the range.
 *
 * Averages, minimum and maximum are only given for measured slices; the
 * lengths of sampled spans are estimates from sample spacing, so those
 * rows (kind "sampled_span") only carry count and totals (read from
 * estimated_cpu_time and estimated_self_cpu_time: their dur and self_time
 * are NULL).
 *
 * Grouping by name alone lets the engine stream the groups from its name
 * index instead of sorting every slice (2–3× less CPU on a 1e6-event trace),
 * so the two kinds are split with conditional aggregates and put back
 * together as rows afterwards.
 *
 * Returns: (transfer full): the SQL text
 */
char *
sps_sql_build_statistics (SpsStatsGrouping grouping,
                          gboolean         filtered,
                          gboolean         has_range,
                          SpsTime          start,
                          SpsTime          end)
{
  g_autoptr(GString) out = g_string_new ("WITH ");
  gboolean by_thread = grouping == SPS_STATS_BY_THREAD;
  const char *thread_label =
    "(SELECT coalesce(t.name, 'Thread') || ' ' || t.tid FROM threads AS t WHERE t.id = g.thread_id) AS thread, ";
  const char *source = "slices";

  g_return_val_if_fail (!has_range || start <= end, NULL);

  if (has_range)
    {
      /* A slice inside the range keeps its own self time; only the few
       * that cross an end of the range subtract their children's clipped
       * lengths, found on the same track within the parent's span so the
       * engine's indexes answer. */
      g_string_append_printf (out,
                              "s AS (\n"
                              "  SELECT thread_id, name, kind,\n"
                              "         min(end_ts, %1$" G_GINT64_FORMAT ") - max(ts, %2$" G_GINT64_FORMAT ") AS dur,\n"
                              "         CASE WHEN ts >= %2$" G_GINT64_FORMAT " AND end_ts <= %1$" G_GINT64_FORMAT
                              " THEN coalesce(self_time, estimated_self_cpu_time)\n"
                              "         ELSE min(end_ts, %1$" G_GINT64_FORMAT ") - max(ts, %2$" G_GINT64_FORMAT ") - coalesce(\n"
                              "           (SELECT sum(min(c.end_ts, %1$" G_GINT64_FORMAT ") - max(c.ts, %2$" G_GINT64_FORMAT "))\n"
                              "            FROM slices AS c\n"
                              "            WHERE c.track_id = p.track_id AND c.ts >= p.ts"
                              " AND c.ts < min(p.end_ts, %1$" G_GINT64_FORMAT ")\n"
                              "              AND c.end_ts > %2$" G_GINT64_FORMAT " AND c.parent_id = p.id), 0)\n"
                              "         END AS self_time\n"
                              "  FROM slices AS p\n"
                              "  WHERE ts < %1$" G_GINT64_FORMAT
                              " AND ((end_ts > %2$" G_GINT64_FORMAT " AND min(end_ts, %1$" G_GINT64_FORMAT ") > max(ts, %2$" G_GINT64_FORMAT "))"
                              " OR (end_ts = ts AND ts >= %2$" G_GINT64_FORMAT "))%3$s),\n",
                              end, start, filtered ? " AND slice_visible(p.id)" : "");
      source = "s";
    }

  g_string_append (out, "g AS (\n  SELECT ");
  if (by_thread)
    g_string_append (out, "thread_id, ");
  g_string_append_printf (out,
                          "name,\n"
                          "    sum(kind = 'measured') AS mc,\n"
                          "    sum(CASE WHEN kind = 'measured' THEN dur END) AS mt,\n"
                          "    sum(CASE WHEN kind = 'measured' THEN self_time END) AS ms,\n"
                          "    avg(CASE WHEN kind = 'measured' THEN dur END) AS ma,\n"
                          "    min(CASE WHEN kind = 'measured' THEN dur END) AS mn,\n"
                          "    max(CASE WHEN kind = 'measured' THEN dur END) AS mx,\n"
                          "    sum(kind <> 'measured') AS sc,\n"
                          "    sum(CASE WHEN kind <> 'measured' THEN %s END) AS st,\n"
                          "    sum(CASE WHEN kind <> 'measured' THEN %s END) AS ss\n"
                          "  FROM %s%s\n"
                          "  GROUP BY name%s)\n",
                          /* a sampled span's dur and self_time are NULL in
                           * SQL; clipped to a range they are computed */
                          has_range ? "dur" : "estimated_cpu_time",
                          has_range ? "self_time" : "estimated_self_cpu_time",
                          source, filtered && !has_range ? " WHERE slice_visible(id)" : "",
                          by_thread ? ", thread_id" : "");

  g_string_append (out, "SELECT ");
  if (by_thread)
    g_string_append (out, thread_label);
  g_string_append (out,
                   "name, 'measured' AS kind, mc AS count, mt AS total, ms AS self_total,"
                   " ma AS average, mn AS min, mx AS max\n"
                   "FROM g WHERE mc > 0\n"
                   "UNION ALL\n"
                   "SELECT ");
  if (by_thread)
    g_string_append (out, thread_label);
  g_string_append (out,
                   "name, 'sampled_span', sc, st, ss, NULL, NULL, NULL\n"
                   "FROM g WHERE sc > 0\n"
                   "ORDER BY total DESC, name, kind");

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * sps_sql_build_longest_slice:
 * @name: a statistics row's slice name
 * @sampled: the row's kind is sampled spans
 * @filtered: only slices the session's filters show
 * @thread: (nullable): the row's thread label, as the statistics write it
 * @has_range: only slices that overlap [@start, @end)
 * @start: the range's start
 * @end: the range's end
 *
 * The query of the id of the longest slice of a statistics row.
 *
 * Returns: (transfer full): the SQL text
 */
char *
sps_sql_build_longest_slice (const char *name,
                             gboolean    sampled,
                             gboolean    filtered,
                             const char *thread,
                             gboolean    has_range,
                             SpsTime     start,
                             SpsTime     end)
{
  g_autoptr(GString) out = g_string_new ("SELECT id FROM slices AS s\nWHERE name = ");

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (!has_range || start <= end, NULL);

  sps_sql_append_string (out, name);
  g_string_append_printf (out, " AND kind %s 'measured'", sampled ? "<>" : "=");
  if (filtered)
    g_string_append (out, " AND slice_visible(id)");
  if (thread != NULL)
    {
      g_string_append (out, "\n  AND (SELECT coalesce(t.name, 'Thread') || ' ' || t.tid"
                            " FROM threads AS t WHERE t.id = s.thread_id) = ");
      sps_sql_append_string (out, thread);
    }
  if (has_range)
    g_string_append_printf (out,
                            "\n  AND ts < %" G_GINT64_FORMAT " AND (end_ts > %" G_GINT64_FORMAT
                            " OR (end_ts = ts AND ts >= %" G_GINT64_FORMAT "))",
                            end, start, start);
  /* end_ts - ts: a sampled span's dur is NULL in SQL */
  g_string_append (out, "\nORDER BY end_ts - ts DESC, ts\nLIMIT 1");

  return g_string_free (g_steal_pointer (&out), FALSE);
}
