/* sps-ms-memory.c: allocations and GCs from .NET events, for both importers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The .nettrace and ETL importers hand the heap's events here, decoded
 * once for both:
 *
 * - Visual Studio's .NET Object Allocation provider (DhCorProfilerProvider)
 *   reports every allocation (ObjectAllocation: id, size, type, stack),
 *   the types (TypeDefinition) and, at each GC, the ids found dead
 *   (DeadObjects). Births are exact; a death is known only to lie between
 *   the previous GC and the one that reported it, so both bounds are kept.
 *   Objects never reported dead are outstanding at the end.
 * - The runtime's GCAllocationTick is one allocation about every 100 KB:
 *   a sampled allocation of the bytes it stands for, never an object.
 * - The runtime's GC start/end, mark, suspension and restart events are GC
 *   observations (and slices on the process's GC track); the heap
 *   statistics after a GC give the end's heap size.
 *
 * The provider's layouts are those its EventPipe metadata describes
 * (fields of ObjectAllocation v3: ObjectID u64, Size u32, TypesSize u32,
 * Types; the description says Types is an array, but the bytes hold
 * TypesSize bytes without the array's count; TypeDefinition's IsValueType
 * takes one byte, not a 4-byte Boolean). Every count is checked against
 * the bytes left; a payload that does not fit is a warning that names the
 * file and the byte offset.
 */

#define G_LOG_DOMAIN "sps-mstrace"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-clr-symbols.h"
#include "sps-ms-memory.h"
#include "sps-ms-profiler.h"
#include "sps-mstrace-bytes.h"

/* Generations 0–2 (the large and pinned object heaps, 3 and 4, are
 * collected with generation 2) */
#define N_GENERATIONS 3

typedef struct
{
  guint64 module;
  guint32 token;
} TypeKey;

/* What a TypeDefinition says */
typedef struct
{
  guint32 name;            /* string id */
  guint32 parent;          /* the declaring type's token, 0: none */
  guint32 n_generic;
} TypeInfo;

typedef struct
{
  guint32 allocation;
  guint32 descriptor;      /* in SpsMsMemory.descriptors */
} PendingType;

/* Events were lost between these times */
typedef struct
{
  SpsTime from;
  SpsTime to;
} Gap;

/* What a process's GCs tell about the deaths reported at the next one */
typedef struct
{
  SpsTime current_start;       /* of the latest GC, SPS_TIME_MIN: none yet */
  SpsTime previous_start;      /* of the last one before it that collected
                                * every generation it collects */
  SpsTime start_at_least[N_GENERATIONS]; /* of the latest GC of generation g or older */
  guint32 last_end;            /* observation of the latest GC end, or SPS_NO_INDEX */
  guint32 current_number;      /* the runtime's count of the GC in progress */
  gboolean in_gc;              /* started, not ended */
} GcState;

struct _SpsMsMemory
{
  SpsTraceBuilder *builder;
  char            *display_name;
  GHashTable      *type_names;      /* TypeKey → TypeInfo */
  GArray          *pending_types;   /* PendingType */
  GPtrArray       *descriptors;     /* GBytes: the distinct type descriptors */
  GHashTable      *descriptor_index; /* GBytes → its index + 1 */
  GHashTable      *live;            /* (process, object id) → allocation + 1 */
  GHashTable      *gc;              /* process + 1 → GcState */
  GHashTable      *live_tracks;     /* process + 1 → LiveObjectsCount's counter track + 1 */
  GArray          *gaps;            /* Gap: when events were lost */
};

static guint
type_key_hash (gconstpointer key)
{
  const TypeKey *k = key;

  return g_int64_hash (&k->module) ^ k->token;
}

static gboolean
type_key_equal (gconstpointer a,
                gconstpointer b)
{
  const TypeKey *ka = a;
  const TypeKey *kb = b;

  return ka->module == kb->module && ka->token == kb->token;
}

/* Object ids are the profiler's, per process (ETL sessions hold several) */
typedef struct
{
  guint64 id;
  guint32 process;
} LiveKey;

