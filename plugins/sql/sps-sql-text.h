/* sps-sql-text.h: SQL text the SQL plugin writes (query builder, statistics)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

typedef enum
{
  SPS_SQL_OP_EQUAL,
  SPS_SQL_OP_NOT_EQUAL,
  SPS_SQL_OP_LESS,
  SPS_SQL_OP_LESS_EQUAL,
  SPS_SQL_OP_GREATER,
  SPS_SQL_OP_GREATER_EQUAL,
  SPS_SQL_OP_LIKE,
  SPS_SQL_OP_IS_NULL,
  SPS_SQL_OP_IS_NOT_NULL,
  SPS_SQL_N_OPS
} SpsSqlOp;

typedef enum
{
  SPS_SQL_AGGREGATE_COUNT,
  SPS_SQL_AGGREGATE_SUM,
  SPS_SQL_AGGREGATE_AVG,
  SPS_SQL_AGGREGATE_MIN,
  SPS_SQL_AGGREGATE_MAX,
  SPS_SQL_N_AGGREGATES
} SpsSqlAggregate;

typedef struct
{
  const char *column;
  SpsSqlOp    op;
  const char *value;     /* ignored by IS [NOT] NULL */
} SpsSqlFilter;

typedef struct
{
  SpsSqlAggregate  function;
  const char      *column;  /* NULL or "*" counts rows */
} SpsSqlAggregateSpec;

/* Rows of the statistics query: one per name (and thread) and kind. */
typedef enum
{
  SPS_STATS_BY_NAME,
  SPS_STATS_BY_THREAD,
} SpsStatsGrouping;

const char *sps_sql_op_to_string        (SpsSqlOp                   op);
const char *sps_sql_aggregate_to_string (SpsSqlAggregate            function);
void        sps_sql_append_identifier   (GString                   *out,
                                         const char                *name);
void        sps_sql_append_value        (GString                   *out,
                                         const char                *value);
void        sps_sql_append_string       (GString                   *out,
                                         const char                *text);
char       *sps_sql_build_query         (const char                *table,
                                         const SpsSqlFilter        *filters,
                                         guint                      n_filters,
                                         const char                *group_by,
                                         const SpsSqlAggregateSpec *aggregates,
                                         guint                      n_aggregates);
char       *sps_sql_build_statistics    (SpsStatsGrouping           grouping,
                                         gboolean                   filtered,
                                         gboolean                   has_range,
                                         SpsTime                    start,
                                         SpsTime                    end);
char       *sps_sql_build_longest_slice (const char                *name,
                                         gboolean                   sampled,
                                         gboolean                   filtered,
                                         const char                *thread,
                                         gboolean                   has_range,
                                         SpsTime                    start,
                                         SpsTime                    end);

G_END_DECLS
