/* sps-application-private.h: what the files of SpsApplication share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-application.h"
#include "sps-screenshot-job.h"

G_BEGIN_DECLS

typedef enum
{
  THEME_SYSTEM,
  THEME_LIGHT,
  THEME_DARK,
} Theme;

typedef struct _SpsPreload SpsPreload;

struct _SpsApplication
{
  GtkApplication  parent_instance;

  GSettings      *settings;
  GSettings      *keybindings;
  /* Font scale and selection colour, from the settings */
  GtkCssProvider *settings_provider;
  /* The Preferences window while it is open (one per application) */
  GtkWindow      *preferences;

  /* Importer options from the command line (--ns, --us), for the files
   * named there; NULL when none was given. */
  GVariant       *import_options;

  /* --screenshot mode */
  char           *screenshot_path;
  int             screenshot_width;
  int             screenshot_height;
  gboolean        screenshot_has_range;
  SpsTime         screenshot_range_start;
  SpsTime         screenshot_range_end;
  SpsScreenshotJob *screenshot_job;

  int             exit_status;

  /* The load of the trace named on the command line, started before the
   * application ran, until a window takes it over */
  SpsPreload     *preload;
};

/* sps-application-options.c: the command line and --screenshot */
void     _sps_application_add_options       (SpsApplication  *self);
void     _sps_application_rewrite_arguments (char           **argv);
int      _sps_application_read_options      (SpsApplication  *self,
                                             GVariantDict    *options);
void     _sps_application_screenshot        (SpsApplication  *self,
                                             GFile           *file);

/* sps-application.c */
GVariant *_sps_application_unit_options    (const char      *unit);

/* sps-application-preload.c: the trace named on the command line, loading
 * while GTK starts */
char    *_sps_application_preload_path      (char           **argv);
void     _sps_application_preload           (SpsApplication  *self,
                                             GFile           *file);
gboolean _sps_application_take_preload      (SpsApplication  *self,
                                             GFile           *file,
                                             GVariant        *options,
                                             SpsProgress    **progress,
                                             GCancellable   **cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer         user_data);
gboolean _sps_application_preload_finished (SpsApplication  *self);
SpsProgress *_sps_application_get_preload_progress (SpsApplication *self);
void     _sps_preload_drop                  (SpsPreload      *preload);

G_END_DECLS
