/*
 * Names in pvtrace's text files (.pdt, .mon): a symbol name may hold any
 * byte but NUL, and the files are split on white space, so every byte
 * outside '!'..'~', and '%' itself, is written as %XX; so are ';', which
 * joins a call path in a .mon, and '@', which qualifies a name there.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "capture/pvtrace/pvtrace.h"

void
pvt_name_put(FILE *f, const char *s)
{
	const unsigned char	*p;

	if (*s == '\0') {
		fputs("%00", f);	/* never an empty field */
		return;
	}
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '%' || *p == ';' ||
		    *p == '@')
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
}

static int
pvt_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	return (-1);
}

/*
 * Decode n bytes of an escaped name; NULL if an escape is malformed or
 * decodes to NUL (which pvt_name_put writes only for the empty name).
 */
char *
pvt_name_get(const char *s, size_t n)
{
	char	*out, *o;
	size_t	 i;
	int	 h, l;

	if (n == 3 && memcmp(s, "%00", 3) == 0)
		return (calloc(1, 1));
	if ((out = malloc(n + 1)) == NULL)
		return (NULL);
	for (i = 0, o = out; i < n; i++) {
		if (s[i] != '%') {
			if ((unsigned char)s[i] <= ' ' ||
			    (unsigned char)s[i] >= 0x7f)
				goto bad;
			*o++ = s[i];
			continue;
		}
		if (n - i < 3)
			goto bad;
		if ((h = pvt_hexval(s[i + 1])) < 0 ||
		    (l = pvt_hexval(s[i + 2])) < 0 || (h | l) == 0)
			goto bad;
		*o++ = (char)(h << 4 | l);
		i += 2;
	}
	*o = '\0';
	return (out);
bad:
	free(out);
	return (NULL);
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
