/* sps-self-trace.h: a Chrome JSON trace of Spanscope itself (--trace)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

SPS_AVAILABLE_IN_ALL
void     sps_self_trace_enable      (void);
SPS_AVAILABLE_IN_ALL
gboolean sps_self_trace_is_enabled  (void);
SPS_AVAILABLE_IN_ALL
gint64   sps_self_trace_begin       (void);
SPS_AVAILABLE_IN_ALL
void     sps_self_trace_end         (gint64       start,
                                     const char  *name,
                                     const char  *arg_key,
                                     const char  *arg_value);
SPS_AVAILABLE_IN_ALL
gint64   sps_self_trace_get_time    (void);
SPS_AVAILABLE_IN_ALL
void     sps_self_trace_add_complete (const char *name,
                                      gint64      start,
                                      gint64      end);
SPS_AVAILABLE_IN_ALL
guint    sps_self_trace_get_n_events (void);
SPS_AVAILABLE_IN_ALL
gboolean sps_self_trace_read_memory (guint64     *rss,
                                     guint64     *anonymous);
SPS_AVAILABLE_IN_ALL
gboolean sps_self_trace_write       (const char  *path,
                                     GError     **error);

#ifndef __GI_SCANNER__

/* Read by the inline checks below: one load and one branch per event
 * site while tracing is off. Not API: use sps_self_trace_is_enabled(). */
SPS_AVAILABLE_IN_ALL
int sps_self_trace_on;

/* What an event site keeps between its begin and its end: see
 * SPS_SELF_TRACE_SCOPE() */
typedef struct
{
  gint64      start;      /* 0 while tracing is off */
  const char *name;
  const char *arg_key;
  const char *arg_value;  /* borrowed: it must outlive the scope */
} SpsSelfTraceScope;

static inline SpsSelfTraceScope
_sps_self_trace_scope_begin (const char *name,
                             const char *arg_key,
                             const char *arg_value)
{
  SpsSelfTraceScope scope = { 0, name, arg_key, arg_value };

  if (G_UNLIKELY (g_atomic_int_get (&sps_self_trace_on)))
    scope.start = sps_self_trace_begin ();

  return scope;
}

static inline void
_sps_self_trace_scope_end (SpsSelfTraceScope *scope)
{
  if (G_UNLIKELY (scope->start != 0))
    sps_self_trace_end (scope->start, scope->name, scope->arg_key, scope->arg_value);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SpsSelfTraceScope, _sps_self_trace_scope_end)

/**
 * SPS_SELF_TRACE_SCOPE:
 * @name: the event's name, a string literal such as "finish/pair"
 *
 * Declares a variable whose scope is an event of the self trace: it
 * begins here and ends where the enclosing block ends. Costs one branch
 * while tracing is off. A declaration, so it goes with the block's other
 * declarations.
 */
#define SPS_SELF_TRACE_SCOPE(name) \
  G_GNUC_UNUSED g_auto(SpsSelfTraceScope) _sps_self_trace_scope = _sps_self_trace_scope_begin (name, NULL, NULL)

/**
 * SPS_SELF_TRACE_SCOPE_ARG:
 * @name: the event's name, a string literal
 * @key: the name of the event's one argument
 * @value: its text, which must live until the scope ends
 *
 * Like SPS_SELF_TRACE_SCOPE(), with one argument (truncated to 200
 * bytes in the trace), such as an SQL statement or a plugin's name.
 */
#define SPS_SELF_TRACE_SCOPE_ARG(name, key, value) \
  G_GNUC_UNUSED g_auto(SpsSelfTraceScope) _sps_self_trace_scope = _sps_self_trace_scope_begin (name, key, value)

#endif /* __GI_SCANNER__ */

G_END_DECLS
