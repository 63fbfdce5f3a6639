/* sps-etl-kernel.h: what the kernel's events in an ETL say about processes,
 * threads, images, CPU samples and their stacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-etl-map.h"
#include "sps-etl-reader.h"

G_BEGIN_DECLS

/* One process's lifetime (a pid can be reused after it ended) */
typedef struct
{
  guint32  pid;
  guint32  parent_pid;
  char    *image;           /* ImageFileName: "dotnet.exe" */
  char    *command_line;
  guint64  start;           /* ticks; 0 when it started before the trace */
  guint64  end;             /* ticks; G_MAXUINT64 while it runs */
} SpsEtlProcess;

typedef struct
{
  guint32  tid;
  guint32  pid;
  guint64  start;
  guint64  end;
  char    *name;            /* SetName or a v4 thread event's name; NULL */
} SpsEtlThread;

typedef struct
{
  guint32  pid;
  guint64  base;
  guint64  size;
  char    *name;            /* the file's base name: "ntdll.dll" */
  guint64  load;
  guint64  unload;
} SpsEtlImage;

/* A sampled IP. Millions of them wait for the end of the file, so they
 * are kept in 16 bytes: the IP as an id into the distinct IPs (a trace
 * samples far fewer distinct IPs than it has samples), and the stack
 * parts of the few samples that have any in a table of their own. */
typedef struct
{
  guint64  ts;
  guint32  tid;
  guint32  ip;              /* into sample_ips */
} SpsEtlSample;

/* A stack part given to a sample, in the order the parts were read:
 * sps_etl_kernel_finish() sorts them by sample into sample_stacks, where
 * the first part of each side wins */
typedef struct
{
  guint32  sample;
  guint32  stack;           /* into stacks, with SPS_ETL_PART_USER for a user part */
} SpsEtlSamplePart;

#define SPS_ETL_PART_USER 0x80000000u

/* A sample's stack parts, once matched: indexes into stacks, or
 * SPS_ETL_NO_ID */
typedef struct
{
  guint32  sample;
  guint32  kernel;
  guint32  user;
} SpsEtlSampleStacks;

/* The word after SampledProfile's Count: the processor was running a
 * deferred procedure call or an interrupt service routine (bits 3–6 are
 * the thread's priority; the rest is not documented) */
#define SPS_ETL_SAMPLE_IN_DPC 0x0001
#define SPS_ETL_SAMPLE_IN_ISR 0x0002

/* The samples, in blocks: the import turns them into the builder's rows
 * block by block and frees each block behind it, so that the two do not
 * both hold every sample at once. A block (4 MiB) is a mapping of its
 * own (sps_etl_block_new()); bigger blocks would go back only in big
 * steps. */
#define SPS_ETL_SAMPLE_BLOCK_BITS 18
#define SPS_ETL_SAMPLE_BLOCK_SIZE (1u << SPS_ETL_SAMPLE_BLOCK_BITS)

typedef struct
{
  GPtrArray *blocks;        /* SpsEtlSample[SPS_ETL_SAMPLE_BLOCK_SIZE]; NULL once released */
  guint      len;
} SpsEtlSamples;

static inline SpsEtlSample *
sps_etl_samples_at (const SpsEtlSamples *samples,
                    guint                i)
{
  SpsEtlSample *block = g_ptr_array_index (samples->blocks, i >> SPS_ETL_SAMPLE_BLOCK_BITS);

  return &block[i & (SPS_ETL_SAMPLE_BLOCK_SIZE - 1)];
}

/* A run of IPs in the stack pool. Where every IP of a stack has the same
 * upper 32 bits (a 32-bit process's user stack; a 64-bit one's runs in
 * one module), they are kept once, here, and the IPs in 4 bytes each; the
 * others are in 8 bytes each. A 64-bit kernel's stacks of a 32-bit
 * process (PerfView's x86 trace) thus take half the memory, a third of
 * what the reading holds besides the samples. */
typedef struct
{
  guint32  start;           /* into ips, or into wide_ips */
  guint32  len;
  guint32  high;            /* the IPs' upper 32 bits, unless wide */
  gboolean wide;
} SpsEtlStack;

/* An event other than a sample that wants its stack (an allocation):
 * the stack parts of its (timestamp, thread), as a sample gets them */
typedef struct
{
  guint64  ts;
  guint32  tid;
  guint32  kernel_stack;    /* index into stacks, or SPS_ETL_NO_ID */
  guint32  user_stack;
} SpsEtlEventStack;