static guint
live_key_hash (gconstpointer key)
{
  const LiveKey *k = key;

  return g_int64_hash (&k->id) ^ (k->process * 0x9e3779b9u);
}

static gboolean
live_key_equal (gconstpointer a,
                gconstpointer b)
{
  const LiveKey *ka = a;
  const LiveKey *kb = b;

  return ka->id == kb->id && ka->process == kb->process;
}

/**
 * sps_ms_memory_classify:
 * @provider: the provider, when the runtime's
 * @provider_name: (nullable): its name
 * @id: the event's id
 *
 * Returns: which heap event it is, or %SPS_MS_MEMORY_NONE
 */
SpsMsMemoryEvent
sps_ms_memory_classify (SpsMsProvider  provider,
                        const char    *provider_name,
                        guint          id)
{
  if (provider == SPS_MS_PROVIDER_CLR_RUNTIME)
    switch (id)
      {
      case 1: return SPS_MS_MEMORY_GC_START;
      case 2: return SPS_MS_MEMORY_GC_END;
      case 3: return SPS_MS_MEMORY_GC_RESTART;     /* RestartEEStop: the threads run */
      case 4: return SPS_MS_MEMORY_GC_HEAP_STATS;
      case 9: return SPS_MS_MEMORY_GC_SUSPEND;     /* SuspendEEStart */
      case 10: return SPS_MS_MEMORY_ALLOCATION_TICK;
      case 202: return SPS_MS_MEMORY_GC_MARK;      /* MarkWithType */
      default: return SPS_MS_MEMORY_NONE;
      }

  if (provider_name != NULL && g_strcmp0 (provider_name, SPS_MS_PROFILER_PROVIDER) == 0)
    switch (id)
      {
      case 1: return SPS_MS_MEMORY_OBJECT_ALLOCATION;
      case 2: return SPS_MS_MEMORY_DEAD_OBJECTS;
      case 3: return SPS_MS_MEMORY_TYPE_DEFINITION;
      case 4: return SPS_MS_MEMORY_LIVE_OBJECTS_COUNT;
      default: return SPS_MS_MEMORY_NONE;
      }

  return SPS_MS_MEMORY_NONE;
}

/**
 * sps_ms_memory_new:
 * @builder: where the allocations and observations go
 * @display_name: the file's name, for warnings
 *
 * Returns: (transfer full): the heap state of one import
 */
SpsMsMemory *
sps_ms_memory_new (SpsTraceBuilder *builder,
                   const char      *display_name)
{
  SpsMsMemory *self = g_new0 (SpsMsMemory, 1);

  self->builder = builder;
  self->display_name = g_strdup (display_name);
  self->type_names = g_hash_table_new_full (type_key_hash, type_key_equal, g_free, g_free);
  self->pending_types = g_array_new (FALSE, FALSE, sizeof (PendingType));
  self->descriptors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->descriptor_index = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  self->live = g_hash_table_new_full (live_key_hash, live_key_equal, g_free, NULL);
  self->gc = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->live_tracks = g_hash_table_new (NULL, NULL);
  self->gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
  return self;
}

/**
 * sps_ms_memory_set_display_name:
 * @self: the heap state of an import
 * @display_name: the name of the file whose events come next
 */
void
sps_ms_memory_set_display_name (SpsMsMemory *self,
                                const char  *display_name)
{
  g_return_if_fail (self != NULL);

  if (g_strcmp0 (self->display_name, display_name) == 0)
    return;
  g_free (self->display_name);
  self->display_name = g_strdup (display_name);
}

void
sps_ms_memory_free (SpsMsMemory *self)
{
  if (self == NULL)
    return;
  g_free (self->display_name);
  g_hash_table_unref (self->type_names);
  g_array_unref (self->pending_types);
  g_hash_table_unref (self->descriptor_index);
  g_ptr_array_unref (self->descriptors);
  g_hash_table_unref (self->live);
  g_hash_table_unref (self->gc);
  g_hash_table_unref (self->live_tracks);
  g_array_unref (self->gaps);
  g_free (self);
}

