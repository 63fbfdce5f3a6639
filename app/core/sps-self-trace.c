/* sps-self-trace.c: a Chrome JSON trace of Spanscope itself (--trace)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each thread appends its complete events to a buffer of its own, found
 * through a GPrivate; the buffers are listed globally so that
 * sps_self_trace_write() finds them after their threads ended. A buffer
 * has a lock, taken by its thread per event and by the writer: a thread
 * pool's worker may still be running when the program writes at exit.
 * Uncontended, the lock costs about as much as reading the clock, and
 * only while tracing is on.
 *
 * The counter "Spanscope memory" samples the process's resident and
 * anonymous memory from /proc/self/statm (three system calls, a few µs):
 * on a thread of its own every 100 ms, and at the start and end of every
 * event recorded through sps_self_trace_begin()/_end() (the import's
 * phases, SQL statements, flame tree builds; not the frames, which would
 * add a read per frame). The thread starts with tracing: while off there
 * is neither a thread nor a read.
 */

#define G_LOG_DOMAIN "sps-self-trace"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/prctl.h>
# include <sys/syscall.h>
#endif

#include <glib/gi18n-lib.h>

#include "sps-file-write.h"
#include "sps-json.h"
#include "sps-self-trace.h"

/* Bytes of an argument's text kept (SQL statements can be long) */
#define ARG_MAX_BYTES 200
/* Events kept per thread: a window left open for days draws millions of
 * frames; past the cap, events are counted, not kept. */
#define MAX_EVENTS_PER_THREAD (1u << 20)
/* Memory samples kept: 100 ms apart, a day and more */
#define MAX_MEMORY_SAMPLES (1u << 20)
#define MEMORY_INTERVAL_NS (100 * G_GINT64_CONSTANT (1000000))

typedef struct
{
  gint64      start;  /* ns, CLOCK_MONOTONIC */
  gint64      dur;
  const char *name;   /* interned */
  const char *key;    /* interned, NULL for no argument */
  char       *value;
} Event;

typedef struct
{
  GMutex  mutex;
  gint64  tid;
  char   *name;
  GArray *events;
  guint64 dropped;
} ThreadBuffer;

int sps_self_trace_on;

static GMutex   buffers_mutex;
static GPtrArray *buffers;   /* ThreadBuffer, never freed: threads may outlive a write */
static gint64   origin;      /* ns of sps_self_trace_enable() */
static GPrivate thread_buffer;

typedef struct
{
  gint64  time;       /* ns, CLOCK_MONOTONIC */
  guint64 rss;        /* bytes */
  guint64 anonymous;  /* bytes */
} MemorySample;

static GMutex  memory_mutex;
static GArray *memory_samples;  /* MemorySample, from the enable on */

static void append_event (Event *ev);
static void sample_memory (void);
static gpointer memory_sampler (gpointer data);

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gint64
current_tid (void)
{
#ifdef __linux__
  return (gint64) syscall (SYS_gettid);
#else
  static gint next;

  return g_atomic_int_add (&next, 1) + 1;
#endif
}

static char *
current_thread_name (void)
{
#ifdef __linux__
  char name[17] = { 0, };

  if (prctl (PR_GET_NAME, name, 0, 0, 0) == 0 && name[0] != '\0')
    return g_strdup (name);
#endif
  return g_strdup_printf ("thread %" G_GINT64_FORMAT, current_tid ());
}

static ThreadBuffer *
get_thread_buffer (void)
{
  ThreadBuffer *buffer = g_private_get (&thread_buffer);

  if G_LIKELY (buffer != NULL)
    return buffer;

  buffer = g_new0 (ThreadBuffer, 1);
  g_mutex_init (&buffer->mutex);
  buffer->tid = current_tid ();
  buffer->name = current_thread_name ();
  buffer->events = g_array_new (FALSE, FALSE, sizeof (Event));
  g_private_set (&thread_buffer, buffer);

  g_mutex_lock (&buffers_mutex);
  if (buffers == NULL)
    buffers = g_ptr_array_new ();
  g_ptr_array_add (buffers, buffer);
  g_mutex_unlock (&buffers_mutex);

  return buffer;
}

/**
 * sps_self_trace_enable:
 *
 * Starts recording the events of Spanscope's own work (imports and their
 * phases, plugin loading, frames of the timeline, SQL statements, flame
 * tree builds) on every thread, until the process ends. Times in the
 * trace count from this call. `--trace` of both programs calls it
 * first thing; calling it again does nothing.
 */
