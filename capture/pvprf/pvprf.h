/*
 * pvprf.h: OS/2's Dos32Profile() on Linux (libpvprf, pvprf(3)).
 *
 * The structures, constants and return codes are those of Dos32Profile's
 * documentation (seeds/dos32profile.txt) exactly: every structure packed,
 * ULONG the platform's unsigned long, so that on x86-64 addresses are
 * 64-bit and PRFCMD and PRFRET carry native pointers.  The calls go to
 * the per-user daemon pvprfd(1), started on demand.
 */
#ifndef PVPRF_H
#define PVPRF_H

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long	ULONG;
typedef unsigned short	USHORT;
typedef unsigned char	UCHAR;
typedef UCHAR		*PUCHAR;
typedef ULONG		APIRET;
typedef ULONG		PID;
#ifndef VOID
#define VOID		void
#endif

/* Return codes. */
#define NO_ERROR		0
#define ERROR_NOT_ENOUGH_MEMORY	8
#define ERROR_INVALID_PARAMETER	87
#define ERROR_BUFFER_OVERFLOW	111
#define ERROR_PROTECTION_VIOLATION 115
#define ERROR_MOD_NOT_FOUND	126
#define ERROR_INVALID_PROCID	303
#define ERROR_SYS_INTERNAL	328
#define ERROR_PRF_NOT_INITIALIZED	543
#define ERROR_PRF_ALREADY_INITIALIZED	544
#define ERROR_PRF_NOT_STARTED		545
#define ERROR_PRF_ALREADY_STARTED	546
#define ERROR_PRF_TIMER_OUT_OF_RANGE	547
#define ERROR_PRF_TIMER_RESET		548

/* func */
#define PRF_CM_INIT	0	/* initialize, must pass pid and profcmd */
#define PRF_CM_START	1	/* start profiling (pid) */
#define PRF_CM_STOP	2	/* stop profiling (pid) */
#define PRF_CM_CLEAR	3	/* clear profile counters (pid) */
#define PRF_CM_DUMP	4	/* read out profiling data (pid, profret) */
#define PRF_CM_EXIT	5	/* exit profiling, delete profiling structures */

/* cm_flags */
#define PRF_PROCESS_MT	0	/* profile proc+threads */
#define PRF_PROCESS_ST	1	/* profile proc only */
#define PRF_KERNEL	2	/* profile kernel */

#define PRF_VADETAIL	0	/* create detailed page counters */
#define PRF_VAHIT	4	/* create hit table */
#define PRF_VATOTAL	8	/* create total count for VA only */

#define PRF_FLGBITS	0x40	/* has a flgbits structure */
#define PRF_WRAP	0x80	/* if hit table full, wrap (works here) */

/* Status bits: returned in r0_flags; a caller that sets one gets 87. */
#define PRFS_RUNNING	0x100	/* profiling is active */
#define PRFS_THRDS	0x200	/* also profiling threads */
#define PRFS_HITOVFL	0x800	/* overflow in hit buffer */
#define PRFS_HEADER	0x1000	/* internally used */

/* us_cmd */
#define PRF_RET_GLOBAL	0	/* global data, us_thrdno 0 or a thread */
#define PRF_RET_VASLOTS	1	/* VA slot data (PRFRET1) */
#define PRF_RET_VAHITS	2	/* hit table (PRFRET2) */
#define PRF_RET_VADETAIL 3	/* detailed counters of us_vaddr (PRFRET3) */
/* Ours: module paths, thread ids, sample period, command (pvprf(3)). */
#define PRF_RET_PVEXT	0xf0

#pragma pack(push, 1)

typedef struct {
	ULONG	sl_vaddr;	/* start of VA segment to profile */
	ULONG	sl_size;	/* length of VA segment */
	ULONG	sl_mode;	/* !=0 use PRF_VA* flags, =0 simple count */
} PRFSLOT;

typedef struct {
	PRFSLOT	*cm_slots;	/* Virtual address slots */
	USHORT	cm_nslots;	/* # of VA slots < 256 */
	USHORT	cm_flags;	/* command */
	ULONG	cm_bufsz;	/* bytes of hit table */
	USHORT	cm_timval;	/* sampling period in us, 0: 1000 */
	PUCHAR	cm_flgbits;	/* clock divider, valid if PRF_FLGBITS */
	UCHAR	cm_nflgs;	/* # of flag bits >= 2 if present */
} PRFCMD;

typedef struct {
	UCHAR	us_cmd;		/* PRF_RET_* */
	USHORT	us_thrdno;	/* thread requested for cmd=0 */
	ULONG	us_vaddr;	/* VA for cmd=3 */
	ULONG	us_bufsz;	/* length of return buffer */
	VOID	*us_buf;	/* return buffer */
} PRFRET;

typedef struct {
	USHORT	r0_flags;	/* profile flags, see PRF_* */
	USHORT	r0_shift;	/* 2^N = length of a detail counter's segment */
	ULONG	r0_idle;	/* count if process is idle */
	ULONG	r0_vm86;	/* count if process is in VM mode: 0 */
	ULONG	r0_kernel;	/* count if process is in kernel */
	ULONG	r0_shrmem;	/* count if process is in shr mem */
	ULONG	r0_unknown;	/* count if process is elsewhere */
	ULONG	r0_nhitbufs;	/* # of dwords in hitbufs */
	ULONG	r0_hitbufcnt;	/* # of entries in hit table */
	ULONG	r0_reserved1;	/* internally used */
	ULONG	r0_reserved2;	/* internally used */
	USHORT	r0_timval;	/* timer resolution */
	UCHAR	r0_errcnt;	/* error count */
	USHORT	r0_nstruc1;	/* # of add structures 1 */
	USHORT	r0_nstruc2;	/* # of add structures 2 */
} PRFRET0;

typedef struct {
	ULONG	va_vaddr;	/* virtual address of segment */
	ULONG	va_size;	/* length of segment */
	ULONG	va_flags;	/* == 8, va_cnt is valid */
	ULONG	va_reserved;	/* internally used */
	ULONG	va_cnt;		/* profile count */
} PRFVA;

typedef struct {
	UCHAR	r1_nslots;	/* # of slots */
	PRFVA	r1_slots[1];	/* slots */
} PRFRET1;

typedef struct {
	ULONG	r2_nhits;	/* # of entries in table */
	ULONG	r2_hits[1];	/* hit table */
} PRFRET2;

typedef struct {
	ULONG	r3_size;	/* size of segment */
	ULONG	r3_ncnts;	/* # of entries in table */
	ULONG	r3_cnts[1];	/* counters */
} PRFRET3;

#pragma pack(pop)

APIRET	Dos32Profile(ULONG func, PID pid, PRFCMD *profcmd, PRFRET *profret);
/* Ours: why this thread's last call failed, in words, or NULL. */
const char *Dos32ProfileError(void);

#ifdef __cplusplus
}
#endif
#endif
