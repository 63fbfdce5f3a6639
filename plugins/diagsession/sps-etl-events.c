/* sps-etl-events.c: every ETL event kept, named as PerfView names it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each record that is not a CPU sample or a stack (those become the
 * sample table) is kept as an event: its provider's name (the kernel's
 * classic events are "Windows Kernel"; known GUIDs by name; others by
 * their GUID), `Task/Opcode` from the kernel's groups and the runtime's
 * manifest where known, else numbers, and its payload: decoded fields for
 * the kernel's process, thread and image events and the runtime's events
 * whose layout the shared manifest table has, raw bytes with their size
 * for the rest. The events
 * wait here for the session's clock (the earliest file's start) and the
 * processes of their threads, which are known only after every file.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-etl-args.h"
#include "sps-etl-event-info.h"
#include "sps-etl-events-private.h"
#include "sps-etl-fields.h"
#include "sps-etl-kernel.h"
#include "sps-etl-manifest.h"
#include "sps-etl-map.h"
#include "sps-etl-memory.h"
#include "sps-etl-private.h"
#include "sps-ms-events.h"
#include "sps-ms-memory.h"
#include "sps-ms-profiler.h"


/* The events that wait are kept in blocks that the import frees behind it
 * as it adds them to the builder (2.5 MiB each) */
#define STAGED_BLOCK_BITS 16
#define STAGED_BLOCK_SIZE (1u << STAGED_BLOCK_BITS)
#define STAGED_BLOCK_BYTES ((gsize) STAGED_BLOCK_SIZE * sizeof (SpsEtlEvent))

G_STATIC_ASSERT (sizeof (SpsEtlEvent) == 40);

static void
staged_block_free (gpointer block)
{
  sps_etl_block_free (block, STAGED_BLOCK_BYTES);
}

struct _SpsEtlEvents
{
  SpsTraceBuilder *builder;
  GPtrArray       *staged;        /* blocks of STAGED_BLOCK_SIZE SpsEtlEvent
                                   * that wait; NULL once released */
  guint            n_staged;
  guint            n_released;    /* blocks released */
  GHashTable      *providers;     /* GUID (16 bytes) → Provider */
  GPtrArray       *by_index;      /* Provider, index 0 unused */
  SpsEtlMap        names;         /* name key → string id */
  GString         *scratch;
  guint32          kernel;        /* string id of KERNEL_PROVIDER */
  SpsEtlEvent      current;       /* what sps_etl_events_add() returns */
  SpsEtlArgs      *args;          /* decodes the args when they are read */
  guint            decoder;       /* its number in the builder, 0: none */
  gboolean         deferred;      /* the current file's args are deferred */
  SpsEtlMemory    *memory;        /* the heap's events (sps-etl-memory.c) */
  char            *display_name;  /* of the file being read */
  GHashTable      *warned;        /* names of event types whose fields ran
                                   * past their payload, warned about once */
  GHashTable      *schemas;       /* TraceLogging schema (GBytes) → its
                                   * SpsEtlLayout, or NULL when malformed */
  struct _Provider *last_provider; /* of the record before: a buffer's
                                    * records run in streaks of one */
  GHashTable      *event_infos;   /* (provider GUID, id) as GBytes →
                                   * SpsEtlEventInfo, from MetaData/EventInfo */
};

/* Distinct TraceLogging schemas kept parsed; a file with more starts over */
#define MAX_SCHEMAS 4096

typedef struct _Provider
{
  guint8         guid[16];
  guint32        name;          /* string id */
  SpsMsProvider  manifest;      /* the runtime's, named from its manifest */
  gint           kernel_group;  /* a kernel classic GUID's group, else -1 */
  guint16        index;
  SpsEtlManifest *event_source;  /* an EventSource's names, once logged */
  GHashTable     *layouts;       /* its payload layouts, once logged */
  gboolean       heap_events;   /* the runtime's or the allocation tool's */
  guint8         symbol_task;   /* KernelTraceControl's, by opcode */
  gboolean       named_by_guid; /* until a manifest names it */
  guint64        name_kind;     /* its events' names' keys: 2 << 48, 6
                                 * << 48 once a manifest renamed it */
} Provider;

#define ID_MANIFEST_DATA 0xfffe

/* The names' keys: 1 << 48 and a kernel group and opcode; 2 << 48 (6 <<
 * 48 once a manifest renamed the provider) and a provider's index,
 * whether classic, id and opcode (bits 0–24), and with this bit the mark
 * that such an event is named by its id; 3, 4 and 5 << 48 and a
 * provider's index and id, named when prepared: by an EventSource's
 * manifest, by the merge's description, by id under a new name */
#define NAME_KEY_BY_ID ((guint64) 1 << 25)

/* Fields of the events decoded here */

static const SpsMsField thread_fields[] = {
  { "ProcessId", SPS_MS_TYPE_UINT32 }, { "ThreadId", SPS_MS_TYPE_UINT32 },
  { "StackBase", SPS_MS_TYPE_POINTER }, { "StackLimit", SPS_MS_TYPE_POINTER },
  { "UserStackBase", SPS_MS_TYPE_POINTER }, { "UserStackLimit", SPS_MS_TYPE_POINTER },
};

