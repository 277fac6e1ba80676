/*
 * The .pdt file: p1's plan as text, one line per module and per
 * function, read back by the runner (p2).  The layout is documented in
 * profview-formats(5), PDT FILES.  The reader trusts nothing: every field
 * is checked, the displaced bytes must decode back to the instruction
 * list, and the closing counts must match, so a truncated or edited plan
 * is refused rather than patched into a program.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monname.h"
#include "capture/pvtrace/pvtrace.h"

static const char *const pdt_how[] = { "jump", "trap", "out", "plt" };

static void
pdt_insns(FILE *f, const struct pvt_func *fn)
{
	const struct pvt_insn	*in;
	size_t			 i;

	if (fn->ninsn == 0) {
		fputc('-', f);
		return;
	}
	for (i = 0; i < fn->ninsn; i++) {
		in = &fn->insn[i];
		if (i > 0)
			fputc(',', f);
		fprintf(f, "%u", in->len);
		switch (in->kind) {
		case PVT_I_RIP:
			fprintf(f, "r%u", in->field);
			break;
		case PVT_I_JMP8:
		case PVT_I_JMP32:
			fputc('j', f);
			break;
		case PVT_I_JCC8:
		case PVT_I_JCC32:
			fputc('c', f);
			break;
		case PVT_I_CALL:
			fputc('k', f);
			break;
		case PVT_I_PAD:
			fputc('p', f);
			break;
		}
	}
}

int
pvt_pdt_write(const struct pvt_plan *p, const char *path, char **cause)
{
	const struct pvt_module	*m;
	const struct pvt_func	*fn;
	FILE			*f;
	size_t			 i, j;
	struct outfile		 o;

	if ((f = pvt_create(&o, path, cause)) == NULL)
		return (-1);
	fprintf(f, "pvtrace-plan %d\n", PVT_VERSION);
	fputs("# pvtrace(1)'s p1 plan: how each function's entry is trapped."
	    "\n# Layout: profview-formats(5), PDT FILES.\n", f);
	for (i = 0; i < p->nmod; i++) {
		m = &p->mod[i];
		fputs("module ", f);
		monname_put(f, p->str + m->name);
		fprintf(f, " %s %" PRIu64 " ", m->type == 2 ? "exec" : "dyn",
		    m->file_size);
		if (m->build_id_len == 0)
			fputc('-', f);
		for (j = 0; j < m->build_id_len; j++)
			fprintf(f, "%02x", m->build_id[j]);
		fprintf(f, " 0x%" PRIx64 " 0x%" PRIx64 " ", m->lo, m->hi);
		monname_put(f, p->str + m->path);
		fputc('\n', f);
	}
	for (i = 0; i < p->nfn; i++) {
		fn = &p->fn[i];
		fprintf(f, "fn %u 0x%" PRIx64 " %" PRIu64 " %s %u ",
		    fn->module, fn->addr, fn->size, pdt_how[fn->how], fn->len);
		if (fn->len == 0)
			fputc('-', f);
		for (j = 0; j < fn->len; j++)
			fprintf(f, "%02x", fn->bytes[j]);
		fputc(' ', f);
		pdt_insns(f, fn);
		fprintf(f, " %s%s%s%s%s%s%s ", fn->flags == 0 ? "-" : "",
		    (fn->flags & PVT_F_DYNSYM) ? "d" : "",
		    (fn->flags & PVT_F_SIZED) ? "s" : "",
		    (fn->flags & PVT_F_PADDED) ? "p" : "",
		    (fn->flags & PVT_F_GOT) ? "g" : "",
		    (fn->flags & PVT_F_LEAF) ? "l" : "",
		    (fn->flags & PVT_F_COPY) ? "c" : "");
		monname_put(f, p->str + fn->name);
		if (fn->reason != 0)
			fprintf(f, " %s", p->str + fn->reason);
		fputc('\n', f);
	}
	fprintf(f, "end %zu %zu %zu %zu ", p->counts[PVT_JUMP],
	    p->counts[PVT_TRAP], p->counts[PVT_OUT], p->counts[PVT_PLT]);
	if (p->leaves < 0)
		fputs("-\n", f);
	else
		fprintf(f, "%d\n", p->leaves);
	return (pvt_commit(f, &o, path, cause));
}

void
pvt_pdt_summary(const struct pvt_plan *p, FILE *f)
{
	size_t	i, n, by[PVT_NHOW];

	for (i = 0; i < p->nmod; i++) {
		memset(by, 0, sizeof by);
		for (n = 0; n < p->mod[i].nfunc; n++)
			by[p->fn[p->mod[i].first + n].how]++;
		fprintf(f, "%s: %zu functions: %zu patched (jump), %zu trapped"
		    " (int3), %zu left out; %zu library functions by their"
		    " GOT slots\n", p->str + p->mod[i].name,
		    p->mod[i].nfunc - by[PVT_PLT], by[PVT_JUMP], by[PVT_TRAP],
		    by[PVT_OUT], by[PVT_PLT]);
	}
}

/* The reader. */
struct pdt_in {
	const char	*path;
	size_t		 line;
	char		**cause;
};

