/*
 * Linker maps: one sample of each flavour (and a map NASM wrote at build
 * time), leniency about line ends and ^Z, every bad line, and the DOS
 * relocation rule when the symbols are attached to a PRF session.
 */
#include <sys/stat.h>

#include "tests/unit/testutil.h"

/* The text of a file, in a buffer exactly as long (no NUL after it). */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f;
	char	*buf;
	long	 n;

	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n > 0 ? (size_t)n : 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return (buf);
}

static void
parse_path(const char *path, struct ingest_map *map)
{
	char	*text, *cause = NULL;
	size_t	 len;

	text = slurp(path, &len);
	ck_assert_msg(ingest_map_parse(text, len, path, map, &cause) == 0,
	    "%s", cause);
	free(text);
}

static const struct ingest_sym *
find(const struct ingest_map *map, const char *name)
{
	size_t	i;

	for (i = 0; i < map->nsyms; i++) {
		if (strcmp(map->syms[i].name, name) == 0)
			return (&map->syms[i]);
	}
	ck_abort_msg("no symbol %s", name);
	return (NULL);
}

static void
check_sym(const struct ingest_map *map, const char *name, const char *module,
    uint32_t seg, uint32_t off)
{
	const struct ingest_sym	*s = find(map, name);

	if (module == NULL)
		ck_assert_msg(s->module == NULL, "%s: module %s", name,
		    s->module);
	else
		ck_assert_msg(s->module != NULL && strcmp(s->module, module) ==
		    0, "%s: module %s, want %s", name, s->module, module);
	ck_assert_msg(s->seg == seg && s->off == off, "%s: %04x:%04x, want"
	    " %04x:%04x", name, s->seg, s->off, seg, off);
	ck_assert_int_eq(s->size, 0);
}

START_TEST(test_link)
{
	struct ingest_map	map;

	parse_path(TEST_DATA "/link.map", &map);
	ck_assert_int_eq(map.flavour, INGEST_MAP_LINK);
	ck_assert_int_eq(map.com, 0);
	/* By value wins over by name; "Abs" values are not addresses. */
	ck_assert_int_eq(map.nsyms, 4);
	ck_assert_str_eq(map.syms[0].name, "_main");
	check_sym(&map, "_main", "_TEXT", 0, 0x10);
	check_sym(&map, "_busy", "_TEXT", 0, 0x80);
	check_sym(&map, "_calc", "CALC_TEXT", 0x13, 0);
	check_sym(&map, "_counter", "_DATA", 0x15, 4);
	ingest_map_free(&map);
}
END_TEST

START_TEST(test_tlink_by_name)
{
	struct ingest_map	map;

	parse_path(TEST_DATA "/tlink.map", &map);
	ck_assert_int_eq(map.flavour, INGEST_MAP_LINK);
	ck_assert_int_eq(map.nsyms, 3);
	check_sym(&map, "START", "_TEXT", 0, 0);
	check_sym(&map, "WORK", "_TEXT", 0, 0x12);
	check_sym(&map, "TOTAL", "_DATA", 3, 2);
	ingest_map_free(&map);
}
END_TEST

START_TEST(test_tp)
{
	struct ingest_map	map;

	parse_path(TEST_DATA "/ovrdemo.map", &map);
	ck_assert_int_eq(map.flavour, INGEST_MAP_TP);
	ck_assert_int_eq(map.com, 0);
	ck_assert_int_eq(map.nsyms, 10);
	/* A unit's main block is UNIT.@; the unit is its CODE segment. */
	check_sym(&map, "OVRDEMO.@", "OVRDEMO", 0, 0);
	check_sym(&map, "Write1", "OVRDEMO1", 5, 0);
	check_sym(&map, "OVRDEMO1.@", "OVRDEMO1", 5, 0xa0);
	check_sym(&map, "OVRDEMO2.@", "OVRDEMO2", 0x10, 0x70);
	check_sym(&map, "OvrInit", "Overlay", 0x19, 0);
	check_sym(&map, "System.@", "System", 0x37, 0);
	/* DATA is a segment, not a unit. */
	check_sym(&map, "OvrResult", NULL, 0xc9, 2);
	ingest_map_free(&map);
}
END_TEST

