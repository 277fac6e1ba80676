/*
 * The pvheap snapshot format, version 2: what libpvheap.so writes and
 * ingest/heap.c reads, as it reads version 1.  profview-formats(5),
 * HEAP FILES, is the authority; this header only names its numbers so
 * the writer and the reader cannot disagree.
 *
 * A file is a 32-byte header, a table of sections, and the sections.
 * Every section is an array of fixed-size little-endian records (the
 * string table, the contents and BLKV are arrays of bytes), so a reader checks
 * one count against one size and then indexes the file in place: a
 * million blocks and four million edges are a few mapped arrays, not a
 * parse.  A section's record may be longer than this version's (a later
 * minor version appends fields); a reader uses the fields it knows.
 *
 * Version 2 packs the blocks and their pointers, most of a snapshot,
 * into one section of bytes, BLKV, in place of BLKS and EDGS: a block's
 * fields as varints, most of them differences from the block before
 * (a million 48-byte blocks with three million pointers: 112 bytes a
 * block as BLKS and EDGS, 23 packed).  A reader reads it, and version
 * 1's BLKS and EDGS alike, into an array per field with the pointers by
 * source block (ingest/heap.h), never into version 1's records.
 */
#ifndef HEAPFMT_H
#define HEAPFMT_H

/* "\x89PVHEAP\n": the high byte and the newline catch text-mode damage. */
#define HEAPFMT_MAGIC		"\x89PVHEAP\n"
#define HEAPFMT_MAGIC_LEN	8
#define HEAPFMT_MAJOR		2
#define HEAPFMT_MINOR		0
#define HEAPFMT_MAJOR_MIN	1	/* the oldest a reader reads */

/*
 * Header: magic[8], u16 major, u16 minor, u32 nsections, u64 file_size,
 * u32 header_size (32), u32 flags (0).  The section table follows at
 * header_size: nsections entries of tag[4], u32 record_size, u64 offset,
 * u64 count.
 */
#define HEAPFMT_HEADER		32
#define HEAPFMT_SECTION		24

/* Sections, by tag.  Offsets are multiples of 8. */
#define HEAPFMT_INFO	"INFO"	/* one record: the process and the moment */
#define HEAPFMT_STRS	"STRS"	/* string table: NUL-ended UTF-8 bytes */
#define HEAPFMT_CNTR	"CNTR"	/* named counters */
#define HEAPFMT_MODS	"MODS"	/* loaded (and unloaded) modules */
#define HEAPFMT_IMPS	"IMPS"	/* DT_NEEDED entries, by module */
#define HEAPFMT_THRS	"THRS"	/* threads at the snapshot */
#define HEAPFMT_REGN	"REGN"	/* memory regions: heap and roots */
#define HEAPFMT_LOCS	"LOCS"	/* distinct code addresses of the stacks */
#define HEAPFMT_FRMS	"FRMS"	/* stacks: runs of LOCS indices */
#define HEAPFMT_SITE	"SITE"	/* allocation sites */
#define HEAPFMT_TYPE	"TYPE"	/* block types */
#define HEAPFMT_BLKS	"BLKS"	/* live blocks, by address (version 1) */
#define HEAPFMT_EDGS	"EDGS"	/* block -> block pointers (version 1) */
#define HEAPFMT_BLKV	"BLKV"	/* BLKS and EDGS, packed (version 2) */
#define HEAPFMT_ROOT	"ROOT"	/* root -> block pointers */
#define HEAPFMT_DATA	"DATA"	/* block contents (--contents) */

/* Record sizes of version 1.0: the least a reader accepts. */
#define HEAPFMT_INFO_SIZE	96
#define HEAPFMT_CNTR_SIZE	16
#define HEAPFMT_MODS_SIZE	64
#define HEAPFMT_IMPS_SIZE	16
#define HEAPFMT_THRS_SIZE	48
#define HEAPFMT_REGN_SIZE	40
#define HEAPFMT_LOCS_SIZE	24
#define HEAPFMT_FRMS_SIZE	4
#define HEAPFMT_SITE_SIZE	64
#define HEAPFMT_TYPE_SIZE	24
#define HEAPFMT_BLKS_SIZE	64
#define HEAPFMT_EDGS_SIZE	16
#define HEAPFMT_ROOT_SIZE	32

/*
 * Field offsets within records (u32 unless marked 64).  "str" fields are
 * byte offsets into STRS; indices are record numbers in the named
 * section, or HEAPFMT_NONE.
 */
