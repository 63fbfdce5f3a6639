/* sps-chrome-importer.c: imports Chrome trace JSON (plain or gzip)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The file is read (or, for gzip, decompressed once into memory) and
 * becomes the builder's source, so args stay references into it. The
 * scanner reads one event at a time into a fixed record; this file turns
 * records into builder calls. Nothing per event is allocated: strings go
 * through a cache in front of the string pool, and process/thread lookups
 * through small direct-mapped caches in front of the builder's indexes.
 *
 * Options (a{sv}): "timestamp-unit" (s) "us" (default) or "ns"; "threads"
 * (u) how many threads may scan the event array (default: 2 when the
 * machine has two cores or more; 1 reads everything on the calling
 * thread, which tests use to compare both paths); "max-decompressed-size"
 * (t) the most a gzip file may inflate to (default: the smaller of 16 GiB
 * and half the physical memory, sps_chrome_gzip_default_limit()).
 */

#define G_LOG_DOMAIN "sps-chrome-importer"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-cpu-profile.h"
#include "sps-chrome-event-reader.h"
#include "sps-chrome-gzip.h"
#include "sps-chrome-importer.h"
#include "sps-chrome-interner.h"
#include "sps-chrome-scanner.h"
#include "sps-chrome-stack-frames.h"
#include "sps-chrome-top-samples.h"

#define THREAD_CACHE_SIZE   256
#define PROCESS_CACHE_SIZE  64

/* Seeds that keep identity keys of different kinds apart */
enum
{
  KEY_FLOW = 1,
  KEY_BIND,
  KEY_ASYNC,
  KEY_LEGACY,
  KEY_OBJECT,
};

/* How an event's id is scoped */
typedef enum
{
  ID_NONE,
  ID_PLAIN,    /* "id" */
  ID_LOCAL,    /* "id2": {"local": …} */
  ID_GLOBAL,   /* "id2": {"global": …} */
} IdScope;

struct _SpsChromeImporter
{
  GObject parent_instance;
};

typedef struct
{
  gint64   pid;
  gint64   tid;
  guint32  process;
  guint32  thread;
  gboolean used;
} ThreadSlot;

typedef struct
{
  gint64   pid;
  guint32  process;
  gboolean used;
} ProcessSlot;

typedef struct
{
  SpsTraceBuilder      *builder;
  SpsStringPool        *strings;
  SpsProgress          *progress;
  SpsChromeInterner    *interner;
  SpsChromeStackFrames *frames;
  SpsChromeCpuProfiles *profiles;
  SpsChromeTopSamples  *top_samples;
  GString              *scratch;
  char                 *display_name;
  const char           *base;
  gsize                 len;
  gboolean              ns;
  gboolean              gzip_truncated;
  gboolean              gzip_limited;   /* cut at the decompressed-size limit */
  guint                 n_threads;

  guint64               events_read;
  guint64               metadata_events;

  ThreadSlot            threads[THREAD_CACHE_SIZE];
  ProcessSlot           processes[PROCESS_CACHE_SIZE];

  /* Ids that were strings: string id → n, the synthetic id being -n */
  GHashTable           *synthetic_pids;
  GHashTable           *synthetic_tids;
  GHashTable           *named_threads;
  guint                 n_synthetic_pids;
  guint                 n_synthetic_tids;

  GArray               *pending_samples;   /* guint32 sample indexes */
  GHashTable           *warned;            /* warning names with a message */

  /* Where loader_where() last counted lines up to */
  gsize                 loc_offset;
  gsize                 loc_line_start;
  guint64               loc_line;
} Loader;

static void sps_chrome_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsChromeImporter, sps_chrome_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, sps_chrome_importer_iface_init))

/* Locations and messages */

/* How messages name @file: its path, or its URI when it has none. */
static char *
dup_display_name (GFile *file)
{
  const char *path = g_file_peek_path (file);

  return path != NULL ? g_strdup (path) : g_file_get_parse_name (file);
}

/* "FILE:LINE:COLUMN (byte OFFSET)". Lines are counted only here, from
 * where the previous call stopped, since reports come in file order. */
static char *
loader_where (Loader *self,
              gsize   offset)
{
  const char *p;
  const char *end;

  g_assert (offset <= self->len);

  if (offset < self->loc_offset)
    {
      self->loc_offset = 0;
      self->loc_line_start = 0;
      self->loc_line = 1;
    }

  p = self->base + self->loc_offset;
  end = self->base + offset;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));

      if (nl == NULL)
        break;
      self->loc_line++;
      p = nl + 1;
      self->loc_line_start = (gsize) (p - self->base);
    }
  self->loc_offset = offset;

  /* Translators: a place in a file: its name, line, column and byte offset */
  return g_strdup_printf (_("%s:%" PRIu64 ":%zu (byte %zu)"),
                          self->display_name, self->loc_line,
                          offset - self->loc_line_start + 1, offset);
}

/* Counts warning @name; the first one of each name gets a message that
 * says where. @format is translated only then (callers mark it with N_()),
 * after the location, which keeps the same shape in every language. */
static void loader_warn (Loader     *self,
                         const char *name,
                         gsize       offset,
                         const char *format,
                         ...) G_GNUC_PRINTF (4, 5);

static void
loader_warn (Loader     *self,
             const char *name,
             gsize       offset,
             const char *format,
             ...)
{
  g_autofree char *where = NULL;
  g_autofree char *message = NULL;
  va_list args;

  if (g_hash_table_contains (self->warned, name))
    {
      sps_trace_builder_warn (self->builder, name, "%s", "");
      return;
    }
  g_hash_table_add (self->warned, (gpointer) name);

  where = loader_where (self, offset);
  va_start (args, format);
  message = g_strdup_vprintf (g_dgettext (GETTEXT_PACKAGE, format), args);
  va_end (args);
  sps_trace_builder_warn (self->builder, name, "%s: %s", where, message);
}

/* Warnings of the CPU profile reader: @message is marked with N_() */
static void
loader_warn_message (const char *name,
                     gsize       offset,
                     const char *message,
                     gpointer    user_data)
{
  loader_warn (user_data, name, offset, "%s", g_dgettext (GETTEXT_PACKAGE, message));
}

static gboolean
loader_fail (Loader          *self,
             GError         **error,
             SpsImportError   code,
             gsize            offset,
             const char      *message)
{
  g_autofree char *where = loader_where (self, offset);

  g_set_error (error, SPS_IMPORT_ERROR, code, "%s: %s", where, message);
  return FALSE;
}

static gboolean
loader_fail_scan (Loader           *self,
                  SpsChromeScanner *scanner,
                  GError          **error)
{
  g_assert (scanner->error_message != NULL);

  return loader_fail (self, error, scanner->error_code,
                      scanner->error_offset, scanner->error_message);
}

static inline gsize
offset_of (Loader     *self,
           const char *p)
{
  return (gsize) (p - self->base);
}

static const char *
printable_phase (char  ph,
                 char *buf)
{
  if (g_ascii_isprint (ph))
    g_snprintf (buf, 8, "'%c'", ph);
  else
    g_snprintf (buf, 8, "0x%02x", (guchar) ph);
  return buf;
}

/* Strings */

