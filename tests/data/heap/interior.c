/* Blocks reached only through interior pointers (possibly lost), what
 * they point to (possibly lost too), memcheck's heuristics (length64,
 * newarray: reachable), a 0-byte block, and a pointer one past the end
 * (which reaches nothing). */
#include <stdint.h>
#include <stdio.h>
#include "heaptest.h"

struct pair {
	void	*first;
	char	 text[40];
};

char		*middle;	/* into a block, not at its start */
void		*len64;		/* 8 bytes in, word 0 = size - 8 */
void		*counted;	/* 8 bytes in, word 0 = an element count */
void		*empty;		/* malloc(0) */
char		*past;		/* one past a block's end */

static __attribute__((noinline)) void
setup(void)
{
	struct pair	*p;
	uint64_t	*w;

	p = malloc(sizeof *p);
	memset(p, 0, sizeof *p);
	p->first = malloc(32);		/* reached from a possible block */
	memset(p->first, 0, 32);
	middle = p->text + 3;

	w = malloc(72);
	memset(w, 0, 72);
	w[0] = 64;
	len64 = w + 1;

	w = malloc(8 + 3 * 16);
	memset(w, 0, 8 + 3 * 16);
	w[0] = 3;
	counted = w + 1;

	empty = malloc(0);

	past = malloc(16);
	memset(past, 0, 16);
	past += 16;
}

int
main(void)
{
	setup();
	heaptest_scrub();
	printf("interior: %d\n", middle[0]);
	return (0);
}