START_TEST(test_nasm_hand)
{
	struct ingest_map	map;

	parse_path(TEST_DATA "/nasm_hand.map", &map);
	ck_assert_int_eq(map.flavour, INGEST_MAP_NASM);
	ck_assert_int_eq(map.com, 1);
	/* "No Section" constants are not addresses. */
	ck_assert_int_eq(map.nsyms, 6);
	check_sym(&map, "start", ".text", 0, 0x100);
	check_sym(&map, "compute.inner", ".text", 0, 0x118);
	check_sym(&map, "table", ".data", 0, 0x140);
	/* The CPU runs it at its virtual address. */
	check_sym(&map, "resident", ".ovl", 0, 0x8000);
	ingest_map_free(&map);
}
END_TEST

START_TEST(test_nasm_origin_zero)
{
	static const char	 text[] = "- NASM Map file ---\n\n"
	    "-- Program origin ---\n\n00000000\n\n-- Symbols ---\n\n"
	    "---- Section .text ---\n\nReal  Virtual  Name\n"
	    "   10   10  entry\n";
	struct ingest_map	 map;
	char			*cause = NULL;

	ck_assert_int_eq(ingest_map_parse(text, sizeof text - 1, "t.map", &map,
	    &cause), 0);
	ck_assert_int_eq(map.com, 0);
	ck_assert_int_eq(map.nsyms, 1);
	ingest_map_free(&map);
}
END_TEST

#ifdef HAVE_NASM_MAP
START_TEST(test_nasm_real)
{
	struct ingest_map	map;

	parse_path(TEST_BUILD_DATA "/nasmgen.map", &map);
	ck_assert_int_eq(map.flavour, INGEST_MAP_NASM);
	ck_assert_int_eq(map.com, 1);
	ck_assert_int_eq(map.nsyms, 4);
	/* nasmgen.asm pads work to 20h past org 100h; .data aligns to 16. */
	check_sym(&map, "start", ".text", 0, 0x100);
	check_sym(&map, "work", ".text", 0, 0x120);
	check_sym(&map, "work.spin", ".text", 0, 0x123);
	check_sym(&map, "msg", ".data", 0, 0x130);
	ingest_map_free(&map);
}
END_TEST
#endif

/* The same symbols, in the same order, from both maps. */
static void
same_map(const struct ingest_map *a, const struct ingest_map *b)
{
	size_t	i;

	ck_assert_int_eq(a->flavour, b->flavour);
	ck_assert_int_eq(a->com, b->com);
	ck_assert_int_eq(a->nsyms, b->nsyms);
	for (i = 0; i < a->nsyms; i++) {
		ck_assert_str_eq(a->syms[i].name, b->syms[i].name);
		ck_assert_int_eq(a->syms[i].seg, b->syms[i].seg);
		ck_assert_int_eq(a->syms[i].off, b->syms[i].off);
		ck_assert_int_eq(a->syms[i].module == NULL,
		    b->syms[i].module == NULL);
		if (a->syms[i].module != NULL)
			ck_assert_str_eq(a->syms[i].module, b->syms[i].module);
	}
}

/* CRLF, trailing blanks, extra blank lines and ^Z with junk after it. */
START_TEST(test_lenient)
{
	static const char	*files[] = { "link.map", "tlink.map",
	    "ovrdemo.map", "nasm_hand.map" };
	struct ingest_map	 plain, dos;
	char			*text, *out, *cause = NULL, path[512];
	size_t			 len, i, n;

	snprintf(path, sizeof path, "%s/%s", TEST_DATA, files[_i]);
	parse_path(path, &plain);
	text = slurp(path, &len);
	out = malloc(len * 4 + 32);
	n = 0;
	out[n++] = '\r';
	out[n++] = '\n';
	for (i = 0; i < len; i++) {
		if (text[i] == '\n') {
			out[n++] = ' ';
			out[n++] = '\t';
			out[n++] = '\r';
		}
		out[n++] = text[i];
	}
	memcpy(out + n, "\032garbage 0000:\n", 15);
	n += 15;
	ck_assert_msg(ingest_map_parse(out, n, path, &dos, &cause) == 0, "%s",
	    cause);
	same_map(&plain, &dos);
	ingest_map_free(&plain);
	ingest_map_free(&dos);
	free(text);
	free(out);
}
END_TEST

