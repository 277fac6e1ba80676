/*
 * The prfd reader (Dos32Profile dumps): good files of both widths (the
 * width-4 one written from Dos32Profile's packed structures, as OS/2 returned
 * them, and read back exactly), each bad field, every truncation, counts
 * that disagree (the bytes decide, with a warning), the model and the
 * report.
 */
#include <math.h>

#include "tests/unit/testutil.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/prfd.h"
#include "kind.h"
#include "report/report.h"

#define NAME	"/nonexistent/t.prfd"

/*
 * A dump writer: bytes appended to a growing buffer, ULONGs of w bytes,
 * little endian.  off[] keeps where the fields the tests patch went.
 */
struct tw {
	uint8_t		*p;
	size_t		 len;
	size_t		 cap;
	unsigned	 w;
};

static void
tw_put(struct tw *t, uint64_t v, unsigned n)
{
	unsigned	i;

	if (t->len + n > t->cap) {
		t->cap = (t->len + n) * 2 + 64;
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
	for (i = 0; i < n; i++)
		t->p[t->len++] = (uint8_t)(v >> (8 * i));
}

/* n bytes from p, which may be inside the buffer (a record copied). */
static void
tw_bytes(struct tw *t, const void *p, size_t n)
{
	uint8_t	*c = malloc(n + 1);
	size_t	 i;

	ck_assert_ptr_nonnull(c);
	memcpy(c, p, n);
	for (i = 0; i < n; i++)
		tw_put(t, c[i], 1);
	free(c);
}

#define tw_u8(t, v)	tw_put((t), (v), 1)
#define tw_u16(t, v)	tw_put((t), (v), 2)
#define tw_u32(t, v)	tw_put((t), (v), 4)
#define tw_u64(t, v)	tw_put((t), (v), 8)
#define tw_ul(t, v)	tw_put((t), (v), (t)->w)

/* A record's head; its bufsz is set by tw_end. */
static size_t
tw_rec(struct tw *t, unsigned cmd, unsigned thrdno, uint64_t vaddr)
{
	size_t	at;

	tw_u8(t, cmd);
	tw_u16(t, thrdno);
	tw_ul(t, vaddr);
	at = t->len;
	tw_ul(t, 0);
	return (at);
}

static void
tw_end(struct tw *t, size_t at)
{
	uint64_t	n = t->len - at - t->w;
	unsigned	i;

	for (i = 0; i < t->w; i++)
		t->p[at + i] = (uint8_t)(n >> (8 * i));
}

static void
tw_patch(struct tw *t, size_t off, uint64_t v, unsigned n)
{
	unsigned	i;

	ck_assert_uint_le(off + n, t->len);
	for (i = 0; i < n; i++)
		t->p[off + i] = (uint8_t)(v >> (8 * i));
}

/* Where the fields of the good dump are. */
enum {
	O_VERSION, O_WIDTH, O_RESERVED, O_SHIFT, O_HITBUFCNT, O_T1,
	O_R1, O_R1_BUFSZ, O_NSLOTS, O_SLOT0_SIZE, O_SLOT0_CNT, O_R2,
	O_R2_BUFSZ, O_NHITS, O_R3A, O_R3A_SIZE, O_R3A_NCNTS, O_R3B, O_EXT,
	O_EXT_BUFSZ, O_MOD0, O_THREADS, O_PERIOD, O_LIMITS, O_FUTURE,
	O_COMMAND, O_END,
	O_COUNT
};

struct good {
	struct tw	 t;
	size_t		 off[O_COUNT];
	size_t		 bounds[16];	/* record starts, and the end */
	size_t		 nbounds;
};

/* Slot 0: 0x40 bytes in counters of 16; slot 1: 0x20 bytes. */
#define SLOT0	0x401000ull
#define SLOT1_8	0x7f0000001000ull
#define SLOT1_4	0x20000ull

static uint64_t
slot1(unsigned w)
{
	return (w == 8 ? SLOT1_8 : SLOT1_4);
}

static void
ext_entry(struct tw *t, unsigned tag, const void *body, size_t n)
{
	tw_u16(t, tag);
	tw_u16(t, 0);
	tw_u32(t, n);
	tw_bytes(t, body, n);
}

/*
 * The good dump: the process's PRFRET0 and two threads', two slots, a
 * hit table of 9 addresses, both slots' detail counters and (ext) the
 * extension record.
 */
static void
good(struct good *g, unsigned w, int ext)
{
	struct tw	*t = &g->t;
	size_t		 at, i;
	static const uint64_t	hits[9] = { SLOT0, SLOT0 + 4, SLOT0 + 4,
	    SLOT0 + 0x10, SLOT0 + 0x30, SLOT0 + 0x31, 0, 0, 0 };
	uint64_t	 v;
	uint8_t		 mod[64];

	memset(g, 0, sizeof *g);
	t->w = w;
	tw_bytes(t, "PRFD", 4);
	g->off[O_VERSION] = t->len;
	tw_u16(t, 1);
	g->off[O_WIDTH] = t->len;
	tw_u8(t, w);
	g->off[O_RESERVED] = t->len;
	tw_u8(t, 0);
	tw_u32(t, 4242);
	tw_u16(t, 1000);

	for (i = 0; i < 3; i++) {
		g->bounds[g->nbounds++] = t->len;
		if (i == 1)
			g->off[O_T1] = t->len;
		at = tw_rec(t, 0, (unsigned)i, 0);
		tw_u16(t, 0x100 | 4);		/* r0_flags */
		if (i == 0)
			g->off[O_SHIFT] = t->len;
		tw_u16(t, 4);			/* r0_shift */
		tw_ul(t, 100 + i);		/* idle */
		tw_ul(t, 0);			/* vm86 */
		tw_ul(t, 20 + i);		/* kernel */
		tw_ul(t, 10 + i);		/* shrmem */
		tw_ul(t, 5 + i);		/* unknown */
		tw_ul(t, 64);			/* nhitbufs */
		if (i == 0)
			g->off[O_HITBUFCNT] = t->len;
		tw_ul(t, i == 0 ? 9 : i);	/* hitbufcnt */
		tw_ul(t, 0);
		tw_ul(t, 0);
		tw_u16(t, 1000);		/* r0_timval */
		tw_u8(t, 0);			/* errcnt */
		tw_u16(t, 0);
		tw_u16(t, 0);
		tw_end(t, at);
	}

	g->bounds[g->nbounds++] = g->off[O_R1] = t->len;
	at = tw_rec(t, 1, 0, 0);
	g->off[O_R1_BUFSZ] = at;
	g->off[O_NSLOTS] = t->len;
	tw_u8(t, 2);
	tw_ul(t, SLOT0);
	g->off[O_SLOT0_SIZE] = t->len;
	tw_ul(t, 0x40);
	tw_ul(t, 8);
	tw_ul(t, 0);
	g->off[O_SLOT0_CNT] = t->len;
	tw_ul(t, 6);
	tw_ul(t, slot1(w));
	tw_ul(t, 0x20);
	tw_ul(t, 8);
	tw_ul(t, 0);
	tw_ul(t, 3);
	tw_end(t, at);

	g->bounds[g->nbounds++] = g->off[O_R2] = t->len;
	at = tw_rec(t, 2, 0, 0);
	g->off[O_R2_BUFSZ] = at;
	g->off[O_NHITS] = t->len;
	tw_ul(t, 9);
	for (i = 0; i < 9; i++)
		tw_ul(t, i < 6 ? hits[i] : slot1(w) + 8);
	tw_end(t, at);

	g->bounds[g->nbounds++] = g->off[O_R3A] = t->len;
	at = tw_rec(t, 3, 0, SLOT0);
	g->off[O_R3A_SIZE] = t->len;
	tw_ul(t, 0x40);
	g->off[O_R3A_NCNTS] = t->len;
	tw_ul(t, 4);
	tw_ul(t, 3);
	tw_ul(t, 1);
	tw_ul(t, 0);
	tw_ul(t, 2);
	tw_end(t, at);

	g->bounds[g->nbounds++] = g->off[O_R3B] = t->len;
	at = tw_rec(t, 3, 0, slot1(w));
	tw_ul(t, 0x20);
	tw_ul(t, 2);
	tw_ul(t, 3);
	tw_ul(t, 0);
	tw_end(t, at);

	if (ext) {
		g->bounds[g->nbounds++] = g->off[O_EXT] = t->len;
		at = tw_rec(t, 0xf0, 0, 0);
		g->off[O_EXT_BUFSZ] = at;
		/* MODULE of slot 0: no path, so no file is looked for. */
		g->off[O_MOD0] = t->len;
		{
			struct tw	m = { mod, 0, sizeof mod, w };

			tw_ul(&m, SLOT0);
			tw_ul(&m, 0x40);
			tw_u8(&m, 4);
			tw_bytes(&m, "\xde\xad\xbe\xef", 4);
			ext_entry(t, 1, m.p, m.len);
		}
		g->off[O_THREADS] = t->len;
		{
			uint8_t	th[12] = { 2, 0, 0, 0, 0xe9, 3, 0, 0, 0xea, 3,
			    0, 0 };	/* tids 1001 and 1002 */

			ext_entry(t, 2, th, sizeof th);
		}
		g->off[O_PERIOD] = t->len;
		{
			uint8_t	pe[24];
			uint64_t pv[3] = { 1000000, 1039, 2000000000 };

			for (i = 0; i < 24; i++) {
				v = pv[i / 8];
				pe[i] = (uint8_t)(v >> (8 * (i % 8)));
			}
			ext_entry(t, 3, pe, sizeof pe);
		}
		/* LIMITS: kernel-mode samples taken. */
		g->off[O_LIMITS] = t->len;
		ext_entry(t, 5, "\0\0\0\0", 4);
		g->off[O_FUTURE] = t->len;
		ext_entry(t, 99, "futu", 4);	/* skipped without a word */
		g->off[O_COMMAND] = t->len;
		ext_entry(t, 4, "./prog\0-x\0", 10);
		tw_end(t, at);
	}
	g->bounds[g->nbounds++] = g->off[O_END] = t->len;
}

static struct store *st;

static void
setup(void)
{
	st = tu_store();
}

static void
teardown(void)
{
	store_close(st);
}

static int64_t
count(const char *sql)
{
	return (tu_count(st, sql));
}

/* Rows in every table a prfd ingest writes. */
static int64_t
rows(void)
{
	return (count("SELECT (SELECT count(*) FROM session) + (SELECT"
	    " count(*) FROM warning) + (SELECT count(*) FROM symbol) + (SELECT"
	    " count(*) FROM bucket) + (SELECT count(*) FROM counter) + (SELECT"
	    " count(*) FROM prfd) + (SELECT"
	    " count(*) FROM prfd_thread) + (SELECT count(*) FROM prfd_slot) +"
	    " (SELECT count(*) FROM prfd_hit) + (SELECT count(*) FROM"
	    " prfd_module) + (SELECT count(*) FROM prfd_module_hit)"));
}

/* Delete the sessions of the checks before: each file starts afresh. */
static void
fresh(void)
{
	char	*cause = NULL;
	int64_t	 id;

	while ((id = count("SELECT coalesce(max(id), 0) FROM session")) > 0)
		ck_assert_msg(store_session_delete(st, id, &cause) == 0, "%s",
		    cause);
	ck_assert_int_eq(rows(), 0);
}

static void
expect_fail_buf(const uint8_t *buf, size_t len, size_t offset,
    const char *field, const char *detail)
{
	char	*cause, want[128];
	int64_t	 id;

	fresh();
	ck_assert_int_eq(tu_ingest(st, NAME, buf, len, NULL, &id, &cause),
	    -1);
	ck_assert_ptr_nonnull(cause);
	snprintf(want, sizeof want, NAME ": offset %zu: %s: ", offset, field);
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0,
	    "got \"%s\", want \"%s...\"", cause, want);
	if (detail != NULL)
		ck_assert_msg(strstr(cause, detail) != NULL, "\"%s\" lacks"
		    " \"%s\"", cause, detail);
	ck_assert_int_eq(rows(), 0);
	free(cause);
}

