/*
 * The PRF session report: the header, the samples outside the program,
 * the warnings, a flat profile by symbol (like gprof -p) and the buckets.
 * Everything comes from the model the browser draws (analyze_hist), so
 * the report and the browser agree on every number.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "report/report.h"
#include "report/prf.h"
#include "analyze/hist.h"
#include "store/prf.h"

/* Linear address columns: DOS addresses fit five hex digits. */
#define PRF_HEXDIGITS	5

static const struct report_table prf_t_header = {
	"prf", "PRF header", REPORT_OBJECT, REPORT_NOHEAD, report_kv_cols,
	REPORT_KV_COLS, NULL, -1, 0
};

static const struct report_col prf_counter_cols[] = {
	{ "label", "", REPORT_HUMAN, 0, 0 },
	{ "name", "counter", REPORT_MACHINE, 0, 0 },
	{ "hits", "hits", 0, 1, 0 },
	{ "percent", "%", 0, 2, 0 },
};
#define PRF_COUNTER_PCT	3

static const struct report_table prf_t_counters = {
	"counters", "Samples", REPORT_KEYED, 0, prf_counter_cols, 4, NULL,
	PRF_COUNTER_PCT, 0
};

/*
 * A share is exact (the hit table placed every sample it counts) or an
 * estimate within bounds: humans see "~12.30" and "(8.00-15.10)", machines
 * the numbers and whether they are exact.
 */
static const struct report_col prf_symbol_cols[] = {
	{ "share", "%", REPORT_HUMAN, 0, 0 },
	{ "bounds", "bounds %", REPORT_HUMAN, 0, 0 },
	{ "percent", "%", REPORT_MACHINE, 2, 0 },
	{ "percent_lo", "", REPORT_MACHINE, 2, 0 },
	{ "percent_hi", "", REPORT_MACHINE, 2, 0 },
	{ "exact", "", REPORT_MACHINE, 0, 0 },
	{ "cumulative", "cum %", 0, 2, 0 },
	{ "hits", "hits", 0, 1, 0 },
	{ "hits_lo", "", REPORT_MACHINE, 1, 0 },
	{ "hits_hi", "", REPORT_MACHINE, 1, 0 },
	{ "seg_off", "seg:off", 0, 0, 0 },
	{ "addr", "linear", REPORT_HEX, PRF_HEXDIGITS, 0 },
	{ "size", "size", 0, 0, 0 },
	{ "module", "module", 0, 0, 14 },
	{ "name", "name", 0, 0, 38 },
};
#define PRF_SYMBOL_COLS	15
#define PRF_SYMBOL_PCT	2

static const struct report_table prf_t_symbols = {
	"symbols", "Flat profile", REPORT_ROWS, 0, prf_symbol_cols,
	PRF_SYMBOL_COLS,
	"no symbols: no map was found beside the file (name one with --map)",
	PRF_SYMBOL_PCT, 0
};

static const struct report_col prf_bucket_cols[] = {
	{ "idx", "bucket", 0, 0, 0 },
	{ "lo", "lo", REPORT_MACHINE, 0, 0 },
	{ "hi", "hi", REPORT_MACHINE, 0, 0 },
	{ "range", "linear", REPORT_HUMAN, 0, 0 },
	{ "seg_off", "seg:off", 0, 0, 0 },
	{ "hits", "hits", 0, 0, 0 },
	{ "percent", "%", 0, 2, 0 },
	{ "symbols", "symbols", 0, 0, 46 },
};
#define PRF_BUCKET_PCT	6

static const struct report_table prf_t_buckets = {
	"buckets", "Buckets", REPORT_ROWS, 0, prf_bucket_cols, 8,
	"no bucket has hits", PRF_BUCKET_PCT, 0
};


static double
prf_pct(const struct analyze_hist *h, double x)
{
	return (h->total != 0 ? 100.0 * x / (double)h->total : 0);
}

static const char *
prf_split_name(int split)
{
	switch (split) {
	case ANALYZE_SPLIT_NONE:
		return ("none");
	case ANALYZE_SPLIT_STARTS:
		return ("starts");
	default:
		return ("bytes");
	}
}

static const char *
prf_split_note(int split)
{
	switch (split) {
	case ANALYZE_SPLIT_NONE:
		return ("every share is exact");
	case ANALYZE_SPLIT_STARTS:
		return ("unplaced samples shared by instruction starts");
	default:
		return ("unplaced samples shared by bytes");
	}
}

