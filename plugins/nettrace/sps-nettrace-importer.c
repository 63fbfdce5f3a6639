/* sps-nettrace-importer.c: imports .NET EventPipe (.nettrace) traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-nettrace-importer.h"

/* The V4/V5 container (the one dotnet-trace and the runtime write):
 * "Nettrace", the FastSerialization signature, the Trace object at fixed
 * offsets, then block objects (MetadataBlock, StackBlock, EventBlock,
 * SPBlock) whose content is 4-byte aligned from the start of the file.
 * Blocks are decoded one at a time straight from the file's bytes; only
 * complete blocks are used, so a cut-off file keeps everything before the
 * cut. Symbols come from method events, most of them in the rundown at the
 * end of the file, so samples are added with their stacks unresolved and
 * resolved once the whole file was read. */

struct _SpsNettraceImporter
{
  GObject parent_instance;
};

static void sps_nettrace_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsNettraceImporter, sps_nettrace_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, sps_nettrace_importer_iface_init))

#define MAGIC           "Nettrace"
#define SERIALIZATION   "!FastSerialization.1"
#define TRACE_END       102          /* offset of the first block object */
#define DEPTH_CAP       100          /* EP_MAX_STACK_DEPTH of the runtime */

#define TAG_NULL        1
#define TAG_BEGIN_PRIV  5
#define TAG_END         6

#define PROVIDER_SAMPLER "Microsoft-DotNETCore-SampleProfiler"
#define PROVIDER_RUNTIME "Microsoft-Windows-DotNETRuntime"
#define PROVIDER_RUNDOWN "Microsoft-Windows-DotNETRuntimeRundown"
#define PROVIDER_PIPE    "Microsoft-DotNETCore-EventPipe"

typedef enum
{
  EVENT_OTHER,
  EVENT_SAMPLE,
  EVENT_METHOD,           /* MethodLoadVerbose, MethodDCStart/EndVerbose, MethodUnloadVerbose */
  EVENT_MODULE,           /* ModuleLoad, ModuleDCStart/End */
  EVENT_DOMAIN_MODULE,    /* DomainModuleLoad, DomainModuleDCStart/End: an extra AppDomainID */
  EVENT_PROCESS_INFO,     /* EventPipe ProcessInfo: the command line first */
  EVENT_RUNTIME_INFO,     /* RuntimeInformationDCStart: the command line at byte 25 */
} EventKind;

typedef struct
{
  guint64 start;
  guint64 module_id;
  guint32 size;
  guint32 name;           /* "Namespace.Method(params)" */
} Method;

typedef struct
{
  guint32 metadata_id;
  guint32 sequence;
  guint64 capture_thread;
  guint32 processor;
  guint64 thread;
  guint32 stack_id;
  guint64 timestamp;
  guint32 payload_size;
} EventHeader;

typedef struct
{
  SpsTraceBuilder *builder;
  SpsProgress     *progress;
  char            *display_name;
  const guint8    *data;
  gsize            len;

  /* Trace object */
  gint64           sync_qpc;
  gint64           qpc_frequency;
  guint            pointer_size;
  gint64           pid;
  guint32          process;

  /* Metadata id → EventKind (0 = unknown id) */
  GArray          *kinds;            /* guint8 */

  /* Distinct stacks (IPs leaf first) over the whole file */
  GArray          *ips;              /* guint64 */
  GArray          *stack_start;      /* guint32 into ips */
  GArray          *stack_len;        /* guint32 */
  guint32         *stack_slots;      /* open addressing: stack + 1, 0 empty */
  guint            n_stack_slots;

  /* Stack id of the current sequence point region → distinct stack */
  GArray          *region_stacks;    /* guint32, index = id */

  /* Samples added to the builder, with their distinct stack */
  guint32          first_sample;
  GArray          *sample_stacks;    /* guint32 */

  /* Stacks as deep as the cap, left to the repair (frames root first) */
  gboolean         defer_cut_stacks;
  GArray          *deferred_frames;  /* guint32 */
  GArray          *deferred_start;   /* guint32 */
  GArray          *deferred_len;     /* guint32 */
  guint32         *row_stack;        /* builder sample row → deferred stack */
  guint            n_rows;

  GArray          *methods;          /* Method */
  GHashTable      *modules;          /* module id (guint64 *) → string id */

  char            *command_line;     /* from ProcessInfo, else the runtime's */
  gboolean         command_line_from_process_info;

  guint32          name_managed;
  guint32          name_external;
  guint32          name_error;

  guint64          events;
  guint64          metadata_events;
  guint            n_sequence_points;
} Loader;

static guint64 *
new_u64 (guint64 v)
{
  guint64 *p = g_new (guint64, 1);

  *p = v;
  return p;
}

static gboolean
fail (Loader          *self,
      GError         **error,
      SpsImportError   code,
      gsize            offset,
      const char      *message)
{
  /* Translators: a file name, a byte offset in it, then what is wrong there */
  g_set_error (error, SPS_IMPORT_ERROR, code, _("%s (byte %zu): %s"),
               self->display_name, offset, message);
  return FALSE;
}

static void
warn (Loader     *self,
      const char *name,
      gsize       offset,
      const char *message)
{
  /* Translators: a file name, a byte offset in it, then what is wrong there */
  sps_trace_builder_warn (self->builder, name, _("%s (byte %zu): %s"),
                          self->display_name, offset, message);
}

static inline guint32
read_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline guint64
read_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint16
read_u16 (const guint8 *p)
{
  guint16 v;

  memcpy (&v, p, 2);
  return GUINT16_FROM_LE (v);
}

