/*
 * pvtrace truth test: recursion, mutual recursion, static functions, tail
 * calls.  Call counts are compared with callgrind's; self+children of a
 * recursive function must not exceed its caller's.
 */
#include <stdio.h>
#include <stdlib.h>

static long __attribute__((noinline))
fact(long n)
{
	return (n <= 1 ? 1 : n * fact(n - 1));
}

long __attribute__((noinline))
fib(int n)
{
	if (n < 2)
		return (n);
	return (fib(n - 1) + fib(n - 2));
}

static int is_odd(unsigned);

static int __attribute__((noinline))
is_even(unsigned n)
{
	return (n == 0 ? 1 : is_odd(n - 1));
}

static int __attribute__((noinline))
is_odd(unsigned n)
{
	return (n == 0 ? 0 : is_even(n - 1));
}

/* Tail calls: at -O2 each ends in a jmp to the next. */
int __attribute__((noinline))
tail_c(int x)
{
	return (x * 7 + 1);
}

int __attribute__((noinline))
tail_b(int x)
{
	return (tail_c(x + 1));
}

int __attribute__((noinline))
tail_a(int x)
{
	return (tail_b(x * 2));
}

/* Static helpers with work of their own. */
static volatile long sink;

static void __attribute__((noinline))
spin(long n)
{
	long	i;

	for (i = 0; i < n; i++)
		sink += i;
}

static void __attribute__((noinline))
recurse_spin(int depth)
{
	spin(10000);
	if (depth > 0)
		recurse_spin(depth - 1);
}

int
main(int argc, char **argv)
{
	long	s = 0;
	int	i;

	(void)argv;
	s += fact(20);
	s += fib(argc > 1 ? 25 : 22);
	for (i = 0; i < 100; i++)
		s += is_even((unsigned)i * 3);
	for (i = 0; i < 1000; i++)
		s += tail_a(i);
	recurse_spin(50);
	printf("%ld\n", s);
	return (0);
}
