/* sps-chrome-event-reader.h: reads an event array, on two cores if it is big
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-chrome-scanner.h"

G_BEGIN_DECLS

/* Called for each event, in input order, on the calling thread. */
typedef void     (*SpsChromeEventFunc) (const SpsChromeEvent *event,
                                        gpointer              user_data);

/* Called about every MiB of input with the offset reached; return FALSE
 * to stop reading (cancellation). */
typedef gboolean (*SpsChromeTickFunc)  (gsize                 offset,
                                        gpointer              user_data);

SpsChromeScanResult sps_chrome_read_events      (SpsChromeScanner   *scanner,
                                                 guint               n_threads,
                                                 SpsChromeEventFunc  on_event,
                                                 SpsChromeTickFunc   on_tick,
                                                 gpointer            user_data);
SpsChromeScanResult sps_chrome_read_events_full (SpsChromeScanner   *scanner,
                                                 guint               n_threads,
                                                 gsize               chunk_size,
                                                 SpsChromeEventFunc  on_event,
                                                 SpsChromeTickFunc   on_tick,
                                                 gpointer            user_data);

G_END_DECLS
