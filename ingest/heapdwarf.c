/*
 * What a snapshot's modules' debug information says of it (profview-
 * formats(5), HEAP FILES, "Types from DWARF"): the source file and line
 * of every code address of the stacks, the global variables and the
 * type layouts they lead to, and the type of each block a typed pointer
 * reaches.
 *
 * A module is read only when its file is still at its path and has the
 * build-id the snapshot recorded; otherwise one warning names it and
 * nothing of it is used (the addresses would mean other code).  A file
 * without DWARF (stripped, or a library without its -dbg package) is
 * simply untyped.
 *
 * Types are read into one table of small records (struct ingest_dtype):
 * typedefs, const and volatile are looked through when the table is
 * made, so a pointer's target is the aggregate itself.  Then the typing
 * is a breadth-first walk from the module variables over the snapshot's
 * edges: a pointer word at offset o of a place of type T, if T has a
 * pointer field at o and the word points at a block's first byte, types
 * that block as the pointer's target.  The first typed pointer to reach
 * a block in that order (the nearest one; at equal distance the first
 * root, then the first edge, in the file's order) gives its type; a
 * later one that disagrees is counted as a conflict and changes nothing.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "bsearch.h"
#include "demangle.h"
#include "intern.h"
#include "xmalloc.h"
#include "capture/pvheap/heapfmt.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"

#define DT_NONE		INGEST_DT_NONE
/* Array elements whose pointer fields are spelled out one by one. */
#define DT_DEPTH	64

/* (module, DIE offset) -> dtype index: open addressing. */
struct dt_memo {
	uint64_t	*key;
	uint32_t	*val;
	size_t		 cap, n;
};

struct dt_ctx {
	struct ingest_heap_dwarf *d;
	struct dt_memo		 memo;
	struct intern		 names;	/* type names, across CUs */
	size_t			 tcap, fcap, vcap;
	Dwarf			*dw;
	uint32_t		 module;
	int			 cplus;		/* the CU is C++ */
	uint32_t		*work;		/* dtypes whose DIE is unread */
	size_t			 nwork, wcap;
};

static uint64_t
dt_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (k);
}

static uint32_t *
dt_memo_slot(struct dt_memo *m, uint64_t key)
{
	size_t		 i, k, ncap;
	uint64_t	*okey;
	uint32_t	*oval;

	if ((m->n + 1) * 2 >= m->cap) {
		okey = m->key;
		oval = m->val;
		ncap = m->cap != 0 ? m->cap * 2 : 1024;
		m->key = xcalloc(ncap, sizeof *m->key);
		m->val = xcalloc(ncap, sizeof *m->val);
		for (k = 0; k < m->cap; k++) {
			if (okey[k] == 0)
				continue;
			for (i = dt_hash(okey[k]) & (ncap - 1); m->key[i] != 0;
			    i = (i + 1) & (ncap - 1))
				;
			m->key[i] = okey[k];
			m->val[i] = oval[k];
		}
		free(okey);
		free(oval);
		m->cap = ncap;
	}
	/* Keys are offset + 1 in the low 40 bits: never 0. */
	for (i = dt_hash(key) & (m->cap - 1); m->key[i] != 0 &&
	    m->key[i] != key; i = (i + 1) & (m->cap - 1))
		;
	if (m->key[i] == 0) {
		m->key[i] = key;
		m->val[i] = DT_NONE;
		m->n++;
	}
	return (&m->val[i]);
}

/* The dtype of key, or DT_NONE: no insertion. */
static uint32_t
dt_memo_find(const struct dt_memo *m, uint64_t key)
{
	size_t	i;

	if (m->cap == 0)
		return (DT_NONE);
	for (i = dt_hash(key) & (m->cap - 1); m->key[i] != 0;
	    i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == key)
			return (m->val[i]);
	}
	return (DT_NONE);
}

static Dwarf_Die *dt_strip(Dwarf_Die *, Dwarf_Die *, const char **);
static uint32_t dt_get(struct dt_ctx *, Dwarf_Die *, const char *);
static void dt_fill(struct dt_ctx *, uint32_t);

/*
 * Mark the classes others derive from, among the types read: a pointer
 * to one may point to a derived object, bigger than the class, whose
 * words past the class are not an array of it.  Every inheritance of
 * the unit counts, not only those of the types read: std::_Rb_tree_node
 * is never named by a member, yet its base is.  The class deriving is
 * read too, its bases as members marked base, so that the heap map's
 * "Shape*" finds Circle though no variable is one.
 */
