/* fork: parent and child each keep some blocks and leak others; the
 * child writes its own snapshot (PROG.PID.heap). */
#include <stdio.h>
#include <sys/wait.h>
#include "heaptest.h"

void	*kept[8];

static __attribute__((noinline)) void
leak(size_t n, int count)
{
	void *volatile	p;

	while (count-- > 0) {
		p = malloc(n);
		memset(p, 0, n);
	}
	p = NULL;
	(void)p;
}

int
main(void)
{
	pid_t	pid;
	int	status;

	kept[0] = calloc(1, 100);
	leak(40, 3);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		kept[1] = calloc(1, 200);
		leak(24, 5);
		heaptest_scrub();
		printf("fork: child\n");
		return (3);
	}
	waitpid(pid, &status, 0);
	kept[2] = calloc(1, 300);
	leak(56, 2);
	heaptest_scrub();
	printf("fork: parent, child %d\n", WEXITSTATUS(status));
	return (0);
}
