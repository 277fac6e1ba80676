/*
 * The dump file (profview-formats(5)): written by pvprf dump and pvprf
 * record, read back by pvprf print, which prints it the way OS/2's
 * profile tools did.  A file is hostile until checked: every count is
 * checked against the bytes present, every error names the file, the
 * offset and the field.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/pvprf/pvprf.h"
#include "capture/pvprf/prfd.h"
#include "capture/pvprf/pvprfc.h"
#include "vis.h"
#include "xmalloc.h"

/* Files larger than this are refused before they are read. */
#define DFILE_MAX	(1ull << 32)

static void
le_put(unsigned char *b, uint64_t v, int n)
{
	int	i;

	for (i = 0; i < n; i++)
		b[i] = v >> (8 * i);
}

static uint64_t
le_get(const unsigned char *b, int n)
{
	uint64_t	v = 0;
	int		i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | b[i];
	return (v);
}

int
dfile_header(FILE *f, int width, uint32_t pid, uint16_t timval)
{
	unsigned char	h[PRFD_FILE_HEADER];

	memcpy(h, PRFD_FILE_MAGIC, 4);
	le_put(h + 4, PRFD_FILE_VERSION, 2);
	h[6] = width;
	h[7] = 0;
	le_put(h + 8, pid, 4);
	le_put(h + 12, timval, 2);
	return (fwrite(h, sizeof h, 1, f) == 1 ? 0 : -1);
}

/*
 * A record.  The buffer is the API's, ULONGs of this machine's order;
 * the file's are little endian, so on a big-endian machine each ULONG
 * would be turned here (x86-64 and the others Linux runs pvprfd on
 * today are little endian: the bytes go as they are).
 */
int
dfile_record(FILE *f, int width, uint8_t cmd, uint16_t thrdno,
    uint64_t vaddr, const void *buf, uint64_t len)
{
	unsigned char	h[3 + 16];

	h[0] = cmd;
	le_put(h + 1, thrdno, 2);
	le_put(h + 3, vaddr, width);
	le_put(h + 3 + width, len, width);
	if (fwrite(h, 3 + 2 * width, 1, f) != 1)
		return (-1);
	if (len > 0 && fwrite(buf, len, 1, f) != 1)
		return (-1);
	return (0);
}