static void
warn (SpsMsMemory *self,
      gsize        offset,
      const char  *message)
{
  /* Translators: a file name, a byte offset in it, then what is wrong there */
  sps_trace_builder_warn (self->builder, "memory-event-malformed", _("%s (byte %zu): %s"),
                          self->display_name, offset, message);
}

static GcState *
gc_state (SpsMsMemory *self,
          guint32      process)
{
  GcState *state = g_hash_table_lookup (self->gc, GUINT_TO_POINTER (process + 1));

  if (state == NULL)
    {
      state = g_new (GcState, 1);
      state->current_start = SPS_TIME_MIN;
      state->previous_start = SPS_TIME_MIN;
      for (guint g = 0; g < N_GENERATIONS; g++)
        state->start_at_least[g] = SPS_TIME_MIN;
      state->last_end = SPS_NO_INDEX;
      state->current_number = 0;
      state->in_gc = FALSE;
      g_hash_table_insert (self->gc, GUINT_TO_POINTER (process + 1), state);
    }
  return state;
}

/* names[value], or PREFIX(value) for a value the table does not know */
static guint32
intern_name (SpsMsMemory        *self,
             const char * const *names,
             guint               n_names,
             const char         *prefix,
             guint32             value)
{
  g_autofree char *text = NULL;

  if (value < n_names)
    return sps_trace_builder_intern (self->builder, names[value], -1);
  text = g_strdup_printf ("%s(%u)", prefix, value);
  return sps_trace_builder_intern (self->builder, text, -1);
}

/* The runtime's GC reasons, as PerfView names them */
static guint32
gc_reason (SpsMsMemory *self,
           guint32      reason)
{
  static const char * const names[] = {
    "AllocSmall", "Induced", "LowMemory", "Empty", "AllocLarge", "OutOfSpaceSOH",
    "OutOfSpaceLOH", "InducedNotForced", "Internal", "InducedLowMemory",
    "InducedCompacting", "LowMemoryHost", "PMFullGC", "LowMemoryHostBlocking",
  };

  return intern_name (self, names, G_N_ELEMENTS (names), "Reason", reason);
}

static guint32
suspend_reason (SpsMsMemory *self,
                guint32      reason)
{
  static const char * const names[] = {
    "SuspendOther", "SuspendForGC", "SuspendForAppDomainShutdown", "SuspendForCodePitching",
    "SuspendForShutdown", "SuspendForDebugger", "SuspendForGCPrep", "SuspendForDebuggerSweep",
  };

  return intern_name (self, names, G_N_ELEMENTS (names), "Reason", reason);
}

static guint32
mark_type (SpsMsMemory *self,
           guint32      type)
{
  static const char * const names[] = { "MarkStack", "MarkFQ", "MarkHandles", "MarkOlder" };

  return intern_name (self, names, G_N_ELEMENTS (names), "MarkType", type);
}

/* The index of a type descriptor, each distinct one kept once */
static guint32
descriptor_index (SpsMsMemory  *self,
                  const guint8 *types,
                  gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (types, len);
  gpointer index = g_hash_table_lookup (self->descriptor_index, bytes);

  if (index != NULL)
    return GPOINTER_TO_UINT (index) - 1;
  g_ptr_array_add (self->descriptors, g_bytes_ref (bytes));
  g_hash_table_insert (self->descriptor_index, bytes, GUINT_TO_POINTER (self->descriptors->len));
  return self->descriptors->len - 1;
}

