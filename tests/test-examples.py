#!/usr/bin/env python3
# test-examples.py: the Python example plugins (examples/plugins/
# tinytrace-importer, examples/plugins/category-counts) loaded by the real
# plugin engine from their own folders, as a user's search path would give
# them, with exact results; and the engine's extension lists as a Python
# caller gets them.
# Run with the system's interpreter (/usr/bin/python3: python3-gi), whose
# libpython is the one the libpeas python3 loader embeds.
#
# Usage: test-examples.py SOURCE_ROOT (SPANSCOPE_PLUGIN_PATH gives the
# bundled plugins, GI_TYPELIB_PATH the Spanscope-1 typelib)
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import sys
import tempfile

import gi

gi.require_version('Spanscope', '1')
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib, Spanscope  # noqa: E402

MS = 1_000_000

source_root = sys.argv[1]
examples = os.path.join(source_root, 'examples', 'plugins')
scratch = tempfile.TemporaryDirectory(prefix='sps-examples-')


def check(what, got, expected):
    if got != expected:
        print('not ok: %s: %r, expected %r' % (what, got, expected))
        sys.exit(1)
    print('ok: %s' % what)


def write(name, text):
    path = os.path.join(scratch.name, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def rows(trace, sql):
    result = Spanscope.SqlEngine.new(trace).query(sql, None, None)
    out = []
    for r in range(result.get_n_rows()):
        row = []
        for c in range(result.get_n_columns()):
            if result.get_value_type(r, c) == Spanscope.SqlType.INTEGER:
                row.append(result.get_int64(r, c))
            elif result.get_value_type(r, c) == Spanscope.SqlType.REAL:
                row.append(result.get_double(r, c))
            else:
                row.append(result.get_text(r, c))
        out.append(tuple(row))
    return out


def engine_with(*folders):
    engine = Spanscope.PluginEngine.new()
    for folder in folders:
        engine.add_search_path(os.path.join(examples, folder))
    engine.load_all()
    return engine


def status(engine, module):
    plugins = engine.list_status()
    for i in range(plugins.get_n_items()):
        if plugins.get_item(i).get_module_name() == module:
            return plugins.get_item(i)
    return None


def load(engine, path, progress=None):
    return Spanscope.Trace.load(Gio.File.new_for_path(path), engine, None,
                                Spanscope.LoadFlags.NONE, progress, None)


# The importer: found in its folder, loaded by the python3 loader
engine = engine_with('tinytrace-importer')
tiny = status(engine, 'tinytrace')
check('tinytrace is loaded', tiny.get_state(), Spanscope.PluginState.LOADED)
check('tinytrace declares', list(tiny.get_kinds()), ['importer'])
check('tinytrace version', tiny.get_version(), '1.0')
importer = engine.create_importer('tinytrace')
check('found by its format name', importer.get_name(), 'tinytrace')

# Probing looks at the first line only
example = os.path.join(examples, 'tinytrace-importer', 'example.tiny')
file = Gio.File.new_for_path(example)
check('probe: a tiny trace', importer.probe(file, GLib.Bytes.new(b'tinytrace 1\nprocess 1 a\n')), 100)
check('probe: another header', importer.probe(file, GLib.Bytes.new(b'tinytrace 2\n')), 0)
check('probe: JSON', importer.probe(file, GLib.Bytes.new(b'{"traceEvents":[]}')), 0)

# example.tiny, by hand: process 10 "app", threads 11 "main" and 12
# "worker"; load 0+1500 µs with parse 100+200 µs inside it on main, decode
# 300+900 µs on worker; the mark "ready" at 1800 µs on main
trace = load(engine, example)
check('format', trace.get_format(), 'tinytrace')
check('events read', trace.get_events_read(), 7)
check('threads', rows(trace, 'SELECT pid, tid, name FROM threads ORDER BY tid'),
      [(10, 11, 'main'), (10, 12, 'worker')])
check('processes', rows(trace, 'SELECT pid, name FROM processes'), [(10, 'app')])
check('slices', rows(trace, 'SELECT name, ts, dur, depth, thread_id FROM slices ORDER BY ts'),
      [('load', 0, 1500000, 0, 0), ('parse', 100000, 200000, 1, 0), ('decode', 300000, 900000, 0, 1)])
check('marks', rows(trace, 'SELECT name, ts, thread_id, kind FROM instants'), [('ready', 1800000, 0, 'mark')])
check('end', trace.get_end_time(), 1800000)

# A bad line is refused with the file and the line
bad = write('bad.tiny', 'tinytrace 1\nprocess 1 p\nthread 1 2 t\nspan 2 x 10 oops\n')
try:
    load(engine, bad)
    check('a bad line is refused', 'loaded', 'an error')
except GLib.Error as e:
    check('a bad line: domain', e.domain, GLib.quark_to_string(Spanscope.import_error_quark()))
    check('a bad line: message', e.message, '%s:4: times and ids must be integers' % bad)
check('the input is not the plugin’s fault', status(engine, 'tinytrace').get_state(),
      Spanscope.PluginState.LOADED)

# Cancelled: the importer looks every 1000 lines and stops
big = write('big.tiny', 'tinytrace 1\nprocess 1 p\nthread 1 2 t\n' +
            ''.join('span 2 %d 1 s\n' % i for i in range(5000)))
progress = Spanscope.Progress.new(None)
progress.cancel()
try:
    importer.load(Gio.File.new_for_path(big), None, Spanscope.TraceBuilder.new(), progress)
    check('a cancelled load stops', 'finished', 'cancelled')
except GLib.Error as e:
    check('a cancelled load stops', e.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), True)

