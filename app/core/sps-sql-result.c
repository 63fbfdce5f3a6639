/* sps-sql-result.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <string.h>

#include "sps-csv.h"
#include "sps-sql-private.h"
#include "sps-sql-result.h"

/**
 * SpsSqlResult:
 *
 * The rows of a query, copied out of SQLite so that they can be read from
 * any thread after the connection has moved on. Immutable once returned by
 * #SpsSqlEngine.
 *
 * Each cell keeps the kind SQLite gave it (sps_sql_result_get_value_type());
 * each column has the type observed over its values
 * (sps_sql_result_get_column_type()) and the declared type of the table
 * column it comes from, when it comes straight from one.
 */

typedef struct
{
  union
  {
    gint64 i;
    double d;
    gsize  offset;                  /* into bytes, for text and blobs */
  } v;
  guint32 len;
  guint8  type;                     /* SpsSqlType */
} Cell;

struct _SpsSqlResult
{
  GObject     parent_instance;

  guint       n_columns;
  char      **names;
  char      **decltypes;            /* n_columns entries, some NULL */
  guint8     *column_types;         /* SpsSqlType */
  GArray     *cells;                /* Cell, row-major */
  GByteArray *bytes;                /* text (nul-terminated) and blobs */
  guint       n_rows;
  gboolean    truncated;
  gint64      elapsed_ns;
};

G_DEFINE_FINAL_TYPE (SpsSqlResult, sps_sql_result, G_TYPE_OBJECT)

static const Cell null_cell = { { 0 }, 0, SPS_SQL_TYPE_NULL };

static const Cell *
get_cell (SpsSqlResult *self,
          guint         row,
          guint         column)
{
  g_assert (SPS_IS_SQL_RESULT (self));

  if (row >= self->n_rows || column >= self->n_columns)
    return &null_cell;
  return &g_array_index (self->cells, Cell, (gsize) row * self->n_columns + column);
}

static void
sps_sql_result_finalize (GObject *object)
{
  SpsSqlResult *self = SPS_SQL_RESULT (object);

  g_strfreev (self->names);
  for (guint i = 0; i < self->n_columns; i++)
    g_free (self->decltypes[i]);
  g_free (self->decltypes);
  g_free (self->column_types);
  g_clear_pointer (&self->cells, g_array_unref);
  g_clear_pointer (&self->bytes, g_byte_array_unref);

  G_OBJECT_CLASS (sps_sql_result_parent_class)->finalize (object);
}

static void
sps_sql_result_class_init (SpsSqlResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_sql_result_finalize;
}

static void
sps_sql_result_init (SpsSqlResult *self)
{
  self->cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  self->bytes = g_byte_array_new ();
}

SpsSqlResult *
_sps_sql_result_new (sqlite3_stmt *stmt)
{
  SpsSqlResult *self;
  int n;

  g_assert (stmt != NULL);

  self = g_object_new (SPS_TYPE_SQL_RESULT, NULL);
  n = sqlite3_column_count (stmt);
  self->n_columns = (guint) MAX (n, 0);
  self->names = g_new0 (char *, self->n_columns + 1);
  self->decltypes = g_new0 (char *, self->n_columns + 1);
  self->column_types = g_new0 (guint8, self->n_columns + 1);
  for (guint i = 0; i < self->n_columns; i++)
    {
      const char *name = sqlite3_column_name (stmt, (int) i);

      self->names[i] = g_strdup (name != NULL ? name : "");
      self->decltypes[i] = g_strdup (sqlite3_column_decltype (stmt, (int) i));
    }

  return self;
}

static guint8
merge_type (guint8 column,
            guint8 value)
{
  if (value == SPS_SQL_TYPE_NULL || column == value)
    return column == SPS_SQL_TYPE_NULL ? value : column;
  if (column == SPS_SQL_TYPE_NULL)
    return value;
  if ((column == SPS_SQL_TYPE_INTEGER || column == SPS_SQL_TYPE_REAL) &&
      (value == SPS_SQL_TYPE_INTEGER || value == SPS_SQL_TYPE_REAL))
    return SPS_SQL_TYPE_REAL;
  return SPS_SQL_TYPE_MIXED;
}

