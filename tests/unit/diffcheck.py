#!/usr/bin/env python3
"""profview diff's numbers against the two sessions' own reports.

diffcheck.py DIFF.csv TABLE KEY MEASURE A.csv B.csv SECTION NAME VALUE
    TOTAL_A TOTAL_B [TOL]

DIFF.csv is `profview diff -f csv`; A.csv and B.csv are `profview export
-f csv` of its two sessions.  Each side's value of a row is the sum of
VALUE over the report's SECTION rows with that NAME; TOTAL_* is a
number, sum (the side's values'), SECTION:NAME:COLUMN of that report, or
X-Y of two.  Every row of either report with a nonzero value must be a
row of the diff's TABLE (its KEY column) with the base, new and delta
these give, the delta % within TOL points (0.01 unless given), marked as
one side's only when the other has none of it (a zero may be a row, as
a unit of the log never loaded); the diff may hold no row that is
neither's.  Silent and 0 when they agree; each disagreement on stderr,
1."""
import csv
import sys


def rows(path):
    with open(path, newline='', encoding='utf-8') as f:
        return list(csv.DictReader(f))


def side(path, section, name, value):
    out = {}
    for r in rows(path):
        if r['section'] == section and r[value] not in ('', None):
            v = float(r[value])
            if v != 0:
                out[r[name]] = out.get(r[name], 0.0) + v
    return out


def total(spec, path, vals):
    if spec == 'sum':
        return sum(vals.values())
    if '-' in spec:
        a, b = spec.split('-')
        return total(a, path, vals) - total(b, path, vals)
    try:
        return float(spec)
    except ValueError:
        pass
    sec, name, col = spec.split(':')
    for r in rows(path):
        if r['section'] == sec and (r.get('name') == name or
                r.get('key') == name):
            return float(r[col])
    sys.exit('diffcheck: no %s in %s' % (spec, path))


def main():
    a = sys.argv[1:]
    if len(a) not in (11, 12):
        sys.exit(__doc__)
    (dpath, table, key, meas, apath, bpath, section, name, value,
     ta, tb) = a[:11]
    tol = float(a[11]) if len(a) == 12 else 0.01
    base = side(apath, section, name, value)
    new = side(bpath, section, name, value)
    tot = (total(ta, apath, base), total(tb, bpath, new))
    diff = {r[key]: r for r in rows(dpath) if r['section'] == table}
    bad = 0
    for n in sorted(set(base) | set(new)):
        b, w = base.get(n, 0.0), new.get(n, 0.0)
        r = diff.get(n)
        if r is None:
            print('%s: not in the diff' % n, file=sys.stderr)
            bad = 1
            continue
        pct = (100 * w / tot[1] if tot[1] else 0) - \
            (100 * b / tot[0] if tot[0] else 0)
        got = [float(r[meas + '_' + p]) for p in
               ('base', 'new', 'delta', 'delta_pct')]
        only = '' if b and w else ('baseline' if b else 'new')
        if (abs(got[0] - b) > 1e-6 * max(1, b) or
                abs(got[1] - w) > 1e-6 * max(1, w) or
                abs(got[2] - (w - b)) > 1e-6 * max(1, abs(w - b)) or
                abs(got[3] - pct) > tol or r['only'] not in ('', only)):
            print('%s: diff says %s only=%r, the reports %s only=%r' %
                  (n, got, r['only'], [b, w, w - b, round(pct, 4)], only),
                  file=sys.stderr)
            bad = 1
    for n, r in diff.items():
        if n not in base and n not in new and any(
                float(r[meas + '_' + p]) for p in ('base', 'new')):
            print('%s: in the diff, in neither report' % n,
                  file=sys.stderr)
            bad = 1
    sys.exit(bad)


main()
