/* sps-etl-fields.h: the fields of ETW payloads that describe themselves
 * (EventSource manifests, TraceLogging schemas), decoded as JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "sps-etl-reader.h"

G_BEGIN_DECLS

/* The in-types of manifests and TraceLogging schemas (TDH's numbers) */
typedef enum
{
  SPS_ETL_IN_NULL          = 0,
  SPS_ETL_IN_UNICODE       = 1,   /* UTF-16, NUL-terminated */
  SPS_ETL_IN_ANSI          = 2,   /* 8-bit, NUL-terminated */
  SPS_ETL_IN_INT8          = 3,
  SPS_ETL_IN_UINT8         = 4,
  SPS_ETL_IN_INT16         = 5,
  SPS_ETL_IN_UINT16        = 6,
  SPS_ETL_IN_INT32         = 7,
  SPS_ETL_IN_UINT32        = 8,
  SPS_ETL_IN_INT64         = 9,
  SPS_ETL_IN_UINT64        = 10,
  SPS_ETL_IN_FLOAT         = 11,
  SPS_ETL_IN_DOUBLE        = 12,
  SPS_ETL_IN_BOOLEAN       = 13,  /* 4 bytes */
  SPS_ETL_IN_BINARY        = 14,
  SPS_ETL_IN_GUID          = 15,
  SPS_ETL_IN_POINTER       = 16,
  SPS_ETL_IN_FILETIME      = 17,
  SPS_ETL_IN_SYSTEMTIME    = 18,
  SPS_ETL_IN_SID           = 19,
  SPS_ETL_IN_HEXINT32      = 20,
  SPS_ETL_IN_HEXINT64      = 21,
  SPS_ETL_IN_COUNTED_UNICODE = 22,  /* u16 byte count, then UTF-16 */
  SPS_ETL_IN_COUNTED_ANSI  = 23,
  SPS_ETL_IN_STRUCT        = 24,
  SPS_ETL_IN_COUNTED_BINARY = 25,
} SpsEtlInType;

/* Where a count (of array elements) or a length (of bytes or characters)
 * comes from */
typedef enum
{
  SPS_ETL_SIZE_NONE,
  SPS_ETL_SIZE_FIXED,       /* the number in the description */
  SPS_ETL_SIZE_FIELD,       /* the value of an earlier top-level field */
  SPS_ETL_SIZE_DATA_U16,    /* a u16 in the payload before the elements */
} SpsEtlSizeKind;

typedef struct
{
  char           *name;
  guint8          in_type;      /* SpsEtlInType */
  guint8          out_type;     /* TraceLogging's; 3 = boolean */
  guint8          count_kind;   /* SpsEtlSizeKind: an array when not NONE */
  guint8          length_kind;  /* SpsEtlSizeKind: of a string or binary */
  guint16         count;        /* FIXED: the count; FIELD: the field's index */
  guint16         length;
  guint16         n_members;    /* a struct's: the fields that follow it */
  guint16         span;         /* entries it takes with its members (computed) */
  gboolean        hidden;       /* not shown (a binary's length, as TraceEvent drops it) */
} SpsEtlField;

/* A payload's layout: fields in order, a struct followed by its members */
typedef struct _SpsEtlLayout SpsEtlLayout;

typedef enum
{
  SPS_ETL_FIELDS_COMPLETE,      /* every field decoded */
  SPS_ETL_FIELDS_PARTIAL,       /* a field ran past the payload: the rest is raw */
} SpsEtlFieldsStatus;

SpsEtlLayout      *sps_etl_layout_new            (void);
void               sps_etl_layout_free           (SpsEtlLayout       *self);
SpsEtlField       *sps_etl_layout_add            (SpsEtlLayout       *self,
                                                  const char         *name,
                                                  SpsEtlInType        in_type);
guint              sps_etl_layout_get_n_fields   (SpsEtlLayout       *self);
gint               sps_etl_layout_find           (SpsEtlLayout       *self,
                                                  const char         *name);
SpsEtlField       *sps_etl_layout_get            (SpsEtlLayout       *self,
                                                  guint               index);
gboolean           sps_etl_layout_is_valid       (SpsEtlLayout       *self);
void               sps_etl_layout_set_open_end   (SpsEtlLayout       *self);
char              *sps_etl_dup_provider_name     (const SpsEtlRecord *record);
char              *sps_etl_tracelogging_event_name (const guint8     *schema,
                                                  gsize               len,
                                                  const guint8      **fields,
                                                  const guint8      **fields_end);
SpsEtlLayout      *sps_etl_layout_new_tracelogging (const guint8     *schema,
                                                  gsize               len,
                                                  char              **event_name);
const guint8      *sps_etl_record_find_item      (const SpsEtlRecord *record,
                                                  guint               item_type,
                                                  gsize              *len);
const guint8      *sps_etl_find_tracelogging_schema (const SpsEtlRecord *record,
                                                  gsize              *len);
SpsEtlFieldsStatus sps_etl_layout_check          (SpsEtlLayout       *self,
                                                  guint               pointer_size,
                                                  const guint8       *payload,
                                                  gsize               len);
SpsEtlFieldsStatus sps_etl_layout_append         (SpsEtlLayout       *self,
                                                  GString            *out,
                                                  guint               pointer_size,
                                                  const guint8       *payload,
                                                  gsize               len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlLayout, sps_etl_layout_free)

G_END_DECLS