/* Unsigned LEB128 of at most @max_bytes bytes */
static inline gboolean
read_varint (const guint8 **pos,
             const guint8  *end,
             guint          max_bytes,
             guint64       *value)
{
  const guint8 *p = *pos;
  guint64 v = 0;
  guint shift = 0;

  for (guint i = 0; i < max_bytes; i++)
    {
      if (p >= end)
        return FALSE;
      v |= (guint64) (*p & 0x7f) << shift;
      if ((*p++ & 0x80) == 0)
        {
          *value = v;
          *pos = p;
          return TRUE;
        }
      shift += 7;
    }

  return FALSE;
}

/* Reads a UTF-16Z string at *@pos (unaligned) into UTF-8; advances past
 * the terminator. */
static char *
read_utf16z (const guint8 **pos,
             const guint8  *end)
{
  const guint8 *p = *pos;
  const guint8 *q = p;
  g_autofree gunichar2 *units = NULL;
  gsize n;

  while (q + 1 < end && (q[0] != 0 || q[1] != 0))
    q += 2;
  if (q + 1 >= end)
    return NULL;

  n = (gsize) (q - p) / 2;
  units = g_new (gunichar2, n + 1);
  for (gsize i = 0; i < n; i++)
    units[i] = read_u16 (p + 2 * i);
  units[n] = 0;
  *pos = q + 2;

  return g_utf16_to_utf8 (units, (glong) n, NULL, NULL, NULL);
}

/* Times of the model stay within ±2^62 ns (±146 years) so that the
 * difference of any two of them is representable. */
#define TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

/* @ticks as nanoseconds since the sync point, in 128 bits (ticks × 10⁹
 * overflows 64 bits after a few seconds at a 1 GHz clock, and a crafted
 * frequency or timestamp anywhere). FALSE when the time is out of range:
 * the event is dropped and counted as a warning. */
static gboolean
ticks_to_ns (Loader  *self,
             guint64  ticks,
             SpsTime *ns)
{
  __int128 delta = (__int128) ticks - (__int128) self->sync_qpc;
  __int128 t = delta * 1000000000 / self->qpc_frequency;

  if (t < -TIME_LIMIT || t > TIME_LIMIT)
    return FALSE;
  *ns = (SpsTime) t;
  return TRUE;
}

static void
set_kind (Loader   *self,
          guint32   metadata_id,
          EventKind kind)
{
  if (metadata_id >= self->kinds->len)
    g_array_set_size (self->kinds, metadata_id + 1);
  g_array_index (self->kinds, guint8, metadata_id) = kind;
}

static EventKind
classify (const char *provider,
          gint32      event_id)
{
  if (g_strcmp0 (provider, PROVIDER_SAMPLER) == 0 && event_id == 0)
    return EVENT_SAMPLE;

  if (g_strcmp0 (provider, PROVIDER_PIPE) == 0 && event_id == 1)
    return EVENT_PROCESS_INFO;

  if (g_strcmp0 (provider, PROVIDER_RUNTIME) == 0)
    {
      if (event_id == 143 || event_id == 144)
        return EVENT_METHOD;
      if (event_id == 152)
        return EVENT_MODULE;
      if (event_id == 151)
        return EVENT_DOMAIN_MODULE;
    }

  if (g_strcmp0 (provider, PROVIDER_RUNDOWN) == 0)
    {
      /* The same ids mean other events than in the runtime provider */
      if (event_id == 143 || event_id == 144)
        return EVENT_METHOD;
      if (event_id == 153 || event_id == 154)
        return EVENT_MODULE;
      if (event_id == 151 || event_id == 152)
        return EVENT_DOMAIN_MODULE;
      if (event_id == 187)
        return EVENT_RUNTIME_INFO;
    }

  return EVENT_OTHER;
}

static void
parse_metadata (Loader       *self,
                const guint8 *p,
                const guint8 *end)
{
  g_autofree char *provider = NULL;
  guint32 metadata_id;
  gint32 event_id;

  if (end - p < 4)
    return;
  metadata_id = read_u32 (p);
  p += 4;
  if (!(provider = read_utf16z (&p, end)) || end - p < 4)
    return;
  event_id = (gint32) read_u32 (p);
  p += 4;

  self->metadata_events++;
  /* Ids are dense from 1, and each metadata event takes far more than a
   * byte of the file: a larger id would only size the kind map */
  if (metadata_id == 0 || metadata_id > MIN (1u << 24, self->len))
    return;
  set_kind (self, metadata_id, classify (provider, event_id));
}

static void
parse_method (Loader       *self,
              const guint8 *p,
              const guint8 *end)
{
  g_autofree char *ns = NULL;
  g_autofree char *name = NULL;
  g_autofree char *signature = NULL;
  g_autoptr(GString) full = NULL;
  const char *params;
  Method method;

  if (end - p < 36)
    return;

  method.module_id = read_u64 (p + 8);
  method.start = read_u64 (p + 16);
  method.size = read_u32 (p + 24);
  p += 36;
  if (!(ns = read_utf16z (&p, end)) || !(name = read_utf16z (&p, end)) ||
      !(signature = read_utf16z (&p, end)))
    return;

  full = g_string_new (ns);
  if (full->len > 0)
    g_string_append_c (full, '.');
  g_string_append (full, name);
  /* The signature as TraceEvent shows it: from its parameter list on */
  if ((params = strchr (signature, '(')) != NULL)
    g_string_append (full, params);

  method.name = sps_trace_builder_intern (self->builder, full->str, (gssize) full->len);
  g_array_append_val (self->methods, method);
}