static int
fail(char **cause, const struct dfile *d, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
fail(char **cause, const struct dfile *d, size_t off, const char *fmt, ...)
{
	va_list	 ap;
	char	*m;

	va_start(ap, fmt);
	m = xvasprintf(fmt, ap);
	va_end(ap);
	*cause = xasprintf("%s: offset %zu: %s", d->name, off, m);
	free(m);
	return (-1);
}

int
dfile_read(const char *name, struct dfile *d, char **cause)
{
	FILE		*f;
	size_t		 off, cap = 0, hl;
	long		 end;
	struct drec	*r;

	memset(d, 0, sizeof *d);
	d->name = name;
	if ((f = fopen(name, "rb")) == NULL) {
		*cause = xasprintf("%s: %s", name, strerror(errno));
		return (-1);
	}
	if (fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < 0 ||
	    (uint64_t)end > DFILE_MAX || fseek(f, 0, SEEK_SET) != 0) {
		*cause = xasprintf("%s: not a file pvprf can read", name);
		fclose(f);
		return (-1);
	}
	d->len = end;
	d->data = xmalloc(d->len);
	if (d->len > 0 && fread(d->data, d->len, 1, f) != 1) {
		*cause = xasprintf("%s: %s", name, strerror(errno));
		fclose(f);
		return (-1);
	}
	fclose(f);
	if (d->len < PRFD_FILE_HEADER)
		return (fail(cause, d, d->len, "header: %zu bytes of %d",
		    d->len, PRFD_FILE_HEADER));
	if (memcmp(d->data, PRFD_FILE_MAGIC, 4) != 0)
		return (fail(cause, d, 0, "magic: not PRFD"));
	if (le_get(d->data + 4, 2) < 1 ||
	    le_get(d->data + 4, 2) > PRFD_FILE_VERSION)
		return (fail(cause, d, 4, "version %u: 1 to %d are known",
		    (unsigned)le_get(d->data + 4, 2), PRFD_FILE_VERSION));
	d->width = d->data[6];
	if (d->width != 4 && d->width != 8)
		return (fail(cause, d, 6, "width %d: 4 or 8", d->width));
	d->pid = le_get(d->data + 8, 4);
	d->timval = le_get(d->data + 12, 2);
	off = PRFD_FILE_HEADER;
	hl = 3 + 2 * (size_t)d->width;
	while (off < d->len) {
		if (d->len - off < hl)
			return (fail(cause, d, off, "record header: %zu bytes"
			    " of %zu", d->len - off, hl));
		if (d->nrecs == cap) {
			cap = cap ? cap * 2 : 16;
			d->recs = xreallocarray(d->recs, cap, sizeof *d->recs);
		}
		r = &d->recs[d->nrecs];
		r->off = off;
		r->cmd = d->data[off];
		r->thrdno = le_get(d->data + off + 1, 2);
		r->vaddr = le_get(d->data + off + 3, d->width);
		r->bufsz = le_get(d->data + off + 3 + d->width, d->width);
		if (r->bufsz > d->len - off - hl)
			return (fail(cause, d, off + 3 + d->width,
			    "us_bufsz %" PRIu64 ": %zu bytes left", r->bufsz,
			    d->len - off - hl));
		r->buf = d->data + off + hl;
		off += hl + r->bufsz;
		d->nrecs++;
	}
	return (0);
}

void
dfile_free(struct dfile *d)
{
	free(d->data);
	free(d->recs);
}

/* The record's ULONG i (checked by the caller against bufsz). */
static uint64_t
ul(const struct dfile *d, const unsigned char *b, size_t i)
{
	return (le_get(b + i * d->width, d->width));
}

/* Text from the file: no control character reaches a terminal. */
static void
fwrite_vis(FILE *out, const unsigned char *p, size_t len)
{
	char	*v;

	v = vis_str((const char *)p, len);
	fputs(v, out);
	free(v);
}

static double
share(uint64_t n, uint64_t total)
{
	return (total ? 100.0 * n / total : 0);
}

/* The samples of a MAPPING entry (its length checked by the caller). */
static uint64_t
mapping_samples(const unsigned char *b)
{
	const unsigned char	*p;
	uint64_t		 n = 0, i, k = le_get(b + 36, 4);

	p = b + PRFD_MAPPING_FIXED + b[40] + le_get(b + 41, 2);
	for (i = 0; i < k; i++)
		n += le_get(p + 16 * i + 8, 8);
	return (n);
}

struct gcnt {
	int		 have;
	uint16_t	 flags, shift, timval, nstruc1, nstruc2;
	uint64_t	 v[9];	/* idle vm86 kernel shrmem unknown nhitbufs
				   hitbufcnt reserved1 reserved2 */
	uint8_t		 errcnt;
};

static int
global_read(const struct dfile *d, const struct drec *r, struct gcnt *g,
    char **cause)
{
	size_t	need = 11 + 9 * (size_t)d->width, i;
	const unsigned char *b = r->buf, *p;

	if (r->bufsz != need)
		return (fail(cause, d, r->off, "PRFRET0: us_bufsz %" PRIu64
		    ", not %zu", r->bufsz, need));
	g->have = 1;
	g->flags = le_get(b, 2);
	g->shift = le_get(b + 2, 2);
	for (i = 0; i < 9; i++)
		g->v[i] = ul(d, b + 4, i);
	p = b + 4 + 9 * d->width;
	g->timval = le_get(p, 2);
	g->errcnt = p[2];
	g->nstruc1 = le_get(p + 3, 2);
	g->nstruc2 = le_get(p + 5, 2);
	return (0);
}

/*
 * The dump as OS/2's profile tools printed it: the global counters with
 * their shares of all samples, then the slots with theirs, then what the
 * file adds (threads, hit table, our extension).
 */
int
dfile_print(struct dfile *d, FILE *out, char **cause)
{
	static const char *names[] = { "idle", "vm86", "kernel",
	    "shared memory", "unknown" };
	struct gcnt	 g = { 0 }, tg;
	const struct drec *r, *slots = NULL;
	const unsigned char *b, *e;
	uint64_t	 total, insl = 0, n, period = 0, taken = 0, wall = 0;
	uint64_t	 nthreads = 0;
	const unsigned char *tids = NULL;
	size_t		 i, j, len, k;
	uint32_t	 elen;
	uint16_t	 tag;
	char		 tid[16];
	const unsigned char *mods[256], *argv0 = NULL, *mb;
	uint32_t	 modlen[256], argvlen = 0, limits = 0;
	size_t		 nmods = 0, nmaps = 0;
	const unsigned char *maps[256];
	uint64_t	 inmods = 0;

	for (i = 0; i < d->nrecs; i++) {
		r = &d->recs[i];
		switch (r->cmd) {
		case PRF_RET_GLOBAL:
			if (r->thrdno == 0 && global_read(d, r, &g, cause))
				return (-1);
			break;
		case PRF_RET_VASLOTS:
			if (r->bufsz < 1 || r->bufsz != 1 +
			    (uint64_t)r->buf[0] * 5 * d->width)
				return (fail(cause, d, r->off, "PRFRET1:"
				    " r1_nslots %u needs %zu bytes, us_bufsz"
				    " %" PRIu64, r->bufsz ? r->buf[0] : 0,
				    1 + (size_t)(r->bufsz ? r->buf[0] : 0) *
				    5 * d->width, r->bufsz));
			slots = r;
			break;
		case PRF_RET_VAHITS:
		case PRF_RET_VADETAIL:
			n = r->cmd == PRF_RET_VAHITS ? 1 : 2;
			if (r->bufsz < n * d->width ||
			    ul(d, r->buf, n - 1) > (r->bufsz / d->width) - n ||
			    r->bufsz != (n + ul(d, r->buf, n - 1)) * d->width)
				return (fail(cause, d, r->off, "%s: count does"
				    " not match us_bufsz %" PRIu64,
				    n == 1 ? "r2_nhits" : "r3_ncnts",
				    r->bufsz));
			break;
		case PRF_RET_PVEXT:
			b = r->buf;
			e = r->buf + r->bufsz;
			while (b < e) {
				if (e - b < 8)
					return (fail(cause, d, b - d->data,
					    "extension entry: %td bytes of 8",
					    e - b));
				tag = le_get(b, 2);
				elen = le_get(b + 4, 4);
				if (elen > (uint64_t)(e - b - 8))
					return (fail(cause, d, b + 4 - d->data,
					    "extension len %" PRIu32 ": %td"
					    " bytes left", elen, e - b - 8));
				if (tag == PRFD_EXT_PERIOD && elen >= 24) {
					period = le_get(b + 8, 8);
					taken = le_get(b + 16, 8);
					wall = le_get(b + 24, 8);
				}
				if (tag == PRFD_EXT_MODULE) {
					k = 2 * (size_t)d->width;
					if (elen < k + 1 || elen < k + 1 +
					    b[8 + k])
						return (fail(cause, d,
						    b + 4 - d->data, "module"
						    " len %" PRIu32 " too short"
						    " for its build-id", elen));
					if (nmods < 256)
						mods[nmods++] = b + 8;
					modlen[nmods - 1] = elen;
				}
				if (tag == PRFD_EXT_MAPPING) {
					if (elen < PRFD_MAPPING_FIXED ||
					    elen != PRFD_MAPPING_FIXED +
					    b[8 + 40] + le_get(b + 8 + 41, 2) +
					    16 * le_get(b + 8 + 36, 4))
						return (fail(cause, d,
						    b + 4 - d->data, "mapping"
						    " len %" PRIu32 " does not"
						    " match its fields", elen));
					if (!(le_get(b + 8 + 32, 4) &
					    PRFD_MAPPING_KERNEL))
						inmods += mapping_samples(b +
						    8);
					if (nmaps < 256)
						maps[nmaps++] = b + 8;
				}
				if (tag == PRFD_EXT_COMMAND) {
					argv0 = b + 8;
					argvlen = elen;
				}
				if (tag == PRFD_EXT_LIMITS && elen >= 4)
					limits = (uint32_t)le_get(b + 8, 4);
				if (tag == PRFD_EXT_THREADS) {
					if (elen < 4 || le_get(b + 8, 4) !=
					    (elen - 4) / 4 || elen % 4 != 0)
						return (fail(cause, d,
						    b + 8 - d->data, "threads"
						    " count does not match len"
						    " %" PRIu32, elen));
					nthreads = le_get(b + 8, 4);
					tids = b + 12;
				}
				b += 8 + elen;
			}
			break;
		}
	}
	if (!g.have)
		return (fail(cause, d, d->len, "no PRFRET0 of the process"
		    " (us_cmd 0, us_thrdno 0)"));
	if (slots != NULL) {
		for (j = 0; j < slots->buf[0]; j++)
			insl += ul(d, slots->buf + 1, 5 * j + 4);
	}
	total = insl + inmods;
	for (j = 0; j < 5; j++)
		total += g.v[j];

	fwrite_vis(out, (const unsigned char *)d->name, strlen(d->name));
	fprintf(out, ": pid %" PRIu32 ", timer %u us, ULONG %d bytes,"
	    " flags 0x%04x%s%s%s\n", d->pid, d->timval, d->width,
	    g.flags, g.flags & PRFS_RUNNING ? " running" : "",
	    g.flags & PRFS_THRDS ? " threads" : "",
	    g.flags & PRFS_HITOVFL ? " hit-overflow" : "");
	if (argv0 != NULL) {
		fprintf(out, "command:");
		for (i = 0; i < argvlen; i += strnlen((const char *)argv0 + i,
		    argvlen - i) + 1) {
			fputc(' ', out);
			fwrite_vis(out, argv0 + i, strnlen((const char *)argv0 +
			    i, argvlen - i));
		}
		fputc('\n', out);
	}
	if (period != 0)
		fprintf(out, "period %" PRIu64 " ns, %" PRIu64 " samples"
		    " taken, %.3f s profiled\n", period, taken, wall / 1e9);
	if (limits & PRFD_LIMIT_USER_ONLY)
		fprintf(out, "user mode only: the kernel refused kernel-mode"
		    " samples (perf_event_paranoid), so kernel is 0 and time"
		    " in the kernel counts as idle\n");
	fprintf(out, "\n%-16s %12s %7s\n", "counter", "count", "share");
	for (j = 0; j < 5; j++)
		fprintf(out, "%-16s %12" PRIu64 " %6.2f%%\n", names[j],
		    g.v[j], share(g.v[j], total));
	fprintf(out, "%-16s %12" PRIu64 " %6.2f%%\n", "slots", insl,
	    share(insl, total));
	if (nmaps > 0)
		fprintf(out, "%-16s %12" PRIu64 " %6.2f%%\n", "modules",
		    inmods, share(inmods, total));
	fprintf(out, "%-16s %12" PRIu64 "\n", "total", total);
	if (slots != NULL) {
		fprintf(out, "\n%4s %-18s %12s %5s %12s %7s\n", "slot",
		    "address", "size", "mode", "count", "share");
		for (j = 0; j < slots->buf[0]; j++) {
			b = slots->buf + 1 + j * 5 * d->width;
			fprintf(out, "%4zu 0x%016" PRIx64 " %12" PRIu64
			    " %5s %12" PRIu64 " %6.2f%%\n", j + 1,
			    ul(d, b, 0), ul(d, b, 1),
			    ul(d, b, 3) ? (ul(d, b, 2) & PRF_VAHIT ? "d+h" :
			    "d") : (ul(d, b, 2) & PRF_VAHIT ? "h" : "t"),
			    ul(d, b, 4), share(ul(d, b, 4), total));
			if (j >= nmods)
				continue;
			/* Its module: path, and build-id in hex. */
			mb = mods[j];
			k = 2 * (size_t)d->width;
			fprintf(out, "     ");
			fwrite_vis(out, mb + k + 1 + mb[k],
			    modlen[j] - k - 1 - mb[k]);
			if (mb[k] > 0)
				fprintf(out, " build-id ");
			for (i = 0; i < mb[k]; i++)
				fprintf(out, "%02x", mb[k + 1 + i]);
			fputc('\n', out);
		}
	}
	if (nmaps > 0)
		fprintf(out, "\n%-18s %-18s %12s %7s  %s\n", "mapped at",
		    "load bias", "samples", "share", "module");
	for (j = 0; j < nmaps; j++) {
		mb = maps[j];
		n = mapping_samples(mb);
		fprintf(out, "0x%016" PRIx64 " 0x%016" PRIx64 " %12" PRIu64
		    " %6.2f%%  ", le_get(mb, 8), le_get(mb + 24, 8), n,
		    share(n, total));
		fwrite_vis(out, mb + PRFD_MAPPING_FIXED + mb[40],
		    le_get(mb + 41, 2));
		if (le_get(mb + 32, 4) & PRFD_MAPPING_KERNEL)
			fprintf(out, " (of the kernel counter)");
		fputc('\n', out);
	}
	fprintf(out, "\nhit table: %" PRIu64 " of %" PRIu64 " entries%s\n",
	    g.v[6], g.v[5], g.flags & PRFS_HITOVFL ? " (overflowed)" : "");
	fprintf(out, "detail segment: %u bytes; samples before the divider:"
	    " %" PRIu64 ", lost: %" PRIu64 ", errors: %u\n", 1u << (g.shift &
	    31), g.v[7], g.v[8], g.errcnt);
	k = 0;
	for (i = 0; i < d->nrecs; i++) {
		r = &d->recs[i];
		if (r->cmd != PRF_RET_GLOBAL || r->thrdno == 0)
			continue;
		if (global_read(d, r, &tg, cause) != 0)
			return (-1);
		if (k++ == 0)
			fprintf(out, "\n%6s %8s %10s %10s %10s %10s %10s\n",
			    "thread", "tid", "samples", "idle", "kernel",
			    "shrmem", "unknown");
		len = r->thrdno;
		snprintf(tid, sizeof tid, "-");
		if (tids != NULL && len <= nthreads)
			snprintf(tid, sizeof tid, "%" PRIu64,
			    le_get(tids + 4 * (len - 1), 4));
		fprintf(out, "%6zu %8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		    " %10" PRIu64 " %10" PRIu64 "\n", len, tid, tg.v[7],
		    tg.v[0], tg.v[2], tg.v[3], tg.v[4]);
	}
	return (0);
}
