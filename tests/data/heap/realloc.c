/* realloc chains: a buffer grown and shrunk a hundred times and kept, one
 * grown and leaked, realloc(NULL, n) and reallocarray. */
#include <stdio.h>
#include "heaptest.h"

static char	*kept;
static int	*arr;

static __attribute__((noinline)) void
chains(void)
{
	char *volatile	 lost = NULL;
	size_t		 i;

	for (i = 1; i <= 100; i++) {
		kept = realloc(kept, i * 37 % 1000 + 1);
		memset(kept, 'k', i * 37 % 1000 + 1);
	}
	for (i = 1; i <= 50; i++) {
		lost = realloc(lost, i * 64);
		memset(lost, 0, i * 64);
	}
	lost = NULL;
	(void)lost;
	arr = reallocarray(NULL, 10, sizeof *arr);
	arr = reallocarray(arr, 1000, sizeof *arr);
	memset(arr, 0, 1000 * sizeof *arr);
	kept = realloc(kept, 5000);
	/* 200 KiB: past the mmap threshold, a chunk of its own. */
	lost = realloc(NULL, 200 << 10);
	memset(lost, 0, 200 << 10);
	lost = NULL;
}

int
main(void)
{
	chains();
	heaptest_scrub();
	printf("realloc: %c\n", kept[0]);
	return (0);
}
