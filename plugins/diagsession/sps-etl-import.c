/* sps-etl-import.c: one or more ETL files of a session into a trace builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The files of one session share one clock (Diagnostics Hub writes a
 * kernel and user loggers' files; PerfView merges them into one): all are
 * read first, then the samples become rows of the sample table on their
 * threads, each with its stack as a callsite chain. Frames are named as
 * PerfView names them: a managed method by the runtime's events
 * ("module!Namespace.Method(params)", the code the .nettrace importer
 * uses), native code by the image that holds it ("ntdll.dll!+0x1f2e0"),
 * and an address no image holds by itself ("0x7ffd2df61000"). Times are
 * clock ticks since the earliest file's start, in nanoseconds, computed in
 * 128 bits.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <math.h>
#include <string.h>
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

#include <glib/gi18n-lib.h>

#include "sps-clr-symbols.h"
#include "sps-etl-events.h"
#include "sps-etl-import.h"
#include "sps-etl-map.h"
#include "sps-etl-private.h"

/* The kernel's own processes */
#define PID_IDLE 0

typedef struct
{
  guint64 base;
  guint64 size;
  guint32 name;             /* string id of the file's base name */
} ImageRange;

struct _SpsEtlImport
{
  SpsTraceBuilder      *builder;
  SpsEtlDecompressFunc  decompress;
  SpsEtlKernel         *kernel;
  SpsEtlEvents         *events;       /* every event but samples and stacks */
  GHashTable           *clr;          /* pid → SpsClrSymbols */
  guint8                runtime[16];
  guint8                rundown[16];
  const char           *display_name; /* of the file being read */

  gboolean              have_clock;
  guint                 n_headers;    /* files whose header was read */
  SpsEtlClock           clock;        /* from the earliest file's start */
  guint                 pointer_size;

  SpsEtlImportStats     stats;
  gboolean              finished;

  SpsEtlBufferFunc      buffer_func;
  gpointer              buffer_data;
  GHashTable           *processes;    /* pid → builder process */
  guint32               last_pid;     /* the last one asked for, and its */
  guint32               last_process; /* process (SPS_NO_INDEX: none yet) */
  SpsClrSymbols        *last_clr;     /* the last process's symbols asked */
  guint32               last_clr_pid; /* for, and its pid */
  SpsEtlMap             builder_threads; /* (pid << 32 | tid) → builder thread */
  guint64               last_thread_key; /* the last one asked for, and its thread: */
  guint32               last_thread;     /* a buffer's events run in streaks of one */
  GHashTable           *process_samples; /* after finish: pid → samples */
};

SpsEtlImport *
sps_etl_import_new (SpsTraceBuilder      *builder,
                    SpsEtlDecompressFunc  decompress)
{
  SpsEtlImport *self = g_new0 (SpsEtlImport, 1);

  self->builder = g_object_ref (builder);
  self->decompress = decompress;
  self->kernel = sps_etl_kernel_new ();
  self->events = sps_etl_events_new (builder, decompress);
  self->clr = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) sps_clr_symbols_free);
  self->processes = g_hash_table_new (NULL, NULL);
  sps_etl_map_init (&self->builder_threads);
  self->last_thread = SPS_NO_INDEX;
  self->last_process = SPS_NO_INDEX;
  self->pointer_size = 8;
  sps_etl_guid_parse ("{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}", self->runtime);
  sps_etl_guid_parse ("{a669021c-c450-4609-a035-5af59af4df18}", self->rundown);
  return self;
}

void
sps_etl_import_free (SpsEtlImport *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->builder);
  sps_etl_kernel_free (self->kernel);
  sps_etl_events_free (self->events);
  g_hash_table_unref (self->clr);
  g_clear_pointer (&self->processes, g_hash_table_unref);
  sps_etl_map_clear (&self->builder_threads);
  g_clear_pointer (&self->process_samples, g_hash_table_unref);
  g_free (self);
}

const SpsEtlImportStats *
sps_etl_import_get_stats (SpsEtlImport *self)
{
  return &self->stats;
}

SpsEtlKernel *
sps_etl_import_get_kernel (SpsEtlImport *self)
{
  return self->kernel;
}

/**
 * sps_etl_import_get_clock:
 * @self: an import
 * @start_ticks: (out): the earliest file's start, in clock ticks
 * @frequency: (out): ticks per second
 *
 * Returns: %FALSE when no file had a readable header
 */
