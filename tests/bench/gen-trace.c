/* gen-trace.c: writes a deterministic, realistic Chrome JSON trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: gen-trace N OUT
 *
 * Writes exactly N trace events (object form, one event per line) to OUT.
 * The same N always gives the same bytes: a fixed-seed xorshift generator
 * drives a small simulation of a browser-like application with a few
 * processes and threads. Each thread keeps a call stack up to 8 deep; a
 * slice is written as X when it closes (so children come before their
 * parent, as Chrome writes them) or as a B/E pair. Around the slices come
 * instants, counters with one or two series, flows (s on one thread, f with
 * bp "e" later on another), nestable async operations (b/n/e), marks,
 * object snapshots and P samples with a top-level stackFrames dictionary.
 * Names come from a pool of 200, arguments have 1–4 keys, and the event
 * sizes (~100–200 bytes) are those of real Chrome traces.
 */

#define G_LOG_DOMAIN "sps-gen-trace"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#define MAX_DEPTH        8
#define MAX_ASYNC_OPS    4
#define MAX_ASYNC_DEPTH  3
#define N_STACK_FRAMES   64

typedef struct
{
  guint64 state;
} Rng;

/* xorshift64* */
static guint64
rng_next (Rng *rng)
{
  guint64 x = rng->state;

  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng->state = x;
  return x * G_GUINT64_CONSTANT (0x2545F4914F6CDD1D);
}

static guint
rng_below (Rng   *rng,
           guint  n)
{
  return (guint) ((rng_next (rng) >> 11) % n);
}

static const char * const namespaces[] = {
  "ThreadControllerImpl", "blink::Document", "cc::LayerTreeHost", "v8::Compiler",
  "gpu::CommandBufferStub", "net::URLRequestJob", "base::SequenceManager",
  "viz::DisplayScheduler", "content::RenderFrameImpl", "mojo::Connector",
};

static const char * const functions[] = {
  "RunTask", "UpdateStyle", "UpdateLayout", "Paint", "Commit", "DispatchEvent",
  "ParseHTML", "CompileLazy", "Execute", "Flush", "DrawFrame", "BeginFrame",
  "ProcessMessage", "PostTask", "ResolvePromise", "DecodeImage", "Serialize",
  "NotifyObservers", "ScheduleWork", "WaitForSync",
};

static const char * const categories[] = {
  "toplevel", "blink", "cc", "v8", "gpu", "netlog", "renderer.scheduler",
  "disabled-by-default-devtools.timeline", "ipc,toplevel", "benchmark,rail",
};

/* Argument keys with values of their own kind; NULL values mean a number. */
static const struct
{
  const char *key;
  const char *values[4];
} arg_kinds[] = {
  { "src_file", { "../../base/task/sequence_manager/thread_controller_impl.cc",
                  "../../third_party/blink/renderer/core/dom/document.cc",
                  "../../cc/trees/layer_tree_host.cc", "../../mojo/public/cpp/bindings/lib/connector.cc" } },
  { "src_func", { "PostTask", "ScheduleWork", "DispatchEvent", "Accept" } },
  { "frame", { "0x7f3a2c004e20", "0x7f3a2c0091a8", "0x1e8d00342c10", "0x1e8d0041f7d0" } },
  { "url", { "https://example.org/", "https://example.org/app/index.html",
             "https://cdn.example.org/app.js", "https://example.org/api/items?page=2" } },
  { "count", { NULL } },
  { "bytes", { NULL } },
  { "sequence_number", { NULL } },
  { "priority", { "kNormalPriority", "kHighPriority", "kBestEffortPriority", "kLowPriority" } },
  { "state", { "Running", "Idle", "Blocked", "Pending" } },
  { "task_queue", { "default_tq", "compositor_tq", "input_tq", "ipc_tq" } },
};

typedef struct
{
  const char *name;
  gint64      pid;
  gboolean    decimals;          /* writes ts with sub-µs digits */
  guint       first_thread;
  guint       n_threads;
  guint       n_async;
  guint64     async_id[MAX_ASYNC_OPS];
  guint       async_depth[MAX_ASYNC_OPS];
  guint       async_name[MAX_ASYNC_OPS][MAX_ASYNC_DEPTH];
} Process;

