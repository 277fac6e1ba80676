/* Leaked cycles of one, two and three blocks, and a kept cycle. */
#include <stdio.h>
#include "heaptest.h"

struct ring {
	struct ring	*next;
	char		 pad[24];
};

static struct ring	*kept;

static __attribute__((noinline)) struct ring *
ring(int n)
{
	struct ring	*first, *x, *prev;
	int		 i;

	first = prev = calloc(1, sizeof *first);
	for (i = 1; i < n; i++) {
		x = calloc(1, sizeof *x);
		prev->next = x;
		prev = x;
	}
	prev->next = first;
	return (first);
}

static __attribute__((noinline)) void
leak(void)
{
	struct ring *volatile r;

	r = ring(1);
	r = ring(2);
	r = ring(3);
	r = NULL;
	(void)r;
}

int
main(void)
{
	kept = ring(4);
	leak();
	heaptest_scrub();
	printf("cycles: %d\n", kept != NULL);
	return (0);
}
