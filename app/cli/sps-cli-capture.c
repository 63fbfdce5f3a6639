/* sps-cli-capture.c: `spanscope-cli capture`, record a device's stream
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reads a serial device (SpsSerialSource) until the duration is over, the
 * device goes away or the user interrupts, and writes the raw bytes, as
 * received, to the output file: opening that file later gives the same
 * trace the live view showed. A summary of what the bytes decode to
 * (frames, warnings such as a garbled stream) goes to stderr.
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "sps-cli.h"
#include "sps-device-monitor.h"

typedef struct
{
  GMainLoop     *loop;
  GByteArray    *bytes;
  SpsLiveSource *source;
  GError        *error;
  gboolean       interrupted;
  guint          timeout_id;    /* 0 once --duration's timeout fired */
} Capture;

static void
on_data (SpsLiveSource *source,
         GBytes        *bytes,
         gpointer       user_data)
{
  Capture *capture = user_data;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_byte_array_append (capture->bytes, data, len);
}

static void
on_ended (SpsLiveSource *source,
          const GError  *error,
          gpointer       user_data)
{
  Capture *capture = user_data;

  if (error != NULL && capture->error == NULL)
    capture->error = g_error_copy (error);
  g_main_loop_quit (capture->loop);
}

static gboolean
on_timeout (gpointer user_data)
{
  Capture *capture = user_data;

  /* Removed by returning: it must not be removed again at the end */
  capture->timeout_id = 0;
  sps_live_source_stop (capture->source);
  return G_SOURCE_REMOVE;
}

static gboolean
on_signal (gpointer user_data)
{
  Capture *capture = user_data;

  capture->interrupted = TRUE;
  sps_live_source_stop (capture->source);
  return G_SOURCE_CONTINUE;
}

/* --duration, read by the one parser of times ("10s", "500ms", "2min",
 * "1h"), except that a bare number is in seconds here: a capture lasts
 * seconds, not milliseconds. The length in ms, rounded up; 0 on a bad or
 * non-positive value. */
static gint64
parse_duration_ms (const char *text)
{
  g_autofree char *with_unit = NULL;
  gsize len = strlen (text);
  SpsTime ns;

  while (len > 0 && g_ascii_isspace (text[len - 1]))
    len--;
  if (len > 0 && (g_ascii_isdigit (text[len - 1]) || text[len - 1] == '.'))
    text = with_unit = g_strconcat (text, "s", NULL);

  if (!sps_time_parse (text, &ns, NULL) || ns <= 0)
    return 0;

  return ns / 1000000 + (ns % 1000000 != 0);
}

/* What the capture decodes to, for the user; nothing if no importer
 * recognises it (e.g. an empty capture). */
static void
print_summary (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTrace) trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, NULL, NULL);
  guint n;

  if (trace == NULL)
    return;

  fprintf (stderr,
           /* Translators: %s is a format name such as "etrace", then a count */
           _("Format %s; frames read: %" PRIu64 "\n"),
           sps_trace_get_format (trace), sps_trace_get_events_read (trace));

  n = sps_trace_get_n_warnings (trace);
  for (guint i = 0; i < n; i++)
    {
      const char *message = NULL;
      guint64 count = 0;
      const char *name = sps_trace_get_warning (trace, i, &count, &message);

      if (count > 0)
        fprintf (stderr, "  %s: %" G_GUINT64_FORMAT "  %s\n", name, count, message != NULL ? message : "");
    }
}

/* One line per USB serial device: path, then vendor and model */
static int
list_devices (void)
{
  g_autoptr(SpsDeviceMonitor) monitor = NULL;
  guint n;

  if (!sps_device_monitor_is_available ())
    {
      fprintf (stderr, "%s\n",
               _("Device discovery is not available: this build of spanscope-cli has no libgudev. "
                 "Give the device path instead, e.g. /dev/ttyACM0."));
      return SPS_CLI_EXIT_USAGE;
    }

  monitor = sps_device_monitor_new ();
  n = g_list_model_get_n_items (G_LIST_MODEL (monitor));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SpsSerialDevice) device = g_list_model_get_item (G_LIST_MODEL (monitor), i);
      const char *vendor = sps_serial_device_get_vendor (device);
      const char *model = sps_serial_device_get_model (device);

      printf ("%s\t%s\t%s\n", sps_serial_device_get_path (device),
              vendor != NULL ? vendor : "", model != NULL ? model : "");
    }

  if (n == 0)
    fprintf (stderr, "%s\n", _("No USB serial devices found"));

  return SPS_CLI_EXIT_OK;
}

