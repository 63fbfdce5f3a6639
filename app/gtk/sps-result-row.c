/* sps-result-row.c: one row of an SpsResultTable in its list model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-result-row"

#include "config.h"

#include "sps-result-row-private.h"

/* A GtkColumnView needs one GObject per row; the cells stay in the table's
 * flat store so a large result costs one small object per row. */
struct _SpsResultRow
{
  GObject parent_instance;
  guint   index;
};

G_DEFINE_FINAL_TYPE (SpsResultRow, sps_result_row, G_TYPE_OBJECT)

static void
sps_result_row_class_init (SpsResultRowClass *klass)
{
}

static void
sps_result_row_init (SpsResultRow *self)
{
}

SpsResultRow *
sps_result_row_new (guint index)
{
  SpsResultRow *self = g_object_new (SPS_TYPE_RESULT_ROW, NULL);

  self->index = index;
  return self;
}

guint
sps_result_row_get_index (SpsResultRow *self)
{
  g_return_val_if_fail (SPS_IS_RESULT_ROW (self), 0);

  return self->index;
}
