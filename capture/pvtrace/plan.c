/*
 * p1: plan how to trap the entry of every function of an ELF executable
 * (and of the shared libraries named with --lib).  Rokicki's p1 looked
 * for LINK and UNLK in each routine of the symbol file; today's code has
 * no such markers, so the entry is displaced instead: the first whole
 * instructions covering five bytes move to a trampoline (relocated) and a
 * jmp takes their place, or, where they cannot move or the function is
 * shorter than a jump, an int3 takes the first byte.  Exits need no plan:
 * the agent swaps the return address at entry.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsearch.h"
#include "capture/pvtrace/pvtrace.h"

struct plan_sym {
	uint64_t	 addr, size;
	const char	*name;
	int		 prio;		/* lower names the function */
	int		 ifunc;
	int		 leaf;		/* no call, no jump out (plan_targets) */
	size_t		 sec;		/* index into plan_elf.sec */
	size_t		 order;		/* in the symbol table */
};

struct plan_sec {
	uint64_t	 addr, size, off;
};

struct plan_elf {
	const char	*path;
	int		 fd;
	Elf		*elf;
	const uint8_t	*map;
	size_t		 maplen;
	struct plan_sec	*sec;		/* executable sections, by index */
	size_t		 nsec;
	int		 dynsym;
	int		 interp;	/* has PT_INTERP: dynamically linked */
	uint64_t	 entry;		/* e_entry: where the loader jumps */
	uint64_t	*tgt;		/* direct branch targets, sorted */
	size_t		 ntgt, captgt;
};

static int __attribute__((format(printf, 2, 3)))
plan_fail(char **cause, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) < 0)
		*cause = NULL;
	va_end(ap);
	return (-1);
}

uint32_t
pvt_plan_str(struct pvt_plan *p, const char *s)
{
	size_t	n = strlen(s) + 1, off = p->nstr;

	while (p->nstr + n > p->capstr) {
		p->capstr = p->capstr != 0 ? p->capstr * 2 : 4096;
		if ((p->str = realloc(p->str, p->capstr)) == NULL) {
			fputs("pvtrace: out of memory\n", stderr);
			exit(127);
		}
	}
	memcpy(p->str + p->nstr, s, n);
	p->nstr += n;
	if (off > UINT32_MAX) {
		fputs("pvtrace: string table over 4 GB\n", stderr);
		exit(127);
	}
	return ((uint32_t)off);
}

void
pvt_plan_free(struct pvt_plan *p)
{
	free(p->mod);
	free(p->fn);
	free(p->str);
	memset(p, 0, sizeof *p);
}

static int
plan_cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

static int
plan_cmp_sym(const void *a, const void *b)
{
	const struct plan_sym	*x = a, *y = b;
	size_t			 lx, ly;
	int			 c;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	if (x->prio != y->prio)
		return (x->prio - y->prio);
	lx = strlen(x->name);
	ly = strlen(y->name);
	if (lx != ly)
		return (lx < ly ? -1 : 1);
	if ((c = strcmp(x->name, y->name)) != 0)
		return (c);
	return (x->order < y->order ? -1 : x->order > y->order);
}

/* Whether a direct branch of the module lands strictly inside (lo, hi). */
static int
plan_target_inside(const struct plan_elf *e, uint64_t lo, uint64_t hi,
    uint64_t *where)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, e->ntgt, e->tgt[i] <= lo);
	if (i < e->ntgt && e->tgt[i] < hi) {
		*where = e->tgt[i];
		return (1);
	}
	return (0);
}

/* The bytes of [addr, addr + size) in the file, or NULL. */
static const uint8_t *
plan_bytes(const struct plan_elf *e, const struct plan_sym *s)
{
	const struct plan_sec	*sec = &e->sec[s->sec];
	uint64_t		 off;

	if (s->addr < sec->addr || s->size > sec->size ||
	    s->addr - sec->addr > sec->size - s->size)
		return (NULL);
	off = sec->off + (s->addr - sec->addr);
	if (off > e->maplen || s->size > e->maplen - off)
		return (NULL);
	return (e->map + off);
}

/*
 * Every direct jump and call target of one function, for the module; 1
 * if it is a leaf: every byte decodes, it makes no call and it jumps
 * nowhere outside itself, directly or not (an indirect jump may be a
 * tail call).  A leaf's probe only counts its entry and marks it while
 * it runs (rt.c): nothing it runs can be a traced function's.
 */
static int
plan_targets(struct plan_elf *e, csh cs, cs_insn *in, const uint8_t *code,
    uint64_t addr, uint64_t size)
{
	const uint8_t	*p = code;
	size_t		 left = size;
	uint64_t	 pc = addr, to;
	cs_x86		*x;
	int		 leaf = 1, call;

	while (left > 0) {
		if (!cs_disasm_iter(cs, &p, &left, &pc, in)) {
			/* Not code (or not known to capstone): step over. */
			p++;
			left--;
			pc++;
			leaf = 0;
			continue;
		}
		call = cs_insn_group(cs, in, X86_GRP_CALL);
		if (!call && !cs_insn_group(cs, in, X86_GRP_JUMP))
			continue;
		x = &in->detail->x86;
		if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM) {
			leaf = 0;
			continue;
		}
		to = (uint64_t)x->operands[0].imm;
		if (call || to < addr || to - addr >= size)
			leaf = 0;
		e->tgt = pvt_grow(e->tgt, &e->captgt, e->ntgt,
		    sizeof *e->tgt);
		e->tgt[e->ntgt++] = to;
	}
	return (leaf);
}