static void
prf_header_table(struct report_out *o, const struct analyze_hist *h)
{
	const struct store_prf	*p = &h->prf;
	char			*note;

	report_table(o, &prf_t_header);
	report_kv_int(o, "clock_grain", p->clock_grain, "%lld",
	    "microseconds between samples");
	report_kv_int(o, "bucket_num", p->bucket_num, "%lld", "buckets");
	note = xasprintf("paragraphs (%llu bytes) per bucket",
	    (unsigned long long)p->bucket_siz * 16);
	report_kv_int(o, "bucket_siz", p->bucket_siz, "%lld", note);
	free(note);
	note = xasprintf("linear %05llXh: the program's PSP, bucket 0",
	    (unsigned long long)p->prog_low_pa * 16);
	report_kv_int(o, "prog_low_pa", p->prog_low_pa, "%04llXh", note);
	free(note);
	note = xasprintf("linear %05llXh: the end of the sampled area",
	    (unsigned long long)p->prog_high_pa * 16);
	report_kv_int(o, "prog_high_pa", p->prog_high_pa, "%04llXh", note);
	free(note);
	report_kv_int(o, "dos_pa", p->dos_pa, "%04llXh",
	    "below it the I/O system, from it to prog_low_pa DOS");
	report_kv(o, "pv32", report_int(p->pv32), p->pv32 ? "yes" : "no",
	    p->pv32 ? "32-bit counts from the PV32 trailer" :
	    "16-bit counts from PROFIL's own format");
	report_kv(o, "saturated", report_int(p->saturated),
	    p->saturated ? "yes" : "no", p->saturated ? (p->pv32 ?
	    "a 16-bit count saturated; the PV32 counts are exact" :
	    "a count stopped at 65535: shares are understated") : NULL);
	if (p->hit_table) {
		note = xasprintf("%zu distinct CS:IP of %u entries; %s",
		    h->nhit, p->hit_table_capacity, p->hit_missed != 0 ?
		    "some samples missed it" : "it holds every sample");
		report_kv(o, "hit_table", report_int(1), "yes", note);
		free(note);
		report_kv(o, "hit_table_full", report_int(p->hit_table_full),
		    p->hit_table_full ? "yes" : "no", p->hit_table_full ?
		    "some samples found no free entry" : NULL);
		report_kv_int(o, "hit_table_capacity", p->hit_table_capacity,
		    "%lld", "entries");
		report_kv_int(o, "hit_missed", (int64_t)p->hit_missed, "%lld",
		    "samples in a bucket but not in the table");
	} else
		report_kv(o, "hit_table", report_int(0), "no",
		    "no HITS section: the exact CS:IP of samples is unknown");
	report_kv(o, "split", report_str(prf_split_name(h->split)),
	    prf_split_name(h->split), prf_split_note(h->split));
	report_table_end(o);
}

static void
prf_counter(struct report_out *o, const struct analyze_hist *h,
    const char *label, const char *name, struct report_cell hits)
{
	struct report_cell	c[4];

	c[0] = report_str(label);
	c[1] = report_str(name);
	c[2] = hits;
	c[3] = report_real(prf_pct(h, hits.type == REPORT_INT ?
	    (double)hits.i : hits.r));
	report_row(o, c);
}

static void
prf_counters_table(struct report_out *o, const struct analyze_hist *h)
{
	const struct store_prf	*p = &h->prf;

	report_table(o, &prf_t_counters);
	prf_counter(o, h, "I/O system (below dos_pa)", "hit_io",
	    report_int((int64_t)p->hit_io));
	prf_counter(o, h, "DOS (dos_pa to prog_low_pa)", "hit_dos",
	    report_int((int64_t)p->hit_dos));
	prf_counter(o, h, "above the program (prog_high_pa up)", "hit_high",
	    report_int((int64_t)p->hit_high));
	prf_counter(o, h, "in the program's buckets", "in_program",
	    report_int((int64_t)h->in_program));
	prf_counter(o, h, "  inside a symbol", "in_symbols",
	    report_real((double)h->in_program - h->unattributed));
	prf_counter(o, h, "  outside every symbol", "unattributed",
	    report_real(h->unattributed));
	prf_counter(o, h, "all samples", "total",
	    report_int((int64_t)h->total));
	report_table_end(o);
}

