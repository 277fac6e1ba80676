/*
 * pvtrace's profiles (PROG.mon): text, one record a line, in the layout
 * profview-formats(5) gives under MON FILES.  Nothing is taken on trust:
 * every field is checked where it stands, each section must hold the
 * lines its heading counts, every function a call edge or a path names
 * must be in [functions], a path's parent must come before it, and the
 * file must reach [end], so a profile cut short or edited wrong is
 * refused with the byte offset and the field.
 *
 * Version 2 writes [paths] as a tree, each path its parent's number and
 * one function; version 1 wrote every path in full (its size grew with
 * the square of the recursion's depth) and is still read: users keep
 * old profiles.  Version 3 adds the sampler's counts: sample_rate and
 * "samples probe|outside" header lines and a [samples] section after
 * [paths]; a file without them has trap times only (sample_rate NULL).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "monname.h"
#include "xmalloc.h"
#include "ingest/ingest.h"
#include "ingest/mon.h"
#include "store/mon.h"

#define MON_MAGIC	"pvtrace-mon "
#define MON_FIELDS	16

/* A field of a line: where it is in the file and its bytes. */
struct mon_tok {
	size_t		 off;
	const char	*p;
	size_t		 len;
};

struct mon_fn {
	uint64_t	 calls;		/* its [functions] count */
	uint64_t	 pathcalls;	/* the sum over its paths */
	size_t		 off;
};

/* A path of version 2's tree. */
struct mon_path {
	int64_t		 parent;	/* -1: from the top */
	int64_t		 depth;
	uint32_t	 fn;
};

struct mon_rd {
	struct ingest_ctx	*ctx;
	size_t			 pos;		/* the next line's offset */
	size_t			 line;		/* this line's offset */
	struct mon_tok		 v[MON_FIELDS];
	size_t			 n;
	int			 version;	/* 1 to 3 */
	int			 cpu;		/* CPU times were kept */
	struct mon_fn		*fn;
	char			**fkey;		/* by fn: the key as written */
	size_t			 nfn;
	uint32_t		*fmap;		/* key hash -> fn + 1 */
	size_t			 fmask;
	char			**path;		/* v1: paths, escaped, by id */
	size_t			 npath, cappath;
	uint32_t		*pmap;		/* path hash -> id + 1 */
	size_t			 pmask;
	struct mon_path		*tree;		/* v2: [paths] by id */
	uint32_t		*tmap;		/* (parent, fn) -> id + 1 */
	size_t			 tmask;
	int64_t			*open;		/* v2: path above, by depth */
	size_t			 nopen;
	/* What the store's summary and the model add up: must fit. */
	int64_t			 sum_calls, sum_self, sum_top;
};

/* "pvtrace-mon 1" or "pvtrace-mon 2", then the end of the line. */
static int
mon_detect(const uint8_t *buf, size_t len, const char *name)
{
	size_t	n = sizeof MON_MAGIC - 1;

	(void)name;
	if (len >= n + 2 && memcmp(buf, MON_MAGIC, n) == 0 &&
	    buf[n] >= '1' && buf[n] <= '3' && (buf[n + 1] == '\n' ||
	    buf[n + 1] == '\r'))
		return (100);
	return (0);
}

/*
 * The next line, split into fields at spaces and tabs: 1, 0 at the end of
 * the file, -1 (failed) on a NUL byte.  The last field takes the rest
 * when the line has more than max.
 */
static int
mon_next(struct mon_rd *r, size_t max)
{
	const char	*b = (const char *)r->ctx->buf;
	size_t		 len = r->ctx->len, i, end;

	if (r->pos >= len)
		return (0);
	r->line = r->pos;
	for (end = r->pos; end < len && b[end] != '\n'; end++) {
		if (b[end] == '\0')
			return (ingest_fail(r->ctx, end, "line", "a NUL byte"));
	}
	r->pos = end < len ? end + 1 : end;
	if (end > r->line && b[end - 1] == '\r')
		end--;
	r->n = 0;
	for (i = r->line; i < end && r->n < max; ) {
		while (i < end && (b[i] == ' ' || b[i] == '\t'))
			i++;
		if (i == end)
			break;
		r->v[r->n].off = i;
		r->v[r->n].p = b + i;
		if (r->n == max - 1) {
			r->v[r->n++].len = end - i;
			break;
		}
		while (i < end && b[i] != ' ' && b[i] != '\t')
			i++;
		r->v[r->n].len = i - r->v[r->n].off;
		r->n++;
	}
	return (1);
}

/* The next line that is not blank or a comment. */
static int
mon_data(struct mon_rd *r, size_t max)
{
	int	rc;

	while ((rc = mon_next(r, max)) == 1) {
		if (r->n > 0 && r->v[0].p[0] != '#')
			return (1);
	}
	return (rc);
}

static int
mon_is(const struct mon_tok *t, const char *s)
{
	return (t->len == strlen(s) && memcmp(t->p, s, t->len) == 0);
}

/* func.how for a .mon function's how (store_func_how's names), or -1. */
static int
mon_how(const struct mon_tok *t)
{
	int	h;

	for (h = STORE_HOW_JUMP; h <= STORE_HOW_LEAF; h++) {
		if (mon_is(t, store_func_how[h]))
			return (h);
	}
	return (-1);
}

static char *
mon_str(const struct mon_tok *t)
{
	char	*s = xmalloc(t->len + 1);

	memcpy(s, t->p, t->len);
	s[t->len] = '\0';
	return (s);
}

