/*
 * graph BLOCKS EDGES: a heap of BLOCKS 48-byte blocks holding EDGES
 * pointers among them in all (at most 4 per block), reachable from one
 * global array, for timing a snapshot (pvheap --at-exit) and its load.
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node	*p[4];
	long		 v[2];
};

struct node	**all;

int
main(int argc, char **argv)
{
	long		 n = argc > 1 ? atol(argv[1]) : 1000000;
	long		 e = argc > 2 ? atol(argv[2]) : 4 * n, i;
	unsigned long	 x = 88172645463325252ul;

	all = malloc(n * sizeof *all);
	for (i = 0; i < n; i++)
		all[i] = calloc(1, sizeof (struct node));
	for (i = 0; i < e; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		all[i % n]->p[(i / n) & 3] = all[x % n];
	}
	printf("%ld blocks, %ld pointers\n", n, e);
	return (0);
}