typedef struct
{
  gint64   start_ns;
  gint64   start_tts;
  guint    name;
  guint    category;
  gboolean is_begin;             /* written as B, closes with E */
  guint    pending_flows;        /* f events that must land in this slice */
} OpenSlice;

typedef struct
{
  const char *name;
  guint       process;
  gint64      tid;
  guint       weight;
  guint       depth;
  gint64      tts;
  OpenSlice   stack[MAX_DEPTH];
  GArray     *flow_ids;          /* guint64, in landing order */
} Thread;

typedef struct
{
  Rng      rng;
  FILE    *out;
  guint64  target;
  guint64  emitted;
  guint64  pending;              /* events owed: X and E of open slices, f, e */
  gint64   now_ns;
  guint64  next_id;
  Process  processes[4];
  Thread   threads[16];
  guint    n_threads;
  guint    total_weight;
  GString *line;
} Gen;

static const char *
pool_name (guint i)
{
  static char names[G_N_ELEMENTS (namespaces) * G_N_ELEMENTS (functions)][64];
  static gboolean ready;

  if (!ready)
    {
      for (guint n = 0; n < G_N_ELEMENTS (namespaces); n++)
        for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
          g_snprintf (names[n * G_N_ELEMENTS (functions) + f], sizeof names[0],
                      "%s::%s", namespaces[n], functions[f]);
      ready = TRUE;
    }

  return names[i % G_N_ELEMENTS (names)];
}

#define N_NAMES (G_N_ELEMENTS (namespaces) * G_N_ELEMENTS (functions))

/* A realistic name distribution is skewed: a few names (RunTask…) are
 * everywhere, most are rare. Squaring a uniform draw gives that. */
static guint
pick_name (Gen *gen)
{
  guint u = rng_below (&gen->rng, 1000);

  return (u * u / 1000) * N_NAMES / 1000;
}

static void
append_time (GString  *out,
             gint64    ns,
             gboolean  decimals)
{
  if (decimals)
    g_string_append_printf (out, "%" G_GINT64_FORMAT ".%03d", ns / 1000, (int) (ns % 1000));
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, ns / 1000);
}

static void
append_duration (GString  *out,
                 gint64    start_ns,
                 gint64    end_ns,
                 gboolean  decimals)
{
  if (decimals)
    {
      gint64 d = end_ns - start_ns;

      g_string_append_printf (out, "%" G_GINT64_FORMAT ".%03d", d / 1000, (int) (d % 1000));
    }
  else
    {
      g_string_append_printf (out, "%" G_GINT64_FORMAT, end_ns / 1000 - start_ns / 1000);
    }
}

/* 1 to 4 keys, most often 1 or 2, as in real traces. */
static void
append_args (Gen *gen)
{
  guint r = rng_below (&gen->rng, 100);
  guint n = r < 50 ? 1 : r < 80 ? 2 : r < 93 ? 3 : 4;
  guint first = rng_below (&gen->rng, G_N_ELEMENTS (arg_kinds));

  g_string_append (gen->line, "\"args\":{");
  for (guint i = 0; i < n; i++)
    {
      guint kind = (first + i * 3) % G_N_ELEMENTS (arg_kinds);

      if (i > 0)
        g_string_append_c (gen->line, ',');
      g_string_append_printf (gen->line, "\"%s\":", arg_kinds[kind].key);
      if (arg_kinds[kind].values[0] != NULL)
        g_string_append_printf (gen->line, "\"%s\"",
                                arg_kinds[kind].values[rng_below (&gen->rng, 4)]);
      else
        g_string_append_printf (gen->line, "%u", rng_below (&gen->rng, 100000));
    }
  g_string_append (gen->line, "},");
}

static void
emit (Gen *gen)
{
  if (gen->emitted > 0)
    fputs (",\n", gen->out);
  fwrite (gen->line->str, 1, gen->line->len, gen->out);
  g_string_truncate (gen->line, 0);
  gen->emitted++;
}

/* Starts an event line with the fields Chrome writes first. */
static void
start_event (Gen        *gen,
             Thread     *thread,
             const char *phase)
{
  Process *process = &gen->processes[thread->process];

  g_string_append_printf (gen->line, "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT
                          ",\"ts\":", process->pid, thread->tid);
  append_time (gen->line, gen->now_ns, process->decimals);
  g_string_append_printf (gen->line, ",\"ph\":\"%s\",", phase);
}

