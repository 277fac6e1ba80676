#!/usr/bin/env python3
"""The sampler's times of a pvtrace .mon (version 3), per function.

Usage: tracesamp.py FILE.mon

Prints one line per function with samples, "function self_ns total_ns
self_samples total_samples" (CPU), self+children counting recursion once
(a path's samples go to each function on it once), then "probe NS" and
"program NS" (every path's CPU ns, the probe's excluded).  An oracle
written apart from profview's model, for tests/e2e/trace-truth.sh.
"""
import sys


def main():
    sect, paths, samples = None, [], {}
    probe = 0
    outside = 0
    with open(sys.argv[1]) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith('#'):
                continue
            if w[0].startswith('['):
                sect = w[0]
                continue
            if sect is None and w[:2] == ['samples', 'probe']:
                probe = int(w[3])
            elif sect is None and w[:2] == ['samples', 'outside']:
                outside = int(w[3])
            elif sect == '[paths]':
                parent = -1 if w[7] == '-' else int(w[7])
                paths.append((parent, w[8]))
            elif sect == '[samples]':
                v = [int(x) for x in w]
                if min(v) < 0:
                    print('negative samples: ' + line.strip())
                    return 1
                samples[v[0]] = (v[1], v[2])
    self_ns, total_ns, self_n, total_n = {}, {}, {}, {}
    program = outside
    for p, (n, ns) in samples.items():
        program += ns
        fn = paths[p][1]
        self_ns[fn] = self_ns.get(fn, 0) + ns
        self_n[fn] = self_n.get(fn, 0) + n
        seen, q = set(), p
        while q >= 0:
            f2 = paths[q][1]
            if f2 not in seen:
                seen.add(f2)
                total_ns[f2] = total_ns.get(f2, 0) + ns
                total_n[f2] = total_n.get(f2, 0) + n
            q = paths[q][0]
    for fn in sorted(total_ns):
        print('%s %d %d %d %d' % (fn, self_ns.get(fn, 0), total_ns[fn],
                                  self_n.get(fn, 0), total_n[fn]))
    print('probe %d' % probe)
    print('program %d' % program)
    return 0


sys.exit(main())
