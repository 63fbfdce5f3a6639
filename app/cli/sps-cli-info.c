/* sps-cli-info.c: `spanscope-cli info`, what a trace holds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

typedef struct
{
  const char *format;
  gint64      events_read;
  gint64      processes;
  gint64      threads;
  gint64      slices;
  gint64      sampled_slices;
  gint64      async_slices;
  gint64      instants;
  gint64      events;
  gint64      counter_tracks;
  gint64      counter_values;
  gint64      flows;
  gint64      samples;
  gint64      objects;
  gint64      allocations;
  gint64      gc_observations;
  gint64      metadata;
  gint64      start_ns;
  gint64      end_ns;
} Counts;

typedef struct
{
  const char *name;
  guint64     count;
  const char *first_message;
} Warning;

/* The counts in the order both outputs show them; the order of the JSON
 * keys is part of the output's contract. The JSON keys stay as they are,
 * the labels of the table are translated where they are printed. */
static const struct
{
  const char *key;
  const char *label;
  gsize       offset;
} count_fields[] = {
  { "events_read", N_("Events read"), G_STRUCT_OFFSET (Counts, events_read) },
  { "processes", N_("Processes"), G_STRUCT_OFFSET (Counts, processes) },
  { "threads", N_("Threads"), G_STRUCT_OFFSET (Counts, threads) },
  { "slices", N_("Slices"), G_STRUCT_OFFSET (Counts, slices) },
  { "sampled_slices", N_("Sampled slices"), G_STRUCT_OFFSET (Counts, sampled_slices) },
  { "async_slices", N_("Async slices"), G_STRUCT_OFFSET (Counts, async_slices) },
  { "instants", N_("Instants"), G_STRUCT_OFFSET (Counts, instants) },
  { "events", N_("Decoded events"), G_STRUCT_OFFSET (Counts, events) },
  { "counter_tracks", N_("Counter tracks"), G_STRUCT_OFFSET (Counts, counter_tracks) },
  { "counter_values", N_("Counter values"), G_STRUCT_OFFSET (Counts, counter_values) },
  { "flows", N_("Flows"), G_STRUCT_OFFSET (Counts, flows) },
  { "samples", N_("Samples"), G_STRUCT_OFFSET (Counts, samples) },
  { "objects", N_("Objects"), G_STRUCT_OFFSET (Counts, objects) },
  { "allocations", N_("Allocations"), G_STRUCT_OFFSET (Counts, allocations) },
  { "gc_observations", N_("GC observations"), G_STRUCT_OFFSET (Counts, gc_observations) },
  { "metadata", N_("Metadata events"), G_STRUCT_OFFSET (Counts, metadata) },
  { "start_ns", N_("Start (ns)"), G_STRUCT_OFFSET (Counts, start_ns) },
  { "end_ns", N_("End (ns)"), G_STRUCT_OFFSET (Counts, end_ns) },
};

#define COUNT_VALUE(counts, i) G_STRUCT_MEMBER (gint64, (counts), count_fields[i].offset)

static void
collect_counts (SpsTrace *trace,
                Counts   *counts)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  memset (counts, 0, sizeof *counts);

  counts->format = sps_trace_get_format (trace);
  counts->events_read = (gint64) sps_trace_get_events_read (trace);
  counts->processes = sps_trace_get_processes (trace)->n_rows;
  counts->threads = sps_trace_get_threads (trace)->n_rows;
  counts->slices = sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES);
  counts->sampled_slices = sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES);
  counts->async_slices = sps_trace_count_slices (trace, SPS_TRACK_ASYNC);
  counts->instants = instants->n_rows;
  for (guint i = 0; i < instants->n_rows; i++)
    if (instants->kind[i] == SPS_INSTANT_KIND_EVENT)
      counts->events++;
  counts->counter_values = sps_trace_get_counters (trace)->n_rows;
  counts->flows = sps_trace_get_flows (trace)->n_rows;
  counts->samples = sps_trace_get_samples (trace)->n_rows;
  counts->objects = sps_trace_get_objects (trace)->n_rows;
  counts->allocations = sps_trace_get_allocations (trace)->n_rows;
  counts->gc_observations = sps_trace_get_gc_observations (trace)->n_rows;
  counts->metadata = (gint64) sps_trace_get_metadata_events (trace);
  counts->start_ns = sps_trace_get_start_time (trace);
  counts->end_ns = sps_trace_get_end_time (trace);

  for (guint i = 0; i < tracks->n_rows; i++)
    {
      if (tracks->kind[i] == SPS_TRACK_COUNTER)
        counts->counter_tracks++;
    }
}

