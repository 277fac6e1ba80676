/*
 * The program the prfd tests' dumps profile: three functions that spend
 * 5:3:2 of the work, kept apart (noinline, noclone) so that each has its
 * own symbol for nm(1), the oracle of the dumps' symbol names.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) static void
five(unsigned long n)
{
	unsigned long	i;

	for (i = 0; i < 5 * n; i++)
		sink += i ^ (i >> 3);
}

__attribute__((noinline, noclone)) static void
three(unsigned long n)
{
	unsigned long	i;

	for (i = 0; i < 3 * n; i++)
		sink += i * 7;
}

__attribute__((noinline, noclone)) static void
two(unsigned long n)
{
	unsigned long	i;

	for (i = 0; i < 2 * n; i++)
		sink -= i;
}

int
main(int argc, char **argv)
{
	unsigned long	n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;

	five(n);
	three(n);
	two(n);
	printf("%lu\n", sink);
	return (0);
}
