/*
 * A known split of time for pvtrace's truth test (tests/e2e/trace-truth.sh):
 * a tiny function called tens of millions of times (run_tiny and tiny)
 * beside two long ones (long_a, long_b).  "truth PART SCALE" runs one
 * part alone, or all three with "all", and prints each part's CPU time
 * (CLOCK_PROCESS_CPUTIME_ID) so that the test times every part untraced
 * in the same run of the suite, on the same loaded machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long	sink;

/* A few instructions: the probe costs many times its work. */
__attribute__((noinline)) unsigned long
tiny(unsigned long x)
{
	__asm__ __volatile__("" : "+r"(x));
	return (x * 2654435761u ^ (x >> 7));
}

__attribute__((noinline)) void
run_tiny(long n)
{
	unsigned long	acc = 1;
	long		i;

	for (i = 0; i < n; i++)
		acc = tiny(acc + (unsigned long)i);
	sink = acc;
}

/* Floating point, one long activation. */
__attribute__((noinline)) void
long_a(long n)
{
	double	x = 1.0;
	long	i;

	for (i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	sink = (unsigned long)x;
}

/* Integer division, one long activation. */
__attribute__((noinline)) void
long_b(long n)
{
	unsigned long	acc = 7;
	long		i;

	for (i = 1; i < n; i++)
		acc += (acc ^ (unsigned long)i) % (unsigned long)(i | 1);
	sink = acc;
}

static double
cpu_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void
part(const char *want, const char *name, void (*fn)(long), long n)
{
	double	t0;

	if (strcmp(want, "all") != 0 && strcmp(want, name) != 0)
		return;
	t0 = cpu_now();
	fn(n);
	printf("%s %.6f\n", name, cpu_now() - t0);
}

int
main(int argc, char **argv)
{
	double	k = argc > 2 ? atof(argv[2]) : 1.0;

	if (argc < 2) {
		fprintf(stderr, "usage: truth all|run_tiny|long_a|long_b"
		    " [SCALE]\n");
		return (2);
	}
	part(argv[1], "run_tiny", run_tiny, (long)(40e6 * k));
	part(argv[1], "long_a", long_a, (long)(100e6 * k));
	part(argv[1], "long_b", long_b, (long)(40e6 * k));
	return (0);
}
