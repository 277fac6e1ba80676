#!/usr/bin/env python3
"""Compare pvtrace's call counts with callgrind's, for pvtrace's e2e tests.

usage: tracecmp.py [--module N] PROG.pdt PROG.mon CALLGRIND.OUT...

Every function the plan traces in module N (default 0, the program; a
library named with --lib is 1 and up), "jump" or "trap", must have, in
the .mon's [functions] section (absent means 0 calls), exactly the number
of calls callgrind counted for it, summed over the callgrind files given
(one per process).  Prints TAP lines, one per function callgrind saw
called, and one for all the functions it did not: a library's thousands
of functions its program never calls are one check that pvtrace counted
none of them either (it fails naming those it did), not a check each.
Which functions are counted alone is the oracle's choice, so the number
of checks does not depend on what pvtrace got wrong.  Exits 1 if any
differs.  Callgrind is run with --demangle=no --compress-strings=no; its
recursion levels (fib'2) are one function here.

Callgrind is not an oracle for the C runtime's start and end code in the
program (_init, _fini, frame_dummy, register_tm_clones and the like):
valgrind's symbol reader drops those local symbols and it misses the
calls into .init/.fini, so it reports them by address or not at all.
Each of them runs exactly once in every program, and that is what is
checked for them instead.
"""
import re
import sys
from collections import defaultdict


def unesc(s):
    return re.sub(r'%([0-9A-Fa-f]{2})', lambda m: chr(int(m.group(1), 16)), s)


def plan_functions(path, module):
    """The module's path and the names of its traced functions."""
    names, paths = {}, []
    with open(path) as f:
        for line in f:
            v = line.split()
            if len(v) == 8 and v[0] == 'module':
                paths.append(unesc(v[7]))
            if len(v) >= 10 and v[0] == 'fn' and v[1] == str(module) \
                    and v[4] in ('jump', 'trap'):
                names[unesc(v[9])] = v[4]
    return paths[module], names


def mon_calls(path):
    calls = {}
    sect = None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('['):
                sect = line.split(']')[0] + ']'
                continue
            if not line or line.startswith('#'):
                continue
            v = line.split()
            if sect == '[functions]':
                key = v[11]
                name = unesc(key.split('@')[0])
                calls[name] = calls.get(name, 0) + int(v[0])
    return calls


CRT = ('_init', '_fini', 'frame_dummy', 'register_tm_clones',
       'deregister_tm_clones', '__do_global_dtors_aux')


def callgrind_calls(paths, prog):
    """Calls per callee name, for callees in the program's object."""
    calls = defaultdict(int)
    for path in paths:
        cfn = ob = cob = None
        with open(path, errors='replace') as f:
            for line in f:
                if line.startswith('ob='):
                    ob = line[3:].strip()
                elif line.startswith('cob='):
                    cob = line[4:].strip()
                elif line.startswith('cfn='):
                    cfn = line[4:].strip()
                elif line.startswith('calls=') and cfn is not None:
                    n = int(line[6:].split()[0])
                    if (cob or ob) == prog:
                        calls[re.sub(r"'\d+$", '', cfn)] += n
                    cob = None
    return calls


def main():
    args = sys.argv[1:]
    module = 0
    if len(args) > 1 and args[0] == '--module':
        module = int(args[1])
        args = args[2:]
    if len(args) < 3:
        sys.stderr.write(__doc__)
        return 2
    obj, plan = plan_functions(args[0], module)
    mon = mon_calls(args[1])
    cg = callgrind_calls(args[2:], obj)
    for name in CRT:
        if name in plan and module == 0:
            cg[name] = 1
    bad = 0
    called = [n for n in sorted(plan) if cg.get(n, 0)]
    idle = [n for n in sorted(plan) if not cg.get(n, 0)]
    print('1..%d' % (len(called) + (1 if idle else 0)))
    for i, name in enumerate(called, 1):
        ours, theirs = mon.get(name, 0), cg[name]
        what = 'runs once' if name in CRT else 'callgrind'
        if ours == theirs:
            print('ok %d - %s: %d calls (%s, %s)'
                  % (i, name, ours, plan[name], what))
        else:
            bad += 1
            print('not ok %d - %s: pvtrace %d calls, callgrind %d (%s)'
                  % (i, name, ours, theirs, plan[name]))
    if idle:
        i = len(called) + 1
        counted = ['%s %d calls' % (n, mon[n])
                   for n in idle if mon.get(n, 0)]
        if not counted:
            print('ok %d - %d functions neither saw called: all 0 in both'
                  % (i, len(idle)))
        else:
            bad += 1
            print('not ok %d - %d functions callgrind saw no call of: '
                  'pvtrace counted %s' % (i, len(idle), ', '.join(counted)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
