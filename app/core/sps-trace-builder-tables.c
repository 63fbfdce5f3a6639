/* sps-trace-builder-tables.c: the builder's growable tables and row indexes
 *
 * How a struct-of-arrays table grows (doubling, huge pages, realloc by
 * mremap for the largest columns), is freed and measured, through its
 * SpsTableLayout, and how a row index is rebuilt when it gets half full.
 * Memory policy that the builder, finish() and the trace all use, kept
 * apart from what any one table holds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-builder"

#include "config.h"

#include <string.h>
#ifdef HAVE_MADVISE
#include <sys/mman.h>
#endif

#include <glib/gi18n-lib.h>

#include "sps-trace-builder-private.h"

#define MIN_ROWS 256

/* Growth doubles: large columns are mmapped by malloc, so realloc moves
 * them with mremap and the untouched tail costs no resident memory. The
 * builder's tables stop at self->max_rows (below this) and finish()'s are
 * no larger than those, so the abort is a broken invariant, not input. */
static guint
next_capacity (guint capacity)
{
  if (capacity >= G_MAXUINT32 / 2)
    g_error ("Trace builder table is full");

  return capacity < MIN_ROWS ? MIN_ROWS : capacity * 2;
}

#define FOREACH_COLUMN(column, layout) \
  for (const SpsColumn *column = (layout)->columns; \
       column < (layout)->columns + SPS_MAX_COLUMNS && column->element_size != 0; \
       column++)

#define HUGE_PAGE_SIZE ((gsize) 2 << 20)
#define OWN_MAPPING_SIZE ((gsize) 32 << 20)

/**
 * _sps_advise_huge_pages:
 * @mem: the start of an allocation
 * @size: its size in bytes
 *
 * Asks for transparent huge pages on the 2 MiB pages inside a large
 * allocation: columns of millions of rows are written once from end to
 * end, and faulting them in 4 KiB at a time (each charged to the memory
 * cgroup) costs more than filling them.
 */
void
_sps_advise_huge_pages (gpointer mem,
                        gsize    size)
{
#ifdef HAVE_MADVISE
  guintptr start = ((guintptr) mem + HUGE_PAGE_SIZE - 1) & ~(guintptr) (HUGE_PAGE_SIZE - 1);
  guintptr end = ((guintptr) mem + size) & ~(guintptr) (HUGE_PAGE_SIZE - 1);

  /* Only a hint: where it is refused, plain pages do */
  if (mem != NULL && end > start)
    (void) madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
#else
  (void) mem;
  (void) size;
#endif
}

/* g_malloc() with _sps_advise_huge_pages() */
gpointer
_sps_alloc_large (gsize size)
{
  gpointer mem = g_malloc (size);

  _sps_advise_huge_pages (mem, size);
  return mem;
}

/* Grows every column of the table to the next capacity. */
void
_sps_table_grow (gpointer              owner,
                 const SpsTableLayout *layout)
{
  guint *capacity;
  guint cap;

  g_assert (owner != NULL);
  g_assert (layout != NULL && layout->capacity != 0);

  capacity = table_count (owner, layout->capacity);
  cap = next_capacity (*capacity);
  FOREACH_COLUMN (column, layout)
    {
      gpointer old = column_get (owner, column->offset);
      gsize size = (gsize) cap * column->element_size;
      gpointer mem;

      /* Still one value for every row: nothing to grow */
      if (old == NULL && column->constant != 0)
        continue;

      /* A column of 32 MiB and more has its own mapping in glibc's
       * malloc (its dynamic mmap threshold stops there), which realloc()
       * moves with mremap(): no copy, and the pages stay huge. Below that,
       * realloc() would copy into plain pages faulted in one by one, so
       * the new column gets the hint before the copy. */
      if ((gsize) *capacity * column->element_size >= OWN_MAPPING_SIZE)
        {
          mem = g_realloc_n (old, cap, column->element_size);
          _sps_advise_huge_pages (mem, size);
        }
      else if (size >= HUGE_PAGE_SIZE)
        {
          mem = _sps_alloc_large (size);
          memcpy (mem, old, (gsize) *table_count (owner, layout->n_rows) * column->element_size);
          g_free (old);
        }
      else
        mem = g_realloc_n (old, cap, column->element_size);
      column_set (owner, column->offset, mem);
    }
  *capacity = cap;
}

/**
 * _sps_column_materialise:
 * @owner: the struct that holds the table
 * @layout: the table's layout
 * @column: one of @layout's columns, stored once (its pointer is %NULL)
 *
 * Stores @column's constant in each of the table's rows, with room for
 * its capacity (its row count when it has none).
 *
 * Returns: the column
 */
