/*
 * Shared by the heap test programs: they run under pvheap(1) and under
 * valgrind memcheck, and the two leak summaries must agree.  A pointer
 * left behind in a dead stack frame or a register would make a leaked
 * block reachable to whichever tool happens to scan it, so the programs
 * wipe the stack before they end.
 */
#ifndef HEAPTEST_H
#define HEAPTEST_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_DO_LEAK_CHECK
#define VALGRIND_DO_LEAK_CHECK
#define RUNNING_ON_VALGRIND	0
#endif

/* Overwrite the stack below the caller with zeros. */
static __attribute__((noinline, unused)) void
heaptest_scrub(void)
{
	volatile char	buf[65536];

	memset((char *)buf, 0, sizeof buf);
	__asm__ volatile ("" : : "r"(buf) : "memory");
}

/* Blocks the compiler cannot see through: pointers stay in memory. */
static __attribute__((noinline, unused)) void *
heaptest_hide(void *p)
{
	__asm__ volatile ("" : "+r"(p));
	return (p);
}

/* The compiler must assume p's contents are read, so it writes them. */
static __attribute__((noinline, unused)) void *
heaptest_use(void *p)
{
	__asm__ volatile ("" : : "r"(p) : "memory");
	return (p);
}

#endif