static int __attribute__((format(printf, 3, 4)))
pdt_bad(struct pdt_in *in, const char *field, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (asprintf(in->cause, "%s: line %zu: %s: %s", in->path, in->line,
	    field, msg != NULL ? msg : "?") < 0)
		*in->cause = NULL;
	free(msg);
	return (-1);
}

/* Split a line into at most max fields; the last takes the rest. */
static size_t
pdt_split(char *s, char **v, size_t max)
{
	size_t	n = 0;

	while (n < max) {
		s += strspn(s, " \t");
		if (*s == '\0')
			break;
		v[n++] = s;
		if (n == max)
			break;
		s += strcspn(s, " \t");
		if (*s != '\0')
			*s++ = '\0';
	}
	return (n);
}

static int
pdt_u64(const char *s, uint64_t *v, int hex)
{
	char	*end;

	if (*s == '-' || *s == '+' || *s == '\0')
		return (-1);
	if (hex && strncmp(s, "0x", 2) != 0)
		return (-1);
	errno = 0;
	*v = strtoull(s, &end, hex ? 16 : 10);
	return (errno != 0 || *end != '\0' ? -1 : 0);
}

static int
pdt_hex(const char *s, uint8_t *out, size_t max, size_t *n)
{
	size_t	i, len = strlen(s);
	int	h, l;

	if (len % 2 != 0 || len / 2 > max)
		return (-1);
	for (i = 0; i < len / 2; i++) {
		if (sscanf(s + 2 * i, "%1x%1x", &h, &l) != 2)
			return (-1);
		out[i] = (uint8_t)(h << 4 | l);
	}
	*n = len / 2;
	return (0);
}

/* One instruction token; its kind must agree with its first bytes. */
static int
pdt_insn(const char *tok, const uint8_t *code, size_t left,
    struct pvt_insn *in)
{
	char		*end;
	unsigned long	 len, field;

	len = strtoul(tok, &end, 10);
	if (end == tok || len == 0 || len > 15 || len > left)
		return (-1);
	in->len = (uint8_t)len;
	in->field = 0;
	switch (*end) {
	case '\0':
		in->kind = PVT_I_PLAIN;
		return (0);
	case 'r':
		/* strtoul takes a sign: digits only, no wrap past len. */
		if (!isdigit((unsigned char)end[1]))
			return (-1);
		field = strtoul(end + 1, &end, 10);
		if (*end != '\0' || field == 0 || len < 4 || field > len - 4)
			return (-1);
		in->kind = PVT_I_RIP;
		in->field = (uint8_t)field;
		return (0);
	case 'j':
		if (end[1] != '\0')
			return (-1);
		if (len == 2 && code[0] == 0xeb)
			in->kind = PVT_I_JMP8;
		else if (len == 5 && code[0] == 0xe9)
			in->kind = PVT_I_JMP32;
		else
			return (-1);
		return (0);
	case 'c':
		if (end[1] != '\0')
			return (-1);
		if (len == 2 && (code[0] & 0xf0) == 0x70)
			in->kind = PVT_I_JCC8;
		else if (len == 6 && code[0] == 0x0f &&
		    (code[1] & 0xf0) == 0x80)
			in->kind = PVT_I_JCC32;
		else
			return (-1);
		return (0);
	case 'k':
		if (end[1] != '\0' || len != 5 || code[0] != 0xe8)
			return (-1);
		in->kind = PVT_I_CALL;
		return (0);
	case 'p':
		if (end[1] != '\0' || len >= PVT_JMP_LEN)
			return (-1);
		in->kind = PVT_I_PAD;
		return (0);
	}
	return (-1);
}

