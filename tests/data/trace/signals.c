/*
 * pvtrace truth test: the program's exit status and death by signal must
 * pass through the runner unchanged, and a program killed (SIGKILL, a
 * crash) in the middle of a deep call chain must lose no count.
 *
 *	signals exit N		return N from main
 *	signals kill SIG	raise SIG ten calls deep
 *	signals segv		a null dereference ten calls deep
 *	signals abort		abort() ten calls deep
 *	signals exec		ten calls deep, exec itself as "signals exit 5"
 *	signals orphan N	leave a child that sleeps N s, return 3 (it
 *				prints "orphan PID" first)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;
static const char *self;

static int __attribute__((noinline))
step(int x)
{
	return (x + 1);
}

static void __attribute__((noinline))
dive(int n, const char *how, int sig)
{
	if (n == 0) {
		fflush(stdout);
		if (strcmp(how, "segv") == 0)
			*(volatile int *)(long)sink = 1;
		else if (strcmp(how, "abort") == 0)
			abort();
		else if (strcmp(how, "exec") == 0) {
			execl(self, self, "exit", "5", (char *)NULL);
			_exit(126);
		}
		else
			kill(getpid(), sig);
	}
	dive(n - 1, how, sig);
	sink += step(n);
}

int
main(int argc, char **argv)
{
	int	i;

	self = argv[0];
	for (i = 0; i < 1000; i++)
		sink += step(i);
	printf("stepped %d\n", sink);
	if (argc > 2 && strcmp(argv[1], "exit") == 0)
		return (atoi(argv[2]));
	if (argc > 2 && strcmp(argv[1], "orphan") == 0) {
		pid_t	pid;

		fflush(stdout);
		if ((pid = fork()) == 0) {
			sleep((unsigned)atoi(argv[2]));
			_exit(0);
		}
		printf("orphan %d\n", (int)pid);
		return (3);
	}
	if (argc > 1)
		dive(10, argv[1], argc > 2 ? atoi(argv[2]) : 0);
	return (0);
}