/* A decimal integer, signed if sign; "-" is NULL (0, *null set). */
static int
mon_int(struct mon_rd *r, const struct mon_tok *t, const char *field,
    int sign, int dash, int64_t *v, int *null)
{
	size_t		 i = 0;
	uint64_t	 x = 0, lim = INT64_MAX;
	int		 neg = 0;

	if (null != NULL)
		*null = 0;
	if (dash && mon_is(t, "-")) {
		*v = 0;
		if (null != NULL)
			*null = 1;
		return (0);
	}
	if (sign && t->len > 1 && t->p[0] == '-') {
		neg = 1;
		i = 1;
		lim = (uint64_t)INT64_MAX + 1;
	}
	if (i == t->len)
		return (ingest_fail(r->ctx, t->off, field, "no number"));
	for (; i < t->len; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return (ingest_fail(r->ctx, t->off, field, "'%.*s' is"
			    " not a%s number", (int)t->len, t->p, sign ? "n" :
			    " non-negative"));
		if (x > (lim - (uint64_t)(t->p[i] - '0')) / 10)
			return (ingest_fail(r->ctx, t->off, field, "'%.*s' is"
			    " out of range", (int)t->len, t->p));
		x = x * 10 + (uint64_t)(t->p[i] - '0');
	}
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return (0);
}

/*
 * The value of a lower-case hex digit, or -1.  pvtrace writes addresses
 * with PRIx64 and the reader takes that spelling only, not hex_digit's
 * two cases: an address is text in a function key too
 * (name@module+0xaddr), keys are compared as strings, and +0x11A0 would
 * name another function than +0x11a0.
 */
static int
mon_hexdigit(char c)
{
	if (c >= 'A' && c <= 'F')
		return (-1);
	return (hex_digit((unsigned char)c));
}

static int
mon_hex(struct mon_rd *r, const struct mon_tok *t, const char *field,
    uint64_t *v)
{
	size_t	i;
	int	d;

	if (t->len < 3 || t->len > 18 || t->p[0] != '0' || t->p[1] != 'x')
		return (ingest_fail(r->ctx, t->off, field, "'%.*s' is not a"
		    " 0x address", (int)t->len, t->p));
	*v = 0;
	for (i = 2; i < t->len; i++) {
		if ((d = mon_hexdigit(t->p[i])) < 0)
			return (ingest_fail(r->ctx, t->off, field, "'%.*s' is"
			    " not a 0x address", (int)t->len, t->p));
		*v = *v << 4 | (uint64_t)d;
	}
	if (*v > INT64_MAX)
		return (ingest_fail(r->ctx, t->off, field, "'%.*s' is out of"
		    " range", (int)t->len, t->p));
	return (0);
}

/* A decimal with at most one point (ns with tenths, Hz): picoseconds. */
static int
mon_dec(struct mon_rd *r, const struct mon_tok *t, const char *field,
    int64_t scale, int64_t *v)
{
	char	 buf[32], *end;
	double	 d;
	size_t	 i, dots = 0;

	if (t->len == 0 || t->len >= sizeof buf)
		goto bad;
	for (i = 0; i < t->len; i++) {
		if (t->p[i] == '.')
			dots++;
		else if (t->p[i] < '0' || t->p[i] > '9')
			goto bad;
	}
	if (dots > 1 || t->p[0] == '.' || t->p[t->len - 1] == '.')
		goto bad;
	memcpy(buf, t->p, t->len);
	buf[t->len] = '\0';
	errno = 0;
	d = strtod(buf, &end) * (double)scale;
	if (errno != 0 || *end != '\0' || d > 9e18)
		goto bad;
	*v = (int64_t)(d + 0.5);
	return (0);
bad:
	return (ingest_fail(r->ctx, t->off, field, "'%.*s' is not a"
	    " non-negative decimal", (int)t->len, t->p));
}

/*
 * An escaped name (monname.c): every byte outside '!'..'~', and '%', ';',
 * '@', as %XX; "%00" is the empty name.  NULL if malformed.
 */
static char *
mon_unescape(const char *p, size_t len)
{
	char	*s = xmalloc(len + 1);

	if (monname_decode(p, len, s, MONNAME_FIELD) != 0) {
		free(s);
		return (NULL);
	}
	return (s);
}

static char *
mon_name(struct mon_rd *r, const struct mon_tok *t, const char *field)
{
	char	*s;

	if ((s = mon_unescape(t->p, t->len)) == NULL)
		ingest_fail(r->ctx, t->off, field, "'%.*s' is not an escaped"
		    " name", (int)(t->len > 60 ? 60 : t->len), t->p);
	return (s);
}

/*
 * Whether p[0..n) is all lower-case hex digits.  Counted, not strspn:
 * the file is mapped, with no NUL after its last byte.
 */
static int
mon_hexdigits(const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (mon_hexdigit(p[i]) < 0)
			return (0);
	}
	return (1);
}

/*
 * A function key: an escaped name, or name@module+0xaddr when two
 * functions share the name.  Its name part, unescaped, goes to *name.
 */
static char *
mon_key(struct mon_rd *r, const char *p, size_t len, size_t off,
    const char *field, char **name)
{
	const char	*at = memchr(p, '@', len);
	char		*n, *m = NULL, *key;
	const char	*plus;

	if ((n = mon_unescape(p, at != NULL ? (size_t)(at - p) : len)) ==
	    NULL)
		goto bad;
	if (at == NULL) {
		if (name != NULL)
			*name = xstrdup(n);
		return (n);
	}
	plus = memchr(at, '+', len - (size_t)(at - p));
	if (plus == NULL || plus == at + 1 || len - (size_t)(plus - p) < 4 ||
	    plus[1] != '0' || plus[2] != 'x' ||
	    (m = mon_unescape(at + 1, (size_t)(plus - at - 1))) == NULL ||
	    !mon_hexdigits(plus + 3, len - (size_t)(plus - p) - 3)) {
		free(n);
		free(m);
		goto bad;
	}
	key = xasprintf("%s@%s+%.*s", n, m, (int)(len - (size_t)(plus - p) -
	    1), plus + 1);
	if (name != NULL)
		*name = n;
	else
		free(n);
	free(m);
	return (key);
bad:
	ingest_fail(r->ctx, off, field, "'%.*s' is not a function key",
	    (int)(len > 60 ? 60 : len), p);
	return (NULL);
}

