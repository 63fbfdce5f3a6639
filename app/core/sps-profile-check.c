/* sps-profile-check.c: what a reopened profile's tables must satisfy
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * finish() guarantees these of the tables it builds, and the views, the
 * SQL tables and the range queries rely on them without checking: so a
 * profile, which anyone can edit, is checked for each before it becomes
 * a trace.
 */

#define G_LOG_DOMAIN "sps-profile"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-importer.h"
#include "sps-profile-private.h"
#include "sps-trace-finish-private.h"

static gboolean
bad (GError     **error,
     const char  *display_name,
     const char  *table,
     const char  *column,
     guint        row,
     const char  *what)
{
  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
               /* Translators: file, table, column, row number, then what is wrong */
               _("%s: %s.%s of row %u %s"), display_name, table, column, row, what);
  return FALSE;
}

static guint
ref_rows (SpsTrace      *trace,
          SpsProfileRef  ref)
{
  switch (ref)
    {
    case SPS_PROFILE_REF_PROCESS: return trace->processes.n_rows;
    case SPS_PROFILE_REF_THREAD: return trace->threads.n_rows;
    case SPS_PROFILE_REF_TRACK: return trace->tracks.n_rows;
    case SPS_PROFILE_REF_SLICE: return trace->slices.n_rows;
    case SPS_PROFILE_REF_CALLSITE: return trace->callsites.n_rows;
    case SPS_PROFILE_REF_FRAME: return trace->frames.n_rows;
    case SPS_PROFILE_REF_NONE:
    default:
      return G_MAXUINT32;
    }
}

/* String ids, row references and enumerations of every table */
static gboolean
check_columns (SpsTrace    *trace,
               const char  *display_name,
               GError     **error)
{
  guint n_strings = sps_string_pool_get_size (trace->strings);

  for (guint t = 0; t < _sps_profile_n_tables; t++)
    {
      const SpsProfileTable *table = &_sps_profile_tables[t];
      guint n = _sps_profile_table_rows (trace, table);

      for (const SpsProfileColumn *c = table->columns; c->name != NULL; c++)
        {
          gconstpointer data = _sps_profile_column_get (trace, c);

          if (c->kind == SPS_PROFILE_KIND_STRING || c->ref != SPS_PROFILE_REF_NONE)
            {
              const guint32 *v = data;
              guint limit = c->kind == SPS_PROFILE_KIND_STRING ? n_strings : ref_rows (trace, c->ref);

              for (guint r = 0; r < n; r++)
                if (v[r] >= limit && !(c->nullable && v[r] == SPS_NO_INDEX))
                  return bad (error, display_name, table->name, c->name, r,
                              c->kind == SPS_PROFILE_KIND_STRING ? _("is not a string")
                                                            : _("refers to a row that does not exist"));
            }
          else if (c->max != 0)
            {
              const guint8 *v = data;

              for (guint r = 0; r < n; r++)
                if (v[r] > c->max)
                  return bad (error, display_name, table->name, c->name, r, _("is out of range"));
            }
        }
    }
  return TRUE;
}

/* The table whose rows a track of @kind holds, with its track and time
 * columns */
static guint
track_rows (SpsTrace       *trace,
            SpsTrackKind    kind,
            const guint32 **track,
            const SpsTime **ts,
            guint          *which)
{
  switch (kind)
    {
    case SPS_TRACK_THREAD_SLICES:
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
    case SPS_TRACK_ASYNC:
      *track = trace->slices.track;
      *ts = trace->slices.ts;
      *which = 0;
      return trace->slices.n_rows;
    case SPS_TRACK_COUNTER:
      *track = trace->counters.track;
      *ts = trace->counters.ts;
      *which = 1;
      return trace->counters.n_rows;
    case SPS_TRACK_THREAD_INSTANTS:
    case SPS_TRACK_PROCESS_INSTANTS:
    case SPS_TRACK_GLOBAL_INSTANTS:
      *track = trace->instants.track;
      *ts = trace->instants.ts;
      *which = 2;
      return trace->instants.n_rows;
    case SPS_TRACK_THREAD_SAMPLES:
    default:
      *track = trace->samples.track;
      *ts = trace->samples.ts;
      *which = 3;
      return trace->samples.n_rows;
    }
}