/*
 * Where a RIP-relative instruction keeps its disp32: right after the
 * ModRM byte (RIP addressing has no SIB), which follows the prefixes
 * (legacy, REX, or a VEX/EVEX prefix that implies the opcode map) and
 * the opcode.  Capstone 4 leaves disp_offset 0 for some SSE and AVX
 * forms, so it is found here and checked against the value decoded.
 */
static int
plan_disp_offset(const uint8_t *b, size_t n, int64_t disp)
{
	size_t	i = 0;
	int32_t	v;

	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 ||
	    b[i] == 0xf3 || b[i] == 0xf0 || b[i] == 0x2e || b[i] == 0x3e ||
	    b[i] == 0x26 || b[i] == 0x36 || b[i] == 0x64 || b[i] == 0x65))
		i++;
	if (i < n && (b[i] & 0xf0) == 0x40)
		i++;			/* REX */
	if (i >= n)
		return (-1);
	if (b[i] == 0xc5)
		i += 3;			/* VEX2, opcode */
	else if (b[i] == 0xc4)
		i += 4;			/* VEX3, opcode */
	else if (b[i] == 0x62)
		i += 5;			/* EVEX, opcode */
	else if (b[i] == 0x0f) {
		if (i + 1 < n && (b[i + 1] == 0x38 || b[i + 1] == 0x3a))
			i += 3;
		else
			i += 2;
	} else
		i += 1;
	if (i >= n || (b[i] & 0xc7) != 0x05)	/* mod 00, rm 101 */
		return (-1);
	i++;
	if (i + 4 > n)
		return (-1);
	memcpy(&v, b + i, 4);
	if (v != disp)
		return (-1);
	return ((int)i);
}

/*
 * How one instruction moves: its kind and, for a relative branch, its
 * target; -1 and why not when it cannot be moved at all.
 */
static int
plan_insn(csh cs, const cs_insn *in, struct pvt_insn *pi, uint64_t *target,
    char *why, size_t whylen)
{
	const cs_x86	*x = &in->detail->x86;
	uint8_t		 op = x->opcode[0];
	int		 i, field;

	pi->len = (uint8_t)in->size;
	pi->kind = PVT_I_PLAIN;
	pi->field = 0;
	*target = 0;
	if (cs_insn_group(cs, in, X86_GRP_BRANCH_RELATIVE)) {
		if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
			*target = (uint64_t)x->operands[0].imm;
		if (op == 0xeb && in->size == 2)
			pi->kind = PVT_I_JMP8;
		else if (op == 0xe9 && in->size == 5)
			pi->kind = PVT_I_JMP32;
		else if (op >= 0x70 && op <= 0x7f && in->size == 2)
			pi->kind = PVT_I_JCC8;
		else if (op == 0x0f && (x->opcode[1] & 0xf0) == 0x80 &&
		    in->size == 6)
			pi->kind = PVT_I_JCC32;
		else if (op == 0xe8 && in->size == 5)
			pi->kind = PVT_I_CALL;
		else {
			snprintf(why, whylen, "'%s %s' is a relative branch"
			    " that cannot be moved", in->mnemonic, in->op_str);
			return (-1);
		}
		return (0);
	}
	for (i = 0; i < x->op_count; i++) {
		if (x->operands[i].type != X86_OP_MEM ||
		    (x->operands[i].mem.base != X86_REG_RIP &&
		    x->operands[i].mem.index != X86_REG_RIP))
			continue;
		field = plan_disp_offset(in->bytes, in->size,
		    x->operands[i].mem.disp);
		if (field <= 0 || (x->encoding.disp_offset != 0 &&
		    x->encoding.disp_offset != field) ||
		    x->operands[i].mem.index == X86_REG_RIP) {
			snprintf(why, whylen, "'%s %s' addresses memory"
			    " relative to itself in an unusual form",
			    in->mnemonic, in->op_str);
			return (-1);
		}
		pi->kind = PVT_I_RIP;
		pi->field = (uint8_t)field;
	}
	return (0);
}

/* Bytes a displaced instruction takes in the trampoline. */
static size_t
plan_moved_len(const struct pvt_insn *pi)
{
	switch (pi->kind) {
	case PVT_I_JMP8:
	case PVT_I_JMP32:
		return (5);
	case PVT_I_JCC8:
	case PVT_I_JCC32:
		return (6);
	case PVT_I_CALL:
		return (25);	/* lea, two movl, jmp: see agent.c */
	default:
		return (pi->len);
	}
}

/*
 * A function too short for a jump may still take one when the bytes
 * after it, up to the next function, are alignment fill (nops, int3)
 * that nothing branches into, and it never runs into them (its last
 * instruction is a ret or a jmp): the jump then covers the fill too.
 * Returns the region's length (at least a jump), 0 if not possible;
 * ins and n get the function's instructions and the fill.
 */