static void
prf_symbols_table(struct report_out *o, const struct report_table *t,
    const struct analyze_hist *h)
{
	const struct analyze_sym	*sym;
	struct report_cell		 c[PRF_SYMBOL_COLS];
	double				 cum = 0, pct, lo, hi;
	size_t				 i;
	char				 num[32], share[32], bounds[64];
	char				*segoff;
	int				 exact;

	report_table(o, t);
	for (i = 0; i < h->nsyms; i++) {
		sym = &h->syms[h->flat[i]];
		pct = prf_pct(h, sym->hits);
		lo = prf_pct(h, sym->hits_lo);
		hi = prf_pct(h, sym->hits_hi);
		exact = (sym->hits_lo == sym->hits_hi);
		cum += pct;
		/* One width, so that the column lines up as numbers do. */
		snprintf(num, sizeof num, "%s%.2f", exact ? "" : "~", pct);
		snprintf(share, sizeof share, "%7s", num);
		if (exact)
			bounds[0] = '\0';
		else
			snprintf(bounds, sizeof bounds, "(%.2f\u2013%.2f)", lo,
			    hi);
		c[0] = report_str(share);
		c[1] = report_str(bounds);
		c[2] = report_real(pct);
		c[3] = report_real(lo);
		c[4] = report_real(hi);
		c[5] = report_int(exact);
		c[6] = report_real(cum);
		c[7] = report_real(sym->hits);
		c[8] = report_real(sym->hits_lo);
		c[9] = report_real(sym->hits_hi);
		segoff = analyze_hist_segoff(h, sym->addr);
		c[10] = report_str(segoff);
		c[11] = report_int((int64_t)sym->addr);
		c[12] = report_int((int64_t)sym->size);
		c[13] = report_str(sym->module != NULL ? sym->module : "");
		c[14] = report_str(sym->name);
		report_row(o, c);
		free(segoff);
	}
	report_table_end(o);
}

static void
prf_buckets_table(struct report_out *o, const struct report_table *t,
    const struct analyze_hist *h, const struct analyze_level *l, int nonzero)
{
	const struct analyze_bucket	*b;
	struct report_cell		 c[8];
	char				*range, *segoff, *names;
	size_t				 i;

	report_table(o, t);
	for (i = 0; i < l->n; i++) {
		b = &l->b[i];
		if (nonzero && b->hits == 0)
			continue;
		range = xasprintf("%0*llX-%0*llX", PRF_HEXDIGITS,
		    (unsigned long long)b->lo, PRF_HEXDIGITS,
		    (unsigned long long)(b->hi > b->lo ? b->hi - 1 : b->lo));
		segoff = analyze_hist_segoff(h, b->lo);
		names = analyze_bucket_names(h, b);
		c[0] = report_int(b->idx);
		c[1] = report_int((int64_t)b->lo);
		c[2] = report_int((int64_t)b->hi);
		c[3] = report_str(range);
		c[4] = report_str(segoff);
		c[5] = report_int((int64_t)b->hits);
		c[6] = report_real(prf_pct(h, (double)b->hits));
		c[7] = report_str(names != NULL ? names : "");
		report_row(o, c);
		free(range);
		free(segoff);
		free(names);
	}
	report_table_end(o);
}

static void
prf_legend(struct report_out *o, const struct analyze_hist *h)
{
	static const char *const lines[] = {
		"hits: clock samples; %: share of all samples, including"
		" I/O, DOS and above-program ones.",
		"Flat profile: a sample the hit table places (its exact"
		" CS:IP) counts for the symbol",
		"  holding it; a bucket's other samples are shared among the"
		" symbols it overlaps,",
		"  by the instructions starting in each (decoded from the"
		" program), else by bytes.",
		"  ~ marks such an estimate; bounds %: from only the buckets"
		" the symbol has to itself",
		"  to every bucket it touches; cum %: running total down the"
		" list.",
		"linear: first-last byte, segment*16+offset, in hex;"
		" seg:off: segment from prog_low_pa",
		"  (the PSP) in 64 KiB steps, so a COM program's addresses"
		" read as CS:IP.",
		"Buckets without hits are left out here; csv and json list"
		" them all.",
	};
	struct report_cell	c;

	report_lines(o, &report_tab_legend, lines, sizeof lines /
	    sizeof lines[0]);
	if (h->prf.saturated && !h->prf.pv32) {
		c = report_str("A 16-bit count saturated at 65535 and there is"
		    " no PV32 trailer: shares are understated.");
		report_row(o, &c);
	}
	report_table_end(o);
}

