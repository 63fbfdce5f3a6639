/* sps-broadway.h: `spanscope --broadway[=PORT]`, the app served to a web browser
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The port gtk4-broadwayd serves on without =PORT (GTK's own default) */
#define SPS_BROADWAY_DEFAULT_PORT 8080

typedef struct _SpsBroadway SpsBroadway;

gboolean sps_broadway_start         (int           *argc,
                                     char         **argv,
                                     SpsBroadway  **broadway,
                                     GError       **error);
void     sps_broadway_prepare_app   (SpsBroadway   *self,
                                     GApplication  *app);
guint    sps_broadway_display_for_port (guint        port);
char    *sps_broadway_socket_for_port  (guint        port);
void     sps_broadway_stop          (SpsBroadway   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsBroadway, sps_broadway_stop)

G_END_DECLS
