/* sps-import-warnings.c: what an import warned about, in words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-import-warnings"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-import-warnings.h"
#include "sps-panel-util.h"

/* A singular and a plural for xgettext (keyword NP_:1,2, po/meson.build),
 * looked up with g_dngettext() when the count is known. The singular of
 * a counter that a file has at most once says it without the number, in
 * lower case: it may follow another one in the list (a summary starts
 * with a capital, see _sps_panel_capitalized()). */
#define NP_(singular, plural) singular, plural

/* The counters the importers and the builder count (the names are those
 * of `spanscope-cli info`), each with how to say it and what it means for
 * what the window shows. A name not listed here (a third-party plugin's)
 * is shown as it is, with its count. */
static const struct
{
  const char *name;
  const char *singular;
  const char *plural;
  const char *meaning;
} known[] = {
  /* Chrome JSON */
  { "unmatched_async_begin", NP_ ("%s async begin without an end", "%s async begins without an end"),
    N_("Async operations that never ended: each is drawn to the end of the trace, marked unfinished.") },
  { "unmatched_async_end", NP_ ("%s async end without a begin", "%s async ends without a begin"),
    N_("Ends of async operations that never started; they make no slice.") },
  { "unmatched_async_step", NP_ ("%s async step without its operation", "%s async steps without their operation"),
    N_("Steps of legacy async operations that have no start; they make no slice.") },
  { "mixed_async_steps", NP_ ("%s async operation with both kinds of steps", "%s async operations with both kinds of steps"),
    N_("Legacy async operations that mix step-into and step-past steps; as in about:tracing, they make no slice.") },
  { "duplicate_async_start", NP_ ("%s async start of an operation already open", "%s async starts of operations already open"),
    N_("A legacy async start whose name and id belong to an operation still open; the second start was dropped.") },
  { "unmatched_begin", NP_ ("%s begin without an end", "%s begins without an end"),
    N_("Slices that never ended: each lasts to the end of the trace, marked unfinished.") },
  { "unmatched_end", NP_ ("%s end without a begin", "%s ends without a begin"),
    N_("End events with nothing open on their thread; they were dropped.") },
  { "begin_end_name_mismatch", NP_ ("%s end with another name than its begin", "%s ends with another name than their begin"),
    N_("An end event closed the open slice of another name; the slice keeps its begin's name.") },
  { "arg_overwritten", NP_ ("%s argument overwritten by an end event", "%s arguments overwritten by end events"),
    N_("An end event repeated an argument of its begin; the slice shows the end event's value.") },
  { "unsupported_phase", NP_ ("%s event of an unsupported phase", "%s events of unsupported phases"),
    N_("Known kinds of events that are not shown (memory dumps, clock syncs, contexts, links).") },
  { "unknown_phase", NP_ ("%s event of an unknown phase", "%s events of unknown phases"),
    N_("Events whose phase no format defines; they were skipped.") },
  { "missing_phase", NP_ ("%s event without a phase", "%s events without a phase"),
    N_("Events without \"ph\"; they were skipped.") },
  { "missing_timestamp", NP_ ("%s event without a timestamp", "%s events without a timestamp"),
    N_("Events without \"ts\"; they were skipped.") },
  { "invalid_timestamp", NP_ ("%s event with an unusable timestamp", "%s events with unusable timestamps"),
    N_("Events whose \"ts\" is not a usable number; they were skipped.") },
  { "bad_number", NP_ ("%s number that does not parse", "%s numbers that do not parse"),
    N_("Numbers written as text that is not a number; their events were dropped.") },
  { "time_out_of_range", NP_ ("%s time out of range", "%s times out of range"),
    N_("Times (\"ts\", \"dur\") of more than about 292 years, which do not fit 64-bit nanoseconds; their events were dropped.") },
  { "missing_duration", NP_ ("%s complete event without a duration", "%s complete events without a duration"),
    N_("Complete events without \"dur\": each lasts to the end of the trace, marked unfinished.") },
  { "invalid_duration", NP_ ("%s duration that is not a number", "%s durations that are not numbers"),
    N_("Complete events whose \"dur\" is not a number: each lasts to the end of the trace, marked unfinished.") },
  { "negative_duration", NP_ ("%s negative duration", "%s negative durations"),
    N_("Slices that would end before they start; they last 0.") },
  { "overlapping_slice", NP_ ("%s slice overlapping its parent", "%s slices overlapping their parent"),
    N_("Slices that end after the slice they start in: they stay its children and are drawn past its end.") },
  { "max_depth_exceeded", NP_ ("%s slice nested too deep", "%s slices nested too deep"),
    N_("Slices nested deeper than Spanscope keeps levels for: they are drawn on the deepest level.") },
  { "async_without_id", NP_ ("%s async event without an id", "%s async events without an id"),
    N_("Async events that cannot be paired without \"id\"; they were skipped.") },
  { "object_without_id", NP_ ("%s object event without an id", "%s object events without an id"),
    N_("Object snapshots without \"id\"; they were skipped.") },
  { "flow_without_id", NP_ ("%s flow event without an id", "%s flow events without an id"),
    N_("Flow events that cannot be connected without \"id\"; no arrow is drawn.") },
  { "flow_without_direction", NP_ ("%s flow event without a direction", "%s flow events without a direction"),
    N_("Flow events that are neither a start, a step nor an end; no arrow is drawn.") },
  { "flow_without_start", NP_ ("%s flow without a start", "%s flows without a start"),
    N_("Flow steps or ends whose start is missing; no arrow is drawn.") },
  { "unbound_flow_point", NP_ ("%s flow point outside any slice", "%s flow points outside any slice"),
    N_("Flow events that no slice encloses; their arrows are not drawn.") },
  { "invalid_bind_id", NP_ ("%s unusable bind_id", "%s unusable bind_ids"),
    N_("Flows (v2) whose bind_id is neither text nor a number; no arrow is drawn.") },
  { "counter_without_values", NP_ ("%s counter event without values", "%s counter events without values"),
    N_("Counter events with no numeric argument; they add no value.") },
  { "counter_string_value", NP_ ("%s counter value that is text", "%s counter values that are text"),
    N_("Counter values written as text that is not a number; they were skipped.") },
  { "counter_invalid_value", NP_ ("%s unusable counter value", "%s unusable counter values"),
    N_("Counter values that are not numbers; they were skipped.") },
  { "unknown_instant_scope", NP_ ("%s instant of an unknown scope", "%s instants of unknown scopes"),
    N_("Instants whose scope is not g, p or t; they are shown on their thread.") },
  { "invalid_metadata", NP_ ("%s unusable metadata event", "%s unusable metadata events"),
    N_("Metadata (names, sort order) that could not be read; the defaults are shown.") },
  { "invalid_event", NP_ ("%s entry that is not an event", "%s entries that are not events"),
    N_("Elements of the event list that are not objects; they were skipped.") },
  { "invalid_trace_events", NP_ ("an unusable traceEvents member", "%s unusable traceEvents members"),
    N_("A traceEvents member that is not a list of events; it was ignored.") },
  { "unresolved_stack", NP_ ("%s stack reference that does not resolve", "%s stack references that do not resolve"),
    N_("Samples or events naming stack frames the file does not define; their stacks are empty.") },
  { "truncated", NP_ ("the end of the file is missing", "%s cut-off ends of the file"),
    N_("The file ends in the middle of an event: every complete event before it is shown.") },
  { "args_too_deep", NP_ ("%s argument set nested too deep", "%s argument sets nested too deep"),
    N_("Arguments nested deeper than 1,000 levels: they are kept as text, not as a tree.") },
  { "invalid_utf8", NP_ ("%s string with invalid UTF-8", "%s strings with invalid UTF-8"),
    N_("Text that is not valid UTF-8 (or holds a NUL): the bad bytes are shown as U+FFFD (�).") },
  { "decompressed_size_limit", NP_ ("the decompressed data is over the size limit", "%s decompressed data over the size limit"),
    N_("The compressed file unpacks to more than Spanscope reads (the smaller of 16 GiB and half the memory): "
       "the events before the limit are shown.") },
  { "file_changed_while_reading", NP_ ("the file changed while it was read", "%s changes of the file while it was read"),
    N_("Another program wrote to the file during loading: what was read is shown; reload once the file is complete.") },
  { "stream_size_limit", NP_ ("the stream is over the size limit", "%s streams over the size limit"),
    N_("The FIFO sent more than Spanscope reads (the smaller of 16 GiB and half the memory): "
       "the events before the limit are shown.") },
  { "row_limit", NP_ ("a table of the trace is full", "%s tables of the trace are full"),
    N_("The trace has more rows of one kind than Spanscope keeps (2,147,483,647): "
       "the events before that are shown, the ones after it are dropped.") },
  { "string_limit", NP_ ("%s name past the string limit", "%s names past the string limit"),
    N_("The trace has more distinct names, categories and keys than Spanscope keeps (1,073,741,823): "
       "the ones after that are shown empty.") },
  /* Stacks of slices and V8 CPU profiles in Chrome traces */
  { "unresolved_slice_stack", NP_ ("%s slice stack that does not resolve", "%s slice stacks that do not resolve"),
    N_("Slices whose sf or esf names stack frames the file does not define; they are shown without that stack.") },
  { "invalid_slice_stack", NP_ ("%s unusable inline slice stack", "%s unusable inline slice stacks"),
    N_("Slices whose \"stack\" is not a list of frame names; they are shown without it.") },
  { "invalid_sample", NP_ ("%s unusable entry of the samples list", "%s unusable entries of the samples list"),
    N_("Entries of the top-level samples list without an object, a tid or a usable ts; they were skipped.") },
  { "sample_thread_unknown", NP_ ("%s sample of a thread no event names", "%s samples of threads no event names"),
    N_("Samples of the top-level samples list whose tid no event uses: they are shown on a thread of their own.") },
  { "unknown_weight_unit", NP_ ("%s sample weight in a unit that is not a time", "%s sample weights in units that are not a time"),
    N_("Samples whose weightUnit is not ns, us, ms or s: the weight is kept without a unit and gives no CPU time estimate.") },
  { "cpu_profile_without_start", NP_ ("%s CPU profile without a start time", "%s CPU profiles without a start time"),
    N_("V8 CPU profiles without startTime (or chunks without their Profile event): their sample times count "
       "from the event's ts and may be shifted.") },
  { "cpu_profile_invalid_node", NP_ ("%s unusable CPU profile node", "%s unusable CPU profile nodes"),
    N_("Call tree nodes of a V8 CPU profile that are not objects or have no id; samples in them are unresolved.") },
  { "cpu_profile_duplicate_node", NP_ ("%s CPU profile node defined twice", "%s CPU profile nodes defined twice"),
    N_("Node ids a V8 CPU profile defines more than once: the first definition is used.") },
  { "cpu_profile_unresolved_node", NP_ ("%s CPU profile sample with an unknown node", "%s CPU profile samples with unknown nodes"),
    N_("Samples naming a node that is missing, or whose ancestors are missing or form a cycle: their stacks are "
       "unresolved.") },
  { "cpu_profile_invalid_samples", NP_ ("%s CPU profile without usable samples", "%s CPU profiles without usable samples"),
    N_("V8 CPU profiles whose samples or timeDeltas are missing or not lists: their samples are not shown.") },
  { "cpu_profile_invalid_sample", NP_ ("%s unusable CPU profile sample", "%s unusable CPU profile samples"),
    N_("A sample that is not a node id: it and the later samples of its chunk are not shown.") },
  { "cpu_profile_length_mismatch", NP_ ("%s CPU profile with samples and deltas of different lengths",
                                        "%s CPU profiles with samples and deltas of different lengths"),
    N_("V8 CPU profiles with more samples than time deltas, or the other way round: samples without a time are "
       "not shown.") },
  { "cpu_profile_time_overflow", NP_ ("%s CPU profile running past the time range", "%s CPU profiles running past the time range"),
    N_("Time deltas that add up beyond the times Spanscope can hold: the later samples are not shown.") },
  { "args_arena_full", NP_ ("%s argument set beyond the limit", "%s argument sets beyond the limit"),
    N_("Arguments that did not fit the trace's storage; those events are shown without them.") },
  /* .NET heap events (.nettrace and ETL) */
  { "memory-event-malformed", NP_ ("%s heap event not read", "%s heap events not read"),
    N_("Allocation or GC events whose payload does not fit their layout: they are kept as events, "
       "but make no allocation or GC observation.") },
  /* .nettrace */
  { "nettrace-events-lost", NP_ ("events lost by the runtime", "%s places where the runtime lost events"),
    N_("The runtime dropped events (its buffers were full): objects alive then may have died unseen, "
       "so their allocations count as uncertain from there on.") },
  { "nettrace-no-samples", NP_ ("no CPU samples in the capture", "%s captures without CPU samples"),
    N_("The capture holds no CPU samples: the flame graph and the sample rows are empty.") },
  { "nettrace-truncated", NP_ ("the end of the capture is missing", "%s cut-off ends of the capture"),
    N_("The capture ends in the middle of a block: everything before it is shown.") },
  { "nettrace-stack-id-out-of-range", NP_ ("%s stack id beyond the file", "%s stack ids beyond the file"),
    N_("Stack ids larger than the file could hold: those stacks are ignored, their samples have no stack.") },
  { "nettrace-time-out-of-range", NP_ ("%s time out of range", "%s times out of range"),
    N_("Samples or events more than 146 years from the start of the capture: they were dropped.") },
  { "nettrace-event-without-metadata", NP_ ("%s event of an undescribed type", "%s events of undescribed types"),
    N_("Events whose metadata id no metadata record of the capture described: they were dropped.") },
  { "nettrace-no-end-tag", NP_ ("no end marker in the capture", "%s captures without their end marker"),
    N_("The capture was not closed by its writer; everything it holds is shown.") },
  /* The stack repair of .nettrace samples (sps-stack-repair.h) */
  { "stack_repair.deleted", NP_ ("%s sample with a cut stack deleted", "%s samples with a cut stack deleted"),
    N_("Stacks cut at 100 frames whose missing root frames could not be found: these samples are not "
       "in the trace (the report gives their times per thread).") },
  { "stack_repair.kept_truncated",
    NP_ ("%s sample with a cut stack kept truncated", "%s samples with a cut stack kept truncated"),
    N_("Stacks cut at 100 frames whose missing root frames could not be found: these samples start "
       "below their real root in the flame graph.") },
  { "stack_repair.repaired", NP_ ("%s cut stack repaired", "%s cut stacks repaired"),
    N_("Stacks cut at 100 frames whose root frames were restored from the neighbouring samples of "
       "their thread.") },
  /* Embedded streams */
  { "lost_frames", NP_ ("%s lost frame", "%s lost frames"),
    N_("Frames the device could not send: the events in them are missing.") },
  { "unknown_name_events", NP_ ("%s event with an unknown name", "%s events with unknown names"),
    N_("Events naming a string the stream never defined; they are shown with their number.") },
  { "discarded_restarts", NP_ ("%s discarded restart", "%s discarded restarts"),
    N_("The device restarted its stream; what came before the restart was dropped.") },
  { "open_at_end", NP_ ("%s span open at the end", "%s spans open at the end"),
    N_("Spans that had not ended when the capture stopped: they last to its end.") },
  { "device_resets", NP_ ("%s device reset", "%s device resets"),
    N_("The device reset during the capture; times restart there.") },
  { "desync", NP_ ("%s loss of synchronisation", "%s losses of synchronisation"),
    N_("Bytes that were no frame were skipped until the next frame.") },
  { "invalid_frames", NP_ ("%s invalid frame", "%s invalid frames"),
    N_("Frames that did not decode; their events are missing.") },
  { "truncated_frame", NP_ ("%s cut-off frame", "%s cut-off frames"),
    N_("The capture ends inside a frame; its events are missing.") },
  /* The ETL reader (plugins/diagsession) */
  { "etl-truncated", NP_ ("the end of the ETL file is missing", "%s cut-off ends of ETL files"),
    N_("The file ends inside a buffer: the records before the cut are shown.") },
  { "etl-truncated-record", NP_ ("%s ETL buffer with a record cut off", "%s ETL buffers with a record cut off"),
    N_("A record ran past the end of its buffer: the rest of that buffer is missing.") },
  { "etl-unknown-record", NP_ ("%s ETL buffer with an unknown record", "%s ETL buffers with an unknown record"),
    N_("A record of a header type that is not known: the rest of that buffer is missing.") },
  { "etl-bad-extended-data", NP_ ("%s ETL event with damaged extended data", "%s ETL events with damaged extended data"),
    N_("Events whose extended data (stacks, activity ids) does not fit them: they were dropped.") },
  { "etl-bad-buffer", NP_ ("%s damaged ETL buffer", "%s damaged ETL buffers"),
    N_("Buffers whose sizes cannot be right: they, or the rest of the file, are missing.") },
  { "etl-compressed-buffer", NP_ ("%s compressed ETL buffer not expanded", "%s compressed ETL buffers not expanded"),
    N_("Compressed buffers that could not be expanded: their events are missing.") },
  { "etl-corrupt-buffer", NP_ ("%s corrupt compressed ETL buffer", "%s corrupt compressed ETL buffers"),
    N_("Compressed buffers whose data is damaged: their events are missing.") },
  { "etl-clock-mismatch", NP_ ("%s ETL file on another clock", "%s ETL files on another clock"),
    N_("Files of the session whose clock runs at another frequency: their times may be off.") },
  { "etl-event-fields-truncated", NP_ ("%s ETL event type whose fields run past its payload",
                                       "%s ETL event types whose fields run past their payload"),
    N_("Events whose manifest or TraceLogging fields do not fit their payload: the fields before "
       "the cut are shown, the rest as raw bytes.") },
  /* The .diagsession importer */
  { "diagsession-resource", NP_ ("%s package resource not read", "%s package resources not read"),
    N_("Resources the package lists that are missing or damaged: the others were read.") },
};