int
sps_cli_capture (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsSerialSource) source = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GBytes) received = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = g_strdupv (argv);
  g_autofree char *output = NULL;
  g_autofree char *duration = NULL;
  int baud = 115200;
  gboolean list = FALSE;
  gint64 duration_ms = 0;
  guint sigint, sigterm;
  Capture capture = { 0 };
  const GOptionEntry entries[] = {
    { "baud", 0, 0, G_OPTION_ARG_INT, &baud,
      N_("Line speed in bit/s (default 115200; USB devices usually ignore it)"), N_("N") },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &duration,
      N_("Stop after this time, e.g. 10s, 500ms, 2min (default: until the device goes away or Ctrl+C)"),
      N_("TIME") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Where to write the captured stream (.etrace)"), N_("OUT") },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list,
      N_("List the USB serial devices (path, vendor, model) and exit"), NULL },
    { NULL }
  };

  g_set_prgname ("spanscope-cli capture");
  context = g_option_context_new (N_("DEVICE"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, N_("Record the trace stream of a serial device (e.g. /dev/ttyACM0)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      sps_cli_print_usage_error (context, "%s", error->message);
      return SPS_CLI_EXIT_USAGE;
    }
  if (list)
    return list_devices ();
  if (g_strv_length (args) != 2)
    {
      sps_cli_print_usage_error (context, "%s", args[1] == NULL ? _("missing DEVICE") : _("expected one DEVICE"));
      return SPS_CLI_EXIT_USAGE;
    }
  if (output == NULL)
    {
      sps_cli_print_usage_error (context, "%s", _("missing -o OUT"));
      return SPS_CLI_EXIT_USAGE;
    }
  if (baud <= 0 || !sps_serial_source_baud_is_valid ((guint) baud))
    {
      /* Translators: %d is a baud rate */
      sps_cli_print_usage_error (context, _("unsupported baud rate %d"), baud);
      return SPS_CLI_EXIT_USAGE;
    }
  if (duration != NULL && (duration_ms = parse_duration_ms (duration)) <= 0)
    {
      /* Translators: %s is what the user gave for --duration */
      sps_cli_print_usage_error (context, _("invalid duration “%s”"), duration);
      return SPS_CLI_EXIT_USAGE;
    }

  source = sps_serial_source_new (args[1], (guint) baud);
  loop = g_main_loop_new (NULL, FALSE);
  capture.loop = loop;
  capture.bytes = bytes;
  capture.source = SPS_LIVE_SOURCE (source);

  g_signal_connect (source, "data", G_CALLBACK (on_data), &capture);
  g_signal_connect (source, "ended", G_CALLBACK (on_ended), &capture);

  if (!sps_live_source_start (SPS_LIVE_SOURCE (source), &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  if (duration_ms > 0)
    capture.timeout_id = g_timeout_add ((guint) MIN (duration_ms, G_MAXUINT), on_timeout, &capture);
  sigint = g_unix_signal_add (SIGINT, on_signal, &capture);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, &capture);

  g_main_loop_run (loop);

  g_clear_handle_id (&capture.timeout_id, g_source_remove);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  g_signal_handlers_disconnect_by_data (source, &capture);

  /* Everything received is written, also after a read error. */
  received = g_bytes_new_static (bytes->data, bytes->len);
  if (!sps_cli_write_bytes (output, received, &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      g_clear_error (&capture.error);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  fprintf (stderr,
           g_dngettext (GETTEXT_PACKAGE,
                        /* Translators: %u is a number of bytes, %s a file name */
                        "Captured %u byte to %s\n",
                        "Captured %u bytes to %s\n", bytes->len),
           bytes->len, output);
  if (bytes->len > 0)
    print_summary (output);

  if (capture.error != NULL)
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), capture.error->message);
      g_clear_error (&capture.error);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  return SPS_CLI_EXIT_OK;
}