static void
write_metadata (Gen *gen)
{
  for (guint p = 0; p < G_N_ELEMENTS (gen->processes); p++)
    {
      Process *process = &gen->processes[p];

      g_string_append_printf (gen->line,
                              "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":0,\"ts\":0,\"ph\":\"M\","
                              "\"cat\":\"__metadata\",\"name\":\"process_name\","
                              "\"args\":{\"name\":\"%s\"}}", process->pid, process->name);
      emit (gen);
      g_string_append_printf (gen->line,
                              "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":0,\"ts\":0,\"ph\":\"M\","
                              "\"cat\":\"__metadata\",\"name\":\"process_sort_index\","
                              "\"args\":{\"sort_index\":%d}}", process->pid, (int) p - 1);
      emit (gen);
      if (p > 0 && p < 3)
        {
          g_string_append_printf (gen->line,
                                  "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":0,\"ts\":0,\"ph\":\"M\","
                                  "\"cat\":\"__metadata\",\"name\":\"process_labels\","
                                  "\"args\":{\"labels\":\"example.org\"}}", process->pid);
          emit (gen);
        }
    }

  for (guint t = 0; t < gen->n_threads; t++)
    {
      Thread *thread = &gen->threads[t];

      g_string_append_printf (gen->line,
                              "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"ts\":0,"
                              "\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_name\","
                              "\"args\":{\"name\":\"%s\"}}",
                              gen->processes[thread->process].pid, thread->tid, thread->name);
      emit (gen);
      g_string_append_printf (gen->line,
                              "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"ts\":0,"
                              "\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_sort_index\","
                              "\"args\":{\"sort_index\":%u}}",
                              gen->processes[thread->process].pid, thread->tid,
                              t - gen->processes[thread->process].first_thread);
      emit (gen);
    }
}

static void
add_thread (Gen        *gen,
            guint       process,
            const char *name,
            gint64      tid,
            guint       weight)
{
  Thread *thread = &gen->threads[gen->n_threads++];
  Process *p = &gen->processes[process];

  if (p->n_threads == 0)
    p->first_thread = gen->n_threads - 1;
  p->n_threads++;
  thread->name = name;
  thread->process = process;
  thread->tid = tid;
  thread->weight = weight;
  thread->tts = (gint64) rng_below (&gen->rng, 1000000) * 1000;
  thread->flow_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  gen->total_weight += weight;
}

static void
setup (Gen *gen)
{
  static const struct { const char *name; gint64 pid; gboolean decimals; } procs[] = {
    { "Browser", 21304, FALSE },
    { "Renderer", 21377, FALSE },
    { "Renderer", 21412, TRUE },
    { "GPU Process", 21330, TRUE },
  };

  for (guint p = 0; p < G_N_ELEMENTS (procs); p++)
    {
      gen->processes[p].name = procs[p].name;
      gen->processes[p].pid = procs[p].pid;
      gen->processes[p].decimals = procs[p].decimals;
    }

  add_thread (gen, 0, "CrBrowserMain", 21304, 10);
  add_thread (gen, 0, "Chrome_IOThread", 21321, 5);
  add_thread (gen, 0, "ThreadPoolForegroundWorker", 21340, 3);
  add_thread (gen, 0, "ThreadPoolBackgroundWorker", 21341, 2);
  add_thread (gen, 1, "CrRendererMain", 21377, 14);
  add_thread (gen, 1, "Compositor", 21390, 6);
  add_thread (gen, 1, "Chrome_ChildIOThread", 21385, 3);
  add_thread (gen, 1, "ThreadPoolForegroundWorker", 21393, 2);
  add_thread (gen, 2, "CrRendererMain", 21412, 8);
  add_thread (gen, 2, "Compositor", 21420, 4);
  add_thread (gen, 3, "CrGpuMain", 21330, 9);
  add_thread (gen, 3, "VizCompositorThread", 21336, 7);
  add_thread (gen, 3, "Chrome_ChildIOThread", 21334, 2);
}