static size_t
prf_nonzero(const struct analyze_hist *h)
{
	size_t	i, n = 0;

	for (i = 0; i < h->levels[0].n; i++)
		n += (h->levels[0].b[i].hits != 0);
	return (n);
}

/*
 * pprof's values are whole samples: a symbol's estimated share (a
 * bucket's samples split among the symbols it overlaps) is rounded, the
 * largest remainders first, so that the symbols and the samples outside
 * every symbol still add up to the program's samples exactly.  v[i] is
 * share[i] made whole; n shares summing to total.
 */
static void
prf_pprof_round(const double *share, size_t n, uint64_t total, int64_t *v)
{
	double		*rem = xcalloc(n + 1, sizeof *rem);
	uint64_t	 sum = 0;
	size_t		 i, j, best;

	for (i = 0; i < n; i++) {
		v[i] = (int64_t)share[i];
		rem[i] = share[i] - (double)v[i];
		sum += (uint64_t)v[i];
	}
	for (j = sum; j < total; j++) {
		best = 0;
		for (i = 1; i < n; i++) {
			if (rem[i] > rem[best])
				best = i;
		}
		v[best]++;
		rem[best] = -1;
	}
	free(rem);
}

/* A pprof sample of n samples in the frame called name. */
static void
prf_pprof_sample(struct report_pprof *p, const struct analyze_hist *h,
    uint64_t loc, int64_t n)
{
	int64_t	v[2];

	v[0] = n;
	v[1] = n * (int64_t)h->prf.clock_grain * 1000;
	report_pprof_sample(p, &loc, 1, v);
}

/*
 * pprof's profile of a PRF session: a sample per symbol with samples,
 * in the program's mapping at its linear address, and the samples
 * outside every symbol and outside the program as frames of their own,
 * so that pprof's total is every sample, as the report's shares are.
 * An estimated share carries its bounds as labels (pprof -tags).
 */
static int
prf_pprof(const char *program, const struct analyze_hist *h, FILE *f,
    char **cause)
{
	struct report_pprof		*p = report_pprof_new();
	const struct analyze_sym	*sym;
	double				*share;
	int64_t				*v;
	uint64_t			 map, loc;
	size_t				 i;

	report_pprof_type(p, "samples", "count");
	report_pprof_type(p, "cpu", "nanoseconds");
	report_pprof_default(p, "samples");
	report_pprof_period(p, "cpu", "nanoseconds",
	    (int64_t)h->prf.clock_grain * 1000);
	/* PROFIL samples at every tick: the samples are the time. */
	report_pprof_time(p, 0, (int64_t)h->total *
	    (int64_t)h->prf.clock_grain * 1000);
	report_pprof_comment(p, h->split == ANALYZE_SPLIT_NONE ?
	    "profview: MS-DOS PROFIL profile, samples by symbol (exact: the"
	    " hit table places every one)" :
	    "profview: MS-DOS PROFIL profile, samples by symbol; a bucket's"
	    " samples no hit table places are split among its symbols, and"
	    " such a share is an estimate rounded to whole samples, with"
	    " its bounds in the labels hits_lo and hits_hi");
	map = report_pprof_mapping(p, program,
	    (uint64_t)h->prf.prog_low_pa * 16,
	    (uint64_t)h->prf.prog_high_pa * 16, 0);
	share = xcalloc(h->nsyms + 2, sizeof *share);
	v = xcalloc(h->nsyms + 2, sizeof *v);
	for (i = 0; i < h->nsyms; i++)
		share[i] = h->syms[h->flat[i]].hits;
	share[h->nsyms] = (double)h->in_program;
	for (i = 0; i < h->nsyms; i++)
		share[h->nsyms] -= share[i];
	if (share[h->nsyms] < 0)
		share[h->nsyms] = 0;
	prf_pprof_round(share, h->nsyms + 1, h->in_program, v);
	for (i = 0; i < h->nsyms; i++) {
		sym = &h->syms[h->flat[i]];
		if (v[i] == 0 && sym->hits_hi == 0)
			continue;
		loc = report_pprof_location(p, map, sym->addr, sym->name,
		    NULL, 0);
		prf_pprof_sample(p, h, loc, v[i]);
		if (sym->hits_lo != sym->hits_hi) {
			report_pprof_label(p, "estimate",
			    prf_split_name(h->split));
			/* Whole samples, outward: the bounds still hold. */
			report_pprof_label_num(p, "hits_lo",
			    (int64_t)floor(sym->hits_lo), "count");
			report_pprof_label_num(p, "hits_hi",
			    (int64_t)ceil(sym->hits_hi), "count");
		}
	}
	if (v[h->nsyms] != 0)
		prf_pprof_sample(p, h, report_pprof_location(p, map, 0,
		    "[outside every symbol]", NULL, 0), v[h->nsyms]);
	free(share);
	free(v);
	if (h->prf.hit_io != 0)
		prf_pprof_sample(p, h, report_pprof_location(p, 0, 0,
		    "[I/O system]", NULL, 0), (int64_t)h->prf.hit_io);
	if (h->prf.hit_dos != 0)
		prf_pprof_sample(p, h, report_pprof_location(p, 0, 0,
		    "[DOS]", NULL, 0), (int64_t)h->prf.hit_dos);
	if (h->prf.hit_high != 0)
		prf_pprof_sample(p, h, report_pprof_location(p, 0, 0,
		    "[above the program]", NULL, 0), (int64_t)h->prf.hit_high);
	return (report_pprof_write(p, f, cause));
}

