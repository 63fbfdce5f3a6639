/* etrace-uart.c: UART transport, interrupt driven
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The recorder's write queues the frames in a FIFO and enables the
 * transmit-empty interrupt; the interrupt handler sends bytes while the
 * data register is free and disables itself when the FIFO is empty.
 *
 * The register macros default to USART2 of an STM32F4 (status register
 * TXE bit 7, data register, control register 1 TXEIE bit 7). Define them
 * for another part; configure baud rate and pins elsewhere.
 */

#include "etrace-ports.h"

#ifndef ETRACE_UART_BASE
# define ETRACE_UART_BASE 0x40004400u
#endif
#ifndef ETRACE_UART_TX_READY
# define ETRACE_UART_TX_READY() ((ETRACE_REG32 (ETRACE_UART_BASE + 0x00u) & (1u << 7)) != 0)
#endif
#ifndef ETRACE_UART_TX_PUT
# define ETRACE_UART_TX_PUT(byte) (ETRACE_REG32 (ETRACE_UART_BASE + 0x04u) = (byte))
#endif
#ifndef ETRACE_UART_TX_IRQ_ENABLE
# define ETRACE_UART_TX_IRQ_ENABLE() (ETRACE_REG32 (ETRACE_UART_BASE + 0x0cu) |= (1u << 7))
# define ETRACE_UART_TX_IRQ_DISABLE() (ETRACE_REG32 (ETRACE_UART_BASE + 0x0cu) &= ~(1u << 7))
#endif

#define FIFO_MASK (ETRACE_UART_FIFO_SIZE - 1u)

typedef char etrace_uart_fifo_size_is_a_power_of_two
  [(ETRACE_UART_FIFO_SIZE & FIFO_MASK) == 0 ? 1 : -1];

void
etrace_uart_init (etrace_uart_t *uart)
{
  uart->head = 0;
  uart->tail = 0;
}

/**
 * etrace_uart_write:
 * @uart: (type etrace_uart_t): the FIFO (the transport's user data)
 * @data: bytes to send
 * @len: their count
 *
 * An #etrace_write_fn. Runs inside the recorder's critical section, which
 * must mask the UART interrupt too.
 *
 * Returns: true if all of @data was queued, false if none was
 */
bool
etrace_uart_write (void          *uart,
                   const uint8_t *data,
                   size_t         len)
{
  etrace_uart_t *u = uart;
  uint32_t head = u->head;
  size_t i;

  /* Free-running indices: head - tail is the fill level. */
  if (len > ETRACE_UART_FIFO_SIZE - (head - u->tail))
    return false;
  for (i = 0; i < len; i++)
    u->fifo[(head + i) & FIFO_MASK] = data[i];
  u->head = head + (uint32_t) len;
  ETRACE_UART_TX_IRQ_ENABLE ();
  return true;
}

/**
 * etrace_uart_irq_handler:
 * @uart: the FIFO
 *
 * Call from the UART's interrupt handler.
 */
void
etrace_uart_irq_handler (etrace_uart_t *uart)
{
  uint32_t tail = uart->tail;

  while (tail != uart->head && ETRACE_UART_TX_READY ())
    {
      ETRACE_UART_TX_PUT (uart->fifo[tail & FIFO_MASK]);
      tail++;
    }
  uart->tail = tail;
  if (tail == uart->head)
    ETRACE_UART_TX_IRQ_DISABLE ();
}
