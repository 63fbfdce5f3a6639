/* spanscope-gtk.h: the public API of libspanscope-gtk-1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <spanscope-core.h>

#define SPANSCOPE_GTK_INSIDE

#include "sps-gtk-version-macros.h"
#include "sps-selection.h"
#include "sps-flag.h"
#include "sps-session.h"
#include "sps-source-scheme.h"
#include "sps-timeline.h"
#include "sps-detail-panel.h"
#include "sps-detail-view.h"
#include "sps-view.h"
#include "sps-palette.h"
#include "sps-result-table.h"
#include "sps-gtk-enums.h"

#undef SPANSCOPE_GTK_INSIDE
