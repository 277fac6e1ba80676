/*
 * OVRACT for Turbo Pascal 5 (NAME.OVD): the overlay manager's event log,
 * read exactly as OVRACT's document's pseudo-code lays it out.  A file
 * of words: version, PrefixSeg, the code list up to a zero word, then
 * events until the end of the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xmalloc.h"
#include "ingest/bytes.h"
#include "ingest/ingest.h"
#include "ingest/ovd.h"
#include "store/ovd.h"

#define OVD_VERSION	1
#define OVD_MARK	0xffff		/* OvrHeapMark: a buffer change follows */
#define OVD_DAY		0x1800b0	/* BIOS ticks from midnight to midnight */
#define OVD_UNIT_BYTES	12		/* StatSeg, FileOfs, three words */

/*
 * The per-event oddities: each is a warning row and a line on stderr, so
 * a file with millions of them would load at the speed of the terminal.
 * The first OVD_WARN_MAX of a kind are told, the rest counted.
 */
#define OVD_WARN_MAX	10

enum ovd_odd {
	OVD_ODD_PAST_END,	/* a unit runs past the buffer's end */
	OVD_ODD_NOT_LISTED,	/* a load whose list lacks the unit */
	OVD_ODD_NOT_IN,		/* a reprieve of a unit not in there */
	OVD_ODD_COUNT
};

static const char *ovd_odd_what[OVD_ODD_COUNT] = {
	"units loaded past the buffer's end",
	"load events whose list lacks the unit loaded",
	"reprieves of units not in the buffer",
};

struct ovd_unit {
	struct store_ovr_unit	 u;
	char			*name;
	/* The residency open in the current load list, if any. */
	int			 open;
	uint16_t		 load_seg;
	int64_t			 first_seq;
	int64_t			 seen;		/* seq of the last list it was in */
};

struct ovd {
	struct ingest_ctx	*ctx;
	struct ovd_unit		*units;
	size_t			 nunits;
	uint32_t		*by_seg;	/* StatSeg -> unit index + 1 */
	uint32_t		*resident;	/* units with an open residency */
	size_t			 nresident;
	uint32_t		*list;		/* scratch: this event's units */
	uint16_t		*list_load;
	struct store_ovd	 hdr;
	int64_t			 odd[OVD_ODD_COUNT]; /* seen so far */
};

/* Whether to tell the next oddity of this kind (else it is counted). */
static int
ovd_odd_tell(struct ovd *o, enum ovd_odd kind)
{
	return (++o->odd[kind] <= OVD_WARN_MAX);
}

/* One warning for each kind of oddity that had more than were told. */
static void
ovd_odd_summary(struct ovd *o)
{
	int	i;

	for (i = 0; i < OVD_ODD_COUNT; i++) {
		if (o->odd[i] > OVD_WARN_MAX)
			ingest_warn(o->ctx, 0, "%lld more %s than the %d"
			    " above", (long long)(o->odd[i] - OVD_WARN_MAX),
			    ovd_odd_what[i], OVD_WARN_MAX);
	}
}

static int
ovd_has_suffix(const char *name, const char *suffix)
{
	size_t	n = strlen(name), m = strlen(suffix);

	return (n >= m && strcasecmp(name + n - m, suffix) == 0);
}

/*
 * Without a magic number the evidence is structure: version 1, a code list
 * of distinct real segments ended by a zero word, and a first event (if
 * any) that opens with the buffer-change mark.
 */