#define HF_INFO_PID		0
#define HF_INFO_PPID		4
#define HF_INFO_TRIGGER		8
#define HF_INFO_SERIAL		12
#define HF_INFO_TIME_NS		16	/* 64: CLOCK_REALTIME at the stop */
#define HF_INFO_STOP_NS		24	/* 64: how long threads were stopped */
#define HF_INFO_SEQ		32	/* 64: allocations so far */
#define HF_INFO_CONTENTS	40	/* 64: bytes kept per block */
#define HF_INFO_PROGRAM		48	/* str */
#define HF_INFO_CMDLINE		52	/* str */
#define HF_INFO_CWD		56	/* str */
#define HF_INFO_DEPTH		60
#define HEAPFMT_DEPTH_MAX	64	/* frames kept per stack, at most */
#define HF_INFO_PAGE_SIZE	64
#define HF_INFO_SIGNAL		68
#define HF_INFO_PTR_SIZE	72
#define HF_INFO_STARTED_NS	80	/* 64: CLOCK_REALTIME when the agent
					   started in the process; 0: unknown */

#define HF_CNTR_NAME		0	/* str */
#define HF_CNTR_VALUE		8	/* 64 */

#define HF_MODS_BASE		0	/* 64 */
#define HF_MODS_LO		8	/* 64 */
#define HF_MODS_HI		16	/* 64 */
#define HF_MODS_CODE		24	/* 64 */
#define HF_MODS_DATA		32	/* 64 */
#define HF_MODS_PATH		40	/* str */
#define HF_MODS_BUILD_ID	44	/* str */
#define HF_MODS_SONAME		48	/* str */
#define HF_MODS_FLAGS		52
#define HF_MODS_FIRST_IMPORT	56	/* IMPS */
#define HF_MODS_NIMPORTS	60

#define HF_IMPS_MODULE		0	/* MODS */
#define HF_IMPS_NAME		4	/* str */
#define HF_IMPS_TARGET		8	/* MODS */

#define HF_THRS_TID		0
#define HF_THRS_FLAGS		4
#define HF_THRS_SP		8	/* 64 */
#define HF_THRS_STACK_LO	16	/* 64 */
#define HF_THRS_STACK_HI	24	/* 64 */
#define HF_THRS_NAME		32	/* str */
#define HF_THRS_REGS		36	/* REGN */
#define HF_THRS_PC		40	/* 64 */

#define HF_REGN_LO		0	/* 64 */
#define HF_REGN_HI		8	/* 64 */
#define HF_REGN_KIND		16
#define HF_REGN_NAME		20	/* str */
#define HF_REGN_MODULE		24	/* MODS */
#define HF_REGN_THREAD		28	/* THRS */
#define HF_REGN_PROT		32

#define HF_LOCS_PC		0	/* 64 */
#define HF_LOCS_MODULE		8	/* MODS */
#define HF_LOCS_FUNCTION	12	/* str */
#define HF_LOCS_FILE		16	/* str */
#define HF_LOCS_LINE		20

#define HF_FRMS_LOC		0	/* LOCS */

#define HF_SITE_FIRST_FRAME	0	/* FRMS */
#define HF_SITE_NFRAMES		4
#define HF_SITE_ALLOCS		8	/* 64 */
#define HF_SITE_FREES		16	/* 64 */
#define HF_SITE_BYTES		24	/* 64 */
#define HF_SITE_PEAK		32	/* 64 */
#define HF_SITE_LIVE_BYTES	40	/* 64 */
#define HF_SITE_LIVE_BLOCKS	48	/* 64 */
#define HF_SITE_TYPE		56	/* TYPE */

#define HF_TYPE_NAME		0	/* str */
#define HF_TYPE_MODULE		4	/* MODS */
#define HF_TYPE_KIND		8
#define HF_TYPE_SITE		12	/* SITE */
#define HF_TYPE_VTABLE		16	/* 64 */

#define HF_BLKS_ADDR		0	/* 64 */
#define HF_BLKS_SIZE		8	/* 64: bytes asked for */
#define HF_BLKS_SEQ		16	/* 64 */
#define HF_BLKS_WORD0		24	/* 64 */
#define HF_BLKS_WORD1		32	/* 64 */
#define HF_BLKS_SLACK		40	/* usable size - size */
#define HF_BLKS_SITE		44	/* SITE */
#define HF_BLKS_TID		48
#define HF_BLKS_TYPE		52	/* TYPE */
#define HF_BLKS_FLAGS		56
#define HF_BLKS_REGION		60	/* REGN */

#define HF_EDGS_SRC		0	/* BLKS */
#define HF_EDGS_SRC_WORD	4	/* which 8-byte word of src */
#define HF_EDGS_DST		8	/* BLKS */
#define HF_EDGS_DST_OFF		12	/* HEAPFMT_OFF_* */

#define HF_ROOT_ADDR		0	/* 64: the word's place or register */
#define HF_ROOT_REGION		8	/* REGN */
#define HF_ROOT_DST		12	/* BLKS */
#define HF_ROOT_DST_OFF		16	/* HEAPFMT_OFF_* */
#define HF_ROOT_SYMBOL		20	/* str */
#define HF_ROOT_SYM_OFF		24

