/* sps-etrace-pairing.c: decoded events → spans in time order, kept
 * between the updates of a live capture
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Spans are paired by name in timestamp order (formats/embedded-trace.md
 * §2.5), which a stable sort by time gives: equal times keep their
 * stream order. Events that arrive later are therefore paired after the
 * ones before them as long as none of them is older than the newest
 * event already paired, and a live capture's update only pairs what
 * arrived since the last one. An older event (a straggler: v1 carries
 * absolute times, and a frame can come after a later one) makes
 * sps_etrace_pairing_advance() refuse, and the caller pairs everything
 * again from the start, so the result is always the one a load gives.
 *
 * What the pairing keeps is what the analysis reads: the open start of
 * each name, the order in which names first occur (threads are made in
 * that order), each boot's last time (an open span ends there), the
 * problems found on the way, the markers, and the spans sorted as they
 * are emitted.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include "sps-etrace-pairing.h"

int
sps_etrace_compare_events (gconstpointer a,
                           gconstpointer b)
{
  const SpsEtraceEvent *ea = a;
  const SpsEtraceEvent *eb = b;

  /* Equal times keep their stream order: g_array_sort() is stable */
  if (ea->time_ns != eb->time_ns)
    return ea->time_ns < eb->time_ns ? -1 : 1;
  return 0;
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const SpsEtraceSpan *sa = a;
  const SpsEtraceSpan *sb = b;

  if (sa->start != sb->start)
    return sa->start < sb->start ? -1 : 1;
  if (sa->end != sb->end)
    return sa->end < sb->end ? -1 : 1;
  return sa->name < sb->name ? -1 : sa->name > sb->name;
}

SpsEtracePairing *
sps_etrace_pairing_new (void)
{
  SpsEtracePairing *self = g_new0 (SpsEtracePairing, 1);

  self->open = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->seen = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->occurrences = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->segment_end = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->notes = g_array_new (FALSE, FALSE, sizeof (SpsEtracePairNote));
  self->markers = g_array_new (FALSE, FALSE, sizeof (SpsEtraceEvent));
  self->spans = g_array_new (FALSE, FALSE, sizeof (SpsEtraceSpan));
  self->store = sps_etrace_span_store_new ();

  return self;
}

void
sps_etrace_pairing_free (SpsEtracePairing *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->open);
  g_array_unref (self->seen);
  g_array_unref (self->occurrences);
  g_array_unref (self->segment_end);
  g_array_unref (self->notes);
  g_array_unref (self->markers);
  g_array_unref (self->spans);
  sps_etrace_span_store_unref (self->store);
  g_free (self);
}

/* Back to no event consumed (the arrays keep their memory) */
void
sps_etrace_pairing_reset (SpsEtracePairing *self)
{
  g_return_if_fail (self != NULL);

  self->n_events = 0;
  self->start = self->end = 0;
  g_array_set_size (self->open, 0);
  g_array_set_size (self->seen, 0);
  g_array_set_size (self->occurrences, 0);
  g_array_set_size (self->segment_end, 0);
  g_array_set_size (self->notes, 0);
  g_array_set_size (self->markers, 0);
  g_array_set_size (self->spans, 0);
  /* The traces built so far keep the old store: the spans begin again */
  sps_etrace_span_store_unref (self->store);
  self->store = sps_etrace_span_store_new ();
}

static gboolean
is_sorted (const SpsEtraceEvent *events,
           guint                 n)
{
  for (guint i = 1; i < n; i++)
    if (events[i].time_ns < events[i - 1].time_ns)
      return FALSE;
  return TRUE;
}

/* Every name has an open start (none) and flags */
static void
ensure_names (SpsEtracePairing *self,
              guint             n_names)
{
  guint old = self->open->len;

  if (n_names <= old)
    return;
  g_array_set_size (self->open, n_names);
  for (guint i = old; i < n_names; i++)
    g_array_index (self->open, gint64, i) = -1;
  g_array_set_size (self->seen, n_names);
}

static void
note (SpsEtracePairing *self,
      SpsEtraceHealth   health,
      const SpsEtraceEvent *e)
{
  SpsEtracePairNote n = { e->time_ns, e->name, health };

  g_array_append_val (self->notes, n);
}

static void
occur (SpsEtracePairing *self,
       guint32           name,
       guint8            as)
{
  guint8 *seen = &g_array_index (self->seen, guint8, name);
  guint32 occurrence = name << 1 | (as == 2);

  if (*seen & as)
    return;
  *seen |= as;
  g_array_append_val (self->occurrences, occurrence);
}

/* Merges @added (any order) into the sorted spans. Only the spans from
 * where the first of @added goes are moved: those that started since it
 * started, which in a live capture are the spans of one update or so. */
