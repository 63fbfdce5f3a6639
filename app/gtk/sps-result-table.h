/* sps-result-table.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>
#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsResultColumnType:
 * @SPS_RESULT_COLUMN_TEXT: text; sorted by collation, left-aligned
 * @SPS_RESULT_COLUMN_INTEGER: 64-bit integers; sorted numerically, right-aligned
 * @SPS_RESULT_COLUMN_REAL: doubles; sorted numerically, right-aligned
 * @SPS_RESULT_COLUMN_DURATION: nanoseconds (integers or doubles); shown
 *   with a unit ("1.5 ms"), sorted numerically, exported as plain numbers
 *
 * How a column of an [class@ResultTable] sorts and aligns. Any cell may
 * still be NULL or hold a value of another type (SQLite's typing is per
 * value): in a numeric column numbers sort before text, and NULL cells
 * always sort last.
 */
typedef enum
{
  SPS_RESULT_COLUMN_TEXT,
  SPS_RESULT_COLUMN_INTEGER,
  SPS_RESULT_COLUMN_REAL,
  SPS_RESULT_COLUMN_DURATION,
} SpsResultColumnType;

/**
 * SpsResultFormat:
 * @SPS_RESULT_FORMAT_CSV: comma-separated values (RFC 4180)
 * @SPS_RESULT_FORMAT_TSV: tab-separated values, quoted like RFC 4180
 *
 * The file formats [method@ResultTable.export_bytes] writes.
 */
typedef enum
{
  SPS_RESULT_FORMAT_CSV,
  SPS_RESULT_FORMAT_TSV,
} SpsResultFormat;

#define SPS_TYPE_RESULT_TABLE (sps_result_table_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsResultTable, sps_result_table, SPS, RESULT_TABLE, GtkWidget)

SPS_GTK_AVAILABLE_IN_ALL
GtkWidget  *sps_result_table_new             (void);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_set_columns     (SpsResultTable            *self,
                                              guint                      n_columns,
                                              const char * const        *names,
                                              const SpsResultColumnType *types);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_append_row      (SpsResultTable            *self,
                                              GVariant                  *row);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_set_result      (SpsResultTable            *self,
                                              SpsSqlResult              *result);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_append_result   (SpsResultTable            *self,
                                              SpsSqlResult              *rows);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_update_result   (SpsResultTable            *self,
                                              SpsSqlResult              *result);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_clear           (SpsResultTable            *self);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_result_table_get_n_columns   (SpsResultTable            *self);
SPS_GTK_AVAILABLE_IN_ALL
const char *sps_result_table_get_column_name (SpsResultTable            *self,
                                              guint                      column);
SPS_GTK_AVAILABLE_IN_ALL
SpsResultColumnType sps_result_table_get_column_type (SpsResultTable    *self,
                                              guint                      column);
SPS_GTK_AVAILABLE_IN_ALL
int         sps_result_table_find_column     (SpsResultTable            *self,
                                              const char                *name);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_result_table_get_n_rows      (SpsResultTable            *self);
SPS_GTK_AVAILABLE_IN_ALL
GVariant   *sps_result_table_get_cell        (SpsResultTable            *self,
                                              guint                      row,
                                              guint                      column);
SPS_GTK_AVAILABLE_IN_ALL
char       *sps_result_table_dup_cell_text   (SpsResultTable            *self,
                                              guint                      row,
                                              guint                      column);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_sort            (SpsResultTable            *self,
                                              int                        column,
                                              GtkSortType                order);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_result_table_get_row_at      (SpsResultTable            *self,
                                              guint                      position);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_select_row      (SpsResultTable            *self,
                                              guint                      row);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_result_table_get_selected_row (SpsResultTable           *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_set_note        (SpsResultTable            *self,
                                              const char                *note);
SPS_GTK_AVAILABLE_IN_ALL
const char *sps_result_table_get_note        (SpsResultTable            *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_set_null_text   (SpsResultTable            *self,
                                              const char                *text);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_result_table_set_placeholder (SpsResultTable            *self,
                                              const char                *text);
SPS_GTK_AVAILABLE_IN_ALL
GBytes     *sps_result_table_export_bytes    (SpsResultTable            *self,
                                              SpsResultFormat            format);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_result_table_export_to_file  (SpsResultTable            *self,
                                              GFile                     *file,
                                              SpsResultFormat            format,
                                              GError                   **error);

G_END_DECLS
