/*
 * Library calls through the PLT, a known number of each: strcmp, strtok,
 * qsort (calling back by_value, the program's own), memcpy and printf,
 * from main, a thread and a child process; then a stretch spent in
 * strlen, where the samples must land.  Built with -fno-builtin, so that
 * each call in the source is a call of the library's function.
 */
#include <sys/wait.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *words[] = { "alpha", "beta", "gamma", "delta", "beta" };
static char big[1 << 20];

static int
by_value(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return (x < y ? -1 : x > y);
}

static int __attribute__((noinline))
compare_words(const char *key, int n)
{
	int	i, same = 0;

	for (i = 0; i < n; i++)
		same += strcmp(words[i % 5], key) == 0;
	return (same);
}

static void *
worker(void *arg)
{
	return ((void *)(long)compare_words(arg, 100));
}

static void __attribute__((noinline))
child_work(void)
{
	_exit(compare_words("gamma", 50) == 10 ? 0 : 1);
}

static size_t __attribute__((noinline))
measure(int n)
{
	size_t	sum = 0;
	int	i;

	for (i = 0; i < n; i++)
		sum += strlen(big + (i & 7));
	return (sum);
}

int
main(int argc, char **argv)
{
	char		 line[] = "one two three four five six seven", *t;
	int		 v[1000], w[1000], i, tokens = 0, st;
	void		*rv;
	pthread_t	 th;
	pid_t		 pid;

	printf("same %d\n", compare_words("beta", 1000));
	for (t = strtok(line, " "); t != NULL; t = strtok(NULL, " "))
		tokens++;
	for (i = 0; i < 1000; i++)
		v[i] = (i * 7919) % 1000;
	qsort(v, 1000, sizeof v[0], by_value);
	for (i = 0; i < 300; i++)
		memcpy(w, v, sizeof v[0] * (size_t)(i + 1));
	if (pthread_create(&th, NULL, worker, "delta") != 0)
		return (1);
	pthread_join(th, &rv);
	if ((pid = fork()) == 0)
		child_work();
	waitpid(pid, &st, 0);
	memset(big, 'x', sizeof big - 1);
	printf("tokens %d sorted %d %d thread %ld child %d\n", tokens, w[0],
	    w[299], (long)rv, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	printf("length %zu\n", measure(argc > 1 ? atoi(argv[1]) : 3000));
	return (0);
}