gpointer
_sps_column_materialise (gpointer              owner,
                         const SpsTableLayout *layout,
                         const SpsColumn      *column)
{
  guint n_rows = *table_count (owner, layout->n_rows);
  guint cap = layout->capacity != 0 ? *table_count (owner, layout->capacity) : n_rows;
  gconstpointer value = (const char *) owner + column->constant;
  gsize size = column->element_size;
  char *mem;

  g_assert (column->constant != 0 && column_get (owner, column->offset) == NULL);
  g_assert (cap >= n_rows);

  mem = (gsize) MAX (cap, 1) * size >= HUGE_PAGE_SIZE ? _sps_alloc_large ((gsize) cap * size)
                                                       : g_malloc ((gsize) MAX (cap, 1) * size);
  for (guint r = 0; r < n_rows; r++)
    memcpy (mem + (gsize) r * size, value, size);
  column_set (owner, column->offset, mem);
  return mem;
}

/**
 * _sps_column_write:
 * @owner: the struct that holds the table
 * @layout: the table's layout
 * @column: one of @layout's columns that may be stored once
 * @row: a row of the table
 * @value: what @row holds from now on, the column's element size of bytes
 *
 * Writes one value of a column that may be constant: a table of one row
 * takes it as its constant, a value equal to the constant costs nothing,
 * and any other one materialises the column first.
 */
void
_sps_column_write (gpointer              owner,
                   const SpsTableLayout *layout,
                   const SpsColumn      *column,
                   guint                 row,
                   gconstpointer         value)
{
  char *data = column_get (owner, column->offset);
  char *constant = (char *) owner + column->constant;

  g_assert (row < *table_count (owner, layout->n_rows));

  if (data == NULL)
    {
      /* Bytes, not values: a NAN weight equals itself */
      if (memcmp (constant, value, column->element_size) == 0)
        return;
      if (*table_count (owner, layout->n_rows) == 1)
        {
          memcpy (constant, value, column->element_size);
          return;
        }
      data = _sps_column_materialise (owner, layout, column);
    }
  memcpy (data + (gsize) row * column->element_size, value, column->element_size);
}

/* Frees every column of the table and empties it. */
void
_sps_table_free (gpointer              owner,
                 const SpsTableLayout *layout)
{
  g_assert (owner != NULL);
  g_assert (layout != NULL);

  FOREACH_COLUMN (column, layout)
    {
      g_free (column_get (owner, column->offset));
      column_set (owner, column->offset, NULL);
    }
  *table_count (owner, layout->n_rows) = 0;
  if (layout->capacity != 0)
    *table_count (owner, layout->capacity) = 0;
}

/* The bytes the table's rows take, all columns together. */
gsize
_sps_table_get_memory_size (gconstpointer         owner,
                            const SpsTableLayout *layout)
{
  gsize row_size = 0;
  guint n_rows;

  g_assert (owner != NULL);
  g_assert (layout != NULL);

  memcpy (&n_rows, (const char *) owner + layout->n_rows, sizeof n_rows);
  /* A column stored once costs its constant, in the owner */
  FOREACH_COLUMN (column, layout)
    if (column_get (owner, column->offset) != NULL || column->constant == 0)
      row_size += column->element_size;

  return (gsize) n_rows * row_size;
}

/* What a user calls the rows of the builder's table whose row count
 * lives at @n_rows, in the warning that says it is full */
static const char *
table_noun (gsize n_rows)
{
#define IS(field) (n_rows == G_STRUCT_OFFSET (SpsTraceBuilder, field))
  if (IS (n_slice_records) || IS (n_async))
    return _("slices");
  if (IS (n_instants))
    return _("instant events");
  if (IS (n_counter_values))
    return _("counter values");
  if (IS (n_counters))
    return _("counter series");
  if (IS (n_flow_points))
    return _("flow events");
  if (IS (n_objects))
    return _("object events");
  if (IS (n_allocations))
    return _("allocations");
  if (IS (n_gc_observations))
    return _("garbage collections");
  if (IS (n_samples) || IS (n_raw_samples))
    return _("samples");
  if (IS (n_frames))
    return _("stack frames");
  if (IS (n_callsites))
    return _("stacks");
  if (IS (n_processes))
    return _("processes");
  if (IS (n_threads))
    return _("threads");
#undef IS
  return _("rows");
}

/**
 * _sps_trace_builder_table_full:
 * @self: a #SpsTraceBuilder
 * @layout: one of its tables, which holds self->max_rows rows
 *
 * Makes the builder full: the event that did not fit and every one after
 * it are dropped (RETURN_IF_FULL), and the trace keeps what came before,
 * with one warning "row_limit" that says which table and where it
 * stopped. A table's rows are numbered with 32 bits and finish() numbers
 * slices as signed ones, so 2^31 - 1 is where the model ends; dropping the
 * rest rather than failing the import keeps the first part of a huge
 * trace viewable, as the decompressed-size limit does.
 */
