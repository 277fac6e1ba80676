/*
 * churn N DEPTH: N malloc+free pairs of 16..79 bytes, each from DEPTH
 * nested calls (stacks as deep as real programs' allocations), with 256
 * blocks kept live so that frees are not all of the last block.  Prints
 * the nanoseconds per pair of the loop alone (not start-up or exit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static __attribute__((noinline)) void *
level(int d, size_t n)
{
	void	*p;

	if (d == 0)
		return (malloc(n));
	p = level(d - 1, n);
	__asm__ volatile ("" : : "r"(p) : "memory");
	return (p);
}

int
main(int argc, char **argv)
{
	struct timespec	 a, b;
	long		 n = argc > 1 ? atol(argv[1]) : 1000000, i;
	int		 depth = argc > 2 ? atoi(argv[2]) : 8;
	void		*keep[256] = { 0 };
	size_t		 k;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		k = (size_t)i & 255;
		free(keep[k]);
		keep[k] = level(depth, 16 + ((size_t)i * 7 & 63));
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (k = 0; k < 256; k++)
		free(keep[k]);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec -
	    a.tv_nsec)) / (double)n);
	return (0);
}