static int
pdt_module(struct pdt_in *in, struct pvt_plan *p, char **v, size_t n)
{
	struct pvt_module	*m;
	char			*s;
	size_t			 len;

	if (n != 8)
		return (pdt_bad(in, "module", "%zu fields, want 8", n));
	if (p->nfn > 0)
		return (pdt_bad(in, "module", "after the first fn line"));
	if (p->nmod >= 64)
		return (pdt_bad(in, "module", "more than 64 modules"));
	p->mod = reallocarray(p->mod, p->nmod + 1, sizeof *p->mod);
	if (p->mod == NULL)
		return (pdt_bad(in, "module", "out of memory"));
	m = &p->mod[p->nmod];
	memset(m, 0, sizeof *m);
	if ((s = pvt_name_get(v[1], strlen(v[1]))) == NULL || *s == '\0') {
		free(s);
		return (pdt_bad(in, "name", "malformed: %s", v[1]));
	}
	m->name = pvt_plan_str(p, s);
	free(s);
	if (strcmp(v[2], "exec") == 0)
		m->type = 2;
	else if (strcmp(v[2], "dyn") == 0)
		m->type = 3;
	else
		return (pdt_bad(in, "type", "'%s' is not exec or dyn", v[2]));
	if (pdt_u64(v[3], &m->file_size, 0) != 0)
		return (pdt_bad(in, "size", "not a number: %s", v[3]));
	if (strcmp(v[4], "-") != 0) {
		if (pdt_hex(v[4], m->build_id, sizeof m->build_id, &len) != 0)
			return (pdt_bad(in, "build-id", "not hex of at most"
			    " 32 bytes: %s", v[4]));
		m->build_id_len = (uint8_t)len;
	}
	if (pdt_u64(v[5], &m->lo, 1) != 0 || pdt_u64(v[6], &m->hi, 1) != 0 ||
	    m->lo >= m->hi)
		return (pdt_bad(in, "text", "not an address range: %s %s",
		    v[5], v[6]));
	if ((s = pvt_name_get(v[7], strlen(v[7]))) == NULL || *s != '/') {
		free(s);
		return (pdt_bad(in, "path", "not an absolute path: %s", v[7]));
	}
	m->path = pvt_plan_str(p, s);
	free(s);
	p->nmod++;
	return (0);
}

