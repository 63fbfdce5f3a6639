/* sps-chrome-stack-frames.c: the `stackFrames` dictionary and its resolver
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames are keyed by the string id of their key in the trace's string
 * pool (an integer `sf` and the key "5" are the same frame). A later
 * definition of an id replaces the earlier one. Resolution runs once the
 * whole file was read, because `stackFrames` may follow `traceEvents`; a
 * stack resolves only if every frame up to a root exists and is valid and
 * the chain has no cycle, and each frame is resolved at most once.
 */

#define G_LOG_DOMAIN "sps-chrome-stack-frames"

#include "config.h"

#include "sps-chrome-stack-frames.h"

typedef enum
{
  STATE_UNVISITED,
  STATE_VISITING,
  STATE_RESOLVED,
  STATE_FAILED,
} FrameState;

typedef struct
{
  guint32 name;
  guint32 category;
  SpsChromeSourceLocation location;
  guint32 parent;
  guint32 callsite;
  guint8  valid;
  guint8  has_parent;
  guint8  state;
} FrameDef;

/* The stacks of a slice record, resolved with the samples' */
typedef struct
{
  guint32 handle;
  guint32 sf;          /* string ids, 0 when absent */
  guint32 esf;
  guint32 stack;       /* callsite of an inline stack, or SPS_NO_INDEX */
} SliceStacks;

struct _SpsChromeStackFrames
{
  GHashTable *index;   /* string id → position in defs + 1 */
  GArray     *defs;    /* FrameDef */
  GArray     *chain;   /* guint32 positions, scratch for resolve() */
  GArray     *slices;  /* SliceStacks */
};

SpsChromeStackFrames *
sps_chrome_stack_frames_new (void)
{
  SpsChromeStackFrames *self = g_new0 (SpsChromeStackFrames, 1);

  self->index = g_hash_table_new (NULL, NULL);
  self->defs = g_array_new (FALSE, FALSE, sizeof (FrameDef));
  self->chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->slices = g_array_new (FALSE, FALSE, sizeof (SliceStacks));
  return self;
}

void
sps_chrome_stack_frames_free (SpsChromeStackFrames *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->index);
  g_array_unref (self->defs);
  g_array_unref (self->chain);
  g_array_unref (self->slices);
  g_free (self);
}

/* Defines (or redefines: the last definition wins) frame @id. An invalid
 * definition makes every stack through it unresolved. */
void
sps_chrome_stack_frames_define (SpsChromeStackFrames          *self,
                                guint32                        id,
                                gboolean                       valid,
                                guint32                        name,
                                guint32                        category,
                                const SpsChromeSourceLocation *location,
                                gboolean                       has_parent,
                                guint32                        parent)
{
  FrameDef def = {
    .name = name,
    .category = category,
    .location = *location,
    .parent = parent,
    .callsite = SPS_NO_INDEX,
    .valid = valid,
    .has_parent = has_parent,
    .state = STATE_UNVISITED,
  };
  gpointer pos;

  g_assert (self != NULL);

  pos = g_hash_table_lookup (self->index, GUINT_TO_POINTER (id));
  if (pos != NULL)
    g_array_index (self->defs, FrameDef, GPOINTER_TO_UINT (pos) - 1) = def;
  else
    {
      g_array_append_val (self->defs, def);
      g_hash_table_insert (self->index, GUINT_TO_POINTER (id),
                           GUINT_TO_POINTER (self->defs->len));
    }
}

static gboolean
lookup (SpsChromeStackFrames *self,
        guint32               id,
        guint32              *pos)
{
  gpointer value = g_hash_table_lookup (self->index, GUINT_TO_POINTER (id));

  if (value == NULL)
    return FALSE;
  *pos = GPOINTER_TO_UINT (value) - 1;
  return TRUE;
}

/**
 * sps_chrome_stack_frames_resolve:
 * @id: the string id of the leaf frame's id
 *
 * Returns: the leaf callsite of the stack, or %SPS_NO_INDEX when the stack
 *   cannot be resolved (missing id, invalid frame, missing ancestor, cycle)
 */
