/*
 * The parts of libpvprf, pvprfd and pvprf that they share: where the
 * daemon's socket is, the messages on it, the clock divider and the dump
 * file.  Not installed; the API is pvprf.h.
 */
#ifndef PRFD_H
#define PRFD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A request: the header, then for INIT a struct prfd_init, its nflgs
 * flag bytes and nslots struct prfd_slot; for DUMP a struct prfd_dump.
 * A reply: a struct prfd_reply, then (a DUMP that succeeded) size bytes;
 * a failure other than 111 may be followed by size bytes of text, why.
 * Both ends are on one machine and of one build: native byte order.
 */
#define PRFD_MAGIC	0x44465250u	/* "PRFD" */
#define PRFD_BODY_MAX	(64 * 1024)
/* The most a DUMP returns: 4M detail counters or the largest hit table. */
#define PRFD_BUFSZ_MAX	(64ul * 1024 * 1024)
#define PRFD_REPLY_MAX	(PRFD_BUFSZ_MAX + 1024)
/* A failed call's reply may say why in this many bytes (no NUL). */
#define PRFD_WHY_MAX	256

struct prfd_req {
	uint32_t	magic;
	uint32_t	len;		/* bytes of body after this header */
	uint32_t	func;
	uint8_t		width;		/* the caller's sizeof (ULONG) */
	uint8_t		pad[3];
	uint64_t	pid;
};

struct prfd_init {
	uint64_t	bufsz;
	uint16_t	flags;
	uint16_t	nslots;
	uint16_t	timval;
	uint8_t		nflgs;
	uint8_t		pad;
};

struct prfd_slot {
	uint64_t	vaddr;
	uint64_t	size;
	uint64_t	mode;
};

struct prfd_dump {
	uint64_t	vaddr;
	uint64_t	bufsz;
	uint16_t	thrdno;
	uint8_t		cmd;
	uint8_t		pad[5];
};

struct prfd_reply {
	uint32_t	magic;
	uint32_t	rc;
	uint64_t	size;		/* bytes that follow, or needed (111) */
};

/* proto.c */
struct sockaddr_un;
int	prfd_socket(const char *, struct sockaddr_un *);
int	prfd_sock_dir(char *, size_t);
int	prfd_sock_path(char *, size_t);
int	prfd_read_full(int, void *, size_t);
int	prfd_write_full(int, const void *, size_t);

/*
 * flg.c: Dos32Profile's clock divider.  The flag bytes are taken from the
 * last to the first, again and again; each is the number of ticks until
 * the next one that accumulates: {5,6,7,8} accumulates at ticks 8, 15,
 * 21, 26, 34, 41, 47, 52 ...
 */
struct prfd_flg {
	uint8_t		v[255];
	unsigned	n;		/* 0: every tick accumulates */
	unsigned	i;		/* the byte counting down */
	unsigned	left;		/* ticks until it reaches 0 */
};
void	prfd_flg_init(struct prfd_flg *, const uint8_t *, unsigned);
int	prfd_flg_tick(struct prfd_flg *);

/*
 * The dump file (profview-formats(5)): a 14-byte header, then records
 * until the end, each a PRFRET request without its pointer and the bytes
 * it returned; ULONGs of the header's width, little endian.
 */
#define PRFD_FILE_MAGIC		"PRFD"
/* 2: modules' samples leave shrmem for MAPPING entries. */
#define PRFD_FILE_VERSION	2
#define PRFD_FILE_HEADER	14
#define PRFD_EXT_MODULE		1
#define PRFD_EXT_THREADS	2
#define PRFD_EXT_PERIOD		3
#define PRFD_EXT_COMMAND	4
#define PRFD_EXT_LIMITS		5
#define PRFD_EXT_MAPPING	6
/*
 * MAPPING: u64 lo, hi, pgoff, bias; u32 flags, nsamples; u8 build-id
 * length; u16 path length; the build-id, the path, then nsamples of
 * { u64 address, u64 count }.
 */
#define PRFD_MAPPING_FIXED	43
#define PRFD_MAPPING_KERNEL	0x1	/* the kernel counter's samples */
#define PRFD_MAPPING_UNREAD	0x2	/* the file was not read: no bias */
#define PRFD_MAPPING_REPLACED	0x4	/* the path's file is not the one mapped */
/* LIMITS' bits: the kernel refused kernel-mode samples (paranoid). */
#define PRFD_LIMIT_USER_ONLY	0x1

#endif
