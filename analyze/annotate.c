/*
 * Annotation of an address range, as perf annotate does for a symbol:
 * its instructions decoded (x86 16-bit) from the program image stored
 * with the session, each with the hit table's samples, the buckets over
 * the range with theirs, and the lines of the program's listing at each
 * address.  The histogram's model (analyze/hist.c) gives the hit table,
 * the buckets and the symbols, so what the annotate view shows adds up
 * with the flat profile.  A linear model (a prfd slot's, a pvtrace
 * profile's module) is x86-64 code: its bytes and DWARF lines are those
 * the store keeps of its module (the code and code_line tables, kept by
 * ingest/code.c), its addresses offsets from the model's base.
 *
 * Precision.  A hit-table entry is a sampled CS:IP: its samples belong to
 * the instruction at that address, exactly, and an entry that is not an
 * instruction's start (code decoded from the wrong place, data executed,
 * a table that lies) is counted in the instruction holding it and marked,
 * never moved.  Samples no entry places (all of them without a table)
 * are known per bucket only; they are reported per bucket, with the
 * range's estimated part of a bucket it shares, never spread over the
 * instructions.
 *
 * Only the range is decoded, each piece from where control can arrive:
 * the range's start, every symbol's start and every address the listing
 * gives a line (so data the listing shows stops a desynchronised decode).
 */
#include <stdlib.h>
#include <string.h>

#include <capstone.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "store/prf.h"

/* An arena of NUL-terminated texts, addressed by offset. */
struct ann_arena {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

static uint32_t
ann_text(struct ann_arena *ar, const char *a, const char *b)
{
	size_t	na = strlen(a), nb = b != NULL ? strlen(b) : 0;
	size_t	at = ar->len, need = na + (nb != 0 ? nb + 1 : 0) + 1;

	if (ar->len + need > ar->cap) {
		ar->cap = (ar->len + need) * 2;
		ar->p = xreallocarray(ar->p, ar->cap, 1);
	}
	memcpy(ar->p + ar->len, a, na);
	ar->len += na;
	if (nb != 0) {
		ar->p[ar->len++] = ' ';
		memcpy(ar->p + ar->len, b, nb);
		ar->len += nb;
	}
	ar->p[ar->len++] = '\0';
	return ((uint32_t)at);
}

static int
ann_u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Add an instruction row; the arrays grow by doubling. */
static struct analyze_insn *
ann_insn(struct analyze_annotate *a, size_t *cap)
{
	struct analyze_insn	*in;

	if (a->ninsn == *cap) {
		*cap = *cap != 0 ? *cap * 2 : 256;
		a->insn = xreallocarray(a->insn, *cap, sizeof *a->insn);
	}
	in = &a->insn[a->ninsn++];
	memset(in, 0, sizeof *in);
	in->bucket = UINT32_MAX;
	return (in);
}

static struct analyze_src_line *
ann_src(struct analyze_annotate *a, size_t *cap)
{
	if (a->nsrc == *cap) {
		*cap = *cap != 0 ? *cap * 2 : 64;
		a->src = xreallocarray(a->src, *cap, sizeof *a->src);
	}
	return (&a->src[a->nsrc++]);
}

/*
 * The DWARF lines the store keeps of [lo, hi) of a linear histogram,
 * each "file.c: its text" (the file's name alone when it was not read).
 */
static int
ann_dwarf_lines(struct store *st, const struct analyze_hist *h,
    struct analyze_annotate *a, struct ann_arena *ar)
{
	struct store_cursor	*c;
	struct store_code_line	 e;
	struct analyze_src_line	*l;
	const char		*base;
	char			*t;
	size_t			 cap = 0;
	int			 rc;

