/* sps-chrome-load-lookup.c: processes, threads, ids, small objects and
 * stack frames of the Chrome JSON importer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-importer"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-chrome-importer-private.h"

/* Small objects (args of metadata and counters, id2, stack frames) */

void
sps_chrome_object_iter_init (ObjectIter           *iter,
                             Loader               *self,
                             const SpsChromeValue *object)
{
  g_assert (object->type == SPS_CHROME_VALUE_OBJECT);

  /* The object was validated when the event was read, so walking it again
   * cannot fail; the depth limit was checked then too. */
  sps_chrome_scanner_init_range (&iter->scanner, self->base, object->ptr,
                                 object->ptr + object->len, 0);
  iter->ok = sps_chrome_scanner_enter (&iter->scanner, '{') == SPS_CHROME_SCAN_OK;
}

gboolean
sps_chrome_object_iter_next (ObjectIter     *iter,
                             SpsChromeValue *key,
                             SpsChromeValue *value)
{
  if (!iter->ok)
    return FALSE;
  if (sps_chrome_scanner_next_member (&iter->scanner, key) != SPS_CHROME_SCAN_OK ||
      sps_chrome_scanner_read_value (&iter->scanner, value) != SPS_CHROME_SCAN_OK)
    {
      iter->ok = FALSE;
      return FALSE;
    }
  return TRUE;
}

void
sps_chrome_object_iter_clear (ObjectIter *iter)
{
  sps_chrome_scanner_clear (&iter->scanner);
}

/* Finds member @name of @object (the last one if it repeats). */
gboolean
sps_chrome_object_lookup (Loader               *self,
                          const SpsChromeValue *object,
                          const char           *name,
                          SpsChromeValue       *value)
{
  ObjectIter iter;
  SpsChromeValue key;
  SpsChromeValue v;
  gboolean found = FALSE;

  if (object->type != SPS_CHROME_VALUE_OBJECT)
    return FALSE;

  sps_chrome_object_iter_init (&iter, self, object);
  while (sps_chrome_object_iter_next (&iter, &key, &v))
    {
      if (sps_chrome_value_equals (&key, name))
        {
          *value = v;
          found = TRUE;
        }
    }
  sps_chrome_object_iter_clear (&iter);
  return found;
}

/* Processes and threads */

static inline guint
slot_hash (gint64 a,
           gint64 b)
{
  guint64 h = ((guint64) a * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) ^
              ((guint64) b * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F));

  return (guint) (h ^ (h >> 29) ^ (h >> 47));
}

guint32
sps_chrome_loader_process_for_pid (Loader *self,
                                   gint64  pid)
{
  ProcessSlot *slot = &self->processes[slot_hash (pid, 0) & (PROCESS_CACHE_SIZE - 1)];

  if G_LIKELY (slot->used && slot->pid == pid)
    return slot->process;

  slot->pid = pid;
  slot->process = sps_trace_builder_ensure_process (self->builder, pid);
  slot->used = TRUE;
  return slot->process;
}

/* A string pid (or a number that is not an integer) becomes a synthetic
 * pid -1, -2… per distinct string, and names its process. */
gint64
sps_chrome_loader_synthetic_pid (Loader               *self,
                                 const SpsChromeValue *value)
{
  guint32 id = sps_chrome_loader_intern_simple (self, value);
  gpointer n;

  n = g_hash_table_lookup (self->synthetic_pids, GUINT_TO_POINTER (id));
  if (n == NULL)
    {
      guint32 process;

      n = GUINT_TO_POINTER (++self->n_synthetic_pids);
      g_hash_table_insert (self->synthetic_pids, GUINT_TO_POINTER (id), n);
      process = sps_chrome_loader_process_for_pid (self, -(gint64) GPOINTER_TO_UINT (n));
      sps_trace_builder_set_process_name (self->builder, process, id);
    }
  return -(gint64) GPOINTER_TO_UINT (n);
}

/* The thread of an event: (pid, tid), tid = pid when missing. A string
 * tid becomes a synthetic tid and names its thread. */
