/* sps-session-controls.c: the timeline's controls that SpsSession forwards
 * to its view filter: thread collapse, minimum duration, focus,
 * classification chips
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each control is a small state kept by the view filter itself (so that
 * what the filter serialises is what the window shows); the session only
 * adds the signals views listen to and the rules that tie focus to the
 * selection. See sps-session-filters.c for hiding.
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"


#include "sps-session.h"
#include "sps-session-state-private.h"

static void
emit_filters_changed (SpsSession *self,
                      gboolean    rows_changed)
{
  g_assert (SPS_IS_SESSION (self));

  if (rows_changed)
    g_signal_emit (self, _sps_session_signals[LAYOUT_CHANGED], 0);
  g_signal_emit (self, _sps_session_signals[FILTERS_CHANGED], 0);
}

/**
 * sps_session_get_thread_collapsed:
 * @self: a #SpsSession
 * @thread: a thread index
 *
 * Returns: whether @thread is collapsed to its representative lane
 */
gboolean
sps_session_get_thread_collapsed (SpsSession *self,
                                  guint       thread)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (thread < self->n_threads, FALSE);

  return self->thread_collapsed[thread] != 0;
}

/**
 * sps_session_set_thread_collapsed:
 * @self: a #SpsSession
 * @thread: a thread index
 * @collapsed: whether to collapse it
 *
 * Collapses @thread to its representative lane (the first lane of its
 * first track: its outermost slices) or expands it again. Emits
 * #SpsSession::layout-changed when that changes something; no slice is
 * filtered (sps_session_is_slice_visible() stays the same).
 */
void
sps_session_set_thread_collapsed (SpsSession *self,
                                  guint       thread,
                                  gboolean    collapsed)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (thread < self->n_threads);

  collapsed = !!collapsed;
  if (self->thread_collapsed[thread] == (guint8) collapsed)
    return;

  self->thread_collapsed[thread] = collapsed;
  if (!self->thread_hidden[thread])
    sps_view_filter_set_thread_expansion (self->view_filter, thread,
                                          collapsed ? SPS_EXPANSION_COLLAPSED : SPS_EXPANSION_EXPANDED);
  g_signal_emit (self, _sps_session_signals[LAYOUT_CHANGED], 0);
}

/**
 * sps_session_get_min_duration:
 * @self: a #SpsSession
 *
 * Returns: the shortest duration of a visible slice, ns (0: all)
 */
SpsTime
sps_session_get_min_duration (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), 0);

  return sps_view_filter_get_min_duration (self->view_filter);
}

/**
 * sps_session_set_min_duration:
 * @self: a #SpsSession
 * @min_duration: ns; 0 or less shows every slice
 *
 * Hides exactly the slices shorter than @min_duration (instants have no
 * duration and stay). Emits #SpsSession::filters-changed when it
 * changed; costs the slices whose duration lies between the old and the
 * new minimum.
 */
void
sps_session_set_min_duration (SpsSession *self,
                              SpsTime     min_duration)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  min_duration = MAX (min_duration, 0);
  if (min_duration == sps_view_filter_get_min_duration (self->view_filter))
    return;

  sps_view_filter_set_min_duration (self->view_filter, min_duration);
  emit_filters_changed (self, FALSE);
}

/* Focus follows the selection: the selected slice is its seed. */
static void
sync_focus_seed (SpsSession *self)
{
  guint slice = sps_session_get_selected_slice (self);
  guint32 seed = slice;

  g_assert (SPS_IS_SESSION (self));

  if (slice == SPS_NO_INDEX)
    sps_view_filter_set_focus_seeds (self->view_filter, NULL, 0);
  else
    sps_view_filter_set_focus_seeds (self->view_filter, &seed, 1);
}

static void
selection_changed_cb (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  if (!sps_view_filter_get_focus_enabled (self->view_filter))
    return;

  sync_focus_seed (self);
  emit_filters_changed (self, FALSE);
}