/* One bad line in an otherwise good map: the line and field are named. */
static const struct {
	const char	*text;
	int		 line;
	const char	*field;
} bad[] = {
	{ " Start Stop Length Name Class\n 00000H 0001FH\n", 2, "segment" },
	{ " Start Stop Length Name Class\n 0000G 0001FH 00020H _TEXT CODE\n",
	    2, "start" },
	{ " Start Stop Length Name Class\n 00000H 0001F 00020H _TEXT CODE\n",
	    2, "stop" },
	{ " Start Stop Length Name Class\n 00000H 0001FH 0002XH _TEXT CODE\n",
	    2, "length" },
	{ " Start Stop Length Name Class\n 00020H 0001FH 00020H _TEXT CODE\n",
	    2, "stop" },
	{ " Start Stop Length Name Class\n 100000H 10001FH 00020H _TEXT CODE\n",
	    2, "start" },
	{ " Start Stop Length Name Class\n 00000H 0001FH 00020H _TEXT CODE"
	    " X Y Z\n", 2, "segment" },
	{ "\n  Address   Publics by Value\n\n 0000:0010  _main\n 0000-0020"
	    "  _busy\n", 5, "address" },
	{ "  Address   Publics by Value\n 10000:0010  _main\n", 2, "address" },
	{ "  Address   Publics by Value\n 0000:10000  _main\n", 2, "address" },
	{ "  Address   Publics by Value\n 0000:0010\n", 2, "public" },
	{ "  Address   Publics by Value\n 0000:0010  _main extra\n", 2,
	    "name" },
	{ "  Address   Publics by Value\n 0000:0010  a b c\n", 2, "public" },
	{ "  Address   Publics by Name\n 0000:0010  \001x\n", 2, "name" },
	/* A bidi override (U+202E) and a C1 control (U+009B, CSI). */
	{ "  Address   Publics by Name\n 0000:0010  a\342\200\256b\n", 2,
	    "name" },
	{ " Start Stop Length Name Class\n 00000H 0001FH 00020H \302\233x"
	    " CODE\n", 2, "name" },
	{ " Origin   Group\n 0015   DGROUP\n", 2, "group" },
	{ " Start Stop Length Name Class\n 00000H 0001FH 00020H _TEXT CODE\n"
	    "\nProgram entry point at nowhere\n", 4, "entry" },
	{ "Line numbers for x.obj(X.ASM) segment _TEXT\n\n 10 0000:0000 11\n",
	    3, "line" },
	{ "Line numbers for x.obj(X.ASM) segment _TEXT\n\n 1x 0000:0000\n",
	    3, "line" },
	{ "Line numbers for x.obj(X.ASM) segment _TEXT\n\n 10 0000:00000\n",
	    3, "address" },
	{ "Detailed map of segments\n\n 0000:0000 00Z0 C=CODE\n", 3,
	    "segment" },
	{ "just some text\nthat is not a map\n", 2, "map" },
	{ "", 0, "map" },
	{ "- NASM Map file ---\n\n-- Program origin ---\n\n0x100\n", 5,
	    "origin" },
	{ "- NASM Map file ---\n\n-- Sections (summary) ---\n\n"
	    "Vstart Start Stop Length Class Name\n  100 100 10E 0000000E"
	    " progbits\n", 6, "section" },
	{ "- NASM Map file ---\n-- Symbols ---\n---- Section .text ---\n"
	    "Real Virtual Name\n 100 100\n", 5, "symbol" },
	{ "- NASM Map file ---\n-- Symbols ---\n---- Section .text ---\n"
	    "Real Virtual Name\n 10G 100 start\n", 5, "real" },
	{ "- NASM Map file ---\n-- Symbols ---\n---- Section .text ---\n"
	    "Real Virtual Name\n 100 100000000 start\n", 5, "virtual" },
	{ "- NASM Map file ---\n-- Symbols ---\n---- Section .text ---\n"
	    "Real Virtual Name\n 100 100 start\nsomething else\n", 6,
	    "symbol" },
	{ "- NASM Map file ---\n-- Symbols ---\nstray line\n", 3, "symbols" },
	{ "- NASM Map file ---\n-- Symbols ---\n---- Section .text x\n", 3,
	    "section" },
	{ "- NASM Map file ---\n-- Symbols ---\nReal Virtual Name\n", 3,
	    "section" },
	{ "- NASM Map file ---\n-- Symbols ---\n---- No Section ---\n"
	    "Value Name\nZZ K\n", 5, "value" },
};