/* Versions 3 and 4 start alike (4 adds Flags); after the user's SID,
 * whose size varies, come the image name and the command line
 * (process_args()) */
static const SpsMsField process_fields[] = {
  { "UniqueProcessKey", SPS_MS_TYPE_POINTER }, { "ProcessId", SPS_MS_TYPE_UINT32 },
  { "ParentId", SPS_MS_TYPE_UINT32 }, { "SessionId", SPS_MS_TYPE_INT32 },
  { "ExitStatus", SPS_MS_TYPE_INT32 }, { "DirectoryTableBase", SPS_MS_TYPE_POINTER },
};

static const SpsMsField image_fields[] = {
  { "ImageBase", SPS_MS_TYPE_POINTER }, { "ImageSize", SPS_MS_TYPE_POINTER },
  { "ProcessId", SPS_MS_TYPE_UINT32 }, { "ImageCheckSum", SPS_MS_TYPE_UINT32 },
  { "TimeDateStamp", SPS_MS_TYPE_UINT32 }, { "Reserved0", SPS_MS_TYPE_UINT32 },
  { "DefaultBase", SPS_MS_TYPE_POINTER }, { "Reserved1", SPS_MS_TYPE_UINT32 },
  { "Reserved2", SPS_MS_TYPE_UINT32 }, { "Reserved3", SPS_MS_TYPE_UINT32 },
  { "Reserved4", SPS_MS_TYPE_UINT32 }, { "FileName", SPS_MS_TYPE_STRING },
};

static void
provider_free (gpointer data)
{
  Provider *provider = data;

  g_clear_pointer (&provider->event_source, sps_etl_manifest_free);
  g_clear_pointer (&provider->layouts, g_hash_table_unref);
  g_free (provider);
}

SpsEtlEvents *
sps_etl_events_new (SpsTraceBuilder      *builder,
                    SpsEtlDecompressFunc  decompress)
{
  SpsEtlEvents *self = g_new0 (SpsEtlEvents, 1);

  self->args = sps_etl_args_new (decompress);
  self->decoder = sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (self->args));
  self->builder = g_object_ref (builder);
  self->staged = g_ptr_array_new_with_free_func (staged_block_free);
  self->providers = g_hash_table_new_full (sps_etl_guid_hash, sps_etl_guid_equal, NULL, provider_free);
  self->by_index = g_ptr_array_new ();
  g_ptr_array_add (self->by_index, NULL);
  sps_etl_map_init (&self->names);
  self->event_infos = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                             (GDestroyNotify) sps_etl_event_info_free);
  self->scratch = g_string_new (NULL);
  self->kernel = sps_trace_builder_intern (builder, KERNEL_PROVIDER, -1);
  self->memory = sps_etl_memory_new (builder);
  self->warned = g_hash_table_new (NULL, NULL);
  self->schemas = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                         (GDestroyNotify) sps_etl_layout_free);
  return self;
}

void
sps_etl_events_free (SpsEtlEvents *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->builder);
  g_ptr_array_unref (self->staged);
  g_hash_table_unref (self->providers);
  g_ptr_array_unref (self->by_index);
  sps_etl_map_clear (&self->names);
  g_hash_table_unref (self->event_infos);
  g_string_free (self->scratch, TRUE);
  g_clear_object (&self->args);
  g_clear_pointer (&self->memory, sps_etl_memory_free);
  g_hash_table_unref (self->warned);
  g_hash_table_unref (self->schemas);
  g_free (self->display_name);
  g_free (self);
}

/**
 * sps_etl_events_begin_file:
 * @self: the events of one import
 * @etl: the bytes of the file read next, which the trace keeps for the
 *   events' args
 * @display_name: its name, for messages
 *
 * Makes the args of the file's events deferred: decoded from @etl when
 * they are read (sps-etl-args.c), where that is possible.
 */
void
sps_etl_events_begin_file (SpsEtlEvents *self,
                           GBytes       *etl,
                           const char   *display_name)
{
  g_return_if_fail (self != NULL);

  sps_etl_memory_set_file (self->memory, display_name);
  g_free (self->display_name);
  self->display_name = g_strdup (display_name);

  self->deferred = self->decoder != 0 && sps_etl_args_add_file (self->args, etl);
}

/**
 * sps_etl_events_set_compression:
 * @self: the events of one import
 * @compression: the current file's, from its header
 */
void
sps_etl_events_set_compression (SpsEtlEvents *self,
                                guint32       compression)
{
  g_return_if_fail (self != NULL);

  if (self->deferred)
    sps_etl_args_set_compression (self->args, compression);
}

/* The key of an event type in event_infos: its provider's GUID and id */
static GBytes *
event_info_key (const guint8 *provider,
                guint16       id)
{
  guint8 key[18];

  memcpy (key, provider, 16);
  key[16] = id & 0xff;
  key[17] = id >> 8;
  return g_bytes_new (key, sizeof key);
}

/* A MetaData/EventInfo event's description of an event type, kept for
 * sps_etl_events_prepare() (the first of each type) */