/* The whole report of a PRF session, from its model. */
int
report_prf(struct store *st, const struct store_session *ss,
    const void *model, int format, FILE *f, char **cause)
{
	const struct analyze_hist	*h = model;
	struct report_table		 tsym = prf_t_symbols;
	struct report_table		 tbuck = prf_t_buckets;
	const struct report_table	*tables[] = { &report_tab_session,
		&prf_t_header, &prf_t_counters, &report_tab_warnings, &tsym,
		&tbuck, &report_tab_legend };
	struct report_session		 rs;
	int				 rc = -1, human;

	if (format == REPORT_PPROF)
		return (prf_pprof(ss->program, h, f, cause));
	human = (format == REPORT_TEXT || format == REPORT_HTML);
	tsym.title = xasprintf("Flat profile (%zu symbols, by hits)",
	    h->nsyms);
	tbuck.title = xasprintf("Buckets (%zu of %zu have hits%s)",
	    prf_nonzero(h), h->levels[0].n,
	    human ? "; only those shown" : "");
	if (report_session_begin(&rs, st, ss, f, format, tables,
	    sizeof tables / sizeof tables[0], cause) == 0) {
		prf_header_table(&rs.out, h);
		prf_counters_table(&rs.out, h);
		report_session_warnings(&rs);
		prf_symbols_table(&rs.out, &tsym, h);
		prf_buckets_table(&rs.out, &tbuck, h, &h->levels[0], human);
		prf_legend(&rs.out, h);
		rc = report_session_end(&rs, cause);
	}
	free((char *)tsym.title);
	free((char *)tbuck.title);
	return (rc);
}

/*
 * Exactly the rows a histogram view shows: the flat profile, or the
 * buckets of one zoom level (all of them, or those with hits).
 */
int
report_hist(struct analyze_hist *h, size_t level, int flags,
    int format, FILE *f, char **cause)
{
	struct report_out		 o;
	struct report_doc		 doc;
	struct report_table		 t;
	const struct report_table	*tables[1];
	int				 rc;

	/* pprof's is of the whole session, whatever the rows on screen. */
	if (format == REPORT_PPROF)
		return (prf_pprof(NULL, h, f, cause));
	if (!report_tabular(format)) {
		*cause = xasprintf("no %s form of a histogram",
		    report_format_name(format));
		return (-1);
	}
	if (!(flags & REPORT_HIST_FLAT) && level >= h->nlevels) {
		*cause = xasprintf("session %lld: no zoom level %zu (%zu"
		    " levels)", (long long)h->session, level, h->nlevels);
		return (-1);
	}
	t = (flags & REPORT_HIST_FLAT) ? prf_t_symbols : prf_t_buckets;
	if (flags & REPORT_HIST_FLAT)
		t.title = xasprintf("session %lld: flat profile",
		    (long long)h->session);
	else
		t.title = xasprintf("session %lld: buckets, %u per row",
		    (long long)h->session, analyze_hist_level(h, level)->factor);
	tables[0] = &t;
	doc.title = t.title;
	doc.bare = 1;
	doc.tables = tables;
	doc.ntables = 1;
	report_begin(&o, f, format, &doc);
	if (flags & REPORT_HIST_FLAT)
		prf_symbols_table(&o, &t, h);
	else
		prf_buckets_table(&o, &t, h, analyze_hist_level(h, level),
		    (flags & REPORT_HIST_NONZERO) != 0);
	rc = report_end(&o, cause);
	free((char *)t.title);
	return (rc);
}
