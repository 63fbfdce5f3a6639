/* test-etrace-recorder.c: the recorder, and the example transports and clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "etrace-test"

#include "config.h"

#include <string.h>

/* The port examples are built with their registers stubbed. */
#define ETRACE_PORTS_HOST_STUBS 1
#include "etrace-ports.h"
#include "etrace-test-util.h"

/* A transport into a GByteArray that refuses calls on request, and a
 * clock the test sets. */
typedef struct
{
  GByteArray *stream;
  guint calls;
  gboolean fail_next;
  guint64 now;
  etrace_t trace;
} Fixture;

static bool
fixture_write (void          *user,
               const uint8_t *data,
               size_t         len)
{
  Fixture *fixture = user;

  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (len, <=, ETRACE_ENCODE_BUFFER_SIZE);
  fixture->calls++;
  if (fixture->fail_next)
    {
      fixture->fail_next = FALSE;
      return false;
    }
  g_byte_array_append (fixture->stream, data, len);
  return true;
}

static uint64_t
fixture_now (void *user)
{
  Fixture *fixture = user;

  return fixture->now;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  etrace_config_t config = {
    fixture_write, fixture, fixture_now, fixture, ETRACE_TIMEBASE_NANOSECONDS, 0
  };

  fixture->stream = g_byte_array_new ();
  etrace_init (&fixture->trace, &config);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_byte_array_unref (fixture->stream);
}

/* Each call reads the clock once and numbers its event before the
 * dictionary entry it causes. */
static void
test_recorder_stream (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GArray) frames = NULL;
  const EtFrame *f;

  fixture->now = 5000;
  g_assert_cmpint (etrace_start (&fixture->trace, 0x1f), ==, ETRACE_OK);
  fixture->now = 6000;
  g_assert_cmpint (etrace_span_start (&fixture->trace, "task", ETRACE_SOURCE_TASK, 2), ==, ETRACE_OK);
  fixture->now = 6500;
  g_assert_cmpint (etrace_marker_value (&fixture->trace, "step", 7), ==, ETRACE_OK);
  fixture->now = 7000;
  g_assert_cmpint (etrace_marker (&fixture->trace, "step"), ==, ETRACE_OK);
  fixture->now = 9000;
  g_assert_cmpint (etrace_span_end (&fixture->trace, "task"), ==, ETRACE_OK);
  g_assert_cmpuint (fixture->calls, ==, 5);

  frames = et_decode_stream (fixture->stream->data, fixture->stream->len);
  g_assert_cmpuint (frames->len, ==, 7);
  f = et_frame (frames, 0);
  g_assert_cmpuint (f->type, ==, TRACING__TRACE_EVENT_TYPE__TRACE_START);
  g_assert_cmpint (f->clock, ==, 5000);
  g_assert_cmpuint (f->timebase, ==, TRACING__TIME_BASE__NANOSECONDS);
  g_assert_cmpuint (f->source_mask, ==, 0x1f);
  f = et_frame (frames, 1);
  g_assert_cmpstr (f->name, ==, "task");
  g_assert_cmpuint (f->sequence, ==, 2);
  g_assert_cmpuint (f->source, ==, TRACING__TRACE_EVENT_SOURCE_TYPE__TASK);
  g_assert_cmpuint (f->priority, ==, 2);
  g_assert_false (f->has_deadline);
  f = et_frame (frames, 2);
  g_assert_cmpuint (f->type, ==, TRACING__TRACE_EVENT_TYPE__SPAN_START);
  g_assert_cmpuint (f->sequence, ==, 1);
  g_assert_cmpint (f->clock, ==, 6000);
  f = et_frame (frames, 3);
  g_assert_cmpstr (f->name, ==, "step");
  g_assert_cmpuint (f->sequence, ==, 4);
  f = et_frame (frames, 4);
  g_assert_cmpuint (f->type, ==, TRACING__TRACE_EVENT_TYPE__MARKER);
  g_assert_cmpuint (f->sequence, ==, 3);
  g_assert_true (f->has_value);
  g_assert_cmpuint (f->value, ==, 7);
  g_assert_cmpint (f->clock, ==, 6500);
  f = et_frame (frames, 5);
  g_assert_false (f->has_value);
  g_assert_cmpuint (f->sequence, ==, 5);
  g_assert_cmpint (f->clock, ==, 7000);
  f = et_frame (frames, 6);
  g_assert_cmpuint (f->type, ==, TRACING__TRACE_EVENT_TYPE__SPAN_END);
  g_assert_cmpstr (et_resolve_name (frames, 6), ==, "task");
  g_assert_cmpuint (f->sequence, ==, 6);
  g_assert_cmpint (f->clock, ==, 9000);
}