static void
keep_event_info (SpsEtlEvents       *self,
                 const SpsEtlRecord *record)
{
  g_autoptr(SpsEtlEventInfo) info = g_new0 (SpsEtlEventInfo, 1);
  g_autoptr(GBytes) key = NULL;

  if (!sps_etl_event_info_parse (record->payload, record->payload_len, info))
    return;
  key = event_info_key (info->provider, info->id);
  if (!g_hash_table_contains (self->event_infos, key))
    g_hash_table_insert (self->event_infos, g_steal_pointer (&key), g_steal_pointer (&info));
}

static Provider *
provider_of (SpsEtlEvents       *self,
             const SpsEtlRecord *record)
{
  const guint8 *guid = record->provider;
  Provider *provider = self->last_provider;
  gint known;

  if (provider != NULL && memcmp (provider->guid, guid, 16) == 0)
    return provider;
  if ((provider = g_hash_table_lookup (self->providers, guid)) != NULL)
    return self->last_provider = provider;

  provider = g_new0 (Provider, 1);
  memcpy (provider->guid, guid, 16);
  provider->kernel_group = -1;
  provider->name_kind = (guint64) 2 << 48;
  /* Past 65,535 providers the last index is shared: only the names of
   * manifests it has are then unknown */
  provider->index = (guint16) MIN (self->by_index->len, G_MAXUINT16);
  if (self->by_index->len <= G_MAXUINT16)
    g_ptr_array_add (self->by_index, provider);
  known = _sps_etl_known_provider (guid);
  if (known >= 0)
    {
      provider->name = sps_trace_builder_intern (self->builder, _sps_etl_known_providers[known].name, -1);
      provider->manifest = _sps_etl_known_providers[known].manifest;
      provider->kernel_group = _sps_etl_known_providers[known].kernel_group;
      provider->symbol_task = _sps_etl_known_providers[known].symbol_task;
      provider->heap_events = provider->manifest == SPS_MS_PROVIDER_CLR_RUNTIME ||
                              g_strcmp0 (_sps_etl_known_providers[known].name, SPS_MS_PROFILER_PROVIDER) == 0;
    }
  else
    {
      /* A TraceLogging provider names itself in its traits; any other
       * is known by its GUID */
      g_autofree char *text = record->kind == SPS_ETL_RECORD_EVENT_HEADER ? sps_etl_dup_provider_name (record) : NULL;

      if (text == NULL)
        {
          text = sps_etl_guid_to_string (guid);
          provider->named_by_guid = TRUE;
        }
      provider->name = sps_trace_builder_intern (self->builder, text, -1);
    }
  g_hash_table_insert (self->providers, provider->guid, provider);
  return self->last_provider = provider;
}

/* An EventSource known by its GUID until its manifest names it, as
 * PerfView names it from then on: the names made with the GUID are
 * forgotten, and the events that wait are named again when prepared */
static void
name_provider_by_manifest (SpsEtlEvents *self,
                           Provider     *provider)
{
  const char *name = sps_etl_manifest_get_provider_name (provider->event_source);

  if (!provider->named_by_guid || name == NULL)
    return;
  provider->name = sps_trace_builder_intern (self->builder, name, -1);
  provider->named_by_guid = FALSE;
  /* The names made with the GUID stay under their keys, apart */
  provider->name_kind = (guint64) 6 << 48;
}

static guint32
intern_name (SpsEtlEvents *self,
             guint64       key,
             GString      *text)
{
  guint32 name;

  if (sps_etl_map_lookup (&self->names, key, &name))
    return name;
  name = sps_trace_builder_intern (self->builder, text->str, (gssize) text->len);
  sps_etl_map_insert (&self->names, key, name);
  return name;
}

/* The name of an event of the kernel's @group: "Windows Kernel/Task/Opcode" */
static guint32
kernel_name (SpsEtlEvents *self,
             guint         group,
             guint         opcode)
{
  guint64 key = (guint64) 1 << 48 | (guint64) group << 8 | opcode;
  g_autoptr(GString) text = NULL;
  guint32 known_name;

  /* Named before: one lookup */
  if (sps_etl_map_lookup (&self->names, key, &known_name))
    return known_name;

  text = g_string_new (KERNEL_PROVIDER "/");
  /* Image loads are in the process group, for history's sake */
  if (group == GROUP_PROCESS && opcode == 10)
    group = GROUP_IMAGE;
  _sps_etl_append_kernel_event (text, group, opcode);
  return intern_name (self, key, text);
}

/* The event name of a TraceLogging event (EventSources in self-describing
 * mode write these), from the schema item of its extended data; NULL when
 * there is none or it is malformed */
static char *
dup_tracelogging_name (const SpsEtlRecord *r)
{
  gsize len = 0;
  const guint8 *schema = sps_etl_find_tracelogging_schema (r, &len);

  return schema != NULL ? sps_etl_tracelogging_event_name (schema, len, NULL, NULL) : NULL;
}