void
_sps_trace_builder_table_full (SpsTraceBuilder      *self,
                               const SpsTableLayout *layout)
{
  g_assert (SPS_IS_TRACE_BUILDER (self));
  g_assert (layout != NULL);

  if (self->full)
    return;
  self->full = TRUE;
  sps_trace_builder_warn (self, "row_limit",
                          /* Translators: the first and the third %u are the same count, %s is a
                           * plural noun such as "slices" */
                          N_("The trace has more than %u %s; Spanscope keeps the first %u and "
                             "drops every event after them"),
                          self->max_rows, table_noun (layout->n_rows), self->max_rows);
}

/* append_row() when the table is out of room or at the row limit */
guint32
_sps_trace_builder_append_row_slow (SpsTraceBuilder      *self,
                                    const SpsTableLayout *layout)
{
  guint *n_rows = table_count (self, layout->n_rows);

  g_assert (SPS_IS_TRACE_BUILDER (self));

  if (*n_rows >= self->max_rows)
    {
      _sps_trace_builder_table_full (self, layout);
      return SPS_NO_INDEX;
    }
  if (*n_rows == *table_count (self, layout->capacity))
    _sps_table_grow (self, layout);

  return (*n_rows)++;
}

/**
 * _sps_trace_builder_reserve_rows:
 * @self: a #SpsTraceBuilder
 * @layout: one of its tables
 * @n: rows the caller is about to append
 *
 * Grows the table for @n more rows, or for as many as the row limit
 * leaves, in which case the builder becomes full.
 *
 * Returns: how many of the @n rows the caller may append
 */
guint
_sps_trace_builder_reserve_rows (SpsTraceBuilder      *self,
                                 const SpsTableLayout *layout,
                                 guint                 n)
{
  guint *n_rows = table_count (self, layout->n_rows);
  guint left;

  g_assert (SPS_IS_TRACE_BUILDER (self));

  left = *n_rows < self->max_rows ? self->max_rows - *n_rows : 0;
  if (n > left)
    {
      _sps_trace_builder_table_full (self, layout);
      n = left;
    }
  while (*table_count (self, layout->capacity) - *n_rows < n)
    _sps_table_grow (self, layout);

  return n;
}

/**
 * _sps_trace_builder_set_max_rows:
 * @self: a #SpsTraceBuilder with no rows yet
 * @max_rows: the rows each table may keep, at most %G_MAXINT32
 *
 * Lowers the row limit, so that a test reaches it with a few events.
 */
void
_sps_trace_builder_set_max_rows (SpsTraceBuilder *self,
                                 guint            max_rows)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (max_rows > 0 && max_rows <= G_MAXINT32);

  self->max_rows = max_rows;
}

/**
 * _sps_trace_builder_check_string_limit:
 * @self: a #SpsTraceBuilder about to be finished
 *
 * Warns once ("string_limit") when the string pool was full: the names,
 * categories and keys that came after it read as empty strings. The
 * events themselves are kept, since their times are still right; the
 * pool cannot tell the builder at the time, as importers intern through
 * it directly.
 */
void
_sps_trace_builder_check_string_limit (SpsTraceBuilder *self)
{
  g_autofree char *message = NULL;
  guint kept;

  g_assert (SPS_IS_TRACE_BUILDER (self));

  if (_sps_string_pool_get_n_dropped (self->strings) == 0)
    return;
  /* Without the empty string, which every pool has */
  kept = sps_string_pool_get_size (self->strings) - 1;
  /* Translators: both %u are the same count of distinct strings */
  message = g_strdup_printf (_("The trace has more than %u distinct names, categories and keys; "
                               "the ones after the first %u are shown empty"),
                             kept, kept);
  /* Counted once for every string that came too late */
  _sps_trace_builder_warn_count (self, "string_limit",
                                 _sps_string_pool_get_n_dropped (self->strings), message);
}

/* Inserts @row in the empty slot @slot found by the caller's probe, then
 * grows the table when @n_rows reaches half of it. */
void
_sps_row_index_insert (SpsTraceBuilder *self,
                       SpsRowIndex     *index,
                       guint            slot,
                       guint32          row,
                       guint            n_rows,
                       SpsRowHashFunc   hash)
{
  guint n_slots;
  guint mask;

  g_assert (index->slots[slot] == 0);

  index->slots[slot] = row + 1;
  if ((gsize) n_rows * 2 <= index->n_slots)
    return;

  n_slots = index->n_slots * 2;
  mask = n_slots - 1;
  g_free (index->slots);
  index->slots = g_new0 (guint32, n_slots);
  index->n_slots = n_slots;

  for (guint32 r = 0; r < n_rows; r++)
    {
      guint i = hash (self, r) & mask;

      while (index->slots[i] != 0)
        i = (i + 1) & mask;
      index->slots[i] = r + 1;
    }
}