gboolean
sps_etl_import_get_clock (SpsEtlImport *self,
                          guint64      *start_ticks,
                          guint64      *frequency)
{
  *start_ticks = self->clock.start_ticks;
  *frequency = self->clock.frequency;
  return self->have_clock;
}

/**
 * sps_etl_import_count_process_samples:
 * @self: a finished import
 * @pid: a process id
 *
 * Returns: how many samples the process has
 */
guint
sps_etl_import_count_process_samples (SpsEtlImport *self,
                                      guint32       pid)
{
  if (self->process_samples == NULL)
    return 0;
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->process_samples, GUINT_TO_POINTER (pid)));
}

/**
 * sps_etl_import_set_buffer_func:
 * @self: an import
 * @func: (nullable): called before each buffer that is read, with its
 *   offset and the file's size; %FALSE stops reading the file
 * @user_data: for @func
 *
 * For progress and cancelling.
 */
void
sps_etl_import_set_buffer_func (SpsEtlImport     *self,
                                SpsEtlBufferFunc  func,
                                gpointer          user_data)
{
  self->buffer_func = func;
  self->buffer_data = user_data;
}

/**
 * sps_etl_import_get_processes:
 * @self: a finished import
 *
 * Returns: (transfer none) (nullable): pid → the builder's process index
 *   of each process that has rows, %NULL before the import is finished
 *   or when no file had a header
 */
GHashTable *
sps_etl_import_get_processes (SpsEtlImport *self)
{
  return self->finished && self->have_clock ? self->processes : NULL;
}

/* The session's clock: its start and frequency (not 0: the reader
 * refuses a header that says 0) */
static void
set_clock (SpsEtlImport *self,
           guint64       start_ticks,
           guint64       frequency)
{
  self->have_clock = TRUE;
  sps_etl_clock_init (&self->clock, start_ticks, frequency);
}

/**
 * sps_etl_import_add_clock:
 * @self: an import that has read nothing yet
 * @etl: one file of the session
 *
 * Events go to the builder as they are read, on the session's clock: the
 * earliest file's start. When a session has several files, give each one
 * here before reading any; a single file's header sets the clock itself.
 * A file without a readable header is left to sps_etl_import_read() to
 * report.
 */
void
sps_etl_import_add_clock (SpsEtlImport *self,
                          GBytes       *etl)
{
  SpsEtlHeader header;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->finished);

  if (!sps_etl_read_header (g_bytes_get_data (etl, NULL), g_bytes_get_size (etl), &header))
    return;
  if (!self->have_clock)
    set_clock (self, header.start_ticks, header.perf_freq);
  else if (header.perf_freq == self->clock.frequency)
    self->clock.start_ticks = MIN (self->clock.start_ticks, header.start_ticks);
  g_free (header.session_name);
}

/* Reading */

static void
on_header (const SpsEtlHeader *header,
           gpointer            user_data)
{
  SpsEtlImport *self = user_data;

  sps_etl_events_set_compression (self->events, header->compression);
  self->stats.events_lost += header->events_lost;
  if (self->n_headers++ == 0)
    self->pointer_size = header->pointer_size;
  if (!self->have_clock)
    {
      set_clock (self, header->start_ticks, header->perf_freq);
      return;
    }
  if (header->perf_freq != self->clock.frequency)
    {
      /* Translators: a file name, then what is wrong with it */
      sps_trace_builder_warn (self->builder, "etl-clock-mismatch", _("%s: %s"), self->display_name,
                              _("its clock runs at another frequency than the session's first file's; "
                                "its times are read at the first file's"));
    }
  /* Events of the files before are on the clock already: an earlier
   * start than theirs (a file not given to sps_etl_import_add_clock())
   * gives times before 0 */
}

/* Ticks as ns since the session's start (sps_etl_clock_to_ns()) */
static inline SpsTime
ticks_to_ns (SpsEtlImport *self,
             guint64       ticks)
{
  return sps_etl_clock_to_ns (&self->clock, ticks);
}