static size_t
plan_padded(struct plan_elf *e, csh cs, cs_insn *in, const struct plan_sym *s,
    const uint8_t *code, uint64_t next, struct pvt_insn *ins, uint64_t *tgt,
    size_t *n)
{
	const struct plan_sec	*sec = &e->sec[s->sec];
	const uint8_t		*q = code;
	uint64_t		 pc = s->addr, end, where;
	size_t			 left = s->size, len = 0, fill;
	char			 why[256];
	int			 last = X86_INS_INVALID;

	end = sec->addr + sec->size;
	if (next < end)
		end = next;
	if (end < s->addr + PVT_JMP_LEN ||
	    sec->off + (s->addr + PVT_JMP_LEN - sec->addr) > e->maplen)
		return (0);
	*n = 0;
	while (left > 0 && *n < PVT_INSN_MAX - 1) {
		if (!cs_disasm_iter(cs, &q, &left, &pc, in))
			return (0);
		if (plan_insn(cs, in, &ins[*n], &tgt[*n], why,
		    sizeof why) != 0 || ins[*n].kind == PVT_I_CALL)
			return (0);
		last = in->id;
		len += ins[(*n)++].len;
	}
	if (left != 0 || (last != X86_INS_RET && last != X86_INS_JMP))
		return (0);
	/* The fill: nops and int3s, as decoded. */
	fill = 0;
	q = code + s->size;
	left = PVT_JMP_LEN - s->size;
	pc = s->addr + s->size;
	while (fill < PVT_JMP_LEN - s->size) {
		left = end - pc < 15 ? end - pc : 15;
		if (!cs_disasm_iter(cs, &q, &left, &pc, in) ||
		    (in->id != X86_INS_NOP && in->id != X86_INS_INT3))
			return (0);
		fill += in->size;
	}
	fill = PVT_JMP_LEN - s->size;
	if (plan_target_inside(e, s->addr, s->addr + len + fill, &where))
		return (0);
	ins[*n].len = (uint8_t)fill;
	ins[*n].kind = PVT_I_PAD;
	ins[*n].field = 0;
	tgt[(*n)++] = 0;
	return (len + fill);
}

/*
 * A leaf that can run whole in its trampoline (PVT_F_COPY): at most
 * PVT_REGION_MAX bytes and PVT_INSN_MAX instructions, each copied as is
 * or RIP-relative (no branch, no call), the last its one ret, nothing
 * branching into it but at its entry.  Its probe then has no jump back
 * into it and no return address to swap (agent_tramp_copy): the
 * landing's costs, which the sampler could only give the program, go.
 * f, jumped, gets the whole function as its displaced code.
 */
static void
plan_copy(struct plan_elf *e, csh cs, cs_insn *in, const struct plan_sym *s,
    const uint8_t *code, struct pvt_func *f)
{
	struct pvt_insn	 ins[PVT_INSN_MAX];
	uint64_t	 tgt, pc = s->addr, where;
	const uint8_t	*q = code;
	size_t		 left = s->size, n = 0;
	char		 why[256];
	int		 ret = 0;

	if (f->how != PVT_JUMP || (f->flags & PVT_F_PADDED) ||
	    s->size < PVT_JMP_LEN || s->size > PVT_REGION_MAX)
		return;
	while (left > 0) {
		if (n == PVT_INSN_MAX || ret ||
		    !cs_disasm_iter(cs, &q, &left, &pc, in) ||
		    plan_insn(cs, in, &ins[n], &tgt, why, sizeof why) != 0 ||
		    (ins[n].kind != PVT_I_PLAIN && ins[n].kind != PVT_I_RIP))
			return;
		if (in->id == X86_INS_RET) {
			if (!(in->size == 1 && in->bytes[0] == 0xc3) &&
			    !(in->size == 2 && in->bytes[0] == 0xf3 &&
			    in->bytes[1] == 0xc3))
				return;
			ret = 1;
		} else if (cs_insn_group(cs, in, X86_GRP_JUMP) ||
		    cs_insn_group(cs, in, X86_GRP_CALL) ||
		    cs_insn_group(cs, in, X86_GRP_RET) ||
		    cs_insn_group(cs, in, X86_GRP_INT) ||
		    cs_insn_group(cs, in, X86_GRP_IRET))
			return;
		n++;
	}
	if (!ret || plan_target_inside(e, s->addr, s->addr + s->size,
	    &where))
		return;
	f->len = (uint8_t)s->size;
	f->ninsn = (uint8_t)n;
	memcpy(f->insn, ins, n * sizeof ins[0]);
	memcpy(f->bytes, code, s->size);
	f->flags |= PVT_F_COPY;
}

/* Plan one function: fill f (how, len, insns, bytes, reason). */
static void
plan_func(struct pvt_plan *p, struct plan_elf *e, csh cs, cs_insn *in,
    const struct plan_sym *s, const uint8_t *code, uint64_t next, int flags,
    struct pvt_func *f)
{
	struct pvt_insn	 ins[PVT_INSN_MAX];
	uint64_t	 tgt[PVT_INSN_MAX], pc = s->addr, where;
	const uint8_t	*q = code;
	size_t		 left, n = 0, len = 0, moved = 0, i;
	char		 why[256], trapwhy[256];
	int		 bad = -1;

