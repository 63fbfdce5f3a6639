/* sps-cli.h: what the commands of spanscope-cli share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

/* Exit statuses: 0 success, 1 bad input (unreadable, unknown or malformed
 * file, failed write), 2 usage error. */
#define SPS_CLI_EXIT_OK         0
#define SPS_CLI_EXIT_BAD_INPUT  1
#define SPS_CLI_EXIT_USAGE      2

/* --ns, --us, --ms, --s: which were given */
typedef struct
{
  gboolean given[4];
} SpsCliTimeUnit;

/* A command: @argv starts with the command's name. */
typedef int (*SpsCliCommandFunc) (char **argv);

void            sps_cli_print_usage_error   (GOptionContext      *context,
                                             const char          *format,
                                             ...) G_GNUC_PRINTF (2, 3);
void            sps_cli_print_plugin_notes  (SpsPluginEngine     *engine);
void            sps_cli_add_time_unit_options (GOptionContext    *context,
                                               SpsCliTimeUnit    *time_unit);
gboolean        sps_cli_get_time_unit       (GOptionContext      *context,
                                             const SpsCliTimeUnit *time_unit,
                                             const char         **unit);
SpsTrace       *sps_cli_load_trace          (const char          *path,
                                             const char          *unit,
                                             SpsLoadFlags         flags,
                                             GError             **error);
SpsTrace       *sps_cli_load_trace_full     (const char          *path,
                                             const char          *unit,
                                             GVariant            *extra,
                                             SpsLoadFlags         flags,
                                             GError             **error);
int             sps_cli_report_load_error   (const GError        *error);
GOptionContext *sps_cli_new_file_command    (const char          *name,
                                             const char          *summary,
                                             const GOptionEntry  *entries);
char          **sps_cli_parse_file_command  (GOptionContext      *context,
                                             char               **argv);
gboolean        sps_cli_write_file          (SpsExporter         *exporter,
                                             SpsTrace            *trace,
                                             GVariant            *options,
                                             const char          *output,
                                             GError             **error);
gboolean        sps_cli_write_bytes         (const char          *output,
                                             GBytes              *bytes,
                                             GError             **error);
const char     *sps_cli_get_usage           (void);

int             sps_cli_info                (char               **argv);
int             sps_cli_convert             (char               **argv);
int             sps_cli_save                (char               **argv);
int             sps_cli_flame               (char               **argv);
int             sps_cli_capture             (char               **argv);
int             sps_cli_query               (char               **argv);
int             sps_cli_plugins             (char               **argv);

G_END_DECLS