static guint32
builder_process (SpsEtlImport *self,
                 guint32       pid)
{
  gpointer value;
  guint32 process;

  if (pid == self->last_pid && self->last_process != SPS_NO_INDEX)
    return self->last_process;
  if (g_hash_table_lookup_extended (self->processes, GUINT_TO_POINTER (pid), NULL, &value))
    {
      self->last_pid = pid;
      self->last_process = GPOINTER_TO_UINT (value);
      return self->last_process;
    }
  process = sps_trace_builder_ensure_process (self->builder, pid == SPS_ETL_NO_ID ? -1 : (gint64) pid);
  if (pid == PID_IDLE)
    sps_trace_builder_set_process_name (self->builder, process,
                                        sps_trace_builder_intern (self->builder, "Idle", -1));
  g_hash_table_insert (self->processes, GUINT_TO_POINTER (pid), GUINT_TO_POINTER (process));
  return process;
}

static guint32
builder_thread (SpsEtlImport *self,
                guint32       pid,
                guint32       tid)
{
  guint64 key = (guint64) pid << 32 | tid;
  guint32 thread;

  if (key == self->last_thread_key && self->last_thread != SPS_NO_INDEX)
    return self->last_thread;
  if (!sps_etl_map_lookup (&self->builder_threads, key, &thread))
    {
      /* A header that names no thread says 0xFFFFFFFF: thread -1, as
       * TraceEvent reports its ThreadID (and -1 for its process) */
      thread = sps_trace_builder_ensure_thread (self->builder, builder_process (self, pid),
                                                tid == SPS_ETL_NO_ID ? -1 : (gint64) tid);
      sps_etl_map_insert (&self->builder_threads, key, thread);
    }
  self->last_thread_key = key;
  self->last_thread = thread;
  return thread;
}

static SpsClrSymbols *
clr_of (SpsEtlImport *self,
        guint32       pid)
{
  SpsClrSymbols *symbols;

  if (self->last_clr != NULL && pid == self->last_clr_pid)
    return self->last_clr;
  if ((symbols = g_hash_table_lookup (self->clr, GUINT_TO_POINTER (pid))) == NULL)
    {
      symbols = sps_clr_symbols_new (self->builder);
      g_hash_table_insert (self->clr, GUINT_TO_POINTER (pid), symbols);
    }
  self->last_clr = symbols;
  self->last_clr_pid = pid;
  return symbols;
}

static void
on_record (const SpsEtlRecord *record,
           gpointer            user_data)
{
  SpsEtlImport *self = user_data;
  const SpsEtlEvent *event;
  SpsClrProvider provider;
  SpsClrEvent kind;

  /* Samples and stack walks, most records, are the kernel reading's
   * alone (a classic kernel GUID's are told apart by the events) */
  if (record->provider == NULL && sps_etl_events_is_sample_data (record->group, record->opcode))
    {
      sps_etl_kernel_add (self->kernel, record);
      return;
    }

  /* Straight to the builder, unless it waits for a name or a process */
  if ((event = sps_etl_events_add (self->events, record)) != NULL)
    sps_trace_builder_add_event (self->builder, builder_thread (self, event->pid, event->tid),
                                 ticks_to_ns (self, event->ticks), event->provider, event->name,
                                 event->descriptor, event->args);
  if (sps_etl_kernel_add (self->kernel, record))
    return;

  if (record->kind != SPS_ETL_RECORD_EVENT_HEADER || record->provider == NULL ||
      record->pid == SPS_ETL_NO_ID)
    return;

  /* The runtime's events that name code go to its process's symbols */
  if (memcmp (record->provider, self->rundown, 16) == 0)
    provider = SPS_CLR_PROVIDER_RUNDOWN;
  else if (memcmp (record->provider, self->runtime, 16) == 0)
    provider = SPS_CLR_PROVIDER_RUNTIME;
  else
    return;

  kind = sps_clr_event_kind (provider, record->id);
  if (kind == SPS_CLR_EVENT_OTHER || kind == SPS_CLR_EVENT_RUNTIME_INFO)
    return;
  if (kind == SPS_CLR_EVENT_METHOD)
    self->stats.clr_method_events++;
  sps_clr_symbols_add_event (clr_of (self, record->pid), provider, record->id,
                             record->payload, record->payload_len);
}

static gboolean
on_buffer (gsize    offset,
           gsize    len,
           gpointer user_data)
{
  SpsEtlImport *self = user_data;

  return self->buffer_func == NULL || self->buffer_func (offset, len, self->buffer_data);
}

static void
on_warning (const char *kind,
            const char *message,
            gpointer    user_data)
{
  SpsEtlImport *self = user_data;

  sps_trace_builder_warn (self->builder, kind, "%s", message);
}

