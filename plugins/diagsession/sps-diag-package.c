/* sps-diag-package.c: a Visual Studio .diagsession package and its resources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A .diagsession is a ZIP (an OPC package) whose metadata.xml lists its
 * resources: each has a type, which says what it holds, and lives in the
 * member <prefix>/<name>. Resources are chosen by type, never by name or
 * member order. The other physical form, an OLE compound file, is
 * recognised and refused with a message that says so.
 *
 * PerfView ships ETL traces as ZIPs too (`.etl.zip`, and a session's
 * several ETLs in one ZIP): such a ZIP has no metadata.xml, and each of
 * its `.etl` members stands for an ETL resource.
 */

#define G_LOG_DOMAIN "sps-diagsession"

#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n-lib.h>
#include <spanscope-core.h>

#include "sps-diag-package.h"
#include "sps-diag-zip.h"
#include "sps-etl-private.h"

#define METADATA_MEMBER "metadata.xml"
/* How much of a member is expanded at a time */
#define READ_CHUNK ((guint64) 1 << 16)
/* A manifest lists a few resources; more than this is not one */
#define MAX_METADATA_SIZE ((gsize) 16 << 20)
#define MAX_DEFLATE_RATIO 1032

static const guint8 zip_magic[4] = { 'P', 'K', 3, 4 };
static const guint8 cfb_magic[8] = { 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1 };

struct _SpsDiagPackage
{
  GBytes     *bytes;
  char       *display_name;
  const SpsDiagZip *z;      /* libzip's functions */
  zip_t      *zip;
  GPtrArray  *resources;      /* SpsDiagResource */
  GHashTable *metadata;       /* Item Key → text */
  gboolean    manifest;       /* FALSE: a ZIP of ETL files */
};

/* metadata.xml */

typedef struct
{
  SpsDiagPackage *package;
  char           *item_key;   /* inside an Item element */
  GString        *item_text;
} ParseState;

static void
resource_free (gpointer data)
{
  SpsDiagResource *r = data;

  g_free (r->id);
  g_free (r->type);
  g_free (r->name);
  g_free (r->prefix);
  g_free (r->member);
  g_free (r);
}

/* An element's name without its namespace prefix */
static const char *
local_name (const char *element)
{
  const char *colon = strchr (element, ':');

  return colon != NULL ? colon + 1 : element;
}

static void
start_element (GMarkupParseContext  *context,
               const char           *element,
               const char          **names,
               const char          **values,
               gpointer              user_data,
               GError              **error)
{
  ParseState *state = user_data;
  const char *local = local_name (element);

  if (g_strcmp0 (local, "Resource") == 0)
    {
      SpsDiagResource *r = g_new0 (SpsDiagResource, 1);
      const char *prefix = sps_etl_xml_attribute (names, values, "ResourcePackageUriPrefix");
      const char *directory = sps_etl_xml_attribute (names, values, "IsDirectoryOnDisk");

      r->id = g_strdup (sps_etl_xml_attribute (names, values, "Id"));
      r->type = g_strdup (sps_etl_xml_attribute (names, values, "Type"));
      r->name = g_strdup (sps_etl_xml_attribute (names, values, "Name"));
      r->prefix = g_strdup (prefix != NULL ? prefix : "");
      r->directory = directory != NULL && g_ascii_strcasecmp (directory, "true") == 0;
      if (r->name != NULL)
        r->member = r->prefix[0] != '\0' ? g_strconcat (r->prefix, "/", r->name, NULL) : g_strdup (r->name);
      g_ptr_array_add (state->package->resources, r);
    }
  else if (g_strcmp0 (local, "Item") == 0)
    {
      g_clear_pointer (&state->item_key, g_free);
      state->item_key = g_strdup (sps_etl_xml_attribute (names, values, "Key"));
      g_string_truncate (state->item_text, 0);
      /* Some writers put the value in an attribute */
      if (sps_etl_xml_attribute (names, values, "Value") != NULL)
        g_string_append (state->item_text, sps_etl_xml_attribute (names, values, "Value"));
    }
}

static void
end_element (GMarkupParseContext  *context,
             const char           *element,
             gpointer              user_data,
             GError              **error)
{
  ParseState *state = user_data;
  const char *local = local_name (element);

  if (g_strcmp0 (local, "Item") == 0 && state->item_key != NULL)
    {
      g_hash_table_replace (state->package->metadata, g_steal_pointer (&state->item_key),
                            g_strstrip (g_strdup (state->item_text->str)));
    }
}

static void
text (GMarkupParseContext  *context,
      const char           *str,
      gsize                 len,
      gpointer              user_data,
      GError              **error)
{
  ParseState *state = user_data;

  if (state->item_key != NULL)
    g_string_append_len (state->item_text, str, (gssize) len);
}