static void
parse_module (Loader       *self,
              const guint8 *p,
              const guint8 *end,
              gboolean      domain)
{
  g_autofree char *il_path = NULL;
  g_autofree char *native_path = NULL;
  g_autofree char *base = NULL;
  const char *path;
  guint64 module_id;
  char *dot;
  gsize skip = domain ? 32 : 24;

  if ((gsize) (end - p) < skip)
    return;
  module_id = read_u64 (p);
  p += skip;
  if (!(il_path = read_utf16z (&p, end)))
    return;
  native_path = read_utf16z (&p, end);

  path = il_path[0] != '\0' ? il_path : native_path;
  if (path == NULL || path[0] == '\0')
    return;

  /* Windows paths in traces from Windows use backslashes */
  base = g_strdup (MAX (strrchr (path, '/'), strrchr (path, '\\')) != NULL ?
                   MAX (strrchr (path, '/'), strrchr (path, '\\')) + 1 : path);
  if ((dot = strrchr (base, '.')) != NULL && dot != base)
    *dot = '\0';

  g_hash_table_insert (self->modules, new_u64 (module_id),
                       GUINT_TO_POINTER (sps_trace_builder_intern (self->builder, base, -1)));
}

static void
parse_command_line (Loader       *self,
                    const guint8 *p,
                    const guint8 *end,
                    gboolean      process_info)
{
  char *line;

  if (self->command_line_from_process_info && !process_info)
    return;
  if (!process_info)
    {
      /* ClrInstanceID, Sku, 4 + 4 version numbers, StartupFlags, StartupMode */
      if (end - p < 25)
        return;
      p += 25;
    }
  if (!(line = read_utf16z (&p, end)) || line[0] == '\0')
    {
      g_free (line);
      return;
    }
  g_free (self->command_line);
  self->command_line = line;
  self->command_line_from_process_info = process_info;
}

/* The process's name: its command line with every path reduced to its
 * last component ("dotnet RobotCleaner.dll"); the whole line goes to the
 * trace's metadata */
static void
name_process (Loader *self)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new (NULL);
  g_auto(GStrv) tokens = NULL;

  if (self->command_line == NULL || !g_utf8_validate (self->command_line, -1, NULL))
    return;

  sps_json_append_string (json, self->command_line, -1);
  sps_trace_builder_add_metadata (self->builder, "command-line",
                                  sps_trace_builder_add_args_text (self->builder, json->str, (gssize) json->len));

  tokens = g_strsplit (self->command_line, " ", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      char *token = g_strstrip (g_strdelimit (tokens[i], "\"", ' '));
      const char *slash = MAX (strrchr (token, '/'), strrchr (token, '\\'));

      if (token[0] == '\0')
        continue;
      if (name->len > 0)
        g_string_append_c (name, ' ');
      g_string_append (name, slash != NULL && slash[1] != '\0' ? slash + 1 : token);
    }
  if (name->len == 0 || name->len > 200)
    return;

  sps_trace_builder_set_process_name (self->builder, self->process,
                                      sps_trace_builder_intern (self->builder, name->str, (gssize) name->len));
}

static guint32
hash_stack (const guint64 *ips,
            guint          n)
{
  guint64 h = 0x9e3779b97f4a7c15ull ^ n;

  for (guint i = 0; i < n; i++)
    {
      h ^= ips[i];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }

  return (guint32) h;
}

static void
grow_stack_slots (Loader *self)
{
  guint n_slots = MAX (self->n_stack_slots * 2, 1024);
  guint32 *slots = g_new0 (guint32, n_slots);

  for (guint s = 0; s < self->n_stack_slots; s++)
    {
      guint32 stack = self->stack_slots[s];
      guint slot;

      if (stack == 0)
        continue;
      slot = hash_stack (&g_array_index (self->ips, guint64, g_array_index (self->stack_start, guint32, stack - 1)),
                         g_array_index (self->stack_len, guint32, stack - 1)) & (n_slots - 1);
      while (slots[slot] != 0)
        slot = (slot + 1) & (n_slots - 1);
      slots[slot] = stack;
    }

  g_free (self->stack_slots);
  self->stack_slots = slots;
  self->n_stack_slots = n_slots;
}

/* The distinct stack of @n IPs read from @p */
static guint32
intern_stack (Loader       *self,
              const guint8 *p,
              guint         n)
{
  g_autofree guint64 *ips = g_new (guint64, MAX (n, 1));
  guint32 start;
  guint32 stack;
  guint slot;

  for (guint i = 0; i < n; i++)
    ips[i] = self->pointer_size == 8 ? read_u64 (p + 8 * i) : read_u32 (p + 4 * i);

  if ((self->stack_len->len + 1) * 2 > self->n_stack_slots)
    grow_stack_slots (self);

  slot = hash_stack (ips, n) & (self->n_stack_slots - 1);
  while ((stack = self->stack_slots[slot]) != 0)
    {
      if (g_array_index (self->stack_len, guint32, stack - 1) == n &&
          memcmp (&g_array_index (self->ips, guint64, g_array_index (self->stack_start, guint32, stack - 1)),
                  ips, n * sizeof (guint64)) == 0)
        return stack - 1;
      slot = (slot + 1) & (self->n_stack_slots - 1);
    }

  start = self->ips->len;
  g_array_append_vals (self->ips, ips, n);
  g_array_append_val (self->stack_start, start);
  g_array_append_val (self->stack_len, n);
  stack = self->stack_len->len;
  self->stack_slots[slot] = stack;

  return stack - 1;
}