/* Counts a string the interner had to repair, where it was written. */
static void
loader_warn_replaced (Loader               *self,
                      const SpsChromeValue *value)
{
  loader_warn (self, "invalid_utf8", offset_of (self, value->ptr),
               N_("a string holds invalid UTF-8 or \\u0000; replaced with U+FFFD"));
}

static inline guint32
loader_intern (Loader               *self,
               const SpsChromeValue *value,
               guint                *flags)
{
  guint32 id = sps_chrome_interner_intern (self->interner, value, flags);

  if G_UNLIKELY (*flags & SPS_CHROME_STRING_REPLACED)
    loader_warn_replaced (self, value);
  return id;
}

/* The name or category of an event, whose hash the scanner computed */
static inline guint32
loader_intern_event_string (Loader               *self,
                            const SpsChromeValue *value,
                            guint32               hash,
                            guint                *flags)
{
  guint32 id;

  if G_UNLIKELY (value->type != SPS_CHROME_VALUE_STRING)
    return loader_intern (self, value, flags);

  id = sps_chrome_interner_intern_hashed (self->interner, value->ptr, value->len,
                                          value->escaped, hash, flags);
  if G_UNLIKELY (*flags & SPS_CHROME_STRING_REPLACED)
    loader_warn_replaced (self, value);
  return id;
}

static inline guint32
loader_intern_simple (Loader               *self,
                      const SpsChromeValue *value)
{
  guint flags;

  return loader_intern (self, value, &flags);
}

/* Appends the decoded text of a string (or the text of a number); as for
 * interned strings, invalid UTF-8 and \u0000 are replaced and counted. */
static void
loader_append_text (Loader               *self,
                    GString              *out,
                    const SpsChromeValue *value)
{
  if (value->type != SPS_CHROME_VALUE_STRING)
    g_string_append_len (out, value->ptr, (gssize) value->len);
  else if (sps_chrome_decode_string (value->ptr, value->len, out))
    loader_warn_replaced (self, value);
}

static inline gboolean
is_text (const SpsChromeValue *value)
{
  return value->type == SPS_CHROME_VALUE_STRING || value->type == SPS_CHROME_VALUE_NUMBER;
}

/* Small objects (args of metadata and counters, id2, stack frames) */

typedef struct
{
  SpsChromeScanner scanner;
  gboolean         ok;
} ObjectIter;