/* Refused calls send nothing and take no sequence number. */
static void
test_recorder_refused (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GArray) frames = NULL;
  etrace_t unset = { 0 };

  g_assert_cmpint (etrace_span_start (&fixture->trace, "a_name_of_thirty_three_bytes_long", ETRACE_SOURCE_ISR, 1), ==, ETRACE_ERR_NAME);
  g_assert_cmpint (etrace_marker (&fixture->trace, ""), ==, ETRACE_ERR_NAME);
  g_assert_cmpint (etrace_span_end (&fixture->trace, NULL), ==, ETRACE_ERR_NAME);
  g_assert_cmpint (etrace_span_start (&fixture->trace, "isr", ETRACE_SOURCE_UNSPECIFIED, 1), ==, ETRACE_ERR_ARGUMENT);
  g_assert_cmpint (etrace_span_start (&fixture->trace, "isr", 7, 1), ==, ETRACE_ERR_ARGUMENT);
  g_assert_cmpint (etrace_marker (NULL, "x"), ==, ETRACE_ERR_ARGUMENT);
  g_assert_cmpint (etrace_poll (NULL), ==, ETRACE_ERR_ARGUMENT);
  /* Not initialised: no transport, no clock. */
  g_assert_cmpint (etrace_marker (&unset, "x"), ==, ETRACE_ERR_ARGUMENT);
  g_assert_cmpuint (fixture->calls, ==, 0);

  g_assert_cmpint (etrace_marker (&fixture->trace, "ok"), ==, ETRACE_OK);
  frames = et_decode_stream (fixture->stream->data, fixture->stream->len);
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpuint (et_frame (frames, 1)->sequence, ==, 0);
  g_assert_cmpuint (et_frame (frames, 0)->sequence, ==, 1);
}

/* The transport drops a dictionary entry and its event: the recorder says
 * so, the host sees their two sequence numbers missing, the clock stays
 * right, and the entry is sent again with the next event of that name. */
static void
test_recorder_transport_failure (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GArray) frames = NULL;
  static const guint expected_sequences[] = { 0, 2, 1, 5, 7, 6 };
  guint i;

  g_assert_cmpint (etrace_start (&fixture->trace, 1), ==, ETRACE_OK);
  fixture->now = 100;
  g_assert_cmpint (etrace_span_start (&fixture->trace, "a", ETRACE_SOURCE_TASK, 1), ==, ETRACE_OK);
  fixture->now = 200;
  fixture->fail_next = TRUE;
  g_assert_cmpint (etrace_span_start_deadline (&fixture->trace, "b", ETRACE_SOURCE_ISR, 5, 0.25f), ==, ETRACE_ERR_TRANSPORT);
  g_assert_cmpuint (etrace_transport_failures (&fixture->trace), ==, 1);
  fixture->now = 300;
  g_assert_cmpint (etrace_marker (&fixture->trace, "a"), ==, ETRACE_OK);
  fixture->now = 400;
  g_assert_cmpint (etrace_span_end (&fixture->trace, "b"), ==, ETRACE_OK);

  frames = et_decode_stream (fixture->stream->data, fixture->stream->len);
  g_assert_cmpuint (frames->len, ==, G_N_ELEMENTS (expected_sequences));
  for (i = 0; i < frames->len; i++)
    g_assert_cmpuint (et_frame (frames, i)->sequence, ==, expected_sequences[i]);
  g_assert_cmpint (et_frame (frames, 3)->clock, ==, 300);
  g_assert_cmpstr (et_frame (frames, 4)->name, ==, "b");
  g_assert_cmpuint (et_frame (frames, 4)->source, ==, TRACING__TRACE_EVENT_SOURCE_TYPE__ISR);
  g_assert_cmpuint (et_frame (frames, 4)->priority, ==, 5);
  g_assert_cmpfloat (et_frame (frames, 4)->deadline_ms, ==, 0.25f);
  g_assert_cmpstr (et_resolve_name (frames, 5), ==, "b");
  g_assert_cmpint (et_frame (frames, 5)->clock, ==, 400);
}

/* Default period 2 s: after it, one etrace_poll() sends the header and the
 * whole dictionary, one frame per transport call, and nothing more until
 * the next period. */