/* ngettext takes an unsigned long; what matters is the plural form of
 * the count, and the forms of every language repeat beyond a million. */
static gulong
plural_count (guint64 count)
{
  return count > G_MAXUINT32 ? (gulong) (count % 1000000 + 1000000) : (gulong) count;
}

static void
import_warning_free (gpointer data)
{
  SpsImportWarning *warning = data;

  g_free (warning->name);
  g_free (warning->summary);
  g_free (warning->title);
  g_free (warning->meaning);
  g_free (warning->example);
  g_free (warning);
}

static SpsImportWarning *
add_warning (GPtrArray  *warnings,
             const char *name,
             guint64     count,
             const char *example)
{
  SpsImportWarning *warning = g_new0 (SpsImportWarning, 1);
  g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  gulong n = plural_count (count);

  warning->name = g_strdup (name);
  warning->count = count;
  warning->example = g_strdup (example);

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      if (!g_str_equal (known[i].name, name))
        continue;

      /* The table's strings are literals with one %s each */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      warning->summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, known[i].singular, known[i].plural, n),
                                          number);
#pragma GCC diagnostic pop
      warning->meaning = g_strdup (_(known[i].meaning));
      break;
    }

  if (warning->summary == NULL)
    {
      /* Translators: a warning counter we have no words for (from a
       * plugin): its count, then its name */
      warning->summary = g_strdup_printf (C_("warning", "%s × %s"), number, name);
      warning->meaning = g_strdup (_("Counted by the importer; see its documentation."));
    }
  warning->title = _sps_panel_capitalized (warning->summary);

  g_ptr_array_add (warnings, warning);

  return warning;
}

