/*
 * pvtrace on deep recursion: down() calls itself argv[1] levels deep
 * (3000 if not given), one distinct call path a level.  The frame is
 * read after the call returns, so the recursion stays a recursion at
 * -O2 (neither a tail call nor a loop).
 */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__((noinline, noclone))
down(int n)
{
	volatile int	mark = n;

	if (n > 0)
		down(n - 1);
	return (mark);
}

int
main(int argc, char **argv)
{
	int	n = argc > 1 ? atoi(argv[1]) : 3000;

	printf("%d\n", down(n));
	return (0);
}