static uint64_t
mon_hash(const char *p, size_t len)
{
	uint64_t	h = 1469598103934665603ULL;
	size_t		i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return (h);
}

/* Find (or, with add, insert) p in a set of strings; index or -1. */
static int64_t
mon_set(char **strs, size_t n, uint32_t **map, size_t *mask, const char *p,
    size_t len, int add)
{
	size_t		 h, i;
	uint32_t	*nm;

	if (*map == NULL || (add && (n + 1) * 2 > *mask + 1)) {
		i = *map == NULL ? 255 : *mask * 2 + 1;
		nm = xcalloc(i + 1, sizeof *nm);
		if (*map != NULL) {
			for (h = 0; h <= *mask; h++) {
				uint32_t	v = (*map)[h];
				size_t		k;

				if (v == 0)
					continue;
				k = mon_hash(strs[v - 1],
				    strlen(strs[v - 1])) & i;
				while (nm[k] != 0)
					k = (k + 1) & i;
				nm[k] = v;
			}
			free(*map);
		}
		*map = nm;
		*mask = i;
	}
	for (h = mon_hash(p, len) & *mask; (*map)[h] != 0;
	    h = (h + 1) & *mask) {
		i = (*map)[h] - 1;
		if (strlen(strs[i]) == len && memcmp(strs[i], p, len) == 0)
			return ((int64_t)i);
	}
	if (!add)
		return (-1);
	(*map)[h] = (uint32_t)n + 1;
	return ((int64_t)n);
}

/* A function by its key as written: its index, or -1. */
static int64_t
mon_fn_find(struct mon_rd *r, const char *p, size_t len)
{
	return (mon_set(r->fkey, r->nfn, &r->fmap, &r->fmask, p, len, 0));
}

/* The header: up to the first section.  *got says which keys came. */
enum {
	MON_H_PROGRAM, MON_H_RUNS, MON_H_REAL, MON_H_STATUS, MON_H_CLOCK,
	MON_H_CPU, MON_H_JUMP, MON_H_TRAP, MON_H_COUNT
};
static const char *const mon_required[MON_H_COUNT] = {
	"program", "runs", "real_ns", "status", "clock", "cpu",
	"overhead jump", "overhead trap"
};

struct mon_head {
	struct store_mon	 m;
	char			*program, *build_id, *command, *first, *last;
	char			*status, *clock, *cpu, *error;
	int			 got[MON_H_COUNT];
	int64_t			 outside[STORE_SA_COUNT];	/* samples */
};

static void
mon_head_free(struct mon_head *h)
{
	free(h->program);
	free(h->build_id);
	free(h->command);
	free(h->first);
	free(h->last);
	free(h->status);
	free(h->clock);
	free(h->cpu);
	free(h->error);
}

