/* test-device-monitor.c: USB serial device discovery and hotplug with a
 * fake udev (run under umockdev-wrapper, PLATFORM.md §8)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-device-monitor"

#include "config.h"

#include <math.h>
#include <unistd.h>

#include <spanscope-core.h>
#include <umockdev.h>

#include "etrace-stream.h"
#include "sps-device-monitor.h"
#include "sps-live-capture.h"

#define ACM_PATH "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/tty/ttyACM0"

static const char acm_device[] =
  "P: " ACM_PATH "\n"
  "N: ttyACM0\n"
  "E: SUBSYSTEM=tty\n"
  "E: DEVNAME=/dev/ttyACM0\n"
  "E: ID_BUS=usb\n"
  "E: ID_VENDOR=Black_Magic_Debug\n"
  "E: ID_MODEL=Black_Magic_Probe\n"
  "E: ID_VENDOR_ID=1d50\n"
  "E: ID_MODEL_ID=6018\n"
  "A: dev=166:0\n";

/* A built-in UART: a tty, but not on USB */
static const char uart_device[] =
  "P: /devices/platform/serial8250/tty/ttyS0\n"
  "N: ttyS0\n"
  "E: SUBSYSTEM=tty\n"
  "E: DEVNAME=/dev/ttyS0\n"
  "A: dev=4:64\n";

typedef struct
{
  guint       changes;
  GByteArray *received;
} State;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  State *state = user_data;

  state->changes++;
}

static void
on_data (SpsLiveSource *source,
         GBytes        *bytes,
         gpointer       user_data)
{
  State *state = user_data;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_byte_array_append (state->received, data, len);
}

static void
wait_for (guint *counter,
          guint  value)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (*counter < value && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

static void
test_hotplug (void)
{
  g_autoptr(UMockdevTestbed) testbed = NULL;
  g_autoptr(SpsDeviceMonitor) monitor = NULL;
  g_autoptr(SpsSerialDevice) device = NULL;
  g_autoptr(SpsSerialSource) source = NULL;
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GByteArray) received = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL;
  State state = { 0, received };
  gint64 deadline;
  int fd;

  /* The testbed first: umockdev_in_mock_environment() caches its answer */
  testbed = umockdev_testbed_new ();
  if (!umockdev_in_mock_environment ())
    {
      g_test_skip ("not running under umockdev-wrapper");
      return;
    }

  umockdev_testbed_add_from_string (testbed, uart_device, &error);
  g_assert_no_error (error);

  monitor = sps_device_monitor_new ();
  g_signal_connect (monitor, "items-changed", G_CALLBACK (on_items_changed), &state);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (monitor)), ==, 0);

  /* Plugged in */
  umockdev_testbed_add_from_string (testbed, acm_device, &error);
  g_assert_no_error (error);
  wait_for (&state.changes, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (monitor)), ==, 1);

  device = g_list_model_get_item (G_LIST_MODEL (monitor), 0);
  g_assert_cmpstr (sps_serial_device_get_path (device), ==, "/dev/ttyACM0");
  g_assert_cmpstr (sps_serial_device_get_vendor (device), ==, "Black Magic Debug");
  g_assert_cmpstr (sps_serial_device_get_model (device), ==, "Black Magic Probe");
  label = sps_serial_device_dup_label (device);
  g_assert_cmpstr (label, ==, "Black Magic Debug Black Magic Probe (/dev/ttyACM0)");

  /* Reading it: 50 frames written on the device side arrive */
  source = sps_serial_source_new (sps_serial_device_get_path (device), 115200);
  g_signal_connect (source, "data", G_CALLBACK (on_data), &state);
  g_assert_true (sps_live_source_start (SPS_LIVE_SOURCE (source), &error));
  g_assert_no_error (error);

  etrace_stream_start (stream, 0, 0, FALSE, 0);
  etrace_stream_name (stream, 0, 1, 1, "uart_isr", 1, 5, NAN);
  for (guint i = 2; i < 50; i++)
    etrace_stream_event (stream, i % 2 == 0 ? 1 : 2, 100, i, 1, -1);
  fd = umockdev_testbed_get_dev_fd (testbed, "/dev/ttyACM0");
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, stream->data, stream->len), ==, (gssize) stream->len);

  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (received->len < stream->len && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
  g_assert_cmpmem (received->data, received->len, stream->data, stream->len);
  sps_live_source_stop (SPS_LIVE_SOURCE (source));

  /* Unplugged */
  umockdev_testbed_uevent (testbed, "/sys" ACM_PATH, "remove");
  wait_for (&state.changes, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (monitor)), ==, 0);
}

static gboolean
capture_got (SpsLiveCapture *capture,
             guint64         n_bytes)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (sps_live_capture_get_n_bytes (capture) < n_bytes && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);

  return sps_live_capture_get_n_bytes (capture) == n_bytes;
}

/* The device disappears from udev while its file stays open (a fake
 * device never hangs up): the capture ends as unplugged, not stopped,
 * and keeps every byte. */
static void
test_unplug_ends_capture (void)
{
  g_autoptr(UMockdevTestbed) testbed = NULL;
  g_autoptr(SpsSerialSource) source = NULL;
  g_autoptr(SpsLiveCapture) capture = NULL;
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  gint64 deadline;
  int fd;

  testbed = umockdev_testbed_new ();
  if (!umockdev_in_mock_environment ())
    {
      g_test_skip ("not running under umockdev-wrapper");
      return;
    }

  umockdev_testbed_add_from_string (testbed, acm_device, &error);
  g_assert_no_error (error);

  source = sps_serial_source_new ("/dev/ttyACM0", 115200);
  capture = sps_live_capture_new (SPS_LIVE_SOURCE (source));
  g_assert_true (sps_live_capture_start (capture, &error));
  g_assert_no_error (error);

  etrace_stream_start (stream, 0, 0, FALSE, 0);
  etrace_stream_name (stream, 0, 1, 1, "uart_isr", 1, 5, NAN);
  for (guint i = 2; i < 20; i++)
    etrace_stream_event (stream, i % 2 == 0 ? 1 : 2, 100, i, 1, -1);
  fd = umockdev_testbed_get_dev_fd (testbed, "/dev/ttyACM0");
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, stream->data, stream->len), ==, (gssize) stream->len);
  g_assert_true (capture_got (capture, stream->len));
  g_assert_true (sps_live_capture_get_running (capture));

  umockdev_testbed_uevent (testbed, "/sys" ACM_PATH, "remove");
  umockdev_testbed_remove_device (testbed, "/sys" ACM_PATH);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (sps_live_capture_get_running (capture) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);

  g_assert_false (sps_live_capture_get_running (capture));
  g_assert_false (sps_live_capture_get_stopped (capture));
  g_assert_null (sps_live_capture_get_error (capture));
  g_assert_cmpuint (sps_live_capture_get_n_bytes (capture), ==, stream->len);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/devices/usb-serial/hotplug", test_hotplug);
  g_test_add_func ("/devices/usb-serial/unplug-ends-capture", test_unplug_ends_capture);

  return g_test_run ();
}