static int
ovd_detect(const uint8_t *buf, size_t len, const char *name)
{
	struct bytes	b;
	uint16_t	w, seg, prefix, code;
	uint32_t	t;
	size_t		n = 0;

	if (name != NULL && ovd_has_suffix(name, ".ovd"))
		return (90);
	bytes_init(&b, buf, len);
	if (bytes_u16(&b, &w) != 0 || w != OVD_VERSION ||
	    bytes_u16(&b, &prefix) != 0 || prefix == 0)
		return (0);
	for (;;) {
		if (bytes_u16(&b, &seg) != 0)
			return (0);
		if (seg == 0)
			break;
		if (seg == OVD_MARK || bytes_skip(&b, 4) != 0 ||
		    bytes_u16(&b, &code) != 0 || code == 0 ||
		    bytes_skip(&b, 4) != 0)
			return (0);
		n++;
	}
	if (n == 0)
		return (0);
	if (bytes_left(&b) == 0)
		return (60);
	if (bytes_u32(&b, &t) != 0 || bytes_u16(&b, &w) != 0 ||
	    w != OVD_MARK)
		return (0);
	return (70);
}

/* Read and check the code list; b is left after its end mark. */
static int
ovd_code_list(struct ovd *o, struct bytes *b)
{
	struct ingest_ctx	*ctx = o->ctx;
	struct ovd_unit		*u;
	size_t			 off, cap = 0;
	uint16_t		 seg;

	for (;;) {
		off = b->off;
		if (bytes_u16(b, &seg) != 0)
			return (ingest_fail(ctx, off, "code list", "the file"
			    " ends after %zu units without the list's zero"
			    " end mark", o->nunits));
		if (seg == 0)
			return (0);
		if (!bytes_have(b, OVD_UNIT_BYTES - 2))
			return (ingest_fail(ctx, off, "code list", "the file"
			    " ends inside unit %zu (%zu of its %d bytes)",
			    o->nunits, bytes_left(b) + 2, OVD_UNIT_BYTES));
		if (seg == OVD_MARK)
			return (ingest_fail(ctx, off, "StatSeg", "FFFFh is the"
			    " buffer-change mark, never a static segment"));
		if (o->by_seg[seg] != 0)
			return (ingest_fail(ctx, off, "StatSeg", "%04Xh is"
			    " listed twice (units %u and %zu)", seg,
			    o->by_seg[seg] - 1, o->nunits));
		/* Bounded: every unit used 12 bytes of the file. */
		if (o->nunits == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			o->units = xreallocarray(o->units, cap,
			    sizeof *o->units);
		}
		u = &o->units[o->nunits];
		memset(u, 0, sizeof *u);
		u->u.stat_seg = seg;
		bytes_u32(b, &u->u.file_ofs);
		bytes_u16(b, &u->u.code_size);
		bytes_u16(b, &u->u.fixup_size);
		bytes_u16(b, &u->u.entry_pts);
		u->seen = -1;
		o->by_seg[seg] = (uint32_t)++o->nunits;
	}
}

static int
ovd_span_close(struct ovd *o, struct ovd_unit *u, int64_t last)
{
	u->open = 0;
	if (store_ovr_loaded_add(o->ctx->st, o->ctx->session, u->u.stat_seg,
	    u->load_seg, u->first_seq, last) != 0)
		return (ingest_store_fail(o->ctx, "ovr_loaded"));
	o->hdr.stays++;
	return (0);
}

/*
 * A load event's list replaces the buffer's contents: residencies that
 * go on (same unit, same place) stay open, the rest close at seq - 1.  The
 * unit this event loaded always starts a new one, even in its old place.
 */
static int
ovd_spans(struct ovd *o, int64_t seq, uint32_t loaded, size_t n)
{
	struct ovd_unit	*u;
	size_t		 i, k;
	uint32_t	 x;

	for (i = 0; i < n; i++) {
		u = &o->units[o->list[i]];
		u->seen = seq;
		if (u->open && (o->list[i] == loaded ||
		    u->load_seg != o->list_load[i])) {
			if (ovd_span_close(o, u, seq - 1) != 0)
				return (-1);
		}
		if (!u->open) {
			u->open = 1;
			u->load_seg = o->list_load[i];
			u->first_seq = seq;
		}
	}
	for (i = k = 0; i < o->nresident; i++) {
		x = o->resident[i];
		u = &o->units[x];
		if (u->seen != seq) {
			if (u->open && ovd_span_close(o, u, seq - 1) != 0)
				return (-1);
		}
	}
	/* The resident set is now exactly this list. */
	for (i = 0; i < n; i++)
		o->resident[k++] = o->list[i];
	o->nresident = k;
	return (0);
}