static int
mon_header_line(struct mon_rd *r, struct mon_head *h)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct mon_tok		*v = r->v;
	int64_t			 x;
	char			*a, *b, *c;
	size_t			 i;
	int			 k;

	if (mon_is(&v[0], "program") && r->n == 2) {
		if ((a = mon_name(r, &v[1], "program")) == NULL)
			return (-1);
		free(h->program);
		h->program = a;
		h->got[MON_H_PROGRAM] = 1;
	} else if (mon_is(&v[0], "build_id") && r->n == 2) {
		free(h->build_id);
		h->build_id = mon_is(&v[1], "-") ? NULL : mon_str(&v[1]);
		if (h->build_id != NULL && strspn(h->build_id,
		    "0123456789abcdef") != v[1].len)
			return (ingest_fail(ctx, v[1].off, "build_id", "not"
			    " hexadecimal"));
	} else if (mon_is(&v[0], "command")) {
		free(h->command);
		h->command = xstrdup("");
		for (i = 1; i < r->n; i++) {
			if ((a = mon_name(r, &v[i], "command")) == NULL)
				return (-1);
			b = xasprintf("%s%s%s", h->command, i > 1 ? " " : "",
			    a);
			free(a);
			free(h->command);
			h->command = b;
		}
	} else if ((mon_is(&v[0], "first_run") || mon_is(&v[0],
	    "last_run")) && r->n == 2) {
		a = mon_str(&v[1]);
		if (strlen(a) != 20 || a[4] != '-' || a[10] != 'T' ||
		    a[19] != 'Z') {
			free(a);
			return (ingest_fail(ctx, v[1].off, mon_is(&v[0],
			    "last_run") ? "last_run" : "first_run", "not an"
			    " ISO 8601 UTC time"));
		}
		if (mon_is(&v[0], "first_run")) {
			free(h->first);
			h->first = a;
		} else {
			free(h->last);
			h->last = a;
		}
	} else if (mon_is(&v[0], "runs") && r->n == 2) {
		if (mon_int(r, &v[1], "runs", 0, 0, &h->m.runs, NULL) != 0)
			return (-1);
		if (h->m.runs == 0)
			return (ingest_fail(ctx, v[1].off, "runs", "0"));
		h->got[MON_H_RUNS] = 1;
	} else if (mon_is(&v[0], "real_ns") && r->n == 2) {
		if (mon_int(r, &v[1], "real_ns", 0, 0, &h->m.real_ns,
		    NULL) != 0)
			return (-1);
		h->got[MON_H_REAL] = 1;
	} else if (mon_is(&v[0], "status") && r->n == 3) {
		if (!mon_is(&v[1], "exit") && !mon_is(&v[1], "signal"))
			return (ingest_fail(ctx, v[1].off, "status", "not exit"
			    " or signal"));
		if (mon_int(r, &v[2], "status", 0, 0, &x, NULL) != 0)
			return (-1);
		if (x > 255)
			return (ingest_fail(ctx, v[2].off, "status", "%" PRId64
			    " is over 255", x));
		free(h->status);
		h->status = xasprintf("%.*s %" PRId64, (int)v[1].len, v[1].p,
		    x);
		h->got[MON_H_STATUS] = 1;
	} else if (mon_is(&v[0], "clock") && r->n == 3) {
		if (!mon_is(&v[1], "tsc") && !mon_is(&v[1], "monotonic"))
			return (ingest_fail(ctx, v[1].off, "clock", "not tsc"
			    " or monotonic"));
		if (mon_int(r, &v[2], "clock", 0, 0, &h->m.clock_hz,
		    NULL) != 0)
			return (-1);
		if (h->m.clock_hz == 0)
			return (ingest_fail(ctx, v[2].off, "clock", "0 Hz"));
		free(h->clock);
		h->clock = mon_str(&v[1]);
		h->got[MON_H_CLOCK] = 1;
	} else if (mon_is(&v[0], "cpu") && r->n >= 2) {
		r->cpu = mon_is(&v[1], "perf-task-clock") && r->n == 2;
		if (!r->cpu && !mon_is(&v[1], "unavailable"))
			return (ingest_fail(ctx, v[1].off, "cpu", "not"
			    " perf-task-clock or unavailable"));
		free(h->cpu);
		h->cpu = xasprintf("%.*s", (int)(v[r->n - 1].off +
		    v[r->n - 1].len - v[1].off), v[1].p);
		h->got[MON_H_CPU] = 1;
	} else if (mon_is(&v[0], "overhead") && r->n == 7) {
		if (!mon_is(&v[1], "jump") && !mon_is(&v[1], "trap"))
			return (ingest_fail(ctx, v[1].off, "overhead", "not"
			    " jump or trap"));
		k = mon_is(&v[1], "trap");
		for (i = 0; i < 4; i++) {
			if (mon_dec(r, &v[2 + i], "overhead", 1000,
			    &h->m.over_ps[k][i]) != 0)
				return (-1);
		}
		if (mon_int(r, &v[6], "overhead", 0, 0, &h->m.over_calls[k],
		    NULL) != 0)
			return (-1);
		h->got[MON_H_JUMP + k] = 1;
	} else if (mon_is(&v[0], "stat") && r->n == 3) {
		if (mon_int(r, &v[2], "stat", 0, 0, &x, NULL) != 0)
			return (-1);
		a = mon_str(&v[1]);
		if (strspn(a, "abcdefghijklmnopqrstuvwxyz_") != v[1].len) {
			free(a);
			return (ingest_fail(ctx, v[1].off, "stat", "not a"
			    " statistic's name"));
		}
		if (store_counter_add(ctx->st, ctx->session, a, x) != 0) {
			free(a);
			return (ingest_store_fail(ctx, "counter"));
		}
		free(a);
	} else if (mon_is(&v[0], "module") && r->n == 4) {
		if ((a = mon_name(r, &v[1], "module")) == NULL)
			return (-1);
		if (!mon_is(&v[2], "patched") && !mon_is(&v[2],
		    "not-loaded") && !mon_is(&v[2], "mismatch") &&
		    !mon_is(&v[2], "failed")) {
			free(a);
			return (ingest_fail(ctx, v[2].off, "module", "state"
			    " '%.*s' unknown", (int)v[2].len, v[2].p));
		}
		if ((c = mon_name(r, &v[3], "module")) == NULL) {
			free(a);
			return (-1);
		}
		b = mon_str(&v[2]);
		k = store_mon_module_add(ctx->st, ctx->session, a, b, c);
		free(a);
		free(b);
		free(c);
		if (k != 0)
			return (ingest_store_fail(ctx, "mon_module"));
	} else if (mon_is(&v[0], "sample_rate") && r->n == 2 &&
	    r->version >= 3) {
		if (mon_int(r, &v[1], "sample_rate", 0, 0, &h->m.sample_rate,
		    NULL) != 0)
			return (-1);
	} else if (mon_is(&v[0], "samples") && r->n == 6 && r->version >= 3) {
		if (!mon_is(&v[1], "probe") && !mon_is(&v[1], "outside"))
			return (ingest_fail(ctx, v[1].off, "samples", "not"
			    " probe or outside"));
		for (i = 0; i < STORE_SA_COUNT; i++) {
			if (mon_int(r, &v[2 + i], "samples", 0, 0, &x,
			    NULL) != 0)
				return (-1);
			if (mon_is(&v[1], "probe"))
				h->m.probe[i] = x;
			else
				h->outside[i] = x;
		}
	} else if (mon_is(&v[0], "error")) {
		free(h->error);
		h->error = r->n > 1 ? xasprintf("%.*s", (int)(v[r->n - 1].off +
		    v[r->n - 1].len - v[1].off), v[1].p) : xstrdup("");
	} else
		ingest_warn(ctx, r->line, "header line '%.*s' unknown:"
		    " ignored", (int)(v[0].len > 40 ? 40 : v[0].len), v[0].p);
	return (0);
}

/* "[name] count": the count, or -1 (failed). */
static int
mon_section(struct mon_rd *r, const char *name, int64_t *count)
{
	const char	*b = (const char *)r->ctx->buf + r->line;
	char		 want[32];
	size_t		 n, words = 1;

	/* A heading's name may have a space ("[left out]"). */
	n = (size_t)snprintf(want, sizeof want, "[%s]", name);
	words += strchr(name, ' ') != NULL;
	if (r->n == 0 || r->ctx->len - r->line < n || memcmp(b, want, n) != 0 ||
	    r->v[words - 1].off + r->v[words - 1].len != r->line + n)
		return (ingest_fail(r->ctx, r->line, "section", "%s expected",
		    want));
	if (r->n != words + 1)
		return (ingest_fail(r->ctx, r->line, want, "a count of lines"
		    " expected after it"));
	return (mon_int(r, &r->v[words], want, 0, 0, count, NULL));
}

/*
 * Line i of a section that says it has count: its fields, want of them
 * (the last taking the rest of the line when max says so).
 */
