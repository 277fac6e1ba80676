/*
 * bench/trace: a call-heavy workload, the same source for every tool:
 * each iteration calls mid(), which calls leaf() twice; three calls and
 * very little else.  Built plain (pvtrace, callgrind, the baseline) and
 * with -pg (uftrace).
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) long
leaf(long x)
{
	return (x * 3 + 1);
}

__attribute__((noinline)) long
mid(long x)
{
	return (leaf(x) + leaf(x + 1));
}

int
main(int argc, char **argv)
{
	long	n = argc > 1 ? atol(argv[1]) : 1000000, i, s = 0;

	for (i = 0; i < n; i++)
		s += mid(i);
	sink = s;
	printf("%ld calls\n", 3 * n + 1);
	return (0);
}