guint32
sps_chrome_stack_frames_resolve (SpsChromeStackFrames *self,
                                 SpsTraceBuilder      *builder,
                                 guint32               id)
{
  guint32 pos;
  guint32 parent_callsite = SPS_NO_INDEX;
  gboolean failed = FALSE;

  g_assert (self != NULL);

  if (!lookup (self, id, &pos))
    return SPS_NO_INDEX;

  /* Walk towards the root until a frame whose fate is known. */
  g_array_set_size (self->chain, 0);
  for (;;)
    {
      FrameDef *def = &g_array_index (self->defs, FrameDef, pos);

      if (def->state == STATE_RESOLVED)
        {
          parent_callsite = def->callsite;
          break;
        }
      if (def->state == STATE_FAILED || def->state == STATE_VISITING || !def->valid)
        {
          failed = TRUE;
          break;
        }
      def->state = STATE_VISITING;
      g_array_append_val (self->chain, pos);
      if (!def->has_parent)
        break;
      if (!lookup (self, def->parent, &pos))
        {
          failed = TRUE;
          break;
        }
    }

  /* Then settle the chain from its root end down to the leaf. */
  for (guint i = self->chain->len; i > 0; i--)
    {
      FrameDef *def = &g_array_index (self->defs, FrameDef,
                                      g_array_index (self->chain, guint32, i - 1));
      guint32 frame;

      if (failed)
        {
          def->state = STATE_FAILED;
          continue;
        }
      frame = sps_trace_builder_intern_source_frame (builder, def->name, def->category, 0, 0,
                                                     def->location.file, def->location.line,
                                                     def->location.column);
      parent_callsite = sps_trace_builder_intern_callsite (builder, parent_callsite, frame);
      def->callsite = parent_callsite;
      def->state = STATE_RESOLVED;
    }

  if (failed)
    return SPS_NO_INDEX;
  return parent_callsite;
}

/* Remembers the stacks of slice record @handle: `sf` (or the inline
 * `stack` when there is no `sf`) where it starts, `esf` where it ends. */
void
sps_chrome_stack_frames_defer_slice (SpsChromeStackFrames *self,
                                     guint32               handle,
                                     guint32               sf,
                                     guint32               esf,
                                     guint32               stack)
{
  SliceStacks stacks = { handle, sf, esf, stack };

  g_array_append_val (self->slices, stacks);
}

/* Gives the slices their stacks, once every frame is defined. Returns how
 * many `sf`/`esf` references could not be resolved (those slices keep no
 * stack there). */
guint
sps_chrome_stack_frames_resolve_slices (SpsChromeStackFrames *self,
                                        SpsTraceBuilder      *builder)
{
  guint n_unresolved = 0;

  for (guint i = 0; i < self->slices->len; i++)
    {
      SliceStacks *s = &g_array_index (self->slices, SliceStacks, i);
      guint32 start = s->stack;
      guint32 end = SPS_NO_INDEX;

      if (s->sf != 0)
        {
          start = sps_chrome_stack_frames_resolve (self, builder, s->sf);
          n_unresolved += start == SPS_NO_INDEX;
        }
      if (s->esf != 0)
        {
          end = sps_chrome_stack_frames_resolve (self, builder, s->esf);
          n_unresolved += end == SPS_NO_INDEX;
        }
      sps_trace_builder_set_slice_callsites (builder, s->handle, start, end);
    }
  g_array_set_size (self->slices, 0);
  return n_unresolved;
}

/* A stack of one frame named @name: what a sample whose stack is unknown
 * or cannot be resolved shows */
guint32
sps_chrome_single_frame_callsite (SpsTraceBuilder *builder,
                                  guint32          name)
{
  guint32 frame = sps_trace_builder_intern_frame (builder, name, 0, 0, 0);

  return sps_trace_builder_intern_callsite (builder, SPS_NO_INDEX, frame);
}
