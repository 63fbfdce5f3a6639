/* sps-chrome-importer-private.h: what the parts of the Chrome JSON importer share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The importer is one class over three files: the file, the event loop and
 * messages in sps-chrome-importer.c; processes, threads, ids, small objects
 * and stack frames in sps-chrome-load-lookup.c; what each phase makes in
 * sps-chrome-load-phases.c. They share one Loader, and the lookups that
 * run for every event are inline here.
 */

#pragma once

#include <glib/gi18n-lib.h>

#include "sps-chrome-cpu-profile.h"
#include "sps-chrome-interner.h"
#include "sps-chrome-objects.h"
#include "sps-chrome-scanner.h"
#include "sps-chrome-stack-frames.h"
#include "sps-chrome-top-samples.h"

G_BEGIN_DECLS

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
  SpsChromeObjects     *objects;       /* N, O, D as allocations */
  GString              *scratch;
  char                 *display_name;
  const char           *base;
  gsize                 len;
  guint                 time_exp;       /* the time unit: × 10^time_exp = ns */
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

/* Messages and strings (sps-chrome-importer.c) */
void
sps_chrome_loader_warn (Loader     *self,
                        const char *name,
                        gsize       offset,
                        const char *format,
                        ...) G_GNUC_PRINTF (4, 5);

void
sps_chrome_loader_warn_replaced (Loader               *self,
                                 const SpsChromeValue *value);

void
sps_chrome_loader_append_text (Loader               *self,
                               GString              *out,
                               const SpsChromeValue *value);

/* Processes, threads, ids, small objects, stack frames (sps-chrome-load-lookup.c) */
typedef struct
{
  SpsChromeScanner scanner;
  gboolean         ok;
} ObjectIter;

void
sps_chrome_object_iter_init (ObjectIter           *iter,
                             Loader               *self,
                             const SpsChromeValue *object);

gboolean
sps_chrome_object_iter_next (ObjectIter     *iter,
                             SpsChromeValue *key,
                             SpsChromeValue *value);

void
sps_chrome_object_iter_clear (ObjectIter *iter);

gboolean
sps_chrome_object_lookup (Loader               *self,
                          const SpsChromeValue *object,
                          const char           *name,
                          SpsChromeValue       *value);

guint32
sps_chrome_loader_process_for_pid (Loader *self,
                                   gint64  pid);

gint64
sps_chrome_loader_synthetic_pid (Loader               *self,
                                 const SpsChromeValue *value);

guint32
sps_chrome_loader_event_thread (Loader               *self,
                                const SpsChromeEvent *ev);

IdScope
sps_chrome_loader_event_id (Loader               *self,
                            const SpsChromeEvent *ev,
                            SpsChromeValue       *id);

guint64
sps_chrome_identity_key (guint64               seed,
                         const SpsChromeValue *id,
                         guint32               a,
                         guint32               b,
                         gboolean              local,
                         gint64                pid);

guint32
sps_chrome_loader_scope_name (Loader               *self,
                              const SpsChromeEvent *ev);

void
sps_chrome_loader_bind_flow (Loader               *self,
                             const SpsChromeEvent *ev,
                             guint32               thread,
                             guint32               handle,
                             guint32               name,
                             guint32               category);

SpsChromeScanResult
sps_chrome_loader_read_stack_frames (Loader           *self,
                                     SpsChromeScanner *scanner);

void
sps_chrome_loader_resolve_samples (Loader *self);

/* Phases (sps-chrome-load-phases.c) */
guint32
sps_chrome_loader_single_frame (Loader  *self,
                                guint32  name);

void
sps_chrome_loader_dispatch (Loader               *self,
                            const SpsChromeEvent *ev);

/* Inline: they run for every event */

static inline gsize
sps_chrome_loader_offset (Loader     *self,
                          const char *p)
{
  return (gsize) (p - self->base);
}

static inline guint32
sps_chrome_loader_intern (Loader               *self,
                          const SpsChromeValue *value,
                          guint                *flags)
{
  guint32 id = sps_chrome_interner_intern (self->interner, value, flags);

  if G_UNLIKELY (*flags & SPS_CHROME_STRING_REPLACED)
    sps_chrome_loader_warn_replaced (self, value);
  return id;
}

static inline guint32
sps_chrome_loader_intern_simple (Loader               *self,
                                 const SpsChromeValue *value)
{
  guint flags;

  return sps_chrome_loader_intern (self, value, &flags);
}

static inline gboolean
sps_chrome_value_is_text (const SpsChromeValue *value)
{
  return value->type == SPS_CHROME_VALUE_STRING || value->type == SPS_CHROME_VALUE_NUMBER;
}

static inline gint64
sps_chrome_loader_event_pid (Loader               *self,
                             const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_PID) == 0)
    return 0;
  if G_LIKELY (ev->pid_is_int)
    return ev->pid_value;
  if (sps_chrome_value_is_text (&ev->pid))
    return sps_chrome_loader_synthetic_pid (self, &ev->pid);
  return 0;
}

static inline guint32
sps_chrome_loader_event_process (Loader               *self,
                                 const SpsChromeEvent *ev)
{
  return sps_chrome_loader_process_for_pid (self, sps_chrome_loader_event_pid (self, ev));
}

G_END_DECLS