static void
expect_fail(struct good *g, size_t offset, const char *field,
    const char *detail)
{
	expect_fail_buf(g->t.p, g->t.len, offset, field, detail);
	free(g->t.p);
}

/* Ingest; expect success with nwarn warnings, one matching detail. */
static int64_t
expect_load_buf(const uint8_t *buf, size_t len, int nwarn,
    const char *detail)
{
	char	*cause, *sql;
	int64_t	 id;

	fresh();
	ck_assert_msg(tu_ingest(st, NAME, buf, len, NULL, &id, &cause) == 0,
	    "%s", cause);
	ck_assert_int_eq(count("SELECT count(*) FROM warning"), nwarn);
	if (detail != NULL) {
		sql = sqlite3_mprintf("SELECT count(*) FROM warning WHERE"
		    " instr(message, '%q') > 0", detail);
		ck_assert_msg(count(sql) == 1, "no warning says \"%s\"",
		    detail);
		sqlite3_free(sql);
	}
	return (id);
}

static int64_t
expect_load(struct good *g, int nwarn, const char *detail)
{
	int64_t	id = expect_load_buf(g->t.p, g->t.len, nwarn, detail);

	free(g->t.p);
	return (id);
}

START_TEST(test_detect)
{
	const struct kind	*k;

	k = ingest_detect((const uint8_t *)"PRFD\1\0\10\0", 8, "x.bin");
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(k->name, "prfd");
	ck_assert_ptr_null(ingest_detect((const uint8_t *)"PRFX", 4,
	    "x.bin"));
}
END_TEST