/**
 * sps_etl_import_read:
 * @self: an import
 * @etl: one ETL file of the session, kept for the args of its events
 * @display_name: its name for messages
 * @error: why it is not an ETL trace at all
 *
 * Returns: %FALSE when the file has no readable trace header
 */
gboolean
sps_etl_import_read (SpsEtlImport  *self,
                     GBytes        *etl,
                     const char    *display_name,
                     GError       **error)
{
  const SpsEtlReaderFuncs funcs = { on_header, on_record, on_warning, self->decompress, on_buffer };
  SpsEtlStats stats;
  gboolean ok;

  g_return_val_if_fail (!self->finished, FALSE);

  self->display_name = display_name;
  sps_etl_events_begin_file (self->events, etl, display_name);
  ok = sps_etl_read (g_bytes_get_data (etl, NULL), g_bytes_get_size (etl), display_name,
                     &funcs, self, &stats, error);
  self->display_name = NULL;

  self->stats.reader.n_buffers += stats.n_buffers;
  self->stats.reader.n_compressed_buffers += stats.n_compressed_buffers;
  self->stats.reader.n_skipped_buffers += stats.n_skipped_buffers;
  self->stats.reader.n_records_32 += stats.n_records_32;
  for (guint i = 0; i < SPS_ETL_N_RECORD_KINDS; i++)
    self->stats.reader.n_records[i] += stats.n_records[i];
  return ok;
}

/* Building the trace */

typedef struct
{
  SpsEtlImport *self;
  GHashTable   *images;        /* pid → GArray of ImageRange, by base */
  GHashTable   *threads;       /* tid → GPtrArray of SpsEtlThread (borrowed) */
  GHashTable   *frames;        /* pid → FrameCache */
  struct _FrameCache *last_frames; /* the one asked for last: a stack's
                                    * part is of one process */
  GArray       *thread_samples; /* builder thread → its samples (guint) */
  guint32       sample_name;
} Build;

/* The frames of one process's addresses (0: the kernel's) */
typedef struct _FrameCache
{
  guint32   space;
  SpsEtlMap frames;          /* ip → frame */
} FrameCache;

static void
frame_cache_free (gpointer data)
{
  FrameCache *cache = data;

  sps_etl_map_clear (&cache->frames);
  g_free (cache);
}

static int
compare_ranges (gconstpointer a,
                gconstpointer b)
{
  const ImageRange *ra = a;
  const ImageRange *rb = b;

  return ra->base < rb->base ? -1 : ra->base > rb->base;
}

static void
index_images (Build *build)
{
  SpsEtlKernel *kernel = build->self->kernel;
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < kernel->images->len; i++)
    {
      const SpsEtlImage *image = g_ptr_array_index (kernel->images, i);
      GArray *ranges = g_hash_table_lookup (build->images, GUINT_TO_POINTER (image->pid));
      ImageRange range = { image->base, image->size,
                           sps_trace_builder_intern (build->self->builder, image->name, -1) };

      if (ranges == NULL)
        {
          ranges = g_array_new (FALSE, FALSE, sizeof (ImageRange));
          g_hash_table_insert (build->images, GUINT_TO_POINTER (image->pid), ranges);
        }
      g_array_append_val (ranges, range);
    }

  g_hash_table_iter_init (&iter, build->images);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_sort (value, compare_ranges);
}

/* The image of @pid holding @ip, or NULL */
static const ImageRange *
find_image (Build   *build,
            guint32  pid,
            guint64  ip)
{
  GArray *ranges = g_hash_table_lookup (build->images, GUINT_TO_POINTER (pid));
  guint lo = 0, hi;

  if (ranges == NULL)
    return NULL;
  hi = ranges->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (ranges, ImageRange, mid).base <= ip)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* The last image starting at or before ip; several may (reloads) */
  for (guint i = lo; i > 0; i--)
    {
      const ImageRange *r = &g_array_index (ranges, ImageRange, i - 1);

      if (ip - r->base < r->size)
        return r;
      if (lo - i > 8)
        break;
    }
  return NULL;
}

static gboolean
is_kernel_address (Build   *build,
                   guint64  ip)
{
  return build->self->pointer_size == 8 ? ip >= G_GUINT64_CONSTANT (0xffff800000000000) : ip >= 0x80000000u;
}

