/*
 * pvtrace's where-the-time-goes test on more code nobody here wrote:
 * Debian's static xz library (liblzma.a), whose time goes to computing
 * where SQLite's goes to waiting on memory (tests/e2e/trace-top.sh).
 *
 * xz-driver [ROUNDS]: compress a megabyte of text-like bytes at xz's
 * default preset and decompress it again ROUNDS times (default 1),
 * checking the round trip; prints the compressed sizes' sum.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#define XZD_SIZE	(1u << 20)

/* Words drawn by a xorshift: compressible, not trivially. */
static void
xzd_fill(uint8_t *p, size_t n)
{
	static const char	*w[] = { "the ", "profile ", "of ", "a ",
	    "call ", "sample ", "stack ", "function ", "time ", "count ",
	    "shadow ", "trampoline ", "\n", "heap ", "block ", "leak " };
	uint64_t		 x = 88172645463325252ull;
	size_t			 i = 0, l;

	while (i < n) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		l = strlen(w[x % 16]);
		if (l > n - i)
			l = n - i;
		memcpy(p + i, w[x % 16], l);
		i += l;
	}
}

int
main(int argc, char **argv)
{
	uint64_t	 limit = UINT64_MAX;
	size_t		 cap = XZD_SIZE + XZD_SIZE / 2 + 4096, cn, dn, at;
	unsigned long	 sum = 0;
	long		 rounds = argc > 1 ? atol(argv[1]) : 1, r;
	uint8_t		*in, *c, *d;

	in = malloc(XZD_SIZE);
	c = malloc(cap);
	d = malloc(XZD_SIZE);
	if (in == NULL || c == NULL || d == NULL)
		return (1);
	xzd_fill(in, XZD_SIZE);
	for (r = 0; r < rounds; r++) {
		cn = dn = at = 0;
		if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, in,
		    XZD_SIZE, c, &cn, cap) != LZMA_OK ||
		    lzma_stream_buffer_decode(&limit, 0, NULL, c, &at, cn, d,
		    &dn, XZD_SIZE) != LZMA_OK || dn != XZD_SIZE ||
		    memcmp(in, d, XZD_SIZE) != 0) {
			fprintf(stderr, "xz-driver: round %ld failed\n", r);
			return (1);
		}
		sum += cn;
	}
	printf("%lu\n", sum);
	free(in);
	free(c);
	free(d);
	return (0);
}
