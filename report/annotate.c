/*
 * The annotate view's report (its :export): a row per instruction of the
 * range with its samples, bytes and disassembly, and the listing line
 * written at its address; and, where the hit table does not place every
 * sample, a row per bucket with what is known only per bucket.  Samples
 * the table does not place are never put on an instruction: without a
 * table (or in a call profile, which samples no instruction) an
 * instruction's hits are NULL, not 0.  Linux code's seg_off is its
 * address in hex, as the view writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "report/report.h"
#include "report/prf.h"
#include "analyze/hist.h"

static const struct report_col ann_insn_cols[] = {
	{ "percent", "%", 0, 2, 0 },
	{ "hits", "hits", 0, 0, 0 },
	{ "inside", "inside", 0, 0, 0 },
	{ "seg_off", "seg:off", 0, 0, 0 },
	{ "addr", "linear", REPORT_HEX, 5, 0 },
	{ "bytes", "bytes", 0, 0, 16 },
	{ "instruction", "instruction", 0, 0, 40 },
	{ "line", "line", 0, 0, 0 },
	{ "source", "source", 0, 0, 40 },
};
#define ANN_INSN_COLS	9
#define ANN_INSN_PCT	0

static const struct report_table ann_t_insns = {
	"instructions", "Instructions", REPORT_ROWS, 0, ann_insn_cols,
	ANN_INSN_COLS, "no code in this range", ANN_INSN_PCT, 0
};

static const struct report_col ann_bucket_cols[] = {
	{ "seg_off", "seg:off", 0, 0, 0 },
	{ "lo", "linear", REPORT_HEX, 5, 0 },
	{ "hi", "end", REPORT_HEX, 5, 0 },
	{ "hits", "hits", 0, 0, 0 },
	{ "unplaced", "not in table", 0, 0, 0 },
	{ "here", "here", 0, 1, 0 },
	{ "estimated", "estimated", 0, 0, 0 },
};
#define ANN_BUCKET_COLS	7

static const struct report_table ann_t_buckets = {
	"buckets", "Buckets (samples known per bucket only)", REPORT_ROWS, 0,
	ann_bucket_cols, ANN_BUCKET_COLS, "no buckets", -1, 0
};

/* The listing line of instruction i: the last one at its address. */
static size_t
ann_line(const struct analyze_annotate *a, size_t i)
{
	const struct analyze_insn	*in = &a->insn[i];
	size_t				 k;

	for (k = in->src + in->nsrc; k > in->src; k--) {
		if (a->src[k - 1].addr == in->addr)
			return (k - 1);
	}
	return (SIZE_MAX);
}

static void
ann_insn_row(struct report_out *o, const struct analyze_hist *h,
    const struct analyze_annotate *a, size_t i, double total)
{
	const struct analyze_insn	*in = &a->insn[i];
	struct report_cell		 c[ANN_INSN_COLS];
	char				*segoff, bytes[40], *s, *t;
	size_t				 j, k;
	int				 n = 0;

	bytes[0] = '\0';
	for (j = 0; !(in->flags & ANALYZE_INSN_GAP) && j < in->len &&
	    j < 15; j++)
		n += snprintf(bytes + n, sizeof bytes - (size_t)n, "%02X",
		    a->bytes[in->addr - a->dlo + j]);
	segoff = analyze_hist_segoff(h, in->addr);
	/* Only the table places samples on an instruction. */
	if (a->table) {
		c[0] = report_real(total > 0 ? 100.0 * (double)in->hits /
		    total : 0);
		c[1] = report_int((int64_t)in->hits);
		c[2] = report_int((int64_t)in->mid);
	} else
		c[0] = c[1] = c[2] = report_null();
	c[3] = report_str(segoff);
	c[4] = report_int((int64_t)(h->linear ? h->base + in->addr :
	    in->addr));
	c[5] = report_str(bytes);
	c[6] = report_str(analyze_insn_text(a, i));
	s = NULL;
	if ((k = ann_line(a, i)) != SIZE_MAX) {
		c[7] = report_int(a->src[k].line);
		/* Tabs and the indent as one blank each. */
		s = xstrdup(analyze_src_text(a, k));
		for (t = s; *t != '\0'; t++) {
			if (*t == '\t')
				*t = ' ';
		}
		for (t = s; *t == ' '; t++)
			;
		c[8] = report_str(t);
	} else
		c[7] = c[8] = report_null();
	report_row(o, c);
	free(s);
	free(segoff);
}

/*
 * Write annotation a of model h, named name, in format to f: the
 * instructions, and the buckets when the table does not place every
 * sample of them.
 */
int
report_annotate(const struct analyze_hist *h,
    const struct analyze_annotate *a, const char *name, int format, FILE *f,
    char **cause)
{
	struct report_out		 o;
	struct report_doc		 doc;
	struct report_table		 ti = ann_t_insns;
	const struct report_table	*tables[2];
	const struct analyze_ann_bucket	*b;
	struct report_cell		 c[ANN_BUCKET_COLS];
	double				 total = (double)a->hits + a->estimated;
	char				*segoff;
	size_t				 i;
	int				 rc;

	if (!report_tabular(format)) {
		*cause = xasprintf("no %s form of an annotation",
		    report_format_name(format));
		return (-1);
	}
	ti.title = xasprintf("session %lld: %s, %s", (long long)a->session,
	    name, h->nosamples ? "a call profile (no samples per"
	    " instruction)" : a->exact ? "exact per instruction (hit table)" :
	    a->table ? "the hit table's samples per instruction, the rest per"
	    " bucket" : "samples known per bucket only (no hit table)");
	tables[0] = &ti;
	tables[1] = &ann_t_buckets;
	doc.title = ti.title;
	doc.bare = a->exact || h->nosamples;
	doc.tables = tables;
	doc.ntables = doc.bare ? 1 : 2;
	report_begin(&o, f, format, &doc);
	report_table(&o, &ti);
	for (i = 0; i < a->ninsn; i++)
		ann_insn_row(&o, h, a, i, total);
	report_table_end(&o);
	if (!doc.bare) {
		report_table(&o, &ann_t_buckets);
		for (i = 0; i < a->nbuckets; i++) {
			b = &a->buckets[i];
			segoff = analyze_hist_segoff(h, b->lo);
			c[0] = report_str(segoff);
			c[1] = report_int((int64_t)b->lo);
			c[2] = report_int((int64_t)b->hi);
			c[3] = report_int((int64_t)b->hits);
			c[4] = report_int((int64_t)b->unplaced);
			c[5] = report_real(b->part - (double)b->exact);
			c[6] = report_int(!b->whole || b->part !=
			    (double)b->hits);
			report_row(&o, c);
			free(segoff);
		}
		report_table_end(&o);
	}
	rc = report_end(&o, cause);
	free((char *)ti.title);
	return (rc);
}