static guint32
tracelogging_name (SpsEtlEvents       *self,
                   const Provider     *provider,
                   const SpsEtlRecord *r,
                   const char         *event_name)
{
  g_autoptr(GString) text = g_string_new (sps_string_pool_get (sps_trace_builder_get_strings (self->builder),
                                                               provider->name, NULL));

  /* As PerfView names them: the opcode after the event's name */
  g_string_append_printf (text, "/%s", event_name);
  if (r->opcode == 1 || r->opcode == 2)
    g_string_append (text, r->opcode == 1 ? "/Start" : "/Stop");
  else if (r->opcode != 0)
    g_string_append_printf (text, "/%u", r->opcode);
  return sps_trace_builder_intern (self->builder, text->str, (gssize) text->len);
}

/* A provider's event: the manifest's Task/Opcode for the runtime's,
 * KernelTraceControl's image ids, else the id (manifest events) or the
 * opcode (classic events) as a number */
static guint32
provider_event_name (SpsEtlEvents       *self,
                     const Provider     *provider,
                     const SpsEtlRecord *r,
                     gboolean           *by_id)
{
  gboolean classic = r->kind != SPS_ETL_RECORD_EVENT_HEADER;
  guint64 key = provider->name_kind | (guint64) provider->index << 32 | (guint64) classic << 24 |
                (guint64) r->id << 8 | r->opcode;
  g_autoptr(GString) text = NULL;
  g_autofree char *provider_name = NULL;
  const char *known;
  guint32 known_name;
  guint32 name;

  if (provider->kernel_group >= 0)
    return kernel_name (self, (guint) provider->kernel_group, r->opcode);
  /* Self-describing events name themselves, each its own way (several
   * may share an id): not cached by id */
  if (!classic && r->extended != NULL)
    {
      g_autofree char *event_name = dup_tracelogging_name (r);

      if (event_name != NULL)
        return tracelogging_name (self, provider, r, event_name);
    }
  /* Named before: one lookup, and one more for whether it is named by
   * its id (the runtime's events are mostly not) */
  if (sps_etl_map_lookup (&self->names, key, &known_name))
    {
      *by_id = sps_etl_map_lookup (&self->names, key | NAME_KEY_BY_ID, &name);
      return known_name;
    }
  /* Named by its id: what the manifests of the files may name */
  *by_id = !classic && r->id != ID_MANIFEST_DATA &&
           sps_ms_manifest_event_name (provider->manifest, r->id) == NULL;
  if (*by_id)
    sps_etl_map_insert (&self->names, key | NAME_KEY_BY_ID, 0);

  provider_name = g_strdup (sps_string_pool_get (sps_trace_builder_get_strings (self->builder),
                                                 provider->name, NULL));
  text = g_string_new (provider_name);
  g_string_append_c (text, '/');
  if (!classic && (known = sps_ms_manifest_event_name (provider->manifest, r->id)) != NULL)
    g_string_append (text, known);
  else if (classic && (known = _sps_etl_symbol_task_name (provider->symbol_task, r->opcode)) != NULL)
    g_string_append (text, known);
  else if (!classic && r->id == 0xfffe)
    g_string_append (text, "ManifestData");
  else if (!classic)
    g_string_append_printf (text, "EventID(%u)", r->id);
  else
    g_string_append_printf (text, "Opcode(%u)", r->opcode);
  return intern_name (self, key, text);
}

/* A Process event's fields: the fixed ones, then the names after the
 * user's SID. FALSE when the payload is too short for them. */
static gboolean
append_process_args (GString            *out,
                     const SpsEtlRecord *r)
{
  g_autofree char *image = NULL;
  g_autofree char *command_line = NULL;

  if (!sps_ms_append_fields (out, process_fields, G_N_ELEMENTS (process_fields), r->pointer_size,
                             r->payload, r->payload_len))
    return FALSE;
  if (!sps_etl_process_names (r, &image, &command_line))
    return TRUE;

  /* Into the object the fields made */
  g_string_truncate (out, out->len - 1);
  if (r->version >= 4)
    g_string_append_printf (out, ",\"Flags\":%u",
                            sps_ms_read_u32 (r->payload + 2 * (gsize) r->pointer_size + 16));
  g_string_append (out, ",\"ImageFileName\":");
  sps_json_append_string (out, image, -1);
  if (command_line != NULL)
    {
      g_string_append (out, ",\"CommandLine\":");
      sps_json_append_string (out, command_line, -1);
    }
  g_string_append_c (out, '}');
  return TRUE;
}

/* The fields of a self-describing event: its TraceLogging schema, or
 * the layout its provider's manifest gives its id. FALSE when it has
 * neither (or the schema is malformed). */
static gboolean
append_described_fields (GString            *out,
                         const SpsEtlRecord *r,
                         GHashTable         *layouts,
                         SpsEtlFieldsStatus *status)
{
  gsize len = 0;
  const guint8 *schema;
  SpsEtlLayout *layout = NULL;
  g_autoptr(SpsEtlLayout) tracelogging = NULL;

  if (r->kind != SPS_ETL_RECORD_EVENT_HEADER)
    return FALSE;
  if ((schema = sps_etl_find_tracelogging_schema (r, &len)) != NULL)
    layout = tracelogging = sps_etl_layout_new_tracelogging (schema, len, NULL);
  else if (layouts != NULL)
    layout = g_hash_table_lookup (layouts, GUINT_TO_POINTER ((guint) r->id));
  if (layout == NULL)
    return FALSE;
  *status = sps_etl_layout_append (layout, out, r->pointer_size, r->payload, r->payload_len);
  return TRUE;
}