	/* Decode the first instructions (never past the function). */
	left = s->size < PVT_REGION_MAX ? s->size : PVT_REGION_MAX;
	why[0] = '\0';
	while (n < PVT_INSN_MAX && len < PVT_JMP_LEN && left > 0) {
		if (!cs_disasm_iter(cs, &q, &left, &pc, in))
			break;
		if (plan_insn(cs, in, &ins[n], &tgt[n], why,
		    sizeof why) != 0 && bad < 0)
			bad = (int)n;
		len += ins[n].len;
		n++;
	}
	if (n == 0) {
		f->how = PVT_OUT;
		f->reason = pvt_plan_str(p, "the bytes at its entry do not"
		    " decode as an instruction");
		return;
	}
	trapwhy[0] = '\0';
	if (s->size < PVT_JMP_LEN && !(flags & PVT_PLAN_NOPAD) &&
	    (len = plan_padded(e, cs, in, s, code, next, ins, tgt,
	    &n)) != 0) {
		f->how = PVT_JUMP;
		f->len = (uint8_t)len;
		f->ninsn = (uint8_t)n;
		f->flags |= PVT_F_PADDED;
		memcpy(f->insn, ins, n * sizeof ins[0]);
		memcpy(f->bytes, code, len);
		snprintf(why, sizeof why, "%llu byte%s: the jump covers %zu"
		    " bytes of fill after it", (unsigned long long)s->size,
		    s->size == 1 ? "" : "s", len - (size_t)s->size);
		f->reason = pvt_plan_str(p, why);
		return;
	}
	if (s->size < PVT_JMP_LEN)
		snprintf(trapwhy, sizeof trapwhy, "%llu byte%s: shorter than"
		    " a %d-byte jump%s", (unsigned long long)s->size,
		    s->size == 1 ? "" : "s", PVT_JMP_LEN,
		    (flags & PVT_PLAN_NOPAD) ? "" :
		    ", with no fill after it to cover");
	else if (len < PVT_JMP_LEN)
		snprintf(trapwhy, sizeof trapwhy, "its first bytes do not"
		    " decode as whole instructions");
	else if (bad >= 0)
		snprintf(trapwhy, sizeof trapwhy, "%s", why);
	for (i = 0; trapwhy[0] == '\0' && i < n; i++) {
		moved += plan_moved_len(&ins[i]);
		if (ins[i].kind == PVT_I_CALL && i != n - 1)
			snprintf(trapwhy, sizeof trapwhy, "a call inside its"
			    " first %zu bytes returns into them", len);
		else if (tgt[i] > s->addr && tgt[i] < s->addr + len)
			snprintf(trapwhy, sizeof trapwhy, "it branches to"
			    " byte %llu of its first %zu",
			    (unsigned long long)(tgt[i] - s->addr), len);
	}
	if (trapwhy[0] == '\0' &&
	    plan_target_inside(e, s->addr, s->addr + len, &where))
		snprintf(trapwhy, sizeof trapwhy, "a branch lands on byte"
		    " %llu of its first %zu", (unsigned long long)(where -
		    s->addr), len);
	if (trapwhy[0] == '\0' &&
	    moved + 9 + PVT_JMP_LEN > PVT_TRAMP_SIZE - PVT_TRAMP_CODE)
		snprintf(trapwhy, sizeof trapwhy, "its first instructions"
		    " grow too much when moved");
	if (trapwhy[0] == '\0') {
		f->how = PVT_JUMP;
		f->len = (uint8_t)len;
		f->ninsn = (uint8_t)n;
		memcpy(f->insn, ins, n * sizeof ins[0]);
		memcpy(f->bytes, code, len);
		return;
	}
	/* A trap displaces the first instruction only. */
	if (bad == 0) {
		f->how = PVT_OUT;
		f->reason = pvt_plan_str(p, why);
		return;
	}
	f->how = PVT_TRAP;
	f->len = ins[0].len;
	f->ninsn = 1;
	f->insn[0] = ins[0];
	memcpy(f->bytes, code, ins[0].len);
	f->reason = pvt_plan_str(p, trapwhy);
}

static int
plan_open(struct plan_elf *e, const char *path, char **cause)
{
	struct stat	st;

	memset(e, 0, sizeof *e);
	e->path = path;
	e->fd = -1;
	if ((e->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return (plan_fail(cause, "%s: %s", path, strerror(errno)));
	if (fstat(e->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return (plan_fail(cause, "%s: not a regular file", path));
	e->maplen = (size_t)st.st_size;
	if (e->maplen == 0)
		return (plan_fail(cause, "%s: empty file", path));
	e->map = mmap(NULL, e->maplen, PROT_READ, MAP_PRIVATE, e->fd, 0);
	if (e->map == MAP_FAILED) {
		e->map = NULL;
		return (plan_fail(cause, "%s: %s", path, strerror(errno)));
	}
	elf_version(EV_CURRENT);
	e->elf = elf_memory((char *)e->map, e->maplen);
	if (e->elf == NULL || elf_kind(e->elf) != ELF_K_ELF)
		return (plan_fail(cause, "%s: not an ELF file", path));
	return (0);
}

static void
plan_close(struct plan_elf *e)
{
	if (e->elf != NULL)
		elf_end(e->elf);
	if (e->map != NULL)
		munmap((void *)e->map, e->maplen);
	if (e->fd >= 0)
		close(e->fd);
	free(e->sec);
	free(e->tgt);
}

/* The module's header facts: type, build-id, text extent, interpreter. */
static int
plan_header(struct plan_elf *e, struct pvt_module *m, char **cause)
{
	GElf_Ehdr	 eh;
	GElf_Phdr	 ph;
	GElf_Shdr	 sh;
	GElf_Nhdr	 nh;
	Elf_Scn		*scn = NULL;
	Elf_Data	*d;
	size_t		 nph, i, off, noff, doff;
	uint64_t	 lo = UINT64_MAX, hi = 0;

	if (gelf_getehdr(e->elf, &eh) == NULL ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		return (plan_fail(cause, "%s: not a 64-bit ELF file",
		    e->path));
	if (eh.e_machine != EM_X86_64)
		return (plan_fail(cause, "%s: not an x86-64 program (ELF"
		    " machine %u)", e->path, eh.e_machine));
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return (plan_fail(cause, "%s: neither an executable nor a"
		    " shared object (ELF type %u)", e->path, eh.e_type));
	m->type = (uint8_t)eh.e_type;
	e->entry = eh.e_entry;
	if (elf_getphdrnum(e->elf, &nph) != 0)
		nph = 0;
	for (i = 0; i < nph; i++) {
		if (gelf_getphdr(e->elf, (int)i, &ph) == NULL)
			continue;
		if (ph.p_type == PT_INTERP)
			e->interp = 1;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			if (ph.p_vaddr < lo)
				lo = ph.p_vaddr;
			if (ph.p_vaddr + ph.p_memsz > hi)
				hi = ph.p_vaddr + ph.p_memsz;
		}
	}
	if (hi == 0)
		return (plan_fail(cause, "%s: no executable segment",
		    e->path));
	m->lo = lo;
	m->hi = hi;
	while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (noff = gelf_getnote(d, off, &nh, &i,
		    &doff)) > 0; off = noff) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + i, "GNU", 4) != 0 ||
			    nh.n_descsz == 0 ||
			    nh.n_descsz > sizeof m->build_id)
				continue;
			memcpy(m->build_id, (char *)d->d_buf + doff,
			    nh.n_descsz);
			m->build_id_len = (uint8_t)nh.n_descsz;
		}
	}
	return (0);
}