static void
add_object_allocation (SpsMsMemory  *self,
                       guint32       process,
                       guint32       thread,
                       SpsTime       ts,
                       const guint8 *p,
                       gsize         len,
                       gsize         offset,
                       guint32      *allocation)
{
  SpsMsObjectAllocation a;
  PendingType pending = { 0, };
  const char *problem = NULL;
  LiveKey key;
  gpointer old;

  if (!sps_ms_read_object_allocation (p, len, &a, &problem))
    {
      warn (self, offset, problem);
      return;
    }
  /* Named at the end: a TypeDefinition may come after its allocations */
  pending.descriptor = descriptor_index (self, a.types, a.types_size);

  key.id = a.object_id;
  key.process = process;
  /* An id reused without a death reported in between: the first object's
   * end is unknown, it stays as it was */
  if (g_hash_table_lookup_extended (self->live, &key, NULL, &old))
    g_hash_table_remove (self->live, &key);

  *allocation = sps_trace_builder_add_allocation (self->builder, process, thread, ts, a.size, 0, a.object_id,
                                                  SPS_HEAP_MANAGED, SPS_ALLOCATION_EXACT);
  pending.allocation = *allocation;
  g_array_append_val (self->pending_types, pending);
  g_hash_table_insert (self->live, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (*allocation + 1));
}

static void
add_dead_objects (SpsMsMemory  *self,
                  guint32       process,
                  guint32       thread,
                  SpsTime       ts,
                  const guint8 *p,
                  gsize         len,
                  gsize         offset)
{
  GcState *gc = gc_state (self, process);
  SpsMsDeadObjects dead;
  const char *problem = NULL;
  /* Reported at the GC in progress (or, with no GC events, at this
   * report); alive until the GC before it, if one was seen */
  SpsTime death_by = gc->current_start != SPS_TIME_MIN && gc->current_start <= ts ? gc->current_start : ts;
  SpsTime after_gc = gc->current_start != SPS_TIME_MIN && gc->current_start <= ts ? gc->previous_start : SPS_TIME_MIN;

  if (!sps_ms_read_dead_objects (p, len, &dead, &problem))
    {
      warn (self, offset, problem);
      return;
    }

  for (guint32 i = 0; i < dead.count; i++)
    {
      LiveKey key = { sps_ms_dead_object_id (&dead, i), process };
      gpointer value;
      guint32 allocation;
      SpsTime birth;

      if (g_hash_table_lookup_extended (self->live, &key, NULL, &value))
        {
          allocation = GPOINTER_TO_UINT (value) - 1;
          g_hash_table_remove (self->live, &key);
          sps_trace_builder_get_allocation_life (self->builder, allocation, &birth, NULL);
        }
      else
        {
          /* Allocated before the capture started */
          birth = SPS_TIME_MIN;
          allocation = sps_trace_builder_add_allocation (self->builder, process, thread, SPS_TIME_MIN,
                                                         SPS_SIZE_UNKNOWN, 0, key.id, SPS_HEAP_MANAGED,
                                                         SPS_ALLOCATION_UNKNOWN_BIRTH);
        }
      sps_trace_builder_set_allocation_death (self->builder, allocation,
                                              MIN (MAX (birth, after_gc), death_by), death_by);
    }
}

static void
add_type_definition (SpsMsMemory  *self,
                     const guint8 *p,
                     gsize         len,
                     gsize         offset)
{
  SpsMsTypeDefinition definition;
  const char *problem = NULL;
  TypeKey *key;
  TypeInfo *info;

  if (!sps_ms_read_type_definition (p, len, &definition, &problem))
    {
      warn (self, offset, problem);
      return;
    }
  key = g_new (TypeKey, 1);
  key->module = definition.module;
  key->token = definition.token;
  info = g_new (TypeInfo, 1);
  info->name = sps_trace_builder_intern (self->builder, definition.name, -1);
  info->parent = definition.parent_token;
  info->n_generic = definition.n_generic_params;
  g_hash_table_replace (self->type_names, key, info);
  g_free (definition.name);
}

/* LiveObjectsCount (u32): the tool's count of the objects alive, those
 * allocated before the capture included, after each allocation and at
 * each GC once it found the dead. A counter track of the process: it
 * bounds no object's life (it does not say which objects it counts),
 * so the allocations do not use it. */
