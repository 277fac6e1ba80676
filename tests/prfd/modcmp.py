#!/usr/bin/env python3
"""The module truth test's comparison (tests/prfd/modcmp.py).

modcmp.py PERF_SCRIPT PROFVIEW_CSV PID MIN

PERF_SCRIPT is `perf script -F pid,ip,sym,symoff,dso` of the run;
PROFVIEW_CSV is `profview export -f csv` of pvprf's dump of it.  Each
function is known by its start address in the process (perf's ip less
its symoff; profview's flat row's address), so that two names of one
address (aliases) are one function.  Prints a line for each function
either side gives at least MIN percent of the process's samples (perf's
of all its samples of PID, profview's of the run): its name, its module,
perf's share and profview's, tab-separated."""
import csv
import re
import sys

LINE = re.compile(r'^\s*(\d+)\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')


def perf_shares(path, pid):
    n, by = 0, {}
    for line in open(path, errors='replace'):
        m = LINE.match(line)
        if not m or int(m.group(1)) != pid:
            continue
        n += 1
        ip, sym, dso = int(m.group(2), 16), m.group(3), m.group(4)
        s = re.match(r'^(.*)\+0x([0-9a-f]+)$', sym)
        if not s:
            continue
        start = ip - int(s.group(2), 16)
        name = s.group(1).split('@')[0]
        e = by.setdefault(start, [name, dso.rsplit('/', 1)[-1], 0])
        e[2] += 1
    return {a: (e[0], e[1], 100.0 * e[2] / n) for a, e in by.items()}


def profview_shares(path):
    rows = {}
    r = csv.reader(open(path, newline=''))
    head = next(r)
    for row in r:
        c = dict(zip(head, row))
        if c.get('section') != 'flat' or c['symbol'].startswith('(') or \
                c['addr'] == '':
            continue
        # The store's addresses are signed: a kernel's read negative.
        a = int(c['addr']) & (2 ** 64 - 1)
        rows[a] = (c['symbol'].split('@')[0], c['module'],
                   float(c['percent']))
    return rows


def main():
    perf = perf_shares(sys.argv[1], int(sys.argv[3]))
    pv = profview_shares(sys.argv[2])
    low = float(sys.argv[4])
    for a in sorted(set(perf) | set(pv),
                    key=lambda a: -max(perf.get(a, ('', '', 0))[2],
                                       pv.get(a, ('', '', 0))[2])):
        p = perf.get(a, ('', '', 0.0))
        v = pv.get(a, ('', '', 0.0))
        if max(p[2], v[2]) < low:
            continue
        name = v[0] or p[0]
        mod = v[1] or p[1]
        print('%s\t%s\t%.2f\t%.2f' % (name, mod, p[2], v[2]))


main()