guint32
sps_chrome_loader_event_thread (Loader               *self,
                                const SpsChromeEvent *ev)
{
  gint64 pid = sps_chrome_loader_event_pid (self, ev);
  gint64 tid = pid;
  guint32 tid_name = 0;
  gboolean synthetic = FALSE;
  ThreadSlot *slot;

  if (ev->fields & SPS_CHROME_FIELD_TID)
    {
      if G_LIKELY (ev->tid_is_int)
        tid = ev->tid_value;
      else if (sps_chrome_value_is_text (&ev->tid))
        {
          gpointer n;

          tid_name = sps_chrome_loader_intern_simple (self, &ev->tid);
          n = g_hash_table_lookup (self->synthetic_tids, GUINT_TO_POINTER (tid_name));
          if (n == NULL)
            {
              n = GUINT_TO_POINTER (++self->n_synthetic_tids);
              g_hash_table_insert (self->synthetic_tids, GUINT_TO_POINTER (tid_name), n);
            }
          tid = -(gint64) GPOINTER_TO_UINT (n);
          synthetic = TRUE;
        }
    }

  slot = &self->threads[slot_hash (pid, tid) & (THREAD_CACHE_SIZE - 1)];
  if G_LIKELY (slot->used && slot->pid == pid && slot->tid == tid)
    return slot->thread;

  slot->pid = pid;
  slot->tid = tid;
  slot->process = sps_chrome_loader_process_for_pid (self, pid);
  slot->thread = sps_trace_builder_ensure_thread (self->builder, slot->process, tid);
  slot->used = TRUE;
  sps_chrome_top_samples_note_thread (self->top_samples, tid, slot->thread);

  if (synthetic && !g_hash_table_contains (self->named_threads, GUINT_TO_POINTER (slot->thread)))
    {
      g_hash_table_add (self->named_threads, GUINT_TO_POINTER (slot->thread));
      sps_trace_builder_set_thread_name (self->builder, slot->thread, tid_name);
    }
  return slot->thread;
}

/* Ids and identity keys */

IdScope
sps_chrome_loader_event_id (Loader               *self,
                            const SpsChromeEvent *ev,
                            SpsChromeValue       *id)
{
  if ((ev->fields & SPS_CHROME_FIELD_ID) && sps_chrome_value_is_text (&ev->id))
    {
      *id = ev->id;
      return ID_PLAIN;
    }
  if ((ev->fields & SPS_CHROME_FIELD_ID2) && ev->id2.type == SPS_CHROME_VALUE_OBJECT)
    {
      ObjectIter iter;
      SpsChromeValue key;
      SpsChromeValue value;
      IdScope scope = ID_NONE;

      sps_chrome_object_iter_init (&iter, self, &ev->id2);
      while (scope == ID_NONE && sps_chrome_object_iter_next (&iter, &key, &value))
        {
          if (!sps_chrome_value_is_text (&value))
            continue;
          if (sps_chrome_value_equals (&key, "local"))
            scope = ID_LOCAL;
          else if (sps_chrome_value_equals (&key, "global"))
            scope = ID_GLOBAL;
          if (scope != ID_NONE)
            *id = value;
        }
      sps_chrome_object_iter_clear (&iter);
      return scope;
    }
  return ID_NONE;
}

/* Folds an id (as written), two string ids and a process scope into one
 * 64-bit identity. */
guint64
sps_chrome_identity_key (guint64               seed,
                         const SpsChromeValue *id,
                         guint32               a,
                         guint32               b,
                         gboolean              local,
                         gint64                pid)
{
  guint64 parts[4] = { a, b, (guint64) local, local ? (guint64) pid : 0 };
  guint64 h;

  if (id != NULL)
    h = sps_chrome_hash_bytes (seed, id->ptr, id->len);
  else
    h = sps_chrome_hash_bytes (seed, "", 0);
  return sps_chrome_hash_bytes (h, (const char *) parts, sizeof parts);
}

guint32
sps_chrome_loader_scope_name (Loader               *self,
                              const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_SCOPE) && sps_chrome_value_is_text (&ev->scope))
    return sps_chrome_loader_intern_simple (self, &ev->scope);
  return 0;
}

/* Flows v2: `bind_id` with `flow_in`/`flow_out` on a slice event */
void
sps_chrome_loader_bind_flow (Loader               *self,
                             const SpsChromeEvent *ev,
                             guint32               thread,
                             guint32               handle,
                             guint32               name,
                             guint32               category)
{
  gboolean in = (ev->fields & SPS_CHROME_FIELD_FLOW_IN) != 0;
  gboolean out = (ev->fields & SPS_CHROME_FIELD_FLOW_OUT) != 0;
  SpsFlowPhase phase;

  if G_LIKELY ((ev->fields & SPS_CHROME_FIELD_BIND_ID) == 0)
    return;
  if (!sps_chrome_value_is_text (&ev->bind_id))
    {
      sps_chrome_loader_warn (self, "invalid_bind_id", ev->offset, N_("bind_id is neither a string nor a number"));
      return;
    }
  if (!in && !out)
    {
      sps_chrome_loader_warn (self, "flow_without_direction", ev->offset,
                              N_("bind_id without flow_in or flow_out"));
      return;
    }
  if (handle == SPS_NO_INDEX)
    return;

  phase = in && out ? SPS_FLOW_STEP : out ? SPS_FLOW_START : SPS_FLOW_END;
  sps_trace_builder_add_flow_point (self->builder,
                                    sps_chrome_identity_key (KEY_BIND, &ev->bind_id, 0, 0, FALSE, 0),
                                    phase, SPS_FLOW_BIND_SLICE, thread, ev->ts,
                                    handle, name, category);
}