/* Everything of the good dump, of width w, is where it belongs. */
static void
check_good(unsigned w, int ext)
{
	struct good	g;
	char		sql[512];

	good(&g, w, ext);
	expect_load(&g, 0, NULL);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd WHERE pid = 4242 AND"
	    " timval = 1000 AND flags = 260 AND shift = 4 AND idle = 100 AND"
	    " vm86 = 0 AND kernel = 20 AND shrmem = 10 AND unknown = 5 AND"
	    " nhitbufs = 64 AND hitbufcnt = 9 AND errcnt = 0 AND r0_timval ="
	    " 1000 AND hit_table = 1"), 1);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM prfd WHERE width = %u"
	    " AND extension = %d", w, ext);
	ck_assert_int_eq(count(sql), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_thread WHERE"
	    " (thrdno = 1 AND idle = 101 AND kernel = 21 AND shrmem = 11 AND"
	    " unknown = 6 AND hitbufcnt = 1) OR (thrdno = 2 AND idle = 102 AND"
	    " kernel = 22)"), 2);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM prfd_slot WHERE"
	    " (idx = 0 AND vaddr = %llu AND size = 64 AND flags = 8 AND cnt = 6"
	    " AND bucket_first = 0 AND nbuckets = 4) OR (idx = 1 AND vaddr ="
	    " %llu AND size = 32 AND cnt = 3 AND bucket_first = 4 AND nbuckets"
	    " = 2)", SLOT0, (unsigned long long)slot1(w));
	ck_assert_int_eq(count(sql), 2);
	ck_assert_int_eq(count("SELECT count(*) FROM bucket"), 6);
	ck_assert_int_eq(count("SELECT group_concat(name || '=' || value, ' ')"
	    " = 'idle=100 kernel=20 shrmem=10 unknown=5 vm86=0' FROM (SELECT *"
	    " FROM counter ORDER BY name)"), 1);
	snprintf(sql, sizeof sql, "SELECT group_concat(printf('%%d:%%d-%%d=%%d',"
	    " idx, lo - %llu, hi - %llu, hits), ' ') FROM (SELECT * FROM bucket"
	    " WHERE idx < 4 ORDER BY idx)", SLOT0, SLOT0);
	{
		sqlite3_stmt	*s;

		ck_assert_int_eq(sqlite3_prepare_v2(store_db(st), sql, -1, &s,
		    NULL), SQLITE_OK);
		ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
		ck_assert_str_eq((const char *)sqlite3_column_text(s, 0),
		    "0:0-16=3 1:16-32=1 2:32-48=0 3:48-64=2");
		sqlite3_finalize(s);
	}
	/* The hit table by address: 0x401004 twice, slot 1 + 8 thrice. */
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_hit"), 6);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM prfd_hit WHERE"
	    " (addr = %llu AND hits = 2) OR (addr = %llu AND hits = 3)",
	    SLOT0 + 4, (unsigned long long)slot1(w) + 8);
	ck_assert_int_eq(count(sql), 2);
	ck_assert_int_eq(count("SELECT sum(hits) FROM prfd_hit"), 9);
	if (ext) {
		ck_assert_int_eq(count("SELECT count(*) FROM prfd WHERE"
		    " period_ns = 1000000 AND samples = 1039 AND ns ="
		    " 2000000000 AND command = './prog -x'"), 1);
		ck_assert_int_eq(count("SELECT count(*) FROM prfd_slot WHERE"
		    " idx = 0 AND build_id = 'deadbeef' AND module IS NULL"),
		    1);
		ck_assert_int_eq(count("SELECT count(*) FROM prfd_thread"
		    " WHERE (thrdno = 1 AND tid = 1001) OR (thrdno = 2 AND"
		    " tid = 1002)"), 2);
		ck_assert_int_eq(count("SELECT count(*) FROM session WHERE"
		    " program = './prog'"), 1);
	} else
		ck_assert_int_eq(count("SELECT count(*) FROM prfd WHERE"
		    " period_ns IS NULL AND command IS NULL AND (SELECT"
		    " count(*) FROM prfd_thread WHERE tid IS NULL) = 2"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM session WHERE summary ="
	    " 'pid 4242, 2 slots, 144 samples, counters of 16 bytes'"), 1);
}

START_TEST(test_good_8)
{
	check_good(8, 1);
}
END_TEST

START_TEST(test_good_8_os2)
{
	check_good(8, 0);
}
END_TEST

START_TEST(test_good_4)
{
	check_good(4, 0);
}
END_TEST

START_TEST(test_good_4_ext)
{
	check_good(4, 1);
}
END_TEST

/*
 * Dos32Profile's structures with OS/2's 32-bit ULONG, packed as its
 * documentation says; a dump made of them is byte for byte what
 * Dos32Profile returned.
 */
typedef uint32_t	ULONG;
typedef uint16_t	USHORT;
typedef uint8_t		UCHAR;

#pragma pack(push, 1)
typedef struct {
	UCHAR	us_cmd;
	USHORT	us_thrdno;
	ULONG	us_vaddr;
	ULONG	us_bufsz;
} PRFREQ;	/* PRFRET without us_buf */

typedef struct {
	USHORT	r0_flags;
	USHORT	r0_shift;
	ULONG	r0_idle;
	ULONG	r0_vm86;
	ULONG	r0_kernel;
	ULONG	r0_shrmem;
	ULONG	r0_unknown;
	ULONG	r0_nhitbufs;
	ULONG	r0_hitbufcnt;
	ULONG	r0_reserved1;
	ULONG	r0_reserved2;
	USHORT	r0_timval;
	UCHAR	r0_errcnt;
	USHORT	r0_nstruc1;
	USHORT	r0_nstruc2;
} PRFRET0;

typedef struct {
	ULONG	va_vaddr;
	ULONG	va_size;
	ULONG	va_flags;
	ULONG	va_reserved;
	ULONG	va_cnt;
} PRFVA;

typedef struct {
	UCHAR	r1_nslots;
	PRFVA	r1_slots[3];
} PRFRET1;

typedef struct {
	ULONG	r2_nhits;
	ULONG	r2_hits[5];
} PRFRET2;

typedef struct {
	ULONG	r3_size;
	ULONG	r3_ncnts;
	ULONG	r3_cnts[8];
} PRFRET3;

typedef struct {
	char	magic[4];
	USHORT	version;
	UCHAR	width;
	UCHAR	reserved;
	ULONG	pid;
	USHORT	timval;
} PRFDHDR;
#pragma pack(pop)

static void
os2_put(struct tw *t, UCHAR cmd, USHORT thrdno, ULONG vaddr, const void *buf,
    size_t n)
{
	PRFREQ	r = { cmd, thrdno, vaddr, (ULONG)n };

	tw_bytes(t, &r, sizeof r);
	tw_bytes(t, buf, n);
}

