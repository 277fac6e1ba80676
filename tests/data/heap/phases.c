/*
 * Two snapshots of one run with known changes between them, for profview
 * diff's heap test (tests/e2e/heap-diff.sh).  "phases FILE SIG":
 *
 *	phase 1: kept_a() 10 blocks of 100 bytes, gone_b() 7 of 200; then
 *		 SIG to itself (pvheap --signal: a snapshot) and a wait
 *		 until FILE, that snapshot, is there (written whole or not
 *		 at all);
 *	phase 2: gone_b's 7 freed, kept_a() 3 more of 100, new_c() 5 of
 *		 300, 2 of which are then dropped (definitely lost); the
 *		 exit snapshot.
 *
 * So by stack, baseline to exit: kept_a 10 -> 13 blocks (3 new), gone_b
 * 7 -> 0 (7 gone), new_c 0 -> 5 (5 new, 2 collectable).
 */
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include "heaptest.h"

void	*a[13], *b[7], *c[5];

static __attribute__((noinline)) void
kept_a(int from, int to)
{
	while (from < to)
		a[from++] = heaptest_use(malloc(100));
}

static __attribute__((noinline)) void
gone_b(void)
{
	int	i;

	for (i = 0; i < 7; i++)
		b[i] = heaptest_use(malloc(200));
}

static __attribute__((noinline)) void
new_c(void)
{
	int	i;

	for (i = 0; i < 5; i++)
		c[i] = heaptest_use(malloc(300));
	c[3] = heaptest_hide(NULL);
	c[4] = heaptest_hide(NULL);
}

int
main(int argc, char **argv)
{
	struct stat	sb;
	int		i;

	if (argc != 3)
		return (2);
	kept_a(0, 10);
	gone_b();
	heaptest_scrub();
	kill(getpid(), atoi(argv[2]));
	for (i = 0; i < 1000 && stat(argv[1], &sb) != 0; i++)
		usleep(10000);
	if (i == 1000)
		return (3);
	for (i = 0; i < 7; i++) {
		free(b[i]);
		b[i] = NULL;
	}
	kept_a(10, 13);
	new_c();
	heaptest_scrub();
	return (0);
}
