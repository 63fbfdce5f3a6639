/* bench-simdjson.cc: the baseline of issue 19's import target
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A program that does the least a Chrome JSON importer must do, with the
 * fastest JSON parser Debian ships: simdjson's On-Demand API, on one
 * thread, walks every event of a trace and reads its seven main fields
 * (name, cat, ph, ts, dur, pid, tid), nothing else. Spanscope's import
 * (parse + finish, both cores) is measured against it in the same run by
 * bench-import --simdjson.
 *
 *   bench-simdjson FILE
 *
 * prints the wall and CPU seconds of reading the file and of walking its
 * events ("wall LOAD WALK", "cpu LOAD WALK") and "events N"; the checksum
 * line keeps the compiler from skipping reads.
 */

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>

#include <simdjson.h>

using namespace simdjson;

static double
seconds (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A number, or a string (pid and tid are strings in some traces) */
static uint64_t
read_id (ondemand::value value)
{
  ondemand::json_type type;

  if (value.type ().get (type) != SUCCESS)
    return 0;
  if (type == ondemand::json_type::number)
    {
      double d = 0;
      if (value.get_double ().get (d) != SUCCESS)
        return 0;
      return (uint64_t) d;
    }
  std::string_view s;
  if (value.get_string ().get (s) == SUCCESS)
    return s.size ();
  return 0;
}

/* Keys compared as they are written (no unescaping: the seven keys have
 * nothing to escape), the fastest way On-Demand offers */
static bool
walk_event (ondemand::object event,
            uint64_t        *checksum)
{
  for (auto field : event)
    {
      ondemand::raw_json_string key;
      ondemand::value value;
      std::string_view s;
      double d;

      if (field.key ().get (key) != SUCCESS || field.value ().get (value) != SUCCESS)
        return false;
      if (key.unsafe_is_equal ("name") || key.unsafe_is_equal ("cat") || key.unsafe_is_equal ("ph"))
        {
          if (value.get_string ().get (s) == SUCCESS)
            *checksum += s.size ();
        }
      else if (key.unsafe_is_equal ("ts") || key.unsafe_is_equal ("dur"))
        {
          if (value.get_double ().get (d) == SUCCESS)
            *checksum += (uint64_t) d;
        }
      else if (key.unsafe_is_equal ("pid") || key.unsafe_is_equal ("tid"))
        *checksum += read_id (value);
    }
  return true;
}

int
main (int   argc,
      char *argv[])
{
  ondemand::parser parser;
  ondemand::document doc;
  ondemand::array events;
  padded_string text;
  uint64_t checksum = 0;
  uint64_t n_events = 0;
  double wall[3], cpu[3];

  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-simdjson FILE\n");
      return 2;
    }

  wall[0] = seconds (CLOCK_MONOTONIC);
  cpu[0] = seconds (CLOCK_THREAD_CPUTIME_ID);
  if (padded_string::load (argv[1]).get (text) != SUCCESS)
    {
      fprintf (stderr, "bench-simdjson: %s: cannot read\n", argv[1]);
      return 1;
    }
  wall[1] = seconds (CLOCK_MONOTONIC);
  cpu[1] = seconds (CLOCK_THREAD_CPUTIME_ID);

  /* The object form ({"traceEvents": [...]}) or a bare array */
  if (parser.iterate (text).get (doc) != SUCCESS)
    return 1;
  ondemand::json_type type;
  if (doc.type ().get (type) != SUCCESS)
    return 1;
  if (type == ondemand::json_type::object)
    {
      if (doc["traceEvents"].get_array ().get (events) != SUCCESS)
        return 1;
    }
  else if (doc.get_array ().get (events) != SUCCESS)
    return 1;

  for (auto element : events)
    {
      ondemand::object event;

      if (element.get_object ().get (event) != SUCCESS || !walk_event (event, &checksum))
        {
          fprintf (stderr, "bench-simdjson: %s: event %llu is not an object\n",
                   argv[1], (unsigned long long) n_events);
          return 1;
        }
      n_events++;
    }
  wall[2] = seconds (CLOCK_MONOTONIC);
  cpu[2] = seconds (CLOCK_THREAD_CPUTIME_ID);

  /* The kernel simdjson chose for this CPU: its speed differs by several
   * times between them (AVX-512, AVX2, SSE4.2, the portable fallback), so
   * a ratio against it says little without its name */
  printf ("wall %.6f %.6f\ncpu %.6f %.6f\nevents %llu\nchecksum %llu\nkernel %s\n",
          wall[1] - wall[0], wall[2] - wall[1], cpu[1] - cpu[0], cpu[2] - cpu[1],
          (unsigned long long) n_events, (unsigned long long) checksum,
          std::string (simdjson::get_active_implementation ()->name ()).c_str ());
  return 0;
}