static void
add_live_objects_count (SpsMsMemory  *self,
                        guint32       process,
                        SpsTime       ts,
                        const guint8 *p,
                        gsize         len,
                        gsize         offset)
{
  guint track = GPOINTER_TO_UINT (g_hash_table_lookup (self->live_tracks, GUINT_TO_POINTER (process + 1)));

  if (len < 4)
    {
      warn (self, offset, _("a LiveObjectsCount event is shorter than its count"));
      return;
    }
  if (track == 0)
    {
      track = sps_trace_builder_ensure_counter_track (self->builder, process,
                                                      sps_trace_builder_intern (self->builder, "Live objects", -1),
                                                      sps_trace_builder_intern (self->builder, "LiveObjectsCount", -1)) + 1;
      g_hash_table_insert (self->live_tracks, GUINT_TO_POINTER (process + 1), GUINT_TO_POINTER (track));
    }
  sps_trace_builder_add_counter_value (self->builder, track - 1, ts, sps_ms_read_u32 (p));
}

/* GCAllocationTick: AllocationAmount u32, AllocationKind u32, then from v1
 * ClrInstanceID u16, from v2 AllocationAmount64 u64, TypeID (pointer),
 * TypeName, HeapIndex u32, from v3 Address (pointer), from v4 ObjectSize */
static void
add_allocation_tick (SpsMsMemory  *self,
                     guint         version,
                     guint         pointer_size,
                     guint32       process,
                     guint32       thread,
                     SpsTime       ts,
                     const guint8 *p,
                     gsize         len,
                     gsize         offset,
                     guint32      *allocation)
{
  guint64 amount;
  guint32 type = 0;
  guint64 address = 0;

  if (len < 8)
    {
      warn (self, offset, _("a GCAllocationTick event is shorter than its fixed fields"));
      return;
    }
  amount = sps_ms_read_u32 (p);
  if (version >= 2)
    {
      const guint8 *pos = p + 18 + pointer_size;
      const guint8 *end = p + len;
      g_autofree char *name = NULL;

      if (len < 18 + (gsize) pointer_size || !(name = sps_clr_read_utf16z (&pos, end)) ||
          (gsize) (end - pos) < 4 + (version >= 3 ? pointer_size : 0))
        {
          warn (self, offset, _("a GCAllocationTick event does not fit its version's fields"));
          return;
        }
      amount = sps_ms_read_u64 (p + 10);
      type = sps_trace_builder_intern (self->builder, name, -1);
      if (version >= 3)
        address = sps_ms_read_ptr (pos + 4, pointer_size);
    }

  *allocation = sps_trace_builder_add_allocation (self->builder, process, thread, ts, amount, type, address,
                                                  SPS_HEAP_MANAGED, SPS_ALLOCATION_SAMPLED);
}

/* Sizes from a file: a crafted one must not wrap (nor reach the
 * "unknown" value) */
static guint64
add_saturated (guint64 a,
               guint64 b)
{
  guint64 r;

  return __builtin_add_overflow (a, b, &r) || r == SPS_SIZE_UNKNOWN ? SPS_SIZE_UNKNOWN - 1 : r;
}