void
sps_self_trace_enable (void)
{
  gboolean start_sampler = FALSE;

  g_mutex_lock (&buffers_mutex);
  if (!g_atomic_int_get (&sps_self_trace_on))
    {
      origin = now_ns ();
      g_mutex_lock (&memory_mutex);
      memory_samples = g_array_new (FALSE, FALSE, sizeof (MemorySample));
      g_mutex_unlock (&memory_mutex);
      g_atomic_int_set (&sps_self_trace_on, TRUE);
      start_sampler = TRUE;
    }
  g_mutex_unlock (&buffers_mutex);

  if (start_sampler)
    {
      sample_memory ();
      /* Runs until the process ends: tracing is never turned off */
      g_thread_unref (g_thread_new ("sps-memory", memory_sampler, NULL));
    }
}

/**
 * sps_self_trace_is_enabled:
 *
 * Returns: whether sps_self_trace_enable() was called
 */
gboolean
sps_self_trace_is_enabled (void)
{
  return g_atomic_int_get (&sps_self_trace_on);
}

/**
 * sps_self_trace_begin:
 *
 * The start of an event, to pass to sps_self_trace_end(). C code uses
 * SPS_SELF_TRACE_SCOPE() instead, which calls it only while tracing is
 * on.
 *
 * Returns: a time in ns (never 0), or 0 while tracing is off
 */
gint64
sps_self_trace_begin (void)
{
  if (!g_atomic_int_get (&sps_self_trace_on))
    return 0;

  sample_memory ();
  return MAX (now_ns (), 1);
}

/**
 * sps_self_trace_get_time:
 *
 * The clock of the self trace, for code that times a piece of work
 * anyway and hands the times to sps_self_trace_add_complete() (the
 * timeline's frames, whose split the diagnostics panel shows too).
 *
 * Returns: the monotonic time in ns, whether or not tracing is on
 */
gint64
sps_self_trace_get_time (void)
{
  return now_ns ();
}

/* Cuts @text to at most ARG_MAX_BYTES bytes, at a character's start */
static char *
dup_truncated (const char *text)
{
  gsize len = strlen (text);
  const char *end;

  if (len <= ARG_MAX_BYTES)
    return g_strdup (text);

  end = text + ARG_MAX_BYTES;
  /* Back to the start of the character that crosses the limit */
  while (end > text && ((guchar) *end & 0xc0) == 0x80)
    end--;

  {
    g_autofree char *head = g_strndup (text, end - text);

    return g_strconcat (head, "…", NULL);
  }
}

/**
 * sps_self_trace_end:
 * @start: what sps_self_trace_begin() returned
 * @name: the event's name: a stable, untranslated name such as
 *   "finish/pair" (data, not text for people)
 * @arg_key: (nullable): the name of the event's one argument
 * @arg_value: (nullable): its text, kept up to 200 bytes
 *
 * Records a complete event from @start to now on the calling thread.
 * Does nothing when @start is 0 (tracing was off when it began).
 */
void
sps_self_trace_end (gint64      start,
                    const char *name,
                    const char *arg_key,
                    const char *arg_value)
{
  Event ev;

  g_return_if_fail (name != NULL);

  if (start == 0)
    return;

  ev.start = start;
  ev.dur = MAX (now_ns () - start, 0);
  ev.name = g_intern_string (name);
  ev.key = arg_key != NULL && arg_value != NULL ? g_intern_string (arg_key) : NULL;
  ev.value = ev.key != NULL ? dup_truncated (arg_value) : NULL;
  append_event (&ev);
  sample_memory ();
}

/**
 * sps_self_trace_add_complete:
 * @name: the event's name (see sps_self_trace_end())
 * @start: its start, from sps_self_trace_get_time()
 * @end: its end, on the same clock
 *
 * Records a complete event of the calling thread with times measured by
 * the caller. Does nothing while tracing is off.
 */
void
sps_self_trace_add_complete (const char *name,
                             gint64      start,
                             gint64      end)
{
  Event ev = { 0, };

  g_return_if_fail (name != NULL);

  if (!g_atomic_int_get (&sps_self_trace_on))
    return;

  ev.start = start;
  ev.dur = MAX (end - start, 0);
  ev.name = g_intern_string (name);
  append_event (&ev);
}