/*
 * BLKV: varints (LEB128: 7 bits a byte, low first, the top bit set on
 * every byte but the last; at most 10 bytes).  "zz" is a difference,
 * wrapped to 64 bits, zigzag-coded (0, -1, 1, -2 ... as 0, 1, 2, 3 ...);
 * "+1" an index plus one, so HEAPFMT_NONE is 0.  The section is nblocks,
 * nedges, then each block in address order:
 *
 *	head		BLKS.flags << 4 | HEAPFMT_V_* bits
 *	addr		less the block before's (the first: itself)
 *	size
 *	seq		zz from the block before's (the first: from 0)
 *	word0		zz from addr, if HEAPFMT_V_W0 (else 0, or the edge's)
 *	word1		zz from addr, if HEAPFMT_V_W1
 *	slack
 *	site		+1
 *	tid		zz from the block before's
 *	type		+1
 *	region		+1
 *	npointers	then each of its pointers, by word:
 *	  word		less the pointer before's (the first: itself)
 *	  dst		zz from the pointer before's (the first: this block)
 *	  dst_off	EDGS.dst_off rotated: offset << 1 | vtable-like bit
 */
#define HEAPFMT_V_W0		0x1	/* word0 follows */
#define HEAPFMT_V_W1		0x2	/* word1 follows */
#define HEAPFMT_V_W0_EDGE	0x4	/* word0 is its pointer at word 0's */
#define HEAPFMT_V_W1_EDGE	0x8	/* word1 is its pointer at word 1's */
#define HEAPFMT_V_FLAGS_SHIFT	4

/* An index that refers to nothing. */
#define HEAPFMT_NONE		0xffffffffu

/* INFO.trigger: what took the snapshot. */
#define HEAPFMT_AT_EXIT		1	/* exit(), return from main, _exit */
#define HEAPFMT_AT_SIGNAL	2	/* --signal */
#define HEAPFMT_AT_EVERY	3	/* --every */
#define HEAPFMT_AT_SOCKET	4	/* a request on --socket */

/* INFO.contents when every byte of every block is kept. */
#define HEAPFMT_CONTENTS_ALL	0xffffffffffffffffull

/* MODS.flags */
#define HEAPFMT_MOD_MAIN	0x1	/* the program itself */
#define HEAPFMT_MOD_VDSO	0x2
#define HEAPFMT_MOD_UNLOADED	0x4	/* dlclose'd before the snapshot */
#define HEAPFMT_MOD_AGENT	0x8	/* libpvheap.so */

/* THRS.flags */
#define HEAPFMT_THR_STOPPED	0x1	/* parked: its registers are known */
#define HEAPFMT_THR_MAIN	0x2	/* tid == pid */
#define HEAPFMT_THR_SNAPPER	0x4	/* the thread that took the snapshot */

/* REGN.kind: heap regions first, then the roots. */
#define HEAPFMT_RGN_HEAP	1	/* the main arena (brk heap) */
#define HEAPFMT_RGN_ARENA	2	/* a heap of another arena */
#define HEAPFMT_RGN_MMAP	3	/* one mmap'd chunk */
#define HEAPFMT_RGN_DATA	10	/* a module's writable data (root) */
#define HEAPFMT_RGN_STACK	11	/* a thread's stack from sp (root) */
#define HEAPFMT_RGN_REGS	12	/* a thread's registers (root) */
#define HEAPFMT_RGN_ANON	13	/* other anonymous memory (root) */
#define HEAPFMT_RGN_FILE	14	/* other file mappings (root) */

/* TYPE.kind: where the name came from. */
#define HEAPFMT_TYPE_VTABLE	1	/* the C++ vtable in word 0 */
#define HEAPFMT_TYPE_DWARF	2	/* a typed pointer (reserved) */
#define HEAPFMT_TYPE_SITE	3	/* the allocation site */

/* BLKS.flags */
#define HEAPFMT_BLK_VTLIKE	0x1	/* word 0 looks like a vtable pointer */
#define HEAPFMT_BLK_VTABLE	0x2	/* word 0 is inside a _ZTV symbol */
#define HEAPFMT_BLK_MMAPPED	0x4	/* an mmap'd chunk */
#define HEAPFMT_BLK_ARENA	0x8	/* in a heap of a non-main arena */

/*
 * EDGS.dst_off and ROOT.dst_off: the byte offset into the target (low 31
 * bits, saturating at 0x7fffffff) and, in the top bit, whether the word
 * the pointer points at looks like a vtable pointer (memcheck's
 * multiple-inheritance heuristic needs it).
 */
#define HEAPFMT_OFF_MASK	0x7fffffffu
#define HEAPFMT_OFF_VTLIKE	0x80000000u

#endif
