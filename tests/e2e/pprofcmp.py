#!/usr/bin/env python3
"""pprofcmp.py KIND REPORT.json PROFILE: what go tool pprof -top reads in
PROFILE (profview export -f pprof) against profview's own report of the
same session (its json form: the text report's cells, with times in ns
where the text rounds them to ms).  For each sample type, the total and
every function's flat value (and cum, where the report has one); the
differences on stderr, exit 1 if any.  go runs with HOME and GOCACHE as
the caller set them."""
import json
import re
import subprocess
import sys

kind, report, profile = sys.argv[1:4]
r = json.load(open(report))
bad = []


def top(index, unit):
    """index's total and {function: (flat, cum)} as pprof -top shows
    them, every node, in unit (ns, B, or none for counts).  The total is
    what the nodes account for: pprof's "of N total" sums magnitudes
    (made for diffs), so a time below zero (mon's traps, the overhead
    subtracted) would count the wrong way there."""
    cmd = ['go', 'tool', 'pprof', '-top', '-nodecount=100000',
        '-nodefraction=0', '-edgefraction=0', '-sample_index=' + index]
    if unit:
        cmd.append('-unit=' + unit)
    out = subprocess.run(cmd + [profile], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('pprof -sample_index=%s failed: %s' % (index, out.stderr))
    num = r'(-?[0-9.]+)' + (re.escape(unit) if unit else '')
    total = None
    rows = {}
    for line in out.stdout.splitlines():
        m = re.search(r'accounting for ' + num + r', ', line)
        if m:
            total = int(float(m.group(1)))
            continue
        m = re.match(r'\s*' + num + r'\s+\S+%\s+\S+%\s+' + num +
            r'\s+\S+%\s+(.*)$', line)
        if m:
            rows[m.group(3)] = (int(float(m.group(1))),
                int(float(m.group(2))))
    if total is None:
        # An empty profile: pprof prints no total line.
        total = 0
    return total, rows


def same(what, got, want, slack=0):
    if abs(got - want) > slack:
        bad.append('%s: pprof %s, profview %s' % (what, got, want))


def flat(index, unit, want, cum=None, slack=None, other=(), cumslack=0):
    """Every function of want ({name: value}) has that flat value in
    pprof, and pprof has no other function with a nonzero flat value
    but those named in other."""
    total, rows = top(index, unit)
    for name, v in want.items():
        f, c = rows.get(name, (0, 0))
        same('%s %s flat' % (index, name), f, v,
            slack.get(name, 0) if slack else 0)
        if cum is not None and name in cum:
            same('%s %s cum' % (index, name), c, cum[name], cumslack)
    for name, (f, c) in rows.items():
        if f != 0 and name not in want and name not in other:
            bad.append('%s: pprof has %s (%d), profview does not' %
                (index, name, f))
    return total


if kind == 'prf':
    grain = r['prf']['clock_grain'] * 1000
    cnt = r['counters']
    want, slack = {}, {}
    for s in r['symbols']:
        if s['hits_hi'] != 0:
            want[s['name']] = round(s['hits'])
            # An estimate is rounded to a whole sample, either way.
            slack[s['name']] = 0 if s['exact'] else 1
    if round(cnt['unattributed']['hits']) != 0:
        want['[outside every symbol]'] = round(cnt['unattributed']['hits'])
        slack['[outside every symbol]'] = 1
    for k, name in (('hit_io', '[I/O system]'), ('hit_dos', '[DOS]'),
            ('hit_high', '[above the program]')):
        if cnt[k]['hits'] != 0:
            want[name] = cnt[k]['hits']
    same('samples total', flat('samples', None, want, slack=slack),
        cnt['total']['hits'])
    total, _ = top('cpu', 'ns')
    same('cpu total', total, cnt['total']['hits'] * grain)
elif kind == 'mon' and r.get('samples'):
    h = r['mon']
    self_ns = {s['function']: s['self_cpu_ns'] for s in r['samples']
        if s['self_cpu_ns'] != 0}
    cum = {s['function']: s['total_cpu_ns'] for s in r['samples']}
    # The samples in no traced function: the program's less the
    # functions' (the report's header has the one, its table the other).
    out = '[outside traced functions]'
    outside = h['program_cpu_ns'] - sum(self_ns.values())
    if outside != 0:
        self_ns[out] = outside
    same('cpu total', flat('cpu', 'ns', self_ns, cum), h['program_cpu_ns'])
    wall = {s['function']: s['self_real_ns'] for s in r['samples']
        if s['self_real_ns'] != 0}
    flat('wall', 'ns', wall, other=(out,))
    n = {s['function']: s['self_cpu_samples'] for s in r['samples']
        if s['self_cpu_samples'] != 0}
    flat('samples', None, n, other=(out,))
    calls = {f['function']: f['calls'] for f in r['functions']
        if f['calls'] != 0}
    same('calls total', flat('calls', None, calls), h['calls'])
elif kind == 'mon':
    fn = r['functions']
    h = r['mon']
    # A time with children is the report's sum of ticks made ns once,
    # pprof's a sum of the paths' ns, each rounded: 1 ns a path apart.
    paths = len(r['paths'])
    if any(f['self_cpu_ns'] is not None for f in fn):
        same('cpu total', flat('cpu', 'ns', {f['function']: f['self_cpu_ns']
            for f in fn if f['self_cpu_ns'] != 0}, {f['function']:
            f['total_cpu_ns'] for f in fn}, cumslack=paths),
            sum(f['self_cpu_ns'] for f in fn))
    same('wall total', flat('wall', 'ns', {f['function']: f['self_ns']
        for f in fn if f['self_ns'] != 0}, {f['function']: f['total_ns']
        for f in fn}, cumslack=paths), sum(f['self_ns'] for f in fn))
    same('calls total', flat('calls', None, {f['function']: f['calls']
        for f in fn if f['calls'] != 0}), h['calls'])
elif kind == 'prfd':
    want = {}
    for f in r['flat']:
        want[f['symbol']] = want.get(f['symbol'], 0) + f['hits']
    for g in r['global']:
        if g['counter'] != 'slots' and g['samples'] != 0:
            want['[%s]' % g['counter']] = g['samples']
    same('samples total', flat('samples', None, want),
        r['prfd']['samples'])
    total, _ = top('cpu', 'ns')
    same('cpu total', total, r['prfd']['samples'] * r['prfd']['period_ns'])
elif kind == 'heap':
    h = r['heap']
    lost = {x['kind']: x for x in r['leak_summary']}
    for index, unit, field, want_total in (
            ('inuse_space', 'B', 'live_bytes', h['bytes']),
            ('inuse_objects', None, 'live_blocks', h['blocks']),
            ('collectable_space', 'B', 'collectable_bytes',
                lost['definite']['bytes'] + lost['indirect']['bytes']),
            ('collectable_objects', None, 'collectable_blocks',
                lost['definite']['blocks'] + lost['indirect']['blocks'])):
        want = {}
        for s in r['sites']:
            if s[field] != 0:
                want[s['function']] = want.get(s['function'], 0) + s[field]
        same(index + ' total', flat(index, unit, want), want_total)
    # The report lists the sites with live blocks only: what was
    # allocated is checked by its total, the snapshot's allocations.
    total, _ = top('alloc_objects', None)
    same('alloc_objects total', total, h['allocations'])
else:
    sys.exit('pprofcmp.py: no kind ' + kind)
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