/* Appends @r's args: its fields where this file knows the layout or the
 * event describes them, else the raw bytes; nothing for an empty payload
 * without fields */
static SpsEtlFieldsStatus
append_args (GString            *out,
             const SpsEtlRecord *r,
             const char         *provider_name,
             SpsMsProvider       manifest,
             gint                group,
             GHashTable         *layouts)
{
  const SpsMsField *fields = NULL;
  SpsEtlFieldsStatus status = SPS_ETL_FIELDS_COMPLETE;
  guint n_fields = 0;

  /* Visual Studio's allocation provider: read as its allocations are */
  if (r->kind == SPS_ETL_RECORD_EVENT_HEADER && provider_name != NULL &&
      sps_ms_profiler_append_args (out, sps_ms_memory_classify (manifest, provider_name, r->id), r->version,
                                   r->payload, r->payload_len))
    return status;

  if (manifest == SPS_MS_PROVIDER_OTHER && group < 0 && append_described_fields (out, r, layouts, &status))
    return status;

  if (group == GROUP_THREAD && r->opcode >= 1 && r->opcode <= 4)
    fields = thread_fields, n_fields = G_N_ELEMENTS (thread_fields);
  else if (group == GROUP_PROCESS && r->opcode >= 1 && r->opcode <= 4 && r->version >= 3)
    fields = process_fields, n_fields = G_N_ELEMENTS (process_fields);
  else if (((group == GROUP_IMAGE && r->opcode >= 2 && r->opcode <= 4) || r->opcode == 10) &&
           (group == GROUP_IMAGE || group == GROUP_PROCESS) && r->version >= 2)
    fields = image_fields, n_fields = G_N_ELEMENTS (image_fields);
  else if (r->provider != NULL && r->kind == SPS_ETL_RECORD_EVENT_HEADER)
    fields = sps_ms_manifest_fields (manifest, r->id, r->version, &n_fields);

  if (fields != NULL)
    {
      gsize at = out->len;
      gboolean ok;

      if (fields == process_fields)
        ok = append_process_args (out, r);
      else
        ok = sps_ms_append_fields (out, fields, n_fields, r->pointer_size, r->payload, r->payload_len);
      if (ok)
        return status;
      g_string_truncate (out, at);
    }
  if (r->payload_len > 0)
    sps_ms_append_raw_payload (out, r->payload, r->payload_len);
  return status;
}

/**
 * sps_etl_events_append_args:
 * @out: where the JSON text is appended
 * @record: a record that is kept as an event
 * @layouts: (nullable): the payload layouts of its provider's manifest
 *   (id → SpsEtlLayout), if it logged one
 *
 * Appends the args of @record as the import keeps them: decoded fields
 * for the kernel's process, thread and image events, the runtime's
 * events of the manifest table, TraceLogging events and the events of an
 * EventSource's manifest; `{"payload_size":…,"payload_base64":…}` for the
 * others; nothing for an empty payload without fields.
 *
 * Returns: %SPS_ETL_FIELDS_PARTIAL when a described field ran past the
 *   payload
 */
SpsEtlFieldsStatus
sps_etl_events_append_args (GString            *out,
                            const SpsEtlRecord *record,
                            GHashTable         *layouts)
{
  gint known = record->provider != NULL ? _sps_etl_known_provider (record->provider) : -1;

  g_return_val_if_fail (out != NULL, SPS_ETL_FIELDS_COMPLETE);

  if (record->provider == NULL)
    return append_args (out, record, NULL, SPS_MS_PROVIDER_OTHER, record->group, NULL);
  else if (known >= 0)
    return append_args (out, record, _sps_etl_known_providers[known].name, _sps_etl_known_providers[known].manifest,
                        _sps_etl_known_providers[known].kernel_group, layouts);
  else
    return append_args (out, record, NULL, SPS_MS_PROVIDER_OTHER, -1, layouts);
}

/**
 * sps_etl_events_check_args:
 * @record: an event's record
 * @layouts: (nullable): the payload layouts of its provider's manifest
 * @scratch: a string to reuse
 *
 * Whether the args sps_etl_events_append_args() writes for @record would
 * be complete, without writing them where a manifest's layout describes
 * the payload: its sizes are walked (sps_etl_layout_check()). Other
 * events are decoded into @scratch to know.
 *
 * Returns: what sps_etl_events_append_args() would return
 */