static int
mon_row(struct mon_rd *r, const char *sect, int64_t i, int64_t count,
    size_t want, size_t max)
{
	int	rc;

	if ((rc = mon_data(r, max)) != 1)
		return (rc < 0 ? -1 : ingest_fail(r->ctx, r->ctx->len, sect,
		    "the file ends after %" PRId64 " of its %" PRId64 " lines",
		    i, count));
	if (r->v[0].p[0] == '[')
		return (ingest_fail(r->ctx, r->line, sect, "%" PRId64 " lines,"
		    " not the %" PRId64 " it says", i, count));
	if (r->n != want)
		return (ingest_fail(r->ctx, r->line, sect, "%zu fields, want"
		    " %zu", r->n, want));
	return (0);
}

/*
 * Add v to a sum profview makes of the file's numbers (the session's
 * summary adds the functions' calls, the model their self times and the
 * top paths' times): a sum past 64 bits is refused here, at the line
 * that takes it over, not by the store with no line or field.
 */
static int
mon_sum(struct mon_rd *r, int64_t *sum, int64_t v, const struct mon_tok *t,
    const char *field, const char *what)
{
	if (__builtin_add_overflow(*sum, v, sum))
		return (ingest_fail(r->ctx, t->off, field, "the %s add up"
		    " past 64 bits here", what));
	return (0);
}

/* The times of a [functions] or [paths] line: calls and seven times. */
static int
mon_times(struct mon_rd *r, size_t at, const char *sect, uint64_t *calls,
    int64_t *t)
{
	static const char *const name[7] = { "calls", "self_ns", "total_ns",
	    "self_cpu_ns", "total_cpu_ns", "self_err", "total_err" };
	int64_t	 x;
	int	 null, i;

	(void)sect;
	for (i = 0; i < 7; i++) {
		if (mon_int(r, &r->v[at + i], name[i], i >= 1 && i <= 4,
		    i == 3 || i == 4, &x, &null) != 0)
			return (-1);
		if ((i == 3 || i == 4) && null == r->cpu)
			return (ingest_fail(r->ctx, r->v[at + i].off, name[i],
			    r->cpu ? "'-', but the header says CPU time was"
			    " kept" : "a number, but the header says CPU time"
			    " was not kept"));
		if (i == 0)
			*calls = (uint64_t)x;
		else
			t[i - 1] = x;
	}
	return (0);
}

static int
mon_functions(struct mon_rd *r, int64_t count)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct store_func	 f;
	struct mon_fn		*mf;
	char			*key, *name, *module;
	int64_t			 t[6], size, i;
	uint64_t		 addr;
	int			 rc, how;

	for (i = 0; i < count; i++) {
		if (mon_row(r, "[functions]", i, count, 12, 12) != 0)
			return (-1);
		memset(&f, 0, sizeof f);
		if (mon_times(r, 0, "[functions]", &f.calls, t) != 0)
			return (-1);
		if ((how = mon_how(&r->v[7])) < 0)
			return (ingest_fail(ctx, r->v[7].off, "how", "not jump,"
			    " trap, plt or leaf"));
		if (mon_hex(r, &r->v[9], "addr", &addr) != 0 ||
		    mon_int(r, &r->v[10], "size", 0, 0, &size, NULL) != 0)
			return (-1);
		if (mon_fn_find(r, r->v[11].p, r->v[11].len) >= 0)
			return (ingest_fail(ctx, r->v[11].off, "function",
			    "'%.*s' is listed twice", (int)r->v[11].len,
			    r->v[11].p));
		if (mon_sum(r, &r->sum_calls, (int64_t)f.calls, &r->v[0],
		    "calls", "functions' calls") != 0 || mon_sum(r,
		    &r->sum_self, t[0], &r->v[1], "self_ns",
		    "functions' self times") != 0)
			return (-1);
		if ((module = mon_name(r, &r->v[8], "module")) == NULL)
			return (-1);
		if ((key = mon_key(r, r->v[11].p, r->v[11].len, r->v[11].off,
		    "function", &name)) == NULL) {
			free(module);
			return (-1);
		}
		/* The key as written, for the other sections' lookups. */
		r->fn = xreallocarray(r->fn, r->nfn + 1, sizeof *r->fn);
		r->fkey = xreallocarray(r->fkey, r->nfn + 1, sizeof *r->fkey);
		mf = &r->fn[r->nfn];
		r->fkey[r->nfn] = mon_str(&r->v[11]);
		mf->calls = f.calls;
		mf->pathcalls = 0;
		mf->off = r->line;
		mon_set(r->fkey, r->nfn, &r->fmap, &r->fmask,
		    r->fkey[r->nfn], r->v[11].len, 1);
		r->nfn++;
		f.key = key;
		f.name = name;
		f.module = module;
		f.addr = addr;
		f.size = (uint64_t)size;
		f.how = how;
		f.self_ns = t[0];
		f.total_ns = t[1];
		f.self_cpu_ns = t[2];
		f.total_cpu_ns = t[3];
		f.self_err_ns = t[4];
		f.total_err_ns = t[5];
		rc = store_func_add(ctx->st, ctx->session, &f, r->cpu);
		free(key);
		free(name);
		free(module);
		if (rc != 0)
			return (ingest_store_fail(ctx, "func"));
		ingest_progress(ctx, r->pos);
	}
	return (0);
}

/*
 * Store path p (its calls read) as the next path: its parent's number,
 * its function's key (freed here), its depth and times t, as both
 * versions' [paths] give them.
 */
static int
mon_path_store(struct mon_rd *r, struct store_callpath *p, int64_t parent,
    char *func, int64_t depth, const int64_t *t)
{
	struct ingest_ctx	*ctx = r->ctx;
	int			 rc;

	p->id = (int64_t)r->npath++;
	p->parent = parent;
	p->func = func;
	p->depth = depth;
	p->self_ns = t[0];
	p->total_ns = t[1];
	p->self_cpu_ns = t[2];
	p->total_cpu_ns = t[3];
	p->self_err_ns = t[4];
	p->total_err_ns = t[5];
	rc = store_callpath_add(ctx->st, ctx->session, p, r->cpu);
	free(func);
	if (rc != 0)
		return (ingest_store_fail(ctx, "callpath"));
	ingest_progress(ctx, r->pos);
	return (0);
}