/* The function symbols, named and sized, sorted by address. */
static int
plan_symbols(struct plan_elf *e, struct plan_sym **out, size_t *nout,
    char **cause)
{
	GElf_Shdr	 sh, ssh;
	GElf_Sym	 sym;
	Elf_Scn		*scn = NULL, *symscn = NULL, *dynscn = NULL, *s;
	Elf_Data	*d;
	struct plan_sym	*v = NULL;
	size_t		 n = 0, cap = 0, nsec = 0, i, count;
	const char	*name;
	int		 type, bind;

	if (elf_getshdrnum(e->elf, &nsec) != 0 || nsec == 0)
		return (plan_fail(cause, "%s: no section headers", e->path));
	if ((e->sec = calloc(nsec, sizeof *e->sec)) == NULL)
		return (plan_fail(cause, "out of memory"));
	e->nsec = nsec;
	while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symscn = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynscn = scn;
		else if (sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR) && elf_ndxscn(scn) < nsec) {
			e->sec[elf_ndxscn(scn)].addr = sh.sh_addr;
			e->sec[elf_ndxscn(scn)].size = sh.sh_size;
			e->sec[elf_ndxscn(scn)].off = sh.sh_offset;
		}
	}
	if (symscn == NULL) {
		symscn = dynscn;
		e->dynsym = 1;
	}
	if (symscn == NULL)
		return (plan_fail(cause, "%s: no symbol table (.symtab or"
		    " .dynsym)", e->path));
	gelf_getshdr(symscn, &ssh);
	if ((d = elf_getdata(symscn, NULL)) == NULL || ssh.sh_entsize == 0)
		return (plan_fail(cause, "%s: unreadable symbol table",
		    e->path));
	count = ssh.sh_size / ssh.sh_entsize;
	for (i = 1; i < count; i++) {
		if (gelf_getsym(d, (int)i, &sym) == NULL)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= nsec ||
		    e->sec[sym.st_shndx].size == 0)
			continue;
		name = elf_strptr(e->elf, ssh.sh_link, sym.st_name);
		if (name == NULL || *name == '\0')
			continue;
		if ((s = elf_getscn(e->elf, sym.st_shndx)) == NULL)
			continue;
		v = pvt_grow(v, &cap, n, sizeof *v);
		v[n].addr = sym.st_value;
		v[n].size = sym.st_size;
		v[n].name = name;
		v[n].prio = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
		v[n].ifunc = type == STT_GNU_IFUNC;
		v[n].sec = sym.st_shndx;
		v[n].order = i;
		n++;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, plan_cmp_sym);
	*out = v;
	*nout = n;
	return (0);
}

/*
 * Library functions the module calls, caught where it calls them: the
 * GOT slots its PLT jumps through (R_X86_64_JUMP_SLOT) and those -fno-plt
 * code calls through (R_X86_64_GLOB_DAT of a function), each named by its
 * symbol, one a name (the PLT's slot first).  A function the module
 * defines itself is traced at its own entry.
 */
struct plan_got {
	const char	*name;
	uint64_t	 slot;
	int		 plt;		/* JUMP_SLOT: 0 sorts first */
};

static int
plan_cmp_got(const void *a, const void *b)
{
	const struct plan_got	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return (c);
	if (x->plt != y->plt)
		return (x->plt - y->plt);
	return (x->slot < y->slot ? -1 : x->slot > y->slot);
}

/* Why a library function cannot be caught by its slot, or NULL. */
static const char *
plan_got_out(const char *name)
{
	static const char *const twice[] = {
		"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "getcontext",
		"savectx", "vfork", "__vfork"
	};
	size_t	i;

	if (strcmp(name, "__libc_start_main") == 0)
		return ("the C library's start: it calls main and never"
		    " returns, and main is counted at its own entry");
	if (strcmp(name, "setcontext") == 0 ||
	    strcmp(name, "swapcontext") == 0)
		return ("it switches to another stack");
	if (strncmp(name, "_Unwind_", 8) == 0 ||
	    strcmp(name, "backtrace") == 0)
		return ("it unwinds the stack from its caller, through the"
		    " return address the agent would take");
	for (i = 0; i < sizeof twice / sizeof twice[0]; i++) {
		if (strcmp(name, twice[i]) == 0)
			return ("it returns twice: the second return would"
			    " find its return address taken by the agent");
	}
	return (NULL);
}