SpsEtlFieldsStatus
sps_etl_events_check_args (const SpsEtlRecord *record,
                           GHashTable         *layouts,
                           GString            *scratch)
{
  gint known = record->provider != NULL ? _sps_etl_known_provider (record->provider) : -1;
  SpsEtlLayout *layout;
  gsize len = 0;

  g_return_val_if_fail (scratch != NULL, SPS_ETL_FIELDS_COMPLETE);

  /* The cases append_args() takes before a manifest's layout: a kernel
   * or runtime provider, the allocation provider's own reading, a
   * TraceLogging schema, a record without an EventHeader */
  if (record->provider == NULL || layouts == NULL || record->kind != SPS_ETL_RECORD_EVENT_HEADER ||
      (known >= 0 && (_sps_etl_known_providers[known].manifest != SPS_MS_PROVIDER_OTHER ||
                      _sps_etl_known_providers[known].kernel_group >= 0 ||
                      sps_ms_memory_classify (_sps_etl_known_providers[known].manifest, _sps_etl_known_providers[known].name,
                                              record->id) != SPS_MS_MEMORY_NONE)) ||
      sps_etl_find_tracelogging_schema (record, &len) != NULL ||
      (layout = g_hash_table_lookup (layouts, GUINT_TO_POINTER ((guint) record->id))) == NULL)
    {
      g_string_truncate (scratch, 0);
      return sps_etl_events_append_args (scratch, record, layouts);
    }
  return sps_etl_layout_check (layout, record->pointer_size, record->payload, record->payload_len);
}

/* The args of an event: deferred (decoded when read) where the file's
 * bytes are kept, else their text now */
static SpsArgsRef
record_args (SpsEtlEvents       *self,
             const SpsEtlRecord *r,
             const Provider     *provider,
             gint                group)
{
  guint64 cookie;

  /* An empty payload may give no args at all: decided now */
  if (self->deferred && r->payload_len > 0 && sps_etl_args_get_cookie (self->args, r, &cookie))
    return sps_args_ref_new_deferred (self->decoder, cookie);

  g_string_truncate (self->scratch, 0);
  append_args (self->scratch, r,
               provider != NULL ? sps_string_pool_get (sps_trace_builder_get_strings (self->builder), provider->name, NULL)
                                : NULL,
               provider != NULL ? provider->manifest : SPS_MS_PROVIDER_OTHER, group,
               provider != NULL ? provider->layouts : NULL);
  return sps_trace_builder_add_args_text (self->builder, self->scratch->str, (gssize) self->scratch->len);
}

/* Warns once per event type whose fields ran past the payload */
static void
warn_partial (SpsEtlEvents *self,
              guint32       name,
              const char   *where)
{
  if (!g_hash_table_add (self->warned, GUINT_TO_POINTER (name)))
    return;
  /* Translators: an event's name, then where the first such event is */
  sps_trace_builder_warn (self->builder, "etl-event-fields-truncated",
                          _("The fields of “%s” events run past their payload (the first %s); "
                            "the rest of such payloads is kept as raw bytes"),
                          sps_string_pool_get (sps_trace_builder_get_strings (self->builder), name, NULL),
                          where);
}

/* The layout of a TraceLogging schema, parsed once per distinct schema
 * (an event type's events all carry the same bytes); NULL when malformed */
static SpsEtlLayout *
schema_layout (SpsEtlEvents *self,
               const guint8 *schema,
               gsize         len)
{
  g_autoptr(GBytes) key = g_bytes_new_static (schema, len);
  gpointer layout;

  if (g_hash_table_lookup_extended (self->schemas, key, NULL, &layout))
    return layout;
  if (g_hash_table_size (self->schemas) >= MAX_SCHEMAS)
    g_hash_table_remove_all (self->schemas);
  layout = sps_etl_layout_new_tracelogging (schema, len, NULL);
  g_hash_table_insert (self->schemas, g_bytes_new (schema, len), layout);
  return layout;
}

/* Whether a TraceLogging event's fields fit its payload, by a walk over
 * their sizes (its args are decoded only when they are read) */
static void
check_tracelogging_fields (SpsEtlEvents       *self,
                           const SpsEtlRecord *r,
                           guint32             name)
{
  SpsEtlLayout *layout;
  g_autofree char *where = NULL;
  const guint8 *schema;
  gsize len = 0;

  if (g_hash_table_contains (self->warned, GUINT_TO_POINTER (name)) ||
      r->kind != SPS_ETL_RECORD_EVENT_HEADER ||
      (schema = sps_etl_find_tracelogging_schema (r, &len)) == NULL ||
      (layout = schema_layout (self, schema, len)) == NULL)
    return;
  if (sps_etl_layout_check (layout, r->pointer_size, r->payload, r->payload_len) == SPS_ETL_FIELDS_COMPLETE)
    return;
  /* Translators: a file's name and a byte offset in it */
  where = g_strdup_printf (_("in %s, record at byte %zu"), self->display_name != NULL ? self->display_name : "",
                           r->offset);
  warn_partial (self, name, where);
}

static SpsEtlEvent *
staged_at (SpsEtlEvents *self,
           guint         i)
{
  SpsEtlEvent *block = g_ptr_array_index (self->staged, i >> STAGED_BLOCK_BITS);

  g_assert (block != NULL);
  return &block[i & (STAGED_BLOCK_SIZE - 1)];
}