/* A function named in [calls] or [paths]: its index, or -1 (failed). */
static int64_t
mon_known(struct mon_rd *r, const char *p, size_t len, size_t off,
    const char *field)
{
	int64_t	i = mon_fn_find(r, p, len);

	if (i < 0)
		ingest_fail(r->ctx, off, field, "'%.*s' is in no [functions]"
		    " line", (int)(len > 60 ? 60 : len), p);
	return (i);
}

static int
mon_calls(struct mon_rd *r, int64_t count)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct store_call	 c;
	char			*caller, *callee;
	int64_t			 i, x[3];
	int			 rc, null;

	for (i = 0; i < count; i++) {
		if (mon_row(r, "[calls]", i, count, 6, 6) != 0)
			return (-1);
		memset(&c, 0, sizeof c);
		if (mon_int(r, &r->v[0], "calls", 0, 0, &x[0], NULL) != 0 ||
		    mon_int(r, &r->v[1], "total_ns", 1, 0, &x[1], NULL) != 0 ||
		    mon_int(r, &r->v[2], "total_cpu_ns", 1, 1, &x[2],
		    &null) != 0 ||
		    mon_int(r, &r->v[3], "total_err", 0, 0, &c.total_err_ns,
		    NULL) != 0)
			return (-1);
		if (null == r->cpu)
			return (ingest_fail(ctx, r->v[2].off, "total_cpu_ns",
			    "does not agree with the header's cpu line"));
		caller = NULL;
		if (!mon_is(&r->v[4], "-") && (mon_known(r, r->v[4].p,
		    r->v[4].len, r->v[4].off, "caller") < 0 ||
		    (caller = mon_key(r, r->v[4].p, r->v[4].len, r->v[4].off,
		    "caller", NULL)) == NULL))
			return (-1);
		if (mon_known(r, r->v[5].p, r->v[5].len, r->v[5].off,
		    "callee") < 0 || (callee = mon_key(r, r->v[5].p,
		    r->v[5].len, r->v[5].off, "callee", NULL)) == NULL) {
			free(caller);
			return (-1);
		}
		c.caller = caller;
		c.callee = callee;
		c.calls = (uint64_t)x[0];
		c.total_ns = x[1];
		c.total_cpu_ns = x[2];
		rc = store_call_add(ctx->st, ctx->session, &c, r->cpu);
		free(caller);
		free(callee);
		if (rc != 0)
			return (ingest_store_fail(ctx, "call"));
	}
	return (0);
}

static int
mon_paths(struct mon_rd *r, int64_t count)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct store_callpath	 p;
	const char		*s, *last;
	char			*func;
	int64_t			 i, t[6], fi, parent;
	size_t			 len, depth, k;

	for (i = 0; i < count; i++) {
		if (mon_row(r, "[paths]", i, count, 8, 8) != 0)
			return (-1);
		memset(&p, 0, sizeof p);
		if (mon_times(r, 0, "[paths]", &p.calls, t) != 0)
			return (-1);
		s = r->v[7].p;
		len = r->v[7].len;
		/* The last function, and its parent: the path before it. */
		for (last = s + len; last > s && last[-1] != ';'; last--)
			;
		for (k = 0, depth = 1; k < len; k++)
			depth += s[k] == ';';
		if (last == s + len || (last > s && last - 1 == s))
			return (ingest_fail(ctx, r->v[7].off, "path", "an empty"
			    " function in '%.*s'", (int)(len > 60 ? 60 : len),
			    s));
		if ((fi = mon_known(r, last, (size_t)(s + len - last),
		    r->v[7].off + (size_t)(last - s), "path")) < 0)
			return (-1);
		parent = -1;
		if (last > s) {
			parent = mon_set(r->path, r->npath, &r->pmap,
			    &r->pmask, s, (size_t)(last - s - 1), 0);
			if (parent < 0)
				return (ingest_fail(ctx, r->v[7].off, "path",
				    "its parent path is not above it"));
		}
		if (parent < 0 && mon_sum(r, &r->sum_top, t[1], &r->v[2],
		    "total_ns", "top paths' times") != 0)
			return (-1);
		if (mon_set(r->path, r->npath, &r->pmap, &r->pmask, s, len,
		    0) >= 0)
			return (ingest_fail(ctx, r->v[7].off, "path", "listed"
			    " twice"));
		r->path = xreallocarray(r->path, r->npath + 1,
		    sizeof *r->path);
		r->path[r->npath] = mon_str(&r->v[7]);
		mon_set(r->path, r->npath, &r->pmap, &r->pmask, s, len, 1);
		if ((func = mon_key(r, last, (size_t)(s + len - last),
		    r->v[7].off, "path", NULL)) == NULL)
			return (-1);
		r->fn[fi].pathcalls += p.calls;
		if (mon_path_store(r, &p, parent, func, (int64_t)depth,
		    t) != 0)
			return (-1);
	}
	return (0);
}

static uint64_t
mon_tree_hash(int64_t parent, uint32_t fn)
{
	uint64_t	h = (uint64_t)parent << 32 ^ fn;

	/* The high half folded in: the product's low one is fn's alone. */
	h *= 0x9e3779b97f4a7c15ULL;
	return (h ^ h >> 32);
}

/*
 * Version 2's path: parent is a path above it (or none), fn is new under
 * it; 1 if so and added, 0 if (parent, fn) is there already.
 */