/* Stack frames */

static void
loader_define_frame (Loader               *self,
                     const SpsChromeValue *key,
                     const SpsChromeValue *frame)
{
  guint32 id = sps_chrome_loader_intern_simple (self, key);
  gboolean valid = frame->type == SPS_CHROME_VALUE_OBJECT;
  gboolean has_name = FALSE;
  gboolean has_parent = FALSE;
  guint32 name = 0;
  guint32 category = 0;
  guint32 parent = 0;
  SpsChromeSourceLocation location = { 0, 0, 0 };

  if (valid)
    {
      ObjectIter iter;
      SpsChromeValue k;
      SpsChromeValue v;

      sps_chrome_object_iter_init (&iter, self, frame);
      while (sps_chrome_object_iter_next (&iter, &k, &v))
        {
          if (sps_chrome_value_equals (&k, "name"))
            {
              has_name = v.type == SPS_CHROME_VALUE_STRING;
              if (has_name)
                name = sps_chrome_loader_intern_simple (self, &v);
            }
          else if (sps_chrome_value_equals (&k, "category"))
            {
              if (v.type == SPS_CHROME_VALUE_STRING)
                category = sps_chrome_loader_intern_simple (self, &v);
              else if (v.type != SPS_CHROME_VALUE_NULL)
                valid = FALSE;
            }
          else if (sps_chrome_value_equals (&k, "parent"))
            {
              has_parent = sps_chrome_value_is_text (&v);
              if (has_parent)
                parent = sps_chrome_loader_intern_simple (self, &v);
              else if (v.type != SPS_CHROME_VALUE_NULL)
                valid = FALSE;
            }
          /* A source location as a V8 call frame gives one (what convert
           * writes); an unusable one is unknown, not an invalid frame */
          else if (sps_chrome_value_equals (&k, "url"))
            location.file = v.type == SPS_CHROME_VALUE_STRING && v.len > 0 ? sps_chrome_loader_intern_simple (self, &v) : 0;
          else if (sps_chrome_value_equals (&k, "lineNumber"))
            location.line = sps_chrome_value_to_one_based (&v);
          else if (sps_chrome_value_equals (&k, "columnNumber"))
            location.column = sps_chrome_value_to_one_based (&v);
        }
      sps_chrome_object_iter_clear (&iter);
    }

  sps_chrome_stack_frames_define (self->frames, id, valid && has_name, name, category,
                                  &location, has_parent, parent);
}

SpsChromeScanResult
sps_chrome_loader_read_stack_frames (Loader           *self,
                                     SpsChromeScanner *scanner)
{
  SpsChromeValue key;
  SpsChromeValue value;
  SpsChromeScanResult r;

  if ((r = sps_chrome_scanner_enter (scanner, '{')) != SPS_CHROME_SCAN_OK)
    return r;
  while ((r = sps_chrome_scanner_next_member (scanner, &key)) == SPS_CHROME_SCAN_OK)
    {
      if ((r = sps_chrome_scanner_read_value (scanner, &value)) != SPS_CHROME_SCAN_OK)
        return r;
      loader_define_frame (self, &key, &value);
    }
  return r == SPS_CHROME_SCAN_END ? SPS_CHROME_SCAN_OK : r;
}

void
sps_chrome_loader_resolve_samples (Loader *self)
{
  SPS_SELF_TRACE_SCOPE ("chrome/resolve-samples");

  for (guint i = 0; i < self->pending_samples->len; i++)
    {
      guint32 sample = g_array_index (self->pending_samples, guint32, i);
      guint32 name;
      guint32 raw;
      guint32 callsite;

      sps_trace_builder_get_sample_ref (self->builder, sample, &name, &raw);
      callsite = sps_chrome_stack_frames_resolve (self->frames, self->builder, raw);
      if (callsite != SPS_NO_INDEX)
        sps_trace_builder_set_sample_callsite (self->builder, sample, callsite, SPS_SAMPLE_NONE);
      else
        {
          sps_trace_builder_set_sample_callsite (self->builder, sample,
                                                 sps_chrome_loader_single_frame (self, name),
                                                 SPS_SAMPLE_UNRESOLVED);
          sps_trace_builder_warn (self->builder, "unresolved_stack",
                                  /* Translators: the file name, then the stack frame id;
                                   * keep “%s: ” first */
                                  N_("%s: the stack of a sample (sf \"%s\") cannot be resolved "
                                     "(missing or invalid frame, missing ancestor or cycle)"),
                                  self->display_name,
                                  sps_string_pool_get (self->strings, raw, NULL));
        }
    }
  g_array_set_size (self->pending_samples, 0);
}