void
_sps_session_init_controls (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  sps_view_filter_set_focus_depth (self->view_filter, 1);
  g_signal_connect (self, "notify::selected-slice", G_CALLBACK (selection_changed_cb), NULL);
}

/**
 * sps_session_get_focus:
 * @self: a #SpsSession
 *
 * Returns: whether focus mode is on
 */
gboolean
sps_session_get_focus (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return sps_view_filter_get_focus_enabled (self->view_filter);
}

/**
 * sps_session_set_focus:
 * @self: a #SpsSession
 * @focus: whether to show only what leads to and from the selection
 *
 * Focus mode shows the selected slice and the slices its flows reach
 * within the focus depth, in the focus direction; everything else is
 * hidden. With nothing selected focus hides nothing. The selection stays
 * the seed while focus is on. Emits #SpsSession::filters-changed.
 */
void
sps_session_set_focus (SpsSession *self,
                       gboolean    focus)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  focus = !!focus;
  if (focus == sps_view_filter_get_focus_enabled (self->view_filter))
    return;

  if (focus)
    sync_focus_seed (self);
  sps_view_filter_set_focus_enabled (self->view_filter, focus);
  emit_filters_changed (self, FALSE);
}

/**
 * sps_session_get_focus_depth:
 * @self: a #SpsSession
 *
 * Returns: how many flow hops focus follows (1 to 5)
 */
guint
sps_session_get_focus_depth (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), 1);

  return sps_view_filter_get_focus_depth (self->view_filter);
}

/**
 * sps_session_set_focus_depth:
 * @self: a #SpsSession
 * @depth: hops, clamped to 1 … %SPS_SESSION_MAX_FOCUS_DEPTH
 *
 * Sets how far focus follows flows from the selection. Emits
 * #SpsSession::filters-changed when focus is on and the depth changed.
 */
void
sps_session_set_focus_depth (SpsSession *self,
                             guint       depth)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  depth = CLAMP (depth, 1, SPS_SESSION_MAX_FOCUS_DEPTH);
  if (depth == sps_view_filter_get_focus_depth (self->view_filter))
    return;

  sps_view_filter_set_focus_depth (self->view_filter, depth);
  if (sps_view_filter_is_focus_active (self->view_filter))
    emit_filters_changed (self, FALSE);
}

/**
 * sps_session_get_focus_direction:
 * @self: a #SpsSession
 *
 * Returns: which flows focus follows
 */
SpsFocusDirection
sps_session_get_focus_direction (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), SPS_FOCUS_BOTH);

  return sps_view_filter_get_focus_direction (self->view_filter);
}

/**
 * sps_session_set_focus_direction:
 * @self: a #SpsSession
 * @direction: incoming (what leads to the selection), outgoing (what it
 *   leads to) or both
 *
 * Emits #SpsSession::filters-changed when focus is on and the direction
 * changed.
 */
void
sps_session_set_focus_direction (SpsSession        *self,
                                 SpsFocusDirection  direction)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (direction >= SPS_FOCUS_INCOMING && direction <= SPS_FOCUS_BOTH);

  if (direction == sps_view_filter_get_focus_direction (self->view_filter))
    return;

  sps_view_filter_set_focus_direction (self->view_filter, direction);
  if (sps_view_filter_is_focus_active (self->view_filter))
    emit_filters_changed (self, FALSE);
}

/**
 * sps_session_get_focus_parent_child:
 * @self: a #SpsSession
 *
 * Returns: whether focus also follows parent/child nesting
 */
gboolean
sps_session_get_focus_parent_child (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return sps_view_filter_get_focus_parent_child (self->view_filter);
}

/**
 * sps_session_set_focus_parent_child:
 * @self: a #SpsSession
 * @follow: whether a focus hop also goes from a slice to its parent
 *   (incoming) and its children (outgoing), not only along flows
 *
 * Off by default: focus follows flows only. Emits
 * #SpsSession::filters-changed when focus is on and the setting changed.
 */
