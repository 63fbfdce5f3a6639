/* sps-chrome-objects.h: Chrome object events (N, O, D) as an allocation history
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

typedef struct _SpsChromeObjects SpsChromeObjects;

SpsChromeObjects *sps_chrome_objects_new    (void);
void              sps_chrome_objects_free   (SpsChromeObjects *self);
void              sps_chrome_objects_add    (SpsChromeObjects *self,
                                             SpsObjectPhase    phase,
                                             guint32           process,
                                             guint64           key,
                                             SpsTime           ts,
                                             guint32           name,
                                             guint64           size);
void              sps_chrome_objects_finish (SpsChromeObjects *self,
                                             SpsTraceBuilder  *builder);

G_END_DECLS