static void
append_event (Event *ev)
{
  ThreadBuffer *buffer;
  Event copy = *ev;

  buffer = get_thread_buffer ();
  g_mutex_lock (&buffer->mutex);
  if (buffer->events->len < MAX_EVENTS_PER_THREAD)
    g_array_append_val (buffer->events, copy);
  else
    {
      buffer->dropped++;
      g_free (copy.value);
    }
  g_mutex_unlock (&buffer->mutex);
}

/**
 * sps_self_trace_read_memory:
 * @rss: (out) (optional): the resident memory, in bytes
 * @anonymous: (out) (optional): the part of it that no file backs (the
 *   heap, the stacks: what the process allocated), in bytes
 *
 * Reads the process's memory from `/proc/self/statm`: its resident pages
 * and, of those, the ones not shared with a file (resident minus shared).
 * What the self trace's "Spanscope memory" counter and the window's
 * memory label show.
 *
 * Returns: %FALSE where there is no such file (both are then 0)
 */
gboolean
sps_self_trace_read_memory (guint64 *rss,
                            guint64 *anonymous)
{
  char text[128];
  guint64 size = 0, resident = 0, shared = 0;
  long page = sysconf (_SC_PAGESIZE);
  ssize_t n;
  int fd;

  if (rss != NULL)
    *rss = 0;
  if (anonymous != NULL)
    *anonymous = 0;

  if (page <= 0 || (fd = open ("/proc/self/statm", O_RDONLY | O_CLOEXEC)) < 0)
    return FALSE;
  do
    n = read (fd, text, sizeof text - 1);
  while (n < 0 && errno == EINTR);
  close (fd);
  if (n <= 0)
    return FALSE;
  text[n] = '\0';

  /* "size resident shared text lib data dt", in pages */
  if (sscanf (text, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
              &size, &resident, &shared) != 3)
    return FALSE;

  /* Pages of a real process's memory never come near overflowing */
  if (rss != NULL)
    *rss = resident <= G_MAXUINT64 / (guint64) page ? resident * (guint64) page : G_MAXUINT64;
  if (anonymous != NULL)
    {
      guint64 own = resident > shared ? resident - shared : 0;

      *anonymous = own <= G_MAXUINT64 / (guint64) page ? own * (guint64) page : G_MAXUINT64;
    }

  return TRUE;
}

/* One sample of the memory counter, now */
static void
sample_memory (void)
{
  MemorySample sample;

  if (!sps_self_trace_read_memory (&sample.rss, &sample.anonymous))
    return;
  sample.time = now_ns ();

  g_mutex_lock (&memory_mutex);
  if (memory_samples != NULL && memory_samples->len < MAX_MEMORY_SAMPLES)
    g_array_append_val (memory_samples, sample);
  g_mutex_unlock (&memory_mutex);
}

/* Every 100 ms, on a steady beat (a late wake-up does not shift the
 * ones after it) */
static gpointer
memory_sampler (gpointer data)
{
  gint64 next = now_ns ();

  for (;;)
    {
      gint64 wait;

      next += MEMORY_INTERVAL_NS;
      wait = next - now_ns ();
      if (wait > 0)
        g_usleep ((gulong) (wait / 1000));
      else
        next = now_ns ();
      sample_memory ();
    }

  return NULL;
}

/**
 * sps_self_trace_get_n_events:
 *
 * Returns: how many events were recorded so far, on all threads
 */
guint
sps_self_trace_get_n_events (void)
{
  guint n = 0;

  g_mutex_lock (&buffers_mutex);
  for (guint i = 0; buffers != NULL && i < buffers->len; i++)
    {
      ThreadBuffer *buffer = g_ptr_array_index (buffers, i);

      g_mutex_lock (&buffer->mutex);
      n += buffer->events->len;
      g_mutex_unlock (&buffer->mutex);
    }
  g_mutex_unlock (&buffers_mutex);

  return n;
}

/* Nanoseconds as Chrome's microseconds with three decimals, exactly */
static void
append_us (GString *out,
           gint64   ns)
{
  g_string_append_printf (out, "%" G_GINT64_FORMAT ".%03d", ns / 1000, (int) (ns % 1000));
}

