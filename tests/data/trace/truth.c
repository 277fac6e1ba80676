/*
 * A known split of time for pvtrace's truth test (tests/e2e/trace-truth.sh):
 * a tiny function called tens of millions of times (run_tiny and tiny)
 * beside two long ones (long_a, long_b).  "truth PART SCALE" runs one
 * part alone, or all three with "all", and prints each part's CPU time
 * (its thread's: traced, the process's would hold the sampler's too) so
 * that the test times every part untraced in the same run of the suite,
 * on the same loaded machine.  TRUTH_CPU=N holds the program's thread
 * to CPU N, and no other thread: pvtrace's sampler stays free to look
 * from another CPU, as it does in a user's program.
 */
#define _GNU_SOURCE
#include <sched.h>
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

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/*
 * The parts take turns, a fiftieth of each at a time: a machine whose
 * speed changes while the program runs (other work, the other hardware
 * thread busy or not) slows every part alike, so their shares hold from
 * run to run, traced or not.
 */
#define ROUNDS	50

static const struct {
	const char	*name;
	void		(*fn)(long);
	double		 n;
} parts[] = {
	{ "run_tiny", run_tiny, 40e6 },
	{ "long_a", long_a, 100e6 },
	{ "long_b", long_b, 40e6 },
};
#define NPARTS	(sizeof parts / sizeof parts[0])

int
main(int argc, char **argv)
{
	double		 k = argc > 2 ? atof(argv[2]) : 1.0, t0;
	double		 used[NPARTS] = { 0 };
	size_t		 i;
	int		 r, any = 0;
	cpu_set_t	 set;
	const char	*pin = getenv("TRUTH_CPU");

	if (argc < 2) {
		fprintf(stderr, "usage: truth all|run_tiny|long_a|long_b"
		    " [SCALE]\n");
		return (2);
	}
	if (pin != NULL && *pin != '\0') {
		CPU_ZERO(&set);
		CPU_SET(atoi(pin), &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			perror("truth: TRUTH_CPU");
			return (2);
		}
	}
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NPARTS; i++) {
			if (strcmp(argv[1], "all") != 0 &&
			    strcmp(argv[1], parts[i].name) != 0)
				continue;
			any = 1;
			t0 = cpu_now();
			parts[i].fn((long)(parts[i].n * k / ROUNDS));
			used[i] += cpu_now() - t0;
		}
	}
	if (!any) {
		fprintf(stderr, "truth: no part %s\n", argv[1]);
		return (2);
	}
	for (i = 0; i < NPARTS; i++)
		if (used[i] > 0)
			printf("%s %.6f\n", parts[i].name, used[i]);
	return (0);
}
