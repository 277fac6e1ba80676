/*
 * pvtrace truth test: four threads (each its own shadow stack), a
 * function that returns through pthread_exit, and a qsort comparator
 * called back from the C library.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long sink;		/* added to atomically: the threads overlap */

static int __attribute__((noinline))
cmp(const void *a, const void *b)
{
	int	x = *(const int *)a, y = *(const int *)b;

	return ((x > y) - (x < y));
}

static long __attribute__((noinline))
leaf(long x)
{
	return (x * 3 + 1);
}

static void __attribute__((noinline))
work(long n)
{
	long	i;

	for (i = 0; i < n; i++)
		__atomic_fetch_add(&sink, leaf(i), __ATOMIC_RELAXED);
}

static void __attribute__((noinline))
bail(void)
{
	pthread_exit(NULL);
}

static void *
thread_main(void *arg)
{
	long	id = (long)arg;
	int	v[64], i;

	work(1000 * (id + 1));
	for (i = 0; i < 64; i++)
		v[i] = (int)((i * 37 + id) % 64);
	qsort(v, 64, sizeof v[0], cmp);
	if (id == 3)
		bail();
	return (NULL);
}

int
main(void)
{
	pthread_t	t[4];
	long		i;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	work(500);
	printf("%ld\n", sink);
	return (0);
}