static guint32
frame_of (Build   *build,
          guint32  pid,
          guint64  ip)
{
  SpsTraceBuilder *b = build->self->builder;
  gboolean kernel = is_kernel_address (build, ip);
  guint32 space = kernel ? PID_IDLE : pid;
  FrameCache *cache = build->last_frames;
  SpsClrSymbols *symbols;
  const ImageRange *image;
  guint32 frame = SPS_NO_INDEX;
  char name[64];

  if (cache == NULL || cache->space != space)
    {
      if ((cache = g_hash_table_lookup (build->frames, GUINT_TO_POINTER (space))) == NULL)
        {
          cache = g_new (FrameCache, 1);
          cache->space = space;
          sps_etl_map_init (&cache->frames);
          g_hash_table_insert (build->frames, GUINT_TO_POINTER (space), cache);
        }
      build->last_frames = cache;
    }
  if (sps_etl_map_lookup (&cache->frames, ip, &frame))
    return frame;

  /* Kernel code is in the images of process 0, the same in every process */
  if (!kernel && (symbols = g_hash_table_lookup (build->self->clr, GUINT_TO_POINTER (pid))) != NULL)
    frame = sps_clr_symbols_frame (symbols, ip);

  if (frame == SPS_NO_INDEX && (image = find_image (build, space, ip)) != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s!+0x%" G_GINT64_MODIFIER "x",
                                               sps_string_pool_get (sps_trace_builder_get_strings (b),
                                                                    image->name, NULL),
                                               ip - image->base);

      frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, text, -1), 0, image->name, ip);
    }

  if (frame == SPS_NO_INDEX)
    {
      g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", ip);
      frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, name, -1), 0, 0, ip);
    }

  sps_etl_map_insert (&cache->frames, ip, frame);
  return frame;
}

/* The process a thread belonged to at @ts: the lifetime that holds it,
 * else the tid's last */
static guint32
pid_of_thread (Build   *build,
               guint32  tid,
               guint64  ts)
{
  GPtrArray *lives = g_hash_table_lookup (build->threads, GUINT_TO_POINTER (tid));

  if (tid == 0)
    return PID_IDLE;
  if (lives == NULL)
    return SPS_ETL_NO_ID;
  for (guint i = 0; i < lives->len; i++)
    {
      const SpsEtlThread *t = g_ptr_array_index (lives, i);

      if (ts >= t->start && ts < t->end)
        return t->pid;
    }
  return ((const SpsEtlThread *) g_ptr_array_index (lives, lives->len - 1))->pid;
}

/* Interns the IPs (leaf first) of @stack from the root down onto @callsite */
static guint32
intern_part (Build        *build,
             guint32       pid,
             guint32       stack,
             guint32       callsite)
{
  SpsEtlKernel *kernel = build->self->kernel;
  const SpsEtlStack *s = &g_array_index (kernel->stacks, SpsEtlStack, stack);

  for (guint i = s->len; i > 0; i--)
    callsite = sps_trace_builder_intern_callsite (build->self->builder, callsite,
                                                  frame_of (build, pid, sps_etl_stack_ip (kernel, s, i - 1)));
  return callsite;
}

/* Consecutive samples are mostly of one thread (the idle one above all):
 * its process and builder thread are kept while the time stays in the
 * thread's lifetime. */
typedef struct
{
  guint32 tid;
  guint64 start;
  guint64 end;              /* start == end: nothing kept */
  guint32 pid;
  guint32 thread;
} ThreadMemo;

static void
thread_of_sample (Build              *build,
                  ThreadMemo         *memo,
                  const SpsEtlSample *sample)
{
  GPtrArray *lives;

  if (sample->tid == memo->tid && sample->ts >= memo->start && sample->ts < memo->end)
    return;

  memo->tid = sample->tid;
  memo->pid = pid_of_thread (build, sample->tid, sample->ts);
  memo->thread = builder_thread (build->self, memo->pid, sample->tid);
  memo->start = memo->end = 0;
  if (sample->tid == 0)
    memo->end = G_MAXUINT64;
  else if ((lives = g_hash_table_lookup (build->threads, GUINT_TO_POINTER (sample->tid))) != NULL)
    for (guint i = 0; i < lives->len; i++)
      {
        const SpsEtlThread *t = g_ptr_array_index (lives, i);

        if (sample->ts >= t->start && sample->ts < t->end)
          {
            memo->start = t->start;
            memo->end = t->end;
            break;
          }
      }
}

/* The callsite of a sample without a stack, its IP alone, memoised by
 * the IP's id (the idle loop and hot functions are sampled at a few IPs),
 * with the process it was interned for: a kernel IP's frame is the same
 * in every process, a user IP's is the process's */