static void
dt_bases(struct dt_ctx *c, Dwarf_Die *parent, int depth)
{
	Dwarf_Die	 child, mem, *t;
	Dwarf_Attribute	 a;
	uint32_t	 i;

	if (depth > DT_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_inheritance:
			(void)dt_get(c, parent, NULL);
			while (c->nwork > 0)
				dt_fill(c, c->work[--c->nwork]);
			if (dwarf_attr_integrate(&child, DW_AT_type, &a) ==
			    NULL || dwarf_formref_die(&a, &mem) == NULL ||
			    (t = dt_strip(&mem, &mem, NULL)) == NULL)
				break;
			i = dt_memo_find(&c->memo, (uint64_t)c->module << 40 |
			    ((uint64_t)dwarf_dieoffset(t) + 1));
			if (i != DT_NONE)
				c->d->types[i].derived = 1;
			break;
		case DW_TAG_namespace:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
			dt_bases(c, &child, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The number of name s in module m (names are per module). */
static uint32_t
dt_name_id(struct dt_ctx *c, uint32_t m, const char *s)
{
	char		*key = xasprintf("%u:%s", m, s);
	uint32_t	 id;
	int		 made;

	id = intern(&c->names, key, (uint32_t)c->names.n, &made);
	free(key);
	return (id);
}

/* A new dtype, its fields all empty. */
static uint32_t
dt_new(struct dt_ctx *c, int kind)
{
	struct ingest_heap_dwarf	*d = c->d;
	struct ingest_dtype		*t;

	if (d->ntypes == c->tcap) {
		c->tcap = c->tcap != 0 ? c->tcap * 2 : 256;
		d->types = xreallocarray(d->types, c->tcap, sizeof *d->types);
	}
	t = &d->types[d->ntypes];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->module = c->module;
	t->target = DT_NONE;
	t->name_id = DT_NONE;
	return ((uint32_t)d->ntypes++);
}

/* Through typedefs, const, volatile and the like to what they name. */
static Dwarf_Die *
dt_strip(Dwarf_Die *die, Dwarf_Die *mem, const char **tdname)
{
	Dwarf_Attribute	a;
	int		n;

	for (n = 0; n < 64; n++) {
		switch (dwarf_tag(die)) {
		case DW_TAG_typedef:
			if (tdname != NULL && *tdname == NULL)
				*tdname = dwarf_diename(die);
			/* FALLTHROUGH */
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (dwarf_attr_integrate(die, DW_AT_type, &a) == NULL ||
			    dwarf_formref_die(&a, mem) == NULL)
				return (NULL);	/* void */
			die = mem;
			break;
		default:
			return (die);
		}
	}
	return (NULL);
}

/*
 * The dtype of DIE die (typedefs looked through; tdname, the typedef's
 * name that spells an anonymous aggregate), read later from the work
 * list; DT_NONE for void.
 */
static uint32_t
dt_get(struct dt_ctx *c, Dwarf_Die *die, const char *tdname)
{
	Dwarf_Die	 mem, *t;
	uint32_t	*slot, i;

	if ((t = dt_strip(die, &mem, &tdname)) == NULL)
		return (DT_NONE);
	slot = dt_memo_slot(&c->memo, (uint64_t)c->module << 40 |
	    ((uint64_t)dwarf_dieoffset(t) + 1));
	if (*slot != DT_NONE)
		return (*slot);
	i = dt_new(c, INGEST_DT_OTHER);
	*slot = i;
	c->d->types[i].die = dwarf_dieoffset(t);
	c->d->types[i].tdname = tdname != NULL ? xstrdup(tdname) : NULL;
	if (c->nwork == c->wcap) {
		c->wcap = c->wcap != 0 ? c->wcap * 2 : 256;
		c->work = xreallocarray(c->work, c->wcap, sizeof *c->work);
	}
	c->work[c->nwork++] = i;
	return (i);
}

/* The DW_AT_type of die as a dtype. */
static uint32_t
dt_type_of(struct dt_ctx *c, Dwarf_Die *die)
{
	Dwarf_Attribute	a;
	Dwarf_Die	mem;

	if (dwarf_attr_integrate(die, DW_AT_type, &a) == NULL ||
	    dwarf_formref_die(&a, &mem) == NULL)
		return (DT_NONE);
	return (dt_get(c, &mem, NULL));
}

/* An aggregate's name with its enclosing namespaces and classes. */
static char *
dt_qualified(Dwarf_Die *die, const char *name)
{
	Dwarf_Die	*scopes = NULL, cu;
	char		*out = xstrdup(name), *t;
	const char	*s;
	int		 n, i;

	if (dwarf_diecu(die, &cu, NULL, NULL) == NULL)
		return (out);
	n = dwarf_getscopes_die(die, &scopes);
	for (i = 1; i < n; i++) {
		switch (dwarf_tag(&scopes[i])) {
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			s = dwarf_diename(&scopes[i]);
			t = xasprintf("%s::%s", s != NULL ? s :
			    "(anonymous namespace)", out);
			free(out);
			out = t;
			break;
		default:
			break;
		}
	}
	free(scopes);
	return (out);
}

static void
dt_field_add(struct dt_ctx *c, uint32_t owner, const char *name,
    uint64_t off, uint32_t type, int base)
{
	struct ingest_heap_dwarf	*d = c->d;
	struct ingest_dfield		*f;

	if (d->nfields == c->fcap) {
		c->fcap = c->fcap != 0 ? c->fcap * 2 : 1024;
		d->fields = xreallocarray(d->fields, c->fcap,
		    sizeof *d->fields);
	}
	f = &d->fields[d->nfields++];
	f->owner = owner;
	f->name = xstrdup(name != NULL ? name : "");
	f->offset = off;
	f->type = type;
	f->base = base;
}

/*
 * A class's declared destructor and virtual methods, as members of no
 * type at offset 0 named "~C()", "virtual ~C()", "virtual f()" (no
 * member's name has a parenthesis, so no trace path takes them): what a
 * snapshot's Finalizers and TypeHierarchy know of its methods.
 */
static void
dt_method_add(struct dt_ctx *c, uint32_t owner, Dwarf_Die *m)
{
	Dwarf_Attribute	 a;
	Dwarf_Word	 v = 0;
	const char	*name = dwarf_diename(m);
	char		*q;

	/* The compiler's own (an implicit destructor) were not declared. */
	if (name == NULL || dwarf_hasattr(m, DW_AT_artificial))
		return;
	if (dwarf_attr_integrate(m, DW_AT_virtuality, &a) != NULL)
		dwarf_formudata(&a, &v);
	if (v == 0 && *name != '~')
		return;
	q = xasprintf("%s%s()", v != 0 ? "virtual " : "", name);
	dt_field_add(c, owner, q, 0, DT_NONE, 0);
	free(q);
}

/* A member's byte offset: a constant, or DW_OP_plus_uconst. */
static int
dt_member_off(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute	 a;
	Dwarf_Word	 w;
	Dwarf_Op	*ops;
	size_t		 nops;

	if (dwarf_attr_integrate(m, DW_AT_data_member_location, &a) == NULL) {
		*off = 0;	/* a union's members, or the first one */
		return (0);
	}
	if (dwarf_formudata(&a, &w) == 0) {
		*off = w;
		return (0);
	}
	if (dwarf_getlocation(&a, &ops, &nops) == 0 && nops == 1 &&
	    ops[0].atom == DW_OP_plus_uconst) {
		*off = ops[0].number;
		return (0);
	}
	return (-1);
}

/* Read dtype i's DIE: kind, size, name, target, members. */
static void
dt_fill(struct dt_ctx *c, uint32_t i)
{
	struct ingest_dtype	*t;
	Dwarf_Die		 die, child, sub;
	Dwarf_Attribute		 a;
	Dwarf_Word		 w;
	uint64_t		 off, count = 0;
	uint32_t		 ft;
	const char		*name, *kw;
	char			*q;
	int			 tag, enc, rc, declared;

	if (dwarf_offdie(c->dw, c->d->types[i].die, &die) == NULL)
		return;
	tag = dwarf_tag(&die);
	name = dwarf_diename(&die);
	declared = dwarf_hasattr(&die, DW_AT_declaration);
	c->d->types[i].size = dwarf_bytesize(&die) > 0 ?
	    (uint64_t)dwarf_bytesize(&die) : 0;
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		kw = tag == DW_TAG_union_type ? "union" :
		    tag == DW_TAG_class_type ? "class" : "struct";
		c->d->types[i].kind = tag == DW_TAG_union_type ?
		    INGEST_DT_UNION : INGEST_DT_STRUCT;
		c->d->types[i].declared = declared;
		/* C spells the keyword; C++ the class's qualified name. */
		if (name == NULL)
			name = c->d->types[i].tdname;
		if (name == NULL)
			q = xasprintf("%s (anonymous)", kw);
		else if (c->cplus)
			q = dt_qualified(&die, name);
		else
			q = name == c->d->types[i].tdname ? xstrdup(name) :
			    xasprintf("%s %s", kw, name);
		c->d->types[i].name = q;
		c->d->types[i].first = (uint32_t)c->d->nfields;
		if (dwarf_child(&die, &child) != 0)
			break;
		do {
			int ctag = dwarf_tag(&child);

			if (ctag == DW_TAG_subprogram) {
				dt_method_add(c, i, &child);
				continue;
			}
			if (ctag != DW_TAG_member && ctag !=
			    DW_TAG_inheritance)
				continue;
			/* Static members and bit-fields hold no pointer. */
			if (dwarf_hasattr(&child, DW_AT_external) ||
			    dwarf_hasattr(&child, DW_AT_declaration) ||
			    dwarf_hasattr(&child, DW_AT_bit_size) ||
			    dwarf_hasattr(&child, DW_AT_data_bit_offset))
				continue;
			if (dt_member_off(&child, &off) != 0)
				continue;
			ft = dt_type_of(c, &child);
			dt_field_add(c, i, dwarf_diename(&child), off, ft,
			    ctag == DW_TAG_inheritance);
		} while (dwarf_siblingof(&child, &child) == 0);
		c->d->types[i].nfields = (uint32_t)c->d->nfields -
		    c->d->types[i].first;
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		c->d->types[i].kind = INGEST_DT_POINTER;
		if (c->d->types[i].size == 0)
			c->d->types[i].size = 8;
		/* Not in one statement: dt_get may move the table. */
		ft = dt_type_of(c, &die);
		c->d->types[i].target = ft;
		break;
	case DW_TAG_array_type:
		c->d->types[i].kind = INGEST_DT_ARRAY;
		ft = dt_type_of(c, &die);
		c->d->types[i].target = ft;
		/* int a[2][3]: the subranges multiply. */
		count = 1;
		rc = 0;
		if (dwarf_child(&die, &sub) == 0) {
			do {
				if (dwarf_tag(&sub) != DW_TAG_subrange_type)
					continue;
				if (dwarf_attr_integrate(&sub, DW_AT_count, &a)
				    != NULL && dwarf_formudata(&a, &w) == 0)
					count *= w;
				else if (dwarf_attr_integrate(&sub,
				    DW_AT_upper_bound, &a) != NULL &&
				    dwarf_formudata(&a, &w) == 0)
					count *= w + 1;
				else
					count = 0;	/* flexible */
				rc++;
			} while (dwarf_siblingof(&sub, &sub) == 0);
		}
		c->d->types[i].count = rc > 0 ? count : 0;
		break;
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		c->d->types[i].kind = INGEST_DT_BASE;
		enc = 0;
		if (tag == DW_TAG_base_type && dwarf_attr_integrate(&die,
		    DW_AT_encoding, &a) != NULL && dwarf_formudata(&a, &w) == 0)
			enc = (int)w;
		/* char * is a string, not a pointer to one char. */
		c->d->types[i].chars = enc == DW_ATE_signed_char ||
		    enc == DW_ATE_unsigned_char || enc == DW_ATE_UTF;
		if (tag == DW_TAG_enumeration_type)
			c->d->types[i].name = name != NULL ? (c->cplus ?
			    dt_qualified(&die, name) : xasprintf("enum %s",
			    name)) : xstrdup("enum (anonymous)");
		else
			c->d->types[i].name = xstrdup(name != NULL ? name :
			    "?");
		break;
	default:
		c->d->types[i].kind = INGEST_DT_OTHER;	/* functions ... */
		break;
	}
	t = &c->d->types[i];
	if (t->name != NULL)
		t->name_id = dt_name_id(c, t->module, t->name);
}

/* Pointers' and arrays' names, from their targets': "struct node *". */
static const char *
dt_name(struct ingest_heap_dwarf *d, uint32_t i, int depth)
{
	struct ingest_dtype	*t = &d->types[i];
	const char		*n;

	if (t->name != NULL)
		return (t->name);
	if (depth > DT_DEPTH)
		return ("?");
	if (t->kind == INGEST_DT_POINTER) {
		n = t->target == DT_NONE ? "void" : dt_name(d, t->target,
		    depth + 1);
		t = &d->types[i];
		t->name = xasprintf("%s *", n);
	} else if (t->kind == INGEST_DT_ARRAY) {
		n = t->target == DT_NONE ? "?" : dt_name(d, t->target,
		    depth + 1);
		t = &d->types[i];
		t->name = xasprintf("%s[%llu]", n, (unsigned long long)t->count);
	} else
		t->name = xstrdup("?");
	return (t->name);
}

/* An array's size, which DWARF leaves to its count and element. */
static uint64_t
dt_size(struct ingest_heap_dwarf *d, uint32_t i, int depth)
{
	struct ingest_dtype	*t = &d->types[i];
	uint64_t		 es;

	if (t->kind != INGEST_DT_ARRAY || t->size != 0 || depth > DT_DEPTH ||
	    t->target == DT_NONE)
		return (t->size);
	es = dt_size(d, d->types[t->target].def, depth + 1);
	t = &d->types[i];
	if (es != 0 && t->count <= UINT64_MAX / es)
		t->size = es * t->count;
	return (t->size);
}

static void
dt_var_add(struct dt_ctx *c, const char *name, uint64_t addr, uint32_t type)
{
	struct ingest_heap_dwarf	*d = c->d;
	struct ingest_dvar		*v;

	if (d->nvars == c->vcap) {
		c->vcap = c->vcap != 0 ? c->vcap * 2 : 256;
		d->vars = xreallocarray(d->vars, c->vcap, sizeof *d->vars);
	}
	v = &d->vars[d->nvars++];
	v->module = c->module;
	v->name = xstrdup(name);
	v->addr = addr;
	v->type = type;
}

/*
 * The variables with a static address among die's children (a CU's, a
 * namespace's, recursively): C++ defines a namespace's variables as a
 * DIE that names its declaration (DW_AT_specification).
 */
static void
dt_vars(struct dt_ctx *c, Dwarf_Die *parent, uint64_t base, int depth)
{
	Dwarf_Die	 child, spec;
	Dwarf_Attribute	 a;
	Dwarf_Op	*ops;
	size_t		 nops;
	const char	*name;
	char		*q;

	/* Namespaces nest a few deep; a file nesting more is not read. */
	if (depth > DT_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_namespace:
			dt_vars(c, &child, base, depth + 1);
			break;
		case DW_TAG_variable:
			if (dwarf_attr(&child, DW_AT_location, &a) == NULL ||
			    dwarf_getlocation(&a, &ops, &nops) != 0 ||
			    nops != 1 || ops[0].atom != DW_OP_addr)
				break;
			if ((name = dwarf_diename(&child)) == NULL)
				break;
			q = NULL;
			if (c->cplus) {
				if (dwarf_attr(&child, DW_AT_specification, &a)
				    != NULL && dwarf_formref_die(&a, &spec) !=
				    NULL)
					q = dt_qualified(&spec, name);
				else
					q = dt_qualified(&child, name);
			}
			dt_var_add(c, q != NULL ? q : name, base +
			    ops[0].number, dt_type_of(c, &child));
			free(q);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Whether the file's GNU build-id, in hex, is want. */
static int
dt_same_build(Elf *elf, const char *want)
{
	const void	*id;
	const uint8_t	*p;
	ssize_t		 n, i;
	char		 hex[3];

	if ((n = dwelf_elf_gnu_build_id(elf, &id)) <= 0)
		return (*want == '\0');
	if ((size_t)n * 2 != strlen(want))
		return (0);
	p = id;
	for (i = 0; i < n; i++) {
		snprintf(hex, sizeof hex, "%02x", p[i]);
		if (memcmp(hex, want + 2 * i, 2) != 0)
			return (0);
	}
	return (1);
}

/* A source path as memcheck and addr2line -s spell it: its file name. */
static const char *
dt_base(const char *src)
{
	const char	*slash = strrchr(src, '/');

	return (slash != NULL ? slash + 1 : src);
}

/*
 * The frames inlined at pc (innermost first) ahead of the function the
 * symbol table names, as memcheck shows them: "type (prog.c:43)" then
 * "main (prog.c:87)", the caller's line being the inline's call line.
 */
static char *
dt_inlines(Dwarf_Die *cu, Dwarf_Addr pc, const char *fn, const char *file,
    int line)
{
	Dwarf_Die	*scopes = NULL;
	Dwarf_Files	*files;
	Dwarf_Attribute	 a;
	Dwarf_Word	 w;
	size_t		 nfiles;
	const char	*name, *src;
	char		*out = NULL, *t;
	int		 n, k;

	if ((n = dwarf_getscopes(cu, pc, &scopes)) <= 0)
		return (NULL);
	for (k = 0; k < n; k++) {
		if (dwarf_tag(&scopes[k]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_diename(&scopes[k]);
		t = xasprintf("%s%s (%s:%d)\n", out != NULL ? out : "",
		    name != NULL ? name : "??", file, line);
		free(out);
		out = t;
		/* The caller's place: the inline's call file and line. */
		file = "??";
		line = 0;
		if (dwarf_attr(&scopes[k], DW_AT_call_file, &a) != NULL &&
		    dwarf_formudata(&a, &w) == 0 &&
		    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 &&
		    w < nfiles && (src = dwarf_filesrc(files, w, NULL,
		    NULL)) != NULL)
			file = dt_base(src);
		if (dwarf_attr(&scopes[k], DW_AT_call_line, &a) != NULL &&
		    dwarf_formudata(&a, &w) == 0)
			line = (int)w;
	}
	free(scopes);
	if (out == NULL)
		return (NULL);
	t = xasprintf("%s%s (%s:%d)", out, fn, file, line);
	free(out);
	return (t);
}

/*
 * Source file and line of each LOCS pc in module m (dw at bias base),
 * and the frames inlined there.
 */
static void
dt_lines(struct ingest_heap_dwarf *d, const struct ingest_heap *h,
    Dwarf *dw, uint32_t m, uint64_t base)
{
	Dwarf_Die	 cu;
	Dwarf_Line	*line;
	uint64_t	 i, pc;
	const char	*src, *fn;
	int		 ln;

	for (i = 0; i < h->locs.count; i++) {
		if (ingest_heap_u32(&h->locs, i, HF_LOCS_MODULE) != m)
			continue;
		pc = ingest_heap_u64(&h->locs, i, HF_LOCS_PC);
		/* A return address: the call is the byte before. */
		if (pc <= base)
			continue;
		pc = pc - base - 1;
		if (dwarf_addrdie(dw, pc, &cu) == NULL ||
		    (line = dwarf_getsrc_die(&cu, pc)) == NULL ||
		    (src = dwarf_linesrc(line, NULL, NULL)) == NULL ||
		    dwarf_lineno(line, &ln) != 0 || ln <= 0)
			continue;
		free(d->loc_file[i]);
		d->loc_file[i] = xstrdup(dt_base(src));
		d->loc_line[i] = (uint32_t)ln;
		fn = ingest_heap_str(h, ingest_heap_u32(&h->locs, i,
		    HF_LOCS_FUNCTION));
		free(d->loc_text[i]);
		d->loc_text[i] = *fn != '\0' ? dt_inlines(&cu, pc, fn,
		    d->loc_file[i], ln) : NULL;
	}
}

static int
dt_vt_cmp(const void *a, const void *b)
{
	const struct ingest_vtable *x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/*
 * Module m's vtables, its _ZTV symbols (the symbol table, else the
 * dynamic one of a stripped library): HeapInspector's type descriptors,
 * whether a live object uses one or not; and the size of each the
 * snapshot's classes were named by (the agent found their addresses).
 */
static void
dt_vtables(struct ingest_heap_dwarf *d, const struct ingest_heap *h,
    Elf *elf, uint32_t m, uint64_t base)
{
	Elf_Scn			*scn;
	GElf_Shdr		 sh;
	GElf_Sym		 sym;
	Elf_Data		*data;
	struct ingest_vtable	*v;
	const char		*name;
	char			*dm;
	uint64_t		 i, n, a;
	size_t			 k, first = d->nvt;
	int			 want, found = 0;

	for (want = SHT_SYMTAB; !found && want != 0; want = want ==
	    SHT_SYMTAB ? SHT_DYNSYM : 0) {
		for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL; ) {
			if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type !=
			    (unsigned)want || sh.sh_entsize == 0 ||
			    (data = elf_getdata(scn, NULL)) == NULL)
				continue;
			found = 1;
			n = sh.sh_size / sh.sh_entsize;
			for (k = 0; k < n; k++) {
				if (gelf_getsym(data, (int)k, &sym) == NULL ||
				    sym.st_size == 0 || sym.st_shndx ==
				    SHN_UNDEF || (name = elf_strptr(elf,
				    sh.sh_link, sym.st_name)) == NULL ||
				    strncmp(name, "_ZTV", 4) != 0)
					continue;
				if (d->nvt == d->vtcap) {
					d->vtcap = d->vtcap != 0 ?
					    2 * d->vtcap : 64;
					d->vt = xreallocarray(d->vt, d->vtcap,
					    sizeof *d->vt);
				}
				v = &d->vt[d->nvt++];
				v->module = m;
				v->addr = base + sym.st_value;
				v->size = sym.st_size;
				dm = demangle(name);
				v->name = xstrdup(dm == NULL ? name :
				    strncmp(dm, "vtable for ", 11) == 0 ?
				    dm + 11 : dm);
				free(dm);
			}
		}
	}
	/* By address, once: aliases (versions) name one vtable. */
	if (d->nvt - first > 1)
		qsort(d->vt + first, d->nvt - first, sizeof *d->vt,
		    dt_vt_cmp);
	for (i = k = first; i < d->nvt; i++) {
		if (k > first && d->vt[i].addr == d->vt[k - 1].addr)
			free(d->vt[i].name);
		else
			d->vt[k++] = d->vt[i];
	}
	d->nvt = k;
	/*
	 * The snapshot's classes of m by their vtables' addresses, each
	 * found by a search: a program of thousands of classes has as many
	 * vtables, and a pass over the types per vtable is their product.
	 */
	for (i = 0; i < h->type.count; i++) {
		if (ingest_heap_u32(&h->type, i, HF_TYPE_MODULE) != m ||
		    ingest_heap_u32(&h->type, i, HF_TYPE_KIND) !=
		    HEAPFMT_TYPE_VTABLE)
			continue;
		a = ingest_heap_u64(&h->type, i, HF_TYPE_VTABLE);
		BSEARCH_FIRST(k, first, d->nvt, d->vt[k].addr < a);
		if (k < d->nvt && d->vt[k].addr == a)
			d->vtsize[i] = d->vt[k].size;
	}
}

/* Read module m's DWARF, if its file is the one the snapshot saw. */
static void
dt_module(struct ingest_ctx *ctx, struct dt_ctx *c, const struct ingest_heap *h,
    uint32_t m)
{
	const char	*path, *build, *file;
	char		*beside;
	uint64_t	 base, cuoff, next;
	uint32_t	 flags;
	size_t		 hsize;
	Dwarf_Die	 cudie;
	Elf		*elf;
	struct stat	 sb;
	int		 fd, lang;

	flags = ingest_heap_u32(&h->mods, m, HF_MODS_FLAGS);
	path = ingest_heap_str(h, ingest_heap_u32(&h->mods, m, HF_MODS_PATH));
	build = ingest_heap_str(h, ingest_heap_u32(&h->mods, m,
	    HF_MODS_BUILD_ID));
	base = ingest_heap_u64(&h->mods, m, HF_MODS_BASE);
	/*
	 * A dlclose'd module is read too: the stacks into it get their
	 * lines (it has no variables left to type from).
	 */
	if ((flags & (HEAPFMT_MOD_VDSO | HEAPFMT_MOD_AGENT)) || *path != '/')
		return;
	/*
	 * The path is the file's word: not blocking on a FIFO, and only a
	 * regular file (a device would be read, or mapped, as an ELF).
	 */
	if ((fd = ingest_module_open(ctx, path, *build != '\0',
	    &beside)) < 0) {
		ingest_warn(ctx, 0, "module %s: no longer there; no types or"
		    " lines from its debug information", path);
		return;
	}
	/* Messages name the file read: the snapshot's, or one beside it. */
	file = beside != NULL ? beside : path;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		ingest_warn(ctx, 0, "module %s: not a regular file; no types"
		    " or lines from it", file);
		goto fail;
	}
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL)
		goto fail;
	if (!dt_same_build(elf, build)) {
		ingest_warn(ctx, 0, "module %s: not the file the snapshot saw"
		    " (build-id %s); no types or lines from it", file,
		    *build != '\0' ? build : "none");
		elf_end(elf);
		goto fail;
	}
	free(beside);
	dt_vtables(c->d, h, elf, m, base);
	/* No DWARF (a stripped file): untyped, and no warning. */
	if ((c->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)) == NULL) {
		elf_end(elf);
		close(fd);
		return;
	}
	c->module = m;
	c->d->has[m] = 1;
	for (cuoff = 0; dwarf_nextcu(c->dw, cuoff, &next, &hsize, NULL, NULL,
	    NULL) == 0; cuoff = next) {
		if (dwarf_offdie(c->dw, cuoff + hsize, &cudie) == NULL)
			continue;
		lang = dwarf_srclang(&cudie);
		c->cplus = lang == DW_LANG_C_plus_plus ||
		    lang == DW_LANG_C_plus_plus_03 ||
		    lang == DW_LANG_C_plus_plus_11 ||
		    lang == DW_LANG_C_plus_plus_14;
		dt_vars(c, &cudie, base, 0);
		/* Each CU's types while its language is known. */
		while (c->nwork > 0)
			dt_fill(c, c->work[--c->nwork]);
	}
	/* C++ units only: C has no inheritance. */
	for (cuoff = 0; dwarf_nextcu(c->dw, cuoff, &next, &hsize, NULL, NULL,
	    NULL) == 0; cuoff = next) {
		if (dwarf_offdie(c->dw, cuoff + hsize, &cudie) == NULL)
			continue;
		lang = dwarf_srclang(&cudie);
		if (lang == DW_LANG_C_plus_plus ||
		    lang == DW_LANG_C_plus_plus_03 ||
		    lang == DW_LANG_C_plus_plus_11 ||
		    lang == DW_LANG_C_plus_plus_14) {
			c->cplus = 1;
			dt_bases(c, &cudie, 0);
		}
	}
	dt_lines(c->d, h, c->dw, m, base);
	dwarf_end(c->dw);
	c->dw = NULL;
	elf_end(elf);
	close(fd);
	return;
fail:
	free(beside);
	close(fd);
}

/*
 * A complete definition for declared-only aggregates (a CU that only
 * saw "struct node;"): the same name in the same module, else any.
 */
static void
dt_complete(struct ingest_heap_dwarf *d, size_t nnames)
{
	uint32_t	*def, i;

	def = xreallocarray(NULL, nnames + 1, sizeof *def);
	for (i = 0; i <= nnames; i++)
		def[i] = DT_NONE;
	for (i = 0; i < d->ntypes; i++) {
		if (d->types[i].kind == INGEST_DT_STRUCT &&
		    !d->types[i].declared && d->types[i].name_id != DT_NONE &&
		    def[d->types[i].name_id] == DT_NONE)
			def[d->types[i].name_id] = i;
	}
	for (i = 0; i < d->ntypes; i++) {
		d->types[i].def = i;
		if (d->types[i].kind == INGEST_DT_STRUCT &&
		    d->types[i].declared && d->types[i].name_id != DT_NONE &&
		    def[d->types[i].name_id] != DT_NONE)
			d->types[i].def = def[d->types[i].name_id];
	}
	free(def);
}

/*
 * The type of the pointer word at byte off of a place of type t:
 * DT_NONE unless a pointer field lies exactly there.
 */
uint32_t
ingest_dtype_pointer_at(const struct ingest_heap_dwarf *d, uint32_t t,
    uint64_t off)
{
	const struct ingest_dtype	*x;
	const struct ingest_dfield	*f;
	uint64_t			 es;
	uint32_t			 k;
	int				 n;

	for (n = 0; n < DT_DEPTH && t != DT_NONE; n++) {
		x = &d->types[d->types[t].def];
		switch (x->kind) {
		case INGEST_DT_POINTER:
			return (off == 0 ? (uint32_t)(x - d->types) : DT_NONE);
		case INGEST_DT_ARRAY:
			if (x->target == DT_NONE)
				return (DT_NONE);
			es = d->types[d->types[x->target].def].size;
			if (es == 0 || (x->count != 0 && off / es >= x->count))
				return (DT_NONE);
			off %= es;
			t = x->target;
			break;
		case INGEST_DT_STRUCT:
			/* The last member at or before off that covers it. */
			BSEARCH_FIRST(k, 0, x->nfields,
			    d->fields[x->first + k].offset <= off);
			for (; k > 0; k--) {
				f = &d->fields[x->first + k - 1];
				if (f->type != DT_NONE && off - f->offset <
				    d->types[d->types[f->type].def].size)
					break;
			}
			if (k == 0)
				return (DT_NONE);
			f = &d->fields[x->first + k - 1];
			off -= f->offset;
			t = f->type;
			break;
		default:
			return (DT_NONE);	/* unions type nothing */
		}
	}
	return (DT_NONE);
}

/*
 * Whether a pointer of type p types what it points to: not void, char
 * (a string), a union or a function; its dtype then, else DT_NONE.
 */
static uint32_t
dt_types(const struct ingest_heap_dwarf *d, uint32_t p)
{
	const struct ingest_dtype	*t;

	if (p == DT_NONE || d->types[p].target == DT_NONE)
		return (DT_NONE);
	t = &d->types[d->types[d->types[p].target].def];
	if (t->kind == INGEST_DT_UNION || t->kind == INGEST_DT_OTHER ||
	    (t->kind == INGEST_DT_BASE && t->chars) ||
	    (t->kind == INGEST_DT_ARRAY))
		return (DT_NONE);
	return ((uint32_t)(t - d->types));
}

static int
dt_var_cmp(const void *a, const void *b)
{
	const struct ingest_dvar	*x = a, *y = b;

	if (x->module != y->module)
		return (x->module < y->module ? -1 : 1);
	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

static int
dt_field_cmp(const void *a, const void *b)
{
	const struct ingest_dfield	*x = a, *y = b;

	if (x->owner != y->owner)
		return (x->owner < y->owner ? -1 : 1);
	if (x->offset != y->offset)
		return (x->offset < y->offset ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/* The variable of module m that holds address a, or NULL. */
static const struct ingest_dvar *
dt_var_at(const struct ingest_heap_dwarf *d, uint32_t m, uint64_t a)
{
	size_t				 i;
	const struct ingest_dvar	*v;
	uint64_t			 size;

	/* The last at or below (m, a). */
	BSEARCH_FIRST(i, 0, d->nvars, d->vars[i].module < m ||
	    (d->vars[i].module == m && d->vars[i].addr <= a));
	if (i == 0)
		return (NULL);
	v = &d->vars[i - 1];
	if (v->module != m || v->type == DT_NONE)
		return (NULL);
	size = d->types[d->types[v->type].def].size;
	return (a - v->addr < size ? v : NULL);
}

/* Type block b as dtype u (by the queue), or count a disagreement. */
static void
dt_type_block(struct ingest_heap_dwarf *d, const uint64_t *bsize, uint32_t b,
    uint32_t u, uint32_t *queue, size_t *nq)
{
	uint32_t	bt = d->btype[b];

	/*
	 * Typed already (most pointers, on a big heap): the block's size
	 * is not read, a random read saved per pointer.
	 */
	if (bt != DT_NONE) {
		if (bt != u && d->types[bt].name_id != d->types[u].name_id)
			d->conflicts++;
		return;
	}
	/* A pointer to a bigger type than the block is no such object. */
	if (d->types[u].size > bsize[b])
		return;
	d->btype[b] = u;
	queue[(*nq)++] = b;
}

/*
 * What a pointer at byte off of a type t types, remembered: a heap of a
 * million blocks is mostly a few types, and the walk asked again for
 * every pointer (a twentieth of the ingest of 1M nodes).
 */
#define DT_PTRMEMO	256
struct dt_ptrmemo {
	uint32_t	 t;		/* DT_NONE: empty */
	uint32_t	 u;
	uint64_t	 off;
};

static uint32_t
dt_ptr_types(const struct ingest_heap_dwarf *d, struct dt_ptrmemo *memo,
    uint32_t t, uint64_t off)
{
	struct dt_ptrmemo	*m = &memo[(t * 7 + off / 8) % DT_PTRMEMO];

	if (m->t != t || m->off != off) {
		m->t = t;
		m->off = off;
		m->u = dt_types(d, ingest_dtype_pointer_at(d, t, off));
	}
	return (m->u);
}

/* The breadth-first typing of the blocks from the module variables. */
static void
dt_walk(struct ingest_heap_dwarf *d, const struct ingest_heap *h)
{
	const struct ingest_dvar	*v;
	const struct ingest_heap_ptrs	*ep = &h->e;
	const uint64_t			*bsize = h->b.size;
	const uint32_t			*first = ep->first;
	uint64_t			 nblk = h->b.count, k, e, size, tsize;
	uint64_t			 off, lo, hi;
	uint32_t			*queue, b, u, reg, m, t, dst;
	size_t				 nq = 0, qi;
	struct dt_ptrmemo			 memo[DT_PTRMEMO];

	d->btype = xreallocarray(NULL, nblk + 1, sizeof *d->btype);
	for (k = 0; k < nblk; k++)
		d->btype[k] = DT_NONE;
	if (d->nvars == 0)
		return;
	queue = xreallocarray(NULL, nblk + 1, sizeof *queue);
	for (k = 0; k < h->root.count; k++) {
		if ((ingest_heap_u32(&h->root, k, HF_ROOT_DST_OFF) &
		    HEAPFMT_OFF_MASK) != 0)
			continue;	/* interior: not the object's type */
		reg = ingest_heap_u32(&h->root, k, HF_ROOT_REGION);
		if (ingest_heap_u32(&h->regn, reg, HF_REGN_KIND) !=
		    HEAPFMT_RGN_DATA)
			continue;
		m = ingest_heap_u32(&h->regn, reg, HF_REGN_MODULE);
		if (m == HEAPFMT_NONE || !d->has[m])
			continue;
		lo = ingest_heap_u64(&h->root, k, HF_ROOT_ADDR);
		if ((v = dt_var_at(d, m, lo)) == NULL)
			continue;
		u = dt_types(d, ingest_dtype_pointer_at(d, v->type,
		    lo - v->addr));
		if (u != DT_NONE)
			dt_type_block(d, bsize, ingest_heap_u32(&h->root, k,
			    HF_ROOT_DST), u, queue, &nq);
	}
	if (nq == 0) {
		free(queue);
		return;
	}
	for (k = 0; k < DT_PTRMEMO; k++)
		memo[k].t = DT_NONE;
	for (qi = 0; qi < nq; qi++) {
		/*
		 * The queue goes through the heap at random: each block's
		 * first edge, its edges and their targets' types are cache
		 * misses, asked for blocks ahead (a target's type, read
		 * per pointer, was half the walk's time on 1M blocks).
		 */
		if (qi + 16 < nq)
			__builtin_prefetch(&first[queue[qi + 16]]);
		if (qi + 8 < nq) {
			b = queue[qi + 8];
			__builtin_prefetch(&ep->dst[first[b]]);
			__builtin_prefetch(&ep->dst_off[first[b]]);
			__builtin_prefetch(&ep->word[first[b]]);
		}
		if (qi + 4 < nq) {
			b = queue[qi + 4];
			for (e = first[b]; e < first[b + 1]; e++)
				__builtin_prefetch(&d->btype[ep->dst[e]]);
		}
		b = queue[qi];
		t = d->btype[b];
		size = bsize[b];
		tsize = d->types[t].size;
		lo = first[b];
		hi = first[b + 1];
		for (e = lo; e < hi; e++) {
			if ((ep->dst_off[e] & HEAPFMT_OFF_MASK) != 0)
				continue;
			off = (uint64_t)ep->word[e] * 8;
			/*
			 * A block of several T: an array of them; unless T is
			 * a base class, when the block is a derived object
			 * whose other members T does not know.
			 */
			if (tsize != 0 && off >= tsize) {
				if (size % tsize != 0 || d->types[t].derived)
					continue;
				off %= tsize;
			}
			if ((u = dt_ptr_types(d, memo, t, off)) == DT_NONE)
				continue;
			dst = ep->dst[e];
			dt_type_block(d, bsize, dst, u, queue, &nq);
		}
	}
	free(queue);
}

/*
 * Read the debug information of h's modules into d: lines of the stacks'
 * addresses, variables, types, and each block's DWARF type.
 */
void
ingest_heap_dwarf(struct ingest_ctx *ctx, const struct ingest_heap *h,
    struct ingest_heap_dwarf *d)
{
	struct dt_ctx	c;
	uint32_t	m, i, *remap;

	memset(d, 0, sizeof *d);
	memset(&c, 0, sizeof c);
	c.d = d;
	d->loc_file = xcalloc(h->locs.count + 1, sizeof *d->loc_file);
	d->loc_line = xcalloc(h->locs.count + 1, sizeof *d->loc_line);
	d->loc_text = xcalloc(h->locs.count + 1, sizeof *d->loc_text);
	d->has = xcalloc(h->mods.count + 1, 1);
	d->vtsize = xcalloc(h->type.count + 1, sizeof *d->vtsize);
	elf_version(EV_CURRENT);
	for (m = 0; m < h->mods.count; m++)
		dt_module(ctx, &c, h, m);
	for (i = 0; i < d->ntypes; i++)
		dt_name(d, i, 0);
	for (i = 0; i < d->ntypes; i++) {
		if (d->types[i].name_id == DT_NONE)
			d->types[i].name_id = dt_name_id(&c,
			    d->types[i].module, d->types[i].name);
	}
	dt_complete(d, c.names.n);
	for (i = 0; i < d->ntypes; i++)
		dt_size(d, i, 0);
	/* Members by offset (inheritance first at equal offsets). */
	/* (None at all when no module had DWARF: qsort wants an array.) */
	if (d->nfields != 0)
		qsort(d->fields, d->nfields, sizeof *d->fields, dt_field_cmp);
	remap = xcalloc(d->ntypes + 1, sizeof *remap);
	for (i = (uint32_t)d->nfields; i > 0; i--)
		remap[d->fields[i - 1].owner] = i - 1;
	for (i = 0; i < d->ntypes; i++) {
		if (d->types[i].nfields != 0)
			d->types[i].first = remap[i];
	}
	free(remap);
	if (d->nvars != 0)
		qsort(d->vars, d->nvars, sizeof *d->vars, dt_var_cmp);
	for (i = 0; i < d->ntypes; i++) {
		if (d->types[i].derived)
			d->types[d->types[i].def].derived = 1;
	}
	d->nnames = c.names.n;
	dt_walk(d, h);
	free(c.memo.key);
	free(c.memo.val);
	free(c.work);
	intern_free(&c.names);
}

void
ingest_heap_dwarf_free(struct ingest_heap_dwarf *d, uint64_t nlocs)
{
	size_t	i;

	for (i = 0; i < d->ntypes; i++) {
		free(d->types[i].name);
		free(d->types[i].tdname);
	}
	for (i = 0; i < d->nfields; i++)
		free(d->fields[i].name);
	for (i = 0; i < d->nvars; i++)
		free(d->vars[i].name);
	for (i = 0; i < nlocs; i++) {
		free(d->loc_file[i]);
		free(d->loc_text[i]);
	}
	free(d->loc_text);
	free(d->types);
	free(d->fields);
	free(d->vars);
	free(d->loc_file);
	free(d->loc_line);
	free(d->has);
	free(d->btype);
	free(d->vtsize);
	for (i = 0; i < d->nvt; i++)
		free(d->vt[i].name);
	free(d->vt);
	memset(d, 0, sizeof *d);
}