static void
ovd_truncated(struct ovd *o, size_t start, int64_t seq, size_t at)
{
	o->hdr.truncated = 1;
	ingest_warn(o->ctx, start, "the file ends inside event %lld (at"
	    " offset %zu, %zu bytes short of its end); the %lld complete"
	    " events before it are kept", (long long)seq, at,
	    o->ctx->len - start, (long long)seq);
}

/*
 * The events.  Each is parsed whole before any row is written, so a file
 * cut off inside an event keeps exactly the complete ones.
 */
static int
ovd_events(struct ovd *o, struct bytes *b)
{
	struct ingest_ctx	*ctx = o->ctx;
	struct store_ovr_event	 e;
	struct ovd_unit		*u;
	size_t			 start, off, n, i;
	uint32_t		 raw, idx, loaded = 0;
	uint16_t		 w, org = 0, end = 0, seg, load;
	int64_t			 seq = 0, prev = 0, wraps = 0, base = 0;

	memset(&e, 0, sizeof e);
	while (bytes_left(b) != 0) {
		start = b->off;
		if ((seq & 0x3fff) == 0)
			ingest_progress(ctx, start);
		if (bytes_u32(b, &raw) != 0 || bytes_u16(b, &w) != 0)
			goto truncated;
		if (w == OVD_MARK) {
			off = b->off;
			if (bytes_u16(b, &org) != 0 || bytes_u16(b, &end) != 0)
				goto truncated;
			if (org >= end)
				return (ingest_fail(ctx, off, "OvrHeapOrg",
				    "event %lld: the buffer %04Xh..%04Xh is"
				    " empty", (long long)seq, org, end));
			if (bytes_u16(b, &w) != 0)
				goto truncated;
		} else if (seq == 0)
			return (ingest_fail(ctx, start + 4, "OvrHeapMark",
			    "the first event has no buffer-change record"
			    " (%04Xh, not FFFFh)", w));
		off = b->off - 2;
		if (w == 0 || w == OVD_MARK || o->by_seg[w] == 0)
			return (ingest_fail(ctx, off, "OvrSeg", "event %lld:"
			    " %04Xh is not a unit of the code list",
			    (long long)seq, w));
		e.ovr_seg = w;
		loaded = o->by_seg[w] - 1;
		if (bytes_u16(b, &e.ovr_ofs) != 0)
			goto truncated;

		for (n = 0;; n++) {
			off = b->off;
			if (bytes_u16(b, &seg) != 0)
				goto truncated;
			if (seg == 0)
				break;
			if (bytes_u16(b, &load) != 0)
				goto truncated;
			if ((idx = o->by_seg[seg]) == 0 || seg == OVD_MARK)
				return (ingest_fail(ctx, off, "StaticSegment",
				    "event %lld: %04Xh is not a unit of the"
				    " code list", (long long)seq, seg));
			idx--;
			u = &o->units[idx];
			/* Each unit at most once, so n < nunits. */
			if (u->seen == -2 - seq)
				return (ingest_fail(ctx, off, "StaticSegment",
				    "event %lld: unit %04Xh is in the load list"
				    " twice", (long long)seq, seg));
			u->seen = -2 - seq;
			if (load < org || load >= end)
				return (ingest_fail(ctx, off + 2, "LoadSegment",
				    "event %lld: unit %04Xh loaded at %04Xh,"
				    " outside the buffer %04Xh..%04Xh",
				    (long long)seq, seg, load, org, end));
			if ((uint32_t)load + (u->u.code_size + 15u) / 16 >
			    end && ovd_odd_tell(o, OVD_ODD_PAST_END))
				ingest_warn(ctx, off + 2, "event %lld: unit"
				    " %04Xh (%u bytes) at %04Xh runs past the"
				    " buffer's end %04Xh", (long long)seq, seg,
				    u->u.code_size, load, end);
			o->list[n] = idx;
			o->list_load[n] = load;
		}
		e.reprieve = (n == 0);
		if (!e.reprieve && o->units[loaded].seen != -2 - seq &&
		    ovd_odd_tell(o, OVD_ODD_NOT_LISTED))
			ingest_warn(ctx, start, "event %lld loads unit %04Xh"
			    " but its load list does not hold it",
			    (long long)seq, e.ovr_seg);
		if (e.reprieve && !o->units[loaded].open &&
		    ovd_odd_tell(o, OVD_ODD_NOT_IN))
			ingest_warn(ctx, start, "event %lld reprieves unit"
			    " %04Xh, which is not in the buffer",
			    (long long)seq, e.ovr_seg);

		/* LongInt ticks; the BIOS count restarts at midnight. */
		e.ticks = (int64_t)(int32_t)raw;
		if (seq != 0 && e.ticks + base < prev) {
			if (prev - (e.ticks + base) > OVD_DAY ||
			    prev - (e.ticks + base) <= OVD_DAY / 2)
				return (ingest_fail(ctx, start, "Time",
				    "event %lld at %lld ticks is before event"
				    " %lld at %lld", (long long)seq,
				    (long long)(e.ticks + base),
				    (long long)seq - 1, (long long)prev));
			wraps++;
			base += OVD_DAY;
		}
		e.ticks += base;
		prev = e.ticks;
		e.seq = seq;
		e.heap_org = org;
		e.heap_end = end;
		if (store_ovr_event_add(ctx->st, ctx->session, &e) != 0)
			return (ingest_store_fail(ctx, "ovr_event"));
		if (!e.reprieve && ovd_spans(o, seq, loaded, n) != 0)
			return (-1);
		seq++;
	}
	goto done;
truncated:
	ovd_truncated(o, start, seq, b->len);
done:
	for (i = 0; i < o->nresident; i++) {
		u = &o->units[o->resident[i]];
		if (u->open && ovd_span_close(o, u, seq - 1) != 0)
			return (-1);
	}
	ovd_odd_summary(o);
	o->hdr.wraps = wraps;
	if (store_counter_add(ctx->st, ctx->session, "events", seq) != 0)
		return (ingest_store_fail(ctx, "counter"));
	ingest_progress(ctx, ctx->len);
	return (0);
}