typedef struct
{
  guint32 pid;
  guint32 callsite;         /* SPS_NO_INDEX: not yet */
} LeafMemo;

static guint32
leaf_callsite (Build    *build,
               LeafMemo *memo,
               guint32   pid,
               guint32   ip_id)
{
  LeafMemo *entry = &memo[ip_id];
  guint64 ip = g_array_index (build->self->kernel->sample_ips, guint64, ip_id);

  if (is_kernel_address (build, ip))
    pid = PID_IDLE;
  if (entry->callsite == SPS_NO_INDEX || entry->pid != pid)
    {
      entry->pid = pid;
      entry->callsite = sps_trace_builder_intern_callsite (build->self->builder, SPS_NO_INDEX,
                                                           frame_of (build, pid, ip));
    }
  return entry->callsite;
}

/* The callsites of stacks already interned: a user part by its stack
 * (stack keys make many samples share one), with the process it was
 * interned for; a kernel part by its stack and the callsite below it, in
 * a direct-mapped memo */
typedef struct
{
  guint32 pid;
  guint32 callsite;         /* SPS_NO_INDEX: not yet */
} UserMemo;

#define KERNEL_MEMO_SIZE 4096

typedef struct
{
  guint32 stack;
  guint32 below;
  guint32 pid;
  guint32 callsite;         /* SPS_NO_INDEX: empty */
} KernelMemo;

static guint32
stack_callsite (Build                    *build,
                UserMemo                 *user_memo,
                KernelMemo               *kernel_memo,
                guint32                   pid,
                const SpsEtlSampleStacks *parts)
{
  guint32 callsite = SPS_NO_INDEX;
  guint32 user_stack = parts->user;
  guint32 kernel_stack = parts->kernel;

  /* The user part is the root side of the stack */
  if (user_stack != SPS_ETL_NO_ID)
    {
      UserMemo *memo = &user_memo[user_stack];

      if (memo->callsite == SPS_NO_INDEX || memo->pid != pid)
        {
          memo->pid = pid;
          memo->callsite = intern_part (build, pid, user_stack, SPS_NO_INDEX);
        }
      callsite = memo->callsite;
    }
  if (kernel_stack != SPS_ETL_NO_ID)
    {
      KernelMemo *memo = &kernel_memo[(kernel_stack * 0x9e3779b1u ^ callsite) % KERNEL_MEMO_SIZE];

      if (memo->callsite == SPS_NO_INDEX || memo->stack != kernel_stack ||
          memo->below != callsite || memo->pid != pid)
        {
          memo->stack = kernel_stack;
          memo->below = callsite;
          memo->pid = pid;
          memo->callsite = intern_part (build, pid, kernel_stack, callsite);
        }
      callsite = memo->callsite;
    }
  return callsite;
}