static int
mon_tree_add(struct mon_rd *r, int64_t parent, uint32_t fn, int64_t depth)
{
	struct mon_path	*t;
	size_t		 h, i, mask;
	uint32_t	*nm;

	if (r->tmap == NULL || (r->npath + 1) * 2 > r->tmask + 1) {
		mask = r->tmap == NULL ? 255 : r->tmask * 2 + 1;
		nm = xcalloc(mask + 1, sizeof *nm);
		for (i = 0; i < r->npath; i++) {
			h = mon_tree_hash(r->tree[i].parent, r->tree[i].fn) &
			    mask;
			while (nm[h] != 0)
				h = (h + 1) & mask;
			nm[h] = (uint32_t)i + 1;
		}
		free(r->tmap);
		r->tmap = nm;
		r->tmask = mask;
	}
	for (h = mon_tree_hash(parent, fn) & r->tmask; r->tmap[h] != 0;
	    h = (h + 1) & r->tmask) {
		t = &r->tree[r->tmap[h] - 1];
		if (t->parent == parent && t->fn == fn)
			return (0);
	}
	if (r->npath == r->cappath) {
		r->cappath = r->cappath != 0 ? r->cappath * 2 : 256;
		r->tree = xreallocarray(r->tree, r->cappath, sizeof *r->tree);
		r->open = xreallocarray(r->open, r->cappath, sizeof *r->open);
	}
	t = &r->tree[r->npath];
	t->parent = parent;
	t->fn = fn;
	t->depth = depth;
	r->tmap[h] = (uint32_t)r->npath + 1;
	return (1);
}

/*
 * Version 2's [paths]: "... parent function", parent the number of a
 * path above it (from 0) or '-'.  Each line's depth is its parent's plus
 * one, and the order must be depth first (the parent is the line above or
 * a path that line extends: the call tree's view draws it so), which also
 * makes a cycle impossible: a parent is always an earlier line.
 */
static int
mon_paths_tree(struct mon_rd *r, int64_t count)
{
	struct ingest_ctx	*ctx = r->ctx;
	struct store_callpath	 p;
	struct mon_tok		*v = r->v;
	char			*func;
	int64_t			 i, t[6], fi, parent, depth;
	int			 null;

	for (i = 0; i < count; i++) {
		if (mon_row(r, "[paths]", i, count, 9, 10) != 0)
			return (-1);
		memset(&p, 0, sizeof p);
		if (mon_times(r, 0, "[paths]", &p.calls, t) != 0)
			return (-1);
		if (mon_int(r, &v[7], "parent", 0, 1, &parent, &null) != 0)
			return (-1);
		if (null)
			parent = -1;
		else if (parent >= count)
			return (ingest_fail(ctx, v[7].off, "parent", "path %"
			    PRId64 " is out of range: [paths] has %" PRId64,
			    parent, count));
		else if (parent >= i)
			return (ingest_fail(ctx, v[7].off, "parent", "path %"
			    PRId64 " is not above path %" PRId64 " (a parent"
			    " comes before its children)", parent, i));
		if (parent < 0 && mon_sum(r, &r->sum_top, t[1], &v[2],
		    "total_ns", "top paths' times") != 0)
			return (-1);
		depth = parent < 0 ? 1 : r->tree[parent].depth + 1;
		if (depth > 1 && ((size_t)depth - 1 > r->nopen ||
		    r->open[depth - 2] != parent))
			return (ingest_fail(ctx, v[7].off, "parent", "path %"
			    PRId64 " is not on the path above it: not depth"
			    " first", parent));
		if ((fi = mon_known(r, v[8].p, v[8].len, v[8].off,
		    "function")) < 0)
			return (-1);
		if (!mon_tree_add(r, parent, (uint32_t)fi, depth))
			return (ingest_fail(ctx, v[8].off, "function", "'%.*s'"
			    " is under path %" PRId64 " twice",
			    (int)(v[8].len > 60 ? 60 : v[8].len), v[8].p,
			    parent));
		r->nopen = (size_t)depth;
		r->open[depth - 1] = (int64_t)r->npath;
		if ((func = mon_key(r, v[8].p, v[8].len, v[8].off, "function",
		    NULL)) == NULL)
			return (-1);
		r->fn[fi].pathcalls += p.calls;
		if (mon_path_store(r, &p, parent, func, depth, t) != 0)
			return (-1);
	}
	return (0);
}

/*
 * Version 3's [samples]: "path cpu_samples cpu_ns real_samples real_ns",
 * path a number in [paths], each once and in order.
 */
static int
mon_samples(struct mon_rd *r, int64_t count)
{
	struct ingest_ctx		*ctx = r->ctx;
	struct store_callpath_sample	 p;
	int64_t				 i, last = -1;
	size_t				 k;

	for (i = 0; i < count; i++) {
		if (mon_row(r, "[samples]", i, count, 5, 5) != 0)
			return (-1);
		if (mon_int(r, &r->v[0], "path", 0, 0, &p.id, NULL) != 0)
			return (-1);
		if (p.id >= (int64_t)r->npath || p.id <= last)
			return (ingest_fail(ctx, r->v[0].off, "path", "path %"
			    PRId64 " is not in [paths] or not in order",
			    p.id));
		last = p.id;
		for (k = 0; k < STORE_SA_COUNT; k++) {
			if (mon_int(r, &r->v[1 + k], "samples", 0, 0,
			    &p.v[k], NULL) != 0)
				return (-1);
		}
		if (store_callpath_sample_add(ctx->st, ctx->session, &p) != 0)
			return (ingest_store_fail(ctx, "callpath_sample"));
	}
	return (0);
}

static int
mon_left_out(struct mon_rd *r, int64_t count)
{
	struct ingest_ctx	*ctx = r->ctx;
	char			*module, *name, *reason;
	uint64_t		 addr;
	int64_t			 i, size;
	int			 rc;

	for (i = 0; i < count; i++) {
		if (mon_row(r, "[left out]", i, count, 5, 5) != 0)
			return (-1);
		if (mon_hex(r, &r->v[1], "addr", &addr) != 0 ||
		    mon_int(r, &r->v[2], "size", 0, 0, &size, NULL) != 0)
			return (-1);
		if ((module = mon_name(r, &r->v[0], "module")) == NULL)
			return (-1);
		if ((name = mon_key(r, r->v[3].p, r->v[3].len, r->v[3].off,
		    "function", NULL)) == NULL) {
			free(module);
			return (-1);
		}
		reason = mon_str(&r->v[4]);
		rc = store_mon_left_out_add(ctx->st, ctx->session, module,
		    addr, (uint64_t)size, name, reason);
		free(module);
		free(name);
		free(reason);
		if (rc != 0)
			return (ingest_store_fail(ctx, "mon_left_out"));
	}
	return (0);
}

