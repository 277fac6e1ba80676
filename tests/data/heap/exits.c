/* The ways out: "_exit" leaves by _exit (no destructors, no atexit),
 * "abort" keeps allocating until it aborts (only --every snapshots
 * remain), "exec" replaces itself with this program again ("_exit"). */
#include <signal.h>
#include <stdio.h>
#include "heaptest.h"

void	*kept;

static __attribute__((noinline)) void
leak(int n)
{
	void *volatile	p;

	while (n-- > 0) {
		p = calloc(1, 48);
	}
	p = NULL;
	(void)p;
}

int
main(int argc, char **argv)
{
	int	i;

	kept = calloc(1, 1000);
	leak(4);
	heaptest_scrub();
	printf("exits: %s\n", argc > 1 ? argv[1] : "return");
	fflush(stdout);
	if (argc > 1 && strcmp(argv[1], "_exit") == 0)
		_exit(5);
	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		execl(argv[0], argv[0], "_exit", (char *)NULL);
		return (1);
	}
	if (argc > 1 && strcmp(argv[1], "abort") == 0) {
		for (i = 0; i < 40; i++) {
			leak(1);
			usleep(10000);
		}
		abort();
	}
	return (0);
}
