#!/usr/bin/python3
# Every warning counter that the built-in importers and the builder count
# has words in the window's banner (app/shell/sps-import-warnings.c):
# without them the banner shows the counter's raw name.
#
# Usage: check-warning-names.py SOURCE_ROOT

import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])

# A call whose function name holds "warn" and whose first string literal
# is a counter name (lower case, digits, '_', '-'); the importers' helpers
# take the name as their first string argument.
CALL = re.compile(r'\b\w*warn\w*\s*\(([^;"]{0,200}?)"([a-z][a-z0-9_-]{2,})"')
MACRO = re.compile(r'#define\s+SPS_\w*_WARNING\s+"([a-z][a-z0-9_-]+)"')
KNOWN = re.compile(r'^\s*\{ "([a-z][a-z0-9_.-]+)",', re.M)

used = {}
for path in sorted(list(root.glob('app/**/*.[ch]')) + list(root.glob('plugins/**/*.[ch]'))):
    text = path.read_text(encoding='utf-8')
    for m in CALL.finditer(text):
        used.setdefault(m.group(2), path.relative_to(root))
    for m in MACRO.finditer(text):
        used.setdefault(m.group(1), path.relative_to(root))

known = set(KNOWN.findall((root / 'app/shell/sps-import-warnings.c').read_text(encoding='utf-8')))

missing = sorted(name for name in used if name not in known)
for name in missing:
    print(f'{used[name]}: warning counter "{name}" has no entry in app/shell/sps-import-warnings.c')
print(f'{len(used)} counters counted in the sources, {len(missing)} without words')
sys.exit(1 if missing else 0)
