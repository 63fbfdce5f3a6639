/* sps-cli-query.c: `spanscope-cli query`, SQL over a trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <math.h>


#include <glib/gi18n.h>

#include "sps-cli.h"

typedef enum
{
  FORMAT_TABLE,
  FORMAT_CSV,
  FORMAT_TSV,
  FORMAT_JSON,
} Format;

static gboolean
write_out (GString *out,
           GError **error)
{
  if (out->len > 0 && fwrite (out->str, 1, out->len, stdout) != out->len)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Could not write to the standard output"));
      return FALSE;
    }
  g_string_truncate (out, 0);
  return TRUE;
}

/* The table shows text on one line: line breaks and tabs become spaces. */
static char *
dup_table_cell (SpsSqlResult *result,
                guint         row,
                guint         col)
{
  char *text = sps_sql_result_dup_display_text (result, row, col);

  if (text == NULL)
    return g_strdup ("NULL");
  for (char *p = text; *p != '\0'; p++)
    if (*p == '\n' || *p == '\r' || *p == '\t')
      *p = ' ';
  return text;
}

static int
text_width (const char *text)
{
  return (int) g_utf8_strlen (text, -1);
}

static void
append_padded (GString    *out,
               const char *text,
               int         width,
               gboolean    right)
{
  int pad = MAX (0, width - text_width (text));

  if (right)
    g_string_append_printf (out, "%*s%s", pad, "", text);
  else
    g_string_append_printf (out, "%s%*s", text, pad, "");
}

static gboolean
print_table (SpsSqlResult  *result,
             GError       **error)
{
  guint n_cols = sps_sql_result_get_n_columns (result);
  guint n_rows = sps_sql_result_get_n_rows (result);
  g_autofree int *widths = g_new0 (int, MAX (n_cols, 1));
  g_autofree gboolean *numeric = g_new0 (gboolean, MAX (n_cols, 1));
  g_autoptr(GString) out = g_string_new (NULL);

  if (n_cols == 0)
    return TRUE;

  for (guint col = 0; col < n_cols; col++)
    {
      SpsSqlType type = sps_sql_result_get_column_type (result, col);

      numeric[col] = type == SPS_SQL_TYPE_INTEGER || type == SPS_SQL_TYPE_REAL;
      widths[col] = text_width (sps_sql_result_get_column_name (result, col));
      for (guint row = 0; row < n_rows; row++)
        {
          g_autofree char *text = dup_table_cell (result, row, col);

          widths[col] = MAX (widths[col], text_width (text));
        }
    }

  for (guint col = 0; col < n_cols; col++)
    {
      if (col > 0)
        g_string_append (out, "  ");
      append_padded (out, sps_sql_result_get_column_name (result, col),
                     col + 1 < n_cols || numeric[col] ? widths[col] : 0, numeric[col]);
    }
  g_string_append_c (out, '\n');
  for (guint col = 0; col < n_cols; col++)
    {
      if (col > 0)
        g_string_append (out, "  ");
      for (int i = 0; i < widths[col]; i++)
        g_string_append_c (out, '-');
    }
  g_string_append_c (out, '\n');

  for (guint row = 0; row < n_rows; row++)
    {
      for (guint col = 0; col < n_cols; col++)
        {
          g_autofree char *text = dup_table_cell (result, row, col);

          if (col > 0)
            g_string_append (out, "  ");
          /* No trailing blanks after a left-aligned last column */
          append_padded (out, text, col + 1 < n_cols || numeric[col] ? widths[col] : 0, numeric[col]);
        }
      g_string_append_c (out, '\n');
      if (out->len > 65536 && !write_out (out, error))
        return FALSE;
    }

  g_string_append_printf (out,
                          /* Translators: the row count under a query's result table */
                          g_dngettext (GETTEXT_PACKAGE, "(%u row)", "(%u rows)", n_rows),
                          n_rows);
  g_string_append_c (out, '\n');

  return write_out (out, error);
}

/* An array of objects, one per row, keys in column order, values typed:
 * integers and reals as JSON numbers (non-finite reals as null), text as
 * strings, blobs as SQL hex literal strings, NULL as null. */
static gboolean
print_json (SpsSqlResult  *result,
            GError       **error)
{
  guint n_cols = sps_sql_result_get_n_columns (result);
  guint n_rows = sps_sql_result_get_n_rows (result);
  g_autoptr(GString) out = g_string_new ("[");

  for (guint row = 0; row < n_rows; row++)
    {
      g_string_append (out, row > 0 ? ",\n  {" : "\n  {");
      for (guint col = 0; col < n_cols; col++)
        {
          const char *name = sps_sql_result_get_column_name (result, col);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_autofree char *text = NULL;
          double d;

          if (col > 0)
            g_string_append (out, ", ");
          sps_json_append_string (out, name, -1);
          g_string_append (out, ": ");

          switch (sps_sql_result_get_value_type (result, row, col))
            {
            case SPS_SQL_TYPE_INTEGER:
              g_string_append_printf (out, "%" G_GINT64_FORMAT,
                                      sps_sql_result_get_int64 (result, row, col));
              break;

            case SPS_SQL_TYPE_REAL:
              d = sps_sql_result_get_double (result, row, col);
              if (isfinite (d))
                g_string_append (out, g_ascii_dtostr (buf, sizeof buf, d));
              else
                g_string_append (out, "null");
              break;

            case SPS_SQL_TYPE_TEXT:
            case SPS_SQL_TYPE_BLOB:
              text = sps_sql_result_dup_display_text (result, row, col);
              sps_json_append_string (out, text, -1);
              break;

            case SPS_SQL_TYPE_NULL:
            case SPS_SQL_TYPE_MIXED:
            default:
              g_string_append (out, "null");
              break;
            }
        }
      g_string_append_c (out, '}');
      if (out->len > 65536 && !write_out (out, error))
        return FALSE;
    }
  g_string_append (out, n_rows > 0 ? "\n]\n" : "]\n");

  return write_out (out, error);
}

