/* sps-etl-reader.h: the buffers and records of a Windows ETW trace (.etl)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How a record's header is laid out (the header type byte of the record) */
typedef enum
{
  SPS_ETL_RECORD_SYSTEM,        /* kernel events: group, opcode, version, tid, pid */
  SPS_ETL_RECORD_COMPACT,       /* the same, without the processor times */
  SPS_ETL_RECORD_PERFINFO,      /* kernel PerfInfo events: no tid, no pid */
  SPS_ETL_RECORD_FULL,          /* classic providers, by GUID */
  SPS_ETL_RECORD_INSTANCE,      /* classic, with instance ids */
  SPS_ETL_RECORD_EVENT_HEADER,  /* manifest and TraceLogging providers */
  SPS_ETL_N_RECORD_KINDS
} SpsEtlRecordKind;

#define SPS_ETL_NO_ID G_MAXUINT32

/* One record as it is in the file: what its header says, and where its
 * payload is. Pointers point into the buffer being read and are valid
 * only during the callback. */
typedef struct
{
  SpsEtlRecordKind  kind;
  guint             pointer_size;   /* of the payload's pointers: 4 or 8 */
  guint64           timestamp;      /* in the trace's clock (QPC ticks) */
  guint32           pid;            /* SPS_ETL_NO_ID when the header has none */
  guint32           tid;
  guint16           processor;      /* from the buffer's header */

  /* Kernel events (system, compact, PerfInfo): group and opcode;
   * classic and EventHeader events: opcode. Version: every kind. */
  guint8            group;
  guint8            opcode;
  guint16           version;

  /* Classic and EventHeader events */
  const guint8     *provider;       /* 16 bytes (a GUID as stored), or NULL */
  guint16           id;             /* EventHeader's descriptor id, else 0 */
  guint8            level;
  guint16           flags;          /* EventHeader's flags, else 0 */
  const guint8     *extended;       /* EventHeader's extended data items */
  gsize             extended_len;

  const guint8     *payload;
  gsize             payload_len;
  gsize             offset;         /* of the record: in the file, or in its
                                     * buffer's expanded data when compressed */
  gsize             buffer_offset;  /* of the buffer in the file */
  gsize             buffer_pos;     /* of the record in its buffer's data
                                     * (after the buffer's header, expanded) */
  gboolean          buffer_expanded; /* its buffer was decompressed */
} SpsEtlRecord;

/* The log file header: the payload of the first record of the first
 * buffer */
typedef struct
{
  guint32  pointer_size;
  guint32  n_processors;
  guint32  log_file_mode;
  guint32  events_lost;
  guint32  buffers_lost;
  guint32  clock_type;       /* 1 QPC, 2 system time, 3 CPU cycles */
  guint64  perf_freq;        /* clock ticks per second */
  guint64  start_ticks;      /* the header record's timestamp */
  gint64   start_time;       /* FILETIME: 100 ns since 1601 */
  gint64   boot_time;        /* FILETIME */
  guint32  compression;      /* 0 none, 2 LZNT1, 3 LZ77, 4 LZ77+Huffman */
  char    *session_name;     /* UTF-8, may be empty */
} SpsEtlHeader;

#define SPS_ETL_LOG_FILE_MODE_COMPRESSED 0x04000000

/* Expands a compressed buffer's data (@in, @in_len) into at most @out_len
 * bytes of @out; returns how many, or -1 with @error set when it cannot.
 * (The MS-XCA decoders have this form.) */
typedef gssize (*SpsEtlDecompressFunc) (guint32        compression,
                                        const guint8  *in,
                                        gsize          in_len,
                                        guint8        *out,
                                        gsize          out_len,
                                        GError       **error);

typedef struct
{
  /* Called once, before any record */
  void     (*header)  (const SpsEtlHeader *header,
                       gpointer            user_data);
  /* Every record in file order (the first, the header's, too) */
  void     (*record)  (const SpsEtlRecord *record,
                       gpointer            user_data);
  /* Something was skipped: @kind names the warning, @message says where
   * (file and byte offset) and what */
  void     (*warning) (const char         *kind,
                       const char         *message,
                       gpointer            user_data);
  /* Optional: without it, compressed buffers are skipped with a warning */
  SpsEtlDecompressFunc decompress;
  /* Optional: called before each buffer at @offset of the file's @len
   * bytes; %FALSE stops the reading there (the caller was cancelled) */
  gboolean (*buffer)  (gsize               offset,
                       gsize               len,
                       gpointer            user_data);
} SpsEtlReaderFuncs;

typedef struct
{
  guint64 n_buffers;
  guint64 n_compressed_buffers;
  guint64 n_skipped_buffers;
  guint64 n_records[SPS_ETL_N_RECORD_KINDS];
  guint64 n_records_32;       /* of those, records with 32-bit pointers */
} SpsEtlStats;

gboolean sps_etl_read          (const guint8            *data,
                                gsize                    len,
                                const char              *display_name,
                                const SpsEtlReaderFuncs *funcs,
                                gpointer                 user_data,
                                SpsEtlStats             *stats,
                                GError                 **error);

gboolean sps_etl_read_header     (const guint8            *data,
                                gsize                    len,
                                SpsEtlHeader            *header);
const guint8 *sps_etl_buffer_data (const guint8          *data,
                                   gsize                  len,
                                   gsize                  offset,
                                   gboolean               expanded_by_reader,
                                   guint32                compression,
                                   SpsEtlDecompressFunc   decompress,
                                   guint8               **expanded,
                                   gsize                 *data_len,
                                   GError               **error);
gboolean sps_etl_record_at      (const guint8            *data,
                                gsize                    len,
                                gsize                    pos,
                                SpsEtlRecord            *record);

gboolean sps_etl_has_magic      (const guint8 *data,
                                gsize         len);
gboolean sps_etl_guid_parse    (const char   *text,
                                guint8        guid[16]);
char    *sps_etl_guid_to_string (const guint8 *guid);

G_END_DECLS
