/*
 * Fuzz the listing reader and the annotation over what it stored: the
 * input is written as P.LST beside P.COM (attr.asm's image) in a scratch
 * folder, a PRF of that program with a hit table is ingested from it,
 * and the whole program is annotated.  The rows must cover the range in
 * order, every stored line must sit in a row, and the rows' samples must
 * be the table's.  The session is dropped after each input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "ingest/ingest.h"
#include "kind.h"
#include "store/store.h"
#include "tests/fuzz/fuzz.h"

/* attr.com (tests/data/attr.asm), at 1000:0100. */
static const uint8_t	fuzz_com[53] = {
	0xe8, 0x13, 0x00, 0xb9, 0x64, 0x00, 0xe8, 0x12, 0x00, 0xe8, 0x1a,
	0x00, 0xe8, 0x23, 0x00, 0xe2, 0xf5, 0xb8, 0x00, 0x4c, 0xcd, 0x21,
	0x31, 0xc0, 0x89, 0xc3, 0xc3, 0xbb, 0x32, 0x00, 0x4b, 0x75, 0xfd,
	0xc3, 0xdb, 0x0f, 0x49, 0x40, 0xba, 0x03, 0x00, 0x4a, 0x75, 0xfd,
	0xc3, 0x55, 0x89, 0xe5, 0x5d, 0xc3, 0x90, 0x90, 0xc3
};

static void
fuzz_u16(uint8_t **p, uint16_t v)
{
	*(*p)++ = v & 0xff;
	*(*p)++ = v >> 8;
}

static void
fuzz_u32(uint8_t **p, uint32_t v)
{
	fuzz_u16(p, v & 0xffff);
	fuzz_u16(p, v >> 16);
}

/*
 * A PRF of the program: 4 one-paragraph buckets from 1000:0100 (PSP
 * 1000h, high 1014h), hits at four instruction starts and one byte
 * inside an instruction.
 */
static size_t
fuzz_prf(uint8_t *buf)
{
	static const uint16_t	ip[5] = { 0x100, 0x11e, 0x11f, 0x129, 0x11c };
	static const uint32_t	n[5] = { 1, 5000, 5000, 300, 7 };
	uint32_t		counts[20] = { 0 };
	uint8_t			*p = buf;
	size_t			i;

	for (i = 0; i < 5; i++)
		counts[(0x10000 + ip[i]) / 16 - 0x1000] += n[i];
	fuzz_u16(&p, 55);
	fuzz_u16(&p, 20);
	fuzz_u16(&p, 1);
	fuzz_u16(&p, 0x1000);
	fuzz_u16(&p, 0x1014);
	fuzz_u16(&p, 0x800);
	for (i = 0; i < 3; i++)
		fuzz_u16(&p, 0);
	for (i = 0; i < 20; i++)
		fuzz_u16(&p, (uint16_t)counts[i]);
	memcpy(p, "PV32", 4);
	p += 4;
	fuzz_u16(&p, 1);
	fuzz_u16(&p, 0);
	fuzz_u32(&p, 10308);
	for (i = 0; i < 3; i++)
		fuzz_u32(&p, 0);
	for (i = 0; i < 20; i++)
		fuzz_u32(&p, counts[i]);
	memcpy(p, "HITS", 4);
	p += 4;
	fuzz_u32(&p, 12 + 8 * 5);
	fuzz_u16(&p, 1);
	fuzz_u16(&p, 0);
	fuzz_u16(&p, 5);
	fuzz_u16(&p, 5);
	fuzz_u32(&p, 0);
	for (i = 0; i < 5; i++) {
		fuzz_u16(&p, ip[i]);
		fuzz_u16(&p, 0x1000);
		fuzz_u32(&p, n[i]);
	}
	return ((size_t)(p - buf));
}

static void
fuzz_write(const char *path, const void *data, size_t size)
{
	FILE	*f;

	if ((f = fopen(path, "wb")) == NULL ||
	    (size != 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
}

/* The annotation's invariants over the program's range. */
static void
fuzz_check(struct store *st, int64_t id)
{
	struct analyze_hist	 h;
	struct analyze_annotate	 a;
	char			*cause = NULL;
	uint64_t		 sum = 0, at = 0x10100;
	size_t			 i, k, r;

	if (analyze_hist_load(st, id, &h, &cause) != 0 ||
	    analyze_annotate_load(st, &h, 0x10100, 0x10140, &a, &cause) != 0)
		abort();
	for (i = 0; i < a.ninsn; i++) {
		/* In order, none missing (a piece's last may run over). */
		if (a.insn[i].addr > at || a.insn[i].len == 0)
			abort();
		at = a.insn[i].addr + a.insn[i].len;
		sum += a.insn[i].hits;
		for (k = a.insn[i].src; k < a.insn[i].src + a.insn[i].nsrc;
		    k++) {
			r = analyze_annotate_row(&a, a.src[k].addr);
			if (k >= a.nsrc || r != i)
				abort();
		}
	}
	if (at < 0x10140 || sum != a.hits || a.hits != 10308)
		abort();
	analyze_annotate_free(&a);
	analyze_hist_free(&h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store	*st;
	static char		 dir[64];
	struct ingest_opts	 opts = { 0 };
	uint8_t			 prf[512];
	char			 path[96], *cause = NULL;
	const char		*kind;
	int64_t			 id;
	int			 reused;
	size_t			 len;

	if (st == NULL) {
		snprintf(dir, sizeof dir, "%s/pvfuzzXXXXXX", P_tmpdir);
		if (mkdtemp(dir) == NULL ||
		    (st = store_open(":memory:", 0, kind_store(),
		        &cause)) == NULL)
			abort();
		snprintf(path, sizeof path, "%s/P.COM", dir);
		fuzz_write(path, fuzz_com, sizeof fuzz_com);
	}
	snprintf(path, sizeof path, "%s/P.LST", dir);
	fuzz_write(path, data, size);
	len = fuzz_prf(prf);
	snprintf(path, sizeof path, "%s/P.PRF", dir);
	if (ingest_bytes(st, path, prf, len, &opts, &id, &kind, &reused,
	    &cause) != 0)
		abort();	/* a listing never fails a file found by name */
	fuzz_check(st, id);
	if (store_session_delete(st, id, &cause) != 0)
		abort();
	return (0);
}