static void
add_samples (Build *build)
{
  SpsEtlImport *self = build->self;
  SpsEtlKernel *kernel = self->kernel;
  ThreadMemo thread = { 0, 0, 0, 0, 0 };
  /* Each sample stands for one interval of CPU time, when the trace says
   * how long that is */
  double weight = kernel->sample_interval != 0 ? (double) kernel->sample_interval * 100 : NAN;
  SpsWeightUnit unit = kernel->sample_interval != 0 ? SPS_WEIGHT_UNIT_NS : SPS_WEIGHT_UNIT_NONE;
  SpsSampleFlags flags = kernel->sample_interval != 0 ? SPS_SAMPLE_HAS_WEIGHT : SPS_SAMPLE_NONE;
  g_autofree LeafMemo *leaves = g_new (LeafMemo, MAX (kernel->sample_ips->len, 1));
  g_autofree UserMemo *user_memo = g_new (UserMemo, MAX (kernel->stacks->len, 1));
  g_autofree KernelMemo *kernel_memo = g_new (KernelMemo, KERNEL_MEMO_SIZE);
  /* The samples' parts, by sample: walked beside the samples */
  const SpsEtlSampleStacks *parts = (const SpsEtlSampleStacks *) (gpointer) kernel->sample_stacks->data;
  guint n_parts = kernel->sample_stacks->len;
  guint next_part = 0;
  const SpsEtlMap *threads = &self->builder_threads;

  for (guint i = 0; i < kernel->sample_ips->len; i++)
    leaves[i].callsite = SPS_NO_INDEX;
  for (guint i = 0; i < kernel->stacks->len; i++)
    user_memo[i].callsite = SPS_NO_INDEX;
  for (guint i = 0; i < KERNEL_MEMO_SIZE; i++)
    kernel_memo[i].callsite = SPS_NO_INDEX;

  for (guint i = 0; i < kernel->samples.len; i++)
    {
      const SpsEtlSample *sample = sps_etl_samples_at (&kernel->samples, i);
      guint32 callsite = SPS_NO_INDEX;

      thread_of_sample (build, &thread, sample);
      if (next_part < n_parts && parts[next_part].sample == i)
        callsite = stack_callsite (build, user_memo, kernel_memo, thread.pid, &parts[next_part++]);
      if (callsite == SPS_NO_INDEX)
        callsite = leaf_callsite (build, leaves, thread.pid, sample->ip);
      else
        self->stats.samples_with_stack++;

      if (thread.thread >= build->thread_samples->len)
        g_array_set_size (build->thread_samples, thread.thread + 1);
      g_array_index (build->thread_samples, guint, thread.thread)++;
      sps_trace_builder_add_sample (self->builder, thread.thread, ticks_to_ns (self, sample->ts),
                                    build->sample_name, callsite, 0, weight, unit, flags);
      /* The kernel's copy goes as the builder's grows */
      if ((i + 1) % SPS_ETL_SAMPLE_BLOCK_SIZE == 0)
        sps_etl_kernel_release_samples (kernel, i + 1);
    }
  sps_etl_kernel_release_samples (kernel, G_MAXUINT);

  /* A process's samples: those of its threads */
  for (guint slot = 0; slot <= threads->mask; slot++)
    {
      gpointer pid = GUINT_TO_POINTER ((guint32) (threads->keys[slot] >> 32));
      guint thread_index = threads->values[slot] - 1;
      guint n;

      if (threads->values[slot] == 0)
        continue;
      n = thread_index < build->thread_samples->len ? g_array_index (build->thread_samples, guint, thread_index) : 0;
      g_hash_table_insert (self->process_samples, pid,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->process_samples, pid)) + n));
    }
}

/* Threads with more samples first (the layout orders a process's threads
 * by sort index), as PerfView lists them by CPU */
static int
compare_thread_samples (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  GArray *counts = user_data;
  guint ca = g_array_index (counts, guint, *(const guint32 *) a);
  guint cb = g_array_index (counts, guint, *(const guint32 *) b);

  if (ca != cb)
    return ca > cb ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

static void
order_threads (Build *build)
{
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint32), build->thread_samples->len);

  for (guint32 t = 0; t < build->thread_samples->len; t++)
    if (g_array_index (build->thread_samples, guint, t) > 0)
      g_array_append_val (order, t);
  g_array_sort_with_data (order, compare_thread_samples, build->thread_samples);
  for (guint i = 0; i < order->len; i++)
    sps_trace_builder_set_thread_sort_index (build->self->builder, g_array_index (order, guint32, i), (gint32) i);
}

/* The callsite of an event's stack parts (an allocation's), user part
 * below kernel part as for a sample; SPS_NO_INDEX when it has none */
static guint32
event_callsite (Build   *build,
                guint32  pid,
                guint32  event_stack)
{
  const SpsEtlEventStack *s = &g_array_index (build->self->kernel->event_stacks, SpsEtlEventStack, event_stack);
  guint32 callsite = SPS_NO_INDEX;

  if (s->user_stack != SPS_ETL_NO_ID)
    callsite = intern_part (build, pid, s->user_stack, SPS_NO_INDEX);
  if (s->kernel_stack != SPS_ETL_NO_ID)
    callsite = intern_part (build, pid, s->kernel_stack, callsite);
  return callsite;
}