/* Appends one cell to the row being filled, keeping the column's type */
static void
push_cell (SpsSqlResult *self,
           const Cell   *cell)
{
  guint column = self->cells->len % self->n_columns;

  self->column_types[column] = merge_type (self->column_types[column], cell->type);
  g_array_append_vals (self->cells, cell, 1);
}

/**
 * _sps_sql_result_new_columns:
 * @names: (array zero-terminated=1): the column names
 *
 * An empty result with these columns (no declared types), for rows
 * computed without SQL and filled with _sps_sql_result_push_int64() and
 * its siblings, then _sps_sql_result_end_row().
 *
 * Returns: (transfer full): the result
 */
SpsSqlResult *
_sps_sql_result_new_columns (const char * const *names)
{
  SpsSqlResult *self = g_object_new (SPS_TYPE_SQL_RESULT, NULL);

  self->n_columns = g_strv_length ((char **) names);
  self->names = g_strdupv ((char **) names);
  self->decltypes = g_new0 (char *, self->n_columns + 1);
  self->column_types = g_new0 (guint8, self->n_columns + 1);
  return self;
}

void
_sps_sql_result_push_int64 (SpsSqlResult *self,
                            gint64        value)
{
  Cell cell = { { 0 }, 0, SPS_SQL_TYPE_INTEGER };

  cell.v.i = value;
  push_cell (self, &cell);
}

void
_sps_sql_result_push_double (SpsSqlResult *self,
                             double        value)
{
  Cell cell = { { 0 }, 0, SPS_SQL_TYPE_REAL };

  cell.v.d = value;
  push_cell (self, &cell);
}

/* @text: (nullable): %NULL for a NULL cell */
void
_sps_sql_result_push_text (SpsSqlResult *self,
                           const char   *text,
                           gsize         len)
{
  Cell cell = { { 0 }, 0, SPS_SQL_TYPE_NULL };

  if (text != NULL)
    {
      cell.type = SPS_SQL_TYPE_TEXT;
      cell.v.offset = self->bytes->len;
      cell.len = (guint32) len;
      g_byte_array_append (self->bytes, (const guint8 *) text, (guint) len);
      g_byte_array_append (self->bytes, (const guint8 *) "", 1);
    }
  push_cell (self, &cell);
}

void
_sps_sql_result_push_null (SpsSqlResult *self)
{
  push_cell (self, &null_cell);
}

/* Closes the row whose cells were pushed, one per column */
void
_sps_sql_result_end_row (SpsSqlResult *self)
{
  g_assert (self->cells->len == (gsize) (self->n_rows + 1) * self->n_columns);

  self->n_rows++;
}

void
_sps_sql_result_append_row (SpsSqlResult *self,
                            sqlite3_stmt *stmt)
{
  g_assert (SPS_IS_SQL_RESULT (self));
  g_assert (stmt != NULL);

  for (guint i = 0; i < self->n_columns; i++)
    {
      Cell cell = { { 0 }, 0, SPS_SQL_TYPE_NULL };

      switch (sqlite3_column_type (stmt, (int) i))
        {
        case SQLITE_INTEGER:
          cell.type = SPS_SQL_TYPE_INTEGER;
          cell.v.i = sqlite3_column_int64 (stmt, (int) i);
          break;

        case SQLITE_FLOAT:
          cell.type = SPS_SQL_TYPE_REAL;
          cell.v.d = sqlite3_column_double (stmt, (int) i);
          break;

        case SQLITE_TEXT:
        case SQLITE_BLOB:
          {
            gboolean text = sqlite3_column_type (stmt, (int) i) == SQLITE_TEXT;
            const guint8 *data = text ? sqlite3_column_text (stmt, (int) i)
                                      : sqlite3_column_blob (stmt, (int) i);
            int len = sqlite3_column_bytes (stmt, (int) i);

            cell.type = text ? SPS_SQL_TYPE_TEXT : SPS_SQL_TYPE_BLOB;
            cell.v.offset = self->bytes->len;
            cell.len = (guint32) MAX (len, 0);
            if (len > 0 && data != NULL)
              g_byte_array_append (self->bytes, data, (guint) len);
            g_byte_array_append (self->bytes, (const guint8 *) "", 1);
          }
          break;

        default:
          break;
        }

      push_cell (self, &cell);
    }

  self->n_rows++;
}