START_TEST(test_bad_line)
{
	struct ingest_map	 map;
	char			*text, *cause = NULL, want[128];
	size_t			 len = strlen(bad[_i].text);

	/* Exactly as long as the text, so a read past it is caught. */
	text = malloc(len + 1);
	memcpy(text, bad[_i].text, len);
	ck_assert_int_eq(ingest_map_parse(text, len, "t.map", &map, &cause),
	    -1);
	ck_assert_ptr_nonnull(cause);
	snprintf(want, sizeof want, "t.map: line %d: %s: ", bad[_i].line,
	    bad[_i].field);
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0,
	    "case %d: got \"%s\", want \"%s...\"", _i, cause, want);
	ck_assert_ptr_null(map.syms);
	free(cause);
	free(text);
}
END_TEST

/* A PRF for a program at psp..psp+0x40 with one bucket per paragraph. */
static uint8_t *
prf_at(uint16_t psp, size_t *len)
{
	static uint16_t	 h16[0x40];
	struct tu_prf	 f;

	memset(&f, 0, sizeof f);
	f.w[0] = 55; f.w[1] = 0x40; f.w[2] = 1; f.w[3] = psp;
	f.w[4] = psp + 0x40; f.w[5] = 0x100;
	f.h16 = h16;
	return (tu_prf_bytes(&f, len));
}

static int64_t
sym_addr(struct store *st, const char *name)
{
	char	sql[128];

	snprintf(sql, sizeof sql, "SELECT addr FROM symbol WHERE name = '%s'",
	    name);
	return (tu_count(st, sql));
}

static int64_t
sym_size(struct store *st, const char *name)
{
	char	sql[128];

	snprintf(sql, sizeof sql, "SELECT size FROM symbol WHERE name = '%s'",
	    name);
	return (tu_count(st, sql));
}

START_TEST(test_relocate_com)
{
	struct ingest_opts	 o = { .options = {
	    { "map", TEST_DATA "/nasm_hand.map" } },
	    .noptions = 1 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	int64_t			 id;
	char			*cause;

	buf = prf_at(0x1000, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o, &id,
	    &cause) == 0, "%s", cause);
	/* COM: PSP:0000 is the origin and the offsets carry the 100h. */
	ck_assert_int_eq(sym_addr(st, "start"), 0x10100);
	ck_assert_int_eq(sym_size(st, "start"), 0x10);
	ck_assert_int_eq(sym_addr(st, "compute.inner"), 0x10118);
	ck_assert_int_eq(sym_size(st, "compute.inner"), 0x18);
	/*
	 * A symbol stops at its section's end: finish at .text's (140h),
	 * table at .data's (150h), not at the image's end (10400h) nor at
	 * resident.
	 */
	ck_assert_int_eq(sym_size(st, "finish"), 0x10);
	ck_assert_int_eq(sym_size(st, "table"), 0x10);
	ck_assert_int_eq(sym_addr(st, "resident"), 0x18000);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM symbol WHERE"
	    " module = '.data'"), 1);
	/* resident lies outside the program: one warning says so. */
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE '%1 of 6 symbols lie outside the program (COM%'"),
	    1);
	store_close(st);
	free(buf);
}
END_TEST

START_TEST(test_relocate_exe)
{
	struct ingest_opts	 o = { .options = {
	    { "map", TEST_DATA "/link.map" } },
	    .noptions = 1 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	int64_t			 id;
	char			*cause;

	buf = prf_at(0x2000, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o, &id,
	    &cause) == 0, "%s", cause);
	/* EXE: the image starts at PSP+10h:0000. */
	ck_assert_int_eq(sym_addr(st, "_main"), 0x20100 + 0x10);
	ck_assert_int_eq(sym_size(st, "_main"), 0x70);
	ck_assert_int_eq(sym_addr(st, "_calc"), 0x20100 + 0x130);
	ck_assert_int_eq(sym_addr(st, "_counter"), 0x20100 + 0x154);
	/* Each stops at its segment's Stop: _busy at _TEXT's 12Fh. */
	ck_assert_int_eq(sym_size(st, "_busy"), 0x130 - 0x80);
	ck_assert_int_eq(sym_size(st, "_calc"), 0x20);
	ck_assert_int_eq(sym_size(st, "_counter"), 0x160 - 0x154);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM symbol WHERE"
	    " module = '_TEXT'"), 2);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning"), 0);
	store_close(st);
	free(buf);
}
END_TEST

