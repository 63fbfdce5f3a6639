/* sps-result-cell-private.h: the typed cells of SpsResultTable
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CELL_NULL,
  CELL_INTEGER,
  CELL_REAL,
  CELL_TEXT,
} CellKind;

typedef struct
{
  CellKind kind;
  union
  {
    gint64  i;
    double  d;
    char   *s;
  } v;
} Cell;

void      _sps_result_cell_clear           (gpointer    data);
char     *_sps_result_cell_format          (const Cell *cell);
void      _sps_result_cell_from_variant    (GVariant   *value,
                                            Cell       *cell);
int       _sps_result_cell_compare_numbers (const Cell *a,
                                            const Cell *b);
GVariant *_sps_result_cell_to_variant      (const Cell *cell);

G_END_DECLS
