/*
 * pvtrace truth test: functions of 1, 2, 3 and 4 bytes (too short for a
 * jump: they are trapped with int3), called a known number of times.
 */
#include <stdio.h>

int	one(void);	/* c3: ret */
int	two(void);	/* f3 c3: rep ret */
int	three(void);	/* 31 c0 c3: xor %eax,%eax; ret */
int	four(int);	/* 8d 47 01 c3: lea 1(%rdi),%eax; ret */

__asm__(
	".text\n"
	".globl one\n.type one,@function\n.p2align 4\none:\n"
	"\tret\n.size one,.-one\n"
	".globl two\n.type two,@function\n.p2align 4\ntwo:\n"
	"\trep ret\n.size two,.-two\n"
	".globl three\n.type three,@function\n.p2align 4\nthree:\n"
	"\txorl %eax,%eax\n\tret\n.size three,.-three\n"
	".globl four\n.type four,@function\n.p2align 4\nfour:\n"
	"\tleal 1(%rdi),%eax\n\tret\n.size four,.-four\n");

int
main(void)
{
	int	i, s = 0;

	for (i = 0; i < 10; i++)
		one();
	for (i = 0; i < 20; i++)
		two();
	for (i = 0; i < 30; i++)
		s += three();
	for (i = 0; i < 40; i++)
		s += four(i);
	printf("%d\n", s);
	return (0);
}
