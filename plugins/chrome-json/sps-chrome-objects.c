/* sps-chrome-objects.c: Chrome object events (N, O, D) as an allocation history
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The object events are kept as they are (the objects table) and also make
 * one allocation per object life on the "object" heap: `N` is its birth,
 * `D` its death (exact: the producer says when), `O` snapshots give its
 * size when their snapshot has a numeric `size`. Events come in file
 * order, which need not be time order, so the lives are built once the
 * whole file was read, from the events sorted by time (stable, so events
 * of one time keep their file order).
 */

#define G_LOG_DOMAIN "sps-chrome"

#include "config.h"

#include "sps-chrome-objects.h"

typedef struct
{
  SpsTime  ts;
  guint64  key;
  guint64  size;
  guint32  process;
  guint32  name;
  guint8   phase;
} ObjectEvent;

struct _SpsChromeObjects
{
  GArray *events;   /* ObjectEvent */
};

SpsChromeObjects *
sps_chrome_objects_new (void)
{
  SpsChromeObjects *self = g_new0 (SpsChromeObjects, 1);

  self->events = g_array_new (FALSE, FALSE, sizeof (ObjectEvent));
  return self;
}

void
sps_chrome_objects_free (SpsChromeObjects *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->events);
  g_free (self);
}

/**
 * sps_chrome_objects_add:
 * @self: the object events of an import
 * @phase: N, O or D
 * @process: the event's process
 * @key: the object's identity (id, scope and process)
 * @ts: its time
 * @name: the object's type name (the event's name)
 * @size: a snapshot's size, or %SPS_SIZE_UNKNOWN
 */
void
sps_chrome_objects_add (SpsChromeObjects *self,
                        SpsObjectPhase    phase,
                        guint32           process,
                        guint64           key,
                        SpsTime           ts,
                        guint32           name,
                        guint64           size)
{
  ObjectEvent ev = { ts, key, size, process, name, phase };

  g_return_if_fail (self != NULL);

  g_array_append_val (self->events, ev);
}

/* By time only: g_array_sort() is stable, so events of one time keep
 * their file order */
static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  SpsTime ta = ((const ObjectEvent *) a)->ts;
  SpsTime tb = ((const ObjectEvent *) b)->ts;

  return (ta > tb) - (ta < tb);
}

/* A record for an object seen first after its birth */
static guint32
add_unborn (SpsTraceBuilder   *builder,
            const ObjectEvent *ev)
{
  return sps_trace_builder_add_allocation (builder, ev->process, SPS_NO_INDEX, SPS_TIME_MIN, ev->size,
                                           ev->name, ev->key, SPS_HEAP_OBJECT,
                                           SPS_ALLOCATION_UNKNOWN_BIRTH);
}

/**
 * sps_chrome_objects_finish:
 * @self: the object events of an import, all added
 * @builder: where the allocations go
 *
 * Adds one allocation per object life.
 */
void
sps_chrome_objects_finish (SpsChromeObjects *self,
                           SpsTraceBuilder  *builder)
{
  g_autoptr(GHashTable) alive = NULL;
  SPS_SELF_TRACE_SCOPE ("chrome/objects");

  g_return_if_fail (self != NULL);
  g_return_if_fail (SPS_IS_TRACE_BUILDER (builder));

  if (self->events->len == 0)
    return;

  /* key → allocation + 1 of the object's current life */
  alive = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_array_sort (self->events, compare_times);

  for (guint i = 0; i < self->events->len; i++)
    {
      const ObjectEvent *ev = &g_array_index (self->events, ObjectEvent, i);
      guint32 current = GPOINTER_TO_UINT (g_hash_table_lookup (alive, &ev->key));

      switch ((SpsObjectPhase) ev->phase)
        {
        case SPS_OBJECT_CREATED:
          /* A second N without a D: the first life's end is unknown */
          if (current != 0)
            sps_trace_builder_set_allocation_certainty (builder, current - 1, SPS_ALLOCATION_UNKNOWN_DEATH);
          current = sps_trace_builder_add_allocation (builder, ev->process, SPS_NO_INDEX, ev->ts,
                                                      SPS_SIZE_UNKNOWN, ev->name, ev->key,
                                                      SPS_HEAP_OBJECT, SPS_ALLOCATION_EXACT) + 1;
          g_hash_table_replace (alive, g_memdup2 (&ev->key, sizeof ev->key), GUINT_TO_POINTER (current));
          break;

        case SPS_OBJECT_SNAPSHOT:
          if (current == 0)
            {
              current = add_unborn (builder, ev) + 1;
              g_hash_table_replace (alive, g_memdup2 (&ev->key, sizeof ev->key), GUINT_TO_POINTER (current));
            }
          else if (ev->size != SPS_SIZE_UNKNOWN)
            sps_trace_builder_set_allocation_size (builder, current - 1, ev->size);
          break;

        case SPS_OBJECT_DESTROYED:
          if (current == 0)
            current = add_unborn (builder, ev) + 1;
          sps_trace_builder_set_allocation_death (builder, current - 1, ev->ts, ev->ts);
          g_hash_table_remove (alive, &ev->key);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  g_array_set_size (self->events, 0);
}
