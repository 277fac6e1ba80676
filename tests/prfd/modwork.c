/*
 * The module truth test's program (tests/prfd/modtruth.sh), linked
 * against its own shared library (modlib.c): rounds of 5 ms of CPU in
 * the library's lib_five, 3 in its lib_three and 2 in the program's own
 * own_two, until CPU seconds (argv[1]) of CPU time.
 *
 *	modwork vdso CPU	clock_gettime(CLOCK_MONOTONIC) in a loop,
 *				the vDSO's, for CPU seconds
 */
#include <stdlib.h>
#include <string.h>
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

void	own_two(void);

void
own_two(void)
{
	long long	end = cpu_ns() + 2000000LL;
	unsigned long	i;

	do {
		for (i = 0; i < 200000; i++)
			sink += i;
	} while (cpu_ns() < end);
}

int
main(int argc, char **argv)
{
	struct timespec	ts;
	long long	end;
	int		i;

	if (argc == 3 && strcmp(argv[1], "vdso") == 0) {
		end = cpu_ns() + (long long)(atof(argv[2]) * 1e9);
		while (cpu_ns() < end) {
			for (i = 0; i < 100000; i++)
				clock_gettime(CLOCK_MONOTONIC, &ts);
		}
		return (0);
	}
	if (argc < 2)
		return (2);
	end = cpu_ns() + (long long)(atof(argv[1]) * 1e9);
	while (cpu_ns() < end) {
		lib_five();
		lib_three();
		own_two();
	}
	return (0);
}
