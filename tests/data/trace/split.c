/*
 * A known change for profview diff's mon test (tests/e2e/trace-diff.sh):
 * "split CPU" spends rounds of 5, 3 and 2 ms of the thread's CPU time in
 * f5, f3 and f2 until CPU seconds; "swap CPU" turns the split round (2,
 * 3 and 5 ms), so f5 loses 30 points of the time and f2 gains them.
 * CPU time, not the clock, so other work on the machine does not move
 * the split (a traced function's time is the clock's, which the test's
 * tolerance allows for).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long	sink;
static int			swap;

static long long
ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

/*
 * Spin until the thread has had ms more of CPU, the clock read seldom;
 * inlined, so that the time is f5's, f3's and f2's own (self).
 */
static inline __attribute__((always_inline)) void
spin(int ms)
{
	long long	end = ns() + ms * 1000000LL;
	unsigned long	i;

	do {
		for (i = 0; i < 20000; i++)
			sink += i;
	} while (ns() < end);
}

/* Bodies that differ, so that no compiler folds two into one symbol. */
__attribute__((noinline)) void	f5(void) { spin(swap ? 2 : 5); }
__attribute__((noinline)) void	f3(void) { spin(3); }
__attribute__((noinline)) void	f2(void) { spin(swap ? 5 : 2); }

int
main(int argc, char **argv)
{
	long long	c0, want;

	if (argc != 3)
		return (2);
	swap = strcmp(argv[1], "swap") == 0;
	want = (long long)(atof(argv[2]) * 1e9);
	c0 = ns();
	while (ns() - c0 < want) {
		f5();
		f3();
		f2();
	}
	return (0);
}