static int
ovd_sym_cmp(const void *a, const void *b)
{
	const struct ingest_sym	*x = *(struct ingest_sym * const *)a;
	const struct ingest_sym	*y = *(struct ingest_sym * const *)b;

	if (x->seg != y->seg)
		return (x->seg < y->seg ? -1 : 1);
	if (x->off != y->off)
		return (x->off < y->off ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/*
 * Names from a Turbo Pascal map: a unit is named by its CODE segment in
 * the segment table (StatSeg is image-relative, like the map's segments),
 * which is all a map made with segments only (TPC /GS) has; else by the
 * module of the publics in its static segment.  Symbols are stored
 * image-relative too, seg * 16 + off, each running to the next public of
 * its segment.
 */
static void
ovd_names_segs(struct ovd *o, const struct ingest_map *map)
{
	const struct ingest_seg	*g;
	size_t			 i;
	uint32_t		 idx;

	for (i = 0; i < map->nsegs; i++) {
		g = &map->segs[i];
		if (g->length == 0 || g->start % 16 != 0 ||
		    g->start / 16 > 0xffff || strcasecmp(g->class, "CODE") != 0)
			continue;
		idx = o->by_seg[g->start / 16];
		if (idx != 0 && o->units[idx - 1].name == NULL)
			o->units[idx - 1].name = xstrdup(g->name);
	}
}

/* The map's names for the units, and its publics as symbols. */
static int
ovd_names(struct ovd *o)
{
	struct ingest_ctx	*ctx = o->ctx;
	struct ingest_map	 map;
	struct ingest_sym	**v = NULL, *s;
	char			*path;
	size_t			 i;
	uint32_t		 idx, size;
	int			 rc;

	if ((rc = ingest_map_open(ctx, &map, &path)) <= 0)
		return (rc);
	rc = -1;
	ovd_names_segs(o, &map);
	if (map.nsyms != 0) {
		v = xreallocarray(NULL, map.nsyms, sizeof *v);
		for (i = 0; i < map.nsyms; i++)
			v[i] = &map.syms[i];
		qsort(v, map.nsyms, sizeof *v, ovd_sym_cmp);
	}
	for (i = 0; i < map.nsyms; i++) {
		s = v[i];
		idx = s->seg <= 0xffff ? o->by_seg[s->seg] : 0;
		if (idx != 0 && o->units[idx - 1].name == NULL &&
		    s->module != NULL)
			o->units[idx - 1].name = xstrdup(s->module);
		size = s->size;
		if (size == 0 && i + 1 < map.nsyms && v[i + 1]->seg == s->seg)
			size = v[i + 1]->off - s->off;
		else if (size == 0 && idx != 0 &&
		    o->units[idx - 1].u.code_size > s->off)
			size = o->units[idx - 1].u.code_size - s->off;
		if (store_symbol_add(ctx->st, ctx->session, s->module, s->name,
		    (uint64_t)s->seg * 16 + s->off, size) != 0) {
			ingest_store_fail(ctx, "symbol");
			goto free_map;
		}
	}
	for (i = 0; i < o->nunits; i++) {
		if (o->units[i].name == NULL) {
			ingest_warn(ctx, 0, "%s names no unit at static segment"
			    " %04Xh", path, o->units[i].u.stat_seg);
			break;
		}
	}
	rc = 0;
free_map:
	free(v);
	ingest_map_free(&map);
	free(path);
	return (rc);
}

static int
ovd_load(struct ingest_ctx *ctx)
{
	struct ovd	 o;
	struct bytes	 b;
	uint16_t	 w;
	size_t		 i;
	int		 rc = -1;

	memset(&o, 0, sizeof o);
	o.ctx = ctx;
	bytes_init(&b, ctx->buf, ctx->len);
	if (bytes_u16(&b, &w) != 0)
		return (ingest_fail(ctx, 0, "FileFormatVersion", "the file has"
		    " %zu bytes, the header needs 4", ctx->len));
	if (w != OVD_VERSION)
		return (ingest_fail(ctx, 0, "FileFormatVersion", "version %u"
		    " is unsupported (profview reads OVRACT version %d)", w,
		    OVD_VERSION));
	o.hdr.version = w;
	if (bytes_u16(&b, &o.hdr.prefix_seg) != 0)
		return (ingest_fail(ctx, 2, "PrefixSeg", "the file has %zu"
		    " bytes, the header needs 4", ctx->len));
	o.by_seg = xcalloc(0x10000, sizeof *o.by_seg);
	if (ovd_code_list(&o, &b) != 0)
		goto out;
	if (o.nunits != 0) {
		o.resident = xcalloc(o.nunits, sizeof *o.resident);
		o.list = xcalloc(o.nunits, sizeof *o.list);
		o.list_load = xcalloc(o.nunits, sizeof *o.list_load);
	}
	if (ovd_events(&o, &b) != 0)
		goto out;
	if (ovd_names(&o) != 0)
		goto out;
	for (i = 0; i < o.nunits; i++) {
		o.units[i].u.name = o.units[i].name;
		if (store_ovr_unit_add(ctx->st, ctx->session,
		    &o.units[i].u) != 0) {
			ingest_store_fail(ctx, "ovr_unit");
			goto out;
		}
	}
	if (store_ovd_add(ctx->st, ctx->session, &o.hdr) != 0) {
		ingest_store_fail(ctx, "ovd");
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < o.nunits; i++)
		free(o.units[i].name);
	free(o.units);
	free(o.by_seg);
	free(o.resident);
	free(o.list);
	free(o.list_load);
	return (rc);
}

const struct ingest_reader ingest_ovd_reader = {
	ovd_detect,
	ovd_load,
};
