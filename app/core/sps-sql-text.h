/* sps-sql-text.h: SQL text for the engine's tables (quoting, the query
 * builder's queries, the statistics)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib.h>

#include "sps-types.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsSqlOp:
 * @SPS_SQL_OP_EQUAL: `=`
 * @SPS_SQL_OP_NOT_EQUAL: `!=`
 * @SPS_SQL_OP_LESS: `<`
 * @SPS_SQL_OP_LESS_EQUAL: `<=`
 * @SPS_SQL_OP_GREATER: `>`
 * @SPS_SQL_OP_GREATER_EQUAL: `>=`
 * @SPS_SQL_OP_LIKE: `LIKE`
 * @SPS_SQL_OP_IS_NULL: `IS NULL` (takes no value)
 * @SPS_SQL_OP_IS_NOT_NULL: `IS NOT NULL` (takes no value)
 * @SPS_SQL_N_OPS: the number of operators
 *
 * A comparison of a filter of sps_sql_build_query().
 */
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

/**
 * SpsSqlAggregate:
 * @SPS_SQL_AGGREGATE_COUNT: `count()`
 * @SPS_SQL_AGGREGATE_SUM: `sum()`
 * @SPS_SQL_AGGREGATE_AVG: `avg()`
 * @SPS_SQL_AGGREGATE_MIN: `min()`
 * @SPS_SQL_AGGREGATE_MAX: `max()`
 * @SPS_SQL_N_AGGREGATES: the number of functions
 *
 * An aggregate function of sps_sql_build_query().
 */
typedef enum
{
  SPS_SQL_AGGREGATE_COUNT,
  SPS_SQL_AGGREGATE_SUM,
  SPS_SQL_AGGREGATE_AVG,
  SPS_SQL_AGGREGATE_MIN,
  SPS_SQL_AGGREGATE_MAX,
  SPS_SQL_N_AGGREGATES
} SpsSqlAggregate;

/**
 * SpsSqlFilter:
 * @column: a column name
 * @op: the comparison
 * @value: what the column is compared with (a number stays a number,
 *   anything else is a string); ignored by `IS [NOT] NULL`
 *
 * One condition of sps_sql_build_query().
 */
typedef struct
{
  const char *column;
  SpsSqlOp    op;
  const char *value;
} SpsSqlFilter;

/**
 * SpsSqlAggregateSpec:
 * @function: the function
 * @column: (nullable): a column name; %NULL or `*` counts rows
 *
 * One aggregate of sps_sql_build_query().
 */
typedef struct
{
  SpsSqlAggregate  function;
  const char      *column;
} SpsSqlAggregateSpec;

/**
 * SpsStatsGrouping:
 * @SPS_STATS_BY_NAME: a row per slice name and kind
 * @SPS_STATS_BY_THREAD: a row per thread, slice name and kind
 *
 * The rows of sps_sql_build_statistics().
 */
typedef enum
{
  SPS_STATS_BY_NAME,
  SPS_STATS_BY_THREAD,
} SpsStatsGrouping;

SPS_AVAILABLE_IN_ALL
const char *sps_sql_op_to_string        (SpsSqlOp                   op);
SPS_AVAILABLE_IN_ALL
const char *sps_sql_aggregate_to_string (SpsSqlAggregate            function);
SPS_AVAILABLE_IN_ALL
void        sps_sql_append_identifier   (GString                   *out,
                                         const char                *name);
SPS_AVAILABLE_IN_ALL
void        sps_sql_append_value        (GString                   *out,
                                         const char                *value);
SPS_AVAILABLE_IN_ALL
void        sps_sql_append_string       (GString                   *out,
                                         const char                *text);
SPS_AVAILABLE_IN_ALL
char       *sps_sql_build_query         (const char                *table,
                                         const SpsSqlFilter        *filters,
                                         guint                      n_filters,
                                         const char                *group_by,
                                         const SpsSqlAggregateSpec *aggregates,
                                         guint                      n_aggregates);
SPS_AVAILABLE_IN_ALL
char       *sps_sql_build_statistics    (SpsStatsGrouping           grouping,
                                         gboolean                   filtered,
                                         gboolean                   has_range,
                                         SpsTime                    start,
                                         SpsTime                    end);
SPS_AVAILABLE_IN_ALL
char       *sps_sql_build_longest_slice (const char                *name,
                                         gboolean                   sampled,
                                         gboolean                   filtered,
                                         const char                *thread,
                                         gboolean                   has_range,
                                         SpsTime                    start,
                                         SpsTime                    end);

G_END_DECLS