START_TEST(test_load_override)
{
	struct ingest_opts	 o = { .options = {
	    { "map", TEST_DATA "/nasm_hand.map" },
	    { "load", "exe" } },
	    .noptions = 2 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	int64_t			 id;
	char			*cause;

	buf = prf_at(0x1000, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o, &id,
	    &cause) == 0, "%s", cause);
	/* --load exe puts the NASM offsets at PSP+10h:offset. */
	ck_assert_int_eq(sym_addr(st, "start"), 0x10100 + 0x100);
	store_close(st);
	free(buf);
}
END_TEST

START_TEST(test_given_map_must_be_good)
{
	static const char	 text[] = "  Address   Publics by Value\n"
	    " 0000:0010  _main\n 00x0:0020  _busy\n";
	struct ingest_opts	 o = { 0 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	int64_t			 id;
	char			*cause, want[128];

	ingest_opts_set(&o, "map", tu_tmpfile(".map", text, sizeof text - 1));
	buf = prf_at(0x1000, &len);
	ck_assert_int_eq(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o,
	    &id, &cause), -1);
	snprintf(want, sizeof want, "%s: line 3: address: ",
	    ingest_opts_get(&o, "map"));
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0, "%s", cause);
	/* The buckets were in before the map failed: all rolled back. */
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	unlink(ingest_opts_get(&o, "map"));

	ingest_opts_set(&o, "map", "/nonexistent/t.map");
	ck_assert_int_eq(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o,
	    &id, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "/nonexistent/t.map"));
	ck_assert_int_eq(tu_rows(st), 0);
	free(cause);
	store_close(st);
	free(buf);
}
END_TEST

START_TEST(test_nearby_map)
{
	static const char	 good[] = "  Address   Publics by Value\n"
	    " 0000:0010  _main\n";
	static const char	 badmap[] = "  Address   Publics by Value\n"
	    " 0000:0010  _main junk\n";
	struct store		*st;
	char			 dir[] = "/tmp/pvmapXXXXXX", prf[64], map[64];
	uint8_t			*buf;
	size_t			 len;
	int64_t			 id;
	char			*cause;
	FILE			*f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(prf, sizeof prf, "%s/PROG.PRF", dir);
	snprintf(map, sizeof map, "%s/prog.map", dir);
	buf = prf_at(0x1000, &len);

	/* FOO.PRF finds foo.map. */
	f = fopen(map, "w");
	fputs(good, f);
	fclose(f);
	st = tu_store();
	ck_assert_msg(tu_ingest(st, prf, buf, len, NULL, &id, &cause) == 0,
	    "%s", cause);
	ck_assert_int_eq(sym_addr(st, "_main"), 0x10100 + 0x10);
	store_close(st);

	/* A bad map found by name only earns a warning. */
	f = fopen(map, "w");
	fputs(badmap, f);
	fclose(f);
	st = tu_store();
	ck_assert_msg(tu_ingest(st, prf, buf, len, NULL, &id, &cause) == 0,
	    "%s", cause);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM symbol"), 0);
	ck_assert_int_eq(tu_count(st, "SELECT count(*) FROM warning WHERE"
	    " message LIKE 'map ignored: %prog.map: line 2: name: %'"), 1);
	store_close(st);

	unlink(map);
	rmdir(dir);
	free(buf);
}
END_TEST