/* Issue 13, point 5: a width-4 dump from Dos32Profile's structures, exactly. */
START_TEST(test_os2_structures)
{
	struct tw	t = { NULL, 0, 0, 4 };
	PRFDHDR		h = { { 'P', 'R', 'F', 'D' }, 1, 4, 0, 77, 500 };
	PRFRET0		r0 = { 0x104, 12, 4000000000u, 3, 70000, 11, 1, 1024,
	    5, 0xaaaa, 0xbbbb, 500, 7, 0, 0 };
	PRFRET1		r1 = { 3, {
	    { 0x10000, 0x3000, 8, 0, 9 },
	    { 0x20000, 0x1000, 0, 0, 0 },
	    { 0xfffff000, 0x1000, 8, 0, 4294967295u } } };
	PRFRET2		r2 = { 5, { 0x10000, 0x10ffc, 0x12fff, 0x12fff,
	    0xfffffff0 } };
	PRFRET3		r3 = { 0x3000, 3, { 5, 0, 4 } };

	ck_assert_uint_eq(sizeof h, 14);
	ck_assert_uint_eq(sizeof r0, 47);
	ck_assert_uint_eq(sizeof r1.r1_slots[0], 20);
	tw_bytes(&t, &h, sizeof h);
	os2_put(&t, 0, 0, 0, &r0, sizeof r0);
	os2_put(&t, 1, 0, 0, &r1, sizeof r1);
	os2_put(&t, 2, 0, 0, &r2, sizeof r2);
	os2_put(&t, 3, 0, 0x10000, &r3, 8 + 3 * sizeof(ULONG));
	/* The last slot's counters: its count, all in its last 4 KiB. */
	r3.r3_size = 0x1000;
	r3.r3_ncnts = 1;
	r3.r3_cnts[0] = 4294967295u;
	os2_put(&t, 3, 0, 0xfffff000, &r3, 8 + sizeof(ULONG));
	expect_load_buf(t.p, t.len, 0, NULL);
	free(t.p);

	ck_assert_int_eq(count("SELECT count(*) FROM prfd WHERE pid = 77 AND"
	    " width = 4 AND timval = 500 AND flags = 260 AND shift = 12 AND"
	    " idle = 4000000000 AND vm86 = 3 AND kernel = 70000 AND shrmem ="
	    " 11 AND unknown = 1 AND nhitbufs = 1024 AND hitbufcnt = 5 AND"
	    " errcnt = 7 AND r0_timval = 500 AND extension = 0"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_slot WHERE"
	    " (idx = 0 AND vaddr = 65536 AND size = 12288 AND flags = 8 AND"
	    " cnt = 9 AND nbuckets = 3) OR (idx = 1 AND vaddr = 131072 AND"
	    " size = 4096 AND flags = 0 AND cnt = 0 AND bucket_first IS NULL"
	    " AND nbuckets = 0) OR (idx = 2 AND vaddr = 4294963200 AND cnt ="
	    " 4294967295 AND nbuckets = 1)"), 3);
	ck_assert_int_eq(count("SELECT count(*) FROM bucket WHERE (idx = 0"
	    " AND lo = 65536 AND hi = 69632 AND hits = 5) OR (idx = 1 AND hits"
	    " = 0) OR (idx = 2 AND lo = 73728 AND hi = 77824 AND hits = 4) OR"
	    " (idx = 3 AND lo = 4294963200 AND hi = 4294967296 AND hits ="
	    " 4294967295)"), 4);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_hit WHERE (addr ="
	    " 65536 AND hits = 1) OR (addr = 69628 AND hits = 1) OR (addr ="
	    " 77823 AND hits = 2) OR (addr = 4294967280 AND hits = 1)"), 4);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_thread"), 0);
}
END_TEST

START_TEST(test_bad_header)
{
	struct good	g;
	uint8_t		buf[4] = { 'P', 'R', 'F', 'X' };
	char		*cause;
	int64_t		 id;

	/* Without the magic it is no dump: detection turns it away. */
	ck_assert_int_eq(tu_ingest(st, NAME, buf, 4, NULL, &id, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "not a profile"));
	free(cause);
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_VERSION], 3, 2);
	expect_fail(&g, 4, "version", "3 unknown (1 or 2 expected)");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_VERSION], 2, 2);
	expect_load(&g, 0, NULL);
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_WIDTH], 2, 1);
	expect_fail(&g, 6, "width", "2 bytes in a ULONG");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_RESERVED], 9, 1);
	expect_load(&g, 1, "reserved byte 9");
}
END_TEST

START_TEST(test_bad_global)
{
	struct good	g;
	struct tw	t = { NULL, 0, 0, 8 };
	size_t		at;

	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SHIFT], 64, 2);
	expect_fail(&g, g.off[O_SHIFT], "r0_shift", "2^64");
	/* A PRFRET0 too short for its fields. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_T1] + 3 + 8, 82, 8);
	expect_fail(&g, g.off[O_T1] + 11, "us_bufsz", "has 83");
	/* The same thread twice. */
	good(&g, 8, 1);
	at = g.t.len;
	tw_bytes(&g.t, g.t.p + g.off[O_T1], g.off[O_R1] - g.off[O_T1]);
	expect_fail(&g, at + 1, "us_thrdno", "a second PRF_RET_GLOBAL record"
	    " for thread 1");
	/* Counters past SQLite's integers, alone and together. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SHIFT] + 2, 1ull << 63, 8);
	expect_fail(&g, g.off[O_SHIFT] + 2, "PRFRET0", "a counter past 2^63");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SHIFT] + 2, INT64_MAX, 8);
	expect_fail(&g, 14, "PRFRET0", "the global counters add up past");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SLOT0_CNT], INT64_MAX - 100, 8);
	expect_fail(&g, g.off[O_SLOT0_CNT], "va_cnt", "add up past 2^63");
	/* No record of the process: nothing to share by. */
	good(&g, 8, 1);
	memcpy(&t, &g.t, sizeof t);
	memmove(t.p + 14, t.p + g.off[O_T1], t.len - g.off[O_T1]);
	t.len -= g.off[O_T1] - 14;
	expect_fail_buf(t.p, t.len, t.len, "us_cmd", "no PRF_RET_GLOBAL");
	free(t.p);
	/* A longer PRFRET0 (a newer writer's): read, the rest ignored. */
	good(&g, 8, 1);
	at = g.t.len;
	at = tw_rec(&g.t, 0, 7, 0);
	tw_patch(&g.t, at, 90, 8);
	{
		uint8_t	z[90] = { 0 };

		tw_bytes(&g.t, z, sizeof z);
	}
	expect_load(&g, 2, "PRFRET0 of 90 bytes, 83 expected");
}
END_TEST