static Thread *
pick_thread (Gen *gen)
{
  guint r = rng_below (&gen->rng, gen->total_weight);

  for (guint t = 0; t < gen->n_threads; t++)
    {
      if (r < gen->threads[t].weight)
        return &gen->threads[t];
      r -= gen->threads[t].weight;
    }
  return &gen->threads[0];
}

/* Slices */

static void
open_slice (Gen      *gen,
            Thread   *thread,
            gboolean  as_begin)
{
  OpenSlice *slice = &thread->stack[thread->depth++];

  slice->start_ns = gen->now_ns;
  slice->start_tts = thread->tts;
  slice->name = pick_name (gen);
  slice->category = rng_below (&gen->rng, G_N_ELEMENTS (categories));
  slice->is_begin = as_begin;
  slice->pending_flows = 0;
  gen->pending++;

  if (as_begin)
    {
      start_event (gen, thread, "B");
      append_args (gen);
      g_string_append_printf (gen->line, "\"cat\":\"%s\",\"name\":\"%s\"}",
                              categories[slice->category], pool_name (slice->name));
      emit (gen);
    }
}

static void
close_slice (Gen    *gen,
             Thread *thread)
{
  OpenSlice *slice = &thread->stack[--thread->depth];
  Process *process = &gen->processes[thread->process];

  g_assert (slice->pending_flows == 0);
  gen->pending--;

  if (slice->is_begin)
    {
      start_event (gen, thread, "E");
      g_string_append_printf (gen->line, "\"cat\":\"%s\",\"name\":\"%s\"}",
                              categories[slice->category], pool_name (slice->name));
      emit (gen);
      return;
    }

  /* Chrome writes the start time, then the duration, of a complete event
   * when it ends. */
  g_string_append_printf (gen->line, "{\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT
                          ",\"ts\":", process->pid, thread->tid);
  append_time (gen->line, slice->start_ns, process->decimals);
  g_string_append (gen->line, ",\"ph\":\"X\",");
  append_args (gen);
  g_string_append (gen->line, "\"dur\":");
  append_duration (gen->line, slice->start_ns, gen->now_ns, process->decimals);
  if (!process->decimals)
    g_string_append_printf (gen->line, ",\"tts\":%" G_GINT64_FORMAT ",\"tdur\":%" G_GINT64_FORMAT,
                            slice->start_tts / 1000, thread->tts / 1000 - slice->start_tts / 1000);
  g_string_append_printf (gen->line, ",\"cat\":\"%s\",\"name\":\"%s\"}",
                          categories[slice->category], pool_name (slice->name));
  emit (gen);
}

/* Flows: s now on @thread, f later inside the current top slice of another
 * thread (written before that slice closes). */
static gboolean
start_flow (Gen    *gen,
            Thread *thread)
{
  Thread *target = NULL;
  guint start = rng_below (&gen->rng, gen->n_threads);
  guint64 id;

  if (thread->depth == 0)
    return FALSE;
  for (guint i = 0; i < gen->n_threads && target == NULL; i++)
    {
      Thread *candidate = &gen->threads[(start + i) % gen->n_threads];

      if (candidate != thread && candidate->depth > 0)
        target = candidate;
    }
  if (target == NULL)
    return FALSE;

  id = gen->next_id++;
  start_event (gen, thread, "s");
  g_string_append_printf (gen->line, "\"cat\":\"toplevel.flow\",\"name\":\"PostTask\","
                          "\"id\":\"0x%" G_GINT64_MODIFIER "x\",\"bp\":\"e\"}",
                          id * G_GUINT64_CONSTANT (0x9e3779b1) + 0x1000);
  emit (gen);

  target->stack[target->depth - 1].pending_flows++;
  g_array_append_val (target->flow_ids, id);
  gen->pending++;
  return TRUE;
}

/* Lands the oldest flow owed to the top slice of @thread. Flows owed to
 * deeper (older) slices sit before it in flow_ids; the top slice's own are
 * the last ones, so land from the end. */