	if ((c = store_code_lines(st, a->session, h->base + a->lo, h->base +
	    a->hi)) == NULL)
		return (-1);
	while ((rc = store_code_line_next(c, &e)) == 1) {
		l = ann_src(a, &cap);
		l->addr = e.addr - h->base;
		l->line = e.line;
		base = strrchr(e.file, '/');
		base = base != NULL ? base + 1 : e.file;
		t = xasprintf("%s:", base);
		l->text = ann_text(ar, t, e.text != NULL && *e.text != '\0' ?
		    e.text : NULL);
		free(t);
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

/* The listing's lines of [lo, hi), their texts into the arena. */
static int
ann_sources(struct store *st, const struct analyze_hist *h,
    struct analyze_annotate *a, struct ann_arena *ar)
{
	struct store_cursor	*c;
	struct store_prf_source	 e;
	struct analyze_src_line	*l;
	size_t			 cap = 0;
	int			 rc;

	if (h->linear)
		return (ann_dwarf_lines(st, h, a, ar));
	if ((c = store_prf_sources(st, a->session, a->lo, a->hi)) == NULL)
		return (-1);
	while ((rc = store_prf_source_next(c, &e)) == 1) {
		l = ann_src(a, &cap);
		l->addr = e.addr;
		l->line = e.line;
		l->text = ann_text(ar, e.text, NULL);
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

/*
 * Where decoding starts over in [lo, hi): lo, each symbol's start and
 * each listed address, sorted and unique, hi last.  *n of them, to free.
 */
static uint64_t *
ann_cuts(const struct analyze_hist *h, const struct analyze_annotate *a,
    uint64_t lo, uint64_t hi, size_t *n)
{
	uint64_t	*v;
	size_t		 i, k = 0, m = 0;

	v = xreallocarray(NULL, h->nsyms + a->nsrc + 2, sizeof *v);
	v[k++] = lo;
	v[k++] = hi;
	for (i = 0; i < h->nsyms; i++) {
		if (h->syms[i].addr > lo && h->syms[i].addr < hi)
			v[k++] = h->syms[i].addr;
	}
	for (i = 0; i < a->nsrc; i++) {
		if (a->src[i].addr > lo && a->src[i].addr < hi)
			v[k++] = a->src[i].addr;
	}
	qsort(v, k, sizeof *v, ann_u64_cmp);
	for (i = 0; i < k; i++) {
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	}
	*n = m;
	return (v);
}

/* Decode [lo, hi) of the image, piece by piece. */
static void
ann_decode(const struct analyze_hist *h, struct analyze_annotate *a,
    const uint8_t *image, uint64_t image_lo, uint64_t image_hi,
    struct ann_arena *ar, size_t *cap)
{
	struct analyze_insn	*in;
	const uint8_t		*p;
	uint64_t		*cut, at, next, ip;
	size_t			 ncut, i, left;
	csh			 cs;
	cs_insn			*ci;

	if (cs_open(CS_ARCH_X86, h->linear ? CS_MODE_64 : CS_MODE_16, &cs) !=
	    CS_ERR_OK)
		return;
	ci = cs_malloc(cs);
	cut = ann_cuts(h, a, a->dlo, a->dhi, &ncut);
	for (i = 0; i + 1 < ncut; i++) {
		at = cut[i];
		p = image + (at - image_lo);
		/* The last instruction of a piece may run on past it. */
		left = (size_t)(image_hi - at);
		while (at < cut[i + 1]) {
			in = ann_insn(a, cap);
			in->addr = at;
			/*
			 * Decoded at its offset in the segment the views
			 * write (seg:off from the PSP), or at its address
			 * in the process (linear), so that a jump's target
			 * reads as an address beside them.
			 */
			ip = h->linear ? h->base + at :
			    at - analyze_hist_seg(h, at) * 16;
			next = ip;
			if (cs_disasm_iter(cs, &p, &left, &next, ci)) {
				in->len = (uint32_t)(next - ip);
				in->text = ann_text(ar, ci->mnemonic,
				    ci->op_str);
				at += in->len;
			} else {
				/* Not an instruction: the byte alone. */
				in->len = 1;
				in->flags = ANALYZE_INSN_BAD;
				in->text = ann_text(ar, "(bad)", NULL);
				p++;
				left--;
				at++;
			}
		}
	}
	free(cut);
	cs_free(ci, 1);
	cs_close(&cs);
}

/* A row for bytes the image (a module's file) does not hold. */
static void
ann_gap(const struct analyze_hist *h, struct analyze_annotate *a,
    uint64_t lo, uint64_t hi, struct ann_arena *ar, size_t *cap)
{
	struct analyze_insn	*in;

	if (hi <= lo)
		return;
	in = ann_insn(a, cap);
	in->addr = lo;
	in->len = (uint32_t)(hi - lo);
	in->flags = ANALYZE_INSN_GAP;
	in->text = ann_text(ar, h->linear ? "(not in the module's file)" :
	    "(not in the program image)", NULL);
}

/* The last row at or below addr, or SIZE_MAX when none is. */
static size_t
ann_row_at(const struct analyze_annotate *a, uint64_t addr)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, a->ninsn, a->insn[i].addr <= addr);
	return (i != 0 ? i - 1 : SIZE_MAX);
}

/* Where row i ends: its bytes, but never past the next row's start. */
static uint64_t
ann_row_end(const struct analyze_annotate *a, size_t i)
{
	uint64_t	end = a->insn[i].addr + a->insn[i].len;

	if (i + 1 < a->ninsn && a->insn[i + 1].addr < end)
		end = a->insn[i + 1].addr;
	return (end);
}

/* Each hit-table entry of the range to the row holding it. */
static void
ann_hits(const struct analyze_hist *h, struct analyze_annotate *a)
{
	struct analyze_insn	*in;
	uint64_t		 n;
	size_t			 k, r;

	for (k = analyze_hit_at(h, a->lo);
	    k < h->nhit && h->hit_addr[k] < a->hi; k++) {
		n = h->hit_cum[k + 1] - h->hit_cum[k];
		r = ann_row_at(a, h->hit_addr[k]);
		if (r == SIZE_MAX || h->hit_addr[k] >= ann_row_end(a, r))
			continue;	/* rows cover the range: never */
		in = &a->insn[r];
		in->hits += n;
		a->hits += n;
		if (h->hit_addr[k] != in->addr && !(in->flags &
		    ANALYZE_INSN_GAP)) {
			in->mid += n;
			in->flags |= ANALYZE_INSN_MID;
			a->mid += n;
		}
	}
}

/* The raw buckets over the range, with its part of each. */
static void
ann_buckets(const struct analyze_hist *h, struct analyze_annotate *a)
{
	const struct analyze_level	*l0 = &h->levels[0];
	const struct analyze_bucket	*b;
	struct analyze_ann_bucket	*ab;
	size_t				 i, first, r;

	if (l0->n == 0)
		return;
	first = analyze_level_at(l0, a->lo);
	for (i = first; i < l0->n && l0->b[i].lo < a->hi; i++) {
		b = &l0->b[i];
		if (b->hi <= a->lo || b->hi <= b->lo)
			continue;
		a->buckets = xreallocarray(a->buckets, a->nbuckets + 1,
		    sizeof *a->buckets);
		ab = &a->buckets[a->nbuckets++];
		ab->lo = b->lo;
		ab->hi = b->hi;
		ab->hits = b->hits;
		ab->part = analyze_bucket_part(h, b, a->lo, a->hi);
		ab->whole = b->lo >= a->lo && b->hi <= a->hi;
		ab->exact = analyze_hit_sum(h, b->lo > a->lo ? b->lo : a->lo,
		    b->hi < a->hi ? b->hi : a->hi);
		ab->unplaced = b->hits - analyze_hit_sum(h, b->lo, b->hi);
		/* What the table does not place is only estimated here. */
		if (ab->part > (double)ab->exact)
			a->estimated += ab->part - (double)ab->exact;
	}
	/* Each row's bucket: rows and buckets both come by address. */
	for (r = 0, i = 0; r < a->ninsn; r++) {
		while (i < a->nbuckets && a->buckets[i].hi <= a->insn[r].addr)
			i++;
		if (i < a->nbuckets && a->buckets[i].lo <= a->insn[r].addr)
			a->insn[r].bucket = (uint32_t)i;
	}
}

/* Each row's listing lines: those at an address inside it. */
static void
ann_link_sources(struct analyze_annotate *a)
{
	size_t	k, r;

	for (r = 0; r < a->ninsn; r++)
		a->insn[r].src = (uint32_t)a->nsrc;
	for (k = 0; k < a->nsrc; k++) {
		r = ann_row_at(a, a->src[k].addr);
		if (r == SIZE_MAX || a->src[k].addr >= ann_row_end(a, r))
			continue;
		if (a->insn[r].nsrc == 0)
			a->insn[r].src = (uint32_t)k;
		if (a->insn[r].nsrc < UINT16_MAX)
			a->insn[r].nsrc++;
	}
}

static int
ann_hot_cmp(const void *x, const void *y, void *arg)
{
	const struct analyze_annotate	*a = arg;
	const struct analyze_insn	*p = &a->insn[*(const size_t *)x];
	const struct analyze_insn	*q = &a->insn[*(const size_t *)y];

	if (p->hits != q->hits)
		return (p->hits > q->hits ? -1 : 1);
	return (p->addr < q->addr ? -1 : p->addr > q->addr);
}

/*
 * The code the store keeps of a linear histogram at its offset lo: the
 * run holding it (ingest/code.c keeps what is annotated as one run), as
 * offsets.  1, 0 when none is kept, -1 on error.
 */
static int
ann_code_get(struct store *st, const struct analyze_hist *h, uint64_t lo,
    uint64_t *image_lo, uint8_t **image, size_t *len)
{
	struct store_cursor	*c;
	struct store_code	 e;
	int			 rc;

	*image = NULL;
	*len = 0;
	if ((c = store_codes(st, h->session, h->base + lo, h->base + lo +
	    1)) == NULL)
		return (-1);
	if ((rc = store_code_next(c, &e)) == 1) {
		*image_lo = e.addr - h->base;
		*image = xmalloc(e.len + 1);
		if (e.len != 0)
			memcpy(*image, e.bytes, e.len);
		*len = e.len;
	}
	store_cursor_close(c);
	return (rc);
}

/*
 * Annotate [lo, hi) of the session h was loaded from (at most
 * ANALYZE_ANNOTATE_MAX bytes of it, from lo).  -1 with *cause when the
 * session has no program image or the store fails.
 */
int
analyze_annotate_load(struct store *st, const struct analyze_hist *h,
    uint64_t lo, uint64_t hi, struct analyze_annotate *a, char **cause)
{
	struct ann_arena	 ar = { NULL, 0, 0 };
	uint8_t			*image = NULL;
	uint64_t		 image_lo, image_hi;
	size_t			 len, cap = 0, i;
	int			 rc;

	memset(a, 0, sizeof *a);
	a->session = h->session;
	if (hi > lo && hi - lo > ANALYZE_ANNOTATE_MAX) {
		hi = lo + ANALYZE_ANNOTATE_MAX;
		a->cut = 1;
	}
	a->lo = lo;
	a->hi = hi > lo ? hi : lo;
	a->table = h->prf.hit_table;
	if (h->linear)
		rc = ann_code_get(st, h, a->lo, &image_lo, &image, &len);
	else
		rc = store_prf_image_get(st, h->session, &image_lo, &image,
		    &len);
	if (rc == 0 && h->linear) {
		*cause = xasprintf("no code kept for %012llX in session %lld",
		    (unsigned long long)(h->base + a->lo),
		    (long long)h->session);
		free(image);
		return (-1);
	}
	if (rc != 1) {
		*cause = rc == 0 ? xasprintf("no program image in session %lld"
		    " (NAME.COM/.EXE or --program)", (long long)h->session) :
		    xasprintf("session %lld: %s", (long long)h->session,
		    store_error(st));
		free(image);
		return (-1);
	}
	image_hi = image_lo + len;
	if (ann_sources(st, h, a, &ar) != 0) {
		*cause = xasprintf("session %lld: %s", (long long)h->session,
		    store_error(st));
		free(image);
		free(ar.p);
		analyze_annotate_free(a);
		return (-1);
	}
	/* Before the image, the image's part, after it. */
	a->dlo = a->lo > image_lo ? a->lo : image_lo;
	a->dhi = a->hi < image_hi ? a->hi : image_hi;
	if (a->dhi > a->dlo) {
		/*
		 * Sized for 16-bit code's mean of over two bytes an
		 * instruction, and the arena for their texts: a 64 KiB
		 * symbol's rows rarely grow them.
		 */
		cap = (size_t)(a->dhi - a->dlo) / 2 + 16;
		a->insn = xreallocarray(NULL, cap, sizeof *a->insn);
		ar.cap += cap * 16;
		ar.p = xreallocarray(ar.p, ar.cap, 1);
		ann_gap(h, a, a->lo, a->dlo, &ar, &cap);
		a->bytes = xmalloc((size_t)(a->dhi - a->dlo) + 1);
		memcpy(a->bytes, image + (a->dlo - image_lo),
		    (size_t)(a->dhi - a->dlo));
		ann_decode(h, a, image, image_lo, image_hi, &ar, &cap);
		ann_gap(h, a, a->dhi, a->hi, &ar, &cap);
	} else {
		a->dlo = a->dhi = a->lo;
		ann_gap(h, a, a->lo, a->hi, &ar, &cap);
	}
	free(image);
	a->text = ar.p != NULL ? ar.p : xcalloc(1, 1);
	ann_hits(h, a);
	ann_buckets(h, a);
	ann_link_sources(a);
	for (i = 0; i < a->ninsn; i++)
		a->nhot += a->insn[i].hits != 0;
	a->hot = xreallocarray(NULL, a->nhot + 1, sizeof *a->hot);
	for (i = a->nhot = 0; i < a->ninsn; i++) {
		if (a->insn[i].hits != 0)
			a->hot[a->nhot++] = i;
	}
	qsort_r(a->hot, a->nhot, sizeof *a->hot, ann_hot_cmp, a);
	/* The table places every sample of these buckets: exact. */
	a->exact = a->table;
	for (i = 0; i < a->nbuckets; i++) {
		if (a->buckets[i].unplaced != 0)
			a->exact = 0;
	}
	return (0);
}

void
analyze_annotate_free(struct analyze_annotate *a)
{
	free(a->insn);
	free(a->text);
	free(a->bytes);
	free(a->buckets);
	free(a->src);
	free(a->hot);
	memset(a, 0, sizeof *a);
}

/* Row i's instruction text ("mov cx, 0x3e8"). */
const char *
analyze_insn_text(const struct analyze_annotate *a, size_t i)
{
	return (a->text + a->insn[i].text);
}

/* Listing line k's text. */
const char *
analyze_src_text(const struct analyze_annotate *a, size_t k)
{
	return (a->text + a->src[k].text);
}

/* The row holding addr, or SIZE_MAX when it is outside the range. */
size_t
analyze_annotate_row(const struct analyze_annotate *a, uint64_t addr)
{
	size_t	r = ann_row_at(a, addr);

	if (r == SIZE_MAX || addr >= ann_row_end(a, r))
		return (SIZE_MAX);
	return (r);
}

/*
 * The range perf annotate would show for symbol k: the symbol and the
 * local labels that follow it ("spin", then "spin.l", as NASM's maps
 * list them), which are parts of one routine.  An alias of size 0 takes
 * the range of the symbol at its address that has one.
 */
void
analyze_annotate_sym_range(const struct analyze_hist *h, size_t k,
    uint64_t *lo, uint64_t *hi)
{
	const struct analyze_sym	*s = &h->syms[k];
	size_t				 j, n;

	while (s->size == 0 && k + 1 < h->nsyms && h->syms[k + 1].addr ==
	    s->addr)
		s = &h->syms[++k];
	*lo = s->addr;
	*hi = s->addr + s->size;
	n = strlen(s->name);
	for (j = k + 1; j < h->nsyms; j++) {
		if (h->syms[j].addr != *hi || strncmp(h->syms[j].name,
		    s->name, n) != 0 || h->syms[j].name[n] != '.')
			break;
		*hi += h->syms[j].size;
	}
}

/*
 * Where row i's jump, call or loop goes when its operand says: a near
 * target is an offset in the row's own segment, a far one seg:off, an
 * x86-64 one the address in the process (as an offset from the slot).  0
 * with *target (linear), -1 for any other row.
 */
int
analyze_insn_target(const struct analyze_hist *h,
    const struct analyze_annotate *a, size_t i, uint64_t *target)
{
	const char		*t = analyze_insn_text(a, i), *op;
	char			*end;
	unsigned long long	 seg, off;

	if (a->insn[i].flags & (ANALYZE_INSN_BAD | ANALYZE_INSN_GAP))
		return (-1);
	if (t[0] == 'l' && (t[1] == 'j' || t[1] == 'c'))
		t++;		/* ljmp, lcall: far */
	if (t[0] != 'j' && strncmp(t, "call ", 5) != 0 &&
	    strncmp(t, "loop", 4) != 0)
		return (-1);
	if ((op = strchr(t, ' ')) == NULL)
		return (-1);
	op++;
	seg = strtoull(op, &end, 0);
	if (end == op)
		return (-1);
	/* x86-64 writes the target's address in the process. */
	if (h->linear) {
		if (*end != '\0' || seg < h->base)
			return (-1);
		*target = seg - h->base;
		return (0);
	}
	if (*end == ':') {
		op = end + 1;
		off = strtoull(op, &end, 0);
		if (end == op || *end != '\0' || seg > 0xffff || off > 0xffff)
			return (-1);
		*target = seg * 16 + off;
		return (0);
	}
	if (*end != '\0' || seg > 0xffff)
		return (-1);
	*target = analyze_hist_seg(h, a->insn[i].addr) * 16 + seg;
	return (0);
}
