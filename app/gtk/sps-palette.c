/* sps-palette.c: the fixed colours of slices, picked by name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-palette"

#include "config.h"

#include "sps-palette.h"
#include "sps-palette-private.h"

/* Sixteen hues, each in a bright and a muted variant, so that neighbours
 * in the table still differ when two names hash next to each other. The
 * light-theme colours are pastel enough for dark text; the dark-theme ones
 * are the same hues, darker, for light text on a dark background. */
static const guint32 light_colors[SPS_PALETTE_SIZE] = {
  0xe89c9c, 0xcf8181, 0xe8b89c, 0xcf9e81, 0xe8ce9c, 0xcfb581, 0xe8e19c, 0xcfc981,
  0xc8e89c, 0xafcf81, 0x9ce89c, 0x81cf81, 0x9ce8c2, 0x81cfa8, 0x9ce8db, 0x81cfc2,
  0x9cdee8, 0x81c5cf, 0x9ccee8, 0x81b5cf, 0x9cbbe8, 0x81a2cf, 0x9ca9e8, 0x818ecf,
  0xa99ce8, 0x8e81cf, 0xc29ce8, 0xa881cf, 0xdb9ce8, 0xc281cf, 0xe89cce, 0xcf81b5,
};

static const guint32 dark_colors[SPS_PALETTE_SIZE] = {
  0x983e3e, 0x763737, 0x985f3e, 0x764e37, 0x987a3e, 0x766137, 0x98913e, 0x767137,
  0x73983e, 0x5c7637, 0x3e983e, 0x377637, 0x3e986b, 0x377657, 0x3e9889, 0x37766c,
  0x3e8c98, 0x376e76, 0x3e7a98, 0x376176, 0x3e6498, 0x375176, 0x3e4d98, 0x374276,
  0x4d3e98, 0x423776, 0x6b3e98, 0x573776, 0x893e98, 0x6c3776, 0x983e7a, 0x763761,
};

typedef struct
{
  GdkRGBA fill[2][SPS_PALETTE_SIZE];
  GdkRGBA text[2];
} Palette;

static void
rgba_from_hex (GdkRGBA *rgba,
               guint32  hex)
{
  rgba->red = ((hex >> 16) & 0xff) / 255.f;
  rgba->green = ((hex >> 8) & 0xff) / 255.f;
  rgba->blue = (hex & 0xff) / 255.f;
  rgba->alpha = 1.f;
}

static const Palette *
get_palette (void)
{
  static Palette palette;
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
        {
          rgba_from_hex (&palette.fill[0][i], light_colors[i]);
          rgba_from_hex (&palette.fill[1][i], dark_colors[i]);
        }
      rgba_from_hex (&palette.text[0], 0x1c1c1c);
      rgba_from_hex (&palette.text[1], 0xf4f4f4);
      g_once_init_leave (&initialized, 1);
    }

  return &palette;
}

/**
 * _sps_palette_hash:
 * @str: bytes to hash
 * @len: their length, or -1 when @str is nul-terminated
 *
 * 32-bit FNV-1a over the bytes: the same name gets the same colour in
 * every run, on every machine, whatever the string ids of the trace.
 *
 * Returns: the hash
 */
guint32
_sps_palette_hash (const char *str,
                   gssize      len)
{
  const guchar *p = (const guchar *) str;
  guint32 hash = 2166136261u;

  g_return_val_if_fail (str != NULL || len == 0, 0);

  if (len < 0)
    {
      for (; *p != '\0'; p++)
        {
          hash ^= *p;
          hash *= 16777619u;
        }
    }
  else
    {
      for (gssize i = 0; i < len; i++)
        {
          hash ^= p[i];
          hash *= 16777619u;
        }
    }

  return hash;
}

/**
 * _sps_palette_index_for_name:
 * @name: a slice name
 * @len: its length, or -1 when nul-terminated
 *
 * Returns: the palette entry of @name, below %SPS_PALETTE_SIZE
 */
guint
_sps_palette_index_for_name (const char *name,
                             gssize      len)
{
  g_return_val_if_fail (name != NULL || len == 0, 0);

  return _sps_palette_hash (name, len) % SPS_PALETTE_SIZE;
}

/**
 * _sps_palette_get_color:
 * @index: a palette entry
 * @dark: the colour for a dark theme
 *
 * Returns: (transfer none): the fill colour of the entry
 */
const GdkRGBA *
_sps_palette_get_color (guint    index,
                        gboolean dark)
{
  g_return_val_if_fail (index < SPS_PALETTE_SIZE, NULL);

  return &get_palette ()->fill[dark ? 1 : 0][index];
}

/**
 * _sps_palette_get_text_color:
 * @index: a palette entry
 * @dark: the colour for a dark theme
 *
 * Every fill of one theme is light (or dark) enough for the same text
 * colour, so the entry only matters for the check.
 *
 * Returns: (transfer none): the colour of a label on the entry's fill
 */
const GdkRGBA *
_sps_palette_get_text_color (guint    index,
                             gboolean dark)
{
  g_return_val_if_fail (index < SPS_PALETTE_SIZE, NULL);

  return &get_palette ()->text[dark ? 1 : 0];
}

/**
 * _sps_palette_color_for_name:
 * @name: a slice name
 * @dark: the colour for a dark theme
 *
 * Returns: (transfer none): the fill colour of slices called @name
 */
const GdkRGBA *
_sps_palette_color_for_name (const char *name,
                             gboolean    dark)
{
  g_return_val_if_fail (name != NULL, NULL);

  return _sps_palette_get_color (_sps_palette_index_for_name (name, -1), dark);
}

/**
 * sps_palette_get_fill_for_name:
 * @name: a slice or frame name
 * @dark: whether the colours are for a dark theme
 *
 * The colour the timeline fills a slice named @name with, so that other
 * views (the flame graph) show the same function in the same colour.
 *
 * Returns: (transfer none): a colour owned by the palette
 */
const GdkRGBA *
sps_palette_get_fill_for_name (const char *name,
                               gboolean    dark)
{
  g_return_val_if_fail (name != NULL, NULL);

  return _sps_palette_get_color (_sps_palette_index_for_name (name, -1), dark);
}

/**
 * sps_palette_get_text_for_name:
 * @name: a slice or frame name
 * @dark: whether the colours are for a dark theme
 *
 * Returns: (transfer none): the colour of a label drawn on
 *   sps_palette_get_fill_for_name()
 */
const GdkRGBA *
sps_palette_get_text_for_name (const char *name,
                               gboolean    dark)
{
  g_return_val_if_fail (name != NULL, NULL);

  return _sps_palette_get_text_color (_sps_palette_index_for_name (name, -1), dark);
}
