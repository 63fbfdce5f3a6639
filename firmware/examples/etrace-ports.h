/* etrace-ports.h: example transports and clock for Cortex-M targets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Starting points to copy into a firmware and adapt:
 *
 * - etrace-rtt.c: an RTT-style RAM ring buffer. The control block uses the
 *   SEGGER RTT layout, so a debug probe (J-Link, probe-rs, OpenOCD's rtt
 *   server) finds it in RAM and streams "up" buffer 0 to the host while the
 *   target runs; the same buffer can be dumped after a crash.
 * - etrace-uart.c: a UART transport: the encoder's bytes go into a FIFO and
 *   the transmit-empty interrupt sends them, so nothing waits on the wire
 *   inside the recorder's critical section.
 * - etrace-dwt.c: the DWT cycle counter (CYCCNT) as the clock, for
 *   ETRACE_TIMEBASE_CYCLES.
 *
 * Registers are reached through ETRACE_REG32(); building with
 * ETRACE_PORTS_HOST_STUBS=1 sends every access to etrace_host_register(),
 * which the host tests implement, so the examples compile and run anywhere.
 */

#ifndef ETRACE_PORTS_H
#define ETRACE_PORTS_H

#include "etrace.h"

#ifndef ETRACE_PORTS_HOST_STUBS
# define ETRACE_PORTS_HOST_STUBS 0
#endif

#if ETRACE_PORTS_HOST_STUBS
volatile uint32_t *etrace_host_register (uintptr_t address);
# define ETRACE_REG32(address) (*etrace_host_register (address))
#else
# define ETRACE_REG32(address) (*(volatile uint32_t *) (address))
#endif

/* RTT-style ring buffer (etrace-rtt.c). */

/* One "up" (target to host) channel, SEGGER RTT layout. */
typedef struct
{
  const char *name;
  uint8_t *buffer;
  uint32_t size;
  volatile uint32_t write_offset; /* written by the target */
  volatile uint32_t read_offset;  /* written by the probe */
  uint32_t flags;
} etrace_rtt_channel_t;

/* The control block a probe searches RAM for: 16-byte id, channel counts,
 * then up channels and down channels. One up channel, no down channel. */
typedef struct
{
  char id[16];
  int32_t max_up_channels;
  int32_t max_down_channels;
  etrace_rtt_channel_t up[1];
} etrace_rtt_t;

void     etrace_rtt_init  (etrace_rtt_t  *rtt,
                           uint8_t       *storage,
                           uint32_t       size);
bool     etrace_rtt_write (void          *rtt,
                           const uint8_t *data,
                           size_t         len);
size_t   etrace_rtt_read  (etrace_rtt_t  *rtt,
                           uint8_t       *out,
                           size_t         cap);

/* UART transport (etrace-uart.c). */

#ifndef ETRACE_UART_FIFO_SIZE
# define ETRACE_UART_FIFO_SIZE 256u /* a power of two */
#endif

typedef struct
{
  uint8_t fifo[ETRACE_UART_FIFO_SIZE];
  volatile uint32_t head; /* next byte to write, moved by the recorder */
  volatile uint32_t tail; /* next byte to send, moved by the interrupt */
} etrace_uart_t;

void     etrace_uart_init          (etrace_uart_t *uart);
bool     etrace_uart_write         (void          *uart,
                                    const uint8_t *data,
                                    size_t         len);
void     etrace_uart_irq_handler   (etrace_uart_t *uart);

/* DWT cycle counter clock (etrace-dwt.c). */

void     etrace_dwt_init  (void);
uint64_t etrace_dwt_now   (void *user);

#endif /* ETRACE_PORTS_H */
