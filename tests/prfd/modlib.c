/*
 * The module truth test's shared library (tests/prfd/modtruth.sh): two
 * functions that spin for a given CPU time, so that their shares of the
 * run are known and a profiler must find them in a library.
 */
#include <time.h>

#include "tests/prfd/modlib.h"

static volatile unsigned long	sink;

static long long
cpu_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

/*
 * Spin until the thread has had ms more of CPU, the clock read seldom:
 * a macro, so that each function's samples are its own.
 */
#define SPIN(ms) do {							\
	long long	end_ = cpu_ns() + (ms) * 1000000LL;		\
	unsigned long	i_;						\
									\
	do {								\
		for (i_ = 0; i_ < 200000; i_++)				\
			sink += i_;					\
	} while (cpu_ns() < end_);					\
} while (0)

void	lib_five(void) { SPIN(5); }
void	lib_three(void) { SPIN(3); }