static gboolean
parse_stack_block (Loader       *self,
                   const guint8 *p,
                   const guint8 *end,
                   gsize         offset,
                   GError      **error)
{
  const guint8 *begin = p;
  guint32 first_id;
  guint32 count;

  if (end - p < 8)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset, _("stack block too short"));
  first_id = read_u32 (p);
  count = read_u32 (p + 4);
  p += 8;
  /* Every stack takes at least its 4-byte size */
  if (count > (gsize) (end - p) / 4)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset + 4,
                 _("stack count larger than the block can hold"));

  for (guint32 i = 0; i < count; i++)
    {
      guint32 size;
      guint32 id = first_id + i;

      if (end - p < 4)
        return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset + (gsize) (p - begin),
                     _("stack block ends inside a stack"));
      size = read_u32 (p);
      p += 4;
      if (size > (gsize) (end - p) || size % self->pointer_size != 0)
        return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset + (gsize) (p - begin),
                     _("stack size does not fit the block or the pointer size"));

      /* Ids are dense from 1 and every stack takes 4 bytes of the
       * file: a larger id is not from a writer, and would make the id
       * map as large as the id (gigabytes, minutes of filling) */
      if (id > self->len / 4)
        warn (self, "nettrace-stack-id-out-of-range", offset + (gsize) (p - begin),
              _("stack id larger than the file can hold; the stack is ignored"));
      else
        {
          guint32 stack = intern_stack (self, p, size / self->pointer_size);

          if (id >= self->region_stacks->len)
            {
              guint old = self->region_stacks->len;

              g_array_set_size (self->region_stacks, id + 1);
              for (guint k = old; k < id; k++)
                g_array_index (self->region_stacks, guint32, k) = SPS_NO_INDEX;
            }
          g_array_index (self->region_stacks, guint32, id) = stack;
        }
      p += size;
    }

  return TRUE;
}

static void
add_sample (Loader            *self,
            const EventHeader *h,
            const guint8      *payload,
            gsize              at)
{
  guint32 thread;
  guint32 stack = SPS_NO_INDEX;
  guint32 name;
  SpsTime ts;

  switch (h->payload_size >= 4 ? read_u32 (payload) : 0)
    {
    case 1:
      name = self->name_external;
      break;
    case 2:
      name = self->name_managed;
      break;
    default:
      name = self->name_error;
      break;
    }

  if (h->stack_id < self->region_stacks->len)
    stack = g_array_index (self->region_stacks, guint32, h->stack_id);

  if (!ticks_to_ns (self, h->timestamp, &ts))
    {
      warn (self, "nettrace-time-out-of-range", at,
            _("a sample time more than 146 years from the trace start; the sample is dropped"));
      return;
    }
  thread = sps_trace_builder_ensure_thread (self->builder, self->process, (gint64) h->thread);
  sps_trace_builder_add_sample (self->builder, thread, ts, name,
                                SPS_NO_INDEX, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  g_array_append_val (self->sample_stacks, stack);
}

static gboolean
parse_event_block (Loader       *self,
                   const guint8 *p,
                   const guint8 *end,
                   gsize         offset,
                   gboolean      metadata,
                   GError      **error)
{
  const guint8 *begin = p;
  EventHeader h = { 0, };
  guint16 header_size;
  guint16 flags;
  gboolean compressed;

  if (end - p < 20)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset, _("block header too short"));
  header_size = read_u16 (p);
  flags = read_u16 (p + 2);
  if (header_size < 20 || header_size > end - p)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset, _("invalid block header size"));
  compressed = (flags & 1) != 0;
  p += header_size;

  while (p < end)
    {
      gsize at = offset + (gsize) (p - begin);
      const guint8 *payload;

      if (compressed)
        {
          guint8 f = *p++;
          guint64 v;

          /* The header only holds what changed since the previous one */
          if ((f & 0x01) && !read_varint (&p, end, 5, &v))
            goto bad_header;
          if (f & 0x01)
            h.metadata_id = (guint32) v;
          if (f & 0x02)
            {
              guint64 d, c, n;

              if (!read_varint (&p, end, 5, &d) || !read_varint (&p, end, 10, &c) ||
                  !read_varint (&p, end, 5, &n))
                goto bad_header;
              h.sequence += (guint32) d + 1;
              h.capture_thread = c;
              h.processor = (guint32) n;
            }
          else if (h.metadata_id != 0)
            h.sequence++;
          if (f & 0x04)
            {
              if (!read_varint (&p, end, 10, &v))
                goto bad_header;
              h.thread = v;
            }
          if (f & 0x08)
            {
              if (!read_varint (&p, end, 5, &v))
                goto bad_header;
              h.stack_id = (guint32) v;
            }
          if (!read_varint (&p, end, 10, &v))
            goto bad_header;
          /* Deltas wrap modulo 2⁶⁴: events of several capture threads mix */
          h.timestamp += v;
          if (f & 0x10)
            p += 16;
          if (f & 0x20)
            p += 16;
          if (p > end)
            goto bad_header;
          if (f & 0x80)
            {
              if (!read_varint (&p, end, 5, &v))
                goto bad_header;
              h.payload_size = (guint32) v;
            }
          payload = p;
          if (h.payload_size > (gsize) (end - p))
            return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, at, _("event payload runs past its block"));
          p += h.payload_size;
        }
      else
        {
          guint32 event_size;

          if (end - p < 80)
            goto bad_header;
          event_size = read_u32 (p);
          h.metadata_id = read_u32 (p + 4) & 0x7fffffff;
          h.sequence = read_u32 (p + 8);
          h.thread = read_u64 (p + 12);
          h.capture_thread = read_u64 (p + 20);
          h.processor = read_u32 (p + 28);
          h.stack_id = read_u32 (p + 32);
          h.timestamp = read_u64 (p + 36);
          h.payload_size = read_u32 (p + 76);
          payload = p + 80;
          if (event_size < 76 || event_size > (gsize) (end - p) - 4 || h.payload_size > event_size - 76)
            return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, at, _("event size runs past its block"));
          p += 4 + event_size;
        }

      if (metadata)
        parse_metadata (self, payload, payload + h.payload_size);
      else
        {
          EventKind kind = h.metadata_id < self->kinds->len ?
                           g_array_index (self->kinds, guint8, h.metadata_id) : EVENT_OTHER;

          self->events++;
          switch (kind)
            {
            case EVENT_SAMPLE:
              add_sample (self, &h, payload, at);
              break;
            case EVENT_METHOD:
              parse_method (self, payload, payload + h.payload_size);
              break;
            case EVENT_MODULE:
              parse_module (self, payload, payload + h.payload_size, FALSE);
              break;
            case EVENT_DOMAIN_MODULE:
              parse_module (self, payload, payload + h.payload_size, TRUE);
              break;
            case EVENT_PROCESS_INFO:
              parse_command_line (self, payload, payload + h.payload_size, TRUE);
              break;
            case EVENT_RUNTIME_INFO:
              parse_command_line (self, payload, payload + h.payload_size, FALSE);
              break;
            case EVENT_OTHER:
            default:
              break;
            }
        }
      continue;

    bad_header:
      return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, at, _("invalid event header"));
    }

  return TRUE;
}