/* The events that waited for the threads' processes or their names */
static void
add_events (Build *build)
{
  SpsEtlImport *self = build->self;
  guint n = sps_etl_events_prepare (self->events);
  guint32 allocation, event_stack, callsite;

  for (guint i = 0; i < n; i++)
    {
      const SpsEtlEvent *e = sps_etl_events_at (self->events, i);
      guint32 pid = e->pid;

      /* Headers without a process (PerfInfo's) go to the thread's */
      if (pid == SPS_ETL_NO_ID && e->tid != SPS_ETL_NO_ID)
        pid = pid_of_thread (build, e->tid, e->ticks);
      sps_trace_builder_add_event (self->builder, builder_thread (self, pid, e->tid),
                                   ticks_to_ns (self, e->ticks), e->provider, e->name,
                                   e->descriptor, e->args);
      /* Heap events are also allocations and GC observations (sps-etl-memory.c),
       * an allocation with the stack the kernel walked for it */
      allocation = sps_etl_events_add_memory (self->events, i, builder_process (self, pid),
                                              builder_thread (self, pid, e->tid), ticks_to_ns (self, e->ticks),
                                              &event_stack);
      if (allocation != SPS_NO_INDEX && event_stack != SPS_ETL_NO_ID &&
          (callsite = event_callsite (build, pid, event_stack)) != SPS_NO_INDEX)
        sps_trace_builder_set_allocation_callsite (self->builder, allocation, callsite);
      /* The waiting copy goes as the builder's rows grow */
      sps_etl_events_release (self->events, i + 1);
    }
  sps_etl_events_finish_memory (self->events, self->stats.events_lost > 0);
}

/* Names the processes and threads that have rows (the rundown lists every
 * process of the machine); the profiler's target is kept even without */
static void
name_processes_and_threads (Build *build)
{
  SpsEtlImport *self = build->self;
  SpsEtlKernel *kernel = self->kernel;

  if (kernel->target_pid != SPS_ETL_NO_ID)
    builder_process (build->self, kernel->target_pid);

  for (guint i = 0; i < kernel->processes->len; i++)
    {
      const SpsEtlProcess *p = g_ptr_array_index (kernel->processes, i);
      gpointer process;

      if (p->image != NULL && p->image[0] != '\0' &&
          g_hash_table_lookup_extended (build->self->processes, GUINT_TO_POINTER (p->pid), NULL, &process))
        sps_trace_builder_set_process_name (self->builder, GPOINTER_TO_UINT (process),
                                            sps_trace_builder_intern (self->builder, p->image, -1));
    }
  for (guint i = 0; i < kernel->threads->len; i++)
    {
      const SpsEtlThread *t = g_ptr_array_index (kernel->threads, i);
      guint32 thread;

      if (sps_etl_map_lookup (&build->self->builder_threads, (guint64) t->pid << 32 | t->tid, &thread) &&
          t->name != NULL && t->name[0] != '\0')
        sps_trace_builder_set_thread_name (self->builder, thread,
                                           sps_trace_builder_intern (self->builder, t->name, -1));
    }
}

/**
 * sps_etl_import_finish:
 * @self: an import whose every file was read
 *
 * Adds the processes, threads and samples to the builder.
 */
void
sps_etl_import_finish (SpsEtlImport *self)
{
  Build build = { self, NULL, NULL, NULL, NULL, NULL, 0 };
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (!self->finished);
  self->finished = TRUE;
  if (!self->have_clock)
    return;

  sps_etl_events_want_stacks (self->events, self->kernel);
  sps_etl_kernel_finish (self->kernel);
#ifdef HAVE_MALLOC_TRIM
  /* The reading state the kernel just freed (stack key references and
   * definitions, tables by thread: 4 bytes per sample) is heap glibc
   * keeps, under the builder's sample and event rows that now grow */
  malloc_trim (0);
#endif
  g_hash_table_iter_init (&iter, self->clr);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    sps_clr_symbols_seal (value);

  build.images = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  build.threads = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  build.frames = g_hash_table_new_full (NULL, NULL, NULL, frame_cache_free);
  build.sample_name = sps_trace_builder_intern (self->builder, "PerfInfo/Sample", -1);
  self->process_samples = g_hash_table_new (NULL, NULL);

  index_images (&build);
  for (guint i = 0; i < self->kernel->threads->len; i++)
    {
      SpsEtlThread *t = g_ptr_array_index (self->kernel->threads, i);
      GPtrArray *lives = g_hash_table_lookup (build.threads, GUINT_TO_POINTER (t->tid));

      if (lives == NULL)
        {
          lives = g_ptr_array_new ();
          g_hash_table_insert (build.threads, GUINT_TO_POINTER (t->tid), lives);
        }
      g_ptr_array_add (lives, t);
    }

  build.thread_samples = g_array_new (FALSE, TRUE, sizeof (guint));
  add_samples (&build);
  add_events (&build);
  order_threads (&build);
  name_processes_and_threads (&build);

  g_hash_table_unref (build.images);
  g_hash_table_unref (build.threads);
  g_array_unref (build.thread_samples);
  g_hash_table_unref (build.frames);
}
