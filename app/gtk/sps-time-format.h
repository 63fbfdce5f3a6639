/* sps-time-format.h: the time formatter moved to libspanscope-core-1
 *
 * The formatter and parser are core API now (app/core/sps-time-format.h,
 * through <spanscope-core.h>). This uninstalled header only keeps the
 * timeline's sources, which include it by this name, building until they
 * include <spanscope-core.h> themselves; then it goes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>