START_TEST(test_bad_slots)
{
	struct good	g;
	size_t		at;

	/* Not a whole number of PRFVAs. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R1_BUFSZ], 80, 8);
	expect_fail(&g, g.off[O_R1_BUFSZ], "us_bufsz", "leave 39 over");
	/* An empty slot, a slot past the end of the address space. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SLOT0_SIZE], 0, 8);
	expect_fail(&g, g.off[O_SLOT0_SIZE], "va_size", "an empty slot");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SLOT0_SIZE], UINT64_MAX - 0x1000, 8);
	expect_fail(&g, g.off[O_SLOT0_SIZE], "va_size", "past the end");
	/* Two slots at one address: which would a PRFRET3 be of? */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SLOT0_SIZE] + 32, SLOT0, 8);
	expect_fail(&g, g.off[O_SLOT0_SIZE] + 32, "va_vaddr", "a second slot"
	    " at 0x401000");
	/* Slots that overlap: said. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SLOT0_SIZE] + 32, SLOT0 + 0x20, 8);
	expect_load(&g, 2, "the slots at 0x401000 and 0x401020 overlap");
	/* r1_nslots against the PRFVAs: the bytes decide. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_NSLOTS], 1, 1);
	expect_load(&g, 1, "r1_nslots 1, the record holds 2 slots");
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_slot"), 2);
	/* A count that says none. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_NSLOTS], 0, 1);
	expect_load(&g, 1, "r1_nslots 0, the record holds 2 slots");
	/* A second PRFRET1. */
	good(&g, 8, 1);
	at = g.t.len;
	tw_bytes(&g.t, g.t.p + g.off[O_R1], g.off[O_R2] - g.off[O_R1]);
	expect_fail(&g, at, "us_cmd", "a second PRF_RET_VASLOTS");
	/* va_cnt against the detail counters. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_SLOT0_CNT], 7, 8);
	expect_load(&g, 1, "add up to 6, va_cnt says 7");
}
END_TEST

START_TEST(test_bad_hits)
{
	struct good	g;
	size_t		at;

	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R2_BUFSZ], 77, 8);
	expect_fail(&g, g.off[O_R2_BUFSZ], "us_bufsz", "whole 8-byte");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R2_BUFSZ], 0, 8);
	expect_fail(&g, g.off[O_R2_BUFSZ], "us_bufsz", "r2_nhits");
	/* r2_nhits against the addresses: the bytes decide. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_NHITS], 1000000, 8);
	expect_load(&g, 1, "r2_nhits 1000000, the record holds 9");
	ck_assert_int_eq(count("SELECT sum(hits) FROM prfd_hit"), 9);
	/* r0_hitbufcnt against them too. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_HITBUFCNT], 8, 8);
	expect_load(&g, 1, "r0_hitbufcnt 8, the hit table holds 9");
	good(&g, 8, 1);
	at = g.t.len;
	tw_bytes(&g.t, g.t.p + g.off[O_R2], g.off[O_R3A] - g.off[O_R2]);
	expect_fail(&g, at, "us_cmd", "a second PRF_RET_VAHITS");
}
END_TEST

START_TEST(test_bad_detail)
{
	struct good		 g;
	struct analyze_prfd	 m;
	struct analyze_hist	 h;
	char			*cause = NULL;
	int64_t			 id;
	size_t			 at;

	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_NCNTS], 5, 8);
	expect_fail(&g, g.off[O_R3A_NCNTS], "r3_ncnts", "5 counters need 40"
	    " bytes, the record has 32");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_NCNTS], UINT64_MAX, 8);
	expect_fail(&g, g.off[O_R3A_NCNTS], "r3_ncnts", NULL);
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_NCNTS] + 8, INT64_MAX, 8);
	expect_fail(&g, g.off[O_R3A_NCNTS] + 16, "r3_cnts", "add up past");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_SIZE], 0, 8);
	expect_fail(&g, g.off[O_R3A_SIZE], "r3_size", "an empty slot");
	/* Fewer counters than the bytes: the rest ignored, said. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_NCNTS], 3, 8);
	expect_load(&g, 3, "8 bytes after its 3 counters are ignored");
	/* r3_size against the slot's. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_SIZE], 0x30, 8);
	expect_load(&g, 1, "r3_size 48, the slot's 64");
	/* A hit table that puts more in a counter than it holds. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_R3A_NCNTS] + 8, 2, 8);
	id = expect_load(&g, 2, "puts 3 samples in the counter at 0x401000,"
	    " which holds 2");
	ck_assert_int_eq(analyze_prfd_load(st, id, &m, &cause), 0);
	ck_assert_int_eq(analyze_prfd_slot_hist(st, &m, 0, &h, &cause), 0);
	ck_assert_uint_eq(h.nhit, 0);
	ck_assert_uint_eq(h.in_program, 5);
	ck_assert(fabs(h.unattributed - 5) < 1e-9);
	analyze_hist_free(&h);
	analyze_prfd_free(&m);
	/* A slot's counters twice. */
	good(&g, 8, 1);
	at = g.t.len;
	tw_bytes(&g.t, g.t.p + g.off[O_R3A], g.off[O_R3B] - g.off[O_R3A]);
	expect_fail(&g, at + 3, "us_vaddr", "a second PRF_RET_VADETAIL");
	/* Counters of no slot of PRFRET1: a slot is made (the bytes). */
	good(&g, 8, 1);
	at = tw_rec(&g.t, 3, 0, 0x900000);
	tw_ul(&g.t, 0x20);
	tw_ul(&g.t, 2);
	tw_ul(&g.t, 4);
	tw_ul(&g.t, 1);
	tw_end(&g.t, at);
	expect_load(&g, 1, "no slot of the PRFRET1 record starts there");
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_slot WHERE vaddr ="
	    " 9437184 AND cnt = 5 AND nbuckets = 2"), 1);
}
END_TEST

START_TEST(test_bad_records)
{
	struct good	g;
	size_t		at;

	/* An unknown us_cmd: skipped by its size. */
	good(&g, 8, 1);
	at = tw_rec(&g.t, 9, 0, 0);
	tw_u32(&g.t, 1234);
	tw_end(&g.t, at);
	expect_load(&g, 1, "us_cmd 9 unknown: its 4 bytes are skipped");
	/* us_bufsz past the end. */
	good(&g, 8, 1);
	at = tw_rec(&g.t, 2, 0, 0);
	tw_patch(&g.t, at, 1ull << 62, 8);
	expect_fail(&g, at, "us_bufsz", "the file has 0 after");
}
END_TEST