static int
compare_warnings (gconstpointer a,
                  gconstpointer b)
{
  const Warning *wa = a;
  const Warning *wb = b;

  return strcmp (wa->name, wb->name);
}

/* Warnings with a non-zero count, sorted by name. */
static GArray *
collect_warnings (SpsTrace *trace)
{
  GArray *warnings = g_array_new (FALSE, FALSE, sizeof (Warning));
  guint n = sps_trace_get_n_warnings (trace);

  for (guint i = 0; i < n; i++)
    {
      Warning w = { 0 };

      w.name = sps_trace_get_warning (trace, i, &w.count, &w.first_message);
      if (w.name != NULL && w.count > 0)
        g_array_append_val (warnings, w);
    }

  g_array_sort (warnings, compare_warnings);

  return warnings;
}

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* The importer's own summaries (e.g. "embedded"), each a member after
 * "warnings"; a section whose text does not parse is left out. */
static void
add_info_sections (JsonBuilder *builder,
                   SpsTrace    *trace)
{
  guint n = sps_trace_get_n_info_sections (trace);

  for (guint i = 0; i < n; i++)
    {
      SpsArgsRef ref = SPS_ARGS_REF_NONE;
      const char *name = sps_trace_get_info_section (trace, i, &ref);
      g_autoptr(JsonNode) node = sps_trace_parse_args (trace, ref, NULL);

      if (name == NULL || node == NULL)
        continue;

      json_builder_set_member_name (builder, name);
      json_builder_add_value (builder, g_steal_pointer (&node));
    }
}

/* What the stack repair of a .nettrace recorded (sps-stack-repair.h),
 * or NULL when none ran */
static JsonObject *
lookup_stack_repair (SpsTrace  *trace,
                     JsonNode **node)
{
  guint n = sps_trace_get_n_metadata (trace);

  for (guint i = 0; i < n; i++)
    {
      SpsArgsRef ref = SPS_ARGS_REF_NONE;
      const char *key = sps_trace_get_metadata (trace, i, &ref);

      if (g_strcmp0 (key, SPS_STACK_REPAIR_METADATA_KEY) != 0)
        continue;

      *node = sps_trace_parse_args (trace, ref, NULL);
      if (*node == NULL || !JSON_NODE_HOLDS_OBJECT (*node))
        return NULL;
      return json_node_get_object (*node);
    }

  return NULL;
}

/* "stack_repair": the samples before the repair, how many were repaired,
 * deleted or kept truncated, and per thread the times of those lost:
 * `{"tid", "count", "ranges": [[first_ns, last_ns], …]}` */
static void
add_stack_repair (JsonBuilder *builder,
                  SpsTrace    *trace)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *repair = lookup_stack_repair (trace, &node);
  JsonNode *threads;
  gint64 unrecoverable;
  gboolean kept;

  if (repair == NULL)
    return;

  unrecoverable = json_object_get_int_member_with_default (repair, "unrecoverable", 0);
  kept = json_object_get_boolean_member_with_default (repair, "kept_unrecoverable", FALSE);

  json_builder_set_member_name (builder, "stack_repair");
  json_builder_begin_object (builder);
  add_int_member (builder, "samples", json_object_get_int_member_with_default (repair, "samples", 0));
  add_int_member (builder, "repaired", json_object_get_int_member_with_default (repair, "repaired", 0));
  add_int_member (builder, "deleted", kept ? 0 : unrecoverable);
  add_int_member (builder, "kept_truncated", kept ? unrecoverable : 0);
  json_builder_set_member_name (builder, "threads");
  if ((threads = json_object_get_member (repair, "threads")) != NULL && JSON_NODE_HOLDS_ARRAY (threads))
    json_builder_add_value (builder, json_node_copy (threads));
  else
    {
      json_builder_begin_array (builder);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

static void
print_json (SpsTrace      *trace,
            const char    *filter_path,
            SpsViewFilter *filter)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) warnings = collect_warnings (trace);
  g_autofree char *text = NULL;
  Counts counts;

  collect_counts (trace, &counts);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, counts.format != NULL ? counts.format : "");
  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    add_int_member (builder, count_fields[i].key, COUNT_VALUE (&counts, i));
  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_object (builder);
  for (guint i = 0; i < warnings->len; i++)
    {
      const Warning *w = &g_array_index (warnings, Warning, i);

      add_int_member (builder, w->name, (gint64) w->count);
    }
  json_builder_end_object (builder);
  add_stack_repair (builder, trace);
  add_info_sections (builder, trace);
  if (filter != NULL)
    {
      json_builder_set_member_name (builder, "filter");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, filter_path);
      add_int_member (builder, "visible_slices", sps_view_filter_get_visible_count (filter));
      add_int_member (builder, "lanes", sps_view_filter_get_total_height (filter));
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);

  printf ("%s\n", text);
}