typedef struct
{
  GPtrArray *processes;     /* SpsEtlProcess */
  GPtrArray *threads;       /* SpsEtlThread */
  GPtrArray *images;        /* SpsEtlImage */
  SpsEtlSamples samples;    /* in file order */
  GArray    *sample_ips;    /* guint64: the distinct IPs of samples */
  GArray    *sample_parts;  /* SpsEtlSamplePart, while reading */
  GArray    *sample_stacks; /* SpsEtlSampleStacks of the samples that have
                             * parts, by sample, once finished */
  GArray    *stacks;        /* SpsEtlStack */
  GArray    *ips;           /* guint32: read them with sps_etl_stack_ip() */
  GArray    *wide_ips;      /* guint64 */
  GArray    *event_stacks;  /* SpsEtlEventStack */
  guint32    target_pid;    /* Diagnostics Hub's TargetProfilingStarted; SPS_ETL_NO_ID */
  guint32    sample_interval; /* the timer's sampling interval, 100 ns units; 0 unknown */

  guint64    n_samples;             /* SampledProfile events read */
  guint64    n_idle_samples;        /* of those, of the idle thread (tid 0) */
  guint64    n_idle_interrupts;     /* and of those, in a DPC or an ISR */
  guint64    n_stack_events;        /* StackWalk stacks (type 32) */
  guint64    n_key_refs_kernel;     /* stack key references (37, 38) */
  guint64    n_key_refs_user;
  guint64    n_key_definitions;     /* stack key definitions (34, 35) */
  guint64    n_key_rundowns;        /* and those of the rundown (36) */
  guint64    n_stacks_attached;     /* stack parts given to a sample */
  guint64    n_stacks_unmatched;    /* stack parts whose sample was not found */
  guint64    n_keys_unresolved;     /* key references without a definition */
  guint64    n_bad_payloads;        /* events too short for their fields */
  guint64    n_event_stacks_attached; /* stack parts given to other events */

  /* While reading */
  GHashTable *open_processes;  /* pid → SpsEtlProcess */
  GHashTable *open_threads;    /* tid → SpsEtlThread */
  GHashTable *open_images;     /* (pid, base) → SpsEtlImage not unloaded */
  SpsEtlMap   last_samples;    /* tid → index + 1 of its latest sample */
  GArray     *key_defs;        /* stack key definitions, matched at the end */
  GArray     *key_refs;        /* key references, attached at the end */
  GArray     *key_ref_places;  /* (ts, tid) of those whose sample was not
                                * found while reading */
  GArray     *pending_parts;   /* stack parts read before their sample */
  guint32    *ip_slots;        /* sample_ips' ids + 1 by the IP's hash, 0 empty */
  guint       ip_mask;         /* slots - 1 */
  guint64     last_ip;         /* the IP of the sample before, and its id */
  guint32     last_ip_id;
} SpsEtlKernel;

/* The IP of @sample */
static inline guint64
sps_etl_sample_ip (const SpsEtlKernel *kernel,
                   const SpsEtlSample *sample)
{
  return g_array_index (kernel->sample_ips, guint64, sample->ip);
}

/* The @i-th IP of @stack, leaf first */
static inline guint64
sps_etl_stack_ip (const SpsEtlKernel *kernel,
                  const SpsEtlStack  *stack,
                  guint               i)
{
  if (stack->wide)
    return g_array_index (kernel->wide_ips, guint64, stack->start + i);
  return (guint64) stack->high << 32 | g_array_index (kernel->ips, guint32, stack->start + i);
}

SpsEtlKernel *sps_etl_kernel_new    (void);
void          sps_etl_kernel_free   (SpsEtlKernel       *self);
gboolean      sps_etl_kernel_add    (SpsEtlKernel       *self,
                                     const SpsEtlRecord *record);
void          sps_etl_kernel_finish (SpsEtlKernel       *self);
guint         sps_etl_kernel_want_stack (SpsEtlKernel   *self,
                                     guint64             ts,
                                     guint32             tid);
guint         sps_etl_kernel_add_event_stack (SpsEtlKernel *self,
                                     guint64             ts,
                                     guint32             tid,
                                     const guint8       *ips,
                                     gsize               n,
                                     guint               pointer_size);
void          sps_etl_kernel_release_samples (SpsEtlKernel *self,
                                              guint         end);
guint32       sps_etl_kernel_sample_stack (const SpsEtlKernel *self,
                                           guint               sample,
                                           gboolean            user);
gboolean      sps_etl_process_names (const SpsEtlRecord *record,
                                     char              **image,
                                     char              **command_line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlKernel, sps_etl_kernel_free)

G_END_DECLS