static int
plan_got(struct pvt_plan *p, struct plan_elf *e, char **cause)
{
	GElf_Shdr	 sh, ssh;
	GElf_Rela	 r;
	GElf_Sym	 sym;
	Elf_Scn		*scn = NULL, *symscn;
	Elf_Data	*d, *sd;
	struct plan_got	*v = NULL;
	struct pvt_func	*f;
	size_t		 n = 0, cap = 0, i, count;
	const char	*name, *why;
	int		 type, st;

	while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    sh.sh_entsize == 0 ||
		    (symscn = elf_getscn(e->elf, sh.sh_link)) == NULL ||
		    gelf_getshdr(symscn, &ssh) == NULL ||
		    ssh.sh_type != SHT_DYNSYM ||
		    (d = elf_getdata(scn, NULL)) == NULL ||
		    (sd = elf_getdata(symscn, NULL)) == NULL)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < count; i++) {
			if (gelf_getrela(d, (int)i, &r) == NULL)
				continue;
			type = (int)GELF_R_TYPE(r.r_info);
			if ((type != R_X86_64_JUMP_SLOT &&
			    type != R_X86_64_GLOB_DAT) ||
			    gelf_getsym(sd, (int)GELF_R_SYM(r.r_info),
			    &sym) == NULL || sym.st_shndx != SHN_UNDEF)
				continue;
			st = GELF_ST_TYPE(sym.st_info);
			if (type == R_X86_64_GLOB_DAT && st != STT_FUNC &&
			    st != STT_GNU_IFUNC)
				continue;
			name = elf_strptr(e->elf, ssh.sh_link, sym.st_name);
			if (name == NULL || *name == '\0')
				continue;
			v = pvt_grow(v, &cap, n, sizeof *v);
			v[n].name = name;
			v[n].slot = r.r_offset;
			v[n].plt = type != R_X86_64_JUMP_SLOT;
			n++;
		}
	}
	if (n > 0)
		qsort(v, n, sizeof *v, plan_cmp_got);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i].name, v[i - 1].name) == 0)
			continue;
		p->fn = reallocarray(p->fn, p->nfn + 1, sizeof *p->fn);
		if (p->fn == NULL) {
			free(v);
			return (plan_fail(cause, "out of memory"));
		}
		f = &p->fn[p->nfn++];
		memset(f, 0, sizeof *f);
		f->addr = v[i].slot;
		f->module = (uint32_t)p->nmod;
		f->name = pvt_plan_str(p, v[i].name);
		f->flags = PVT_F_GOT;
		f->how = PVT_PLT;
		if ((why = plan_got_out(v[i].name)) != NULL) {
			f->how = PVT_OUT;
			f->reason = pvt_plan_str(p, why);
		}
		p->counts[f->how]++;
	}
	free(v);
	return (0);
}

/* Plan one module's functions, appending to p. */
static int
plan_module(struct pvt_plan *p, const char *path, int flags, char **cause)
{
	struct plan_elf		 e;
	struct pvt_module	*m;
	struct plan_sym		*sym = NULL, *s;
	struct pvt_func		*f;
	const struct plan_sec	*sec;
	const uint8_t		*code;
	struct stat		 st;
	csh			 cs = 0;
	cs_insn			*in = NULL;
	size_t			 nsym = 0, i, j, first;
	char			 why[512], *base;
	uint64_t		 end, prev_start = 0, prev_end = 0;
	const char		*prev_name = NULL;
	int			 rv = -1;

	if (plan_open(&e, path, cause) != 0)
		goto out;
	p->mod = reallocarray(p->mod, p->nmod + 1, sizeof *p->mod);
	if (p->mod == NULL)
		return (plan_fail(cause, "out of memory"));
	m = &p->mod[p->nmod];
	memset(m, 0, sizeof *m);
	if (plan_header(&e, m, cause) != 0)
		goto out;
	if (p->nmod == 0 && m->type == ET_EXEC && !e.interp) {
		plan_fail(cause, "%s: statically linked: the agent cannot be"
		    " preloaded into it", path);
		goto out;
	}
	fstat(e.fd, &st);
	m->file_size = (uint64_t)st.st_size;
	m->path = pvt_plan_str(p, path);
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : (char *)path;
	snprintf(why, sizeof why, "%s", base);
	for (i = 0; i < p->nmod; i++) {
		if (strcmp(p->str + p->mod[i].name, why) == 0) {
			snprintf(why, sizeof why, "%s#%zu", base, p->nmod);
			break;
		}
	}
	m->name = pvt_plan_str(p, why);
	if (plan_symbols(&e, &sym, &nsym, cause) != 0)
		goto out;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK ||
	    cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK ||
	    (in = cs_malloc(cs)) == NULL) {
		plan_fail(cause, "capstone: cannot open an x86-64 decoder");
		goto out;
	}

	/* Sizes first (aliases share one; a zero size runs to the next). */
	for (i = 0; i < nsym; i = j) {
		for (j = i + 1; j < nsym && sym[j].addr == sym[i].addr; j++) {
			if (sym[j].size > sym[i].size)
				sym[i].size = sym[j].size;
		}
		if (sym[i].size == 0) {
			sec = &e.sec[sym[i].sec];
			end = sec->addr + sec->size;
			if (j < nsym && sym[j].addr < end)
				end = sym[j].addr;
			if (end > sym[i].addr) {
				sym[i].size = end - sym[i].addr;
				sym[i].order |= (size_t)1 << 62;
			}
		}
	}
	/* Every direct branch target, for the entry check. */
	for (i = 0; i < nsym; i = j) {
		for (j = i + 1; j < nsym && sym[j].addr == sym[i].addr; j++)
			;
		if ((code = plan_bytes(&e, &sym[i])) != NULL &&
		    sym[i].size > 0 && !sym[i].ifunc)
			sym[i].leaf = plan_targets(&e, cs, in, code,
			    sym[i].addr, sym[i].size);
	}
	if (e.ntgt > 0)
		qsort(e.tgt, e.ntgt, sizeof *e.tgt, plan_cmp_u64);

	first = p->nfn;
	for (i = 0; i < nsym; i = j) {
		s = &sym[i];
		for (j = i + 1; j < nsym && sym[j].addr == s->addr; j++)
			;
		p->fn = reallocarray(p->fn, p->nfn + 1, sizeof *p->fn);
		if (p->fn == NULL) {
			plan_fail(cause, "out of memory");
			goto out;
		}
		f = &p->fn[p->nfn++];
		memset(f, 0, sizeof *f);
		f->addr = s->addr;
		f->size = s->size;
		f->module = (uint32_t)p->nmod;
		f->name = pvt_plan_str(p, s->name);
		if (e.dynsym)
			f->flags |= PVT_F_DYNSYM;
		if (s->order & ((size_t)1 << 62))
			f->flags |= PVT_F_SIZED;
		f->how = PVT_OUT;
		code = plan_bytes(&e, s);
		if (s->ifunc)
			f->reason = pvt_plan_str(p, "a GNU ifunc resolver: it"
			    " runs while the program is loaded, before the"
			    " agent, and is never called after");
		else if (s->size == 0)
			f->reason = pvt_plan_str(p, "no size, and nothing"
			    " after it in its section");
		else if (code == NULL)
			f->reason = pvt_plan_str(p, "its bytes are not in"
			    " the file");
		else if (s->addr < prev_end) {
			snprintf(why, sizeof why, "it starts inside %s, at"
			    " byte %llu: not a separate function",
			    prev_name, (unsigned long long)(s->addr -
			    prev_start));
			f->reason = pvt_plan_str(p, why);
		} else if (p->nmod == 0 && e.entry != 0 &&
		    s->addr == e.entry)
			f->reason = pvt_plan_str(p, "the program's entry point:"
			    " the loader jumps to it, with no return address"
			    " on the stack");
		else if (strstr(s->name, ".cold") != NULL)
			f->reason = pvt_plan_str(p, "the cold part of a"
			    " function: entered by a jump, never called");
		else
			plan_func(p, &e, cs, in, s, code, j < nsym ?
			    sym[j].addr : UINT64_MAX, flags, f);
		/* Aliases (sym[i + 1..j - 1]) go by the best name. */
		if (s->addr + s->size > prev_end) {
			prev_start = s->addr;
			prev_end = s->addr + s->size;
			prev_name = s->name;
		}
		if (f->how == PVT_JUMP && s->leaf &&
		    !(flags & PVT_PLAN_NOLEAF)) {
			f->flags |= PVT_F_LEAF;
			plan_copy(&e, cs, in, s, code, f);
		}
		p->counts[f->how]++;
	}
	if (!(flags & PVT_PLAN_NOLIB) && plan_got(p, &e, cause) != 0)
		goto out;
	m->first = (uint32_t)first;
	m->nfunc = (uint32_t)(p->nfn - first);
	p->nmod++;
	rv = 0;