static gboolean
parse_metadata (SpsDiagPackage *self,
                GBytes         *xml,
                GError        **error)
{
  static const GMarkupParser parser = { start_element, end_element, text, NULL, NULL };
  ParseState state = { self, NULL, g_string_new (NULL) };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize len;
  const char *data = g_bytes_get_data (xml, &len);
  gboolean ok;

  /* A UTF-8 byte order mark is allowed before the declaration */
  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    {
      data += 3;
      len -= 3;
    }

  context = g_markup_parse_context_new (&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &state, NULL);
  ok = g_markup_parse_context_parse (context, data, (gssize) len, &local_error) &&
       g_markup_parse_context_end_parse (context, &local_error);
  g_free (state.item_key);
  g_string_free (state.item_text, TRUE);

  if (!ok)
    {
      /* Translators: a file name, a member of it, then what is wrong there */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, _("%s: %s: %s"),
                   self->display_name, METADATA_MEMBER, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* The package */

void
sps_diag_package_free (SpsDiagPackage *self)
{
  if (self == NULL)
    return;
  if (self->zip != NULL)
    self->z->zip_discard (self->zip);
  g_clear_pointer (&self->resources, g_ptr_array_unref);
  g_clear_pointer (&self->metadata, g_hash_table_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_free (self->display_name);
  g_free (self);
}

static GBytes *
read_member (SpsDiagPackage *self,
             const char     *member,
             gsize           max_size,
             GError        **error)
{
  zip_stat_t st;
  zip_file_t *file;
  g_autofree guint8 *data = NULL;
  zip_int64_t got;
  guint64 done;

  self->z->zip_stat_init (&st);
  if (self->z->zip_stat (self->zip, member, 0, &st) != 0 || (st.valid & ZIP_STAT_SIZE) == 0)
    {
      /* Translators: a file name, then the name of a member of it */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, _("%s: the package has no member “%s”"),
                   self->display_name, member);
      return NULL;
    }
  if (st.size > max_size)
    {
      g_autofree char *size = g_format_size (st.size);
      g_autofree char *limit = g_format_size (max_size);

      /* Translators: a file name, a member of it, its size, then the limit */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE,
                   _("%s: %s: its %s are more than the %s this reads"),
                   self->display_name, member, size, limit);
      return NULL;
    }

  /* Deflate expands at most about 1,032 to 1, and a stored member not at
   * all: a member that says it holds more than its bytes can give is
   * damaged or crafted, and its size is not allocated */
  if ((st.valid & (ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD)) == (ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD) &&
      (st.comp_method == ZIP_CM_STORE || st.comp_method == ZIP_CM_DEFLATE) &&
      st.size > (st.comp_method == ZIP_CM_STORE ? st.comp_size : st.comp_size * MAX_DEFLATE_RATIO + 64))
    {
      /* Translators: a file name, a member of it, then two byte counts */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                   _("%s: %s: it says it expands to %" PRIu64 " bytes, more than its %" PRIu64
                     " compressed bytes can hold"),
                   self->display_name, member, (uint64_t) st.size, (uint64_t) st.comp_size);
      return NULL;
    }

  file = self->z->zip_fopen_index (self->zip, st.index, 0);
  if (file == NULL)
    {
      /* Translators: a file name, a member of it, then what is wrong */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, _("%s: %s: %s"),
                   self->display_name, member, self->z->zip_strerror (self->zip));
      return NULL;
    }

  data = g_malloc (MAX (st.size, 1));
  /* In chunks, so that damage is placed within a chunk of the expanded
   * member (libzip says what, not where) */
  for (done = 0, got = 0; done < st.size; done += (guint64) got)
    {
      got = self->z->zip_fread (file, data + done, MIN (st.size - done, READ_CHUNK));
      if (got <= 0)
        break;
    }
  /* A damaged member: a short read or a bad CRC at its end */
  if (done != st.size || got < 0)
    {
      g_autofree char *message = g_strdup (got < 0 ? self->z->zip_file_strerror (file)
                                                   : _("the member ends early"));

      self->z->zip_fclose (file);
      /* Translators: a file name, a member, a byte offset in it, then what is wrong */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TRUNCATED, _("%s: %s (byte %zu): %s"),
                   self->display_name, member, (gsize) done, message);
      return NULL;
    }
  self->z->zip_fclose (file);

  return g_bytes_new_take (g_steal_pointer (&data), st.size);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* A ZIP without a manifest: its .etl members, in name order (the order
 * of a ZIP's members says nothing) */
static gboolean
list_etl_members (SpsDiagPackage *self)
{
  zip_int64_t n = self->z->zip_get_num_entries (self->zip, 0);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (zip_int64_t i = 0; i < n; i++)
    {
      const char *name = self->z->zip_get_name (self->zip, i, ZIP_FL_ENC_GUESS);
      gsize len = name != NULL ? strlen (name) : 0;

      if (len > 4 && g_ascii_strcasecmp (name + len - 4, ".etl") == 0)
        g_ptr_array_add (names, (gpointer) name);
    }
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      SpsDiagResource *r = g_new0 (SpsDiagResource, 1);
      const char *member = g_ptr_array_index (names, i);
      const char *slash = strrchr (member, '/');

      r->type = g_strdup (SPS_DIAG_RESOURCE_ETL);
      r->name = g_strdup (slash != NULL ? slash + 1 : member);
      r->prefix = slash != NULL ? g_strndup (member, slash - member) : g_strdup ("");
      r->member = g_strdup (member);
      g_ptr_array_add (self->resources, r);
    }
  return names->len > 0;
}

