/*
 * What pvtrace's files share: names read back in the codec profview's
 * reader shares (monname.c), the clock, growing arrays, making files.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "monname.h"
#include "capture/pvtrace/pvtrace.h"

/*
 * Decode n bytes of an escaped name; NULL if it is malformed (or out of
 * memory).  A bare ';' or '@' passes: pvtrace reads names one field at a
 * time, where they separate nothing.
 */
char *
pvt_name_get(const char *s, size_t n)
{
	char	*out;

	if ((out = malloc(n + 1)) == NULL)
		return (NULL);
	if (monname_decode(s, n, out, 0) != 0) {
		free(out);
		return (NULL);
	}
	return (out);
}

/* The runner's reading of the agents' clock (see struct pvt_shm). */
uint64_t
pvt_clock(int mono)
{
	struct timespec	ts;

	if (!mono)
		return (__rdtsc());
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/* Room for n + 1 elements of size in p (capacity *cap); exits if none. */
void *
pvt_grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return (p);
	*cap = *cap != 0 ? *cap * 2 : 256;
	if ((p = reallocarray(p, *cap, size)) == NULL) {
		fputs("pvtrace: out of memory\n", stderr);
		exit(127);
	}
	return (p);
}

/*
 * Begin a plan or profile at path (outfile.h: 0600, never through a
 * planted symlink, a FIFO or device written in place): the stream, or
 * NULL and *cause.
 */
FILE *
pvt_create(struct outfile *o, const char *path, char **cause)
{
	FILE	*f;

	if ((f = outfile_fopen(o, path, "w")) == NULL &&
	    asprintf(cause, "%s: %s", path, strerror(errno)) < 0)
		*cause = NULL;
	return (f);
}

/*
 * Finish a file begun by pvt_create: flush, close and put it in place,
 * so that a reader never sees half a plan or profile.
 */
int
pvt_commit(FILE *f, struct outfile *o, const char *path, char **cause)
{
	if (outfile_fclose(o, f) != 0) {
		if (asprintf(cause, "%s: %s", path, strerror(errno)) < 0)
			*cause = NULL;
		return (-1);
	}
	return (0);
}
