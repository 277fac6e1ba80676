/*
 * libpvtrace.so's insides, shared by its files: agent.c (the state, the
 * threads' slots, the start), agent_patch.c (trampolines, traps and the
 * patching of the text), agent_cal.c (what the agent measures before it
 * traces) and agent_libc.c (the C library's functions it stands in for).
 * rt.c and stubs.S, the fast path, have pvtrace.h's declarations only.
 */
#ifndef PVTRACE_AGENT_H
#define PVTRACE_AGENT_H

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#define AGENT_EXPORT	__attribute__((visibility("default")))

/* The C library's own fn, the next definition after this library. */
#define REAL(fn) \
	static __typeof__(&fn) real_##fn; \
	if (real_##fn == NULL) \
		real_##fn = (__typeof__(&fn))dlsym(RTLD_NEXT, #fn)

struct agent_mod {
	uint64_t	 base;		/* load bias */
	int		 done;		/* looked at (patched or refused) */
	/* Where its GOT may be: writable segments, and the read-only
	   part after relocation (PT_GNU_RELRO), loaded addresses. */
	uint64_t	 wlo[4], whi[4];
	int		 nw;
	uint64_t	 relro_lo, relro_hi;
};

struct agent_trap {
	uint64_t	 addr;
	uint32_t	 idx;
};

struct agent_state {
	const struct pvt_module	*mod;
	const struct pvt_func	*fn;
	const char		*str;
	uint8_t			*fstate;	/* PVT_FS_*, in the shm */
	struct agent_mod	 m[64];
	struct agent_trap	*traps;		/* sorted by address */
	size_t			 ntraps;
	int			 trap_handler;	/* ours is installed */
	struct sigaction	 user_trap;	/* the program's SIGTRAP */
	pthread_key_t		 key;
	int			 cal;		/* attaching calibration slot */
	char			*env_shm;	/* "PVTRACE_SHM=..." */
	char			*env_preload;	/* our LD_PRELOAD entry */
};
extern struct agent_state agent_g;

/* Where agent_patch_loaded looks for the planned modules. */
struct agent_scan {
	char	 exe[PATH_MAX];
	int	 main_found;
};

/* agent.c */
void		 agent_error(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 agent_prefork(void);
void		 agent_child(void);
void		 agent_others_end(void);
uint64_t	 agent_rseq(void);

/* agent_patch.c */
int		 agent_tramp(uint8_t *, uint8_t *, const struct pvt_func *,
		    uint64_t, uint32_t);
uint8_t		*agent_area(uint64_t, uint64_t, size_t, size_t *);
void		 agent_add_traps(const struct agent_trap *, size_t);
void		 agent_trap_handler(void);
int		 agent_scan_one(struct dl_phdr_info *, size_t, void *);
int		 agent_patch_loaded(void);

/* agent_samp.c */
void		 agent_samp_start(void);

/* agent_cal.c */
void		 agent_calibrate(void);
void		 agent_xsave_size(void);
void		*agent_vdso_clock(void);

#endif