static void
land_flow (Gen    *gen,
           Thread *thread)
{
  OpenSlice *slice = &thread->stack[thread->depth - 1];
  guint64 id = g_array_index (thread->flow_ids, guint64, thread->flow_ids->len - 1);

  g_array_set_size (thread->flow_ids, thread->flow_ids->len - 1);
  slice->pending_flows--;
  gen->pending--;

  start_event (gen, thread, "f");
  g_string_append_printf (gen->line, "\"cat\":\"toplevel.flow\",\"name\":\"PostTask\","
                          "\"id\":\"0x%" G_GINT64_MODIFIER "x\",\"bp\":\"e\"}",
                          id * G_GUINT64_CONSTANT (0x9e3779b1) + 0x1000);
  emit (gen);
}

/* Nestable async operations of a process */

static void
async_begin (Gen    *gen,
             Thread *thread)
{
  Process *process = &gen->processes[thread->process];
  guint op;

  /* Nest into an open operation now and then, else start a new one. */
  if (process->n_async > 0 && rng_below (&gen->rng, 3) == 0 &&
      process->async_depth[process->n_async - 1] < MAX_ASYNC_DEPTH)
    {
      op = process->n_async - 1;
    }
  else if (process->n_async < MAX_ASYNC_OPS)
    {
      op = process->n_async++;
      process->async_id[op] = gen->next_id++;
      process->async_depth[op] = 0;
    }
  else
    {
      return;
    }

  process->async_name[op][process->async_depth[op]++] = pick_name (gen);
  gen->pending++;

  start_event (gen, thread, "b");
  g_string_append_printf (gen->line, "\"cat\":\"loading\",\"name\":\"%s\",\"id\":\"0x%"
                          G_GINT64_MODIFIER "x\",",
                          pool_name (process->async_name[op][process->async_depth[op] - 1]),
                          process->async_id[op]);
  append_args (gen);
  gen->line->str[gen->line->len - 1] = '}';
  emit (gen);
}

static void
async_end (Gen     *gen,
           Thread  *thread,
           guint    op)
{
  Process *process = &gen->processes[thread->process];
  guint name = process->async_name[op][--process->async_depth[op]];

  gen->pending--;
  start_event (gen, thread, "e");
  g_string_append_printf (gen->line, "\"cat\":\"loading\",\"name\":\"%s\",\"id\":\"0x%"
                          G_GINT64_MODIFIER "x\"}", pool_name (name), process->async_id[op]);
  emit (gen);

  if (process->async_depth[op] == 0)
    {
      /* Keep the open operations packed at the front. */
      for (guint i = op; i + 1 < process->n_async; i++)
        {
          process->async_id[i] = process->async_id[i + 1];
          process->async_depth[i] = process->async_depth[i + 1];
          memcpy (process->async_name[i], process->async_name[i + 1], sizeof process->async_name[i]);
        }
      process->n_async--;
    }
}

/* One-event phases */

static void
emit_instant (Gen    *gen,
              Thread *thread)
{
  static const char scopes[] = "tttttppg";
  char scope = scopes[rng_below (&gen->rng, sizeof scopes - 1)];

  start_event (gen, thread, "i");
  g_string_append_printf (gen->line, "\"cat\":\"%s\",\"name\":\"%s\",\"s\":\"%c\",",
                          categories[rng_below (&gen->rng, G_N_ELEMENTS (categories))],
                          pool_name (pick_name (gen)), scope);
  append_args (gen);
  gen->line->str[gen->line->len - 1] = '}';
  emit (gen);
}

static void
emit_counter (Gen    *gen,
              Thread *thread)
{
  Process *process = &gen->processes[thread->process];
  guint64 t = (guint64) gen->now_ns / 1000;

  start_event (gen, thread, "C");
  switch (thread->process)
    {
    case 0:
      g_string_append_printf (gen->line, "\"cat\":\"toplevel\",\"name\":\"TaskQueueLength\","
                              "\"args\":{\"count\":%u}}", rng_below (&gen->rng, 40));
      break;
    case 3:
      g_string_append_printf (gen->line, "\"cat\":\"gpu\",\"name\":\"GPUMemoryUsage\","
                              "\"args\":{\"bytes\":%" G_GUINT64_FORMAT "}}",
                              (guint64) 200000000 + (t % 7919) * 1024);
      break;
    default:
      g_string_append_printf (gen->line, "\"cat\":\"v8\",\"name\":\"JSHeapSize\","
                              "\"args\":{\"used\":%" G_GUINT64_FORMAT ",\"total\":%" G_GUINT64_FORMAT "}}",
                              (guint64) 8000000 + (t % 5003) * 997 + process->pid,
                              (guint64) 16000000 + (t % 13) * 1048576);
      break;
    }
  emit (gen);
}