static int
compare_by_count (gconstpointer a,
                  gconstpointer b)
{
  const SpsImportWarning *wa = *(SpsImportWarning * const *) a;
  const SpsImportWarning *wb = *(SpsImportWarning * const *) b;

  if (wa->count != wb->count)
    return wa->count > wb->count ? -1 : 1;
  return strcmp (wa->name, wb->name);
}

static void
add_stack_repair (GPtrArray *warnings,
                  SpsTrace  *trace)
{
  g_autofree char *report = NULL;
  guint64 repaired = 0;
  guint64 unrecoverable = 0;
  gboolean kept = FALSE;

  if (!sps_stack_repair_get_summary (trace, NULL, &repaired, &unrecoverable, &kept) ||
      unrecoverable == 0)
    return;

  if ((report = sps_stack_repair_format_report (trace)) != NULL)
    g_strchomp (report);
  add_warning (warnings, kept ? "stack_repair.kept_truncated" : "stack_repair.deleted", unrecoverable, report);

  /* Not a warning on its own, but part of the same story */
  if (repaired > 0)
    add_warning (warnings, "stack_repair.repaired", repaired, NULL);
}

/**
 * sps_import_warnings_collect:
 * @trace: a loaded trace
 *
 * The warning counters of @trace with a count (the same ones
 * `spanscope-cli info` prints), most frequent first, then what the stack
 * repair of a .nettrace could not recover (and what it repaired, only
 * when something was lost).
 *
 * Returns: (transfer full) (element-type SpsImportWarning): the warnings,
 *   empty for a clean trace
 */
