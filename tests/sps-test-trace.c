/* sps-test-trace.c: two traces compared table by table, row by row
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-trace.h"
#include "sps-trace-private.h"

/* One element of a column, or the value every row holds while the column
 * is stored once */
static const guint8 *
column_value (SpsTrace        *trace,
              const SpsColumn *c,
              guint            row)
{
  const guint8 *column = G_STRUCT_MEMBER (gpointer, trace, c->offset);

  if (column == NULL)
    {
      g_assert_cmpuint (c->constant, !=, 0);
      return G_STRUCT_MEMBER_P (trace, c->constant);
    }
  return column + (gsize) row * c->element_size;
}

/* An args column: its references may differ where the text they stand
 * for does not (a span's deferred args name its place in the store of
 * the pairing that built it, which a live capture fills in the order
 * the spans arrived) */
static gboolean
is_args_column (const SpsColumn *c)
{
  return c->offset == G_STRUCT_OFFSET (SpsTrace, slices.args) ||
         c->offset == G_STRUCT_OFFSET (SpsTrace, instants.args) ||
         c->offset == G_STRUCT_OFFSET (SpsTrace, objects.args);
}

static void
assert_same_args (SpsTrace   *a,
                  SpsArgsRef  ref_a,
                  SpsTrace   *b,
                  SpsArgsRef  ref_b)
{
  g_autoptr(GString) text_a = g_string_new (NULL);
  g_autoptr(GString) text_b = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  /* Deferred in both or in neither: the same text otherwise would be
   * written one way by one build and the other way by the other */
  g_assert_cmpint (sps_args_ref_is_deferred (ref_a), ==, sps_args_ref_is_deferred (ref_b));
  g_assert_true (sps_trace_append_args_json (a, ref_a, text_a, &error));
  g_assert_no_error (error);
  g_assert_true (sps_trace_append_args_json (b, ref_b, text_b, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text_a->str, ==, text_b->str);
}

/* A column of string ids */
static gboolean
is_string_column (const SpsColumn *c)
{
  static const gsize offsets[] = {
    G_STRUCT_OFFSET (SpsTrace, processes.name),
    G_STRUCT_OFFSET (SpsTrace, processes.labels),
    G_STRUCT_OFFSET (SpsTrace, threads.name),
    G_STRUCT_OFFSET (SpsTrace, tracks.name),
    G_STRUCT_OFFSET (SpsTrace, tracks.series),
    G_STRUCT_OFFSET (SpsTrace, slices.name),
    G_STRUCT_OFFSET (SpsTrace, slices.category),
    G_STRUCT_OFFSET (SpsTrace, instants.name),
    G_STRUCT_OFFSET (SpsTrace, instants.category),
    G_STRUCT_OFFSET (SpsTrace, flows.name),
    G_STRUCT_OFFSET (SpsTrace, flows.category),
    G_STRUCT_OFFSET (SpsTrace, samples.name),
    G_STRUCT_OFFSET (SpsTrace, samples.event_name),
    G_STRUCT_OFFSET (SpsTrace, samples.raw_stack_ref),
    G_STRUCT_OFFSET (SpsTrace, frames.name),
    G_STRUCT_OFFSET (SpsTrace, frames.category),
    G_STRUCT_OFFSET (SpsTrace, frames.module),
    G_STRUCT_OFFSET (SpsTrace, frames.source_file),
    G_STRUCT_OFFSET (SpsTrace, objects.name),
    G_STRUCT_OFFSET (SpsTrace, allocations.type),
    G_STRUCT_OFFSET (SpsTrace, gc_observations.reason),
  };

  for (guint i = 0; i < G_N_ELEMENTS (offsets); i++)
    if (c->offset == offsets[i])
      return TRUE;
  return FALSE;
}

static void
assert_same_string (SpsTrace *a,
                    guint32   id_a,
                    SpsTrace *b,
                    guint32   id_b)
{
  gsize len_a, len_b;
  const char *str_a = sps_string_pool_get (a->strings, id_a, &len_a);
  const char *str_b = sps_string_pool_get (b->strings, id_b, &len_b);

  g_assert_cmpmem (str_a, len_a, str_b, len_b);
}

/* Every table, row for row and column for column (args by their text),
 * and everything else a view reads: strings, warnings, metadata, times,
 * the block index. */
void
sps_test_assert_same_trace (SpsTrace *a,
                            SpsTrace *b)
{
  sps_test_assert_same_trace_args (a, b, TRUE);
}

/* @same_arena: the arenas are byte for byte the same, metadata and info
 * sections refer to the same places, and strings have the same ids (a
 * load and an update); else strings and args are compared by their text
 * (a grown trace keeps the text of the rows it kept where it was, and its
 * strings under the ids they first had) */
void
sps_test_assert_same_trace_args (SpsTrace *a,
                                 SpsTrace *b,
                                 gboolean  same_arena)
{
  guint n_layouts;
  const SpsTableLayout *layouts = _sps_trace_get_layouts (&n_layouts);
  gsize arena_a, arena_b;
  const guint8 *bytes_a = a->arena != NULL ? g_bytes_get_data (a->arena, &arena_a) : NULL;
  const guint8 *bytes_b = b->arena != NULL ? g_bytes_get_data (b->arena, &arena_b) : NULL;

  if (bytes_a == NULL)
    arena_a = 0;
  if (bytes_b == NULL)
    arena_b = 0;

  for (guint l = 0; l < n_layouts; l++)
    {
      guint n_rows = G_STRUCT_MEMBER (guint, a, layouts[l].n_rows);

      g_assert_cmpuint (n_rows, ==, G_STRUCT_MEMBER (guint, b, layouts[l].n_rows));
      for (const SpsColumn *c = layouts[l].columns; c < layouts[l].columns + SPS_MAX_COLUMNS && c->element_size != 0; c++)
        for (guint r = 0; r < n_rows; r++)
          {
            if (is_args_column (c))
              assert_same_args (a, *(const SpsArgsRef *) column_value (a, c, r),
                                b, *(const SpsArgsRef *) column_value (b, c, r));
            else if (!same_arena && is_string_column (c))
              assert_same_string (a, *(const guint32 *) column_value (a, c, r),
                                  b, *(const guint32 *) column_value (b, c, r));
            else
              g_assert_cmpmem (column_value (a, c, r), c->element_size, column_value (b, c, r), c->element_size);
          }
    }

  if (same_arena)
    {
      g_assert_cmpuint (sps_string_pool_get_size (a->strings), ==, sps_string_pool_get_size (b->strings));
      for (guint i = 0; i < sps_string_pool_get_size (a->strings); i++)
        assert_same_string (a, i, b, i);
    }

  if (same_arena)
    g_assert_cmpmem (bytes_a, arena_a, bytes_b, arena_b);

  g_assert_cmpuint (a->n_warnings, ==, b->n_warnings);
  for (guint i = 0; i < a->n_warnings; i++)
    {
      g_assert_cmpstr (a->warning_names[i], ==, b->warning_names[i]);
      g_assert_cmpuint (a->warning_counts[i], ==, b->warning_counts[i]);
      g_assert_cmpstr (a->warning_messages[i], ==, b->warning_messages[i]);
    }

  g_assert_cmpuint (a->n_metadata, ==, b->n_metadata);
  for (guint i = 0; i < a->n_metadata && !same_arena; i++)
    {
      assert_same_string (a, a->metadata_keys[i], b, b->metadata_keys[i]);
      assert_same_args (a, a->metadata_values[i], b, b->metadata_values[i]);
    }
  if (same_arena)
    {
      g_assert_cmpmem (a->metadata_keys, a->n_metadata * sizeof (guint32), b->metadata_keys, b->n_metadata * sizeof (guint32));
      g_assert_cmpmem (a->metadata_values, a->n_metadata * sizeof (SpsArgsRef), b->metadata_values, b->n_metadata * sizeof (SpsArgsRef));
    }
  g_assert_cmpuint (a->n_info_sections, ==, b->n_info_sections);
  for (guint i = 0; i < a->n_info_sections && !same_arena; i++)
    {
      assert_same_string (a, a->info_names[i], b, b->info_names[i]);
      assert_same_args (a, a->info_values[i], b, b->info_values[i]);
    }
  if (same_arena)
    {
      g_assert_cmpmem (a->info_names, a->n_info_sections * sizeof (guint32), b->info_names, b->n_info_sections * sizeof (guint32));
      g_assert_cmpmem (a->info_values, a->n_info_sections * sizeof (SpsArgsRef), b->info_values, b->n_info_sections * sizeof (SpsArgsRef));
    }

  g_assert_cmpstr (sps_trace_get_format (a), ==, sps_trace_get_format (b));
  g_assert_cmpint (a->start_time, ==, b->start_time);
  g_assert_cmpint (a->end_time, ==, b->end_time);
  g_assert_cmpuint (a->events_read, ==, b->events_read);
  g_assert_cmpmem (a->slice_counts, sizeof a->slice_counts, b->slice_counts, sizeof b->slice_counts);

  g_assert_cmpuint (a->n_block_leaves, ==, b->n_block_leaves);
  g_assert_cmpmem (a->track_first_block, (a->tracks.n_rows + 1) * sizeof (guint32),
                   b->track_first_block, (b->tracks.n_rows + 1) * sizeof (guint32));
  g_assert_cmpmem (a->block_tree, 2 * (gsize) a->n_block_leaves * sizeof (SpsTime),
                   b->block_tree, 2 * (gsize) b->n_block_leaves * sizeof (SpsTime));
}