START_TEST(test_map_find_cases)
{
	char	 dir[] = "/tmp/pvmapXXXXXX", path[80], *found;
	FILE	*f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/x.prf", dir);
	ck_assert_ptr_null(ingest_map_find(path));
	snprintf(path, sizeof path, "%s/X.MAP", dir);
	f = fopen(path, "w");
	fclose(f);
	snprintf(path, sizeof path, "%s/x.prf", dir);
	found = ingest_map_find(path);
	ck_assert_ptr_nonnull(found);
	ck_assert_ptr_nonnull(strstr(found, "/X.MAP"));
	free(found);
	snprintf(path, sizeof path, "%s/X.MAP", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * A LINK map of ten 100h-byte segments S0..S9 (S5 empty), with one public
 * 10h into each and one past them all; first, when not 0, is a segment
 * covering 0..FFFh put first (1) or last (2) in the table.
 */
static char *
many_segments(int big, size_t *len)
{
	char	*t, *p;
	int	 i;

	p = t = malloc(4096);
	p += sprintf(p, " Start  Stop   Length Name   Class\n\n");
	if (big == 1)
		p += sprintf(p, " 00000H 00FFFH 01000H ALL    CODE\n");
	for (i = 0; i < 10; i++)
		p += sprintf(p, " %05XH %05XH %05XH S%d     CODE\n", i * 0x100,
		    i * 0x100 + 0xff, i == 5 ? 0 : 0x100, i);
	if (big == 2)
		p += sprintf(p, " 00000H 00FFFH 01000H ALL    CODE\n");
	p += sprintf(p, "\n  Address         Publics by Value\n\n");
	for (i = 0; i < 11; i++)
		p += sprintf(p, " %04X:0010       P%d\n", i * 0x10, i);
	*len = (size_t)(p - t);
	return (t);
}

/* Segments found by bisection (disjoint) or in table order (overlap). */
START_TEST(test_many_segments)
{
	struct ingest_map	 map;
	char			*text, *cause = NULL, name[8], mod[8];
	size_t			 len;
	int			 i;

	for (int big = 0; big < 3; big++) {
		text = many_segments(big, &len);
		ck_assert_msg(ingest_map_parse(text, len, "t.map", &map,
		    &cause) == 0, "%s", cause);
		ck_assert_int_eq(map.nsyms, 11);
		for (i = 0; i < 11; i++) {
			snprintf(name, sizeof name, "P%d", i);
			snprintf(mod, sizeof mod, "S%d", i);
			if (big == 1)
				check_sym(&map, name, "ALL", i * 0x10, 0x10);
			else if (i == 5 || i == 10)
				check_sym(&map, name, big == 2 ? "ALL" : NULL,
				    i * 0x10, 0x10);
			else
				check_sym(&map, name, mod, i * 0x10, 0x10);
		}
		ingest_map_free(&map);
		free(text);
	}
}
END_TEST

/*
 * Many overlapping segments and many publics (more than a scan should
 * take: the owners are painted) against the definition: the first
 * segment in table order, of length not 0, whose Start..Stop holds the
 * address.  Segments near 1 MiB and publics past it included.
 */
START_TEST(test_overlap_brute)
{
	struct ingest_map	 map;
	uint32_t		 start[400], stop[400], len[400], a;
	char			*text, *p, *cause = NULL, mod[16];
	size_t			 i, k, n = 400, npub = 6000;
	const char		*want;

	srandom(12345);
	p = text = malloc(200 * (n + npub));
	p += sprintf(p, " Start  Stop   Length Name   Class\n\n");
	for (i = 0; i < n; i++) {
		start[i] = (uint32_t)random() % 0x100000;
		len[i] = i % 13 == 0 ? 0 : (uint32_t)random() % 0x3000 + 1;
		stop[i] = start[i] + (len[i] != 0 ? len[i] - 1 : 0);
		if (stop[i] > 0xfffff)
			stop[i] = 0xfffff;
		p += sprintf(p, " %05XH %05XH %05XH S%zu CODE\n", start[i],
		    stop[i], len[i], i);
	}
	p += sprintf(p, "\n  Address         Publics by Value\n\n");
	for (k = 0; k < npub; k++)
		p += sprintf(p, " %04X:%04X       P%zu\n",
		    (unsigned)(random() % 0x10000),
		    (unsigned)(random() % 0x10000), k);
	ck_assert_msg(ingest_map_parse(text, (size_t)(p - text), "t.map",
	    &map, &cause) == 0, "%s", cause);
	ck_assert_uint_eq(map.nsyms, npub);
	ck_assert_uint_eq(map.nsegs, n);
	for (k = 0; k < npub; k++) {
		a = map.syms[k].seg * 16 + map.syms[k].off;
		want = NULL;
		for (i = 0; i < n && want == NULL; i++) {
			if (len[i] != 0 && a >= start[i] && a <= stop[i]) {
				snprintf(mod, sizeof mod, "S%zu", i);
				want = mod;
			}
		}
		if (want == NULL)
			ck_assert_ptr_null(map.syms[k].module);
		else
			ck_assert_msg(map.syms[k].module != NULL &&
			    strcmp(map.syms[k].module, want) == 0,
			    "P%zu at %05X: %s, not %s", k, a,
			    map.syms[k].module, want);
	}
	ingest_map_free(&map);
	free(text);
}
END_TEST

/* The segment table stays with the map, in table order. */
START_TEST(test_segments_kept)
{
	static const char	 text[] = " Start  Stop   Length Name Class\n\n"
	    " 00000H 0004FH 00050H MAIN CODE\n"
	    " 00400H 0042FH 00030H UNIT1 CODE\n"
	    " 00500H 0057FH 00080H DATA DATA\n"
	    " 00580H 00580H 00000H HEAP HEAP\n";
	struct ingest_map	 map;
	char			*cause = NULL;

	ck_assert_msg(ingest_map_parse(text, sizeof text - 1, "gs.map", &map,
	    &cause) == 0, "%s", cause);
	ck_assert_int_eq(map.flavour, INGEST_MAP_TP);
	ck_assert_uint_eq(map.nsyms, 0);
	ck_assert_uint_eq(map.nsegs, 4);
	ck_assert_str_eq(map.segs[1].name, "UNIT1");
	ck_assert_str_eq(map.segs[1].class, "CODE");
	ck_assert_uint_eq(map.segs[1].start, 0x400);
	ck_assert_uint_eq(map.segs[1].stop, 0x42f);
	ck_assert_uint_eq(map.segs[3].length, 0);
	ingest_map_free(&map);
}
END_TEST

/*
 * Publics by name come out of address order: sizes follow the sorted
 * addresses, and of two aliases only the later in the map gets one.
 */
START_TEST(test_relocate_unsorted)
{
	static const char	 text[] = "  Address   Publics by Name\n\n"
	    " 0000:0020  _b\n 0000:0010  _a1\n 0000:0030  _c\n"
	    " 0000:0010  _a2\n";
	struct ingest_opts	 o = { .options = { { "load", "exe" } },
	    .noptions = 1 };
	struct store		*st = tu_store();
	uint8_t			*buf;
	size_t			 len;
	int64_t			 id;
	char			*cause;

	ingest_opts_set(&o, "map", tu_tmpfile(".map", text, sizeof text - 1));
	buf = prf_at(0x2000, &len);
	ck_assert_msg(tu_ingest(st, "/nonexistent/t.prf", buf, len, &o, &id,
	    &cause) == 0, "%s", cause);
	ck_assert_int_eq(sym_addr(st, "_a1"), 0x20110);
	ck_assert_int_eq(sym_size(st, "_a1"), 0);
	ck_assert_int_eq(sym_size(st, "_a2"), 0x10);
	ck_assert_int_eq(sym_size(st, "_b"), 0x10);
	/* The image ends at PSP + 40h paragraphs. */
	ck_assert_int_eq(sym_size(st, "_c"), 0x20400 - 0x20130);
	/* Stored in address order, aliases in map order. */
	ck_assert_int_eq(tu_count(st, "SELECT group_concat(name, ' ') = "
	    "'_a1 _a2 _b _c' FROM (SELECT name FROM symbol ORDER BY rowid)"),
	    1);
	unlink(ingest_opts_get(&o, "map"));
	store_close(st);
	free(buf);
}
END_TEST

static Suite *
map_suite(void)
{
	Suite	*s = suite_create("map");
	TCase	*tc = tcase_create("parse");
	TCase	*tb = tcase_create("bad");
	TCase	*tr = tcase_create("relocate");

	tcase_add_test(tc, test_link);
	tcase_add_test(tc, test_tlink_by_name);
	tcase_add_test(tc, test_tp);
	tcase_add_test(tc, test_nasm_hand);
	tcase_add_test(tc, test_nasm_origin_zero);
#ifdef HAVE_NASM_MAP
	tcase_add_test(tc, test_nasm_real);
#endif
	tcase_add_loop_test(tc, test_lenient, 0, 4);
	tcase_add_test(tc, test_many_segments);
	tcase_add_test(tc, test_overlap_brute);
	tcase_add_test(tc, test_segments_kept);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tb, test_bad_line, 0,
	    (int)(sizeof bad / sizeof bad[0]));
	suite_add_tcase(s, tb);
	tcase_add_test(tr, test_relocate_com);
	tcase_add_test(tr, test_relocate_exe);
	tcase_add_test(tr, test_load_override);
	tcase_add_test(tr, test_given_map_must_be_good);
	tcase_add_test(tr, test_nearby_map);
	tcase_add_test(tr, test_map_find_cases);
	tcase_add_test(tr, test_relocate_unsorted);
	suite_add_tcase(s, tr);
	return (s);
}

int
main(void)
{
	SRunner	*sr = srunner_create(map_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