START_TEST(test_bad_extension)
{
	struct good	g;
	size_t		at;

	good(&g, 8, 1);
	at = g.t.len;
	tw_bytes(&g.t, g.t.p + g.off[O_EXT], g.off[O_END] - g.off[O_EXT]);
	expect_fail(&g, at, "us_cmd", "a second extension");
	/* An entry longer than its record. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_PERIOD] + 4, 1000, 4);
	expect_fail(&g, g.off[O_PERIOD] + 4, "len", "1000 bytes");
	/* A record too short for an entry's head. */
	good(&g, 8, 1);
	at = tw_rec(&g.t, 0xf0, 0, 0);
	tw_u32(&g.t, 3);
	tw_end(&g.t, at);
	tw_patch(&g.t, g.off[O_EXT], 0xf1, 1);
	expect_fail(&g, at + 8, "tag", "an entry's head has 8");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_THREADS] + 8, 3, 4);
	expect_fail(&g, g.off[O_THREADS] + 4, "len", "for 3 threads");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_PERIOD] + 8 + 7, 0x80, 1);
	expect_fail(&g, g.off[O_PERIOD] + 8, "period", "past 2^63");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_COMMAND] + 8 + 9, 'y', 1);
	expect_fail(&g, g.off[O_COMMAND] + 8, "argv", "not NUL-terminated");
	/* LIMITS: not 4 bytes; a second one; user mode only is said. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_LIMITS] + 4, 3, 4);
	expect_fail(&g, g.off[O_LIMITS] + 4, "len", "LIMITS entry of 3");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_FUTURE], 5, 2);
	expect_fail(&g, g.off[O_FUTURE], "tag", "a second LIMITS");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_LIMITS] + 8, 1, 4);
	expect_load(&g, 1, "user mode only: the kernel refused kernel-mode");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_LIMITS] + 8, 2, 4);
	expect_load(&g, 0, NULL);
	/* MODULE: a build-id longer than the entry; a slot it lacks. */
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_MOD0] + 8 + 16, 200, 1);
	expect_fail(&g, g.off[O_MOD0] + 8 + 16, "build-id length", "200"
	    " bytes");
	good(&g, 8, 1);
	tw_patch(&g.t, g.off[O_MOD0] + 8, 0x123, 8);
	expect_load(&g, 1, "MODULE entry at 0x123: no slot starts there");
	/* Threads against the thread records: a third one, no tid. */
	good(&g, 8, 1);
	at = g.t.len;
	tw_bytes(&g.t, g.t.p + g.off[O_T1], (g.off[O_R1] - g.off[O_T1]) / 2);
	tw_patch(&g.t, at + 1, 3, 2);
	expect_load(&g, 1, "THREADS lists 2 threads, 3 PRF_RET_GLOBAL");
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_thread WHERE"
	    " thrdno = 3 AND tid IS NULL"), 1);
}
END_TEST

/* A module file that is not there: addresses only, said once. */
START_TEST(test_module_missing)
{
	struct good	g;
	struct tw	t = { NULL, 0, 0, 8 };
	size_t		at;

	good(&g, 8, 0);
	at = tw_rec(&g.t, 0xf0, 0, 0);
	tw_ul(&t, SLOT0);
	tw_ul(&t, 0x40);
	tw_u8(&t, 0);
	tw_bytes(&t, "/nonexistent/prog", 17);
	ext_entry(&g.t, 1, t.p, t.len);
	tw_end(&g.t, at);
	free(t.p);
	expect_load(&g, 1, "/nonexistent/prog: not read (cannot open it)");
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_slot WHERE module ="
	    " '/nonexistent/prog' AND build_id IS NULL AND symbols = 0"), 1);
}
END_TEST

/*
 * A MAPPING entry (version 2): a module mapped at lo, a page, from file
 * offset 0x1000, its n samples at addresses a[] counted c[].
 */
static void
mapping(struct tw *t, uint32_t flags, const char *path, uint64_t lo,
    const uint64_t *a, const uint64_t *c, size_t n)
{
	struct tw	m = { NULL, 0, 0, 8 };
	size_t		i;

	tw_u64(&m, lo);
	tw_u64(&m, lo + 0x1000);
	tw_u64(&m, 0x1000);
	tw_u64(&m, lo - 0x1000);
	tw_u32(&m, flags);
	tw_u32(&m, n);
	tw_u8(&m, 4);
	tw_u16(&m, strlen(path));
	tw_bytes(&m, "\xde\xad\xbe\xef", 4);
	tw_bytes(&m, path, strlen(path));
	for (i = 0; i < n; i++) {
		tw_u64(&m, a[i]);
		tw_u64(&m, c[i]);
	}
	ext_entry(t, 6, m.p, m.len);
	free(m.p);
}

#define LIB	0x7f0000100000ull
#define KADDR	0xffffffff81000000ull

/*
 * The good dump of width 8 without its extension, then one of a
 * library's MAPPING (its file not there) and the kernel's (mapped at
 * its sample, above 2^63); *at is the library entry's offset.
 */
static void
good_mapped(struct good *g, size_t *at)
{
	static const uint64_t	a[2] = { LIB + 0x10, LIB + 0x20 };
	static const uint64_t	c[2] = { 5, 7 };
	static const uint64_t	k[1] = { KADDR };
	static const uint64_t	kc[1] = { 4 };
	size_t			r;

	good(g, 8, 0);
	tw_patch(&g->t, g->off[O_VERSION], 2, 2);
	r = tw_rec(&g->t, 0xf0, 0, 0);
	*at = g->t.len;
	mapping(&g->t, 0, "/nonexistent/libm.so", LIB, a, c, 2);
	mapping(&g->t, 1, "[kernel.kallsyms]", KADDR, k, kc, 1);
	tw_end(&g->t, r);
}

/* Issue 23: a module's samples, stored by address, named when it can be. */
START_TEST(test_mapping)
{
	struct good	g;
	size_t		at, e;

	good_mapped(&g, &at);
	expect_load(&g, 2, "/nonexistent/libm.so: not read (cannot open it):"
	    " the module mapped at 0x7f0000100000 has addresses only");
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_module WHERE idx ="
	    " 0 AND lo = 139637977776128 AND hi = lo + 4096 AND pgoff = 4096"
	    " AND bias = lo - 4096 AND NOT kernel AND path ="
	    " '/nonexistent/libm.so' AND build_id = 'deadbeef' AND samples ="
	    " 12 AND symbols = 0 AND unresolved LIKE '%cannot open it%'"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_module WHERE idx ="
	    " 1 AND kernel AND samples = 4 AND unresolved IS NOT NULL"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM prfd_module_hit WHERE"
	    " (module = 0 AND addr = 139637977776144 AND hits = 5) OR (module"
	    " = 0 AND addr = 139637977776160 AND hits = 7) OR (module = 1 AND"
	    " addr = -2130706432 AND hits = 4)"), 3);
	/* The summary counts the library's samples, not the kernel's twice. */
	ck_assert_int_eq(count("SELECT count(*) FROM session WHERE summary ="
	    " 'pid 4242, 2 slots, 156 samples, counters of 16 bytes'"), 1);

	/* Each bad field. */
	e = at + 8;
	good_mapped(&g, &at);
	tw_patch(&g.t, at + 4, 42, 4);
	expect_fail(&g, at + 4, "len", "a MAPPING entry of 42 bytes");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 8, LIB - 1, 8);
	expect_fail(&g, e + 8, "hi", "0x7f00000fffff, below lo");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 40, 200, 1);
	expect_fail(&g, e + 40, "build-id length", "200 bytes and a path");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 41, 0, 2);
	expect_fail(&g, e + 41, "path length", "0: a mapping names its"
	    " module");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 36, 3, 4);
	expect_fail(&g, e + 36, "nsamples", "3 samples need 48 bytes, the"
	    " entry has 32");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 43 + 4 + 3, 0, 1);
	expect_fail(&g, e + 43 + 4, "path", "a NUL inside it");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 43 + 4 + 20 + 16, LIB + 0x10, 8);
	expect_fail(&g, e + 43 + 4 + 20 + 16, "address", "0x7f0000100010 after"
	    " 0x7f0000100010");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 43 + 4 + 20, LIB + 0x1000, 8);
	expect_fail(&g, e + 43 + 4 + 20, "address", "0x7f0000101000 outside");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 43 + 4 + 20 + 24, INT64_MAX, 8);
	expect_fail(&g, e + 43 + 4 + 20 + 24, "count", "the mapping's samples"
	    " add up past 2^63");
	/* Samples of the counters, slots and modules past 2^63 together. */
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 43 + 4 + 20 + 8, INT64_MAX - 20, 8);
	expect_fail(&g, e + 36, "nsamples", "the samples add up past 2^63");
	good_mapped(&g, &at);
	tw_patch(&g.t, e + 32, 1, 4);
	expect_fail(&g, g.t.len - (8 + 43 + 4 + 17 + 16) + 8 + 32, "flags",
	    "a second MAPPING entry of the kernel");
}
END_TEST

