/* sps-result-table-private.h: what the files of SpsResultTable share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-result-row-private.h"
#include "sps-result-table.h"

G_BEGIN_DECLS

/* What a column's factory and sorter need; each owns one copy. */
typedef struct
{
  SpsResultTable *self;
  guint           column;
} ColumnData;

struct _SpsResultTable
{
  GtkWidget             parent_instance;

  GtkStack             *stack;
  GtkLabel             *placeholder;
  GtkColumnView        *view;
  GtkLabel             *count_label;
  GtkLabel             *note_label;
  GtkFileChooserNative *chooser;
  char                 *null_text;

  /* Row objects in the order they were appended; rows appended since the
   * last flush wait in @pending so a large result is spliced in at once
   * instead of re-sorting the view once per row. */
  GListStore           *rows;
  GPtrArray            *pending;
  GtkSortListModel     *sorted;
  GtkSingleSelection   *selection;
  guint                 flush_id;

  guint                 n_columns;
  GStrv                 names;
  SpsResultColumnType  *types;
  GArray               *cells;
  guint                 n_rows;
  /* Per column, lazily filled collation keys of text cells (or NULL). */
  GPtrArray           **collate_keys;

  /* GTK 4.8 does not say which way GtkColumnViewSorter sorts; comparing
   * two probe rows through it tells, so NULL cells can stay last. */
  SpsResultRow         *probe_low;
  SpsResultRow         *probe_high;
  gboolean              sort_descending;

  guint                 last_emitted;
};

G_GNUC_INTERNAL
void  _sps_result_table_flush_pending (SpsResultTable *self);
G_GNUC_INTERNAL
guint _sps_result_table_row_at        (SpsResultTable *self,
                                       guint           position);

G_END_DECLS
