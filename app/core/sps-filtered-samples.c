/* sps-filtered-samples.c: a sample table with the span filters applied
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-filtered-samples"

#include "config.h"

#include <string.h>

#include "sps-analysis.h"
#include "sps-filtered-samples.h"
#include "sps-frame-glob-private.h"

/**
 * SpsFilteredSamples:
 *
 * The samples of a finished trace with `first-span` and `span-filter`
 * applied the way #SpsStackRepair applies them while importing (frames
 * from the root up to the first match dropped, samples without a match
 * dropped; then frames that do not match dropped, samples left empty
 * dropped; Unix wildcards, any case, whole frame name without its
 * `module!`), for views that offer the filters without loading the file
 * again. Its sample table keeps the order and the columns of the input,
 * minus the dropped rows; its callsite table is its own, over the trace's
 * frames. Give both to the flame graph (#SpsFlameTreeParams `samples` and
 * `callsites`).
 */

G_DEFINE_BOXED_TYPE (SpsFilteredSamples, sps_filtered_samples,
                     sps_filtered_samples_ref, sps_filtered_samples_free)

struct _SpsFilteredSamples
{
  gatomicrefcount  ref_count;
  SpsSampleTable   samples;
  SpsCallsiteTable callsites;

  /* Owned columns */
  SpsTime *ts;
  guint32 *track;
  guint32 *thread;
  guint32 *name;
  guint32 *event_name;
  guint32 *line;
  guint32 *callsite;
  guint32 *raw_stack_ref;
  double  *weight;
  guint8  *weight_unit;
  guint8  *flags;
  GArray  *parent;          /* guint32 */
  GArray  *frame;           /* guint32 */
  GArray  *depth;           /* guint16 */
};

#define COLUMN_LIKE(source, Type, n) ((source) != NULL ? g_new (Type, MAX ((n), 1)) : NULL)
#define COPY_ROW(self, samples, column, to, from) \
  G_STMT_START { if ((self)->column != NULL) (self)->column[to] = (samples)->column[from]; } G_STMT_END

typedef struct
{
  SpsTrace     *trace;
  GPatternSpec *spec;
  gint8        *cache;      /* per frame: -1 unknown, 0 no, 1 yes */
} Matcher;

static gboolean
matcher_matches (Matcher *m,
                 guint32  frame)
{
  const SpsFrameTable *frames = sps_trace_get_frames (m->trace);

  if (m->cache[frame] < 0)
    m->cache[frame] = _sps_frame_glob_match (m->spec,
                                             sps_trace_get_string (m->trace, frames->name[frame]),
                                             frames->module[frame] != 0 ?
                                             sps_trace_get_string (m->trace, frames->module[frame]) : NULL);

  return m->cache[frame] == 1;
}

static gboolean
matcher_init (Matcher     *m,
              SpsTrace    *trace,
              const char  *pattern,
              const char  *option,
              GError     **error)
{
  guint n_frames = sps_trace_get_frames (trace)->n_rows;

  m->trace = trace;
  if (pattern == NULL)
    return TRUE;
  if (!(m->spec = _sps_frame_glob_new (pattern, option, error)))
    return FALSE;
  m->cache = g_new (gint8, MAX (n_frames, 1));
  memset (m->cache, -1, MAX (n_frames, 1));

  return TRUE;
}

static void
matcher_clear (Matcher *m)
{
  g_clear_pointer (&m->spec, g_pattern_spec_free);
  g_clear_pointer (&m->cache, g_free);
}

static guint32
intern (SpsFilteredSamples *self,
        GHashTable         *index,
        guint32             parent,
        guint32             frame)
{
  guint64 key = (guint64) parent << 32 | frame;
  gpointer value;
  guint32 row;
  guint16 depth;

  if (g_hash_table_lookup_extended (index, &key, NULL, &value))
    return GPOINTER_TO_UINT (value);

  row = self->parent->len;
  depth = parent == SPS_NO_INDEX ? 0 : g_array_index (self->depth, guint16, parent) + 1;
  g_array_append_val (self->parent, parent);
  g_array_append_val (self->frame, frame);
  g_array_append_val (self->depth, depth);
  g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (row));

  return row;
}

/**
 * sps_filtered_samples_new:
 * @trace: a #SpsTrace
 * @samples: (nullable): the table to filter (e.g. sps_trace_get_raw_samples());
 *   %NULL for the trace's samples
 * @first_span: (nullable): a pattern, or %NULL
 * @span_filter: (nullable): a pattern, or %NULL
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the filtered samples, or %NULL with
 *   %SPS_ANALYSIS_ERROR_INVALID_OPTION when a pattern is empty
 */