static void
add_gc_event (SpsMsMemory      *self,
              SpsMsMemoryEvent  event,
              guint             version,
              guint32           process,
              guint32           thread,
              SpsTime           ts,
              const guint8     *p,
              gsize             len,
              gsize             offset)
{
  GcState *gc = gc_state (self, process);
  guint32 observation;

  switch (event)
    {
    case SPS_MS_MEMORY_GC_START:
      /* v0: Count, Reason; v1 and later: Count, Depth, Reason, Type */
      if (len < (version == 0 ? 8u : 12u))
        break;
      /* .NET Framework 4.5 writes GCStart twice per GC (v1, then v2 with
       * the same Count): the second is the same GC */
      if (gc->in_gc && gc->current_number == sps_ms_read_u32 (p))
        return;
      gc->in_gc = TRUE;
      gc->current_number = sps_ms_read_u32 (p);
      {
        /* A GC of generation g looks at the objects of generations 0…g:
         * an object it finds dead was alive at the last GC that looked
         * at all of those, the last of generation g or older (a younger
         * one would not have seen an old object die). A GC of unknown
         * generation (v0) counts as looking at everything for what it
         * reports and at generation 0 only for the GCs after it. */
        guint g = version == 0 ? N_GENERATIONS - 1 : MIN (sps_ms_read_u32 (p + 4), N_GENERATIONS - 1);

        gc->previous_start = gc->start_at_least[g];
        for (guint k = 0; k <= (version == 0 ? 0 : g); k++)
          gc->start_at_least[k] = ts;
      }
      gc->current_start = ts;
      sps_trace_builder_add_gc_observation (self->builder, process, thread, ts, SPS_GC_START,
                                            sps_ms_read_u32 (p),
                                            version == 0 ? -1 : (gint32) MIN (sps_ms_read_u32 (p + 4), G_MAXINT32),
                                            gc_reason (self, sps_ms_read_u32 (p + (version == 0 ? 4 : 8))));
      return;

    case SPS_MS_MEMORY_GC_END:
      if (len < 8)
        break;
      gc->in_gc = FALSE;
      gc->last_end = sps_trace_builder_add_gc_observation (self->builder, process, thread, ts, SPS_GC_END,
                                                           sps_ms_read_u32 (p),
                                                           (gint32) MIN (sps_ms_read_u32 (p + 4), G_MAXINT32), 0);
      return;

    case SPS_MS_MEMORY_GC_MARK:
      /* HeapNum u32, ClrInstanceID u16, Type u32, Bytes u64 */
      if (len < 18)
        break;
      observation = sps_trace_builder_add_gc_observation (self->builder, process, thread, ts, SPS_GC_MARK, 0, -1,
                                                          mark_type (self, sps_ms_read_u32 (p + 6)));
      sps_trace_builder_set_gc_observation_bytes (self->builder, observation, sps_ms_read_u64 (p + 10));
      return;

    case SPS_MS_MEMORY_GC_SUSPEND:
      /* Reason u32, Count u32 (v1) */
      if (len < 4)
        break;
      sps_trace_builder_add_gc_observation (self->builder, process, thread, ts, SPS_GC_SUSPEND,
                                            len >= 8 ? sps_ms_read_u32 (p + 4) : 0, -1,
                                            suspend_reason (self, sps_ms_read_u32 (p)));
      return;

    case SPS_MS_MEMORY_GC_RESTART:
      sps_trace_builder_add_gc_observation (self->builder, process, thread, ts, SPS_GC_RESTART, 0, -1, 0);
      return;

    case SPS_MS_MEMORY_GC_HEAP_STATS:
      {
        /* Generation sizes 0–3 (each followed by its promoted size), and
         * from v2 the pinned object heap's (generation 4) at byte 94 */
        guint64 heap = 0;

        if (len < 64)
          break;
        for (guint g = 0; g < 4; g++)
          heap = add_saturated (heap, sps_ms_read_u64 (p + 16 * g));
        if (version >= 2 && len >= 102)
          heap = add_saturated (heap, sps_ms_read_u64 (p + 94));
        if (gc->last_end != SPS_NO_INDEX)
          sps_trace_builder_set_gc_observation_bytes (self->builder, gc->last_end, heap);
      }
      return;

    case SPS_MS_MEMORY_NONE:
    case SPS_MS_MEMORY_OBJECT_ALLOCATION:
    case SPS_MS_MEMORY_DEAD_OBJECTS:
    case SPS_MS_MEMORY_TYPE_DEFINITION:
    case SPS_MS_MEMORY_LIVE_OBJECTS_COUNT:
    case SPS_MS_MEMORY_ALLOCATION_TICK:
    default:
      g_assert_not_reached ();
    }

  warn (self, offset, _("a GC event is shorter than its fields"));
}

