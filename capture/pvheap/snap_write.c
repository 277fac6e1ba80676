/*
 * The snapshot file (profview-formats(5), HEAP FILES): the header, the
 * section table, the sections 8-aligned.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"
#include "outfile.h"

static int
snap_write_all(int fd, const void *p, size_t n)
{
	const uint8_t	*q = p;
	ssize_t		 w;

	while (n > 0) {
		if ((w = write(fd, q, n)) < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		q += w;
		n -= (size_t)w;
	}
	return (0);
}

/*
 * The file is made by outfile.c (0600, never through a symlink planted
 * beside it, a FIFO or device written in place, whole or not at all: a
 * program that dies while a periodic snapshot is written leaves nothing
 * behind).  Its calls on a descriptor allocate nothing, and the struct
 * is static: one snapshot at a time (snap_lock), and a thread's stack
 * may be small.
 */
int
snap_write_file(const char *path, const struct snap_sec *sec, size_t nsec)
{
	static struct outfile	 of;
	uint8_t			 head[HEAPFMT_HEADER], ent[HEAPFMT_SECTION];
	static const uint8_t	 zero[8];
	uint64_t		 off, size;
	size_t			 i;
	int			 fd;

	off = HEAPFMT_HEADER + nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++)
		off = ((off + 7) & ~(uint64_t)7) + sec[i].len;
	size = off;
	memset(head, 0, sizeof head);
	memcpy(head, HEAPFMT_MAGIC, HEAPFMT_MAGIC_LEN);
	snap_put16(head + 8, HEAPFMT_MAJOR);
	snap_put16(head + 10, HEAPFMT_MINOR);
	snap_put32(head + 12, (uint32_t)nsec);
	snap_put64(head + 16, size);
	snap_put32(head + 24, HEAPFMT_HEADER);
	if ((fd = outfile_open(&of, path)) == -1)
		return (-1);
	if (snap_write_all(fd, head, sizeof head) != 0)
		goto fail;
	off = HEAPFMT_HEADER + nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++) {
		off = (off + 7) & ~(uint64_t)7;
		memcpy(ent, sec[i].tag, 4);
		snap_put32(ent + 4, sec[i].recsize);
		snap_put64(ent + 8, off);
		snap_put64(ent + 16, sec[i].len / sec[i].recsize);
		if (snap_write_all(fd, ent, sizeof ent) != 0)
			goto fail;
		off += sec[i].len;
	}
	off = HEAPFMT_HEADER + nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++) {
		if (snap_write_all(fd, zero, ((off + 7) & ~(uint64_t)7) -
		    off) != 0)
			goto fail;
		off = (off + 7) & ~(uint64_t)7;
		if (sec[i].len != 0 && snap_write_all(fd, sec[i].p,
		    sec[i].len) != 0)
			goto fail;
		off += sec[i].len;
	}
	/* Whole or not at all: a reader never sees half a snapshot. */
	return (outfile_close(&of));
fail:
	outfile_abort(&of);
	return (-1);
}

/* LEB128: 7 bits a byte, the low ones first, the top bit "more". */
static uint8_t *
snap_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return (p);
}

/* A difference, wrapped to 64 bits, as a small varint either way. */
static uint8_t *
snap_delta(uint8_t *p, uint64_t v, uint64_t from)
{
	uint64_t	d = v - from;

	return (snap_varint(p, (d << 1) ^ (uint64_t)((int64_t)d >> 63)));
}

/*
 * Whether word n of a block is its pointer's at that word, e..end: the
 * target's address plus the offset, unless the offset saturated.  The
 * scan read the word for the record and for the pointer from the same
 * memory with the world stopped, so the two agree: the target need not
 * be read (a random read a block, a third of the packing's time).
 */
static int
snap_word_is_edge(const uint8_t *e, const uint8_t *end, uint32_t n)
{
	for (; e < end && snap_get32(e + 4) <= n; e += HEAPFMT_EDGS_SIZE) {
		if (snap_get32(e + 4) == n)
			return ((snap_get32(e + 12) & HEAPFMT_OFF_MASK) !=
			    HEAPFMT_OFF_MASK);
	}
	return (0);
}

