/* sps-ms-type-name.c: .NET type names as C# writes them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The runtime names types as reflection does: generic types with their
 * arity after a backquote and their arguments in brackets
 * ("System.Collections.Generic.Dictionary`2[System.String,System.Object]",
 * arguments possibly assembly-qualified in a second pair of brackets),
 * nested types after '+'. Visual Studio's allocation tool shows them as C#
 * does: "System.Collections.Generic.Dictionary<System.String, System.Object>".
 */

#define G_LOG_DOMAIN "sps-mstrace"

#include "config.h"

#include <string.h>

#include "sps-ms-type-name.h"

/* Generic arguments nested deeper than this are not a real name */
#define MAX_DEPTH 32

static gboolean parse_type (const char **p,
                            GString     *out,
                            guint        depth);

/* One generic argument: a type, or an assembly-qualified one in brackets */
static gboolean
parse_argument (const char **p,
                GString     *out,
                guint        depth)
{
  if (**p != '[')
    return parse_type (p, out, depth);

  (*p)++;
  if (!parse_type (p, out, depth))
    return FALSE;
  /* ", Assembly, Version=…, Culture=…, PublicKeyToken=…" */
  while (**p != '\0' && **p != ']')
    {
      if (**p == '[')
        return FALSE;
      (*p)++;
    }
  if (**p != ']')
    return FALSE;
  (*p)++;
  return TRUE;
}

static gboolean
parse_type (const char **p,
            GString     *out,
            guint        depth)
{
  gboolean any = FALSE;
  gboolean arity = FALSE;   /* a generic type's arguments may follow */

  if (depth > MAX_DEPTH)
    return FALSE;

  for (;;)
    {
      char c = **p;

      if (c == '`')
        {
          /* The arity: the arguments that follow say it */
          (*p)++;
          while (g_ascii_isdigit (**p))
            (*p)++;
          arity = TRUE;
          continue;
        }
      if (c == '[' && arity && (*p)[1] != ']' && (*p)[1] != ',' && (*p)[1] != '*')
        {
          /* Generic arguments */
          (*p)++;
          g_string_append_c (out, '<');
          for (guint i = 0; ; i++)
            {
              if (i > 0)
                g_string_append (out, ", ");
              if (!parse_argument (p, out, depth + 1))
                return FALSE;
              if (**p == ',')
                {
                  (*p)++;
                  continue;
                }
              break;
            }
          if (**p != ']')
            return FALSE;
          (*p)++;
          g_string_append_c (out, '>');
          arity = FALSE;
          continue;
        }
      if (c == '\0' || c == '[' || c == ']' || c == ',' || c == '*' || c == '&')
        break;
      g_string_append_c (out, c == '+' ? '.' : c);
      any = TRUE;
      (*p)++;
    }

  /* Arrays ("[]", "[,]", "[*]"), pointers and references stay as they are */
  while (**p == '[' || **p == '*' || **p == '&')
    {
      if (**p == '[')
        {
          const char *close = strchr (*p, ']');

          if (close == NULL || strspn (*p + 1, ",*") != (gsize) (close - *p - 1))
            return FALSE;
          g_string_append_len (out, *p, close - *p + 1);
          *p = close + 1;
        }
      else
        {
          g_string_append_c (out, **p);
          (*p)++;
        }
    }
  return any;
}

/**
 * sps_ms_type_display_name:
 * @name: a type's name as the runtime writes it
 *
 * Returns: (transfer full): the name as C# writes it, or a copy of @name
 *   when it is not a well-formed reflection name
 */
char *
sps_ms_type_display_name (const char *name)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = name;

  g_return_val_if_fail (name != NULL, NULL);

  if (!parse_type (&p, out, 0) || *p != '\0')
    return g_strdup (name);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
