/*
 * bench/prfd's workload: a fixed amount of work (not of time), so that a
 * profiler's cost shows as time added.  Two threads, each N rounds of
 * arithmetic in the program, a qsort and memcpy in the C library and a
 * system call now and then: samples land in a slot, in a module (the C
 * library, kept by address) and in the kernel, as in a real program.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long	n = 2000;

static int
cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x < y ? -1 : x > y);
}

__attribute__((noinline)) static unsigned
mix(unsigned *v, size_t len, unsigned s)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		s = s * 1103515245 + 12345;
		v[i] ^= s >> 7;
	}
	return (s);
}

static void *
run(void *arg)
{
	unsigned	v[4096], w[4096], s = (unsigned)(long)arg;
	long		i;

	memset(v, 0, sizeof v);
	for (i = 0; i < n; i++) {
		s = mix(v, 4096, s);
		s = mix(v, 4096, s);
		memcpy(w, v, sizeof w);
		qsort(w, 1024, sizeof w[0], cmp);
		if (i % 64 == 0)
			getppid();
	}
	return ((void *)(long)w[0]);
}

int
main(int argc, char **argv)
{
	pthread_t	t;
	void		*r;

	if (argc > 1)
		n = atol(argv[1]);
	pthread_create(&t, NULL, run, (void *)1);
	run((void *)2);
	pthread_join(t, &r);
	return (0);
}