static void
test_recorder_poll (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GArray) frames = NULL;
  guint calls;

  g_assert_cmpuint (ETRACE_REEMIT_PERIOD_MS, ==, 2000);
  g_assert_cmpint (etrace_start (&fixture->trace, 0x7), ==, ETRACE_OK);
  fixture->now = 10;
  etrace_marker (&fixture->trace, "one");
  etrace_marker (&fixture->trace, "two");
  fixture->now = 1999999999;
  g_assert_cmpint (etrace_poll (&fixture->trace), ==, ETRACE_OK);
  g_assert_cmpuint (fixture->calls, ==, 3);

  fixture->now = 2000000000;
  g_assert_cmpint (etrace_poll (&fixture->trace), ==, ETRACE_OK);
  g_assert_cmpuint (fixture->calls, ==, 6);
  calls = fixture->calls;
  fixture->now = 3000000000u;
  g_assert_cmpint (etrace_poll (&fixture->trace), ==, ETRACE_OK);
  g_assert_cmpuint (fixture->calls, ==, calls);

  frames = et_decode_stream (fixture->stream->data, fixture->stream->len);
  /* header, 2 x (entry + marker), header, entry one, entry two */
  g_assert_cmpuint (frames->len, ==, 8);
  g_assert_cmpuint (et_frame (frames, 5)->type, ==, TRACING__TRACE_EVENT_TYPE__TRACE_START);
  g_assert_cmpint (et_frame (frames, 5)->clock, ==, 2000000000);
  g_assert_cmpuint (et_frame (frames, 5)->source_mask, ==, 0x7);
  g_assert_cmpstr (et_frame (frames, 6)->name, ==, "one");
  g_assert_cmpstr (et_frame (frames, 7)->name, ==, "two");
  g_assert_cmpuint (et_frame (frames, 7)->sequence, ==, 7);
}

static void
test_recorder_dictionary_full (Fixture       *fixture,
                               gconstpointer  data)
{
  g_auto(GStrv) names = g_new0 (char *, ETRACE_NAME_CAPACITY + 2);
  guint i;

  for (i = 0; i <= ETRACE_NAME_CAPACITY; i++)
    {
      names[i] = g_strdup_printf ("n%u", i);
      g_assert_cmpint (etrace_marker (&fixture->trace, names[i]), ==,
                       i < ETRACE_NAME_CAPACITY ? ETRACE_OK : ETRACE_DICTIONARY_FULL);
    }
  g_assert_cmpint (etrace_marker (&fixture->trace, "n0"), ==, ETRACE_OK);
}

/* Host stand-ins for the registers the port examples touch. */
static guint32 host_registers[4];

volatile uint32_t *
etrace_host_register (uintptr_t address)
{
  switch (address)
    {
    case 0x40004400u: /* USART SR */
      return &host_registers[0];
    case 0x40004404u: /* USART DR: every write is a byte on the wire */
      return &host_registers[1];
    case 0x4000440cu: /* USART CR1 */
      return &host_registers[2];
    case 0xe0001004u: /* DWT CYCCNT */
      return &host_registers[3];
    default:
      {
        static guint32 other;

        return &other;
      }
    }
}

static uint64_t
counting_now (void *user)
{
  guint64 *now = user;

  return *now += 1000;
}

/* The RTT-style ring: frames go in whole or not at all, the reader gets
 * the same bytes as a direct transport, across the ring's wrap. */
static void
test_ports_rtt (void)
{
  g_autoptr(GByteArray) read = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  guint8 storage[128];
  guint8 chunk[16];
  etrace_rtt_t rtt;
  etrace_t trace;
  guint64 now = 0;
  etrace_config_t config = {
    etrace_rtt_write, &rtt, counting_now, &now, ETRACE_TIMEBASE_NANOSECONDS, 0
  };
  guint i, refused = 0;
  gsize n;

  etrace_rtt_init (&rtt, storage, sizeof storage);
  g_assert_cmpstr (rtt.id, ==, "SEGGER RTT");
  g_assert_cmpint (rtt.max_up_channels, ==, 1);
  g_assert_cmpstr (rtt.up[0].name, ==, "etrace");
  etrace_init (&trace, &config);
  g_assert_cmpint (etrace_start (&trace, 1), ==, ETRACE_OK);

  for (i = 0; i < 200; i++)
    {
      etrace_status_t status = etrace_marker_value (&trace, (i % 2) ? "odd" : "even", i);

      if (status == ETRACE_ERR_TRANSPORT)
        refused++;
      else
        g_assert_cmpint (status, ==, ETRACE_OK);
      /* The reader drains 16 bytes every third event. */
      if (i % 3 == 2)
        {
          n = etrace_rtt_read (&rtt, chunk, sizeof chunk);
          g_byte_array_append (read, chunk, n);
        }
    }
  while ((n = etrace_rtt_read (&rtt, chunk, sizeof chunk)) > 0)
    g_byte_array_append (read, chunk, n);

  /* A marker frame takes 11-12 bytes and a read every three markers frees
   * at most 16, so the ring fills up: some calls must have been refused,
   * and every refusal was counted. */
  g_assert_cmpuint (refused, >, 0);
  g_assert_cmpuint (refused, ==, etrace_transport_failures (&trace));

  frames = et_decode_stream (read->data, read->len);
  /* header, 2 entries, and the markers that went through */
  g_assert_cmpuint (frames->len, ==, 1 + 2 + 200 - refused);
  for (i = 0; i < frames->len; i++)
    {
      const EtFrame *f = et_frame (frames, i);

      /* Markers k were recorded at 2000 + 1000 k whether or not they got
       * through: the clock must still match. */
      if (f->type == TRACING__TRACE_EVENT_TYPE__MARKER)
        g_assert_cmpint (f->clock, ==, 2000 + 1000 * (gint64) f->value);
    }
}

