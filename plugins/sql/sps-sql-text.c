/* sps-sql-text.c: SQL text the SQL plugin writes (query builder, statistics)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-text"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sps-sql-text.h"

const char *
sps_sql_op_to_string (SpsSqlOp op)
{
  static const char * const ops[] = {
    "=", "!=", "<", "<=", ">", ">=", "LIKE", "IS NULL", "IS NOT NULL",
  };

  g_return_val_if_fail (op < SPS_SQL_N_OPS, "=");

  return ops[op];
}

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

/* Plain names stay readable; anything else is double-quoted. */
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

/* A number stays a number; anything else becomes a string literal. */
void
sps_sql_append_value (GString    *out,
                      const char *value)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (value != NULL);

  if (is_number (value))
    {
      g_string_append (out, value);
      return;
    }

  g_string_append_c (out, '\'');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
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

/* The query builder's SQL: filters joined by AND, an optional group-by
 * column and aggregates. Without aggregates a grouped query counts rows;
 * without either it lists rows, at most 1000. */
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

/* The statistics panel's query. Columns: [thread,] name, kind, count,
 * total, self_total, average, min, max, all times in ns.
 *
 * Without a range it reads the slices' own dur and self_time. With a range
 * [start, end) every slice that overlaps it (for a positive length) counts
 * once, clipped to it:
 * total sums the overlaps, and self_total subtracts from each overlap the
 * overlaps of the slice's children, which nest inside it. A zero-length
 * slice counts when its ts is inside the range.
 *
 * Averages, minimum and maximum are only given for measured slices; the
 * lengths of sampled spans are estimates from sample spacing, so those
 * rows (kind "sampled_span") only carry count and totals. */
char *
sps_sql_build_statistics (SpsStatsGrouping grouping,
                          gboolean         has_range,
                          SpsTime          start,
                          SpsTime          end)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean by_thread = grouping == SPS_STATS_BY_THREAD;
  const char *thread_label =
    "(SELECT coalesce(t.name, 'Thread') || ' ' || t.tid FROM threads AS t WHERE t.id = s.thread_id) AS thread, ";

  g_return_val_if_fail (!has_range || start <= end, NULL);

  if (!has_range)
    {
      g_string_append (out, "SELECT ");
      if (by_thread)
        g_string_append (out, thread_label);
      g_string_append (out,
                       "s.name AS name, s.kind AS kind, count(*) AS count,"
                       " sum(s.dur) AS total, sum(s.self_time) AS self_total,\n"
                       "  CASE WHEN s.kind = 'measured' THEN avg(s.dur) END AS average,\n"
                       "  CASE WHEN s.kind = 'measured' THEN min(s.dur) END AS min,\n"
                       "  CASE WHEN s.kind = 'measured' THEN max(s.dur) END AS max\n"
                       "FROM slices AS s\n"
                       "GROUP BY ");
      if (by_thread)
        g_string_append (out, "s.thread_id, ");
      g_string_append (out, "s.name, s.kind\nORDER BY total DESC, name");
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  g_string_append_printf (out,
                          "WITH r AS (\n"
                          "  SELECT id, parent_id, thread_id, name, kind,\n"
                          "         min(end_ts, %" G_GINT64_FORMAT ") - max(ts, %" G_GINT64_FORMAT ") AS clip\n"
                          "  FROM slices\n"
                          "  WHERE ts < %" G_GINT64_FORMAT
                          " AND ((end_ts > %" G_GINT64_FORMAT " AND min(end_ts, %" G_GINT64_FORMAT ") > max(ts, %" G_GINT64_FORMAT "))"
                          " OR (end_ts = ts AND ts >= %" G_GINT64_FORMAT "))),\n"
                          "c AS (\n"
                          "  SELECT parent_id AS id, sum(clip) AS clip FROM r\n"
                          "  WHERE parent_id IS NOT NULL GROUP BY parent_id)\n"
                          "SELECT ",
                          end, start, end, start, end, start, start);
  if (by_thread)
    g_string_append (out, thread_label);
  g_string_append (out,
                   "s.name AS name, s.kind AS kind, count(*) AS count,"
                   " sum(s.clip) AS total, sum(s.clip - coalesce(c.clip, 0)) AS self_total,\n"
                   "  CASE WHEN s.kind = 'measured' THEN avg(s.clip) END AS average,\n"
                   "  CASE WHEN s.kind = 'measured' THEN min(s.clip) END AS min,\n"
                   "  CASE WHEN s.kind = 'measured' THEN max(s.clip) END AS max\n"
                   "FROM r AS s LEFT JOIN c ON c.id = s.id\n"
                   "GROUP BY ");
  if (by_thread)
    g_string_append (out, "s.thread_id, ");
  g_string_append (out, "s.name, s.kind\nORDER BY total DESC, name");

  return g_string_free (g_steal_pointer (&out), FALSE);
}
