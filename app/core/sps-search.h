/* sps-search.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-trace.h"
#include "sps-types.h"

G_BEGIN_DECLS

/**
 * SpsSearchField:
 * @SPS_SEARCH_NAME: match the slice's name
 * @SPS_SEARCH_CATEGORY: match the slice's category (the whole string as
 *   written, commas included)
 *
 * What a search looks at.
 */
typedef enum
{
  SPS_SEARCH_NAME,
  SPS_SEARCH_CATEGORY,
} SpsSearchField;

/* A compiled, case-insensitive substring pattern. */
typedef struct _SpsSearchPattern SpsSearchPattern;

#define SPS_TYPE_SEARCH_PATTERN (sps_search_pattern_get_type ())
#define SPS_TYPE_SEARCH_RESULT  (sps_search_result_get_type ())

SPS_AVAILABLE_IN_ALL
GType             sps_search_pattern_get_type (void) G_GNUC_CONST;
SPS_AVAILABLE_IN_ALL
SpsSearchPattern *sps_search_pattern_new      (const char             *text);
SPS_AVAILABLE_IN_ALL
SpsSearchPattern *sps_search_pattern_copy     (const SpsSearchPattern *self);
SPS_AVAILABLE_IN_ALL
void              sps_search_pattern_free     (SpsSearchPattern       *self);
SPS_AVAILABLE_IN_ALL
const char       *sps_search_pattern_get_text (const SpsSearchPattern *self);
SPS_AVAILABLE_IN_ALL
gboolean          sps_search_pattern_match    (const SpsSearchPattern *self,
                                               const char             *str,
                                               gssize                  len);

/**
 * SpsSearchGroup:
 * @name: string id of the slice name shared by the group
 * @count: matching slices with that name (measured and sampled)
 * @n_measured: how many of them are measured (neither sampled spans nor
 *   unfinished slices)
 * @measured_total: summed duration of the measured ones, in ns
 * @first_slice: the earliest match (lowest start, then lowest index), or
 *   %SPS_NO_INDEX when only samples have the name
 * @n_samples: matching stack samples with that name (their leaf frame's;
 *   name searches only)
 * @n_events: matching decoded events (instants of kind
 *   %SPS_INSTANT_KIND_EVENT) with that name; a category search matches
 *   their provider
 * @first_event: the earliest of them (an instant index), or
 *   %SPS_NO_INDEX
 *
 * The matches of one name. Averages are @measured_total / @n_measured:
 * sampled spans are estimates and unfinished slices have no real end, so
 * neither enters them.
 */
typedef struct
{
  guint32 name;
  guint   count;
  guint   n_measured;
  SpsTime measured_total;
  guint32 first_slice;
  guint   n_samples;
  guint   n_events;
  guint32 first_event;
} SpsSearchGroup;

typedef struct _SpsSearchResult SpsSearchResult;

SPS_AVAILABLE_IN_ALL
GType                 sps_search_result_get_type       (void) G_GNUC_CONST;
SPS_AVAILABLE_IN_ALL
SpsSearchResult      *sps_search_result_ref            (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
void                  sps_search_result_unref          (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
SpsTrace             *sps_search_result_get_trace      (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
guint                 sps_search_result_get_n_matches  (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
const guint32        *sps_search_result_get_matches    (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
guint                 sps_search_result_get_n_sample_matches (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
const guint32        *sps_search_result_get_sample_matches   (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
guint                 sps_search_result_get_n_event_matches  (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
const guint32        *sps_search_result_get_event_matches    (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
guint                 sps_search_result_get_n_groups   (SpsSearchResult *self);
SPS_AVAILABLE_IN_ALL
const SpsSearchGroup *sps_search_result_get_group      (SpsSearchResult *self,
                                                        guint            i);
SPS_AVAILABLE_IN_ALL
guint                 sps_search_result_find_group     (SpsSearchResult *self,
                                                        guint32          name);
SPS_AVAILABLE_IN_ALL
guint                 sps_search_result_step           (SpsSearchResult *self,
                                                        guint            from_slice,
                                                        int              direction);

SPS_AVAILABLE_IN_ALL
SpsSearchResult      *sps_search_run                   (SpsTrace         *trace,
                                                        const char       *text,
                                                        SpsSearchField    field,
                                                        const guint8     *slice_visible,
                                                        GCancellable     *cancellable,
                                                        GError          **error);
SPS_AVAILABLE_IN_ALL
void                  sps_search_run_async             (SpsTrace         *trace,
                                                        const char       *text,
                                                        SpsSearchField    field,
                                                        GBytes           *slice_visible,
                                                        GCancellable     *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer          user_data);
SPS_AVAILABLE_IN_ALL
SpsSearchResult      *sps_search_run_finish            (GAsyncResult     *result,
                                                        GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsSearchPattern, sps_search_pattern_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsSearchResult, sps_search_result_unref)

G_END_DECLS