/* Every cut of a dump with modules: an error naming the offset, no rows. */
START_TEST(test_mapping_truncation)
{
	struct good	g;
	char		*cause;
	size_t		 cut, at;
	int64_t		 id;

	good_mapped(&g, &at);
	for (cut = g.off[O_END] + 1; cut < g.t.len; cut++) {
		ck_assert_msg(tu_ingest(st, NAME, g.t.p, cut, NULL, &id,
		    &cause) == -1, "cut %zu loaded", cut);
		ck_assert_msg(strncmp(cause, NAME ": offset ",
		    strlen(NAME ": offset ")) == 0, "cut %zu: %s", cut, cause);
		ck_assert_int_eq(rows(), 0);
		free(cause);
	}
	free(g.t.p);
}
END_TEST

/*
 * Every cut of the good dumps: at a record's start a shorter good dump
 * (once the process's record is in), anywhere else an error that names
 * the offset and a field, and no rows.
 */
static void
check_truncations(unsigned w, int ext)
{
	struct good	g;
	char		*cause;
	size_t		 cut, b;
	int64_t		 id;
	int		 boundary, rc;

	good(&g, w, ext);
	for (cut = 0; cut < g.t.len; cut++) {
		boundary = 0;
		for (b = 1; b < g.nbounds; b++)
			boundary |= g.bounds[b] == cut;
		rc = tu_ingest(st, NAME, g.t.p, cut, NULL, &id, &cause);
		/* Shorter than the magic: no reader takes it. */
		if (cut < 4) {
			ck_assert_int_eq(rc, -1);
			free(cause);
			continue;
		}
		if (boundary) {
			ck_assert_msg(rc == 0, "cut %zu: %s", cut, cause);
			ck_assert_int_eq(store_session_delete(st, id, &cause),
			    0);
			continue;
		}
		ck_assert_msg(rc == -1, "cut %zu loaded", cut);
		ck_assert_msg(cause != NULL && strncmp(cause, NAME ": offset ",
		    strlen(NAME ": offset ")) == 0, "cut %zu: %s", cut, cause);
		ck_assert_int_eq(rows(), 0);
		free(cause);
	}
	free(g.t.p);
}

START_TEST(test_truncation_8)
{
	check_truncations(8, 1);
}
END_TEST

START_TEST(test_truncation_4)
{
	check_truncations(4, 1);
}
END_TEST

/*
 * The model of a dump with modules: their samples among all (the
 * kernel's not twice), each address to its symbol or its module's rest.
 */
START_TEST(test_model_modules)
{
	struct good		 g;
	struct analyze_prfd	 m;
	char			*cause = NULL, *name;
	size_t			 at;

	good_mapped(&g, &at);
	expect_load(&g, 2, NULL);
	/* f covers the library's first sample, not its second. */
	ck_assert_int_eq(store_exec(st, "INSERT INTO symbol VALUES (1,"
	    " 'libm.so', 'f', 139637977776144, 16)", &cause), 0);
	ck_assert_int_eq(analyze_prfd_load(st, 1, &m, &cause), 0);
	ck_assert_uint_eq(m.nmods, 2);
	ck_assert_uint_eq(m.unresolved, 2);
	ck_assert_uint_eq(m.mods_total, 12);
	ck_assert_uint_eq(m.total, 144 + 12);
	ck_assert_uint_eq(m.run, 56);
	ck_assert_uint_eq(m.flat_total, 9 + 12 + 4);
	/* The modules' samples kept (pprof's locations), the kernel's 4. */
	ck_assert_uint_eq(m.nmh, 3);
	ck_assert_uint_eq(m.kernel_named, 4);
	ck_assert_uint_eq(analyze_prfd_mh_module(&m, 2), 1);
	/* The library's rest 7, slot 0's 6, f 5, the kernel's 4, slot 1's. */
	ck_assert_uint_eq(m.flat[0].hits, 7);
	ck_assert_uint_eq(m.flat[0].mod, 0);
	name = analyze_prfd_flat_name(&m, &m.flat[0]);
	ck_assert_str_eq(name, "(libm.so, outside symbols)");
	free(name);
	ck_assert_str_eq(analyze_prfd_flat_module(&m, &m.flat[0]), "libm.so");
	ck_assert_uint_eq(m.flat[1].hits, 6);
	ck_assert_uint_eq(m.flat[1].slot, 0);
	ck_assert_uint_eq(m.flat[2].hits, 5);
	ck_assert_str_eq(m.syms[m.flat[2].sym].name, "f");
	ck_assert_str_eq(analyze_prfd_flat_module(&m, &m.flat[2]), "libm.so");
	ck_assert_uint_eq(m.flat[3].hits, 4);
	ck_assert_uint_eq(m.flat[3].mod, 1);
	ck_assert_uint_eq(m.nflat, 5);
	ck_assert(fabs(analyze_prfd_pct(&m, 7) - 700.0 / 56) < 1e-9);
	analyze_prfd_free(&m);
}
END_TEST

