/*
 * pvtrace truth test: longjmp and siglongjmp out of deep recursion, many
 * times, with traced work after each landing.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static jmp_buf		jb;
static sigjmp_buf	sjb;
static volatile int	sink;

static void __attribute__((noinline))
deep(int n, int use_sig)
{
	sink++;
	if (n == 0) {
		if (use_sig)
			siglongjmp(sjb, 1);
		longjmp(jb, 1);
	}
	deep(n - 1, use_sig);
	sink++;		/* never reached: not a tail call */
}

static int __attribute__((noinline))
after(int x)
{
	return (x + 1);
}

static void __attribute__((noinline))
round_trip(int depth)
{
	if (setjmp(jb) == 0)
		deep(depth, 0);
	sink += after(depth);
	if (sigsetjmp(sjb, 1) == 0)
		deep(depth, 1);
	sink += after(depth);
}

int
main(void)
{
	int	i;

	for (i = 0; i < 20; i++)
		round_trip(500 + i);
	printf("%d\n", sink);
	return (0);
}
