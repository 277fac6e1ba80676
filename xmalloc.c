#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"

static void (*xmalloc_hook)(void);

void
fatal_hook(void (*fn)(void))
{
	xmalloc_hook = fn;
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	if (xmalloc_hook != NULL)
		xmalloc_hook();
	/* pvprf, pvprfd and pvheap's tools link this too: their own name. */
	fprintf(stderr, "%s: fatal: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *
xmalloc(size_t n)
{
	void	*p;

	if ((p = malloc(n != 0 ? n : 1)) == NULL)
		fatal("out of memory allocating %zu bytes", n);
	return (p);
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n != 0 ? n : 1, size != 0 ? size : 1)) == NULL)
		fatal("out of memory allocating %zu * %zu bytes", n, size);
	return (p);
}

/*
 * xcalloc for an array the browser writes first in a key (a mark a
 * block): its pages are made now, in one system call, and not a page
 * fault at a time in the key.  1 MB of first writes took 3-5 ms of a
 * key's 16 on a virtual machine, MADV_POPULATE_WRITE 0.15 ms.  It keeps
 * the bytes as they are; a kernel without it (before 5.14) refuses it and
 * the faults come later, as before.
 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif
void *
xcalloc_populated(size_t n, size_t size)
{
	void		*p = xcalloc(n, size);
	uintptr_t	 pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	if (pg != 0 && (pg & (pg - 1)) == 0 && n * size >= 16 * pg) {
		lo = (uintptr_t)p & ~(pg - 1);
		hi = ((uintptr_t)p + n * size + pg - 1) & ~(pg - 1);
		madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	}
	return (p);
}

/*
 * Zeroed memory for an array of many megabytes that is written whole at
 * once (a heap snapshot's blocks and pointers): its own mapping, aligned
 * to 2 MB and asked for huge pages, made in one system call.  With 4 KB
 * pages, 96 MB took 57-80 ms to make and 15-23 ms to unmap on this
 * project's virtual machine, with 2 MB pages 13-33 ms (77-108 ms after
 * the machine idled two seconds: its host had taken the free memory
 * back) and under 1 ms: a fifth of a million-block ingest was pages,
 * and a tenth its unmapping at exit.  Where the kernel gives no huge
 * pages (transparent_hugepage "never", before 5.14 no populate) it is
 * ordinary pages, as calloc's.  Under 4 MB it is calloc's memory: a
 * small snapshot would pay 2 MB of zeroes for it.  So it is under
 * AddressSanitizer, whose red zones a mapping of our own would not
 * have.  A header before the array keeps the mapping's length (0 for
 * calloc's) for xfree_big.
 */
#define XBIG_ALIGN	((size_t)2 << 20)
#define XBIG_HEAD	((size_t)64)
#if defined(__SANITIZE_ADDRESS__)
#define XBIG_MIN	SIZE_MAX
#else
#define XBIG_MIN	(2 * XBIG_ALIGN)
#endif

void *
xcalloc_big(size_t n, size_t size)
{
	size_t	 len, map;
	char	*p, *q;

	if (size != 0 && n > (SIZE_MAX - 2 * XBIG_ALIGN) / size)
		fatal("allocation of %zu * %zu bytes overflows", n, size);
	if (n * size < XBIG_MIN) {
		q = xcalloc(1, n * size + XBIG_HEAD);
		*(size_t *)q = 0;
		return (q + XBIG_HEAD);
	}
	len = (n * size + XBIG_HEAD + XBIG_ALIGN - 1) & ~(XBIG_ALIGN - 1);
	map = len + XBIG_ALIGN;
	p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		fatal("out of memory allocating %zu * %zu bytes", n, size);
	/* The aligned part kept, the rest given back. */
	q = (char *)(((uintptr_t)p + XBIG_ALIGN - 1) & ~(XBIG_ALIGN - 1));
	if (q != p)
		munmap(p, (size_t)(q - p));
	if (q + len != p + map)
		munmap(q + len, (size_t)(p + map - (q + len)));
#ifdef MADV_HUGEPAGE
	madvise(q, len, MADV_HUGEPAGE);
#endif
	madvise(q, len, MADV_POPULATE_WRITE);
	*(size_t *)q = len;
	return (q + XBIG_HEAD);
}

void
xfree_big(void *p)
{
	char	*q;

	if (p == NULL)
		return;
	q = (char *)p - XBIG_HEAD;
	if (*(size_t *)q == 0)
		free(q);
	else
		munmap(q, *(size_t *)q);
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		fatal("allocation of %zu * %zu bytes overflows", n, size);
	if ((p = realloc(p, n * size != 0 ? n * size : 1)) == NULL)
		fatal("out of memory allocating %zu * %zu bytes", n, size);
	return (p);
}

char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		fatal("out of memory");
	return (p);
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char	*s;

	if (vasprintf(&s, fmt, ap) == -1)
		fatal("out of memory");
	return (s);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return (s);
}