/* The model: shares of every sample, the exact flat profile, a slot. */
START_TEST(test_model)
{
	struct good		 g;
	struct analyze_prfd	 m;
	struct analyze_hist	 h;
	char			*cause = NULL, *name;
	int64_t			 id;
	size_t			 i;
	double			 sum;

	good(&g, 8, 1);
	id = expect_load(&g, 0, NULL);
	/* Symbols by hand: a covers 0x401000-0x40100f, b 0x401030-3f. */
	ck_assert_int_eq(store_exec(st, "INSERT INTO symbol VALUES (1, 'prog',"
	    " 'a', 4198400, 16), (1, 'prog', 'b', 4198448, 16)", &cause), 0);
	ck_assert_int_eq(id, 1);
	ck_assert_int_eq(analyze_prfd_load(st, id, &m, &cause), 0);
	ck_assert_uint_eq(m.total, 100 + 20 + 10 + 5 + 6 + 3);
	ck_assert_uint_eq(m.hit_total, 9);
	/* Shares of the run time (all but idle 100), or of every period. */
	ck_assert_uint_eq(m.run, 44);
	ck_assert(fabs(analyze_prfd_pct(&m, 6) - 600.0 / 44) < 1e-9);
	m.all = 1;
	ck_assert(fabs(analyze_prfd_pct(&m, 6) - 600.0 / 144) < 1e-9);
	m.all = 0;
	/* a (3), slot 1 + 8 (3, higher), b (2), slot 0's rest (1). */
	ck_assert_uint_eq(m.nflat, 4);
	ck_assert_uint_eq(m.flat[0].hits, 3);
	ck_assert_str_eq(m.syms[m.flat[0].sym].name, "a");
	ck_assert_uint_eq(m.flat[1].hits, 3);
	ck_assert_uint_eq(m.flat[1].slot, 1);
	ck_assert_uint_eq(m.flat[1].sym, SIZE_MAX);
	name = analyze_prfd_flat_name(&m, &m.flat[1]);
	ck_assert_str_eq(name, "(slot 7F0000001000)");
	free(name);
	ck_assert_uint_eq(m.flat[2].hits, 2);
	ck_assert_str_eq(m.syms[m.flat[2].sym].name, "b");
	ck_assert_uint_eq(m.flat[3].hits, 1);
	name = analyze_prfd_flat_name(&m, &m.flat[3]);
	ck_assert_str_eq(name, "(slot 000000401000)");
	free(name);

	/* Slot 0's counters as a histogram: a 3, b 2, the rest 1. */
	ck_assert_int_eq(analyze_prfd_slot_hist(st, &m, 0, &h, &cause), 0);
	ck_assert_uint_eq(h.levels[0].n, 4);
	ck_assert_uint_eq(h.in_program, 6);
	/* Of the run time, all but idle's 100. */
	ck_assert_uint_eq(h.total, 44);
	ck_assert_uint_eq(h.nsyms, 2);
	ck_assert(fabs(h.syms[0].hits - 3) < 1e-9);
	ck_assert(h.syms[0].hits_lo == h.syms[0].hits_hi);
	ck_assert(fabs(h.syms[1].hits - 2) < 1e-9);
	ck_assert(fabs(h.unattributed - 1) < 1e-9);
	name = analyze_hist_segoff(&h, h.levels[0].b[1].lo);
	ck_assert_str_eq(name, "000000401010");
	free(name);
	sum = h.unattributed;
	for (i = 0; i < h.nsyms; i++)
		sum += h.syms[i].hits;
	ck_assert(fabs(sum - 6) < 1e-9);
	analyze_hist_free(&h);
	/* Slot 1 has counters; a slot without any says so. */
	m.slots[1].nbuckets = 0;
	ck_assert_int_eq(analyze_prfd_slot_hist(st, &m, 1, &h, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no detail counters"));
	free(cause);
	analyze_prfd_free(&m);
}
END_TEST

/* Every report format writes the session. */
START_TEST(test_report)
{
	struct good	 g;
	char		*cause = NULL, *buf = NULL;
	size_t		 len = 0;
	FILE		*f;
	int64_t		 id;
	int		 fmt;

	good(&g, 8, 1);
	id = expect_load(&g, 0, NULL);
	for (fmt = 0; fmt < REPORT_FORMATS; fmt++) {
		if (!report_tabular(fmt))
			continue;
		f = open_memstream(&buf, &len);
		ck_assert_int_eq(report_session(st, id, fmt, f, &cause), 0);
		fclose(f);
		ck_assert_ptr_nonnull(strstr(buf, "kernel"));
		ck_assert_ptr_nonnull(strstr(buf, "shrmem"));
		if (fmt == REPORT_TEXT) {
			/* 20 of 144 samples: 13.89 %. */
			ck_assert_ptr_nonnull(strstr(buf, "13.89"));
			ck_assert_ptr_nonnull(strstr(buf, "000000401000"));
		}
		free(buf);
		buf = NULL;
	}
}
END_TEST

/*
 * A kernel address is 2^63 or more, negative as SQLite keeps it: csv and
 * json write it as the address it is, as the text's hex does.
 */
START_TEST(test_report_kernel)
{
	static const int fmts[] = { REPORT_CSV, REPORT_JSON };
	struct good	 g;
	char		*cause = NULL, *buf = NULL;
	size_t		 at, len = 0, i;
	FILE		*f;
	int64_t		 id;

	good_mapped(&g, &at);
	id = expect_load(&g, 2, NULL);
	for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		f = open_memstream(&buf, &len);
		ck_assert_int_eq(report_session(st, id, fmts[i], f, &cause), 0);
		fclose(f);
		ck_assert_msg(strstr(buf, "18446744071578845184") != NULL,
		    "%s: no kernel address 0xffffffff81000000 in\n%s",
		    report_format_name(fmts[i]), buf);
		ck_assert_msg(strstr(buf, "-2130706432") == NULL,
		    "%s: the kernel address negative in\n%s",
		    report_format_name(fmts[i]), buf);
		free(buf);
		buf = NULL;
	}
}
END_TEST

static Suite *
prfd_suite(void)
{
	Suite	*s = suite_create("prfd");
	TCase	*tc = tcase_create("reader");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_good_8);
	tcase_add_test(tc, test_good_8_os2);
	tcase_add_test(tc, test_good_4);
	tcase_add_test(tc, test_good_4_ext);
	tcase_add_test(tc, test_os2_structures);
	tcase_add_test(tc, test_bad_header);
	tcase_add_test(tc, test_bad_global);
	tcase_add_test(tc, test_bad_slots);
	tcase_add_test(tc, test_bad_hits);
	tcase_add_test(tc, test_bad_detail);
	tcase_add_test(tc, test_bad_records);
	tcase_add_test(tc, test_bad_extension);
	tcase_add_test(tc, test_module_missing);
	tcase_add_test(tc, test_mapping);
	tcase_add_test(tc, test_mapping_truncation);
	tcase_add_test(tc, test_truncation_8);
	tcase_add_test(tc, test_truncation_4);
	tcase_add_test(tc, test_model);
	tcase_add_test(tc, test_model_modules);
	tcase_add_test(tc, test_report);
	tcase_add_test(tc, test_report_kernel);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(prfd_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