GPtrArray *
sps_import_warnings_collect (SpsTrace *trace)
{
  GPtrArray *warnings = g_ptr_array_new_with_free_func (import_warning_free);
  guint n;

  g_return_val_if_fail (SPS_IS_TRACE (trace), warnings);

  n = sps_trace_get_n_warnings (trace);
  for (guint i = 0; i < n; i++)
    {
      const char *first_message = NULL;
      guint64 count = 0;
      const char *name = sps_trace_get_warning (trace, i, &count, &first_message);

      if (name != NULL && count > 0)
        add_warning (warnings, name, count, first_message);
    }

  g_ptr_array_sort (warnings, compare_by_count);
  add_stack_repair (warnings, trace);

  return warnings;
}

/**
 * sps_import_warnings_format_summary:
 * @warnings: (element-type SpsImportWarning): from sps_import_warnings_collect()
 * @max_items: how many to name
 *
 * Returns: (transfer full): the first @max_items summaries joined, with
 *   an ellipsis when there are more: "342 async begins without an end,
 *   16 events of unsupported phases…"
 */
char *
sps_import_warnings_format_summary (GPtrArray *warnings,
                                    guint      max_items)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (warnings != NULL, NULL);

  for (guint i = 0; i < warnings->len && i < max_items; i++)
    {
      const SpsImportWarning *warning = g_ptr_array_index (warnings, i);

      if (i > 0)
        /* Translators: between two warnings of the banner's list */
        g_string_append (text, C_("warning list", ", "));
      g_string_append (text, i == 0 ? warning->title : warning->summary);
    }

  if (warnings->len > max_items)
    g_string_append (text, "…");

  return g_string_free (g_steal_pointer (&text), FALSE);
}
