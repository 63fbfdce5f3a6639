/* sps-stack-repair-report.c: what a stack repair recorded, read back
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The repair stores its summary in the trace's metadata
 * (SPS_STACK_REPAIR_METADATA_KEY); these read it for `info`, the warning
 * bar and the report text.
 */

#define G_LOG_DOMAIN "sps-stack-repair"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-stack-repair.h"

static JsonObject *
lookup_summary (SpsTrace  *trace,
                JsonNode **node_out)
{
  guint n = sps_trace_get_n_metadata (trace);

  for (guint i = 0; i < n; i++)
    {
      SpsArgsRef ref;
      const char *key = sps_trace_get_metadata (trace, i, &ref);
      JsonNode *node;

      if (g_strcmp0 (key, SPS_STACK_REPAIR_METADATA_KEY) != 0)
        continue;

      node = sps_trace_parse_args (trace, ref, NULL);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_clear_pointer (&node, json_node_unref);
          return NULL;
        }
      *node_out = node;
      return json_node_get_object (node);
    }

  return NULL;
}

/**
 * sps_stack_repair_get_summary:
 * @trace: a #SpsTrace
 * @n_samples: (out) (optional): samples before the repair
 * @n_repaired: (out) (optional): samples whose root frames were restored
 * @n_unrecoverable: (out) (optional): samples that could not be repaired
 * @kept: (out) (optional): whether those were kept (flagged truncated)
 *   rather than deleted
 *
 * Returns: %TRUE if a stack repair ran while @trace was loaded
 */
gboolean
sps_stack_repair_get_summary (SpsTrace *trace,
                              guint64  *n_samples,
                              guint64  *n_repaired,
                              guint64  *n_unrecoverable,
                              gboolean *kept)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;

  g_return_val_if_fail (SPS_IS_TRACE (trace), FALSE);

  if (!(object = lookup_summary (trace, &node)))
    return FALSE;

  if (n_samples != NULL)
    *n_samples = json_object_get_int_member_with_default (object, "samples", 0);
  if (n_repaired != NULL)
    *n_repaired = json_object_get_int_member_with_default (object, "repaired", 0);
  if (n_unrecoverable != NULL)
    *n_unrecoverable = json_object_get_int_member_with_default (object, "unrecoverable", 0);
  if (kept != NULL)
    *kept = json_object_get_boolean_member_with_default (object, "kept_unrecoverable", FALSE);

  return TRUE;
}

static void
append_seconds (GString *text,
                SpsTime  ns)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Always with a dot, like the tool whose report this reproduces */
  g_string_append (text, g_ascii_formatd (buf, sizeof buf, "%.3f", (double) ns / 1e9));
  g_string_append_c (text, 's');
}

/**
 * sps_stack_repair_format_report:
 * @trace: a #SpsTrace
 *
 * The report of the unrecoverable samples, as `dotnet-trace convert`
 * with the repair prints it: `N samples out of M could not be recovered
 * and have been deleted (P%)`, then per thread in ascending id
 * `    Thread TID (COUNT): RANGES` where each run of consecutive
 * unrecoverable samples is `a.aaas-b.bbbs`, or one time when both ends
 * print the same. Times are seconds from the trace's origin.
 *
 * Returns: (transfer full) (nullable): the report, one line per `\n`, or
 *   %NULL when no sample was unrecoverable
 */
char *
sps_stack_repair_format_report (SpsTrace *trace)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GString) text = NULL;
  char percent[G_ASCII_DTOSTR_BUF_SIZE];
  JsonObject *object;
  JsonArray *threads;
  gint64 total;
  gint64 bad;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  if (!(object = lookup_summary (trace, &node)))
    return NULL;

  total = json_object_get_int_member_with_default (object, "samples", 0);
  bad = json_object_get_int_member_with_default (object, "unrecoverable", 0);
  if (bad <= 0)
    return NULL;

  g_ascii_formatd (percent, sizeof percent, "%.3f", 100.0 * (double) bad / (double) MAX (total, 1));
  text = g_string_new (NULL);
  if (json_object_get_boolean_member_with_default (object, "kept_unrecoverable", FALSE))
    g_string_append_printf (text,
                            g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: the first two are sample counts, the
                                          * last a percentage with its decimals, e.g. 0.003 */
                                         "%" PRId64 " sample out of %" PRId64
                                         " could not be recovered and has been kept truncated (%s%%)",
                                         "%" PRId64 " samples out of %" PRId64
                                         " could not be recovered and have been kept truncated (%s%%)",
                                         (gulong) bad),
                            (int64_t) bad, (int64_t) total, percent);
  else
    g_string_append_printf (text,
                            g_dngettext (GETTEXT_PACKAGE,
                                         /* Translators: the first two are sample counts, the
                                          * last a percentage with its decimals, e.g. 0.003 */
                                         "%" PRId64 " sample out of %" PRId64
                                         " could not be recovered and has been deleted (%s%%)",
                                         "%" PRId64 " samples out of %" PRId64
                                         " could not be recovered and have been deleted (%s%%)",
                                         (gulong) bad),
                            (int64_t) bad, (int64_t) total, percent);
  g_string_append_c (text, '\n');

  threads = json_object_get_array_member (object, "threads");
  for (guint i = 0; threads != NULL && i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);
      JsonArray *ranges = json_object_get_array_member (thread, "ranges");

      /* Translators: a thread id and how many of its samples were lost,
       * followed by their times */
      g_string_append_printf (text, _("    Thread %" PRId64 " (%" PRId64 "): "),
                              (int64_t) json_object_get_int_member (thread, "tid"),
                              (int64_t) json_object_get_int_member (thread, "count"));
      for (guint k = 0; ranges != NULL && k < json_array_get_length (ranges); k++)
        {
          JsonArray *range = json_array_get_array_element (ranges, k);
          SpsTime first = json_array_get_int_element (range, 0);
          SpsTime last = json_array_get_int_element (range, 1);
          GString *a = g_string_new (NULL);
          GString *b = g_string_new (NULL);

          if (k > 0)
            g_string_append (text, ", ");
          append_seconds (a, first);
          append_seconds (b, last);
          g_string_append (text, a->str);
          if (strcmp (a->str, b->str) != 0)
            {
              g_string_append_c (text, '-');
              g_string_append (text, b->str);
            }
          g_string_free (a, TRUE);
          g_string_free (b, TRUE);
        }
      g_string_append_c (text, '\n');
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}
