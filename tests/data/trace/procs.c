/*
 * pvtrace truth test: a forked child that counts its own calls, a
 * function that sleeps (real time, no CPU time) beside one that spins
 * (both), and an exit() from deep inside.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

static long __attribute__((noinline))
leaf(long x)
{
	return (x + 1);
}

static void __attribute__((noinline))
work(long n)
{
	long	i;

	for (i = 0; i < n; i++)
		sink += leaf(i);
}

static void __attribute__((noinline))
sleeper(void)
{
	struct timespec	ts = { 0, 200000000 };

	nanosleep(&ts, NULL);
}

static void __attribute__((noinline))
spinner(void)
{
	long	i;

	for (i = 0; i < 50000000; i++)
		sink += i;
}

static void __attribute__((noinline))
leave(int depth)
{
	if (depth == 0) {
		fflush(stdout);
		exit(0);
	}
	leave(depth - 1);
	sink++;
}

int
main(void)
{
	pid_t	pid;

	work(10);
	if ((pid = fork()) == 0) {
		work(100);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	work(1000);
	sleeper();
	spinner();
	printf("%ld\n", sink);
	leave(5);
	return (1);
}