/**
 * sps_ms_memory_add:
 * @self: the heap state of an import
 * @event: what sps_ms_memory_classify() said of the event
 * @version: the event's version
 * @pointer_size: 4 or 8
 * @process: the process index
 * @thread: the thread index, or %SPS_NO_INDEX
 * @ts: the event's time
 * @payload: its payload
 * @len: the payload's size
 * @offset: the event's byte offset in the file, for warnings
 *
 * Returns: the allocation the event added (for the importer to give it
 *   its stack), or %SPS_NO_INDEX
 */
guint32
sps_ms_memory_add (SpsMsMemory      *self,
                   SpsMsMemoryEvent  event,
                   guint             version,
                   guint             pointer_size,
                   guint32           process,
                   guint32           thread,
                   SpsTime           ts,
                   const guint8     *payload,
                   gsize             len,
                   gsize             offset)
{
  guint32 allocation = SPS_NO_INDEX;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (payload != NULL || len == 0, SPS_NO_INDEX);
  g_return_val_if_fail (pointer_size == 4 || pointer_size == 8, SPS_NO_INDEX);

  switch (event)
    {
    case SPS_MS_MEMORY_OBJECT_ALLOCATION:
      /* Only the layout the provider's metadata describes */
      if (version == 3)
        add_object_allocation (self, process, thread, ts, payload, len, offset, &allocation);
      else
        warn (self, offset, _("an ObjectAllocation event of a version other than 3; it is not read"));
      break;
    case SPS_MS_MEMORY_DEAD_OBJECTS:
      add_dead_objects (self, process, thread, ts, payload, len, offset);
      break;
    case SPS_MS_MEMORY_TYPE_DEFINITION:
      add_type_definition (self, payload, len, offset);
      break;
    case SPS_MS_MEMORY_ALLOCATION_TICK:
      add_allocation_tick (self, version, pointer_size, process, thread, ts, payload, len, offset, &allocation);
      break;
    case SPS_MS_MEMORY_GC_START:
    case SPS_MS_MEMORY_GC_END:
    case SPS_MS_MEMORY_GC_MARK:
    case SPS_MS_MEMORY_GC_SUSPEND:
    case SPS_MS_MEMORY_GC_RESTART:
    case SPS_MS_MEMORY_GC_HEAP_STATS:
      add_gc_event (self, event, version, process, thread, ts, payload, len, offset);
      break;
    case SPS_MS_MEMORY_LIVE_OBJECTS_COUNT:
      add_live_objects_count (self, process, ts, payload, len, offset);
      break;
    case SPS_MS_MEMORY_NONE:
    default:
      break;
    }

  return allocation;
}

/**
 * sps_ms_memory_mark_gap:
 * @self: the heap state of an import
 * @from: the last time known complete before the loss (%SPS_TIME_MIN when
 *   not known)
 * @to: the first time known complete after it (%SPS_TIME_MAX when the
 *   stream stopped, or not known)
 *
 * Notes that events were lost in (@from, @to). An object born before @to
 * and never reported dead may have died in the loss:
 * sps_ms_memory_finish() makes it %SPS_ALLOCATION_IN_GAP, known alive
 * until @from (or its birth, if later).
 */
void
sps_ms_memory_mark_gap (SpsMsMemory *self,
                        SpsTime      from,
                        SpsTime      to)
{
  Gap gap = { MIN (from, to), MAX (from, to) };

  g_return_if_fail (self != NULL);

  g_array_append_val (self->gaps, gap);
}

static int
compare_gap_ends (gconstpointer a,
                  gconstpointer b)
{
  SpsTime ta = ((const Gap *) a)->to;
  SpsTime tb = ((const Gap *) b)->to;

  return (ta > tb) - (ta < tb);
}

/* The earliest time an object born at @birth may have died unseen: the
 * earliest start of the gaps ending after its birth (gaps sorted by end,
 * @min_from[i] the least start of gaps i…), or SPS_TIME_MAX */