/* A new result with the columns of @self and its rows [first, first + n):
 * what a streaming query hands out while @self keeps growing */
SpsSqlResult *
_sps_sql_result_copy_rows (SpsSqlResult *self,
                           guint         first,
                           guint         n)
{
  SpsSqlResult *copy;

  g_assert (SPS_IS_SQL_RESULT (self));
  g_assert (first <= self->n_rows && n <= self->n_rows - first);

  copy = g_object_new (SPS_TYPE_SQL_RESULT, NULL);
  copy->n_columns = self->n_columns;
  copy->names = g_strdupv (self->names);
  copy->decltypes = g_new0 (char *, self->n_columns + 1);
  copy->column_types = g_new0 (guint8, self->n_columns + 1);
  for (guint c = 0; c < self->n_columns; c++)
    copy->decltypes[c] = g_strdup (self->decltypes[c]);

  for (guint r = first; r < first + n; r++)
    for (guint c = 0; c < self->n_columns; c++)
      {
        Cell cell = *get_cell (self, r, c);

        if (cell.type == SPS_SQL_TYPE_TEXT || cell.type == SPS_SQL_TYPE_BLOB)
          {
            gsize offset = copy->bytes->len;

            /* The text and its nul */
            g_byte_array_append (copy->bytes, self->bytes->data + cell.v.offset, cell.len + 1);
            cell.v.offset = offset;
          }
        copy->column_types[c] = merge_type (copy->column_types[c], cell.type);
        g_array_append_val (copy->cells, cell);
      }
  copy->n_rows = n;

  return copy;
}

void
_sps_sql_result_set_truncated (SpsSqlResult *self,
                               gboolean      truncated)
{
  g_assert (SPS_IS_SQL_RESULT (self));

  self->truncated = !!truncated;
}

void
_sps_sql_result_set_elapsed_ns (SpsSqlResult *self,
                                gint64        elapsed_ns)
{
  g_assert (SPS_IS_SQL_RESULT (self));

  self->elapsed_ns = elapsed_ns;
}

/**
 * sps_sql_result_get_n_columns:
 * @self: a #SpsSqlResult
 *
 * Returns: the number of columns (0 for a statement that returns none,
 *   such as `CREATE TEMP TABLE`)
 */
guint
sps_sql_result_get_n_columns (SpsSqlResult *self)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), 0);

  return self->n_columns;
}

/**
 * sps_sql_result_get_column_name:
 * @self: a #SpsSqlResult
 * @column: a column index
 *
 * Returns: (nullable): the column's name as SQLite gives it (the `AS` alias
 *   when there is one), %NULL when @column is out of range
 */
const char *
sps_sql_result_get_column_name (SpsSqlResult *self,
                                guint         column)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);

  return self->names[column];
}

/**
 * sps_sql_result_get_column_decltype:
 * @self: a #SpsSqlResult
 * @column: a column index
 *
 * Returns: (nullable): the declared type ("INTEGER", "TEXT"…) of the table
 *   column this result column reads directly, %NULL for an expression
 */
const char *
sps_sql_result_get_column_decltype (SpsSqlResult *self,
                                    guint         column)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);

  return self->decltypes[column];
}

/**
 * sps_sql_result_get_column_type:
 * @self: a #SpsSqlResult
 * @column: a column index
 *
 * The type observed over the column's values, ignoring NULLs: integers
 * and reals together give %SPS_SQL_TYPE_REAL, other mixtures
 * %SPS_SQL_TYPE_MIXED, only NULLs (or no rows) %SPS_SQL_TYPE_NULL. Use it
 * to sort numerically and to align numbers.
 *
 * Returns: the observed type
 */
SpsSqlType
sps_sql_result_get_column_type (SpsSqlResult *self,
                                guint         column)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), SPS_SQL_TYPE_NULL);
  g_return_val_if_fail (column < self->n_columns, SPS_SQL_TYPE_NULL);

  return (SpsSqlType) self->column_types[column];
}

/**
 * sps_sql_result_get_n_rows:
 * @self: a #SpsSqlResult
 *
 * Returns: the number of rows held
 */
guint
sps_sql_result_get_n_rows (SpsSqlResult *self)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), 0);

  return self->n_rows;
}

