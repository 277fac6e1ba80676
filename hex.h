/*
 * The one hex decoder: digits of either case, as build-ids, addresses in
 * text formats and users write them.  A header and nothing to link, so
 * the LD_PRELOAD agents in capture/ use it as well.
 */
#ifndef HEX_H
#define HEX_H

#include <stddef.h>
#include <stdint.h>

/* The value of hex digit c, or -1 if it is not one. */
static inline int
hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* What hex_scan returns for a number that does not fit 64 bits. */
#define HEX_TOO_BIG	((size_t)-1)

/*
 * The hex digits at s, at most len of them (it stops at the first other
 * character, a NUL too, so a string can be given SIZE_MAX): their value
 * in *v and how many there were (0: none, *v 0), or HEX_TOO_BIG when the
 * value does not fit 64 bits (leading zeros do).  No 0x, no h: what may
 * come before and after the digits is the caller's format's.
 */
static inline size_t
hex_scan(const char *s, size_t len, uint64_t *v)
{
	size_t	n;
	int	d;

	*v = 0;
	for (n = 0; n < len && (d = hex_digit((unsigned char)s[n])) >= 0;
	    n++) {
		if (*v >> 60 != 0)
			return (HEX_TOO_BIG);
		*v = *v << 4 | (uint64_t)d;
	}
	return (n);
}

#endif
