/* sps-test-util.h: helpers shared by the test programs (no display needed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

/* What a child process did: its exit status and everything it printed. */
typedef struct
{
  int   status;
  char *out;
  char *err;
} SpsTestRun;

void      sps_test_run_clear           (SpsTestRun         *run);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SpsTestRun, sps_test_run_clear)

void      sps_test_run_cli             (SpsTestRun         *run,
                                        const char * const *args);
void      sps_test_run_cli_va          (SpsTestRun         *run,
                                        ...) G_GNUC_NULL_TERMINATED;

char     *sps_test_fixture_path        (const char         *name);
SpsTrace *sps_test_load_path           (const char         *path);
SpsTrace *sps_test_load_fixture        (const char         *name);
SpsTrace *sps_test_finish              (SpsTraceBuilder    *builder);
char     *sps_test_shared_fixture_path (const char         *subdir,
                                        const char         *name);

char     *sps_test_write_file          (const char         *dir,
                                        const char         *relative,
                                        const char         *contents);
char     *sps_test_write_temp          (const char         *dir_template,
                                        const char         *name,
                                        const void         *data,
                                        gsize               len);
void      sps_test_remove_tree         (const char         *path);
char     *sps_test_link_plugin_folders (const char         *built_dir,
                                        const char * const *names);
SpsPluginStatus *sps_test_find_plugin_status (SpsPluginEngine *engine,
                                              const char      *module_name);
GBytes   *sps_test_gzip                (const void         *data,
                                        gsize               len,
                                        int                 level);

SpsSqlResult *sps_test_sql_query       (SpsSqlEngine       *engine,
                                        const char         *sql);
char         *sps_test_sql_dump        (SpsSqlResult       *result);
char     *sps_test_first_event_args    (SpsSqlEngine       *engine,
                                        const char         *name);

guint     sps_test_find_slice          (SpsTrace           *trace,
                                        const char         *name,
                                        guint               nth);
guint32   sps_test_add_complete        (SpsTraceBuilder    *builder,
                                        guint32             thread,
                                        SpsTime             ts,
                                        SpsTime             dur,
                                        const char         *name,
                                        const char         *category,
                                        const char         *args,
                                        SpsSliceFlags       flags);
void      sps_test_add_flow            (SpsTraceBuilder    *builder,
                                        guint64             key,
                                        guint32             from_thread,
                                        SpsTime             from_ts,
                                        guint32             from,
                                        guint32             to_thread,
                                        SpsTime             to_ts,
                                        guint32             to);

/* Deferred args (SpsArgsDecoder): cookie N stands for {"n":N}; cookie 99
 * cannot be read (the error says "cookie 99") */
#define SPS_TYPE_TEST_DECODER (sps_test_decoder_get_type ())
G_DECLARE_FINAL_TYPE (SpsTestDecoder, sps_test_decoder, SPS, TEST_DECODER, GObject)

SpsTestDecoder *sps_test_decoder_new         (void);
guint           sps_test_decoder_get_n_calls (SpsTestDecoder     *self);

G_END_DECLS
