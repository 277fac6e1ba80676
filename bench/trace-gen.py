#!/usr/bin/env python3
"""bench/trace: write a C program of N functions (default 10000) for the
plan-time budget: small functions of varied shapes (leaves, callers,
loops, static and global), as a compiler leaves them at -O1."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
out = ['#include <stdio.h>', 'static volatile long sink;']
for i in range(n):
    out.append('%slong f%d(long x);' % ('static ' if i % 3 == 0 else '', i))
for i in range(n):
    st = 'static ' if i % 3 == 0 else ''
    body = []
    k = i % 5
    if k == 0:
        body.append('return x * %d + 1;' % (i % 7 + 2))
    elif k == 1:
        body.append('if (x <= 0) return 0;')
        body.append('return f%d(x - 1) + %d;' % ((i + 1) % n, i % 11))
    elif k == 2:
        body.append('long s = 0, j;')
        body.append('for (j = 0; j < (x & 7); j++) s += f%d(j);'
                    % ((i * 7 + 3) % n))
        body.append('return s;')
    elif k == 3:
        body.append('sink += x;')
        body.append('return x ^ %d;' % i)
    else:
        body.append('return x > %d ? f%d(x / 2) : f%d(x + 1);'
                    % (i % 97, (i + 13) % n, (i + 29) % n))
    out.append('%s__attribute__((noinline)) long f%d(long x)\n{\n\t%s\n}'
               % (st, i, '\n\t'.join(body)))
out.append('int main(int argc, char **argv)\n{\n\tlong s = 0;\n'
           '\t(void)argv;\n\ts += f0(argc) + f%d(argc);\n'
           '\tprintf("%%ld\\n", s);\n\treturn 0;\n}' % (n - 1))
print('\n'.join(out))