static SpsTime
earliest_unseen_death (GArray        *gaps,
                       const SpsTime *min_from,
                       SpsTime        birth)
{
  guint lo = 0, hi = gaps->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (gaps, Gap, mid).to <= birth)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < gaps->len ? MAX (birth, min_from[lo]) : SPS_TIME_MAX;
}

static gboolean
lookup_type (guint64      module,
             guint32      token,
             const char **name,
             guint32     *parent,
             guint32     *n_generic,
             gpointer     user_data)
{
  SpsMsMemory *self = user_data;
  TypeKey key = { module, token };
  const TypeInfo *info = g_hash_table_lookup (self->type_names, &key);

  if (info == NULL)
    return FALSE;
  *name = sps_string_pool_get (sps_trace_builder_get_strings (self->builder), info->name, NULL);
  *parent = info->parent;
  *n_generic = info->n_generic;
  return TRUE;
}

/* The type a descriptor names, as C# writes it (sps-ms-profiler.c) */
static guint32
descriptor_name (SpsMsMemory *self,
                 GBytes      *descriptor)
{
  gsize len;
  const guint8 *types = g_bytes_get_data (descriptor, &len);
  g_autofree char *name = sps_ms_type_descriptor_name (types, len, lookup_type, self);

  /* A descriptor that does not parse names the allocated type alone */
  if (name == NULL)
    {
      const char *base = NULL;
      guint32 parent, n_generic;

      if (lookup_type (sps_ms_read_u64 (types), sps_ms_read_u32 (types + 8), &base, &parent, &n_generic, self))
        name = g_strdup (base);
      else
        name = g_strdup_printf ("type 0x%08x of module 0x%" G_GINT64_MODIFIER "x",
                                sps_ms_read_u32 (types + 8), sps_ms_read_u64 (types));
    }
  return sps_trace_builder_intern (self->builder, name, -1);
}

/**
 * sps_ms_memory_finish:
 * @self: the heap state of an import whose every event was added
 *
 * Names the objects' types (a TypeDefinition may come after the
 * allocations of its type) and marks the objects that a capture gap may
 * have hidden the death of.
 */
void
sps_ms_memory_finish (SpsMsMemory *self)
{
  GHashTableIter iter;
  gpointer key, value;
  g_autofree SpsTime *min_from = NULL;
  g_autofree guint32 *names = NULL;

  g_return_if_fail (self != NULL);

  names = g_new0 (guint32, MAX (self->descriptors->len, 1));
  for (guint i = 0; i < self->pending_types->len; i++)
    {
      const PendingType *pending = &g_array_index (self->pending_types, PendingType, i);

      if (names[pending->descriptor] == 0)
        names[pending->descriptor] = descriptor_name (self, g_ptr_array_index (self->descriptors, pending->descriptor));
      sps_trace_builder_set_allocation_type (self->builder, pending->allocation, names[pending->descriptor]);
    }
  g_array_set_size (self->pending_types, 0);

  if (self->gaps->len == 0)
    return;

  g_array_sort (self->gaps, compare_gap_ends);
  min_from = g_new (SpsTime, self->gaps->len);
  for (guint i = self->gaps->len; i > 0; i--)
    min_from[i - 1] = MIN (g_array_index (self->gaps, Gap, i - 1).from,
                           i < self->gaps->len ? min_from[i] : SPS_TIME_MAX);

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint32 allocation = GPOINTER_TO_UINT (value) - 1;
      SpsTime birth;
      SpsTime unseen;

      sps_trace_builder_get_allocation_life (self->builder, allocation, &birth, NULL);
      unseen = earliest_unseen_death (self->gaps, min_from, birth);
      if (unseen == SPS_TIME_MAX)
        continue;
      /* Alive until then; after it, perhaps dead */
      sps_trace_builder_set_allocation_certainty (self->builder, allocation, SPS_ALLOCATION_IN_GAP);
      sps_trace_builder_set_allocation_death (self->builder, allocation, unseen, SPS_TIME_MAX);
    }
}