/**
 * sps_etl_events_add:
 * @self: the events of one import
 * @record: a record of the ETL, in file order
 *
 * Makes @record an event unless it is a CPU sample or a stack walk
 * (those are the samples and their stacks). An event whose process is
 * known (its header says it) and whose name cannot change is returned, to
 * be added to the builder now; the others wait here for the threads'
 * processes and the EventSource manifests of every file
 * (sps_etl_events_prepare()).
 *
 * Returns: (nullable): the event to add now, valid until the next call;
 *   %NULL when the record is not an event or waits here
 */
const SpsEtlEvent *
sps_etl_events_add (SpsEtlEvents       *self,
                    const SpsEtlRecord *record)
{
  Provider *provider = NULL;
  SpsEtlEvent event = { 0, };
  gint group = -1;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (record != NULL, NULL);

  if (record->provider != NULL)
    {
      provider = provider_of (self, record);
      group = provider->kernel_group;
    }
  else
    group = record->group;

  if (sps_etl_events_is_sample_data (group, record->opcode))
    return NULL;

  if (provider != NULL && record->kind == SPS_ETL_RECORD_EVENT_HEADER && record->id == ID_MANIFEST_DATA &&
      provider->manifest == SPS_MS_PROVIDER_OTHER)
    {
      if (provider->event_source == NULL)
        provider->event_source = sps_etl_manifest_new ();
      if (sps_etl_manifest_add_chunk (provider->event_source, record->payload, record->payload_len))
        {
          g_clear_pointer (&provider->layouts, g_hash_table_unref);
          provider->layouts = sps_etl_manifest_ref_layouts (provider->event_source);
          sps_etl_args_set_layouts (self->args, provider->guid, provider->layouts);
          name_provider_by_manifest (self, provider);
        }
    }

  if (provider != NULL && provider->symbol_task == SYMBOL_TASK_META_DATA && record->opcode == 32)
    keep_event_info (self, record);

  event.ticks = record->timestamp;
  event.pid = record->pid;
  event.tid = record->tid;
  event.provider = provider != NULL ? provider->name : self->kernel;
  if (provider != NULL)
    {
      gboolean by_id = FALSE;

      event.name = provider_event_name (self, provider, record, &by_id);
      event.named_by_id = by_id ? 1 : 0;
    }
  else
    event.name = kernel_name (self, record->group, record->opcode);
  event.descriptor = SPS_EVENT_DESCRIPTOR (record->id, record->version, record->opcode);
  event.args = record_args (self, record, provider, group);
  event.provider_index = provider != NULL ? provider->index : 0;
  if (provider != NULL && provider->manifest == SPS_MS_PROVIDER_OTHER && group < 0 &&
      record->kind == SPS_ETL_RECORD_EVENT_HEADER && record->extended != NULL)
    check_tracelogging_fields (self, record, event.name);
  /* Heap events wait too: they become allocations and GC observations
   * once the session's processes are known (sps-etl-memory.c) */
  if ((provider != NULL && provider->heap_events) || event.named_by_id ||
      (event.pid == SPS_ETL_NO_ID && event.tid != SPS_ETL_NO_ID))
    {
      if (self->n_staged % STAGED_BLOCK_SIZE == 0)
        g_ptr_array_add (self->staged, sps_etl_block_new (STAGED_BLOCK_BYTES));
      *staged_at (self, self->n_staged++) = event;
      if (provider != NULL && provider->heap_events)
        sps_etl_memory_keep (self->memory, self->n_staged - 1,
                             sps_ms_memory_classify (provider->manifest,
                                                     sps_string_pool_get (sps_trace_builder_get_strings (self->builder),
                                                                          provider->name, NULL),
                                                     record->id),
                             record);
      return NULL;
    }
  self->current = event;
  return &self->current;
}

/**
 * sps_etl_events_add_memory:
 * @self: the events of one import
 * @event: an event's index among those that waited, in order
 * @process: the process it was added to
 * @thread: the thread it was added to
 * @ts: its time on the session's clock
 * @event_stack: (out): where its stack is in the kernel's event_stacks,
 *   or %SPS_ETL_NO_ID
 *
 * Makes a heap event (allocations, GCs) an allocation or a GC observation
 * as well.
 *
 * Returns: the allocation it added, or %SPS_NO_INDEX
 */
guint32
sps_etl_events_add_memory (SpsEtlEvents *self,
                           guint         event,
                           guint32       process,
                           guint32       thread,
                           SpsTime       ts,
                           guint32      *event_stack)
{
  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  return sps_etl_memory_add (self->memory, event, process, thread, ts, event_stack);
}

/**
 * sps_etl_events_want_stacks:
 * @self: the events of one import, every file read
 * @kernel: the import's kernel state, not finished yet
 *
 * Asks @kernel for the stacks of the allocation events.
 */
void
sps_etl_events_want_stacks (SpsEtlEvents *self,
                            SpsEtlKernel *kernel)
{
  g_return_if_fail (self != NULL);

  sps_etl_memory_want_stacks (self->memory, kernel);
}

/**
 * sps_etl_events_finish_memory:
 * @self: the events of one import, all added
 * @events_lost: whether the files' headers count lost events
 */
void
sps_etl_events_finish_memory (SpsEtlEvents *self,
                              gboolean      events_lost)
{
  g_return_if_fail (self != NULL);

  sps_etl_memory_finish (self->memory, events_lost);
}

