/*
 * The annotate tests' workload (tests/tui/annotate-x86.sh): hot() is one
 * loop of dependent 64-bit divisions, so that one instruction (the
 * division, or the one after it where a sample skids) takes most of its
 * samples; main calls it, and mix, until argv[1] seconds of CPU time.
 * HOT_REBUILT makes another build of it (another divisor, another
 * build-id): the program rebuilt after it was profiled.
 */
#include <stdlib.h>
#include <time.h>

#ifdef HOT_REBUILT
#define HOT_DIV	7
#else
#define HOT_DIV	3
#endif

static volatile unsigned long	sink;
static volatile unsigned long	divisor = HOT_DIV;

__attribute__((noinline)) unsigned long
mix(unsigned long x)
{
	return ((x * 2654435761u) ^ (x >> 7));
}

__attribute__((noinline)) void
hot(unsigned long n)
{
	unsigned long	i, d = divisor, s = n;

	for (i = 0; i < n; i++)
		s = s / d + i;
	sink += mix(s);
}

int
main(int argc, char **argv)
{
	struct timespec	ts;
	double		want = argc > 1 ? atof(argv[1]) : 1;

	do {
		hot(100000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < want);
	return (0);
}
