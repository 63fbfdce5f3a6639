/* sps-chrome-load-phases.c: what each phase of a Chrome JSON event makes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-importer"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-chrome-importer-private.h"

/* Strings */

/* The name or category of an event, whose hash the scanner computed */
static inline guint32
loader_intern_event_string (Loader               *self,
                            const SpsChromeValue *value,
                            guint32               hash,
                            guint                *flags)
{
  guint32 id;

  if G_UNLIKELY (value->type != SPS_CHROME_VALUE_STRING)
    return sps_chrome_loader_intern (self, value, flags);

  id = sps_chrome_interner_intern_hashed (self->interner, value->ptr, value->len,
                                          value->escaped, hash, flags);
  if G_UNLIKELY (*flags & SPS_CHROME_STRING_REPLACED)
    sps_chrome_loader_warn_replaced (self, value);
  return id;
}

static const char *
printable_phase (char  ph,
                 char *buf)
{
  if (g_ascii_isprint (ph))
    g_snprintf (buf, 8, "'%c'", ph);
  else
    g_snprintf (buf, 8, "0x%02x", (guchar) ph);
  return buf;
}

/* Phases */

/* Args nested deeper than SPS_CHROME_MAX_DEPTH: kept as their text, in a
 * string (parsing them later would meet the same depth), with a warning */
static SpsArgsRef
loader_args_too_deep (Loader               *self,
                      const SpsChromeEvent *ev)
{
  g_autoptr(GString) json = g_string_new ("{\"args_too_deep\":");

  sps_chrome_loader_warn (self, "args_too_deep", sps_chrome_loader_offset (self, ev->args.ptr),
                          N_("args nested deeper than 1000 levels; they are kept as text"));
  sps_json_append_string (json, ev->args.ptr, ev->args.len);
  g_string_append_c (json, '}');
  return sps_trace_builder_add_args_text (self->builder, json->str, (gssize) json->len);
}

static inline SpsArgsRef
loader_args (Loader               *self,
             const SpsChromeEvent *ev)
{
  if ((ev->fields & SPS_CHROME_FIELD_ARGS) == 0)
    return SPS_ARGS_REF_NONE;
  if G_UNLIKELY ((ev->args.type == SPS_CHROME_VALUE_OBJECT || ev->args.type == SPS_CHROME_VALUE_ARRAY) &&
                 ev->args.too_deep)
    return loader_args_too_deep (self, ev);
  if (ev->args.type != SPS_CHROME_VALUE_OBJECT)
    return SPS_ARGS_REF_NONE;
  if G_UNLIKELY (ev->args.escaped)
    {
      /* Commas before a closing bracket are accepted here as in the event
       * array, but the args must stay JSON for everything that parses them. */
      gsize len = 0;
      g_autofree char *clean = sps_json_strip_trailing_commas (ev->args.ptr, ev->args.len, &len);

      if (clean != NULL)
        return sps_trace_builder_add_args_text (self->builder, clean, (gssize) len);
    }
  return sps_args_ref_new (FALSE, sps_chrome_loader_offset (self, ev->args.ptr), ev->args.len);
}

static void
loader_instant (Loader               *self,
                const SpsChromeEvent *ev,
                SpsInstantKind        kind,
                guint32               name,
                guint32               category)
{
  SpsInstantScope scope = SPS_INSTANT_SCOPE_THREAD;
  guint32 process = SPS_NO_INDEX;
  guint32 thread = SPS_NO_INDEX;

  if (kind == SPS_INSTANT_KIND_ASYNC)
    scope = SPS_INSTANT_SCOPE_PROCESS;
  else if (ev->fields & SPS_CHROME_FIELD_S)
    {
      if (sps_chrome_value_equals (&ev->s, "g"))
        scope = SPS_INSTANT_SCOPE_GLOBAL;
      else if (sps_chrome_value_equals (&ev->s, "p"))
        scope = SPS_INSTANT_SCOPE_PROCESS;
      else if (!sps_chrome_value_equals (&ev->s, "t"))
        sps_chrome_loader_warn (self, "unknown_instant_scope", ev->offset,
                                N_("instant scope \"s\" is not \"t\", \"p\" or \"g\"; using the thread"));
    }

  if (scope == SPS_INSTANT_SCOPE_THREAD)
    thread = sps_chrome_loader_event_thread (self, ev);
  else if (scope == SPS_INSTANT_SCOPE_PROCESS)
    process = sps_chrome_loader_event_process (self, ev);

  sps_trace_builder_add_instant (self->builder, kind, scope, process, thread, ev->ts,
                                 name, category, loader_args (self, ev));
}