/* An event of a manifest's layout: its fields, walked again in the
 * file's bytes to know whether they fit */
static void
check_manifest_fields (SpsEtlEvents      *self,
                       const Provider    *provider,
                       const SpsEtlEvent *e)
{
  if (provider->layouts == NULL || (e->args & SPS_ARGS_REF_DEFERRED_BIT) == 0 ||
      g_hash_table_contains (self->warned, GUINT_TO_POINTER (e->name)) ||
      !g_hash_table_contains (provider->layouts, GUINT_TO_POINTER (SPS_EVENT_DESCRIPTOR_ID (e->descriptor))))
    return;
  if (!sps_etl_args_is_complete (self->args, e->args & SPS_ARGS_REF_COOKIE_MASK, self->scratch))
    warn_partial (self, e->name, _("in the ETL files"));
}

/* Names staged event @e "Provider/@suffix", under its provider's name
 * now; @kind tells the names apart in the cache (with the provider and
 * the event's id) */
static void
rename_staged (SpsEtlEvents   *self,
               const Provider *provider,
               SpsEtlEvent    *e,
               guint64         kind,
               const char     *suffix)
{
  guint64 key = kind | (guint64) e->provider_index << 32 | SPS_EVENT_DESCRIPTOR_ID (e->descriptor);
  guint32 known_name;

  if (sps_etl_map_lookup (&self->names, key, &known_name))
    e->name = known_name;
  else
    {
      g_autoptr(GString) text = g_string_new (sps_string_pool_get (sps_trace_builder_get_strings (self->builder),
                                                                   provider->name, NULL));

      g_string_append_printf (text, "/%s", suffix);
      e->name = intern_name (self, key, text);
    }
  e->provider = provider->name;
  e->named_by_id = 0;
}

/**
 * sps_etl_events_prepare:
 * @self: the events of one import, every file read
 *
 * Names the events that EventSource manifests logged in the files name.
 *
 * Returns: the number of events that waited, for sps_etl_events_at()
 */
guint
sps_etl_events_prepare (SpsEtlEvents *self)
{
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (self != NULL, 0);

  /* Providers known by their GUID only take the name the merge's event
   * descriptions give them */
  g_hash_table_iter_init (&iter, self->event_infos);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const SpsEtlEventInfo *info = value;
      Provider *provider = g_hash_table_lookup (self->providers, info->provider);

      if (provider != NULL && provider->named_by_guid)
        {
          provider->name = sps_trace_builder_intern (self->builder, info->provider_name, -1);
          provider->named_by_guid = FALSE;
        }
    }

  /* Events read before their EventSource's manifest get its names now,
   * and its layouts are checked against their payloads; the others named
   * by id, their type's description when the merge wrote one */
  for (guint i = 0; i < self->n_staged; i++)
    {
      SpsEtlEvent *e = staged_at (self, i);
      const Provider *provider;
      guint id = SPS_EVENT_DESCRIPTOR_ID (e->descriptor);
      const char *name;

      if (e->provider_index == 0 || e->provider_index >= self->by_index->len)
        continue;
      provider = g_ptr_array_index (self->by_index, e->provider_index);
      if (e->named_by_id && provider->event_source != NULL &&
          (name = sps_etl_manifest_lookup (provider->event_source, id)) != NULL)
        rename_staged (self, provider, e, (guint64) 3 << 48, name);
      else if (e->named_by_id)
        {
          g_autoptr(GBytes) key = event_info_key (provider->guid, (guint16) id);
          const SpsEtlEventInfo *info = g_hash_table_lookup (self->event_infos, key);
          g_autofree char *by_id = NULL;

          if (info != NULL)
            rename_staged (self, provider, e, (guint64) 4 << 48, info->event_name);
          else if (e->provider != provider->name)
            {
              /* Still by id, under the provider's new name */
              by_id = g_strdup_printf ("EventID(%u)", id);
              rename_staged (self, provider, e, (guint64) 5 << 48, by_id);
              e->named_by_id = 1;
            }
        }
      check_manifest_fields (self, provider, e);
    }
  return self->n_staged;
}

/**
 * sps_etl_events_at:
 * @self: the events of one import, prepared
 * @event: an index below what sps_etl_events_prepare() returned, not
 *   released
 *
 * Returns: (transfer none): the @event-th event that waited, in file order
 */
const SpsEtlEvent *
sps_etl_events_at (SpsEtlEvents *self,
                   guint         event)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (event < self->n_staged, NULL);

  return staged_at (self, event);
}

/**
 * sps_etl_events_release:
 * @self: the events of one import
 * @end: the events that waited below this index are not needed any more
 *
 * Frees the blocks of events that lie wholly below @end.
 */
void
sps_etl_events_release (SpsEtlEvents *self,
                        guint         end)
{
  g_return_if_fail (self != NULL);

  for (; self->n_released < self->staged->len &&
         (self->n_released + 1) * (guint64) STAGED_BLOCK_SIZE <= end; self->n_released++)
    g_clear_pointer (&g_ptr_array_index (self->staged, self->n_released), staged_block_free);
}
