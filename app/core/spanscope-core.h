/* spanscope-core.h: the public API of libspanscope-core-1
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#define SPANSCOPE_CORE_INSIDE

#include "sps-version-macros.h"
#include "sps-version.h"
#include "sps-types.h"
#include "sps-string-pool.h"
#include "sps-progress.h"
#include "sps-args-decoder.h"
#include "sps-trace-builder.h"
#include "sps-trace.h"
#include "sps-importer.h"
#include "sps-exporter.h"
#include "sps-analysis.h"
#include "sps-stack-repair.h"
#include "sps-filtered-samples.h"
#include "sps-plugin-status.h"
#include "sps-plugin-engine.h"
#include "sps-search.h"
#include "sps-time-format.h"
#include "sps-flame-tree.h"
#include "sps-outstanding-tree.h"
#include "sps-live-decoder.h"
#include "sps-live-source.h"
#include "sps-serial-source.h"
#include "sps-core-enums.h"
#include "sps-sql-result.h"
#include "sps-sql-engine.h"
#include "sps-sql-text.h"
#include "sps-statistics.h"
#include "sps-csv.h"
#include "sps-json.h"
#include "sps-self-trace.h"
#include "sps-file-read.h"
#include "sps-file-write.h"
#include "sps-allocator.h"
#include "sps-view-filter.h"
#include "sps-profile.h"

#undef SPANSCOPE_CORE_INSIDE