/* Each track's rows are a run of its table that names the track, sorted
 * by time; and every row of a table is in its track's run. */
static gboolean
check_tracks (SpsTrace    *trace,
              const char  *display_name,
              GError     **error)
{
  const SpsTrackTable *tracks = &trace->tracks;
  guint64 covered[4] = { 0, };

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      const guint32 *track;
      const SpsTime *ts;
      guint which;
      guint n = track_rows (trace, tracks->kind[t], &track, &ts, &which);
      guint64 first = tracks->first_row[t];
      guint64 end = first + tracks->n_rows_in_track[t];

      if (end > n)
        return bad (error, display_name, "tracks", "n_rows_in_track", t, _("goes past the end of its table"));
      for (guint64 r = first; r < end; r++)
        {
          if (track[r] != t)
            return bad (error, display_name, "tracks", "first_row", t, _("takes rows of another track"));
          if (r > first && ts[r] < ts[r - 1])
            return bad (error, display_name, "tracks", "first_row", t, _("has rows out of time order"));
        }
      covered[which] += end - first;
    }

  /* With no overlap possible (each row names one track), the runs cover
   * a table exactly when their lengths add up to it. */
  if (covered[0] != trace->slices.n_rows || covered[1] != trace->counters.n_rows ||
      covered[2] != trace->instants.n_rows || covered[3] != trace->samples.n_rows)
    return bad (error, display_name, "tracks", "n_rows_in_track", 0, _("leave rows of their tables out"));
  return TRUE;
}

static gboolean
check_slices (SpsTrace    *trace,
              const char  *display_name,
              GError     **error)
{
  const SpsSliceTable *s = &trace->slices;

  for (guint r = 0; r < s->n_rows; r++)
    {
      guint32 p = s->parent[r];

      /* The block index adds them */
      if (s->dur[r] < 0 || s->ts[r] > SPS_TIME_MAX - s->dur[r])
        return bad (error, display_name, "slices", "dur", r, _("is out of range"));
      if (s->depth[r] >= trace->tracks.max_depth[s->track[r]])
        return bad (error, display_name, "slices", "depth", r, _("is deeper than its track"));
      /* Parents are shallower, so that walking up ends */
      if (p != SPS_NO_INDEX && s->depth[p] >= s->depth[r])
        return bad (error, display_name, "slices", "parent", r, _("is not shallower than the slice"));
    }
  return TRUE;
}

static gboolean
check_callsites (SpsTrace    *trace,
                 const char  *display_name,
                 GError     **error)
{
  const SpsCallsiteTable *c = &trace->callsites;

  /* A stack is depth + 1 frames long, walking up from its leaf */
  for (guint r = 0; r < c->n_rows; r++)
    {
      if (c->parent[r] == SPS_NO_INDEX ? c->depth[r] != 0 : c->depth[c->parent[r]] + 1 != c->depth[r])
        return bad (error, display_name, "callsites", "depth", r, _("does not follow its parent’s"));
      /* depth + 1 must fit its guint16, as in finish() */
      if (c->depth[r] > SPS_MAX_DEPTH)
        return bad (error, display_name, "callsites", "depth", r, _("is out of range"));
    }
  return TRUE;
}

static gboolean
check_sorted (const SpsTime *ts,
              guint          n,
              const char    *display_name,
              const char    *table,
              const char    *column,
              GError       **error)
{
  for (guint r = 1; r < n; r++)
    if (ts[r] < ts[r - 1])
      return bad (error, display_name, table, column, r, _("is out of time order"));
  return TRUE;
}

/**
 * _sps_profile_check:
 * @trace: a trace whose tables were read from a profile
 * @display_name: the profile's name in messages
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the tables are what finish() would have made of
 *   them in every respect the rest of Spanscope relies on
 */
gboolean
_sps_profile_check (SpsTrace    *trace,
                    const char  *display_name,
                    GError     **error)
{
  return check_columns (trace, display_name, error) &&
         check_tracks (trace, display_name, error) &&
         check_slices (trace, display_name, error) &&
         check_callsites (trace, display_name, error) &&
         check_sorted (trace->allocations.birth, trace->allocations.n_rows, display_name,
                       "allocations", "birth", error) &&
         check_sorted (trace->gc_observations.ts, trace->gc_observations.n_rows, display_name,
                       "gc_observations", "ts", error);
}
