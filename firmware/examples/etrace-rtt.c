/* etrace-rtt.c: RTT-style RAM ring buffer transport
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The target writes at write_offset, the probe reads at read_offset; the
 * buffer is empty when they are equal and one byte always stays free.
 * A write that does not fit is refused whole (the recorder then rolls the
 * encoder back and the host sees the sequence numbers missing) rather than
 * blocking, because it runs with interrupts masked.
 */

#include "etrace-ports.h"

#include <string.h>

/**
 * etrace_rtt_init:
 * @rtt: the control block, in RAM where the probe searches
 * @storage: the ring's memory
 * @size: bytes in @storage, at least 2 * %ETRACE_ENCODE_BUFFER_SIZE
 */
void
etrace_rtt_init (etrace_rtt_t *rtt,
                 uint8_t      *storage,
                 uint32_t      size)
{
  /* The id is written last and at run time, so a probe never finds a
   * half-initialised block (or a copy of the id in flash). */
  static const char id[] = "SEGGER RTT";

  memset (rtt, 0, sizeof *rtt);
  rtt->max_up_channels = 1;
  rtt->max_down_channels = 0;
  rtt->up[0].name = "etrace";
  rtt->up[0].buffer = storage;
  rtt->up[0].size = size;
  memcpy (rtt->id, id, sizeof id);
}

/**
 * etrace_rtt_write:
 * @rtt: (type etrace_rtt_t): the control block (the transport's user data)
 * @data: bytes to queue
 * @len: their count
 *
 * An #etrace_write_fn.
 *
 * Returns: true if all of @data was queued, false if none was
 */
bool
etrace_rtt_write (void          *rtt,
                  const uint8_t *data,
                  size_t         len)
{
  etrace_rtt_channel_t *up = &((etrace_rtt_t *) rtt)->up[0];
  uint32_t write = up->write_offset;
  uint32_t read = up->read_offset;
  uint32_t space;
  size_t first;

  space = read > write ? read - write - 1 : up->size - write + read - 1;
  if (len > space)
    return false;

  first = up->size - write;
  if (first > len)
    first = len;
  memcpy (up->buffer + write, data, first);
  memcpy (up->buffer, data + first, len - first);
  write += (uint32_t) len;
  if (write >= up->size)
    write -= up->size;
  /* The data must be in memory before the probe can see the new offset;
   * on a single-core Cortex-M, program order of the volatile store does it. */
  up->write_offset = write;
  return true;
}

/**
 * etrace_rtt_read:
 * @rtt: the control block
 * @out: where to copy
 * @cap: room in @out
 *
 * What the probe does, for a firmware that drains the buffer itself (to a
 * file system, a radio) or for a host test.
 *
 * Returns: bytes copied
 */
size_t
etrace_rtt_read (etrace_rtt_t *rtt,
                 uint8_t      *out,
                 size_t        cap)
{
  etrace_rtt_channel_t *up = &rtt->up[0];
  uint32_t read = up->read_offset;
  uint32_t write = up->write_offset;
  size_t n = 0;

  while (read != write && n < cap)
    {
      out[n++] = up->buffer[read++];
      if (read == up->size)
        read = 0;
    }
  up->read_offset = read;
  return n;
}