/* The UART FIFO fills on write, enables the transmit interrupt, and the
 * handler sends the bytes while the data register is free. */
static void
test_ports_uart (void)
{
  g_autoptr(GArray) frames = NULL;
  etrace_uart_t uart;
  etrace_t trace;
  guint64 now = 0;
  etrace_config_t config = {
    etrace_uart_write, &uart, counting_now, &now, ETRACE_TIMEBASE_NANOSECONDS, 0
  };
  g_autoptr(GByteArray) wire = g_byte_array_new ();
  guint i;

  memset (host_registers, 0, sizeof host_registers);
  etrace_uart_init (&uart);
  etrace_init (&trace, &config);
  g_assert_cmpint (etrace_start (&trace, 1), ==, ETRACE_OK);
  g_assert_cmpint (etrace_span_start (&trace, "uart_task", ETRACE_SOURCE_TASK, 3), ==, ETRACE_OK);
  g_assert_cmpuint (host_registers[2] & (1u << 7), !=, 0);

  /* Transmit register busy: the handler sends nothing. */
  etrace_uart_irq_handler (&uart);
  g_assert_cmpuint (uart.tail, ==, 0);

  /* Free (the stub register never fills): the handler sends everything
   * queued, byte by byte from the FIFO, then masks its interrupt. */
  host_registers[0] = 1u << 7;
  etrace_uart_irq_handler (&uart);
  g_assert_cmpuint (uart.tail, ==, uart.head);
  g_byte_array_append (wire, uart.fifo, uart.head);
  g_assert_cmpuint (host_registers[2] & (1u << 7), ==, 0);
  /* The last byte written to the data register is the last frame's. */
  g_assert_cmpuint (host_registers[1], ==, wire->data[wire->len - 1]);

  frames = et_decode_stream (wire->data, wire->len);
  g_assert_cmpuint (frames->len, ==, 3);
  g_assert_cmpstr (et_frame (frames, 1)->name, ==, "uart_task");

  /* A full FIFO refuses the whole call. */
  for (i = 0; i < ETRACE_UART_FIFO_SIZE; i++)
    {
      if (etrace_marker (&trace, "fill") == ETRACE_ERR_TRANSPORT)
        break;
    }
  g_assert_cmpuint (i, <, ETRACE_UART_FIFO_SIZE);
  g_assert_cmpuint (uart.head - uart.tail, <=, ETRACE_UART_FIFO_SIZE);
  g_assert_cmpuint (uart.head - uart.tail, >, ETRACE_UART_FIFO_SIZE - ETRACE_MAX_EVENT_FRAME_SIZE);
}

/* The DWT clock switches the counter on and reads it raw. */
static void
test_ports_dwt (void)
{
  memset (host_registers, 0, sizeof host_registers);
  host_registers[3] = 12345;
  etrace_dwt_init ();
  g_assert_cmpuint (host_registers[3], ==, 0);
  host_registers[3] = 0xfffffff0u;
  g_assert_cmpuint (etrace_dwt_now (NULL), ==, 0xfffffff0u);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  TEST ("/firmware/recorder/stream", test_recorder_stream);
  TEST ("/firmware/recorder/refused", test_recorder_refused);
  TEST ("/firmware/recorder/transport-failure", test_recorder_transport_failure);
  TEST ("/firmware/recorder/poll", test_recorder_poll);
  TEST ("/firmware/recorder/dictionary-full", test_recorder_dictionary_full);
  g_test_add_func ("/firmware/ports/rtt", test_ports_rtt);
  g_test_add_func ("/firmware/ports/uart", test_ports_uart);
  g_test_add_func ("/firmware/ports/dwt", test_ports_dwt);

  return g_test_run ();
}
