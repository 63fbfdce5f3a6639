/* sps-result-cell.c: the typed cells of SpsResultTable
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A cell is an integer, a real, a text or NULL, made from any GVariant a
 * query gives, shown and exported in one text form, and compared as a
 * number in numeric columns.
 */

#define G_LOG_DOMAIN "sps-result-table"

#include "config.h"

#include <math.h>

#include "sps-result-cell-private.h"

void
_sps_result_cell_clear (gpointer data)
{
  Cell *cell = data;

  if (cell->kind == CELL_TEXT)
    g_clear_pointer (&cell->v.s, g_free);
  cell->kind = CELL_NULL;
}

/* The shortest decimal form that reads back as the same double, so 0.1
 * shows as "0.1" and not "0.10000000000000001". */
static char *
format_real (double d)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (d))
    return g_strdup ("NaN");
  if (isinf (d))
    return g_strdup (d > 0 ? "Inf" : "-Inf");

  for (int precision = 15; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, sizeof buf, format, d);
      if (g_ascii_strtod (buf, NULL) == d)
        break;
    }

  return g_strdup (buf);
}

/* Returns NULL for a NULL cell. */
char *
_sps_result_cell_format (const Cell *cell)
{
  g_assert (cell != NULL);

  switch (cell->kind)
    {
    case CELL_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, cell->v.i);
    case CELL_REAL:
      return format_real (cell->v.d);
    case CELL_TEXT:
      return g_strdup (cell->v.s);
    case CELL_NULL:
    default:
      return NULL;
    }
}

void
_sps_result_cell_from_variant (GVariant *value,
                               Cell     *cell)
{
  g_assert (value != NULL);
  g_assert (cell != NULL);

  switch (g_variant_classify (value))
    {
    case G_VARIANT_CLASS_BOOLEAN:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_boolean (value) ? 1 : 0;
      break;
    case G_VARIANT_CLASS_BYTE:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_byte (value);
      break;
    case G_VARIANT_CLASS_INT16:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_int16 (value);
      break;
    case G_VARIANT_CLASS_UINT16:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_uint16 (value);
      break;
    case G_VARIANT_CLASS_INT32:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_int32 (value);
      break;
    case G_VARIANT_CLASS_UINT32:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_uint32 (value);
      break;
    case G_VARIANT_CLASS_HANDLE:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_handle (value);
      break;
    case G_VARIANT_CLASS_INT64:
      cell->kind = CELL_INTEGER;
      cell->v.i = g_variant_get_int64 (value);
      break;
    case G_VARIANT_CLASS_UINT64:
      {
        guint64 u = g_variant_get_uint64 (value);

        /* Beyond gint64 the value is kept as a (rounded) number rather
         * than wrapped to a negative one. */
        if (u > G_MAXINT64)
          {
            cell->kind = CELL_REAL;
            cell->v.d = (double) u;
          }
        else
          {
            cell->kind = CELL_INTEGER;
            cell->v.i = (gint64) u;
          }
      }
      break;
    case G_VARIANT_CLASS_DOUBLE:
      cell->kind = CELL_REAL;
      cell->v.d = g_variant_get_double (value);
      break;
    case G_VARIANT_CLASS_STRING:
    case G_VARIANT_CLASS_OBJECT_PATH:
    case G_VARIANT_CLASS_SIGNATURE:
      cell->kind = CELL_TEXT;
      cell->v.s = g_variant_dup_string (value, NULL);
      break;
    case G_VARIANT_CLASS_VARIANT:
      {
        g_autoptr(GVariant) inner = g_variant_get_variant (value);

        _sps_result_cell_from_variant (inner, cell);
      }
      break;
    case G_VARIANT_CLASS_MAYBE:
      if (g_variant_n_children (value) == 0)
        {
          cell->kind = CELL_NULL;
        }
      else
        {
          g_autoptr(GVariant) inner = g_variant_get_child_value (value, 0);

          _sps_result_cell_from_variant (inner, cell);
        }
      break;
    case G_VARIANT_CLASS_ARRAY:
    case G_VARIANT_CLASS_TUPLE:
    case G_VARIANT_CLASS_DICT_ENTRY:
    default:
      cell->kind = CELL_TEXT;
      cell->v.s = g_variant_print (value, FALSE);
      break;
    }
}

int
_sps_result_cell_compare_numbers (const Cell *a,
                                  const Cell *b)
{
  if (a->kind == CELL_INTEGER && b->kind == CELL_INTEGER)
    return (a->v.i > b->v.i) - (a->v.i < b->v.i);
  else
    {
      double da = a->kind == CELL_INTEGER ? (double) a->v.i : a->v.d;
      double db = b->kind == CELL_INTEGER ? (double) b->v.i : b->v.d;

      /* NaN sorts after every other number. */
      if (isnan (da) || isnan (db))
        return isnan (da) - isnan (db);
      return (da > db) - (da < db);
    }
}

/* The cell as an `x`, `d` or `s` variant, NULL for a NULL cell */
GVariant *
_sps_result_cell_to_variant (const Cell *cell)
{
  switch (cell->kind)
    {
    case CELL_INTEGER:
      return g_variant_ref_sink (g_variant_new_int64 (cell->v.i));
    case CELL_REAL:
      return g_variant_ref_sink (g_variant_new_double (cell->v.d));
    case CELL_TEXT:
      return g_variant_ref_sink (g_variant_new_string (cell->v.s));
    case CELL_NULL:
    default:
      return NULL;
    }
}