static void
object_iter_init (ObjectIter           *iter,
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

static gboolean
object_iter_next (ObjectIter     *iter,
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

static void
object_iter_clear (ObjectIter *iter)
{
  sps_chrome_scanner_clear (&iter->scanner);
}

/* Finds member @name of @object (the last one if it repeats). */
static gboolean
object_lookup (Loader               *self,
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

  object_iter_init (&iter, self, object);
  while (object_iter_next (&iter, &key, &v))
    {
      if (sps_chrome_value_equals (&key, name))
        {
          *value = v;
          found = TRUE;
        }
    }
  object_iter_clear (&iter);
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

static guint32
loader_process_for_pid (Loader *self,
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
static gint64
loader_synthetic_pid (Loader               *self,
                      const SpsChromeValue *value)
{
  guint32 id = loader_intern_simple (self, value);
  gpointer n;

  n = g_hash_table_lookup (self->synthetic_pids, GUINT_TO_POINTER (id));
  if (n == NULL)
    {
      guint32 process;

      n = GUINT_TO_POINTER (++self->n_synthetic_pids);
      g_hash_table_insert (self->synthetic_pids, GUINT_TO_POINTER (id), n);
      process = loader_process_for_pid (self, -(gint64) GPOINTER_TO_UINT (n));
      sps_trace_builder_set_process_name (self->builder, process, id);
    }
  return -(gint64) GPOINTER_TO_UINT (n);
}

static inline gint64
loader_event_pid (Loader               *self,
                  const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_PID) == 0)
    return 0;
  if G_LIKELY (ev->pid_is_int)
    return ev->pid_value;
  if (is_text (&ev->pid))
    return loader_synthetic_pid (self, &ev->pid);
  return 0;
}

static inline guint32
loader_event_process (Loader               *self,
                      const SpsChromeEvent *ev)
{
  return loader_process_for_pid (self, loader_event_pid (self, ev));
}

/* The thread of an event: (pid, tid), tid = pid when missing. A string
 * tid becomes a synthetic tid and names its thread. */
static guint32
loader_event_thread (Loader               *self,
                     const SpsChromeEvent *ev)
{
  gint64 pid = loader_event_pid (self, ev);
  gint64 tid = pid;
  guint32 tid_name = 0;
  gboolean synthetic = FALSE;
  ThreadSlot *slot;

  if (ev->fields & SPS_CHROME_FIELD_TID)
    {
      if G_LIKELY (ev->tid_is_int)
        tid = ev->tid_value;
      else if (is_text (&ev->tid))
        {
          gpointer n;

          tid_name = loader_intern_simple (self, &ev->tid);
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
  slot->process = loader_process_for_pid (self, pid);
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

static IdScope
loader_event_id (Loader               *self,
                 const SpsChromeEvent *ev,
                 SpsChromeValue       *id)
{
  if ((ev->fields & SPS_CHROME_FIELD_ID) && is_text (&ev->id))
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

      object_iter_init (&iter, self, &ev->id2);
      while (scope == ID_NONE && object_iter_next (&iter, &key, &value))
        {
          if (!is_text (&value))
            continue;
          if (sps_chrome_value_equals (&key, "local"))
            scope = ID_LOCAL;
          else if (sps_chrome_value_equals (&key, "global"))
            scope = ID_GLOBAL;
          if (scope != ID_NONE)
            *id = value;
        }
      object_iter_clear (&iter);
      return scope;
    }
  return ID_NONE;
}

/* Folds an id (as written), two string ids and a process scope into one
 * 64-bit identity. */
static guint64
identity_key (guint64               seed,
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

static guint32
loader_scope_name (Loader               *self,
                   const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_SCOPE) && is_text (&ev->scope))
    return loader_intern_simple (self, &ev->scope);
  return 0;
}

/* Flows v2: `bind_id` with `flow_in`/`flow_out` on a slice event */
static void
loader_bind_flow (Loader               *self,
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
  if (!is_text (&ev->bind_id))
    {
      loader_warn (self, "invalid_bind_id", ev->offset, N_("bind_id is neither a string nor a number"));
      return;
    }
  if (!in && !out)
    {
      loader_warn (self, "flow_without_direction", ev->offset,
                   N_("bind_id without flow_in or flow_out"));
      return;
    }
  if (handle == SPS_NO_INDEX)
    return;

  phase = in && out ? SPS_FLOW_STEP : out ? SPS_FLOW_START : SPS_FLOW_END;
  sps_trace_builder_add_flow_point (self->builder,
                                    identity_key (KEY_BIND, &ev->bind_id, 0, 0, FALSE, 0),
                                    phase, SPS_FLOW_BIND_SLICE, thread, ev->ts,
                                    handle, name, category);
}

/* Phases */

/* Args nested deeper than SPS_CHROME_MAX_DEPTH: kept as their text, in a
 * string (parsing them later would meet the same depth), with a warning */
static SpsArgsRef
loader_args_too_deep (Loader               *self,
                      const SpsChromeEvent *ev)
{
  g_autoptr(GString) json = g_string_new ("{\"args_too_deep\":");

  loader_warn (self, "args_too_deep", offset_of (self, ev->args.ptr),
               N_("args nested deeper than 1000 levels; they are kept as text"));
  sps_json_append_string (json, ev->args.ptr, ev->args.len);
  g_string_append_c (json, '}');
  return sps_trace_builder_add_args_text (self->builder, json->str, (gssize) json->len);
}

static inline SpsArgsRef
loader_args (Loader               *self,
             const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_ARGS) == 0)
    return SPS_ARGS_REF_NONE;
  if G_UNLIKELY ((ev->args.type == SPS_CHROME_VALUE_OBJECT || ev->args.type == SPS_CHROME_VALUE_ARRAY) &&
                 ev->args.too_deep)
    return loader_args_too_deep (self, ev);
  if (ev->args.type != SPS_CHROME_VALUE_OBJECT)
    return SPS_ARGS_REF_NONE;
  if G_UNLIKELY (ev->args.escaped)
    {
      /* Commas before a closing bracket are accepted here as in the event
       * array, but the args must stay JSON for everything that parses them. */
      gsize len = 0;
      g_autofree char *clean = sps_json_strip_trailing_commas (ev->args.ptr, ev->args.len, &len);

      if (clean != NULL)
        return sps_trace_builder_add_args_text (self->builder, clean, (gssize) len);
    }
  return sps_args_ref_new (FALSE, offset_of (self, ev->args.ptr), ev->args.len);
}

static void
loader_instant (Loader               *self,
                const SpsChromeEvent *ev,
                SpsInstantKind        kind,
                guint32               name,
                guint32               category)
{
  SpsInstantScope scope = SPS_INSTANT_SCOPE_THREAD;
  guint32 process = SPS_NO_INDEX;
  guint32 thread = SPS_NO_INDEX;

  if (kind == SPS_INSTANT_KIND_ASYNC)
    scope = SPS_INSTANT_SCOPE_PROCESS;
  else if (ev->fields & SPS_CHROME_FIELD_S)
    {
      if (sps_chrome_value_equals (&ev->s, "g"))
        scope = SPS_INSTANT_SCOPE_GLOBAL;
      else if (sps_chrome_value_equals (&ev->s, "p"))
        scope = SPS_INSTANT_SCOPE_PROCESS;
      else if (!sps_chrome_value_equals (&ev->s, "t"))
        loader_warn (self, "unknown_instant_scope", ev->offset,
                     N_("instant scope \"s\" is not \"t\", \"p\" or \"g\"; using the thread"));
    }

  if (scope == SPS_INSTANT_SCOPE_THREAD)
    thread = loader_event_thread (self, ev);
  else if (scope == SPS_INSTANT_SCOPE_PROCESS)
    process = loader_event_process (self, ev);

  sps_trace_builder_add_instant (self->builder, kind, scope, process, thread, ev->ts,
                                 name, category, loader_args (self, ev));
}

static void
loader_counter (Loader               *self,
                const SpsChromeEvent *ev,
                guint32               name)
{
  guint32 process = loader_event_process (self, ev);
  guint32 counter_name = name;
  ObjectIter iter;
  SpsChromeValue key;
  SpsChromeValue value;
  guint n_series = 0;

  /* Counter identity is name plus id, written "name[id]" */
  if ((ev->fields & SPS_CHROME_FIELD_ID) && is_text (&ev->id))
    {
      gsize len;
      const char *text = sps_string_pool_get (self->strings, name, &len);

      g_string_truncate (self->scratch, 0);
      g_string_append_len (self->scratch, text, (gssize) len);
      g_string_append_c (self->scratch, '[');
      loader_append_text (self, self->scratch, &ev->id);
      g_string_append_c (self->scratch, ']');
      counter_name = sps_string_pool_intern (self->strings, self->scratch->str,
                                             (gssize) self->scratch->len);
    }

  if ((ev->fields & SPS_CHROME_FIELD_ARGS) == 0 || ev->args.type != SPS_CHROME_VALUE_OBJECT)
    {
      loader_warn (self, "counter_without_values", ev->offset, N_("a counter event has no args object"));
      return;
    }

  object_iter_init (&iter, self, &ev->args);
  while (object_iter_next (&iter, &key, &value))
    {
      double v;

      n_series++;
      if (sps_chrome_value_to_double (&value, &v))
        {
          guint32 series = loader_intern_simple (self, &key);
          guint32 track = sps_trace_builder_ensure_counter_track (self->builder, process,
                                                                  counter_name, series);

          sps_trace_builder_add_counter_value (self->builder, track, ev->ts, v);
        }
      else if (value.type == SPS_CHROME_VALUE_STRING)
        loader_warn (self, "counter_string_value", offset_of (self, value.ptr) - 1,
                     N_("a counter value is a string that is not a number; skipped"));
      else
        loader_warn (self, "counter_invalid_value", offset_of (self, value.ptr),
                     N_("a counter value is not a number; skipped"));
    }
  object_iter_clear (&iter);

  if (n_series == 0)
    loader_warn (self, "counter_without_values", ev->offset, N_("a counter event has no values"));
}

static void
loader_flow (Loader               *self,
             const SpsChromeEvent *ev,
             guint32               name,
             guint32               category)
{
  SpsChromeValue id;
  SpsFlowPhase phase;
  SpsFlowBind bind = SPS_FLOW_BIND_ENCLOSING;
  guint32 thread;

  if (loader_event_id (self, ev, &id) == ID_NONE)
    {
      loader_warn (self, "flow_without_id", ev->offset, N_("a flow event has no id; skipped"));
      return;
    }

  switch (ev->ph)
    {
    case 's':
      phase = SPS_FLOW_START;
      break;
    case 't':
      phase = SPS_FLOW_STEP;
      break;
    default:
      phase = SPS_FLOW_END;
      if (!(ev->fields & SPS_CHROME_FIELD_BP) || !sps_chrome_value_equals (&ev->bp, "e"))
        bind = SPS_FLOW_BIND_NEXT;
      break;
    }

  thread = loader_event_thread (self, ev);
  sps_trace_builder_add_flow_point (self->builder,
                                    identity_key (KEY_FLOW, &id, category, name, FALSE, 0),
                                    phase, bind, thread, ev->ts, SPS_NO_INDEX,
                                    name, category);
}

static gboolean
value_to_sort_index (const SpsChromeValue *value,
                     gint32               *out)
{
  double d;
  gint64 i;

  if (value->type == SPS_CHROME_VALUE_NUMBER ||
      (value->type == SPS_CHROME_VALUE_STRING && !value->escaped))
    {
      if (sps_chrome_parse_int64 (value->ptr, value->len, &i) == SPS_CHROME_NUMBER_OK)
        {
          *out = (gint32) CLAMP (i, G_MININT32, G_MAXINT32);
          return TRUE;
        }
      if (sps_chrome_value_to_double (value, &d) && isfinite (d))
        {
          *out = (gint32) CLAMP (d, (double) G_MININT32, (double) G_MAXINT32);
          return TRUE;
        }
    }
  return FALSE;
}

static void
loader_metadata (Loader               *self,
                 const SpsChromeEvent *ev)
{
  enum { PROCESS_NAME, THREAD_NAME, PROCESS_SORT, THREAD_SORT, PROCESS_LABELS } kind;
  SpsChromeValue value;
  const char *arg;

  self->metadata_events++;

  if (!(ev->fields & SPS_CHROME_FIELD_NAME) || ev->name.type != SPS_CHROME_VALUE_STRING)
    return;

  if (sps_chrome_value_equals (&ev->name, "process_name"))
    kind = PROCESS_NAME, arg = "name";
  else if (sps_chrome_value_equals (&ev->name, "thread_name"))
    kind = THREAD_NAME, arg = "name";
  else if (sps_chrome_value_equals (&ev->name, "process_sort_index"))
    kind = PROCESS_SORT, arg = "sort_index";
  else if (sps_chrome_value_equals (&ev->name, "thread_sort_index"))
    kind = THREAD_SORT, arg = "sort_index";
  else if (sps_chrome_value_equals (&ev->name, "process_labels"))
    kind = PROCESS_LABELS, arg = "labels";
  else
    return;

  if (!(ev->fields & SPS_CHROME_FIELD_ARGS) || !object_lookup (self, &ev->args, arg, &value))
    {
      loader_warn (self, "invalid_metadata", ev->offset,
                   N_("a metadata event has no args.%s"), arg);
      return;
    }

  switch (kind)
    {
    case PROCESS_NAME:
    case PROCESS_LABELS:
    case THREAD_NAME:
      if (value.type != SPS_CHROME_VALUE_STRING)
        {
          loader_warn (self, "invalid_metadata", ev->offset,
                       N_("args.%s of a metadata event is not a string"), arg);
          return;
        }
      if (kind == PROCESS_NAME)
        sps_trace_builder_set_process_name (self->builder, loader_event_process (self, ev),
                                            loader_intern_simple (self, &value));
      else if (kind == PROCESS_LABELS)
        sps_trace_builder_set_process_labels (self->builder, loader_event_process (self, ev),
                                              loader_intern_simple (self, &value));
      else
        sps_trace_builder_set_thread_name (self->builder, loader_event_thread (self, ev),
                                           loader_intern_simple (self, &value));
      break;

    case PROCESS_SORT:
    case THREAD_SORT:
      {
        gint32 sort_index;

        if (!value_to_sort_index (&value, &sort_index))
          {
            loader_warn (self, "invalid_metadata", ev->offset,
                         N_("args.sort_index of a metadata event is not a number"));
            return;
          }
        if (kind == PROCESS_SORT)
          sps_trace_builder_set_process_sort_index (self->builder, loader_event_process (self, ev),
                                                    sort_index);
        else
          sps_trace_builder_set_thread_sort_index (self->builder, loader_event_thread (self, ev),
                                                   sort_index);
      }
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
loader_async (Loader               *self,
              const SpsChromeEvent *ev,
              guint32               name,
              guint32               category)
{
  guint32 process = loader_event_process (self, ev);
  SpsChromeValue id;
  SpsChromeValue step;
  IdScope scope;
  SpsAsyncPhase phase;
  guint32 step_name = name;
  guint64 key;
  guint32 handle;

  scope = loader_event_id (self, ev, &id);
  if (scope == ID_NONE)
    loader_warn (self, "async_without_id", ev->offset,
                 N_("an async event has no id; it is keyed by its category only"));

  switch (ev->ph)
    {
    case 'b':
      phase = SPS_ASYNC_BEGIN;
      break;
    case 'e':
      phase = SPS_ASYNC_END;
      break;
    case 'S':
      phase = SPS_ASYNC_LEGACY_START;
      break;
    case 'T':
      phase = SPS_ASYNC_LEGACY_STEP_INTO;
      break;
    case 'p':
      phase = SPS_ASYNC_LEGACY_STEP_PAST;
      break;
    case 'F':
    default:
      phase = SPS_ASYNC_LEGACY_FINISH;
      break;
    }

  if (phase == SPS_ASYNC_BEGIN || phase == SPS_ASYNC_END)
    {
      /* Nestable: (category, id, scope), id2.local ids per process */
      key = identity_key (KEY_ASYNC, scope != ID_NONE ? &id : NULL,
                          category, loader_scope_name (self, ev),
                          scope == ID_LOCAL, loader_event_pid (self, ev));
    }
  else
    {
      /* Legacy: (name, id, scope); a step is named by args.step */
      key = identity_key (KEY_LEGACY, scope != ID_NONE ? &id : NULL,
                          name, loader_scope_name (self, ev),
                          scope == ID_LOCAL, loader_event_pid (self, ev));
      if ((phase == SPS_ASYNC_LEGACY_STEP_INTO || phase == SPS_ASYNC_LEGACY_STEP_PAST) &&
          (ev->fields & SPS_CHROME_FIELD_ARGS) &&
          object_lookup (self, &ev->args, "step", &step) && is_text (&step))
        step_name = loader_intern_simple (self, &step);
    }

  handle = sps_trace_builder_add_async (self->builder, phase, process, key, ev->ts,
                                        step_name, category, loader_args (self, ev));
  if (phase == SPS_ASYNC_BEGIN)
    loader_bind_flow (self, ev, SPS_NO_INDEX, handle, name, category);
}

static void
loader_object (Loader               *self,
               const SpsChromeEvent *ev,
               guint32               name)
{
  guint32 process = loader_event_process (self, ev);
  SpsChromeValue id;
  IdScope scope;
  SpsObjectPhase phase;

  scope = loader_event_id (self, ev, &id);
  if (scope == ID_NONE)
    loader_warn (self, "object_without_id", ev->offset,
                 N_("an object event has no id; it is keyed by its name only"));

  phase = ev->ph == 'N' ? SPS_OBJECT_CREATED :
          ev->ph == 'O' ? SPS_OBJECT_SNAPSHOT : SPS_OBJECT_DESTROYED;

  /* Object ids are process-local unless id2.global says otherwise */
  sps_trace_builder_add_object_event (self->builder, phase, process,
                                      identity_key (KEY_OBJECT, scope != ID_NONE ? &id : NULL,
                                                    name, loader_scope_name (self, ev),
                                                    scope != ID_GLOBAL,
                                                    loader_event_pid (self, ev)),
                                      ev->ts, name, loader_args (self, ev));
}

static guint32
loader_single_frame (Loader  *self,
                     guint32  name)
{
  return sps_chrome_single_frame_callsite (self->builder, name);
}

/* `stack`: an inline array of frame names, root first */
static guint32
loader_inline_stack (Loader               *self,
                     const SpsChromeValue *stack)
{
  SpsChromeScanner scanner;
  SpsChromeValue value;
  guint32 callsite = SPS_NO_INDEX;
  gboolean ok = TRUE;
  guint n = 0;

  if (stack->type != SPS_CHROME_VALUE_ARRAY)
    return SPS_NO_INDEX;

  sps_chrome_scanner_init_range (&scanner, self->base, stack->ptr, stack->ptr + stack->len, 0);
  if (sps_chrome_scanner_enter (&scanner, '[') != SPS_CHROME_SCAN_OK)
    ok = FALSE;
  while (ok && sps_chrome_scanner_next_element (&scanner) == SPS_CHROME_SCAN_OK)
    {
      guint32 frame;

      if (sps_chrome_scanner_read_value (&scanner, &value) != SPS_CHROME_SCAN_OK ||
          value.type != SPS_CHROME_VALUE_STRING)
        {
          ok = FALSE;
          break;
        }
      frame = sps_trace_builder_intern_frame (self->builder,
                                              loader_intern_simple (self, &value), 0, 0, 0);
      callsite = sps_trace_builder_intern_callsite (self->builder, callsite, frame);
      n++;
    }
  sps_chrome_scanner_clear (&scanner);

  return ok && n > 0 ? callsite : SPS_NO_INDEX;
}

/* The time units a sample's weight can have. Another unit (a count of
 * cycles, bytes…) has no place in the sample table, which holds time
 * units only: the weight is kept without one, and the warning names the
 * unit, so that nothing the producer wrote goes unsaid. */
static SpsWeightUnit
loader_weight_unit (Loader               *self,
                    const SpsChromeValue *value,
                    gsize                 offset)
{
  char text[40];

  if (sps_chrome_value_equals (value, "ns"))
    return SPS_WEIGHT_UNIT_NS;
  if (sps_chrome_value_equals (value, "us"))
    return SPS_WEIGHT_UNIT_US;
  if (sps_chrome_value_equals (value, "ms"))
    return SPS_WEIGHT_UNIT_MS;
  if (sps_chrome_value_equals (value, "s"))
    return SPS_WEIGHT_UNIT_S;

  /* Quoted as written when it is short, printable text */
  g_strlcpy (text, "(not a short string)", sizeof text);
  if (value->type == SPS_CHROME_VALUE_STRING && !value->escaped && value->len < sizeof text - 2)
    {
      gboolean printable = TRUE;

      for (gsize i = 0; i < value->len; i++)
        printable &= g_ascii_isprint (value->ptr[i]);
      if (printable)
        g_snprintf (text, sizeof text, "\"%.*s\"", (int) value->len, value->ptr);
    }
  loader_warn (self, "unknown_weight_unit", offset,
               N_("weightUnit %s is not a time unit (ns, us, ms, s); the weight is kept without a unit"),
               text);
  return SPS_WEIGHT_UNIT_NONE;
}

static void
loader_sample (Loader               *self,
               const SpsChromeEvent *ev,
               guint32               name)
{
  guint32 thread = loader_event_thread (self, ev);
  SpsSampleFlags flags = SPS_SAMPLE_NONE;
  SpsWeightUnit unit = SPS_WEIGHT_UNIT_NONE;
  double weight = NAN;
  guint32 callsite;
  guint32 sample;

  /* A weight is a JSON number; a string holding one is not. */
  if ((ev->fields & SPS_CHROME_FIELD_WEIGHT) && ev->weight.type == SPS_CHROME_VALUE_NUMBER &&
      sps_chrome_value_to_double (&ev->weight, &weight))
    flags |= SPS_SAMPLE_HAS_WEIGHT;
  else
    weight = NAN;
  /* The unit is kept as given, with or without a usable weight: only the
   * estimate needs both (and is NULL otherwise). */
  if (ev->fields & SPS_CHROME_FIELD_WEIGHT_UNIT)
    unit = loader_weight_unit (self, &ev->weight_unit, ev->offset);

  if (ev->fields & SPS_CHROME_FIELD_SF)
    {
      /* Resolved once the whole file is read: stackFrames may come later */
      guint32 raw = is_text (&ev->sf) ? loader_intern_simple (self, &ev->sf) : 0;

      sample = sps_trace_builder_add_sample (self->builder, thread, ev->ts, name, SPS_NO_INDEX,
                                             raw, weight, unit, flags);
      if (is_text (&ev->sf))
        g_array_append_val (self->pending_samples, sample);
      else
        sps_trace_builder_set_sample_callsite (self->builder, sample,
                                               loader_single_frame (self, name),
                                               SPS_SAMPLE_UNRESOLVED);
      return;
    }

  if (ev->fields & SPS_CHROME_FIELD_STACK)
    {
      callsite = loader_inline_stack (self, &ev->stack);
      if (callsite == SPS_NO_INDEX)
        {
          callsite = loader_single_frame (self, name);
          flags |= SPS_SAMPLE_UNRESOLVED;
        }
    }
  else
    callsite = loader_single_frame (self, name);

  sps_trace_builder_add_sample (self->builder, thread, ev->ts, name, callsite, 0,
                                weight, unit, flags);
}

/* `sf`, `esf` and an inline `stack` on X, B and E: the slice's stacks,
 * resolved with the samples' once stackFrames is read */
static void
loader_slice_stacks (Loader               *self,
                     const SpsChromeEvent *ev,
                     guint32               handle)
{
  guint32 sf = 0;
  guint32 esf = 0;
  guint32 stack = SPS_NO_INDEX;

  if G_LIKELY ((ev->fields & (SPS_CHROME_FIELD_SF | SPS_CHROME_FIELD_ESF | SPS_CHROME_FIELD_STACK)) == 0 ||
               handle == SPS_NO_INDEX)
    return;
  if ((ev->fields & SPS_CHROME_FIELD_SF) && is_text (&ev->sf))
    sf = loader_intern_simple (self, &ev->sf);
  if ((ev->fields & SPS_CHROME_FIELD_ESF) && is_text (&ev->esf))
    esf = loader_intern_simple (self, &ev->esf);
  if ((ev->fields & SPS_CHROME_FIELD_STACK) && (stack = loader_inline_stack (self, &ev->stack)) == SPS_NO_INDEX)
    loader_warn (self, "invalid_slice_stack", ev->offset,
                 N_("the inline stack of a slice is not an array of frame names; ignored"));
  sps_chrome_stack_frames_defer_slice (self->frames, handle, sf, esf, stack);
}

/* One event record → builder calls */
static void
loader_dispatch (Loader               *self,
                 const SpsChromeEvent *ev)
{
  guint32 name = 0;
  guint32 category = 0;
  guint cat_flags = 0;
  guint flags;
  guint32 thread;
  SpsSliceFlags slice_flags;
  SpsChromeCpuProfileKind profile_kind;
  char buf[8];

  if G_UNLIKELY (!ev->is_object)
    {
      loader_warn (self, "invalid_event", ev->offset, N_("an element of the event array is not an object"));
      return;
    }

  self->events_read++;

  if G_UNLIKELY (ev->ph == 0)
    {
      /* `{}` separates or ends event lists in some producers */
      if (ev->n_members > 0)
        loader_warn (self, "missing_phase", ev->offset, N_("an event has no \"ph\"; skipped"));
      return;
    }

  if (ev->ph == 'M')
    {
      loader_metadata (self, ev);
      return;
    }

  if G_UNLIKELY (ev->ts_state != SPS_CHROME_TIME_OK)
    {
      if (ev->ts_state == SPS_CHROME_TIME_NONE)
        loader_warn (self, "missing_timestamp", ev->offset, N_("an event has no \"ts\"; skipped"));
      else if (ev->ts_state == SPS_CHROME_TIME_BAD_NUMBER)
        loader_warn (self, "bad_number", ev->offset,
                     N_("\"ts\" is a string that does not hold a number; event skipped"));
      else
        loader_warn (self, "invalid_timestamp", ev->offset, N_("\"ts\" is not a number; event skipped"));
      return;
    }

  /* V8 CPU profiles: Profile, ProfileChunk, CpuProfile */
  profile_kind = sps_chrome_cpu_profile_kind (ev);
  if G_UNLIKELY (profile_kind != SPS_CHROME_CPU_PROFILE_NONE)
    {
      sps_chrome_cpu_profiles_add_event (self->profiles, profile_kind, ev,
                                         loader_event_pid (self, ev), loader_event_thread (self, ev));
      return;
    }

  if (ev->fields & SPS_CHROME_FIELD_NAME)
    name = loader_intern_event_string (self, &ev->name, ev->name_hash, &flags);
  if (ev->fields & SPS_CHROME_FIELD_CAT)
    category = loader_intern_event_string (self, &ev->cat, ev->cat_hash, &cat_flags);
  slice_flags = (cat_flags & SPS_CHROME_STRING_SAMPLE_EVENT) ? SPS_SLICE_SAMPLED : SPS_SLICE_NONE;

  switch (ev->ph)
    {
    case 'X':
      {
        SpsTime dur = 0;
        guint32 handle;

        /* Without a duration the event never ended as far as the trace
         * knows: it lasts to the trace end, like a B without its E. */
        if G_LIKELY (ev->dur_state == SPS_CHROME_TIME_OK)
          dur = ev->dur;
        else if (ev->dur_state == SPS_CHROME_TIME_BAD_NUMBER)
          {
            loader_warn (self, "bad_number", ev->offset,
                         N_("\"dur\" is a string that does not hold a number; event skipped"));
            break;
          }
        else
          {
            if (ev->dur_state == SPS_CHROME_TIME_NONE)
              loader_warn (self, "missing_duration", ev->offset,
                           N_("a complete event has no \"dur\"; it lasts to the end of the trace"));
            else
              loader_warn (self, "invalid_duration", ev->offset,
                           N_("\"dur\" is not a number; the event lasts to the end of the trace"));
            slice_flags |= SPS_SLICE_UNFINISHED;
            dur = SPS_TIME_MAX;
          }

        thread = loader_event_thread (self, ev);
        handle = sps_trace_builder_add_complete (self->builder, thread, ev->ts, dur, name, category,
                                                 loader_args (self, ev), slice_flags);
        loader_bind_flow (self, ev, thread, handle, name, category);
        loader_slice_stacks (self, ev, handle);
      }
      break;

    case 'B':
      {
        guint32 handle;

        thread = loader_event_thread (self, ev);
        handle = sps_trace_builder_add_begin (self->builder, thread, ev->ts, name, category,
                                              loader_args (self, ev), slice_flags);
        loader_bind_flow (self, ev, thread, handle, name, category);
        loader_slice_stacks (self, ev, handle);
      }
      break;

    case 'E':
      thread = loader_event_thread (self, ev);
      loader_slice_stacks (self, ev,
                           sps_trace_builder_add_named_end (self->builder, thread, ev->ts, name,
                                                            loader_args (self, ev), slice_flags));
      break;

    case 'i':
    case 'I':
      loader_instant (self, ev, SPS_INSTANT_KIND_INSTANT, name, category);
      break;

    case 'R':
      loader_instant (self, ev, SPS_INSTANT_KIND_MARK, name, category);
      break;

    case 'n':
      loader_instant (self, ev, SPS_INSTANT_KIND_ASYNC, name, category);
      break;

    case 'C':
      loader_counter (self, ev, name);
      break;

    case 's':
    case 't':
    case 'f':
      loader_flow (self, ev, name, category);
      break;

    case 'b':
    case 'e':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
      loader_async (self, ev, name, category);
      break;

    case 'N':
    case 'O':
    case 'D':
      loader_object (self, ev, name);
      break;

    case 'P':
      loader_sample (self, ev, name);
      break;

    case 'v':
    case 'V':
    case 'c':
    case '(':
    case ')':
    case '=':
      /* Memory dumps, clock syncs, contexts and id links: known, not shown */
      loader_warn (self, "unsupported_phase", ev->offset, N_("phase %s is not imported"),
                   printable_phase (ev->ph, buf));
      break;

    default:
      loader_warn (self, "unknown_phase", ev->offset, N_("unknown phase %s; event skipped"),
                   printable_phase (ev->ph, buf));
      break;
    }
}

/* Stack frames */

static void
loader_define_frame (Loader               *self,
                     const SpsChromeValue *key,
                     const SpsChromeValue *frame)
{
  guint32 id = loader_intern_simple (self, key);
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

      object_iter_init (&iter, self, frame);
      while (object_iter_next (&iter, &k, &v))
        {
          if (sps_chrome_value_equals (&k, "name"))
            {
              has_name = v.type == SPS_CHROME_VALUE_STRING;
              if (has_name)
                name = loader_intern_simple (self, &v);
            }
          else if (sps_chrome_value_equals (&k, "category"))
            {
              if (v.type == SPS_CHROME_VALUE_STRING)
                category = loader_intern_simple (self, &v);
              else if (v.type != SPS_CHROME_VALUE_NULL)
                valid = FALSE;
            }
          else if (sps_chrome_value_equals (&k, "parent"))
            {
              has_parent = is_text (&v);
              if (has_parent)
                parent = loader_intern_simple (self, &v);
              else if (v.type != SPS_CHROME_VALUE_NULL)
                valid = FALSE;
            }
          /* A source location as a V8 call frame gives one (what convert
           * writes); an unusable one is unknown, not an invalid frame */
          else if (sps_chrome_value_equals (&k, "url"))
            location.file = v.type == SPS_CHROME_VALUE_STRING && v.len > 0 ? loader_intern_simple (self, &v) : 0;
          else if (sps_chrome_value_equals (&k, "lineNumber"))
            location.line = sps_chrome_value_to_one_based (&v);
          else if (sps_chrome_value_equals (&k, "columnNumber"))
            location.column = sps_chrome_value_to_one_based (&v);
        }
      object_iter_clear (&iter);
    }

  sps_chrome_stack_frames_define (self->frames, id, valid && has_name, name, category,
                                  &location, has_parent, parent);
}

static SpsChromeScanResult
loader_read_stack_frames (Loader           *self,
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

static void
loader_resolve_samples (Loader *self)
{
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
                                                 loader_single_frame (self, name),
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

/* The event loop */

static void
loader_on_event (const SpsChromeEvent *event,
                 gpointer              user_data)
{
  loader_dispatch (user_data, event);
}

static gboolean
loader_on_tick (gsize    offset,
                gpointer user_data)
{
  Loader *self = user_data;

  if (self->progress == NULL)
    return TRUE;
  if (sps_progress_is_cancelled (self->progress))
    return FALSE;
  sps_progress_set_fraction (self->progress, (double) offset / (double) MAX (self->len, 1));
  return TRUE;
}

/* Reads the events of the array the scanner just entered. Returns END when
 * the array closed, EOF when the input ended, ERROR with @error set. */
static SpsChromeScanResult
loader_read_events (Loader           *self,
                    SpsChromeScanner *scanner,
                    GError          **error)
{
  SpsChromeScanResult r;

  r = sps_chrome_read_events (scanner, self->n_threads, loader_on_event, loader_on_tick, self);
  if (r == SPS_CHROME_SCAN_STOPPED)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
      return SPS_CHROME_SCAN_ERROR;
    }
  if (r == SPS_CHROME_SCAN_ERROR)
    loader_fail_scan (self, scanner, error);
  return r;
}

static void
loader_add_metadata_value (Loader               *self,
                           const SpsChromeValue *key,
                           const SpsChromeValue *value)
{
  const char *start = value->ptr;
  gsize len = value->len;

  /* The reference spans the JSON text of the value, quotes included */
  if (value->type == SPS_CHROME_VALUE_STRING)
    {
      start--;
      len += 2;
    }

  g_string_truncate (self->scratch, 0);
  loader_append_text (self, self->scratch, key);
  sps_trace_builder_add_metadata (self->builder, self->scratch->str,
                                  sps_args_ref_new (FALSE, offset_of (self, start), len));
}

static void
loader_warn_truncated (Loader           *self,
                       SpsChromeScanner *scanner)
{
  if (self->gzip_limited)
    return;   /* the decompressed_size_limit warning says why it ends */
  if (scanner->eof_inside)
    loader_warn (self, "truncated", sps_chrome_scanner_get_offset (scanner),
                 /* Translators: %zu is the size of the file in bytes */
                 N_("the file ends (at byte %zu) inside the value that starts here; "
                    "the complete events before it were kept"), self->len);
  else if (self->gzip_truncated)
    loader_warn (self, "truncated", self->len,
                 N_("the compressed data ends early; every complete event was kept"));
  else
    loader_warn (self, "truncated", self->len,
                 N_("the file ends before the trace is closed; every event was kept"));
}

static gboolean
loader_run (Loader  *self,
            GError **error)
{
  SpsChromeScanner scanner;
  SpsChromeScanResult r;
  char open_char;
  gboolean ret = FALSE;
  const SpsChromeReadContext read_context = {
    self->builder, self->interner, self->base, self->ns, loader_warn_message, self,
  };

  sps_chrome_scanner_init (&scanner, self->base, self->len, self->ns);
  self->profiles = sps_chrome_cpu_profiles_new (&read_context);
  self->top_samples = sps_chrome_top_samples_new (&read_context);

  r = sps_chrome_scanner_begin_document (&scanner, &open_char);
  if (r == SPS_CHROME_SCAN_EOF)
    {
      loader_fail (self, error, SPS_IMPORT_ERROR_MALFORMED, sps_chrome_scanner_get_offset (&scanner),
                   _("the file holds no JSON"));
      goto out;
    }
  if (r == SPS_CHROME_SCAN_ERROR)
    {
      loader_fail_scan (self, &scanner, error);
      goto out;
    }

  if (open_char == '[')
    {
      r = loader_read_events (self, &scanner, error);
      if (r == SPS_CHROME_SCAN_ERROR)
        goto out;
      if (r == SPS_CHROME_SCAN_EOF)
        {
          /* A missing final `]` (after the last event, with or without a
           * comma) is how several producers end the array form. */
          if (scanner.eof_inside || self->gzip_truncated)
            loader_warn_truncated (self, &scanner);
        }
      else if (sps_chrome_scanner_finish_document (&scanner) != SPS_CHROME_SCAN_OK)
        {
          loader_fail_scan (self, &scanner, error);
          goto out;
        }
    }
  else
    {
      SpsChromeValue key;
      SpsChromeValue value;

      while ((r = sps_chrome_scanner_next_member (&scanner, &key)) == SPS_CHROME_SCAN_OK)
        {
          if (sps_chrome_value_equals (&key, "traceEvents") ||
              (sps_chrome_value_equals (&key, "systemTraceEvents") &&
               sps_chrome_scanner_peek (&scanner) == '['))
            {
              if (sps_chrome_scanner_peek (&scanner) == '[')
                {
                  if ((r = sps_chrome_scanner_enter (&scanner, '[')) != SPS_CHROME_SCAN_OK)
                    break;
                  r = loader_read_events (self, &scanner, error);
                  if (r == SPS_CHROME_SCAN_ERROR)
                    goto out;
                  if (r != SPS_CHROME_SCAN_END)
                    break;
                  continue;
                }
              if ((r = sps_chrome_scanner_read_value (&scanner, &value)) != SPS_CHROME_SCAN_OK)
                break;
              loader_warn (self, "invalid_trace_events", offset_of (self, value.ptr),
                           N_("traceEvents is not an array; ignored"));
            }
          else if (sps_chrome_value_equals (&key, "stackFrames") &&
                   sps_chrome_scanner_peek (&scanner) == '{')
            {
              if ((r = loader_read_stack_frames (self, &scanner)) != SPS_CHROME_SCAN_OK)
                break;
            }
          else if (sps_chrome_value_equals (&key, "samples") &&
                   sps_chrome_scanner_peek (&scanner) == '[')
            {
              if ((r = sps_chrome_top_samples_read (self->top_samples, &scanner)) != SPS_CHROME_SCAN_OK)
                break;
            }
          else if (sps_chrome_value_equals (&key, "displayTimeUnit"))
            {
              if ((r = sps_chrome_scanner_read_value (&scanner, &value)) != SPS_CHROME_SCAN_OK)
                break;
              if (value.type == SPS_CHROME_VALUE_STRING)
                {
                  g_string_truncate (self->scratch, 0);
                  loader_append_text (self, self->scratch, &value);
                  sps_trace_builder_set_display_time_unit (self->builder, self->scratch->str);
                }
            }
          else
            {
              /* Everything else is kept, unparsed, as trace metadata */
              if ((r = sps_chrome_scanner_read_value (&scanner, &value)) != SPS_CHROME_SCAN_OK)
                break;
              loader_add_metadata_value (self, &key, &value);
            }
        }

      if (r == SPS_CHROME_SCAN_ERROR)
        {
          loader_fail_scan (self, &scanner, error);
          goto out;
        }
      if (r == SPS_CHROME_SCAN_EOF)
        loader_warn_truncated (self, &scanner);
      else if (sps_chrome_scanner_finish_document (&scanner) != SPS_CHROME_SCAN_OK)
        {
          loader_fail_scan (self, &scanner, error);
          goto out;
        }
      else if (self->gzip_truncated)
        loader_warn_truncated (self, &scanner);
    }

  ret = TRUE;

out:
  /* Samples read before an error stay valid, so they get their stacks too */
  loader_resolve_samples (self);
  sps_chrome_cpu_profiles_finish (self->profiles);
  sps_chrome_top_samples_finish (self->top_samples, self->frames);
  for (guint n = sps_chrome_stack_frames_resolve_slices (self->frames, self->builder); n > 0; n--)
    sps_trace_builder_warn (self->builder, "unresolved_slice_stack",
                            /* Translators: the file name; keep “%s: ” first */
                            N_("%s: the stack (sf or esf) of a slice cannot be resolved; "
                               "the slice is kept without it"), self->display_name);
  sps_chrome_scanner_clear (&scanner);
  return ret;
}

static void
loader_init (Loader          *self,
             GFile           *file,
             SpsTraceBuilder *builder,
             SpsProgress     *progress,
             gboolean         ns)
{
  memset (self, 0, sizeof *self);
  self->builder = builder;
  self->strings = sps_trace_builder_get_strings (builder);
  self->progress = progress;
  self->interner = sps_chrome_interner_new (self->strings);
  self->frames = sps_chrome_stack_frames_new ();
  self->scratch = g_string_new (NULL);
  self->display_name = dup_display_name (file);
  self->ns = ns;
  /* This thread and one worker scan chunks, and this thread also feeds
   * the builder in order; more workers would only wait for it. */
  self->n_threads = MIN (g_get_num_processors (), 2);
  self->synthetic_pids = g_hash_table_new (NULL, NULL);
  self->synthetic_tids = g_hash_table_new (NULL, NULL);
  self->named_threads = g_hash_table_new (NULL, NULL);
  self->pending_samples = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->warned = g_hash_table_new (g_str_hash, g_str_equal);
  self->loc_line = 1;
}

static void
loader_clear (Loader *self)
{
  g_clear_pointer (&self->interner, sps_chrome_interner_free);
  g_clear_pointer (&self->frames, sps_chrome_stack_frames_free);
  g_clear_pointer (&self->profiles, sps_chrome_cpu_profiles_free);
  g_clear_pointer (&self->top_samples, sps_chrome_top_samples_free);
  g_string_free (self->scratch, TRUE);
  g_free (self->display_name);
  g_hash_table_unref (self->synthetic_pids);
  g_hash_table_unref (self->synthetic_tids);
  g_hash_table_unref (self->named_threads);
  g_array_unref (self->pending_samples);
  g_hash_table_unref (self->warned);
}

/* Input */

static gboolean
contains (const char *text,
          gsize       len,
          const char *needle)
{
  gsize n = strlen (needle);
  const char *end = text + len;
  const char *p = text;

  while ((gsize) (end - p) >= n)
    {
      p = memchr (p, needle[0], (gsize) (end - p) - n + 1);
      if (p == NULL)
        return FALSE;
      if (memcmp (p, needle, n) == 0)
        return TRUE;
      p++;
    }
  return FALSE;
}

static guint
probe_text (const char *text,
            gsize       len)
{
  const char *p = text;
  const char *end = text + len;

  if (len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  if (p >= end)
    return 0;

  if (*p == '{')
    {
      if (contains (p, (gsize) (end - p), "\"traceEvents\""))
        return 90;
      if (contains (p, (gsize) (end - p), "\"ph\""))
        return 40;
      return 10;
    }

  if (*p == '[')
    {
      p++;
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
      if (p >= end || *p == ']')
        return 20;
      if (*p != '{')
        return 5;
      if (contains (p, (gsize) (end - p), "\"ph\""))
        return 90;
      return 20;
    }

  return 0;
}

/* SpsImporter */

static const char *
sps_chrome_importer_get_name (SpsImporter *importer)
{
  return "chrome-json";
}

static guint
sps_chrome_importer_probe (SpsImporter *importer,
                           GFile       *file,
                           GBytes      *head)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);

  g_assert (SPS_IS_CHROME_IMPORTER (importer));

  if (data == NULL || len == 0)
    return 0;

  if (sps_chrome_gzip_has_magic (data, len))
    {
      char buf[16384];
      gsize n = sps_chrome_gunzip_head (data, len, buf, sizeof buf);

      /* Nothing decompresses: a damaged file, which only the load can
       * explain, so claim it weakly. */
      if (n == 0)
        return 5;
      return probe_text (buf, n);
    }

  return probe_text ((const char *) data, len);
}

static gboolean
sps_chrome_importer_load (SpsImporter      *importer,
                          GFile            *file,
                          GVariant         *options,
                          SpsTraceBuilder  *builder,
                          SpsProgress      *progress,
                          GError          **error)
{
  g_autoptr(GBytes) mapped = NULL;
  g_autoptr(GBytes) text = NULL;
  g_autofree char *unit = NULL;
  Loader loader;
  guint threads = 0;
  gboolean gzip_truncated = FALSE;
  gboolean gzip_limited = FALSE;
  guint64 gzip_limit = sps_chrome_gzip_default_limit ();
  gboolean ret;
  gsize len;
  const guint8 *data;

  g_assert (SPS_IS_CHROME_IMPORTER (importer));
  g_assert (G_IS_FILE (file));
  g_assert (SPS_IS_TRACE_BUILDER (builder));

  if (options != NULL)
    {
      g_variant_lookup (options, "timestamp-unit", "s", &unit);
      g_variant_lookup (options, "threads", "u", &threads);
      g_variant_lookup (options, "max-decompressed-size", "t", &gzip_limit);
    }

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the file"));

  /* Read, not mapped: a file cut while being read stays valid
   * (sps_file_read()). */
  if (!(mapped = sps_file_read (file, builder, progress, error)))
    return FALSE;
  data = g_bytes_get_data (mapped, &len);

  if (sps_chrome_gzip_has_magic (data, len))
    {
      g_autoptr(GError) local_error = NULL;
      gsize error_offset = 0;

      text = sps_chrome_gunzip (data, len, gzip_limit, progress, &gzip_truncated, &gzip_limited,
                                &error_offset, &local_error);
      if (text == NULL)
        {
          g_autofree char *name = dup_display_name (file);

          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
            g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE,
                         /* Translators: a file name, a byte offset in it, then an error message */
                         _("%s (byte %zu): %s"),
                         name, error_offset, local_error->message);
          else
            {
              /* Translators: %s says what is wrong with the data */
              g_autofree char *what = g_strdup_printf (_("corrupt gzip data: %s"),
                                                       local_error->message);

              g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                           /* Translators: a file name, a byte offset in it, then an error message */
                           _("%s (byte %zu): %s"),
                           name, error_offset, what);
            }
          return FALSE;
        }
    }
  else
    text = g_bytes_ref (mapped);

  /* The decompressed text replaces the mapping; args point into it */
  g_clear_pointer (&mapped, g_bytes_unref);

  sps_trace_builder_set_source (builder, text);
  sps_trace_builder_set_format (builder, "chrome-json");

  loader_init (&loader, file, builder, progress, g_strcmp0 (unit, "ns") == 0);
  if (threads > 0)
    loader.n_threads = threads;
  loader.base = g_bytes_get_data (text, &loader.len);
  if (loader.base == NULL)
    loader.base = "";
  /* Cut at the limit: the complete events before it are kept, as for a
   * cut file, and the warning says why it ends there */
  loader.gzip_truncated = gzip_truncated || gzip_limited;
  loader.gzip_limited = gzip_limited;
  if (gzip_limited)
    {
      g_autofree char *limit_text = g_format_size_full (gzip_limit, G_FORMAT_SIZE_IEC_UNITS);

      sps_trace_builder_warn (builder, "decompressed_size_limit",
                              /* Translators: a file name, then a size ("16.0 GiB") */
                              _("%s: the decompressed data is larger than the limit of %s "
                                "(the smaller of 16 GiB and half the memory); the events in the "
                                "first %s were kept"),
                              loader.display_name, limit_text, limit_text);
    }

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Reading events"));

  ret = loader_run (&loader, error);

  sps_trace_builder_add_events_read (builder, loader.events_read);
  sps_trace_builder_add_metadata_events (builder, loader.metadata_events);
  if (ret && progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  loader_clear (&loader);
  return ret;
}

static void
sps_chrome_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_chrome_importer_get_name;
  iface->probe = sps_chrome_importer_probe;
  iface->load = sps_chrome_importer_load;
}

static void
sps_chrome_importer_class_init (SpsChromeImporterClass *klass)
{
}

static void
sps_chrome_importer_init (SpsChromeImporter *self)
{
}