SpsFilteredSamples *
sps_filtered_samples_new (SpsTrace              *trace,
                          const SpsSampleTable  *samples,
                          const char            *first_span,
                          const char            *span_filter,
                          GError               **error)
{
  g_autoptr(SpsFilteredSamples) self = NULL;
  g_autoptr(GHashTable) index = NULL;
  g_autoptr(GArray) stack = NULL;
  g_autofree guint32 *mapped = NULL;
  g_autofree guint8 *known = NULL;
  const SpsCallsiteTable *callsites;
  Matcher first = { 0, };
  Matcher filter = { 0, };
  guint n = 0;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (samples == NULL)
    samples = sps_trace_get_samples (trace);
  callsites = sps_trace_get_callsites (trace);

  if (!matcher_init (&first, trace, first_span, "first-span", error) ||
      !matcher_init (&filter, trace, span_filter, "span-filter", error))
    {
      matcher_clear (&first);
      matcher_clear (&filter);
      return NULL;
    }

  self = g_new0 (SpsFilteredSamples, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->parent = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->frame = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->depth = g_array_new (FALSE, FALSE, sizeof (guint16));
  index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  mapped = g_new (guint32, MAX (callsites->n_rows, 1));
  known = g_new0 (guint8, MAX (callsites->n_rows, 1));

  self->ts = g_new (SpsTime, MAX (samples->n_rows, 1));
  self->track = g_new (guint32, MAX (samples->n_rows, 1));
  self->thread = g_new (guint32, MAX (samples->n_rows, 1));
  self->name = g_new (guint32, MAX (samples->n_rows, 1));
  self->callsite = g_new (guint32, MAX (samples->n_rows, 1));
  /* A column the trace stores once stays so (NULL, its constant kept) */
  self->event_name = COLUMN_LIKE (samples->event_name, guint32, samples->n_rows);
  self->line = COLUMN_LIKE (samples->line, guint32, samples->n_rows);
  self->raw_stack_ref = COLUMN_LIKE (samples->raw_stack_ref, guint32, samples->n_rows);
  self->weight = COLUMN_LIKE (samples->weight, double, samples->n_rows);
  self->weight_unit = COLUMN_LIKE (samples->weight_unit, guint8, samples->n_rows);
  self->flags = COLUMN_LIKE (samples->flags, guint8, samples->n_rows);

  for (guint r = 0; r < samples->n_rows; r++)
    {
      guint32 leaf = samples->callsite[r];
      guint32 result = SPS_NO_INDEX;

      if (leaf != SPS_NO_INDEX && leaf < callsites->n_rows)
        {
          if (!known[leaf])
            {
              guint depth = 0;
              guint start = 0;

              for (guint32 c = leaf; c != SPS_NO_INDEX; c = callsites->parent[c])
                depth++;
              g_array_set_size (stack, depth);
              for (guint32 c = leaf; c != SPS_NO_INDEX; c = callsites->parent[c])
                g_array_index (stack, guint32, --depth) = callsites->frame[c];

              if (first.spec != NULL)
                while (start < stack->len && !matcher_matches (&first, g_array_index (stack, guint32, start)))
                  start++;
              for (guint k = start; k < stack->len; k++)
                {
                  guint32 frame = g_array_index (stack, guint32, k);

                  if (filter.spec == NULL || matcher_matches (&filter, frame))
                    result = intern (self, index, result, frame);
                }
              mapped[leaf] = result;
              known[leaf] = TRUE;
            }
          result = mapped[leaf];
        }

      if (result == SPS_NO_INDEX)
        continue;

      self->ts[n] = samples->ts[r];
      self->track[n] = samples->track[r];
      self->thread[n] = samples->thread[r];
      self->name[n] = samples->name[r];
      self->callsite[n] = result;
      COPY_ROW (self, samples, event_name, n, r);
      COPY_ROW (self, samples, line, n, r);
      COPY_ROW (self, samples, raw_stack_ref, n, r);
      COPY_ROW (self, samples, weight, n, r);
      COPY_ROW (self, samples, weight_unit, n, r);
      COPY_ROW (self, samples, flags, n, r);
      n++;
    }

  matcher_clear (&first);
  matcher_clear (&filter);

  self->samples = (SpsSampleTable) {
    .n_rows = n, .ts = self->ts, .track = self->track, .thread = self->thread,
    .name = self->name, .event_name = self->event_name, .callsite = self->callsite,
    .raw_stack_ref = self->raw_stack_ref, .weight = self->weight,
    .weight_unit = self->weight_unit, .flags = self->flags, .line = self->line,
    .constants = samples->constants,
  };
  self->callsites = (SpsCallsiteTable) {
    self->parent->len, (const guint32 *) (gpointer) self->parent->data,
    (const guint32 *) (gpointer) self->frame->data, (const guint16 *) (gpointer) self->depth->data,
  };

  return g_steal_pointer (&self);
}

/**
 * sps_filtered_samples_get_samples:
 * @self: a #SpsFilteredSamples
 *
 * Returns: (transfer none): the kept samples; their callsites are rows of
 *   sps_filtered_samples_get_callsites()
 */
const SpsSampleTable *
sps_filtered_samples_get_samples (SpsFilteredSamples *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return &self->samples;
}

/**
 * sps_filtered_samples_get_callsites:
 * @self: a #SpsFilteredSamples
 *
 * Returns: (transfer none): the callsite tree of the filtered stacks,
 *   over the trace's frames
 */
const SpsCallsiteTable *
sps_filtered_samples_get_callsites (SpsFilteredSamples *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return &self->callsites;
}

/**
 * sps_filtered_samples_ref:
 * @self: a #SpsFilteredSamples
 *
 * Returns: (transfer full): @self, with one more reference
 */
SpsFilteredSamples *
sps_filtered_samples_ref (SpsFilteredSamples *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * sps_filtered_samples_free:
 * @self: (transfer full): a #SpsFilteredSamples
 *
 * Drops a reference; the last one frees the tables.
 */
void
sps_filtered_samples_free (SpsFilteredSamples *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->ts);
  g_free (self->track);
  g_free (self->thread);
  g_free (self->name);
  g_free (self->event_name);
  g_free (self->line);
  g_free (self->callsite);
  g_free (self->raw_stack_ref);
  g_free (self->weight);
  g_free (self->weight_unit);
  g_free (self->flags);
  g_clear_pointer (&self->parent, g_array_unref);
  g_clear_pointer (&self->frame, g_array_unref);
  g_clear_pointer (&self->depth, g_array_unref);
  g_free (self);
}