static void
parse_sequence_point (Loader *self)
{
  /* Stack ids restart after every sequence point */
  g_array_set_size (self->region_stacks, 0);
  self->n_sequence_points++;
}

typedef enum
{
  BLOCK_OK,
  BLOCK_END,          /* the end-of-stream tag */
  BLOCK_EOF,          /* the file ends at an object boundary */
  BLOCK_CUT,          /* the file ends inside a block */
  BLOCK_ERROR,
} BlockResult;

static BlockResult
parse_block (Loader  *self,
             gsize   *offset,
             GError **error)
{
  const guint8 *d = self->data;
  gsize o = *offset;
  gsize name_len;
  gsize size;
  gsize content;
  const char *name;

  if (o >= self->len)
    return BLOCK_EOF;
  if (d[o] == TAG_NULL)
    return BLOCK_END;

  if (self->len - o < 15)
    return BLOCK_CUT;
  if (d[o] != TAG_BEGIN_PRIV || d[o + 1] != TAG_BEGIN_PRIV || d[o + 2] != TAG_NULL)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o, _("expected the start of a block object"));
      return BLOCK_ERROR;
    }
  name_len = read_u32 (d + o + 11);
  if (name_len > 64)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o + 11, _("invalid block type name"));
      return BLOCK_ERROR;
    }
  if (self->len - o < 15 + name_len + 5)
    return BLOCK_CUT;
  name = (const char *) d + o + 15;
  if (d[o + 15 + name_len] != TAG_END)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o + 15 + name_len, _("invalid block type object"));
      return BLOCK_ERROR;
    }
  size = read_u32 (d + o + 15 + name_len + 1);
  content = o + 15 + name_len + 5;
  /* Aligned from the start of the file, not of the block */
  content = (content + 3) & ~(gsize) 3;
  if (content > self->len || self->len - content < size + 1)
    return BLOCK_CUT;
  if (d[content + size] != TAG_END)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, content + size, _("block does not end with an end tag"));
      return BLOCK_ERROR;
    }

#define IS_BLOCK(n) (name_len == strlen (n) && memcmp (name, n, name_len) == 0)
  if (IS_BLOCK ("EventBlock"))
    {
      if (!parse_event_block (self, d + content, d + content + size, content, FALSE, error))
        return BLOCK_ERROR;
    }
  else if (IS_BLOCK ("MetadataBlock"))
    {
      if (!parse_event_block (self, d + content, d + content + size, content, TRUE, error))
        return BLOCK_ERROR;
    }
  else if (IS_BLOCK ("StackBlock"))
    {
      if (!parse_stack_block (self, d + content, d + content + size, content, error))
        return BLOCK_ERROR;
    }
  else if (IS_BLOCK ("SPBlock"))
    parse_sequence_point (self);
  else
    {
      g_autofree char *type = g_strndup (name, name_len);
      /* Translators: %s is a block type name from the file */
      g_autofree char *message = g_strdup_printf (_("unknown block type “%s”"), type);

      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o + 15, message);
      return BLOCK_ERROR;
    }
#undef IS_BLOCK

  *offset = content + size + 1;
  return BLOCK_OK;
}

static gboolean
parse_header (Loader  *self,
              GError **error)
{
  const guint8 *d = self->data;

  if (self->len >= 24 && read_u32 (d) == 20 && memcmp (d + 4, SERIALIZATION, 20) == 0)
    return fail (self, error, SPS_IMPORT_ERROR_UNSUPPORTED, 0,
                 _("this is the NetPerf format of .NET Core 2.x (EventPipe versions 1–3), which is not "
                   "supported; record the trace again with .NET Core 3.0 or later"));

  if (self->len < 8 || memcmp (d, MAGIC, 8) != 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 0, _("not a .nettrace file (no “Nettrace” signature)"));

  if (self->len >= 12 && read_u32 (d + 8) == 0)
    return fail (self, error, SPS_IMPORT_ERROR_UNSUPPORTED, 8,
                 _("the NetTrace version 6 block layout is not supported, only versions 4 and 5"));

  if (self->len < TRACE_END)
    return fail (self, error, SPS_IMPORT_ERROR_TRUNCATED, self->len, _("the file ends inside its header"));

  if (read_u32 (d + 8) != 20 || memcmp (d + 12, SERIALIZATION, 20) != 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 8, _("missing the FastSerialization signature"));

  if (d[32] != TAG_BEGIN_PRIV || d[33] != TAG_BEGIN_PRIV || d[34] != TAG_NULL ||
      read_u32 (d + 43) != 5 || memcmp (d + 47, "Trace", 5) != 0 || d[52] != TAG_END || d[101] != TAG_END)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 32, _("invalid Trace object"));

  if ((gint32) read_u32 (d + 35) < 4)
    return fail (self, error, SPS_IMPORT_ERROR_UNSUPPORTED, 35,
                 _("Trace object versions below 4 (NetPerf) are not supported"));

  self->sync_qpc = (gint64) read_u64 (d + 69);
  self->qpc_frequency = (gint64) read_u64 (d + 77);
  self->pointer_size = read_u32 (d + 85);
  self->pid = (gint32) read_u32 (d + 89);

  if (self->qpc_frequency <= 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 77, _("invalid clock frequency"));
  if (self->pointer_size != 4 && self->pointer_size != 8)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 85, _("invalid pointer size"));

  return TRUE;
}