/**
 * sps_sql_result_get_truncated:
 * @self: a #SpsSqlResult
 *
 * Returns: %TRUE when the query had more rows than the engine's
 *   #SpsSqlEngine:max-rows and only the first ones are held
 */
gboolean
sps_sql_result_get_truncated (SpsSqlResult *self)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), FALSE);

  return self->truncated;
}

/**
 * sps_sql_result_get_elapsed_ns:
 * @self: a #SpsSqlResult
 *
 * Returns: the wall-clock time the query took, from preparing its first
 *   statement to reading its last row, in nanoseconds
 */
gint64
sps_sql_result_get_elapsed_ns (SpsSqlResult *self)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), 0);

  return self->elapsed_ns;
}

/**
 * sps_sql_result_get_value_type:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 *
 * Returns: the kind of the cell's value (never %SPS_SQL_TYPE_MIXED);
 *   %SPS_SQL_TYPE_NULL out of range
 */
SpsSqlType
sps_sql_result_get_value_type (SpsSqlResult *self,
                               guint         row,
                               guint         column)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), SPS_SQL_TYPE_NULL);

  return (SpsSqlType) get_cell (self, row, column)->type;
}

/**
 * sps_sql_result_is_null:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 *
 * Returns: %TRUE when the cell is NULL (or out of range)
 */
gboolean
sps_sql_result_is_null (SpsSqlResult *self,
                        guint         row,
                        guint         column)
{
  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), TRUE);

  return get_cell (self, row, column)->type == SPS_SQL_TYPE_NULL;
}

/**
 * sps_sql_result_get_int64:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 *
 * Returns: the cell as an integer: integers as they are, reals truncated
 *   toward zero (saturated), text parsed as a leading decimal integer, 0
 *   for NULL and blobs
 */
gint64
sps_sql_result_get_int64 (SpsSqlResult *self,
                          guint         row,
                          guint         column)
{
  const Cell *cell;

  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), 0);

  cell = get_cell (self, row, column);
  switch (cell->type)
    {
    case SPS_SQL_TYPE_INTEGER:
      return cell->v.i;
    case SPS_SQL_TYPE_REAL:
      if (cell->v.d != cell->v.d)
        return 0;
      if (cell->v.d >= 9223372036854775807.0)
        return G_MAXINT64;
      if (cell->v.d <= -9223372036854775808.0)
        return G_MININT64;
      return (gint64) cell->v.d;
    case SPS_SQL_TYPE_TEXT:
      return g_ascii_strtoll ((const char *) self->bytes->data + cell->v.offset, NULL, 10);
    default:
      return 0;
    }
}

/**
 * sps_sql_result_get_double:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 *
 * Returns: the cell as a double: numbers converted, text parsed as a
 *   leading number, 0 for NULL and blobs
 */
double
sps_sql_result_get_double (SpsSqlResult *self,
                           guint         row,
                           guint         column)
{
  const Cell *cell;

  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), 0.0);

  cell = get_cell (self, row, column);
  switch (cell->type)
    {
    case SPS_SQL_TYPE_INTEGER:
      return (double) cell->v.i;
    case SPS_SQL_TYPE_REAL:
      return cell->v.d;
    case SPS_SQL_TYPE_TEXT:
      return g_ascii_strtod ((const char *) self->bytes->data + cell->v.offset, NULL);
    default:
      return 0.0;
    }
}

/**
 * sps_sql_result_get_text:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 *
 * Returns: (nullable): the text of a text cell, %NULL for any other kind
 *   (see sps_sql_result_dup_display_text() for numbers); valid as long as
 *   @self
 */
const char *
sps_sql_result_get_text (SpsSqlResult *self,
                         guint         row,
                         guint         column)
{
  const Cell *cell;

  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), NULL);

  cell = get_cell (self, row, column);
  if (cell->type != SPS_SQL_TYPE_TEXT)
    return NULL;
  return (const char *) self->bytes->data + cell->v.offset;
}

/**
 * sps_sql_result_get_blob:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 * @len: (out) (optional): the length in bytes
 *
 * Returns: (nullable) (array length=len) (element-type guint8): the bytes of a blob or text
 *   cell, %NULL for any other kind; valid as long as @self
 */