/* The width of @text in columns: translated labels hold non-ASCII
 * letters, and printf pads by bytes. */
static int
text_width (const char *text)
{
  return (int) g_utf8_strlen (text, -1);
}

/* One row of the table: @label padded to @width columns, then @value. */
static void
print_row (int         width,
           const char *label,
           const char *value)
{
  printf ("%s%*s%s\n", label, MAX (0, width - text_width (label)), "", value);
}

/* A member's value as the table shows it: strings without quotes */
static char *
value_text (JsonNode *value)
{
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (value));

  return json_to_string (value, FALSE);
}

/* The importer's own summaries, one "name" heading each, then one
 * "  key  value" line per member in their order (members of a nested
 * object indented once more). */
static void
print_info_sections (SpsTrace *trace)
{
  guint n = sps_trace_get_n_info_sections (trace);

  for (guint i = 0; i < n; i++)
    {
      SpsArgsRef ref = SPS_ARGS_REF_NONE;
      const char *name = sps_trace_get_info_section (trace, i, &ref);
      g_autoptr(JsonNode) node = sps_trace_parse_args (trace, ref, NULL);
      g_autoptr(GList) members = NULL;
      JsonObject *object;

      if (name == NULL || node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;

      object = json_node_get_object (node);
      members = json_object_get_members (object);
      printf ("%s\n", name);

      for (const GList *l = members; l != NULL; l = l->next)
        {
          JsonNode *value = json_object_get_member (object, l->data);

          if (JSON_NODE_HOLDS_OBJECT (value))
            {
              JsonObject *inner = json_node_get_object (value);
              g_autoptr(GList) inner_members = json_object_get_members (inner);

              printf ("  %s\n", (const char *) l->data);
              for (const GList *k = inner_members; k != NULL; k = k->next)
                {
                  g_autofree char *text = value_text (json_object_get_member (inner, k->data));

                  printf ("    %-30s %s\n", (const char *) k->data, text);
                }
            }
          else
            {
              g_autofree char *text = value_text (value);

              printf ("  %-32s %s\n", (const char *) l->data, text);
            }
        }
    }
}

/* The stack repair's counts, then its report of the lost samples per
 * thread (as `convert` prints it) */
static void
print_stack_repair (SpsTrace *trace,
                    int       label_width,
                    int       number_width)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *repair = lookup_stack_repair (trace, &node);
  g_autofree char *report = NULL;
  gint64 unrecoverable;
  gboolean kept;
  static const char * const labels[] = {
    N_("Samples before"), N_("Repaired"), N_("Deleted"), N_("Kept truncated"),
  };
  gint64 values[G_N_ELEMENTS (labels)];

  if (repair == NULL)
    return;

  unrecoverable = json_object_get_int_member_with_default (repair, "unrecoverable", 0);
  kept = json_object_get_boolean_member_with_default (repair, "kept_unrecoverable", FALSE);
  values[0] = json_object_get_int_member_with_default (repair, "samples", 0);
  values[1] = json_object_get_int_member_with_default (repair, "repaired", 0);
  values[2] = kept ? 0 : unrecoverable;
  values[3] = kept ? unrecoverable : 0;

  /* Translators: the heading of what the repair of cut .nettrace stacks did */
  printf ("%s\n", _("Stack repair"));
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      const char *label = _(labels[i]);

      printf ("  %s%*s%*" G_GINT64_FORMAT "\n", label, MAX (0, label_width - 2 - text_width (label)), "",
              number_width, values[i]);
    }

  if ((report = sps_stack_repair_format_report (trace)) != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (report, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        if (lines[i][0] != '\0')
          printf ("  %s\n", lines[i]);
    }
}

