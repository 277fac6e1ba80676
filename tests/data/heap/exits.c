/* The ways out: "_exit" leaves by _exit (no destructors, no atexit),
 * "abort" keeps allocating until it aborts (only --every snapshots
 * remain), "exec" replaces itself with this program again ("_exit").
 * "raise N SIG" sends itself SIG N times and returns at once; "sleep"
 * says so and sleeps 5 s (a signal cuts it short).  "stderr FILE" closes
 * fd 2 and opens FILE there; "closeall FILE" closes every descriptor
 * from 2 up and opens FILE into each number up to 300. */
#include <fcntl.h>
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
	if (argc > 3 && strcmp(argv[1], "raise") == 0) {
		for (i = 0; i < atoi(argv[2]); i++)
			kill(getpid(), atoi(argv[3]));
		return (0);
	}
	if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
		printf("sleeping\n");
		fflush(stdout);
		usleep(5000000);
		return (0);
	}
	if (argc > 2 && strcmp(argv[1], "stderr") == 0) {
		close(2);
		if (open(argv[2], O_WRONLY | O_CREAT | O_APPEND, 0600) != 2)
			return (1);
		fprintf(stderr, "data\n");
		return (0);
	}
	if (argc > 2 && strcmp(argv[1], "closeall") == 0) {
		for (i = 2; i < 1024; i++)
			close(i);
		while ((i = open(argv[2], O_WRONLY | O_CREAT | O_APPEND,
		    0600)) != -1 && i < 300)
			;
		if (write(2, "data\n", 5) != 5)
			return (1);
		return (0);
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
