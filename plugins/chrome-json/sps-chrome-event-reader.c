/* sps-chrome-event-reader.c: reads an event array, on two cores if it is big
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Scanning is most of the cost of an import, and it can be split: the
 * array is cut into 1 MiB chunks and each chunk is scanned (into a buffer
 * of event records) by whichever thread is free, while the calling thread
 * hands the records of each chunk to the builder in input order.
 *
 * A chunk cannot know where its first event starts without reading
 * everything before it, so it guesses: the first `{` after its nominal
 * start that follows `}` and `,` (whitespace allowed). The guess is
 * checked when the chunks are put back in order: chunk i scans every event
 * that starts before chunk i + 1's nominal start, so it ends exactly on
 * the true start of the next event, and chunk i + 1 is used only if it
 * started there. A wrong guess (the pattern inside a string, an event
 * that is not an object…) costs one sequential re-scan of that chunk on
 * the calling thread, so the result is always that of a sequential scan.
 */

#define G_LOG_DOMAIN "sps-chrome-event-reader"

#include "config.h"

#include <string.h>

#include "sps-chrome-event-reader.h"

#define CHUNK_SIZE      ((gsize) 1 << 20)
#define WINDOW          4
/* Records a chunk may hold (10 MB). Real events are 100 bytes or more,
 * so a 1 MiB chunk holds about 10000; a file of `{}` would hold 350000. A
 * chunk that reaches the cap ends early, and the next one is re-scanned
 * on the calling thread, as after a wrong guess. */
#define MAX_CHUNK_EVENTS 32768

typedef enum
{
  SLOT_FREE,
  SLOT_SCANNING,
  SLOT_DONE,
} SlotState;

typedef struct
{
  guint64             index;     /* the chunk held, G_MAXUINT64 for none */
  SlotState           state;
  const char         *start;     /* where the chunk's scan began, NULL if nowhere */
  GArray             *events;    /* SpsChromeEvent */
  SpsChromeScanner    scanner;   /* its state when the scan stopped */
  SpsChromeScanResult result;
} Slot;

typedef struct
{
  SpsChromeScanner        origin;   /* the caller's scanner when reading began */
  const char             *region;
  gsize                   chunk_size;
  guint64                 n_chunks;

  GMutex                  mutex;
  GCond                   cond;
  guint64                 next_claim;
  guint64                 next_dispatch;
  gboolean                stop;
  Slot                    slots[WINDOW];
} Reader;