static void
emit_sample (Gen    *gen,
             Thread *thread)
{
  static const char * const units[] = { "us", "ms", "ns" };
  guint frame = N_STACK_FRAMES / 2 + rng_below (&gen->rng, N_STACK_FRAMES / 2);

  start_event (gen, thread, "P");
  g_string_append_printf (gen->line, "\"cat\":\"disabled-by-default-cpu_profiler\","
                          "\"name\":\"cpu\",\"sf\":\"%u\",\"weight\":%u,\"weightUnit\":\"%s\"}",
                          frame, 100 + rng_below (&gen->rng, 900),
                          units[rng_below (&gen->rng, G_N_ELEMENTS (units))]);
  emit (gen);
}

static void
emit_mark (Gen    *gen,
           Thread *thread)
{
  static const char * const marks[] = {
    "navigationStart", "fetchStart", "domContentLoadedEventEnd", "firstContentfulPaint",
  };

  start_event (gen, thread, "R");
  g_string_append_printf (gen->line, "\"cat\":\"blink.user_timing\",\"name\":\"%s\","
                          "\"args\":{\"frame\":\"0x7f3a2c004e20\"}}",
                          marks[rng_below (&gen->rng, G_N_ELEMENTS (marks))]);
  emit (gen);
}

static void
emit_snapshot (Gen    *gen,
               Thread *thread)
{
  start_event (gen, thread, "O");
  g_string_append_printf (gen->line, "\"cat\":\"disabled-by-default-cc.debug\","
                          "\"name\":\"cc::LayerTreeHostImpl\",\"id\":\"0x%x\","
                          "\"args\":{\"snapshot\":{\"active_tree\":{\"source_frame_number\":%u,"
                          "\"layers\":[%u,%u,%u]}}}}",
                          0x5a00 + thread->process, rng_below (&gen->rng, 100000),
                          rng_below (&gen->rng, 64), rng_below (&gen->rng, 64),
                          rng_below (&gen->rng, 64));
  emit (gen);
}

static void
emit_async_instant (Gen    *gen,
                    Thread *thread)
{
  Process *process = &gen->processes[thread->process];

  start_event (gen, thread, "n");
  g_string_append_printf (gen->line, "\"cat\":\"loading\",\"name\":\"ResponseReceived\","
                          "\"id\":\"0x%" G_GINT64_MODIFIER "x\",\"args\":{\"bytes\":%u}}",
                          process->async_id[0], rng_below (&gen->rng, 1 << 20));
  emit (gen);
}

/* One step of the simulation on one thread. @budget is how many events
 * may still be promised (written now or owed). */
static void
step (Gen    *gen,
      guint64 budget)
{
  Thread *thread = pick_thread (gen);
  Process *process = &gen->processes[thread->process];
  OpenSlice *top = thread->depth > 0 ? &thread->stack[thread->depth - 1] : NULL;
  guint r = rng_below (&gen->rng, 1000);

  gen->now_ns += 1000 + rng_below (&gen->rng, 7000);
  thread->tts += 200 + rng_below (&gen->rng, 900);

  if (top != NULL && top->pending_flows > 0 && rng_below (&gen->rng, 2) == 0)
    {
      land_flow (gen, thread);
      return;
    }

  if (r < 45)
    {
      emit_counter (gen, thread);
      return;
    }
  if (r < 80)
    {
      emit_instant (gen, thread);
      return;
    }
  if (r < 115 && budget >= 2 && start_flow (gen, thread))
    return;
  if (r < 150)
    {
      if (process->n_async > 0 && rng_below (&gen->rng, 2) == 0)
        {
          async_end (gen, thread, rng_below (&gen->rng, process->n_async));
          return;
        }
      if (budget >= 2 && process->n_async < MAX_ASYNC_OPS)
        {
          async_begin (gen, thread);
          return;
        }
    }
  if (r < 156)
    {
      emit_sample (gen, thread);
      return;
    }
  if (r < 158)
    {
      emit_mark (gen, thread);
      return;
    }
  if (r < 160)
    {
      emit_snapshot (gen, thread);
      return;
    }
  if (r < 165 && process->n_async > 0)
    {
      emit_async_instant (gen, thread);
      return;
    }

  /* Call stacks: deeper stacks are more likely to unwind. */
  if (thread->depth < MAX_DEPTH &&
      (thread->depth == 0 || rng_below (&gen->rng, 100) < 55 - 6 * thread->depth))
    {
      open_slice (gen, thread, budget >= 2 && rng_below (&gen->rng, 6) == 0);
      return;
    }
  if (top != NULL && top->pending_flows > 0)
    land_flow (gen, thread);
  else if (top != NULL)
    close_slice (gen, thread);
  else
    emit_instant (gen, thread);
}