out:
	if (in != NULL)
		cs_free(in, 1);
	if (cs != 0)
		cs_close(&cs);
	free(sym);
	plan_close(&e);
	return (rv);
}

/*
 * Whether the files planned changed since: size and build-id (or, without
 * one, the displaced bytes) must still be what the plan says.  1 and why
 * when stale.
 */
int
pvt_plan_stale(const struct pvt_plan *p, char **cause)
{
	struct plan_elf		 e;
	struct pvt_module	 now;
	const struct pvt_module	*m;
	const struct pvt_func	*f;
	struct plan_sym		 s;
	const char		*path;
	const uint8_t		*code;
	struct plan_sym		*syms = NULL;
	size_t			 i, j, nsyms;
	int			 stale = 0;

	for (i = 0; i < p->nmod && !stale; i++) {
		m = &p->mod[i];
		path = p->str + m->path;
		memset(&now, 0, sizeof now);
		if (plan_open(&e, path, cause) != 0 ||
		    plan_header(&e, &now, cause) != 0) {
			plan_close(&e);
			return (1);
		}
		if (now.type != m->type || e.maplen != m->file_size ||
		    now.build_id_len != m->build_id_len ||
		    memcmp(now.build_id, m->build_id, m->build_id_len) != 0)
			stale = plan_fail(cause, "%s changed since it was"
			    " planned", path) != 0;
		else if (m->build_id_len == 0 &&
		    plan_symbols(&e, &syms, &nsyms, cause) == 0) {
			free(syms);
			syms = NULL;
			for (j = 0; j < m->nfunc && !stale; j++) {
				f = &p->fn[m->first + j];
				memset(&s, 0, sizeof s);
				s.addr = f->addr;
				s.size = f->len;
				for (s.sec = 0; s.sec < e.nsec; s.sec++) {
					if (f->addr >= e.sec[s.sec].addr &&
					    f->addr < e.sec[s.sec].addr +
					    e.sec[s.sec].size)
						break;
				}
				if (f->len == 0)
					continue;
				if (s.sec == e.nsec ||
				    (code = plan_bytes(&e, &s)) == NULL ||
				    memcmp(code, f->bytes, f->len) != 0)
					stale = plan_fail(cause, "%s changed"
					    " since it was planned", path) != 0;
			}
		}
		plan_close(&e);
	}
	return (stale);
}

/*
 * Find a library the program loads, by the dynamic loader's own search
 * (ld.so --list): NAME matches a soname that equals it or starts with
 * NAME followed by '.' or '-'.  A NAME with a slash is a path already.
 */