static int
pdt_fn(struct pdt_in *in, struct pvt_plan *p, char **v, size_t n)
{
	struct pvt_func	*fn;
	uint64_t	 mod, len;
	size_t		 nb, i, at;
	char		*s, *tok, *save = NULL;
	int		 how = -1, padded;

	if (n < 10)
		return (pdt_bad(in, "fn", "%zu fields, want at least 10", n));
	if (p->nfn >= UINT32_MAX)
		return (pdt_bad(in, "fn", "too many functions"));
	p->fn = reallocarray(p->fn, p->nfn + 1, sizeof *p->fn);
	if (p->fn == NULL)
		return (pdt_bad(in, "fn", "out of memory"));
	fn = &p->fn[p->nfn];
	memset(fn, 0, sizeof *fn);
	if (pdt_u64(v[1], &mod, 0) != 0 || mod >= p->nmod)
		return (pdt_bad(in, "module", "'%s' is not one of the %zu"
		    " modules", v[1], p->nmod));
	if (p->nfn > 0 && mod < p->fn[p->nfn - 1].module)
		return (pdt_bad(in, "module", "functions of module %s out of"
		    " order", v[1]));
	fn->module = (uint32_t)mod;
	if (pdt_u64(v[2], &fn->addr, 1) != 0)
		return (pdt_bad(in, "addr", "not a 0x address: %s", v[2]));
	if (pdt_u64(v[3], &fn->size, 0) != 0)
		return (pdt_bad(in, "size", "not a number: %s", v[3]));
	for (i = 0; i < PVT_NHOW; i++) {
		if (strcmp(v[4], pdt_how[i]) == 0)
			how = (int)i;
	}
	if (how < 0)
		return (pdt_bad(in, "how", "'%s' is not jump, trap, out or"
		    " plt", v[4]));
	fn->how = (uint8_t)how;
	padded = strchr(v[8], 'p') != NULL;
	if ((how == PVT_PLT || strchr(v[8], 'g') != NULL) &&
	    (strcmp(v[8], "g") != 0 || fn->size != 0 ||
	    (how != PVT_PLT && how != PVT_OUT)))
		return (pdt_bad(in, "how", "a GOT slot is plt or out, of size"
		    " 0, with flag g alone"));
	if (pdt_u64(v[5], &len, 0) != 0 || len > PVT_REGION_MAX ||
	    (how == PVT_OUT || how == PVT_PLT) != (len == 0) ||
	    (how == PVT_JUMP && len < PVT_JMP_LEN) || (len > fn->size && !padded) ||
	    (padded && (how != PVT_JUMP || len != PVT_JMP_LEN ||
	    fn->size >= PVT_JMP_LEN)))
		return (pdt_bad(in, "len", "%s does not fit a %s of %" PRIu64
		    " bytes", v[5], v[4], fn->size));
	/* The agent writes a pointer at a slot (and checks the segment). */
	if (how == PVT_PLT && (fn->addr & 7) != 0)
		return (pdt_bad(in, "addr", "%s is not a GOT slot's aligned"
		    " address", v[2]));
	/* The agent writes len bytes at addr: inside the module's text. */
	if (len != 0 && (fn->addr < p->mod[mod].lo || fn->addr >=
	    p->mod[mod].hi || len > p->mod[mod].hi - fn->addr))
		return (pdt_bad(in, "addr", "%s and %" PRIu64 " bytes are not"
		    " inside the module's text", v[2], len));
	fn->len = (uint8_t)len;
	if (len == 0) {
		if (strcmp(v[6], "-") != 0 || strcmp(v[7], "-") != 0)
			return (pdt_bad(in, "bytes", "given for a function"
			    " left out"));
	} else {
		if (pdt_hex(v[6], fn->bytes, sizeof fn->bytes, &nb) != 0 ||
		    nb != len)
			return (pdt_bad(in, "bytes", "want %" PRIu64 " bytes"
			    " in hex: %s", len, v[6]));
		at = 0;
		for (tok = strtok_r(v[7], ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			if (fn->ninsn == PVT_INSN_MAX || pdt_insn(tok,
			    fn->bytes + at, len - at,
			    &fn->insn[fn->ninsn]) != 0)
				return (pdt_bad(in, "insns", "'%s' does not"
				    " describe byte %zu", tok, at));
			at += fn->insn[fn->ninsn++].len;
		}
		if (at != len || (how == PVT_TRAP && fn->ninsn != 1))
			return (pdt_bad(in, "insns", "%zu bytes in %u"
			    " instructions, want %" PRIu64, at, fn->ninsn,
			    len));
		for (i = 0; i + 1 < fn->ninsn; i++) {
			if (fn->insn[i].kind == PVT_I_CALL)
				return (pdt_bad(in, "insns", "a call before"
				    " the last displaced instruction"));
			if (fn->insn[i].kind == PVT_I_PAD)
				return (pdt_bad(in, "insns", "fill before"
				    " the last displaced instruction"));
		}
		if (padded != (fn->insn[fn->ninsn - 1].kind == PVT_I_PAD) ||
		    (padded && at - fn->insn[fn->ninsn - 1].len != fn->size))
			return (pdt_bad(in, "insns", "the fill must follow"
			    " the whole function, with flag p"));
	}
	if (strcmp(v[8], "-") != 0) {
		for (s = v[8]; *s != '\0'; s++) {
			if (*s == 'd')
				fn->flags |= PVT_F_DYNSYM;
			else if (*s == 's')
				fn->flags |= PVT_F_SIZED;
			else if (*s == 'p')
				fn->flags |= PVT_F_PADDED;
			else if (*s == 'g')
				fn->flags |= PVT_F_GOT;
			else if (*s == 'l')
				fn->flags |= PVT_F_LEAF;
			else if (*s == 'c')
				fn->flags |= PVT_F_COPY;
			else
				return (pdt_bad(in, "flags", "'%c' unknown",
				    *s));
		}
	}
	if ((s = pvt_name_get(v[9], strlen(v[9]))) == NULL) {
		return (pdt_bad(in, "name", "malformed: %s", v[9]));
	}
	if ((fn->flags & PVT_F_LEAF) && how != PVT_JUMP)
		return (pdt_bad(in, "flags", "l (a leaf) on a function not"
		    " jumped"));
	/* The agent checks the instructions; the whole must be displaced. */
	if ((fn->flags & PVT_F_COPY) && (!(fn->flags & PVT_F_LEAF) ||
	    fn->len != fn->size))
		return (pdt_bad(in, "flags", "c (a whole copy) on a function"
		    " not a leaf displaced whole"));
	fn->name = pvt_plan_str(p, s);
	free(s);
	if (n > 10) {
		v[10][strcspn(v[10], "\n")] = '\0';
		fn->reason = pvt_plan_str(p, v[10]);
	} else if (how == PVT_OUT)
		return (pdt_bad(in, "reason", "a function left out needs"
		    " one"));
	p->counts[how]++;
	if (fn->flags & PVT_F_LEAF)
		p->nleaf++;
	p->mod[mod].nfunc++;
	p->nfn++;
	return (0);
}

int
pvt_pdt_read(struct pvt_plan *p, const char *path, char **cause)
{
	struct pdt_in	 in = { path, 0, cause };
	FILE		*f;
	char		*line = NULL, *v[11];
	size_t		 cap = 0, n;
	ssize_t		 len;
	uint64_t	 c[PVT_NHOW], nl = 0;
	int		 rv = -1, ended = 0, i;

	memset(p, 0, sizeof *p);
	pvt_plan_str(p, "");
	if ((f = fopen(path, "r")) == NULL) {
		if (asprintf(cause, "%s: %s", path, strerror(errno)) < 0)
			*cause = NULL;
		return (-1);
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		in.line++;
		if ((size_t)len != strlen(line)) {
			pdt_bad(&in, "line", "holds a NUL byte");
			goto out;
		}
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (ended) {
			pdt_bad(&in, "end", "lines after the end line");
			goto out;
		}
		if (in.line == 1) {
			if (strcmp(line, "pvtrace-plan 1") != 0) {
				pdt_bad(&in, "magic", "not a pvtrace plan"
				    " (version 1)");
				goto out;
			}
			continue;
		}
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if ((n = pdt_split(line, v, 11)) == 0)
			continue;	/* blanks only */
		if (strcmp(v[0], "module") == 0) {
			if (pdt_module(&in, p, v, n) != 0)
				goto out;
		} else if (strcmp(v[0], "fn") == 0) {
			if (p->nmod == 0) {
				pdt_bad(&in, "fn", "before any module");
				goto out;
			}
			if (pdt_fn(&in, p, v, n) != 0)
				goto out;
		} else if (strcmp(v[0], "end") == 0) {
			/*
			 * A plan before GOT slots has three counts, one
			 * before leaves four: leaves unknown (-2).  The
			 * fifth is the leaves, or - for --no-leaf.
			 */
			c[PVT_PLT] = 0;
			p->leaves = -2;
			if ((n < 4 || n > 6) ||
			    pdt_u64(v[1], &c[0], 0) != 0 ||
			    pdt_u64(v[2], &c[1], 0) != 0 ||
			    pdt_u64(v[3], &c[2], 0) != 0 ||
			    (n >= 5 && pdt_u64(v[4], &c[3], 0) != 0) ||
			    (n == 6 && strcmp(v[5], "-") != 0 &&
			    (pdt_u64(v[5], &nl, 0) != 0 ||
			    nl > INT_MAX))) {
				pdt_bad(&in, "end", "want three to five"
				    " counts");
				goto out;
			}
			if (n == 6)
				p->leaves = strcmp(v[5], "-") == 0 ? -1 :
				    (int)nl;
			if (p->leaves >= 0 && (size_t)p->leaves != p->nleaf) {
				pdt_bad(&in, "end", "says %d leaves, the file"
				    " has %zu", p->leaves, p->nleaf);
				goto out;
			}
			/*
			 * A - (--no-leaf) or no fifth count (a plan from
			 * before leaves or GOT slots) means none: said
			 * so, not as a 0 the line does not have.
			 */
			if (p->leaves < 0 && p->nleaf != 0) {
				pdt_bad(&in, "end", "says no leaves (%s), the"
				    " file has %zu", p->leaves == -1 ? "-" :
				    n == 4 ? "three counts" : "four counts",
				    p->nleaf);
				goto out;
			}
			for (i = 0; i < PVT_NHOW; i++) {
				if (c[i] != p->counts[i]) {
					pdt_bad(&in, "end", "says %" PRIu64
					    " %s, the file has %zu", c[i],
					    pdt_how[i], p->counts[i]);
					goto out;
				}
			}
			ended = 1;
		} else {
			pdt_bad(&in, "line", "'%s' is not module, fn or end",
			    v[0]);
			goto out;
		}
	}
	if (!ended) {
		in.line++;
		pdt_bad(&in, "end", "missing: the file is cut short");
		goto out;
	}
	if (p->nmod == 0) {
		pdt_bad(&in, "module", "none");
		goto out;
	}
	for (n = 0, i = 0; i < (int)p->nmod; i++) {
		p->mod[i].first = (uint32_t)n;
		n += p->mod[i].nfunc;
	}
	rv = 0;
out:
	free(line);
	fclose(f);
	if (rv != 0)
		pvt_plan_free(p);
	return (rv);
}
