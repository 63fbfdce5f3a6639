/* fuzz-chrome-gzip.c: the input, gzip-compressed, through the Chrome JSON
 * importer (the decompressor, its limits and its progress); the text
 * itself is the JSON the fuzzer mutates. An input that already starts
 * with the gzip magic is imported as it is, so that broken, cut and
 * concatenated members are explored too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-chrome-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

static GBytes *
compress (const guint8 *data,
          gsize         len)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize in_pos = 0;

  for (;;)
    {
      guint8 buffer[16384];
      gsize bytes_read = 0;
      gsize bytes_written = 0;
      GConverterResult res;

      res = g_converter_convert (G_CONVERTER (compressor), data + in_pos, len - in_pos,
                                 buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                 &bytes_read, &bytes_written, NULL);
      g_assert (res != G_CONVERTER_ERROR);
      in_pos += bytes_read;
      g_byte_array_append (out, buffer, bytes_written);
      if (res == G_CONVERTER_FINISHED)
        break;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) gz = NULL;
  const guint8 *bytes = data;
  gsize len = size;

  sps_fuzz_init ();
  if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b))
    {
      gz = compress (data, size);
      bytes = g_bytes_get_data (gz, &len);
    }
  return sps_fuzz_run_importer (SPS_TYPE_CHROME_IMPORTER, bytes, len, sps_fuzz_chrome_options ());
}