static int
mon_load(struct ingest_ctx *ctx)
{
	static const char *const sect[] = { "functions", "calls", "paths",
	    "samples", "left out" };
	struct store_callpath_sample out;
	struct mon_rd	 r;
	struct mon_head	 h;
	const char	*base;
	int64_t		 count;
	size_t		 i, first = 0;
	int		 rc = -1, s;

	memset(&r, 0, sizeof r);
	memset(&h, 0, sizeof h);
	r.ctx = ctx;
	if (mon_next(&r, 2) != 1 || r.n != 2 || !mon_is(&r.v[0],
	    "pvtrace-mon") || (!mon_is(&r.v[1], "1") && !mon_is(&r.v[1],
	    "2") && !mon_is(&r.v[1], "3"))) {
		ingest_fail(ctx, 0, "magic", "not a pvtrace profile of"
		    " version 1 to 3");
		goto out;
	}
	r.version = r.v[1].p[0] - '0';
	h.m.sample_rate = -1;	/* none, unless the header says */
	for (;;) {
		if ((s = mon_data(&r, MON_FIELDS)) != 1) {
			if (s == 0)
				ingest_fail(ctx, ctx->len, "header", "the file"
				    " ends before [functions]");
			goto out;
		}
		if (r.v[0].p[0] == '[')
			break;
		if (mon_header_line(&r, &h) != 0)
			goto out;
	}
	first = r.line;
	for (i = 0; i < MON_H_COUNT; i++) {
		if (!h.got[i]) {
			ingest_fail(ctx, first, mon_required[i], "missing from"
			    " the header");
			goto out;
		}
	}
	h.m.build_id = h.build_id;
	h.m.command = h.command != NULL ? h.command : "";
	h.m.first_run = h.first;
	h.m.last_run = h.last;
	h.m.status = h.status;
	h.m.clock = h.clock;
	h.m.cpu = h.cpu;
	h.m.error = h.error;
	if (r.version >= 3 && h.m.sample_rate < 0) {
		ingest_fail(ctx, first, "sample_rate", "missing from the"
		    " header");
		goto out;
	}
	if (store_mon_add(ctx->st, ctx->session, &h.m) != 0) {
		ingest_store_fail(ctx, "mon");
		goto out;
	}
	out.id = -1;
	memcpy(out.v, h.outside, sizeof out.v);
	if (r.version >= 3 && (out.v[STORE_SA_CPU_N] != 0 ||
	    out.v[STORE_SA_REAL_N] != 0) &&
	    store_callpath_sample_add(ctx->st, ctx->session, &out) != 0) {
		ingest_store_fail(ctx, "callpath_sample");
		goto out;
	}
	base = strrchr(h.program, '/');
	ctx->program = xstrdup(base != NULL && base[1] != '\0' ? base + 1 :
	    h.program);
	if (h.last != NULL)
		ctx->captured = xstrdup(h.last);

	for (i = 0; i < sizeof sect / sizeof sect[0]; i++) {
		if (i == 3 && r.version < 3)
			continue;	/* no [samples] before version 3 */
		if (i > 0 && (s = mon_data(&r, MON_FIELDS)) != 1) {
			if (s == 0)
				ingest_fail(ctx, ctx->len, "section", "the file"
				    " ends before [%s]", sect[i]);
			goto out;
		}
		if (mon_section(&r, sect[i], &count) != 0)
			goto out;
		if (count > (int64_t)(ctx->len - r.pos)) {
			ingest_fail(ctx, r.v[1].off, sect[i], "%" PRId64
			    " lines cannot fit in the %zu bytes left", count,
			    ctx->len - r.pos);
			goto out;
		}
		switch (i) {
		case 0:
			s = mon_functions(&r, count);
			break;
		case 1:
			s = mon_calls(&r, count);
			break;
		case 2:
			s = r.version == 1 ? mon_paths(&r, count) :
			    mon_paths_tree(&r, count);
			break;
		case 3:
			s = mon_samples(&r, count);
			break;
		default:
			s = mon_left_out(&r, count);
		}
		if (s != 0)
			goto out;
	}
	if ((s = mon_data(&r, MON_FIELDS)) != 1) {
		if (s == 0)
			ingest_fail(ctx, ctx->len, "[end]", "the file ends"
			    " before [end]");
		goto out;
	}
	if (r.n != 1 || !mon_is(&r.v[0], "[end]")) {
		ingest_fail(ctx, r.line, r.v[0].p[0] == '[' ? "[end]" :
		    "[left out]", "more lines than the section's count, or"
		    " no [end]");
		goto out;
	}
	if ((s = mon_data(&r, MON_FIELDS)) != 0) {
		if (s == 1)
			ingest_fail(ctx, r.line, "[end]", "lines after it");
		goto out;
	}
	for (i = 0; i < r.nfn; i++) {
		if (r.fn[i].calls != r.fn[i].pathcalls)
			ingest_warn(ctx, r.fn[i].off, "function %s: %" PRIu64
			    " calls, but its paths have %" PRIu64,
			    r.fkey[i], r.fn[i].calls, r.fn[i].pathcalls);
	}
	rc = 0;
out:
	mon_head_free(&h);
	for (i = 0; i < r.nfn; i++)
		free(r.fkey[i]);
	free(r.fkey);
	free(r.fn);
	free(r.fmap);
	for (i = 0; r.path != NULL && i < r.npath; i++)
		free(r.path[i]);
	free(r.path);
	free(r.pmap);
	free(r.tree);
	free(r.tmap);
	free(r.open);
	return (rc);
}

const struct ingest_reader ingest_mon_reader = { mon_detect, mon_load };