static void
add_trace_metadata (Loader *self)
{
  const guint8 *d = self->data;
  g_autofree char *sync = NULL;
  g_autofree char *text = NULL;

  /* SyncTimeUTC is a SYSTEMTIME: year, month, day of week, day, hour,
   * minute, second, millisecond */
  sync = g_strdup_printf ("\"%04u-%02u-%02uT%02u:%02u:%02u.%03uZ\"",
                          read_u16 (d + 53), read_u16 (d + 55), read_u16 (d + 59), read_u16 (d + 61),
                          read_u16 (d + 63), read_u16 (d + 65), read_u16 (d + 67));
  sps_trace_builder_add_metadata (self->builder, "sync-time-utc",
                                  sps_trace_builder_add_args_text (self->builder, sync, -1));

  text = g_strdup_printf ("%" G_GINT64_FORMAT, self->qpc_frequency);
  sps_trace_builder_add_metadata (self->builder, "clock-frequency",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
  g_free (text);
  text = g_strdup_printf ("%u", self->pointer_size);
  sps_trace_builder_add_metadata (self->builder, "pointer-size",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
  g_free (text);
  text = g_strdup_printf ("%u", read_u32 (d + 93));
  sps_trace_builder_add_metadata (self->builder, "processor-count",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
  g_free (text);
  /* Named a rate in the format, really the period */
  text = g_strdup_printf ("%u", read_u32 (d + 97));
  sps_trace_builder_add_metadata (self->builder, "sampling-period-ns",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
}

static int
compare_methods (gconstpointer a,
                 gconstpointer b)
{
  const Method *ma = a;
  const Method *mb = b;

  if (ma->start != mb->start)
    return ma->start < mb->start ? -1 : 1;
  return ma->size < mb->size ? -1 : (ma->size > mb->size);
}

/* The method whose code holds @ip, or -1 */
static gint
find_method (Loader  *self,
             guint64  ip)
{
  const Method *m = (const Method *) (gpointer) self->methods->data;
  guint lo = 0;
  guint hi = self->methods->len;

  /* The last method that starts at or before ip */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (m[mid].start <= ip)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return -1;

  /* Equal starts are sorted by size: walk back to one that holds ip */
  for (guint i = lo; i > 0 && m[i - 1].start == m[lo - 1].start; i--)
    if (ip - m[i - 1].start < m[i - 1].size)
      return (gint) (i - 1);

  return -1;
}

static guint32
method_frame (Loader   *self,
              guint32  *frames,
              gint      index)
{
  const Method *m = &g_array_index (self->methods, Method, index);
  g_autofree char *name = NULL;
  guint32 module = 0;
  gpointer value;

  if (frames[index] != SPS_NO_INDEX)
    return frames[index];

  if ((value = g_hash_table_lookup (self->modules, &m->module_id)) != NULL)
    module = GPOINTER_TO_UINT (value);

  name = g_strdup_printf ("%s!%s",
                          module != 0 ? sps_string_pool_get (sps_trace_builder_get_strings (self->builder),
                                                             module, NULL) : "?",
                          sps_string_pool_get (sps_trace_builder_get_strings (self->builder), m->name, NULL));
  frames[index] = sps_trace_builder_intern_frame (self->builder,
                                                  sps_trace_builder_intern (self->builder, name, -1),
                                                  0, module, m->start);

  return frames[index];
}

static guint32
unresolved_frame (Loader  *self,
                  guint64  ip)
{
  char name[32];

  g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", ip);

  return sps_trace_builder_intern_frame (self->builder, sps_trace_builder_intern (self->builder, name, -1),
                                         0, 0, ip);
}

#define N_RECENT 8

/* A direct-mapped IP → frame cache in front of the method search: a
 * program runs in few distinct IPs, each seen in many stacks. It has up
 * to 2^16 entries, fewer for a trace with fewer IPs (a small file need
 * not fill a MiB). */
#define IP_CACHE_MAX_BITS 16

typedef struct
{
  guint64 ip;
  guint32 frame;
} IpCacheEntry;

typedef struct
{
  IpCacheEntry *entries;
  guint         bits;
} IpCache;

static guint32
resolve_ip (Loader       *self,
            guint32      *frames,
            GHashTable   *unresolved,
            IpCache      *cache,
            guint64       ip)
{
  IpCacheEntry *entry = &cache->entries[(ip * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> (64 - cache->bits)];
  gint m;
  gpointer value;
  guint32 frame;

  if (entry->frame != SPS_NO_INDEX && entry->ip == ip)
    return entry->frame;

  m = find_method (self, ip);
  if (m >= 0)
    frame = method_frame (self, frames, m);
  else if ((value = g_hash_table_lookup (unresolved, &ip)) != NULL)
    frame = GPOINTER_TO_UINT (value) - 1;
  else
    {
      frame = unresolved_frame (self, ip);
      g_hash_table_insert (unresolved, new_u64 (ip), GUINT_TO_POINTER (frame + 1));
    }

  entry->ip = ip;
  entry->frame = frame;

  return frame;
}

typedef struct
{
  const guint64 *ips;       /* leaf first */
  guint          len;
  guint32       *chain;     /* callsite at each depth, root first */
} Recent;

/* Names every distinct stack's frames and gives the samples their
 * callsites. */
static void
resolve_stacks (Loader *self)
{
  guint n_stacks = self->stack_len->len;
  g_autofree guint32 *stack_callsite = g_new (guint32, MAX (n_stacks, 1));
  g_autofree guint32 *stack_deferred = g_new (guint32, MAX (n_stacks, 1));
  guint cache_bits = CLAMP (g_bit_storage (self->ips->len), 6, IP_CACHE_MAX_BITS);
  g_autofree IpCacheEntry *cache_entries = g_new (IpCacheEntry, 1u << cache_bits);
  IpCache cache_ = { cache_entries, cache_bits };
  IpCache *cache = &cache_;
  guint n_rows = sps_trace_builder_get_n_samples (self->builder);
  g_autofree guint32 *frames = NULL;
  g_autoptr(GHashTable) unresolved = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  Recent recent[N_RECENT] = { { 0, }, };
  guint next_recent = 0;

  for (guint i = 0; i < 1u << cache_bits; i++)
    cache_entries[i].frame = SPS_NO_INDEX;

  g_array_sort (self->methods, compare_methods);
  frames = g_new (guint32, MAX (self->methods->len, 1));
  for (guint i = 0; i < self->methods->len; i++)
    frames[i] = SPS_NO_INDEX;

  for (guint s = 0; s < n_stacks; s++)
    {
      const guint64 *ips = &g_array_index (self->ips, guint64, g_array_index (self->stack_start, guint32, s));
      guint n = g_array_index (self->stack_len, guint32, s);
      guint32 callsite = SPS_NO_INDEX;
      guint shared = 0;
      guint best_slot = 0;
      Recent *slot;

      /* A stack as deep as the cap may have been cut and be repaired:
       * its frames go to the repair, which interns a chain only if one
       * is needed */
      if (self->defer_cut_stacks && n == DEPTH_CAP)
        {
          guint32 start = self->deferred_frames->len;
          guint32 index = self->deferred_start->len;

          for (guint i = n; i > 0; i--)
            {
              guint32 frame = resolve_ip (self, frames, unresolved, cache, ips[i - 1]);

              g_array_append_val (self->deferred_frames, frame);
            }
          g_array_append_val (self->deferred_start, start);
          g_array_append_val (self->deferred_len, n);
          stack_callsite[s] = SPS_NO_INDEX;
          stack_deferred[s] = index;
          continue;
        }
      stack_deferred[s] = SPS_NO_INDEX;

      /* Stacks of one thread share their root part: start from the
       * recent stack with the longest common root part */
      for (guint k = 0; k < N_RECENT; k++)
        {
          const Recent *r = &recent[k];
          guint common = 0;

          while (common < n && common < r->len &&
                 ips[n - 1 - common] == r->ips[r->len - 1 - common])
            common++;
          if (common > shared)
            {
              shared = common;
              best_slot = k;
            }
        }
      if (shared > 0)
        callsite = recent[best_slot].chain[shared - 1];

      slot = &recent[next_recent];
      next_recent = (next_recent + 1) % N_RECENT;
      slot->ips = ips;
      slot->len = n;
      slot->chain = g_renew (guint32, slot->chain, MAX (n, 1));
      if (shared > 0 && slot != &recent[best_slot])
        memcpy (slot->chain, recent[best_slot].chain, shared * sizeof (guint32));

      /* Leaf first in the file; the callsite tree grows from the root */
      for (guint i = n - shared; i > 0; i--)
        {
          guint32 frame = resolve_ip (self, frames, unresolved, cache, ips[i - 1]);

          callsite = sps_trace_builder_intern_callsite (self->builder, callsite, frame);
          slot->chain[n - i] = callsite;
        }
      stack_callsite[s] = callsite;
    }

  for (guint k = 0; k < N_RECENT; k++)
    g_free (recent[k].chain);

  if (self->defer_cut_stacks)
    {
      self->row_stack = g_new (guint32, MAX (n_rows, 1));
      self->n_rows = n_rows;
      for (guint r = 0; r < n_rows; r++)
        self->row_stack[r] = SPS_NO_INDEX;
    }

  for (guint i = 0; i < self->sample_stacks->len; i++)
    {
      guint32 stack = g_array_index (self->sample_stacks, guint32, i);

      if (stack != SPS_NO_INDEX && stack_deferred[stack] != SPS_NO_INDEX)
        self->row_stack[self->first_sample + i] = stack_deferred[stack];
      else if (stack != SPS_NO_INDEX && stack_callsite[stack] != SPS_NO_INDEX)
        sps_trace_builder_set_sample_callsite (self->builder, self->first_sample + i,
                                               stack_callsite[stack], SPS_SAMPLE_NONE);
      else
        sps_trace_builder_set_sample_callsite (self->builder, self->first_sample + i,
                                               SPS_NO_INDEX, SPS_SAMPLE_UNRESOLVED);
    }
}

static void
loader_clear (Loader *self)
{
  g_clear_pointer (&self->display_name, g_free);
  g_clear_pointer (&self->command_line, g_free);
  g_clear_pointer (&self->kinds, g_array_unref);
  g_clear_pointer (&self->ips, g_array_unref);
  g_clear_pointer (&self->stack_start, g_array_unref);
  g_clear_pointer (&self->stack_len, g_array_unref);
  g_clear_pointer (&self->stack_slots, g_free);
  g_clear_pointer (&self->region_stacks, g_array_unref);
  g_clear_pointer (&self->sample_stacks, g_array_unref);
  g_clear_pointer (&self->methods, g_array_unref);
  g_clear_pointer (&self->deferred_frames, g_array_unref);
  g_clear_pointer (&self->deferred_start, g_array_unref);
  g_clear_pointer (&self->deferred_len, g_array_unref);
  g_clear_pointer (&self->row_stack, g_free);
  g_clear_pointer (&self->modules, g_hash_table_unref);
}

static char *
dup_display_name (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);

  return path != NULL ? g_filename_display_name (path) : g_file_get_uri (file);
}

static GVariant *
repair_options (GVariant *options)
{
  GVariantDict dict;
  static const char * const keys[] = { "repair", "keep-unrecoverable", "first-span", "span-filter", "keep-raw" };

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "depth-cap", "u", DEPTH_CAP);
  for (guint i = 0; options != NULL && i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr(GVariant) value = g_variant_lookup_value (options, keys[i], NULL);

      if (value != NULL)
        g_variant_dict_insert_value (&dict, keys[i], value);
    }

  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static gboolean
sps_nettrace_importer_load (SpsImporter      *importer,
                            GFile            *file,
                            GVariant         *options,
                            SpsTraceBuilder  *builder,
                            SpsProgress      *progress,
                            GError          **error)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) local_error = NULL;
  Loader self = { 0, };
  gsize offset = TRACE_END;
  gboolean ret = TRUE;
  gsize last_report = 0;

  g_assert (SPS_IS_NETTRACE_IMPORTER (importer));
  g_assert (G_IS_FILE (file));
  g_assert (SPS_IS_TRACE_BUILDER (builder));

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the file"));

  /* Read, not mapped: a file cut while being read stays valid
   * (sps_file_read()). */
  if (!(contents = sps_file_read (file, builder, progress, error)))
    return FALSE;

  self.builder = builder;
  self.progress = progress;
  self.display_name = dup_display_name (file);
  self.data = g_bytes_get_data (contents, &self.len);

  sps_trace_builder_set_format (builder, "nettrace");

  if (!parse_header (&self, error))
    {
      loader_clear (&self);
      return FALSE;
    }

  self.kinds = g_array_new (FALSE, TRUE, sizeof (guint8));
  /* Reserved, so that its data is never NULL: stacks point into it,
   * the empty ones too */
  self.ips = g_array_sized_new (FALSE, FALSE, sizeof (guint64), 256);
  self.stack_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.stack_len = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.region_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.sample_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.methods = g_array_new (FALSE, FALSE, sizeof (Method));
  self.modules = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self.process = sps_trace_builder_ensure_process (builder, self.pid);
  self.first_sample = sps_trace_builder_get_n_samples (builder);
  self.name_managed = sps_trace_builder_intern (builder, "Managed", -1);
  self.name_external = sps_trace_builder_intern (builder, "External", -1);
  self.name_error = sps_trace_builder_intern (builder, "Error", -1);
  add_trace_metadata (&self);

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Reading events"));

  for (;;)
    {
      BlockResult result;

      if (progress != NULL)
        {
          /* Blocks are at most about 100 KiB: a check per block */
          if (sps_progress_is_cancelled (progress))
            {
              g_set_error_literal (&local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
              break;
            }
          if (offset - last_report >= (1 << 20))
            {
              sps_progress_set_fraction (progress, 0.9 * (double) offset / (double) MAX (self.len, 1));
              last_report = offset;
            }
        }

      result = parse_block (&self, &offset, &local_error);
      if (result == BLOCK_OK)
        continue;

      if (result == BLOCK_EOF)
        warn (&self, "nettrace-no-end-tag", offset,
              _("the file has no end-of-stream tag (the capture was not stopped cleanly); "
                "everything up to here was read"));
      else if (result == BLOCK_CUT)
        warn (&self, "nettrace-truncated", offset,
              _("the file ends inside a block; the complete blocks before it were read"));
      break;
    }

  if (local_error != NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      loader_clear (&self);
      return FALSE;
    }

  /* Even after a format error: what was read so far stays usable; the
   * repair only runs on a complete read */
  self.defer_cut_stacks = local_error == NULL && self.sample_stacks->len > 0;
  if (self.defer_cut_stacks && options != NULL)
    g_variant_lookup (options, "repair", "b", &self.defer_cut_stacks);
  self.deferred_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.deferred_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.deferred_len = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (progress != NULL)
    {
      /* Translators: progress message while method names are matched to
       * stack addresses */
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Naming frames"));
      sps_progress_set_fraction (progress, 0.9);
    }
  resolve_stacks (&self);
  name_process (&self);
  sps_trace_builder_add_events_read (builder, self.events);
  sps_trace_builder_add_metadata_events (builder, self.metadata_events);

  if (self.sample_stacks->len == 0)
    sps_trace_builder_warn (builder, "nettrace-no-samples", "%s: %s", self.display_name,
                            _("the trace holds no CPU samples (Microsoft-DotNETCore-SampleProfiler)"));

  if (local_error == NULL && self.sample_stacks->len > 0)
    {
      g_autoptr(SpsStackRepair) repair = sps_stack_repair_new ();
      g_autoptr(GVariant) repair_opts = repair_options (options);

      if (self.defer_cut_stacks)
        sps_stack_repair_set_deferred_stacks (repair, self.n_rows, self.row_stack, self.deferred_len->len,
                                              (const guint32 *) (gpointer) self.deferred_start->data,
                                              (const guint32 *) (gpointer) self.deferred_len->data,
                                              (const guint32 *) (gpointer) self.deferred_frames->data);

      ret = sps_analysis_run (SPS_ANALYSIS (repair), builder, repair_opts, progress, &local_error);
    }

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      ret = FALSE;
    }
  else if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  loader_clear (&self);
  return ret;
}

static const char *
sps_nettrace_importer_get_name (SpsImporter *importer)
{
  return "nettrace";
}

static guint
sps_nettrace_importer_probe (SpsImporter *importer,
                             GFile       *file,
                             GBytes      *head)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);

  if (len >= 8 && memcmp (data, MAGIC, 8) == 0)
    return 100;

  /* NetPerf: claimed so that loading it says why it is not supported */
  if (len >= 24 && read_u32 (data) == 20 && memcmp (data + 4, SERIALIZATION, 20) == 0)
    return 90;

  return 0;
}

static void
sps_nettrace_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_nettrace_importer_get_name;
  iface->probe = sps_nettrace_importer_probe;
  iface->load = sps_nettrace_importer_load;
}

static void
sps_nettrace_importer_class_init (SpsNettraceImporterClass *klass)
{
}

static void
sps_nettrace_importer_init (SpsNettraceImporter *self)
{
}
