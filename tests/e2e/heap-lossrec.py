#!/usr/bin/env python3
# heap-lossrec.py MEMCHECK.LOG PROFVIEW.JSON [STATE...]: memcheck's loss
# records (--show-leak-kinds=all, --read-inline-info=no) against
# "profview heap --json S live": the same records, as (state, bytes,
# blocks, top frames to main), of the states named (default all).  Bytes
# are a record's own (memcheck's "direct" of a definitely lost one).
# Names: no symbol version, no leading underscores (glibc's aliases:
# newlocale is __newlocale), an address alone is "???" as memcheck says.
import difflib
import json
import re
import sys

TOP = 3


def name(fn):
    fn = re.sub(r'@@?GLIBC[\w.]*$', '', fn.strip()).lstrip('_')
    return '???' if re.match(r'^0x[0-9a-f]+$', fn) else fn


def top(fns):
    out = []
    for f in fns:
        out.append(name(f))
        if out[-1] == 'main' or len(out) == TOP:
            break
    return tuple(out)


def memcheck(path):
    head = re.compile(r'^==\d+== ([\d,]+)(?: \(([\d,]+) direct, [\d,]+ '
                      r'indirect\))? bytes in ([\d,]+) blocks are '
                      r'(definitely lost|indirectly lost|possibly lost|'
                      r'still reachable) in loss record')
    frame = re.compile(r'^==\d+==    (?:at|by) 0x[0-9A-F]+: (.*?)'
                       r'(?: \((?:in [^)]*|[^()]*:\d+)\))?$')
    recs, cur = [], None
    for line in open(path):
        m = head.match(line)
        if m:
            cur = [m.group(4), int((m.group(2) or m.group(1)).replace(
                ',', '')), int(m.group(3).replace(',', '')), []]
            recs.append(cur)
            continue
        m = frame.match(line)
        if m and cur is not None:
            # The allocator memcheck replaced: pvheap's stacks start
            # at its caller.
            if 'vgpreload_memcheck' not in line and \
                    'vg_replace_malloc' not in line:
                cur[3].append(m.group(1))
            continue
        cur = None
    return [(r[0], r[1], r[2]) + top(r[3]) for r in recs]


def profview(path):
    out = []
    for r in json.load(open(path)):
        fns = [re.sub(r' \([^()]*\)$', '', f)
               for f in r['stack'].split(' < ')]
        out.append((r['state'], r['bytes'], r['blocks']) + top(fns))
    return out


states = sys.argv[3:]
a = sorted(r for r in memcheck(sys.argv[1]) if not states or r[0] in states)
b = sorted(r for r in profview(sys.argv[2]) if not states or r[0] in states)
if not a or a != b:
    for line in difflib.unified_diff([repr(x) for x in a],
                                     [repr(x) for x in b], 'memcheck',
                                     'profview', lineterm='', n=0):
        print(line, file=sys.stderr)
    sys.exit(1)
print('%d records' % len(a))