static void
drain (Gen *gen)
{
  for (guint t = 0; t < gen->n_threads; t++)
    {
      Thread *thread = &gen->threads[t];

      while (thread->depth > 0)
        {
          gen->now_ns += 1000 + rng_below (&gen->rng, 3000);
          if (thread->stack[thread->depth - 1].pending_flows > 0)
            land_flow (gen, thread);
          else
            close_slice (gen, thread);
        }
    }

  for (guint p = 0; p < G_N_ELEMENTS (gen->processes); p++)
    {
      Process *process = &gen->processes[p];
      Thread *thread = &gen->threads[process->first_thread];

      while (process->n_async > 0)
        {
          gen->now_ns += 1000 + rng_below (&gen->rng, 3000);
          async_end (gen, thread, process->n_async - 1);
        }
    }
}

static void
write_stack_frames (Gen *gen)
{
  fputs ("\n],\n\"displayTimeUnit\":\"ms\",\n\"stackFrames\":{", gen->out);
  for (guint i = 0; i < N_STACK_FRAMES; i++)
    {
      fprintf (gen->out, "%s\n\"%u\":{\"category\":\"cpu\",\"name\":\"%s\"", i > 0 ? "," : "",
               i, pool_name (rng_below (&gen->rng, N_NAMES)));
      /* Four roots; every other frame hangs below an earlier one. */
      if (i >= 4)
        fprintf (gen->out, ",\"parent\":\"%u\"", rng_below (&gen->rng, i));
      fputc ('}', gen->out);
    }
  fputs ("},\n\"metadata\":{\"clock-domain\":\"LINUX_CLOCK_MONOTONIC\","
         "\"generator\":\"spanscope tests/bench/gen-trace\"}}\n", gen->out);
}

int
main (int   argc,
      char *argv[])
{
  Gen gen = { 0 };
  guint64 n;
  char *end = NULL;
  int ret = 0;

  if (argc != 3)
    {
      g_printerr ("usage: %s N OUT\n", argv[0]);
      return 2;
    }

  n = g_ascii_strtoull (argv[1], &end, 10);
  if (end == argv[1] || *end != '\0' || n < 200)
    {
      g_printerr ("%s: N must be an integer of at least 200\n", argv[0]);
      return 2;
    }

  gen.out = fopen (argv[2], "wb");
  if (gen.out == NULL)
    {
      g_printerr ("%s: %s: %s\n", argv[0], argv[2], g_strerror (errno));
      return 1;
    }
  setvbuf (gen.out, NULL, _IOFBF, 1 << 20);

  gen.rng.state = G_GUINT64_CONSTANT (0x5eed5ca1ab1e2024);
  gen.target = n;
  gen.now_ns = G_GINT64_CONSTANT (251378904000000);
  gen.next_id = 1;
  gen.line = g_string_sized_new (512);
  setup (&gen);

  fputs ("{\"traceEvents\":[\n", gen.out);
  write_metadata (&gen);

  while (gen.emitted + gen.pending < gen.target)
    step (&gen, gen.target - gen.emitted - gen.pending);
  drain (&gen);

  g_assert (gen.pending == 0);
  g_assert (gen.emitted == gen.target);

  write_stack_frames (&gen);

  if (fclose (gen.out) != 0)
    {
      g_printerr ("%s: %s: %s\n", argv[0], argv[2], g_strerror (errno));
      ret = 1;
    }

  for (guint t = 0; t < gen.n_threads; t++)
    g_array_unref (gen.threads[t].flow_ids);
  g_string_free (gen.line, TRUE);

  return ret;
}