/**
 * sps_diag_package_open:
 * @bytes: the whole file
 * @display_name: its name for messages
 * @error: why it cannot be read
 *
 * Opens a .diagsession's ZIP and reads its manifest.
 *
 * Returns: (transfer full) (nullable): the package
 */
SpsDiagPackage *
sps_diag_package_open (GBytes      *bytes,
                       const char  *display_name,
                       GError     **error)
{
  g_autoptr(SpsDiagPackage) self = g_new0 (SpsDiagPackage, 1);
  g_autoptr(GBytes) xml = NULL;
  zip_source_t *source;
  zip_error_t zerror;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  self->bytes = g_bytes_ref (bytes);
  self->display_name = g_strdup (display_name);
  self->resources = g_ptr_array_new_with_free_func (resource_free);
  self->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  if (len >= sizeof cfb_magic && memcmp (data, cfb_magic, sizeof cfb_magic) == 0)
    {
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED,
                   _("%s: a .diagsession in the OLE compound file form; only ZIP packages are read"),
                   display_name);
      return NULL;
    }
  if (len < sizeof zip_magic || memcmp (data, zip_magic, sizeof zip_magic) != 0)
    {
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                   _("%s: not a .diagsession package (not a ZIP file)"), display_name);
      return NULL;
    }

  if ((self->z = sps_diag_zip_get (error)) == NULL)
    {
      g_prefix_error (error, "%s: ", display_name);
      return NULL;
    }
  self->z->zip_error_init (&zerror);
  source = self->z->zip_source_buffer_create (len > 0 ? data : NULL, len, 0, &zerror);
  if (source != NULL)
    {
      self->zip = self->z->zip_open_from_source (source, ZIP_RDONLY | ZIP_CHECKCONS, &zerror);
      if (self->zip == NULL)
        self->z->zip_source_free (source);
    }
  if (self->zip == NULL)
    {
      /* Translators: a file name, then what is wrong with it as a ZIP */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, _("%s: damaged ZIP archive: %s"),
                   display_name, self->z->zip_error_strerror (&zerror));
      self->z->zip_error_fini (&zerror);
      return NULL;
    }
  self->z->zip_error_fini (&zerror);

  if (self->z->zip_name_locate (self->zip, METADATA_MEMBER, ZIP_FL_NOCASE) < 0)
    {
      if (list_etl_members (self))
        return g_steal_pointer (&self);
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                   _("%s: a ZIP file without metadata.xml, so not a .diagsession package"), display_name);
      return NULL;
    }
  self->manifest = TRUE;
  if (!(xml = read_member (self, METADATA_MEMBER, MAX_METADATA_SIZE, error)) ||
      !parse_metadata (self, xml, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sps_diag_package_has_manifest:
 * @self: a package
 *
 * Returns: %TRUE for a .diagsession (a ZIP with metadata.xml), %FALSE for
 *   a ZIP of ETL files
 */
gboolean
sps_diag_package_has_manifest (SpsDiagPackage *self)
{
  return self->manifest;
}

/**
 * sps_diag_package_get_resources:
 * @self: a package
 *
 * Returns: (transfer none) (element-type SpsDiagResource): every resource
 *   of the manifest, in its order
 */
GPtrArray *
sps_diag_package_get_resources (SpsDiagPackage *self)
{
  return self->resources;
}

/**
 * sps_diag_package_find:
 * @self: a package
 * @type: a resource type, e.g. %SPS_DIAG_RESOURCE_ETL
 *
 * Returns: (transfer container) (element-type SpsDiagResource): the
 *   resources of @type that are files (not folders), in manifest order
 */
GPtrArray *
sps_diag_package_find (SpsDiagPackage *self,
                       const char     *type)
{
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < self->resources->len; i++)
    {
      SpsDiagResource *r = g_ptr_array_index (self->resources, i);

      if (g_strcmp0 (r->type, type) == 0 && !r->directory && r->member != NULL)
        g_ptr_array_add (found, r);
    }
  return found;
}

/**
 * sps_diag_package_get_metadata:
 * @self: a package
 * @key: an Item key of the manifest's Metadata, e.g. "_BuildVersion"
 *
 * Returns: (nullable): its text
 */
const char *
sps_diag_package_get_metadata (SpsDiagPackage *self,
                               const char     *key)
{
  return g_hash_table_lookup (self->metadata, key);
}

/**
 * sps_diag_package_read:
 * @self: a package
 * @resource: one of its resources
 * @max_size: the most bytes to read
 * @error: why not: the member is missing, larger than @max_size, or
 *   damaged (the message names the member and where)
 *
 * Returns: (transfer full) (nullable): the resource's bytes
 */
GBytes *
sps_diag_package_read (SpsDiagPackage        *self,
                       const SpsDiagResource *resource,
                       gsize                  max_size,
                       GError               **error)
{
  g_return_val_if_fail (resource->member != NULL, NULL);

  return read_member (self, resource->member, max_size, error);
}
