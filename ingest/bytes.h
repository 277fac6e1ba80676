/*
 * bytes: a bounds-checked little-endian reader.  Readers take every value
 * from the file through these, so no count or offset from the file is used
 * before it has been checked against the bytes that are actually there.
 */
#ifndef BYTES_H
#define BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
};

static inline void
bytes_init(struct bytes *b, const uint8_t *p, size_t len)
{
	b->p = p;
	b->len = len;
	b->off = 0;
}

static inline size_t
bytes_left(const struct bytes *b)
{
	return (b->len - b->off);
}

/* Whether n more bytes are there; n may come straight from the file. */
static inline int
bytes_have(const struct bytes *b, uint64_t n)
{
	return (n <= (uint64_t)(b->len - b->off));
}

static inline int
bytes_u8(struct bytes *b, uint8_t *v)
{
	if (!bytes_have(b, 1))
		return (-1);
	*v = b->p[b->off++];
	return (0);
}

static inline int
bytes_u16(struct bytes *b, uint16_t *v)
{
	if (!bytes_have(b, 2))
		return (-1);
	*v = (uint16_t)(b->p[b->off] | (b->p[b->off + 1] << 8));
	b->off += 2;
	return (0);
}

static inline int
bytes_u32(struct bytes *b, uint32_t *v)
{
	const uint8_t	*q;

	if (!bytes_have(b, 4))
		return (-1);
	q = b->p + b->off;
	*v = (uint32_t)q[0] | ((uint32_t)q[1] << 8) | ((uint32_t)q[2] << 16) |
	    ((uint32_t)q[3] << 24);
	b->off += 4;
	return (0);
}

static inline int
bytes_u64(struct bytes *b, uint64_t *v)
{
	uint32_t	lo = 0, hi = 0;

	if (!bytes_have(b, 8))
		return (-1);
	bytes_u32(b, &lo);
	bytes_u32(b, &hi);
	*v = (uint64_t)lo | ((uint64_t)hi << 32);
	return (0);
}

static inline int
bytes_skip(struct bytes *b, uint64_t n)
{
	if (!bytes_have(b, n))
		return (-1);
	b->off += (size_t)n;
	return (0);
}

/* Compare the next n bytes with s without consuming them. */
static inline int
bytes_peek_eq(const struct bytes *b, const void *s, size_t n)
{
	const uint8_t	*q = s;
	size_t		 i;

	if (!bytes_have(b, n))
		return (0);
	for (i = 0; i < n; i++) {
		if (b->p[b->off + i] != q[i])
			return (0);
	}
	return (1);
}

#endif
