/* sps-memory-panel-private.h: the Memory panel's state, shared by
 * sps-memory-panel.c (controls and computation) and
 * sps-memory-panel-lists.c (the function list, the paths tree and the
 * frames)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-memory-panel.h"

G_BEGIN_DECLS

typedef enum
{
  COLUMN_FUNCTION,
  COLUMN_INCLUSIVE_BYTES,
  COLUMN_INCLUSIVE_COUNT,
  COLUMN_EXCLUSIVE_BYTES,
  COLUMN_EXCLUSIVE_COUNT,
  COLUMN_UNCERTAIN_BYTES,
  COLUMN_UNCERTAIN_COUNT,
  COLUMN_NOTE,
  N_COLUMNS,
} MemoryColumn;

/* What a sorter or a cell factory needs: the panel and its column */
typedef struct
{
  SpsMemoryPanel *self;
  MemoryColumn    column;
} ColumnRef;

struct _SpsMemoryPanel
{
  GtkWidget           parent_instance;

  SpsSession         *session;
  SpsTrace           *trace;
  SpsTime             origin;
  SpsTime             time;
  SpsTime             birth_start;
  SpsTime             birth_end;
  guint32             process;        /* whose allocations, SPS_NO_INDEX: all */
  GArray             *process_rows;   /* guint32: the picker's processes, in its order */

  SpsOutstandingTree *tree;
  GArray             *paths;          /* SpsOutstandingPath of the selected function */
  GCancellable       *cancellable;    /* the build in flight */
  guint64             max[N_COLUMNS]; /* the heat bars' full scale */
  ColumnRef           refs[N_COLUMNS];

  GtkEntry           *time_entry;
  GtkWidget          *use_selected_button;
  GtkEntry           *birth_start_entry;
  GtkEntry           *birth_end_entry;
  GtkWidget          *copy_range_button;
  GtkDropDown        *process_dropdown;
  GtkSpinner         *spinner;
  GtkLabel           *error_label;
  GtkLabel           *summary_label;
  GtkLabel           *note_label;

  GListStore         *functions;
  GtkSingleSelection *function_selection;
  GtkColumnView      *function_view;
  GtkSingleSelection *path_selection;
  GtkColumnView      *path_view;
  GtkListBox         *frames;
};

GtkWidget *_sps_memory_panel_create_lists    (SpsMemoryPanel *self);
void       _sps_memory_panel_fill_functions  (SpsMemoryPanel *self);
char      *_sps_memory_format_count          (guint64         value);

G_END_DECLS