/* As sps_sql_result_write_csv() writes it, but to stdout */
static gboolean
print_csv (SpsSqlResult  *result,
           char           separator,
           GError       **error)
{
  guint n_cols = sps_sql_result_get_n_columns (result);
  guint n_rows = sps_sql_result_get_n_rows (result);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree const char **names = g_new0 (const char *, n_cols + 1);

  for (guint col = 0; col < n_cols; col++)
    names[col] = sps_sql_result_get_column_name (result, col);
  sps_csv_append_row (out, names, n_cols, separator);

  for (guint row = 0; row < n_rows; row++)
    {
      for (guint col = 0; col < n_cols; col++)
        {
          g_autofree char *text = sps_sql_result_dup_display_text (result, row, col);

          if (col > 0)
            g_string_append_c (out, separator);
          sps_csv_append_field (out, text, -1, separator);
        }
      g_string_append (out, SPS_CSV_EOL);
      if (out->len > 65536 && !write_out (out, error))
        return FALSE;
    }

  return write_out (out, error);
}

int
sps_cli_query (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GBytes) mask = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format_name = NULL;
  g_autofree char *filter_path = NULL;
  g_autofree char *prgname = g_strdup ("spanscope-cli query");
  g_auto(GStrv) args = g_strdupv (argv);
  SpsCliTimeUnit time_unit = { { FALSE } };
  const char *unit;
  gboolean ok;
  Format format;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      /* Translators: keep table, csv, tsv and json as they are */
      N_("How to print the result: table (default), csv, tsv or json"), N_("FORMAT") },
    { "filter", 0, 0, G_OPTION_ARG_FILENAME, &filter_path,
      /* Translators: keep visible_slices and slice_visible(id) as they are */
      N_("Apply a saved view filter (JSON): the table visible_slices and slice_visible(id) follow it"),
      N_("FILE.json") },
    { NULL }
  };

  g_set_prgname (prgname);
  /* Translators: the arguments of the query command; keep SQL as it is */
  context = g_option_context_new (N_("FILE SQL"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                N_("Run SQL over a trace and print the result. Tables: processes, threads, "
                                   "tracks, slices, instants, counters, flows, samples, callsites, frames, "
                                   "objects, the view events (slices and samples), and visible_slices (the "
                                   "slices --filter shows; all without it). CSV and TSV are quoted as RFC 4180 "
                                   "asks."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  sps_cli_add_time_unit_options (context, &time_unit);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      sps_cli_print_usage_error (context, "%s", error->message);
      return SPS_CLI_EXIT_USAGE;
    }
  if (!sps_cli_get_time_unit (context, &time_unit, &unit))
    return SPS_CLI_EXIT_USAGE;

  if (g_strv_length (args) != 3)
    {
      sps_cli_print_usage_error (context, "%s",
                                 g_strv_length (args) < 2 ? _("missing FILE") :
                                 g_strv_length (args) < 3 ? _("missing SQL") :
                                 _("expected one FILE and one SQL text"));
      return SPS_CLI_EXIT_USAGE;
    }

  if (format_name == NULL || g_strcmp0 (format_name, "table") == 0)
    format = FORMAT_TABLE;
  else if (g_strcmp0 (format_name, "csv") == 0)
    format = FORMAT_CSV;
  else if (g_strcmp0 (format_name, "tsv") == 0)
    format = FORMAT_TSV;
  else if (g_strcmp0 (format_name, "json") == 0)
    format = FORMAT_JSON;
  else
    {
      /* Translators: %s is what the user gave to --format */
      sps_cli_print_usage_error (context, _("unknown output format “%s” (table, csv, tsv or json)"),
                                 format_name);
      return SPS_CLI_EXIT_USAGE;
    }

  trace = sps_cli_load_trace (args[1], unit, SPS_LOAD_FLAGS_NONE, &error);
  if (trace == NULL)
    return sps_cli_report_load_error (error);

  if (filter_path != NULL)
    {
      g_autoptr(SpsViewFilter) filter = sps_view_filter_new (trace);
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (filter_path);

      /* The file's name leads the message */
      if (!sps_view_filter_load_file (filter, file, &error))
        {
          fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
          return SPS_CLI_EXIT_BAD_INPUT;
        }
      mask = sps_view_filter_dup_mask (filter);
    }

  engine = sps_sql_engine_new (trace, &error);
  if (engine != NULL)
    {
      sps_sql_engine_set_slice_mask (engine, mask);
      result = sps_sql_engine_query (engine, args[2], NULL, NULL, &error);
    }
  if (result == NULL)
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  switch (format)
    {
    case FORMAT_CSV:
      ok = print_csv (result, ',', &error);
      break;
    case FORMAT_TSV:
      ok = print_csv (result, '\t', &error);
      break;
    case FORMAT_JSON:
      ok = print_json (result, &error);
      break;
    case FORMAT_TABLE:
    default:
      ok = print_table (result, &error);
      break;
    }

  if (!ok || fflush (stdout) != 0)
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (),
               error != NULL ? error->message : _("Could not write to the standard output"));
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  return SPS_CLI_EXIT_OK;
}