# The extension lists from Python: proper lists, their objects alive
# after the list is gone (G_DEBUG=fatal-criticals makes a double unref of
# an element, or of the list, fatal here)
importers = engine.create_importers()
check('create_importers gives a list', type(importers), list)
check('the Python importer is in it', 'tinytrace' in [i.get_name() for i in importers], True)
check('and Chrome JSON', 'chrome-json' in [i.get_name() for i in importers], True)
tiny_importer = [i for i in importers if i.get_name() == 'tinytrace'][0]
del importers
import gc  # noqa: E402
gc.collect()
check('an importer outlives its list', tiny_importer.probe(file, GLib.Bytes.new(b'tinytrace 1\n')), 100)
check('create_exporters gives a list', type(engine.create_exporters()), list)
extensions = engine.create_extensions(Spanscope.Importer)
check('create_extensions gives the same importers',
      sorted(e.get_name() for e in extensions), sorted(i.get_name() for i in engine.create_importers()))
check('as importers', all(isinstance(e, Spanscope.Importer) for e in extensions), True)
del extensions, tiny_importer
gc.collect()

# The analysis, with the bundled Chrome JSON importer. By hand, in
# process pid 1 (index 0): "io" slices start at 0 µs, and twice at 500
# µs (on two threads: one value, 3), "cpu" at 100 µs, one without a
# category at 3000 µs; in pid 2 (index 1) one "io" at 50 µs. Totals: io
# 4, cpu 1, (none) 1.
engine = engine_with('category-counts')
check('category_counts is loaded', status(engine, 'category_counts').get_state(), Spanscope.PluginState.LOADED)
trace_json = write('trace.json', '{"traceEvents":['
                   '{"ph":"X","name":"load","cat":"io","pid":1,"tid":1,"ts":0,"dur":2000},'
                   '{"ph":"X","name":"parse","cat":"cpu","pid":1,"tid":1,"ts":100,"dur":1000},'
                   '{"ph":"X","name":"read","cat":"io","pid":1,"tid":2,"ts":500,"dur":300},'
                   '{"ph":"X","name":"read","cat":"io","pid":1,"tid":3,"ts":500,"dur":100},'
                   '{"ph":"X","name":"paint","pid":1,"tid":1,"ts":3000,"dur":100},'
                   '{"ph":"X","name":"idle","cat":"io","pid":2,"tid":4,"ts":50,"dur":10}]}')
progress = Spanscope.Progress.new(None)
trace = load(engine, trace_json, progress)
check('counters',
      rows(trace, 'SELECT name, series, process_id, ts, value FROM counters ORDER BY process_id, series, ts'),
      [('Slices', '(none)', 0, 3 * MS, 1.0), ('Slices', 'cpu', 0, 100000, 1.0),
       ('Slices', 'io', 0, 0, 1.0), ('Slices', 'io', 0, 500000, 3.0),
       ('Slices', 'io', 1, 50000, 1.0)])
check('one counter track per process and category',
      rows(trace, "SELECT count(*) FROM tracks WHERE kind = 'counter'"), [(4,)])
check('the slices are the trace’s', rows(trace, 'SELECT count(*) FROM slices'), [(6,)])
sections = {trace.get_info_section(i)[0]: i for i in range(trace.get_n_info_sections())}
check('the totals’ info section', 'category-counts' in sections, True)
check('the totals', json.loads(trace.dup_args_json(trace.get_info_section(sections['category-counts'])[1])[0]),
      {'(none)': 1, 'cpu': 1, 'io': 4})
check('progress at the end', progress.get_phase(), Spanscope.ProgressPhase.DONE)

# Both together: the analysis counts what the Python importer read (no
# categories: load 0 µs, parse 100 µs, decode 300 µs, all of process 10)
engine = engine_with('tinytrace-importer', 'category-counts')
trace = load(engine, example)
check('a tiny trace counted', rows(trace, 'SELECT series, ts, value FROM counters ORDER BY ts'),
      [('(none)', 0, 1.0), ('(none)', 100000, 2.0), ('(none)', 300000, 3.0)])

# A cancelled analysis stops at its first look. The class is the one the
# engine's python3 loader imported into this interpreter.
analysis = sys.modules['category_counts'].CategoryCounts()
check('the analysis’ name', analysis.get_name(), 'category-counts')
progress = Spanscope.Progress.new(None)
progress.cancel()
try:
    analysis.analyze(trace, Spanscope.TraceBuilder.new(), progress)
    check('a cancelled analysis stops', 'finished', 'cancelled')
except GLib.Error as e:
    check('a cancelled analysis stops', e.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED), True)
