/* sps-profile-private.h: the schema of saved profiles, shared by the
 * writer (sps-profile-write.c), the reader (sps-profile-read.c) and the
 * tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every columnar table of #SpsTrace is described once here, as offsets
 * into the trace with a storage kind and what each column refers to, so
 * that writing, reading and checking a profile go through one list that
 * the tests compare with the trace's own (_sps_trace_get_layouts()).
 */

#pragma once

#include <sqlite3.h>

#include "sps-profile.h"
#include "sps-trace-private.h"

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

typedef enum
{
  SPS_PROFILE_KIND_I64,
  SPS_PROFILE_KIND_U64,
  SPS_PROFILE_KIND_I32,
  SPS_PROFILE_KIND_U32,
  SPS_PROFILE_KIND_U16,
  SPS_PROFILE_KIND_U8,
  SPS_PROFILE_KIND_F64,
  SPS_PROFILE_KIND_STRING,           /* guint32 id into the strings table */
  SPS_PROFILE_KIND_ARGS,             /* SpsArgsRef, saved as JSON text */
} SpsProfileKind;

/* What a guint32 column refers to; its rows must exist. */
typedef enum
{
  SPS_PROFILE_REF_NONE,
  SPS_PROFILE_REF_PROCESS,
  SPS_PROFILE_REF_THREAD,
  SPS_PROFILE_REF_TRACK,
  SPS_PROFILE_REF_SLICE,
  SPS_PROFILE_REF_CALLSITE,
  SPS_PROFILE_REF_FRAME,
} SpsProfileRef;

typedef struct
{
  const char *name;
  gsize       offset;           /* of the column's pointer in SpsTrace */
  guint8      kind;             /* SpsProfileKind */
  guint8      ref;              /* SpsProfileRef */
  guint8      nullable;         /* SPS_NO_INDEX allowed, saved as NULL */
  guint8      max;              /* enumerations: the largest value; 0: any */
  gsize       constant;         /* offset of the value of every row while the
                                 * column is NULL (stored once); 0: never */
} SpsProfileColumn;

#define SPS_PROFILE_MAX_COLUMNS 13

typedef struct
{
  const char       *name;       /* the SQL table */
  gsize             n_rows;     /* offset of the guint row count in SpsTrace */
  SpsProfileRef     self;       /* what refers to its rows, if anything */
  SpsProfileColumn  columns[SPS_PROFILE_MAX_COLUMNS];  /* up to a NULL name */
} SpsProfileTable;

/* The tables in the order they are written and read; a deferred args
 * cookie names a table by its position here. Exported for the tests
 * only (tests/test-profile.c). */
_SPS_EXTERN const SpsProfileTable _sps_profile_tables[];
_SPS_EXTERN const guint _sps_profile_n_tables;

/* Cookies of the args decoder: table position above row. */
#define SPS_PROFILE_COOKIE_ROW_BITS 40

static inline gsize
_sps_profile_kind_size (SpsProfileKind kind)
{
  switch (kind)
    {
    case SPS_PROFILE_KIND_I64:
    case SPS_PROFILE_KIND_U64:
    case SPS_PROFILE_KIND_F64:
    case SPS_PROFILE_KIND_ARGS:
      return 8;
    case SPS_PROFILE_KIND_I32:
    case SPS_PROFILE_KIND_U32:
    case SPS_PROFILE_KIND_STRING:
      return 4;
    case SPS_PROFILE_KIND_U16:
      return 2;
    case SPS_PROFILE_KIND_U8:
      return 1;
    default:
      g_assert_not_reached ();
    }
}

static inline gpointer
_sps_profile_column_get (SpsTrace               *trace,
                         const SpsProfileColumn *column)
{
  gpointer data;

  memcpy (&data, (const char *) trace + column->offset, sizeof data);
  return data;
}

/* A column's @n_rows rows as one array: a column stored once is written
 * out into a new array, which @owned gets (NULL otherwise) */
static inline gconstpointer
_sps_profile_column_rows (SpsTrace               *trace,
                          const SpsProfileColumn *column,
                          guint                   n_rows,
                          gpointer               *owned)
{
  gconstpointer data = _sps_profile_column_get (trace, column);
  gsize size;
  char *rows;

  *owned = NULL;
  if (data != NULL || column->constant == 0)
    return data;
  size = _sps_profile_kind_size (column->kind);
  rows = g_malloc ((gsize) MAX (n_rows, 1) * size);
  for (guint r = 0; r < n_rows; r++)
    memcpy (rows + (gsize) r * size, (const char *) trace + column->constant, size);
  *owned = rows;
  return rows;
}

static inline guint
_sps_profile_table_rows (SpsTrace              *trace,
                         const SpsProfileTable *table)
{
  guint n;

  memcpy (&n, (const char *) trace + table->n_rows, sizeof n);
  return n;
}

/* Opening and checking a profile database (sps-profile-read.c) */
sqlite3  *_sps_profile_open      (const char  *path,
                                  const char  *display_name,
                                  GError     **error);


/* Checking the tables read from one (sps-profile-check.c) */
gboolean  _sps_profile_check     (SpsTrace    *trace,
                                  const char  *display_name,
                                  GError     **error);

G_END_DECLS