void
sps_session_set_focus_parent_child (SpsSession *self,
                                    gboolean    follow)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  follow = !!follow;
  if (follow == sps_view_filter_get_focus_parent_child (self->view_filter))
    return;

  sps_view_filter_set_focus_parent_child (self->view_filter, follow);
  if (sps_view_filter_is_focus_active (self->view_filter))
    emit_filters_changed (self, FALSE);
}

/* Classification chips */

typedef struct
{
  SpsClassRuleKind  kind;
  const char       *pattern;
} DefaultRule;

/* The rules of the classes every session offers, set the first time a
 * chip uses them (an argument rule reads args, which a large trace should
 * not pay for unasked). "error": slices whose category, name or args say
 * so; "instrumentation": the tracer's own wrappers and bookkeeping, which
 * carry no work of their own (Chrome's toplevel task wrappers, its tracing
 * overhead and metadata categories). */
static const DefaultRule error_rules[] = {
  { SPS_CLASS_RULE_CATEGORY, "*error*" },
  { SPS_CLASS_RULE_NAME, "*Error*" },
  { SPS_CLASS_RULE_NAME, "*error*" },
  { SPS_CLASS_RULE_NAME, "*Exception*" },
  { SPS_CLASS_RULE_ARG, "error" },
};

static const DefaultRule instrumentation_rules[] = {
  { SPS_CLASS_RULE_CATEGORY, "toplevel" },
  { SPS_CLASS_RULE_CATEGORY, "__metadata" },
  { SPS_CLASS_RULE_CATEGORY, "trace_event_overhead" },
  { SPS_CLASS_RULE_CATEGORY, "tracing" },
  { SPS_CLASS_RULE_NAME, "ThreadControllerImpl::RunTask" },
  { SPS_CLASS_RULE_NAME, "RunTask" },
};

static const struct
{
  const char        *name;
  const DefaultRule *rules;
  guint              n_rules;
} builtin_classes[] = {
  { "error", error_rules, G_N_ELEMENTS (error_rules) },
  { "instrumentation", instrumentation_rules, G_N_ELEMENTS (instrumentation_rules) },
};

/* The class's bit, defining a built-in class on first use; -1 when there
 * is no such class (or no room for it) */
static int
class_bit (SpsSession *self,
           const char *name)
{
  int bit = sps_view_filter_lookup_class (self->view_filter, name);

  g_assert (SPS_IS_SESSION (self));

  if (bit >= 0)
    return bit;

  for (guint c = 0; c < G_N_ELEMENTS (builtin_classes); c++)
    {
      g_autoptr(GError) error = NULL;

      if (!g_str_equal (builtin_classes[c].name, name))
        continue;
      for (guint r = 0; r < builtin_classes[c].n_rules; r++)
        if (!sps_view_filter_add_rule (self->view_filter, name, builtin_classes[c].rules[r].kind,
                                       builtin_classes[c].rules[r].pattern, NULL, &error))
          {
            g_warning ("%s", error->message);
            return -1;
          }
      return sps_view_filter_lookup_class (self->view_filter, name);
    }
  return -1;
}

/**
 * sps_session_dup_class_names:
 * @self: a #SpsSession
 *
 * The classes a chip can require or exclude: the built-in "error" and
 * "instrumentation", then the user's own (sps_session_add_class_rule()),
 * in the order they were made.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names
 */
char **
sps_session_dup_class_names (SpsSession *self)
{
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  guint n;

  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  for (guint c = 0; c < G_N_ELEMENTS (builtin_classes); c++)
    g_strv_builder_add (names, builtin_classes[c].name);

  n = sps_view_filter_get_n_classes (self->view_filter);
  for (guint bit = 0; bit < n; bit++)
    {
      const char *name = sps_view_filter_get_class_name (self->view_filter, bit);
      gboolean listed = _sps_session_is_category_class (name);

      for (guint c = 0; c < G_N_ELEMENTS (builtin_classes) && !listed; c++)
        listed = g_str_equal (builtin_classes[c].name, name);
      if (!listed)
        g_strv_builder_add (names, name);
    }

  return g_strv_builder_end (names);
}

