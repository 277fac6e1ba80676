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