static void
merge_spans (GArray *spans,
             GArray *added)
{
  g_autoptr(GArray) rest = NULL;
  const SpsEtraceSpan *first;
  const SpsEtraceSpan *r;
  const SpsEtraceSpan *a;
  guint lo = 0, hi = spans->len;
  guint i = 0, j = 0;

  if (added->len == 0)
    return;
  g_array_sort (added, compare_spans);
  first = &g_array_index (added, SpsEtraceSpan, 0);

  /* The first span after @first: the spans before it stay */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (compare_spans (&g_array_index (spans, SpsEtraceSpan, mid), first) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo == spans->len)
    {
      g_array_append_vals (spans, added->data, added->len);
      return;
    }

  rest = g_array_sized_new (FALSE, FALSE, sizeof (SpsEtraceSpan), spans->len - lo);
  g_array_append_vals (rest, &g_array_index (spans, SpsEtraceSpan, lo), spans->len - lo);
  g_array_set_size (spans, lo);
  r = (const SpsEtraceSpan *) rest->data;
  a = (const SpsEtraceSpan *) added->data;
  while (i < rest->len || j < added->len)
    {
      /* Equal spans are the same values: either may go first */
      if (j == added->len || (i < rest->len && compare_spans (&r[i], &a[j]) <= 0))
        g_array_append_val (spans, r[i++]);
      else
        g_array_append_val (spans, a[j++]);
    }
}

/**
 * sps_etrace_pairing_advance:
 * @self: a pairing
 * @events: a decoder's events, in stream order, of which @self consumed
 *   the first @self->n_events
 * @names: the decoder's names
 * @end: consume the events up to this one
 * @in_place: @events may be sorted in place (a load's decoder, done)
 *
 * Pairs events @self->n_events to @end. Costs ∝ those events, plus the
 * spans that started after the earliest new span (merged in order).
 *
 * Returns: %FALSE, changing nothing, when an event is older than the
 *   newest one consumed: the caller resets @self and pairs all again
 */
gboolean
sps_etrace_pairing_advance (SpsEtracePairing *self,
                            GArray           *events,
                            GPtrArray        *names,
                            guint             end,
                            gboolean          in_place)
{
  g_autoptr(GArray) sorted = NULL;
  g_autoptr(GArray) added = NULL;
  const SpsEtraceEvent *e;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (events != NULL && names != NULL, FALSE);
  g_return_val_if_fail (self->n_events <= end && end <= events->len, FALSE);

  n = end - self->n_events;
  if (n == 0)
    return TRUE;

  /* Mostly in order already (v2's clock only moves forward): only a
   * stream with events out of order pays for the sort */
  e = &g_array_index (events, SpsEtraceEvent, self->n_events);
  if (!is_sorted (e, n))
    {
      if (in_place && self->n_events == 0 && end == events->len)
        {
          g_array_sort (events, sps_etrace_compare_events);
          e = (const SpsEtraceEvent *) events->data;
        }
      else
        {
          sorted = g_array_sized_new (FALSE, FALSE, sizeof (SpsEtraceEvent), n);
          g_array_append_vals (sorted, e, n);
          g_array_sort (sorted, sps_etrace_compare_events);
          e = (const SpsEtraceEvent *) sorted->data;
        }
    }

  if (self->n_events > 0 && e[0].time_ns < self->end)
    return FALSE;

  ensure_names (self, names->len);
  if (self->n_events == 0)
    self->start = e[0].time_ns;
  self->end = e[n - 1].time_ns;
  added = g_array_new (FALSE, FALSE, sizeof (SpsEtraceSpan));

  for (guint i = 0; i < n; i++)
    {
      const SpsEtraceEvent *event = &e[i];
      const SpsEtraceName *name = g_ptr_array_index (names, event->name);
      gint64 *open = &g_array_index (self->open, gint64, event->name);
      gint64 *segment_end;

      if (name->segment >= self->segment_end->len)
        {
          guint old = self->segment_end->len;

          g_array_set_size (self->segment_end, name->segment + 1);
          for (guint s = old; s < self->segment_end->len; s++)
            g_array_index (self->segment_end, gint64, s) = G_MININT64;
        }
      segment_end = &g_array_index (self->segment_end, gint64, name->segment);
      *segment_end = MAX (*segment_end, event->time_ns);

      switch (event->kind)
        {
        case SPS_ETRACE_SPAN_START:
          occur (self, event->name, 1);
          if (*open >= 0)
            note (self, SPS_ETRACE_HEALTH_DISCARDED_RESTARTS, event);
          *open = event->time_ns;
          break;

        case SPS_ETRACE_SPAN_END:
          occur (self, event->name, 1);
          if (*open < 0)
            note (self, SPS_ETRACE_HEALTH_UNMATCHED_END, event);
          else
            {
              SpsEtraceSpan span = { *open, event->time_ns, event->name, SPS_ETRACE_NO_ARGS };

              g_array_append_val (added, span);
              *open = -1;
            }
          break;

        case SPS_ETRACE_MARKER:
          occur (self, event->name, 2);
          g_array_append_val (self->markers, *event);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  self->n_events = end;
  merge_spans (self->spans, added);

  return TRUE;
}
