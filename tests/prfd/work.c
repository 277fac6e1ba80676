/*
 * The Dos32Profile truth tests' workload (tests/prfd/truth.sh).
 *
 *	work split CPU SLEEP	rounds of 5, 3 and 2 ms of CPU time in f5,
 *				f3 and f2, each followed by a sleep making
 *				SLEEP (0-0.9) of the round's time, until CPU
 *				seconds of CPU time
 *	work swap CPU SLEEP	the same with the split turned round: 2, 3
 *				and 5 ms in f5, f3 and f2 (the diff test's
 *				second run, tests/prfd/diff.sh)
 *	work sys CPU		getppid() system calls for CPU seconds
 *
 * The shares are of the thread's CPU time, not of the wall clock, so that
 * other work on the machine does not move them.  On stderr: the CPU and
 * wall time, the time asked to sleep and the time spent waiting for a
 * CPU (-1: no schedstat), in ns.  Exit status 7, for the
 * test to see it passed on.
 */
#include <sys/syscall.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long	sink;

static long long
ns(clockid_t c)
{
	struct timespec	ts;

	clock_gettime(c, &ts);
	return ((long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

/* Spin until the thread has had ms more of CPU: the clock read seldom. */
#define SPIN(ms) do {							\
	long long end_ = ns(CLOCK_THREAD_CPUTIME_ID) + (ms) * 1000000LL;\
	unsigned long i_;						\
	do {								\
		for (i_ = 0; i_ < 20000; i_++)				\
			sink += i_;					\
	} while (ns(CLOCK_THREAD_CPUTIME_ID) < end_);			\
} while (0)

/* Bodies that differ, so that no compiler folds two into one symbol. */
static int	swap;
void	f5(void) { SPIN(swap ? 2 : 5); }
void	f3(void) { SPIN(3); }
void	f2(void) { SPIN(swap ? 5 : 2); }

int
main(int argc, char **argv)
{
	struct timespec	 ts;
	long long	 w0, c0, slept = 0, cpu, sl, wait0 = 0, waited;
	FILE		*f;
	double		 want, share = 0;

	if (argc < 3)
		return (2);
	want = atof(argv[2]) * 1e9;
	if (argc > 3)
		share = atof(argv[3]);
	if (share < 0 || share > 0.9)
		return (2);
	swap = strcmp(argv[1], "swap") == 0;
	if ((f = fopen("/proc/self/schedstat", "r")) != NULL) {
		if (fscanf(f, "%*u %lld", &wait0) != 1)
			wait0 = 0;
		fclose(f);
	}
	w0 = ns(CLOCK_MONOTONIC);
	c0 = ns(CLOCK_THREAD_CPUTIME_ID);
	while (ns(CLOCK_THREAD_CPUTIME_ID) - c0 < want) {
		if (strcmp(argv[1], "sys") == 0) {
			for (int i = 0; i < 1000; i++)
				syscall(SYS_getppid);
			continue;
		}
		f5();
		f3();
		f2();
		if (share > 0) {
			sl = (long long)(10e6 * share / (1 - share));
			ts.tv_sec = sl / 1000000000;
			ts.tv_nsec = sl % 1000000000;
			nanosleep(&ts, NULL);
			slept += sl;
		}
	}
	cpu = ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	/* The time it waited for a CPU (schedstat's run_delay), or -1. */
	if ((f = fopen("/proc/self/schedstat", "r")) == NULL ||
	    fscanf(f, "%*u %lld", &waited) != 1)
		waited = -1;
	else
		waited -= wait0;
	if (f != NULL)
		fclose(f);
	fprintf(stderr, "cpu %lld wall %lld slept %lld waited %lld\n", cpu,
	    ns(CLOCK_MONOTONIC) - w0, slept, waited);
	printf("work: %s done\n", argv[1]);
	return (7);
}