/**
 * sps_session_add_class_rule:
 * @self: a #SpsSession
 * @class_name: a class (a user's own is made when missing)
 * @kind: what the rule looks at
 * @pattern: a glob on category tokens or names, or an argument's name
 * @value: (nullable): for an argument rule, the value it must have
 * @error: return location for a #GError
 *
 * Adds a rule that puts slices in a class, for a classification chip.
 * Classifies every slice again (one pass); emits
 * #SpsSession::filters-changed when the class is required or excluded.
 *
 * Returns: %FALSE with @error set when the filter holds no more classes
 */
gboolean
sps_session_add_class_rule (SpsSession        *self,
                            const char        *class_name,
                            SpsClassRuleKind   kind,
                            const char        *pattern,
                            const char        *value,
                            GError           **error)
{
  int bit;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (class_name != NULL && *class_name != '\0', FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);
  g_return_val_if_fail (!_sps_session_is_category_class (class_name), FALSE);

  /* A built-in class gets its own rules first */
  class_bit (self, class_name);
  if (!sps_view_filter_add_rule (self->view_filter, class_name, kind, pattern, value, error))
    return FALSE;

  bit = sps_view_filter_lookup_class (self->view_filter, class_name);
  if (((self->user_require | self->user_exclude) & (1u << bit)) != 0)
    emit_filters_changed (self, FALSE);
  return TRUE;
}

/**
 * sps_session_get_class_state:
 * @self: a #SpsSession
 * @class_name: a class
 *
 * Returns: whether the class's chip requires it, excludes it, or neither
 */
SpsClassState
sps_session_get_class_state (SpsSession *self,
                             const char *class_name)
{
  int bit;

  g_return_val_if_fail (SPS_IS_SESSION (self), SPS_CLASS_ANY);
  g_return_val_if_fail (class_name != NULL, SPS_CLASS_ANY);

  bit = sps_view_filter_lookup_class (self->view_filter, class_name);
  if (bit < 0)
    return SPS_CLASS_ANY;
  if (self->user_require & (1u << bit))
    return SPS_CLASS_REQUIRED;
  if (self->user_exclude & (1u << bit))
    return SPS_CLASS_EXCLUDED;
  return SPS_CLASS_ANY;
}

/**
 * sps_session_set_class_state:
 * @self: a #SpsSession
 * @class_name: a class from sps_session_dup_class_names()
 * @state: show only its slices (%SPS_CLASS_REQUIRED), hide them
 *   (%SPS_CLASS_EXCLUDED) or neither
 *
 * The state of a classification chip. Required classes must all be on a
 * visible slice, excluded ones none. Costs the distinct class patterns
 * (the first use of a built-in class classifies every slice once). Emits
 * #SpsSession::filters-changed when it changed.
 */
void
sps_session_set_class_state (SpsSession    *self,
                             const char    *class_name,
                             SpsClassState  state)
{
  guint32 require;
  guint32 exclude;
  guint32 b;
  int bit;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (class_name != NULL);
  g_return_if_fail (state <= SPS_CLASS_EXCLUDED);
  g_return_if_fail (!_sps_session_is_category_class (class_name));

  if (state == sps_session_get_class_state (self, class_name))
    return;

  bit = class_bit (self, class_name);
  if (bit < 0)
    return;

  b = 1u << bit;
  require = (self->user_require & ~b) | (state == SPS_CLASS_REQUIRED ? b : 0);
  exclude = (self->user_exclude & ~b) | (state == SPS_CLASS_EXCLUDED ? b : 0);
  self->user_require = require;
  self->user_exclude = exclude;
  _sps_session_sync_masks (self);
  emit_filters_changed (self, FALSE);
}
