/*
 * Blocks only a thread's stack reaches, at a snapshot taken on a signal
 * while the thread waits: reachable then (memcheck's leak check at the
 * same moment says so too), lost once it is gone.  Under pvheap the
 * program sends itself the snapshot signal and waits for the file;
 * under valgrind it asks for a leak check.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include "heaptest.h"

struct node {
	struct node	*next;
	char		 pad[40];
};

static int	ready[2], go[2];

static __attribute__((noinline)) struct node *
chain(int n)
{
	struct node	*head = NULL, *x;

	while (n-- > 0) {
		x = calloc(1, sizeof *x);
		x->next = head;
		head = x;
	}
	return (head);
}

static void *
worker(void *arg)
{
	struct node *volatile	mine = chain(5);
	char			c = 'r';

	(void)arg;
	if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
		abort();
	return (mine);
}

/* The file pvheap writes for the first snapshot on a signal. */
static void
wait_snapshot(void)
{
	static char	 path[4096];	/* not stack junk for the scan */
	const char	*out = getenv("PVHEAP_OUT");
	struct stat	 sb;
	size_t		 n;
	int		 i;

	n = strlen(out);
	snprintf(path, sizeof path, "%.*s.1.heap", (int)(n - 5), out);
	kill(getpid(), SIGUSR2);
	for (i = 0; i < 2000 && stat(path, &sb) != 0; i++)
		usleep(5000);
}

int
main(void)
{
	pthread_t	 t;
	struct node	*n, *x;
	char		 c;

	if (pipe(ready) != 0 || pipe(go) != 0)
		return (1);
	pthread_create(&t, NULL, worker, NULL);
	if (read(ready[0], &c, 1) != 1)
		return (1);
	heaptest_scrub();
	if (RUNNING_ON_VALGRIND)
		VALGRIND_DO_LEAK_CHECK;
	else if (getenv("PVHEAP_OUT") != NULL)
		wait_snapshot();
	c = 'g';
	if (write(go[1], &c, 1) != 1)
		return (1);
	pthread_join(t, (void **)&n);
	for (; n != NULL; n = x) {
		x = n->next;
		free(n);
	}
	printf("threads: done\n");
	return (0);
}