int
pvt_plan_resolve_lib(const char *prog, const char *name, char **path,
    char **cause)
{
	static const char *const ldso[] = {
		"/lib64/ld-linux-x86-64.so.2",
		"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	};
	const char	*ld = NULL;
	char		 line[PATH_MAX + 256], *arrow, *sp, *soname, *got = NULL;
	size_t		 i, n = strlen(name);
	int		 fds[2], st;
	pid_t		 pid;
	FILE		*f;

	if (strchr(name, '/') != NULL) {
		if ((*path = realpath(name, NULL)) == NULL)
			return (plan_fail(cause, "%s: %s", name,
			    strerror(errno)));
		return (0);
	}
	for (i = 0; i < sizeof ldso / sizeof ldso[0]; i++) {
		if (access(ldso[i], X_OK) == 0) {
			ld = ldso[i];
			break;
		}
	}
	if (ld == NULL)
		return (plan_fail(cause, "--lib %s: no dynamic loader to ask;"
		    " name the library by its path", name));
	if (pipe(fds) != 0)
		return (plan_fail(cause, "pipe: %s", strerror(errno)));
	if ((pid = fork()) < 0)
		return (plan_fail(cause, "fork: %s", strerror(errno)));
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(ld, ld, "--list", prog, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		soname = line + strspn(line, " \t");
		if ((arrow = strstr(soname, " => ")) == NULL)
			continue;
		*arrow = '\0';
		if (strncmp(soname, name, n) != 0 || (soname[n] != '\0' &&
		    soname[n] != '.' && soname[n] != '-'))
			continue;
		sp = arrow + 4;
		sp[strcspn(sp, " \t\n")] = '\0';
		if (*sp == '/' && got == NULL)
			got = strdup(sp);
	}
	if (f != NULL)
		fclose(f);
	waitpid(pid, &st, 0);
	if (got == NULL)
		return (plan_fail(cause, "--lib %s: %s does not load a library"
		    " of that name (see ldd %s); name it by its path if it"
		    " is opened with dlopen", name, prog, prog));
	*path = realpath(got, NULL);
	free(got);
	if (*path == NULL)
		return (plan_fail(cause, "--lib %s: %s", name,
		    strerror(errno)));
	return (0);
}

static int
plan_cmp_str(const void *a, const void *b)
{
	return (strcmp(*(const char *const *)a, *(const char *const *)b));
}

/* Whether name is in def[0 .. n), sorted. */
static int
plan_defined(const char **def, size_t n, const char *name)
{
	size_t	k;

	BSEARCH_FIRST(k, 0, n, strcmp(def[k], name) < 0);
	return (k < n && strcmp(def[k], name) == 0);
}

/*
 * A library named with --lib is traced at its functions' entries: the
 * slots of those names go (the agent would leave them alone anyway), and
 * with them a second row of the name, which would qualify both.
 */
static void
plan_got_prune(struct pvt_plan *p)
{
	const char	**def, *name;
	size_t		  ndef = 0, i, o = 0, mi;

	if ((def = calloc(p->nfn + 1, sizeof *def)) == NULL) {
		fputs("pvtrace: out of memory\n", stderr);
		exit(127);
	}
	for (i = 0; i < p->nfn; i++) {
		if (!(p->fn[i].flags & PVT_F_GOT))
			def[ndef++] = p->str + p->fn[i].name;
	}
	if (ndef > 0)
		qsort(def, ndef, sizeof *def, plan_cmp_str);
	for (mi = 0; mi < p->nmod; mi++) {
		p->mod[mi].nfunc = 0;
		for (i = 0; i < p->nfn; i++) {
			if (p->fn[i].module != mi)
				continue;
			name = p->str + p->fn[i].name;
			if ((p->fn[i].flags & PVT_F_GOT) &&
			    plan_defined(def, ndef, name)) {
				p->counts[p->fn[i].how]--;
				continue;
			}
			if (p->mod[mi].nfunc++ == 0)
				p->mod[mi].first = (uint32_t)o;
			p->fn[o++] = p->fn[i];
		}
		if (p->mod[mi].nfunc == 0)
			p->mod[mi].first = (uint32_t)o;
	}
	p->nfn = o;
	free(def);
}

/*
 * Plan PROG (an absolute path) and the libraries (absolute paths).
 * Refuses the C library and the dynamic loader: the agent runs on them.
 */
int
pvt_plan_make(struct pvt_plan *p, const char *prog, const char **libs,
    size_t nlibs, int flags, char **cause)
{
	size_t		 i;
	const char	*base;

	memset(p, 0, sizeof *p);
	pvt_plan_str(p, "");
	if (plan_module(p, prog, flags, cause) != 0)
		goto fail;
	for (i = 0; i < nlibs; i++) {
		base = strrchr(libs[i], '/');
		base = base != NULL ? base + 1 : libs[i];
		if (strncmp(base, "libc.so", 7) == 0 ||
		    strncmp(base, "ld-linux", 8) == 0 ||
		    strncmp(base, "libc-", 5) == 0) {
			plan_fail(cause, "--lib %s: the agent itself runs on"
			    " the C library and the dynamic loader; they"
			    " cannot be traced", base);
			goto fail;
		}
		if (plan_module(p, libs[i], flags, cause) != 0)
			goto fail;
	}
	plan_got_prune(p);
	for (i = 0; i < p->nfn; i++)
		p->nleaf += (p->fn[i].flags & PVT_F_LEAF) != 0;
	p->leaves = (flags & PVT_PLAN_NOLEAF) ? -1 : (int)p->nleaf;
	return (0);
fail:
	pvt_plan_free(p);
	return (-1);
}
