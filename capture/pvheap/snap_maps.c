/*
 * The address space as /proc/self/maps gives it, read with the agent's
 * own memory only (the threads may be stopped), and the small helpers
 * the snapshot's files share.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "bsearch.h"
#include "hex.h"
#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

void *
snap_grow(struct abuf *b, size_t n)
{
	void	*p = abuf_grow(b, n);

	if (p != NULL)
		memset(p, 0, n);
	return (p);
}

uint64_t
snap_num(const char **s, int base)
{
	uint64_t	v = 0;
	int		d;

	for (;; (*s)++) {
		if ((d = hex_digit((unsigned char)**s)) < 0 || d >= base)
			return (v);
		v = v * (uint64_t)base + (uint64_t)d;
	}
}

/* Read a whole /proc file into b, NUL-ended; its length or -1. */
ssize_t
snap_slurp(const char *path, struct abuf *b)
{
	ssize_t	n;
	int	fd;
	char	*p;

	b->len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	for (;;) {
		if ((p = abuf_grow(b, 65536)) == NULL)
			break;
		b->len -= 65536;
		if ((n = read(fd, p, 65536)) <= 0)
			break;
		b->len += (size_t)n;
	}
	close(fd);
	if ((p = abuf_grow(b, 1)) == NULL)
		return (-1);
	*p = '\0';
	b->len--;
	return ((ssize_t)b->len);
}

size_t
snap_maps_read(struct abuf *text, struct abuf *out)
{
	struct snap_map	*m;
	char		*s, *e;
	const char	*p;
	uint64_t	 ino;

	if (snap_slurp("/proc/self/maps", text) < 0)
		return (0);
	for (s = (char *)text->p; *s != '\0'; s = e + 1) {
		if ((e = strchr(s, '\n')) == NULL)
			break;
		*e = '\0';
		if ((m = snap_grow(out, sizeof *m)) == NULL)
			break;
		p = s;
		m->lo = snap_num(&p, 16);
		p++;
		m->hi = snap_num(&p, 16);
		p++;
		m->prot = (p[0] == 'r') | (p[1] == 'w') << 1 |
		    (p[2] == 'x') << 2;
		p += 5;
		snap_num(&p, 16);		/* offset */
		while (*p == ' ')
			p++;
		while (*p != ' ' && *p != '\0')
			p++;		/* device */
		while (*p == ' ')
			p++;
		ino = snap_num(&p, 10);
		while (*p == ' ')
			p++;
		m->path = p;
		m->file = ino != 0 && p[0] == '/';
		m->device = strncmp(p, "/dev/", 5) == 0 &&
		    strncmp(p, "/dev/zero", 9) != 0;
	}
	return (out->len / sizeof (struct snap_map));
}

const struct snap_map *
snap_map_find(const struct snap_map *m, size_t n, uint64_t a)
{
	size_t	i;

	/* The mappings are sorted and disjoint: the first ending after a. */
	BSEARCH_FIRST(i, 0, n, m[i].hi <= a);
	return (i < n && m[i].lo <= a ? &m[i] : NULL);
}