static void
loader_counter (Loader               *self,
                const SpsChromeEvent *ev,
                guint32               name)
{
  guint32 process = sps_chrome_loader_event_process (self, ev);
  guint32 counter_name = name;
  ObjectIter iter;
  SpsChromeValue key;
  SpsChromeValue value;
  guint n_series = 0;

  /* Counter identity is name plus id, written "name[id]" */
  if ((ev->fields & SPS_CHROME_FIELD_ID) && sps_chrome_value_is_text (&ev->id))
    {
      gsize len;
      const char *text = sps_string_pool_get (self->strings, name, &len);

      g_string_truncate (self->scratch, 0);
      g_string_append_len (self->scratch, text, (gssize) len);
      g_string_append_c (self->scratch, '[');
      sps_chrome_loader_append_text (self, self->scratch, &ev->id);
      g_string_append_c (self->scratch, ']');
      counter_name = sps_string_pool_intern (self->strings, self->scratch->str,
                                             (gssize) self->scratch->len);
    }

  if ((ev->fields & SPS_CHROME_FIELD_ARGS) == 0 || ev->args.type != SPS_CHROME_VALUE_OBJECT)
    {
      sps_chrome_loader_warn (self, "counter_without_values", ev->offset, N_("a counter event has no args object"));
      return;
    }

  sps_chrome_object_iter_init (&iter, self, &ev->args);
  while (sps_chrome_object_iter_next (&iter, &key, &value))
    {
      double v;

      n_series++;
      if (sps_chrome_value_to_double (&value, &v))
        {
          guint32 series = sps_chrome_loader_intern_simple (self, &key);
          guint32 track = sps_trace_builder_ensure_counter_track (self->builder, process,
                                                                  counter_name, series);

          sps_trace_builder_add_counter_value (self->builder, track, ev->ts, v);
        }
      else if (value.type == SPS_CHROME_VALUE_STRING)
        sps_chrome_loader_warn (self, "counter_string_value", sps_chrome_loader_offset (self, value.ptr) - 1,
                                N_("a counter value is a string that is not a number; skipped"));
      else
        sps_chrome_loader_warn (self, "counter_invalid_value", sps_chrome_loader_offset (self, value.ptr),
                                N_("a counter value is not a number; skipped"));
    }
  sps_chrome_object_iter_clear (&iter);

  if (n_series == 0)
    sps_chrome_loader_warn (self, "counter_without_values", ev->offset, N_("a counter event has no values"));
}

static void
loader_flow (Loader               *self,
             const SpsChromeEvent *ev,
             guint32               name,
             guint32               category)
{
  SpsChromeValue id;
  SpsFlowPhase phase;
  SpsFlowBind bind = SPS_FLOW_BIND_ENCLOSING;
  guint32 thread;

  if (sps_chrome_loader_event_id (self, ev, &id) == ID_NONE)
    {
      sps_chrome_loader_warn (self, "flow_without_id", ev->offset, N_("a flow event has no id; skipped"));
      return;
    }

  switch (ev->ph)
    {
    case 's':
      phase = SPS_FLOW_START;
      break;
    case 't':
      phase = SPS_FLOW_STEP;
      break;
    default:
      phase = SPS_FLOW_END;
      if (!(ev->fields & SPS_CHROME_FIELD_BP) || !sps_chrome_value_equals (&ev->bp, "e"))
        bind = SPS_FLOW_BIND_NEXT;
      break;
    }

  thread = sps_chrome_loader_event_thread (self, ev);
  sps_trace_builder_add_flow_point (self->builder,
                                    sps_chrome_identity_key (KEY_FLOW, &id, category, name, FALSE, 0),
                                    phase, bind, thread, ev->ts, SPS_NO_INDEX,
                                    name, category);
}

static gboolean
value_to_sort_index (const SpsChromeValue *value,
                     gint32               *out)
{
  double d;
  gint64 i;

  if (value->type == SPS_CHROME_VALUE_NUMBER ||
      (value->type == SPS_CHROME_VALUE_STRING && !value->escaped))
    {
      if (sps_chrome_parse_int64 (value->ptr, value->len, &i) == SPS_CHROME_NUMBER_OK)
        {
          *out = (gint32) CLAMP (i, G_MININT32, G_MAXINT32);
          return TRUE;
        }
      if (sps_chrome_value_to_double (value, &d) && isfinite (d))
        {
          *out = (gint32) CLAMP (d, (double) G_MININT32, (double) G_MAXINT32);
          return TRUE;
        }
    }
  return FALSE;
}