static void
print_table (const char    *path,
             SpsTrace      *trace,
             const char    *filter_path,
             SpsViewFilter *filter)
{
  g_autoptr(GArray) warnings = collect_warnings (trace);
  const GError *load_error = sps_trace_get_load_error (trace);
  g_autofree char *duration = NULL;
  const char *labels[] = {
    _("File"), _("Format"), _("Duration"), _("Warnings"), _("Load error"),
  };
  Counts counts;
  int label_width = 0;
  int number_width = 0;

  collect_counts (trace, &counts);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    label_width = MAX (label_width, text_width (labels[i]));
  if (filter != NULL)
    label_width = MAX (label_width, text_width (_("Visible slices")));

  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    {
      g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, COUNT_VALUE (&counts, i));

      label_width = MAX (label_width, text_width (_(count_fields[i].label)));
      number_width = MAX (number_width, (int) strlen (digits));
    }

  for (guint i = 0; i < warnings->len; i++)
    {
      const Warning *w = &g_array_index (warnings, Warning, i);

      label_width = MAX (label_width, (int) strlen (w->name) + 2);
    }

  label_width += 2;

  print_row (label_width, _("File"), path);
  print_row (label_width, _("Format"), counts.format != NULL ? counts.format : "");

  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    {
      g_autofree char *number = g_strdup_printf ("%*" G_GINT64_FORMAT,
                                                 number_width, COUNT_VALUE (&counts, i));

      print_row (label_width, _(count_fields[i].label), number);
    }

  if (filter != NULL)
    {
      g_autofree char *visible = NULL;

      /* Translators: the visible slices under --filter: "1234 of 5678 (view.json)" */
      visible = g_strdup_printf (_("%*u of %u (%s)"), number_width,
                                 sps_view_filter_get_visible_count (filter),
                                 sps_trace_get_slices (trace)->n_rows, filter_path);
      print_row (label_width, _("Visible slices"), visible);
    }

  /* The span of extreme times does not fit a gint64: formatted exactly. */
  duration = sps_time_format_span (counts.start_ns, counts.end_ns);
  print_row (label_width, _("Duration"), duration);

  if (warnings->len == 0)
    {
      /* Translators: the value of “Warnings” in the table when there are none */
      const char *none = C_("warnings", "none");

      print_row (label_width, _("Warnings"), none);
    }
  else
    {
      printf ("%s\n", _("Warnings"));
      for (guint i = 0; i < warnings->len; i++)
        {
          const Warning *w = &g_array_index (warnings, Warning, i);

          printf ("  %-*s%*" G_GUINT64_FORMAT "  %s\n",
                  label_width - 2, w->name, number_width, w->count,
                  w->first_message != NULL ? w->first_message : "");
        }
    }

  print_stack_repair (trace, label_width, number_width);
  print_info_sections (trace);

  /* Only with --keep-partial: what is shown above was read before this. */
  if (load_error != NULL)
    print_row (label_width, _("Load error"), load_error->message);
}

int
sps_cli_info (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  gboolean json = FALSE;
  SpsCliTimeUnit time_unit = { { FALSE } };
  const char *unit;
  gboolean keep_partial = FALSE;
  gboolean keep_unrecoverable = FALSE;
  g_autofree char *filter_path = NULL;
  g_autoptr(SpsViewFilter) filter = NULL;
  GVariant *extra = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the counts as a JSON object"), NULL },
    { "keep-unrecoverable", 0, 0, G_OPTION_ARG_NONE, &keep_unrecoverable,
      N_("Keep samples whose stack was cut at 100 frames and cannot be repaired, instead of deleting them"),
      NULL },
    { "keep-partial", 0, 0, G_OPTION_ARG_NONE, &keep_partial,
      N_("On an error, still print what was read before it (the exit status stays 1)"), NULL },
    { "filter", 0, 0, G_OPTION_ARG_FILENAME, &filter_path,
      N_("Apply a saved view filter (JSON) and count the slices it shows"), N_("FILE.json") },
    { NULL }
  };

  context = sps_cli_new_file_command ("info", N_("Print what a trace holds."), entries);

  sps_cli_add_time_unit_options (context, &time_unit);

  if (!(args = sps_cli_parse_file_command (context, argv)) ||
      !sps_cli_get_time_unit (context, &time_unit, &unit))
    return SPS_CLI_EXIT_USAGE;

  if (keep_unrecoverable)
    {
      GVariantDict dict;

      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "keep-unrecoverable", "b", TRUE);
      extra = g_variant_dict_end (&dict);
    }

  trace = sps_cli_load_trace_full (args[1], unit, extra,
                      keep_partial ? SPS_LOAD_FLAGS_KEEP_PARTIAL : SPS_LOAD_FLAGS_NONE,
                      &error);
  if (trace == NULL)
    return sps_cli_report_load_error (error);

  if (filter_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (filter_path);
      g_autoptr(GError) filter_error = NULL;

      filter = sps_view_filter_new (trace);
      /* The file's name leads the message */
      if (!sps_view_filter_load_file (filter, file, &filter_error))
        {
          fprintf (stderr, "%s: %s\n", g_get_prgname (), filter_error->message);
          return SPS_CLI_EXIT_BAD_INPUT;
        }
    }

  if (json)
    print_json (trace, filter_path, filter);
  else
    print_table (args[1], trace, filter_path, filter);

  if (sps_trace_get_load_error (trace) != NULL)
    return sps_cli_report_load_error (sps_trace_get_load_error (trace));

  return SPS_CLI_EXIT_OK;
}
