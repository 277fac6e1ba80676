/* Every aligned allocator: each keeps one block and leaks one, small and
 * past the mmap threshold. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include "heaptest.h"

void	*keep[16];
int	 nkeep;

static __attribute__((noinline)) void
one(int i, void *p, size_t n)
{
	void *volatile lost;

	memset(p, 0, n);
	if (i % 2 == 0)
		keep[nkeep++] = p;
	else {
		lost = p;
		lost = NULL;
		(void)lost;
	}
}

static __attribute__((noinline)) void
all(void)
{
	void	*p;
	int	 i;

	for (i = 0; i < 2; i++) {
		if (posix_memalign(&p, 64, 100) == 0)
			one(i, p, 100);
		one(i, aligned_alloc(256, 512), 512);
		one(i, memalign(128, 300), 300);
		one(i, valloc(1000), 1000);
		one(i, memalign(4096, 300 << 10), 300 << 10);
		one(i, calloc(10, 100), 1000);
		one(i, malloc(150 << 10), 150 << 10);
	}
	/* pvalloc (whole pages): valgrind stops at it, so not there. */
	if (!RUNNING_ON_VALGRIND && getenv("PVALLOC") != NULL)
		one(0, pvalloc(5000), 8192);
}

int
main(void)
{
	all();
	heaptest_scrub();
	printf("aligned: %d\n", keep[0] != NULL);
	return (0);
}
