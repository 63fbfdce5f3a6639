/* marks-plugin.c: analysis plugins that the load pipeline runs, one per
 * build flag (see meson.build):
 *
 *   MARKS_GOOD    "marks": for every slice of 1 ms or longer, an async
 *                 slice "long NAME" (category "marks") over it on its
 *                 process, a counter "Long slices" on that process
 *                 counting them (1, 2, … at their starts), a warning
 *                 "long_slice" per slice and an info section
 *                 {"long":N}; it reports its fraction per slice
 *   MARKS_FAIL    "marks-fail": fails with an error of its own
 *   MARKS_SAMPLES "marks-samples": adds a stack sample, which analyses
 *                 may not
 *   MARKS_CANCEL  "marks-cancel": cancels the load's progress, as a user
 *                 would while it runs, and stops with G_IO_ERROR_CANCELLED
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-marks"

#include "config.h"

#include <math.h>

#include <libpeas/peas.h>
#include <spanscope-core.h>

#define MS G_GINT64_CONSTANT (1000000)

#if defined (MARKS_GOOD)

# define MARKS_NAME "marks"
# define MARKS_TYPE_NAME "SpsTestMarks"

static gboolean
marks_analyze (SpsAnalysis      *analysis,
               SpsTrace         *trace,
               SpsTraceBuilder  *results,
               SpsProgress      *progress,
               GError          **error)
{
  guint n = sps_trace_get_n_slices (trace);
  guint32 category = sps_trace_builder_intern (results, "marks", -1);
  guint32 counter_name = sps_trace_builder_intern (results, "Long slices", -1);
  g_autofree guint *per_process = g_new0 (guint, sps_trace_get_n_processes (trace) + 1);
  g_autofree char *info = NULL;
  guint n_long = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = NULL;
      const char *name;
      SpsTime ts, dur;
      guint track, thread, process;
      guint32 counter;

      sps_progress_set_fraction (progress, (double) i / n);

      sps_trace_get_slice (trace, i, &track, &ts, &dur, NULL, &name, NULL);
      if (dur < MS)
        continue;
      sps_trace_get_track (trace, track, NULL, &process, &thread, NULL);
      if (process == SPS_NO_INDEX)
        continue;

      label = g_strdup_printf ("long %s", name);
      sps_trace_builder_add_async (results, SPS_ASYNC_BEGIN, process, i, ts,
                                   sps_trace_builder_intern (results, label, -1), category,
                                   SPS_ARGS_REF_NONE);
      sps_trace_builder_add_async (results, SPS_ASYNC_END, process, i, ts + dur,
                                   sps_trace_builder_intern (results, label, -1), category,
                                   SPS_ARGS_REF_NONE);

      counter = sps_trace_builder_ensure_counter_track (results, process, counter_name, 0);
      sps_trace_builder_add_counter_value (results, counter, ts, ++per_process[process]);

      sps_trace_builder_add_warning (results, "long_slice", "A slice of 1 ms or more");
      n_long++;
    }

  info = g_strdup_printf ("{\"long\":%u}", n_long);
  sps_trace_builder_set_info_section (results, "marks", info);

  return TRUE;
}

#elif defined (MARKS_FAIL)

# define MARKS_NAME "marks-fail"
# define MARKS_TYPE_NAME "SpsTestMarksFail"

static gboolean
marks_analyze (SpsAnalysis      *analysis,
               SpsTrace         *trace,
               SpsTraceBuilder  *results,
               SpsProgress      *progress,
               GError          **error)
{
  /* Rows added before the error must not reach the trace */
  sps_trace_builder_add_warning (results, "marks_fail", "never seen");
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "marks-fail gives up on purpose");
  return FALSE;
}

#elif defined (MARKS_SAMPLES)

# define MARKS_NAME "marks-samples"
# define MARKS_TYPE_NAME "SpsTestMarksSamples"

static gboolean
marks_analyze (SpsAnalysis      *analysis,
               SpsTrace         *trace,
               SpsTraceBuilder  *results,
               SpsProgress      *progress,
               GError          **error)
{
  guint32 thread = sps_trace_builder_ensure_thread (results, sps_trace_builder_ensure_process (results, 1), 1);

  sps_trace_builder_add_sample (results, thread, 0, sps_trace_builder_intern (results, "sample", -1),
                                SPS_NO_INDEX, 0, NAN, SPS_WEIGHT_UNIT_NONE, 0);
  return TRUE;
}

#elif defined (MARKS_CANCEL)

# define MARKS_NAME "marks-cancel"
# define MARKS_TYPE_NAME "SpsTestMarksCancel"

static gboolean
marks_analyze (SpsAnalysis      *analysis,
               SpsTrace         *trace,
               SpsTraceBuilder  *results,
               SpsProgress      *progress,
               GError          **error)
{
  sps_progress_cancel (progress);
  if (sps_progress_is_cancelled (progress))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return FALSE;
    }
  return TRUE;
}

#endif

static const char *
marks_get_name (SpsAnalysis *analysis)
{
  return MARKS_NAME;
}

static void
marks_iface_init (SpsAnalysisInterface *iface)
{
  iface->get_name = marks_get_name;
  iface->analyze = marks_analyze;
}

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  /* Registered by hand so that each build has its own type name. */
  const GTypeInfo info = { sizeof (GObjectClass), NULL, NULL, NULL, NULL, NULL, sizeof (GObject), 0, NULL, NULL };
  const GInterfaceInfo iface_info = { (GInterfaceInitFunc) marks_iface_init, NULL, NULL };
  GType type;

  type = g_type_module_register_type (G_TYPE_MODULE (module), G_TYPE_OBJECT, MARKS_TYPE_NAME, &info, 0);
  g_type_module_add_interface (G_TYPE_MODULE (module), type, SPS_TYPE_ANALYSIS, &iface_info);
  peas_object_module_register_extension_type (module, SPS_TYPE_ANALYSIS, type);
}