static inline gboolean
is_ws (char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The first plausible event start in [from, to): a `{` preceded by `,`
 * and `}` (whitespace allowed). Only a guess; see the top of the file. */
static const char *
guess_event_start (const char *base,
                   const char *from,
                   const char *to)
{
  const char *p = from;

  while (p < to)
    {
      const char *q;

      p = memchr (p, '{', (gsize) (to - p));
      if (p == NULL)
        return NULL;

      q = p - 1;
      while (q > base && is_ws (*q))
        q--;
      if (q > base && *q == ',')
        {
          q--;
          while (q > base && is_ws (*q))
            q--;
          if (*q == '}')
            return p;
        }
      p++;
    }
  return NULL;
}

static inline const char *
nominal_start (Reader  *self,
               guint64  i)
{
  return self->region + i * self->chunk_size;
}

/* Scans chunk @i into @slot. Runs on any thread; touches only @slot. */
static void
scan_chunk (Reader  *self,
            Slot    *slot,
            guint64  i)
{
  const char *end = self->origin.end;
  const char *start;
  SpsChromeScanResult r;

  if (i == 0)
    start = self->origin.p;
  else
    {
      const char *to = i + 1 < self->n_chunks ? nominal_start (self, i + 1) : end;

      start = guess_event_start (self->origin.base, nominal_start (self, i), to);
    }

  slot->start = start;
  g_array_set_size (slot->events, 0);
  if (start == NULL)
    {
      slot->result = SPS_CHROME_SCAN_LIMIT;
      return;
    }

  slot->scanner = self->origin;
  slot->scanner.error_message = NULL;
  if (i > 0)
    sps_chrome_scanner_seek_element (&slot->scanner, start);
  slot->scanner.limit = i + 1 < self->n_chunks
    ? (gsize) (nominal_start (self, i + 1) - self->origin.base)
    : G_MAXSIZE;

  for (;;)
    {
      gboolean full = slot->events->len == MAX_CHUNK_EVENTS;
      SpsChromeEvent *ev;

      /* A full chunk stops at the start of the next element. */
      if G_UNLIKELY (full)
        slot->scanner.limit = sps_chrome_scanner_get_offset (&slot->scanner);

      g_array_set_size (slot->events, slot->events->len + 1);
      ev = &g_array_index (slot->events, SpsChromeEvent, slot->events->len - 1);
      r = sps_chrome_scanner_next_event (&slot->scanner, ev);
      if (r != SPS_CHROME_SCAN_OK)
        {
          g_array_set_size (slot->events, slot->events->len - 1);
          break;
        }
      g_assert (!full);
    }
  slot->result = r;
}

/* Claims the next chunk to scan, if the window allows. Called locked. */
static gboolean
claim (Reader   *self,
       guint64  *i)
{
  if (self->stop ||
      self->next_claim >= self->n_chunks ||
      self->next_claim >= self->next_dispatch + WINDOW)
    return FALSE;

  *i = self->next_claim++;
  self->slots[*i % WINDOW].index = *i;
  self->slots[*i % WINDOW].state = SLOT_SCANNING;
  return TRUE;
}

/* Scans a claimed chunk outside the lock. Called locked. */
static void
scan_claimed (Reader  *self,
              guint64  i)
{
  SPS_SELF_TRACE_SCOPE ("chrome/scan-chunk");
  Slot *slot = &self->slots[i % WINDOW];

  g_mutex_unlock (&self->mutex);
  scan_chunk (self, slot, i);
  g_mutex_lock (&self->mutex);
  slot->state = SLOT_DONE;
  g_cond_broadcast (&self->cond);
}

/* Scans the next chunk the window allows, or else waits for a change.
 * Called locked. */
static void
scan_or_wait (Reader *self)
{
  guint64 i;

  if (claim (self, &i))
    scan_claimed (self, i);
  else
    g_cond_wait (&self->cond, &self->mutex);
}

static gpointer
worker_main (gpointer data)
{
  Reader *self = data;

  g_mutex_lock (&self->mutex);
  while (!self->stop)
    scan_or_wait (self);
  g_mutex_unlock (&self->mutex);

  return NULL;
}

/* Waits until chunk @i is scanned, scanning chunks itself meanwhile. */
static Slot *
wait_chunk (Reader  *self,
            guint64  i)
{
  Slot *slot = &self->slots[i % WINDOW];

  g_mutex_lock (&self->mutex);
  while (slot->index != i || slot->state != SLOT_DONE)
    scan_or_wait (self);
  g_mutex_unlock (&self->mutex);

  return slot;
}

static void
release_chunk (Reader *self,
               Slot   *slot)
{
  sps_chrome_scanner_clear (&slot->scanner);
  g_mutex_lock (&self->mutex);
  slot->state = SLOT_FREE;
  self->next_dispatch++;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

/* Makes @scanner what a sequential scan would have left: the position,
 * depth and error of the scan that ended the array. */
static void
adopt_state (SpsChromeScanner *scanner,
             SpsChromeScanner *from)
{
  char *message = g_steal_pointer (&from->error_message);

  g_free (scanner->error_message);
  *scanner = *from;
  scanner->error_message = message;
  scanner->limit = G_MAXSIZE;
}

/* Scans from *@from (an element start) on this thread, handing events
 * over directly, until the next element starts at or after @limit (then
 * *@from is that element) or the array ends (then @scanner takes the
 * final state). */
static SpsChromeScanResult
rescan (Reader              *self,
        SpsChromeScanner    *scanner,
        const char         **from,
        gsize                limit,
        SpsChromeEventFunc   on_event,
        gpointer             user_data)
{
  SpsChromeScanner again = self->origin;
  SpsChromeEvent ev;
  SpsChromeScanResult r;

  sps_chrome_scanner_seek_element (&again, *from);
  again.limit = limit;
  while ((r = sps_chrome_scanner_next_event (&again, &ev)) == SPS_CHROME_SCAN_OK)
    on_event (&ev, user_data);
  if (r == SPS_CHROME_SCAN_LIMIT)
    *from = again.p;
  else
    adopt_state (scanner, &again);
  sps_chrome_scanner_clear (&again);
  return r;
}

static SpsChromeScanResult
read_sequential (SpsChromeScanner   *scanner,
                 SpsChromeEventFunc  on_event,
                 SpsChromeTickFunc   on_tick,
                 gpointer            user_data)
{
  SpsChromeEvent ev;
  gsize next_tick = sps_chrome_scanner_get_offset (scanner) + CHUNK_SIZE;
  SPS_SELF_TRACE_SCOPE ("chrome/scan");
  SpsChromeScanResult r;

  while ((r = sps_chrome_scanner_next_event (scanner, &ev)) == SPS_CHROME_SCAN_OK)
    {
      on_event (&ev, user_data);
      if G_UNLIKELY (sps_chrome_scanner_get_offset (scanner) >= next_tick)
        {
          next_tick = sps_chrome_scanner_get_offset (scanner) + CHUNK_SIZE;
          if (!on_tick (sps_chrome_scanner_get_offset (scanner), user_data))
            return SPS_CHROME_SCAN_STOPPED;
        }
    }
  return r;
}

/**
 * sps_chrome_read_events_full:
 * @scanner: a scanner just inside an event array
 * @n_threads: threads that may scan (1: all on the calling thread)
 * @chunk_size: bytes per chunk; inputs under 8 chunks are read sequentially
 * @on_event: called for each event, in input order, on this thread
 * @on_tick: called after each chunk (or MiB) of input
 * @user_data: for the callbacks
 *
 * Reads the array's events. Returns what a sequential loop of
 * sps_chrome_scanner_next_event() would (END, EOF or ERROR), with
 * @scanner in the same state, or STOPPED when @on_tick said so.
 *
 * Returns: the result
 */
SpsChromeScanResult
sps_chrome_read_events_full (SpsChromeScanner   *scanner,
                             guint               n_threads,
                             gsize               chunk_size,
                             SpsChromeEventFunc  on_event,
                             SpsChromeTickFunc   on_tick,
                             gpointer            user_data)
{
  Reader self;
  GThread *worker;
  const char *expected;
  SpsChromeScanResult result = SPS_CHROME_SCAN_LIMIT;
  gsize remaining = (gsize) (scanner->end - scanner->p);

  g_assert (scanner != NULL);
  g_assert (on_event != NULL);
  g_assert (on_tick != NULL);
  g_assert (chunk_size > 0);

  if (n_threads < 2 || remaining / 8 < chunk_size)
    return read_sequential (scanner, on_event, on_tick, user_data);

  memset (&self, 0, sizeof self);
  /* A copy: the worker reads it while this thread updates @scanner */
  self.origin = *scanner;
  self.origin.error_message = NULL;
  self.region = scanner->p;
  self.chunk_size = chunk_size;
  self.n_chunks = (remaining + chunk_size - 1) / chunk_size;
  g_mutex_init (&self.mutex);
  g_cond_init (&self.cond);
  for (guint k = 0; k < WINDOW; k++)
    {
      self.slots[k].index = G_MAXUINT64;
      self.slots[k].events = g_array_sized_new (FALSE, FALSE, sizeof (SpsChromeEvent),
                                                MAX (chunk_size / 128, 16));
    }

  worker = g_thread_new ("sps-chrome-scan", worker_main, &self);

  expected = scanner->p;
  for (guint64 i = 0; i < self.n_chunks; i++)
    {
      Slot *slot = wait_chunk (&self, i);
      SpsChromeScanResult r;

      if (slot->start != NULL && slot->start == expected)
        {
          for (guint k = 0; k < slot->events->len; k++)
            on_event (&g_array_index (slot->events, SpsChromeEvent, k), user_data);
          r = slot->result;
          if (r == SPS_CHROME_SCAN_LIMIT)
            expected = slot->scanner.p;
          else
            adopt_state (scanner, &slot->scanner);
        }
      else
        {
          /* The guess was wrong (or there was none, or the previous chunk
           * stopped at its record cap): redo this chunk from where the
           * previous one really ended. */
          r = rescan (&self, scanner, &expected,
                      i + 1 < self.n_chunks ? (gsize) (nominal_start (&self, i + 1) - scanner->base) : G_MAXSIZE,
                      on_event, user_data);
        }
      release_chunk (&self, slot);

      if (r != SPS_CHROME_SCAN_LIMIT)
        {
          result = r;
          break;
        }
      if (!on_tick ((gsize) (expected - scanner->base), user_data))
        {
          result = SPS_CHROME_SCAN_STOPPED;
          break;
        }
    }

  g_mutex_lock (&self.mutex);
  self.stop = TRUE;
  g_cond_broadcast (&self.cond);
  g_mutex_unlock (&self.mutex);
  g_thread_join (worker);

  for (guint k = 0; k < WINDOW; k++)
    {
      if (self.slots[k].state == SLOT_DONE)
        sps_chrome_scanner_clear (&self.slots[k].scanner);
      g_array_unref (self.slots[k].events);
    }
  g_mutex_clear (&self.mutex);
  g_cond_clear (&self.cond);

  /* The last chunk stopped at its record cap: read the rest here */
  if (result == SPS_CHROME_SCAN_LIMIT)
    result = rescan (&self, scanner, &expected, G_MAXSIZE, on_event, user_data);

  return result;
}

/**
 * sps_chrome_read_events:
 * @scanner: a scanner just inside an event array
 * @n_threads: threads that may scan (1: all on the calling thread)
 * @on_event: called for each event, in input order, on this thread
 * @on_tick: called after each MiB of input
 * @user_data: for the callbacks
 *
 * sps_chrome_read_events_full() with 1 MiB chunks.
 *
 * Returns: the result
 */
SpsChromeScanResult
sps_chrome_read_events (SpsChromeScanner   *scanner,
                        guint               n_threads,
                        SpsChromeEventFunc  on_event,
                        SpsChromeTickFunc   on_tick,
                        gpointer            user_data)
{
  return sps_chrome_read_events_full (scanner, n_threads, CHUNK_SIZE,
                                      on_event, on_tick, user_data);
}