gconstpointer
sps_sql_result_get_blob (SpsSqlResult *self,
                         guint         row,
                         guint         column,
                         gsize        *len)
{
  const Cell *cell;

  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), NULL);

  cell = get_cell (self, row, column);
  if (len != NULL)
    *len = 0;
  if (cell->type != SPS_SQL_TYPE_TEXT && cell->type != SPS_SQL_TYPE_BLOB)
    return NULL;
  if (len != NULL)
    *len = cell->len;
  return self->bytes->data + cell->v.offset;
}

static void
append_cell_text (SpsSqlResult *self,
                  const Cell   *cell,
                  GString      *out)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const guint8 *data;

  g_assert (SPS_IS_SQL_RESULT (self));

  switch (cell->type)
    {
    case SPS_SQL_TYPE_INTEGER:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, cell->v.i);
      break;

    case SPS_SQL_TYPE_REAL:
      /* Shortest text that reads back as the same double, with ".0" on
       * whole numbers as SQLite writes them, so reals read as reals */
      g_string_append (out, g_ascii_dtostr (buf, sizeof buf, cell->v.d));
      if (strpbrk (buf, ".eEn") == NULL)
        g_string_append (out, ".0");
      break;

    case SPS_SQL_TYPE_TEXT:
      g_string_append_len (out, (const char *) self->bytes->data + cell->v.offset, cell->len);
      break;

    case SPS_SQL_TYPE_BLOB:
      data = self->bytes->data + cell->v.offset;
      g_string_append (out, "x'");
      for (guint32 i = 0; i < cell->len; i++)
        g_string_append_printf (out, "%02x", data[i]);
      g_string_append_c (out, '\'');
      break;

    default:
      break;
    }
}

/**
 * sps_sql_result_dup_display_text:
 * @self: a #SpsSqlResult
 * @row: a row index
 * @column: a column index
 *
 * The cell as text for display and export: integers in decimal, reals as
 * the shortest text that reads back exactly (C locale; whole numbers end
 * in ".0"), text as it is,
 * blobs as an SQL hex literal `x'…'`.
 *
 * Returns: (transfer full) (nullable): the text, %NULL for a NULL cell
 */
char *
sps_sql_result_dup_display_text (SpsSqlResult *self,
                                 guint         row,
                                 guint         column)
{
  const Cell *cell;
  GString *out;

  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), NULL);

  cell = get_cell (self, row, column);
  if (cell->type == SPS_SQL_TYPE_NULL)
    return NULL;

  out = g_string_new (NULL);
  append_cell_text (self, cell, out);
  return g_string_free (out, FALSE);
}

static gboolean
flush (GOutputStream  *stream,
       GString        *out,
       GCancellable   *cancellable,
       GError        **error)
{
  g_assert (G_IS_OUTPUT_STREAM (stream));

  if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (out, 0);
  return TRUE;
}

/**
 * sps_sql_result_write_csv:
 * @self: a #SpsSqlResult
 * @stream: where to write
 * @separator: ',' for CSV, '\t' for TSV (any byte but a quote, CR or LF)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes a header record with the column names, then one record per row,
 * as RFC 4180 asks (see sps_csv_append_field()); records end with CR LF.
 * Cells are written as sps_sql_result_dup_display_text() gives them and
 * NULL as an empty field. Blocks: call it from a worker thread for a
 * large result.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_sql_result_write_csv (SpsSqlResult   *self,
                          GOutputStream  *stream,
                          char            separator,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_autoptr(GString) out = NULL;
  g_autoptr(GString) field = NULL;

  g_return_val_if_fail (SPS_IS_SQL_RESULT (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (separator != '"' && separator != '\r' && separator != '\n', FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = g_string_sized_new (65536);
  field = g_string_new (NULL);

  sps_csv_append_row (out, (const char * const *) self->names, self->n_columns, separator);

  for (guint row = 0; row < self->n_rows; row++)
    {
      for (guint col = 0; col < self->n_columns; col++)
        {
          if (col > 0)
            g_string_append_c (out, separator);
          g_string_truncate (field, 0);
          append_cell_text (self, get_cell (self, row, col), field);
          sps_csv_append_field (out, field->str, field->len, separator);
        }
      g_string_append (out, SPS_CSV_EOL);

      if (out->len >= 60000 && !flush (stream, out, cancellable, error))
        return FALSE;
    }

  return flush (stream, out, cancellable, error);
}
