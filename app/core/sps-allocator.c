/* sps-allocator.c: large blocks in mappings of their own
 *
 * A trace's columns are arrays of megabytes, and an import frees as many
 * again (the builder's rows, finish()'s work arrays). glibc's malloc
 * serves a block from its heap unless the block is larger than its mmap
 * threshold, and that threshold rises with every mapped block freed, up
 * to 32 MiB: after the first large free, columns of a few MiB come from
 * the heap, and what is freed around them stays there as free chunks
 * whose pages malloc_trim() cannot all give back (on the 5e6-event
 * benchmark trace, 14 MB over the model: 41.8 bytes per event instead of
 * 39.0). A fixed threshold keeps every block of 2 MiB and more in its own
 * mapping: freed, it is gone at once; grown, realloc() moves it with
 * mremap(), without a copy.
 *
 * Fixing the threshold also fixes the trim threshold, which glibc would
 * otherwise raise with it, at its default of 128 KiB: every free at the
 * top of a heap above that gave the pages back, and the next block of a
 * few hundred KiB faulted them in again, zeroed. A flame tree of a tenth
 * of a trace spent a quarter of its time in those faults. The trim
 * threshold is set to twice the mapping threshold, where glibc's own
 * rule would put it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-allocator"

#include "config.h"

#ifdef HAVE_MALLOPT_MMAP_THRESHOLD
# include <malloc.h>
#endif

#include "sps-allocator.h"

#define OWN_MAPPING_THRESHOLD (2 * 1024 * 1024)
#define TRIM_THRESHOLD        (2 * OWN_MAPPING_THRESHOLD)

/**
 * sps_setup_allocator:
 *
 * Makes the C library's allocator give every block of 2 MiB and more a
 * mapping of its own, so that the memory of a closed trace and of an
 * import's work goes back to the system when it is freed, and keep up to
 * 4 MiB freed at the top of a heap for the next smaller blocks. It
 * changes the allocator of the whole process: Spanscope's programs call
 * it first in main(), before any thread starts; a program that embeds
 * the library may leave it out (the library works either way, holding
 * more memory).
 * Where the allocator offers no such setting, it does nothing.
 */
void
sps_setup_allocator (void)
{
#ifdef HAVE_MALLOPT_MMAP_THRESHOLD
  /* Setting the threshold also stops glibc from raising it */
  if (mallopt (M_MMAP_THRESHOLD, OWN_MAPPING_THRESHOLD) != 1)
    g_debug ("mallopt(M_MMAP_THRESHOLD) was refused");
  if (mallopt (M_TRIM_THRESHOLD, TRIM_THRESHOLD) != 1)
    g_debug ("mallopt(M_TRIM_THRESHOLD) was refused");
#endif
}