/*
 * The BLKV section of format 2 (heapfmt.h): the records of BLKS and
 * EDGS, packed.  Edges are in order of source, so each block's are the
 * next run of them.  0, or -1 when memory ran out.
 */
int
snap_pack_blocks(const struct snap *s, struct abuf *out)
{
	const uint8_t	*r, *e = s->edges.p, *eend, *k;
	size_t		 nb = s->blks.len / HEAPFMT_BLKS_SIZE;
	size_t		 ne = s->edges.len / HEAPFMT_EDGS_SIZE, i, n;
	uint64_t	 addr, paddr = 0, pseq = 0, w0, w1, head;
	uint32_t	 ptid = 0, pword, pdst, v;
	uint8_t		*p, *q;

	eend = e + ne * HEAPFMT_EDGS_SIZE;
	if ((p = abuf_grow(out, 20)) == NULL)
		return (-1);
	q = snap_varint(snap_varint(p, nb), ne);
	out->len -= 20 - (size_t)(q - p);
	for (i = 0; i < nb; i++) {
		r = s->blks.p + i * HEAPFMT_BLKS_SIZE;
		for (k = e; k < eend && snap_get32(k) == i;
		    k += HEAPFMT_EDGS_SIZE)
			;
		n = (size_t)(k - e) / HEAPFMT_EDGS_SIZE;
		/* 12 varints of at most 10 bytes, 3 of at most 5 a pointer. */
		if ((p = abuf_grow(out, 120 + 15 * n)) == NULL)
			return (-1);
		addr = snap_get64(r + HF_BLKS_ADDR);
		w0 = snap_get64(r + HF_BLKS_WORD0);
		w1 = snap_get64(r + HF_BLKS_WORD1);
		head = (uint64_t)snap_get32(r + HF_BLKS_FLAGS) <<
		    HEAPFMT_V_FLAGS_SHIFT;
		if (w0 != 0 && snap_word_is_edge(e, k, 0))
			head |= HEAPFMT_V_W0_EDGE;
		else if (w0 != 0)
			head |= HEAPFMT_V_W0;
		if (w1 != 0 && snap_word_is_edge(e, k, 1))
			head |= HEAPFMT_V_W1_EDGE;
		else if (w1 != 0)
			head |= HEAPFMT_V_W1;
		q = snap_varint(p, head);
		q = snap_varint(q, addr - paddr);
		q = snap_varint(q, snap_get64(r + HF_BLKS_SIZE));
		q = snap_delta(q, snap_get64(r + HF_BLKS_SEQ), pseq);
		if (head & HEAPFMT_V_W0)
			q = snap_delta(q, w0, addr);
		if (head & HEAPFMT_V_W1)
			q = snap_delta(q, w1, addr);
		q = snap_varint(q, snap_get32(r + HF_BLKS_SLACK));
		q = snap_varint(q, (uint32_t)(snap_get32(r + HF_BLKS_SITE) + 1));
		q = snap_delta(q, snap_get32(r + HF_BLKS_TID), ptid);
		q = snap_varint(q, (uint32_t)(snap_get32(r + HF_BLKS_TYPE) + 1));
		q = snap_varint(q, (uint32_t)(snap_get32(r + HF_BLKS_REGION) +
		    1));
		q = snap_varint(q, n);
		pword = 0;
		pdst = (uint32_t)i;
		for (; e < k; e += HEAPFMT_EDGS_SIZE) {
			q = snap_varint(q, snap_get32(e + 4) - pword);
			q = snap_delta(q, snap_get32(e + 8), pdst);
			v = snap_get32(e + 12);
			q = snap_varint(q, (uint64_t)(v & HEAPFMT_OFF_MASK) << 1 |
			    v >> 31);
			pword = snap_get32(e + 4);
			pdst = snap_get32(e + 8);
		}
		out->len -= 120 + 15 * n - (size_t)(q - p);
		paddr = addr;
		pseq = snap_get64(r + HF_BLKS_SEQ);
		ptid = snap_get32(r + HF_BLKS_TID);
	}
	return (0);
}