static void
append_metadata (GString    *out,
                 const char *what,
                 gint64      pid,
                 gint64      tid,
                 const char *name)
{
  g_string_append (out, ",\n{\"ph\":\"M\",\"name\":");
  sps_json_append_string (out, what, -1);
  g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"args\":{\"name\":",
                          pid, tid);
  sps_json_append_string (out, name, -1);
  g_string_append (out, "}}");
}

static void
append_buffer (GString      *out,
               ThreadBuffer *buffer,
               gint64        pid)
{
  append_metadata (out, "thread_name", pid, buffer->tid, buffer->name);
  if (buffer->dropped > 0)
    g_string_append_printf (out, ",\n{\"ph\":\"M\",\"name\":\"spanscope_dropped_events\",\"pid\":%"
                            G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"args\":{\"count\":%" G_GUINT64_FORMAT "}}",
                            pid, buffer->tid, buffer->dropped);

  for (guint i = 0; i < buffer->events->len; i++)
    {
      const Event *ev = &g_array_index (buffer->events, Event, i);

      g_string_append (out, ",\n{\"ph\":\"X\",\"cat\":\"spanscope\",\"name\":");
      sps_json_append_string (out, ev->name, -1);
      g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"ts\":",
                              pid, buffer->tid);
      append_us (out, MAX (ev->start - origin, 0));
      g_string_append (out, ",\"dur\":");
      append_us (out, ev->dur);
      if (ev->key != NULL)
        {
          g_string_append (out, ",\"args\":{");
          sps_json_append_string (out, ev->key, -1);
          g_string_append_c (out, ':');
          sps_json_append_string (out, ev->value, -1);
          g_string_append_c (out, '}');
        }
      g_string_append_c (out, '}');
    }
}

/**
 * sps_self_trace_write:
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Writes what was recorded as a Chrome JSON trace (`traceEvents`: a
 * complete event, `"ph":"X"`, per event, with the process id and the
 * thread's id, and each thread's name as `thread_name` metadata; and the
 * counter "Spanscope memory", `"ph":"C"`, with the series `rss_bytes` and
 * `anonymous_bytes`, sampled every 100 ms, at the start and end of
 * every event, and once more now). Events still open are not in it. Safe
 * while other threads record.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_self_trace_write (const char  *path,
                      GError     **error)
{
  g_autoptr(GString) out = g_string_new ("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gint64 pid = getpid ();
  g_autofree char *process = g_strdup (g_get_prgname () != NULL ? g_get_prgname () : "spanscope");

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_string_append_printf (out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" G_GINT64_FORMAT
                          ",\"tid\":0,\"args\":{\"name\":", pid);
  sps_json_append_string (out, process, -1);
  g_string_append (out, "}}");

  g_mutex_lock (&buffers_mutex);
  for (guint i = 0; buffers != NULL && i < buffers->len; i++)
    {
      ThreadBuffer *buffer = g_ptr_array_index (buffers, i);

      g_mutex_lock (&buffer->mutex);
      append_buffer (out, buffer, pid);
      g_mutex_unlock (&buffer->mutex);
    }
  g_mutex_unlock (&buffers_mutex);

  /* The memory now, so that the counter reaches the end of the trace */
  sample_memory ();
  g_mutex_lock (&memory_mutex);
  for (guint i = 0; memory_samples != NULL && i < memory_samples->len; i++)
    {
      const MemorySample *sample = &g_array_index (memory_samples, MemorySample, i);

      g_string_append_printf (out, ",\n{\"ph\":\"C\",\"cat\":\"spanscope\",\"name\":\"Spanscope memory\","
                              "\"pid\":%" G_GINT64_FORMAT ",\"tid\":0,\"ts\":", pid);
      append_us (out, MAX (sample->time - origin, 0));
      g_string_append_printf (out, ",\"args\":{\"rss_bytes\":%" G_GUINT64_FORMAT ",\"anonymous_bytes\":%" G_GUINT64_FORMAT "}}",
                              sample->rss, sample->anonymous);
    }
  g_mutex_unlock (&memory_mutex);

  g_string_append (out, "\n]}\n");

  file = g_file_new_for_path (path);
  bytes = g_string_free_to_bytes (g_steal_pointer (&out));
  if (!sps_file_replace_contents (file, bytes, NULL, error))
    {
      g_prefix_error (error, "%s: ", _("Cannot write the self trace"));
      return FALSE;
    }

  return TRUE;
}
