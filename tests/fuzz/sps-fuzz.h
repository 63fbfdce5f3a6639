/* sps-fuzz.h: what every fuzz harness of tests/fuzz shares
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A harness defines LLVMFuzzerTestOneInput() and, through
 * SPS_FUZZ_LIMITS(), the memory and per-input time limits it runs under.
 * The same harness source links either with libFuzzer (the clang build of
 * `build-aux/dev fuzz`) or with fuzz-replay.c (the normal build, which
 * replays tests/fuzz/corpus/<target>/ in `meson test --suite fuzz-regress`).
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <spanscope-core.h>

G_BEGIN_DECLS

/* What a harness defines: one input through its entry point. sps-fuzz.c's
 * LLVMFuzzerTestOneInput() calls it under the per-input limit. */
int  sps_fuzz_test_one_input (const uint8_t *data,
                              size_t         size);

int  LLVMFuzzerTestOneInput  (const uint8_t *data,
                              size_t         size);
int  LLVMFuzzerInitialize    (int           *argc,
                              char        ***argv);

/* The limits of a harness: RSS in MiB and seconds per input. Exceeding
 * either is a failure (libFuzzer writes an oom- or crash- artifact and
 * exits non-zero; the replay driver aborts). The seconds are CPU time
 * of the process: a fuzzer at low priority on a busy machine waits for
 * the processor without using it, and that is no hang. libFuzzer's own
 * wall-clock timeout stays as a backstop at SPS_FUZZ_WALL_FACTOR times
 * the limit, for an input that blocks without computing. */
#define SPS_FUZZ_WALL_FACTOR 30

typedef struct
{
  guint rss_limit_mb;
  guint timeout_s;
} SpsFuzzLimits;

extern const SpsFuzzLimits sps_fuzz_limits;

#define SPS_FUZZ_LIMITS(rss_mb, seconds) \
  const SpsFuzzLimits sps_fuzz_limits = { (rss_mb), (seconds) }

void        sps_fuzz_init        (void);
void        sps_fuzz_use_real_files (void);
GFile      *sps_fuzz_file_new    (const guint8     *data,
                                  gsize             len,
                                  int              *fd_out);
void        sps_fuzz_file_free   (GFile            *file,
                                  int               fd);
SpsTrace   *sps_fuzz_import      (SpsImporter      *importer,
                                  const guint8     *data,
                                  gsize             len,
                                  GVariant         *options);
int         sps_fuzz_run_importer (GType          type,
                                   const guint8  *data,
                                   gsize          len,
                                   GVariant      *options);
GVariant   *sps_fuzz_chrome_options (void);

/* Reads little pieces of the input as parameters (a harness that needs a
 * size or a flag takes it from the front of the input). */
typedef struct
{
  const guint8 *data;
  gsize         len;
} SpsFuzzInput;

guint8      sps_fuzz_take_u8     (SpsFuzzInput     *in);
guint32     sps_fuzz_take_u32    (SpsFuzzInput     *in);

G_END_DECLS