static void
loader_metadata (Loader               *self,
                 const SpsChromeEvent *ev)
{
  enum { PROCESS_NAME, THREAD_NAME, PROCESS_SORT, THREAD_SORT, PROCESS_LABELS } kind;
  SpsChromeValue value;
  const char *arg;

  self->metadata_events++;

  if (!(ev->fields & SPS_CHROME_FIELD_NAME) || ev->name.type != SPS_CHROME_VALUE_STRING)
    return;

  if (sps_chrome_value_equals (&ev->name, "process_name"))
    kind = PROCESS_NAME, arg = "name";
  else if (sps_chrome_value_equals (&ev->name, "thread_name"))
    kind = THREAD_NAME, arg = "name";
  else if (sps_chrome_value_equals (&ev->name, "process_sort_index"))
    kind = PROCESS_SORT, arg = "sort_index";
  else if (sps_chrome_value_equals (&ev->name, "thread_sort_index"))
    kind = THREAD_SORT, arg = "sort_index";
  else if (sps_chrome_value_equals (&ev->name, "process_labels"))
    kind = PROCESS_LABELS, arg = "labels";
  else
    return;

  if (!(ev->fields & SPS_CHROME_FIELD_ARGS) || !sps_chrome_object_lookup (self, &ev->args, arg, &value))
    {
      sps_chrome_loader_warn (self, "invalid_metadata", ev->offset,
                              N_("a metadata event has no args.%s"), arg);
      return;
    }

  switch (kind)
    {
    case PROCESS_NAME:
    case PROCESS_LABELS:
    case THREAD_NAME:
      if (value.type != SPS_CHROME_VALUE_STRING)
        {
          sps_chrome_loader_warn (self, "invalid_metadata", ev->offset,
                                  N_("args.%s of a metadata event is not a string"), arg);
          return;
        }
      if (kind == PROCESS_NAME)
        sps_trace_builder_set_process_name (self->builder, sps_chrome_loader_event_process (self, ev),
                                            sps_chrome_loader_intern_simple (self, &value));
      else if (kind == PROCESS_LABELS)
        sps_trace_builder_set_process_labels (self->builder, sps_chrome_loader_event_process (self, ev),
                                              sps_chrome_loader_intern_simple (self, &value));
      else
        sps_trace_builder_set_thread_name (self->builder, sps_chrome_loader_event_thread (self, ev),
                                           sps_chrome_loader_intern_simple (self, &value));
      break;

    case PROCESS_SORT:
    case THREAD_SORT:
      {
        gint32 sort_index;

        if (!value_to_sort_index (&value, &sort_index))
          {
            sps_chrome_loader_warn (self, "invalid_metadata", ev->offset,
                                    N_("args.sort_index of a metadata event is not a number"));
            return;
          }
        if (kind == PROCESS_SORT)
          sps_trace_builder_set_process_sort_index (self->builder, sps_chrome_loader_event_process (self, ev),
                                                    sort_index);
        else
          sps_trace_builder_set_thread_sort_index (self->builder, sps_chrome_loader_event_thread (self, ev),
                                                   sort_index);
      }
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
loader_async (Loader               *self,
              const SpsChromeEvent *ev,
              guint32               name,
              guint32               category)
{
  guint32 process = sps_chrome_loader_event_process (self, ev);
  SpsChromeValue id;
  SpsChromeValue step;
  IdScope scope;
  SpsAsyncPhase phase;
  guint32 step_name = name;
  guint64 key;
  guint32 handle;

  scope = sps_chrome_loader_event_id (self, ev, &id);
  if (scope == ID_NONE)
    sps_chrome_loader_warn (self, "async_without_id", ev->offset,
                            N_("an async event has no id; it is keyed by its category only"));

  switch (ev->ph)
    {
    case 'b':
      phase = SPS_ASYNC_BEGIN;
      break;
    case 'e':
      phase = SPS_ASYNC_END;
      break;
    case 'S':
      phase = SPS_ASYNC_LEGACY_START;
      break;
    case 'T':
      phase = SPS_ASYNC_LEGACY_STEP_INTO;
      break;
    case 'p':
      phase = SPS_ASYNC_LEGACY_STEP_PAST;
      break;
    case 'F':
    default:
      phase = SPS_ASYNC_LEGACY_FINISH;
      break;
    }

  if (phase == SPS_ASYNC_BEGIN || phase == SPS_ASYNC_END)
    {
      /* Nestable: (category, id, scope), id2.local ids per process */
      key = sps_chrome_identity_key (KEY_ASYNC, scope != ID_NONE ? &id : NULL,
                                     category, sps_chrome_loader_scope_name (self, ev),
                                     scope == ID_LOCAL, sps_chrome_loader_event_pid (self, ev));
    }
  else
    {
      /* Legacy: (name, id, scope); a step is named by args.step */
      key = sps_chrome_identity_key (KEY_LEGACY, scope != ID_NONE ? &id : NULL,
                                     name, sps_chrome_loader_scope_name (self, ev),
                                     scope == ID_LOCAL, sps_chrome_loader_event_pid (self, ev));
      if ((phase == SPS_ASYNC_LEGACY_STEP_INTO || phase == SPS_ASYNC_LEGACY_STEP_PAST) &&
          (ev->fields & SPS_CHROME_FIELD_ARGS) &&
          sps_chrome_object_lookup (self, &ev->args, "step", &step) && sps_chrome_value_is_text (&step))
        step_name = sps_chrome_loader_intern_simple (self, &step);
    }

  handle = sps_trace_builder_add_async (self->builder, phase, process, key, ev->ts,
                                        step_name, category, loader_args (self, ev));
  if (phase == SPS_ASYNC_BEGIN)
    sps_chrome_loader_bind_flow (self, ev, SPS_NO_INDEX, handle, name, category);
}

static void
loader_object (Loader               *self,
               const SpsChromeEvent *ev,
               guint32               name)
{
  guint32 process = sps_chrome_loader_event_process (self, ev);
  SpsChromeValue id;
  SpsChromeValue snapshot;
  SpsChromeValue size_value;
  double size_number;
  guint64 size = SPS_SIZE_UNKNOWN;
  guint64 key;
  IdScope scope;
  SpsObjectPhase phase;

  scope = sps_chrome_loader_event_id (self, ev, &id);
  if (scope == ID_NONE)
    sps_chrome_loader_warn (self, "object_without_id", ev->offset,
                            N_("an object event has no id; it is keyed by its name only"));

  phase = ev->ph == 'N' ? SPS_OBJECT_CREATED :
          ev->ph == 'O' ? SPS_OBJECT_SNAPSHOT : SPS_OBJECT_DESTROYED;

  /* Object ids are process-local unless id2.global says otherwise */
  key = sps_chrome_identity_key (KEY_OBJECT, scope != ID_NONE ? &id : NULL,
                                 name, sps_chrome_loader_scope_name (self, ev),
                                 scope != ID_GLOBAL, sps_chrome_loader_event_pid (self, ev));
  sps_trace_builder_add_object_event (self->builder, phase, process, key, ev->ts, name, loader_args (self, ev));

  /* A snapshot's numeric size is the object's size */
  if (phase == SPS_OBJECT_SNAPSHOT && (ev->fields & SPS_CHROME_FIELD_ARGS) &&
      sps_chrome_object_lookup (self, &ev->args, "snapshot", &snapshot) &&
      snapshot.type == SPS_CHROME_VALUE_OBJECT &&
      sps_chrome_object_lookup (self, &snapshot, "size", &size_value) &&
      sps_chrome_value_to_double (&size_value, &size_number) &&
      size_number >= 0 && size_number < 9.0e18 && size_number == (double) (guint64) size_number)
    size = (guint64) size_number;
  sps_chrome_objects_add (self->objects, phase, process, key, ev->ts, name, size);
}

guint32
sps_chrome_loader_single_frame (Loader  *self,
                                guint32  name)
{
  return sps_chrome_single_frame_callsite (self->builder, name);
}

/* `stack`: an inline array of frame names, root first */
static guint32
loader_inline_stack (Loader               *self,
                     const SpsChromeValue *stack)
{
  SpsChromeScanner scanner;
  SpsChromeValue value;
  guint32 callsite = SPS_NO_INDEX;
  gboolean ok = TRUE;
  guint n = 0;

  if (stack->type != SPS_CHROME_VALUE_ARRAY)
    return SPS_NO_INDEX;

  sps_chrome_scanner_init_range (&scanner, self->base, stack->ptr, stack->ptr + stack->len, 0);
  if (sps_chrome_scanner_enter (&scanner, '[') != SPS_CHROME_SCAN_OK)
    ok = FALSE;
  while (ok && sps_chrome_scanner_next_element (&scanner) == SPS_CHROME_SCAN_OK)
    {
      guint32 frame;

      if (sps_chrome_scanner_read_value (&scanner, &value) != SPS_CHROME_SCAN_OK ||
          value.type != SPS_CHROME_VALUE_STRING)
        {
          ok = FALSE;
          break;
        }
      frame = sps_trace_builder_intern_frame (self->builder,
                                              sps_chrome_loader_intern_simple (self, &value), 0, 0, 0);
      callsite = sps_trace_builder_intern_callsite (self->builder, callsite, frame);
      n++;
    }
  sps_chrome_scanner_clear (&scanner);

  return ok && n > 0 ? callsite : SPS_NO_INDEX;
}

/* The time units a sample's weight can have. Another unit (a count of
 * cycles, bytes…) has no place in the sample table, which holds time
 * units only: the weight is kept without one, and the warning names the
 * unit, so that nothing the producer wrote goes unsaid. */
static SpsWeightUnit
loader_weight_unit (Loader               *self,
                    const SpsChromeValue *value,
                    gsize                 offset)
{
  char text[40];

  if (sps_chrome_value_equals (value, "ns"))
    return SPS_WEIGHT_UNIT_NS;
  if (sps_chrome_value_equals (value, "us"))
    return SPS_WEIGHT_UNIT_US;
  if (sps_chrome_value_equals (value, "ms"))
    return SPS_WEIGHT_UNIT_MS;
  if (sps_chrome_value_equals (value, "s"))
    return SPS_WEIGHT_UNIT_S;

  /* Quoted as written when it is short, printable text */
  g_strlcpy (text, "(not a short string)", sizeof text);
  if (value->type == SPS_CHROME_VALUE_STRING && !value->escaped && value->len < sizeof text - 2)
    {
      gboolean printable = TRUE;

      for (gsize i = 0; i < value->len; i++)
        printable &= g_ascii_isprint (value->ptr[i]);
      if (printable)
        g_snprintf (text, sizeof text, "\"%.*s\"", (int) value->len, value->ptr);
    }
  sps_chrome_loader_warn (self, "unknown_weight_unit", offset,
                          N_("weightUnit %s is not a time unit (ns, us, ms, s); the weight is kept without a unit"),
                          text);
  return SPS_WEIGHT_UNIT_NONE;
}

static void
loader_sample (Loader               *self,
               const SpsChromeEvent *ev,
               guint32               name)
{
  guint32 thread = sps_chrome_loader_event_thread (self, ev);
  SpsSampleFlags flags = SPS_SAMPLE_NONE;
  SpsWeightUnit unit = SPS_WEIGHT_UNIT_NONE;
  double weight = NAN;
  guint32 callsite;
  guint32 sample;

  /* A weight is a JSON number; a string holding one is not. */
  if ((ev->fields & SPS_CHROME_FIELD_WEIGHT) && ev->weight.type == SPS_CHROME_VALUE_NUMBER &&
      sps_chrome_value_to_double (&ev->weight, &weight))
    flags |= SPS_SAMPLE_HAS_WEIGHT;
  else
    weight = NAN;
  /* The unit is kept as given, with or without a usable weight: only the
   * estimate needs both (and is NULL otherwise). */
  if (ev->fields & SPS_CHROME_FIELD_WEIGHT_UNIT)
    unit = loader_weight_unit (self, &ev->weight_unit, ev->offset);

  if (ev->fields & SPS_CHROME_FIELD_SF)
    {
      /* Resolved once the whole file is read: stackFrames may come later */
      guint32 raw = sps_chrome_value_is_text (&ev->sf) ? sps_chrome_loader_intern_simple (self, &ev->sf) : 0;

      sample = sps_trace_builder_add_sample (self->builder, thread, ev->ts, name, SPS_NO_INDEX,
                                             raw, weight, unit, flags);
      if (sps_chrome_value_is_text (&ev->sf))
        g_array_append_val (self->pending_samples, sample);
      else
        sps_trace_builder_set_sample_callsite (self->builder, sample,
                                               sps_chrome_loader_single_frame (self, name),
                                               SPS_SAMPLE_UNRESOLVED);
      return;
    }

  if (ev->fields & SPS_CHROME_FIELD_STACK)
    {
      callsite = loader_inline_stack (self, &ev->stack);
      if (callsite == SPS_NO_INDEX)
        {
          callsite = sps_chrome_loader_single_frame (self, name);
          flags |= SPS_SAMPLE_UNRESOLVED;
        }
    }
  else
    callsite = sps_chrome_loader_single_frame (self, name);

  sps_trace_builder_add_sample (self->builder, thread, ev->ts, name, callsite, 0,
                                weight, unit, flags);
}

/* `sf`, `esf` and an inline `stack` on X, B and E: the slice's stacks,
 * resolved with the samples' once stackFrames is read */
static void
loader_slice_stacks (Loader               *self,
                     const SpsChromeEvent *ev,
                     guint32               handle)
{
  guint32 sf = 0;
  guint32 esf = 0;
  guint32 stack = SPS_NO_INDEX;

  if G_LIKELY ((ev->fields & (SPS_CHROME_FIELD_SF | SPS_CHROME_FIELD_ESF | SPS_CHROME_FIELD_STACK)) == 0 ||
               handle == SPS_NO_INDEX)
    return;
  if ((ev->fields & SPS_CHROME_FIELD_SF) && sps_chrome_value_is_text (&ev->sf))
    sf = sps_chrome_loader_intern_simple (self, &ev->sf);
  if ((ev->fields & SPS_CHROME_FIELD_ESF) && sps_chrome_value_is_text (&ev->esf))
    esf = sps_chrome_loader_intern_simple (self, &ev->esf);
  if ((ev->fields & SPS_CHROME_FIELD_STACK) && (stack = loader_inline_stack (self, &ev->stack)) == SPS_NO_INDEX)
    sps_chrome_loader_warn (self, "invalid_slice_stack", ev->offset,
                            N_("the inline stack of a slice is not an array of frame names; ignored"));
  sps_chrome_stack_frames_defer_slice (self->frames, handle, sf, esf, stack);
}

/* One event record → builder calls */
void
sps_chrome_loader_dispatch (Loader               *self,
                            const SpsChromeEvent *ev)
{
  guint32 name = 0;
  guint32 category = 0;
  guint cat_flags = 0;
  guint flags;
  guint32 thread;
  SpsSliceFlags slice_flags;
  SpsChromeCpuProfileKind profile_kind;
  char buf[8];

  if G_UNLIKELY (!ev->is_object)
    {
      sps_chrome_loader_warn (self, "invalid_event", ev->offset, N_("an element of the event array is not an object"));
      return;
    }

  self->events_read++;

  if G_UNLIKELY (ev->ph == 0)
    {
      /* `{}` separates or ends event lists in some producers */
      if (ev->n_members > 0)
        sps_chrome_loader_warn (self, "missing_phase", ev->offset, N_("an event has no \"ph\"; skipped"));
      return;
    }

  if (ev->ph == 'M')
    {
      loader_metadata (self, ev);
      return;
    }

  if G_UNLIKELY (ev->ts_state != SPS_CHROME_TIME_OK)
    {
      if (ev->ts_state == SPS_CHROME_TIME_NONE)
        sps_chrome_loader_warn (self, "missing_timestamp", ev->offset, N_("an event has no \"ts\"; skipped"));
      else if (ev->ts_state == SPS_CHROME_TIME_BAD_NUMBER)
        sps_chrome_loader_warn (self, "bad_number", ev->offset,
                                N_("\"ts\" is a string that does not hold a number; event skipped"));
      else if (ev->ts_state == SPS_CHROME_TIME_OUT_OF_RANGE)
        sps_chrome_loader_warn (self, "time_out_of_range", ev->offset,
                                N_("\"ts\" is out of range (its nanoseconds do not fit 64 bits); event skipped"));
      else
        sps_chrome_loader_warn (self, "invalid_timestamp", ev->offset, N_("\"ts\" is not a number; event skipped"));
      return;
    }

  /* V8 CPU profiles: Profile, ProfileChunk, CpuProfile */
  profile_kind = sps_chrome_cpu_profile_kind (ev);
  if G_UNLIKELY (profile_kind != SPS_CHROME_CPU_PROFILE_NONE)
    {
      sps_chrome_cpu_profiles_add_event (self->profiles, profile_kind, ev,
                                         sps_chrome_loader_event_pid (self, ev), sps_chrome_loader_event_thread (self, ev));
      return;
    }

  if (ev->fields & SPS_CHROME_FIELD_NAME)
    name = loader_intern_event_string (self, &ev->name, ev->name_hash, &flags);
  if (ev->fields & SPS_CHROME_FIELD_CAT)
    category = loader_intern_event_string (self, &ev->cat, ev->cat_hash, &cat_flags);
  slice_flags = (cat_flags & SPS_CHROME_STRING_SAMPLE_EVENT) ? SPS_SLICE_SAMPLED : SPS_SLICE_NONE;

  switch (ev->ph)
    {
    case 'X':
      {
        SpsTime dur = 0;
        guint32 handle;

        /* Without a duration the event never ended as far as the trace
         * knows: it lasts to the trace end, like a B without its E. */
        if G_LIKELY (ev->dur_state == SPS_CHROME_TIME_OK)
          dur = ev->dur;
        else if (ev->dur_state == SPS_CHROME_TIME_BAD_NUMBER)
          {
            sps_chrome_loader_warn (self, "bad_number", ev->offset,
                                    N_("\"dur\" is a string that does not hold a number; event skipped"));
            break;
          }
        else if (ev->dur_state == SPS_CHROME_TIME_OUT_OF_RANGE)
          {
            sps_chrome_loader_warn (self, "time_out_of_range", ev->offset,
                                    N_("\"dur\" is out of range (its nanoseconds do not fit 64 bits); event skipped"));
            break;
          }
        else
          {
            if (ev->dur_state == SPS_CHROME_TIME_NONE)
              sps_chrome_loader_warn (self, "missing_duration", ev->offset,
                                      N_("a complete event has no \"dur\"; it lasts to the end of the trace"));
            else
              sps_chrome_loader_warn (self, "invalid_duration", ev->offset,
                                      N_("\"dur\" is not a number; the event lasts to the end of the trace"));
            slice_flags |= SPS_SLICE_UNFINISHED;
            dur = SPS_TIME_MAX;
          }

        thread = sps_chrome_loader_event_thread (self, ev);
        handle = sps_trace_builder_add_complete (self->builder, thread, ev->ts, dur, name, category,
                                                 loader_args (self, ev), slice_flags);
        sps_chrome_loader_bind_flow (self, ev, thread, handle, name, category);
        loader_slice_stacks (self, ev, handle);
      }
      break;

    case 'B':
      {
        guint32 handle;

        thread = sps_chrome_loader_event_thread (self, ev);
        handle = sps_trace_builder_add_begin (self->builder, thread, ev->ts, name, category,
                                              loader_args (self, ev), slice_flags);
        sps_chrome_loader_bind_flow (self, ev, thread, handle, name, category);
        loader_slice_stacks (self, ev, handle);
      }
      break;

    case 'E':
      thread = sps_chrome_loader_event_thread (self, ev);
      loader_slice_stacks (self, ev,
                           sps_trace_builder_add_named_end (self->builder, thread, ev->ts, name,
                                                            loader_args (self, ev), slice_flags));
      break;

    case 'i':
    case 'I':
      loader_instant (self, ev, SPS_INSTANT_KIND_INSTANT, name, category);
      break;

    case 'R':
      loader_instant (self, ev, SPS_INSTANT_KIND_MARK, name, category);
      break;

    case 'n':
      loader_instant (self, ev, SPS_INSTANT_KIND_ASYNC, name, category);
      break;

    case 'C':
      loader_counter (self, ev, name);
      break;

    case 's':
    case 't':
    case 'f':
      loader_flow (self, ev, name, category);
      break;

    case 'b':
    case 'e':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
      loader_async (self, ev, name, category);
      break;

    case 'N':
    case 'O':
    case 'D':
      loader_object (self, ev, name);
      break;

    case 'P':
      loader_sample (self, ev, name);
      break;

    case 'v':
    case 'V':
    case 'c':
    case '(':
    case ')':
    case '=':
      /* Memory dumps, clock syncs, contexts and id links: known, not shown */
      sps_chrome_loader_warn (self, "unsupported_phase", ev->offset, N_("phase %s is not imported"),
                              printable_phase (ev->ph, buf));
      break;

    default:
      sps_chrome_loader_warn (self, "unknown_phase", ev->offset, N_("unknown phase %s; event skipped"),
                              printable_phase (ev->ph, buf));
      break;
    }
}
