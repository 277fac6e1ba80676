/*
 * A program that waits (pvtrace's sampler test, tests/e2e/trace-truth.sh):
 * it sleeps and reads a pipe a child writes to late, many times, and
 * says so if a call is ever interrupted (EINTR) or returns early: the
 * sampler must be invisible to it, as a program untraced sees nothing.
 */
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static int
nap(long ns)
{
	struct timespec	ts = { 0, ns };

	if (nanosleep(&ts, NULL) != 0) {
		printf("nanosleep: %s\n", strerror(errno));
		return (1);
	}
	return (0);
}

__attribute__((noinline)) static int
wait_read(int fd)
{
	struct pollfd	pfd = { fd, POLLIN, 0 };
	char		c;
	ssize_t		n;

	if (poll(&pfd, 1, 5000) != 1) {
		printf("poll: %s\n", strerror(errno));
		return (1);
	}
	if ((n = read(fd, &c, 1)) != 1) {
		printf("read: %s\n", n < 0 ? strerror(errno) : "short");
		return (1);
	}
	return (0);
}

int
main(void)
{
	int	p[2], i, bad = 0, st;
	pid_t	pid;

	if (pipe(p) != 0)
		return (2);
	if ((pid = fork()) == 0) {
		close(p[0]);
		for (i = 0; i < 20; i++) {
			nap(20000000);
			if (write(p[1], "x", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	for (i = 0; i < 20; i++) {
		bad |= nap(5000000);
		bad |= wait_read(p[0]);
	}
	waitpid(pid, &st, 0);
	puts(bad ? "interrupted" : "never interrupted");
	return (bad);
}
