/*
 * libpvheap.so's insides, shared by its files: agent.c (the allocator
 * hooks and the tables of live blocks and sites), the snap_ files (a
 * snapshot: stopping the threads, the roots, the scan, the file; their
 * own header is snap.h) and elf.c (modules and their symbols).  Nothing
 * here is exported from the library; the hooks are.
 */
#ifndef AGENT_H
#define AGENT_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sched.h>
#include <sys/types.h>

#define AGENT_HIDDEN	__attribute__((visibility("hidden")))

/* The deepest stack kept per allocation, and the default. */
#define AGENT_MAXDEPTH	64
#define AGENT_DEPTH	16

/* What pvheap(1) asked for (PVHEAP_OPTS). */
struct agent_opts {
	int		 at_exit;
	int		 signal;	/* 0: none */
	uint64_t	 every_ms;	/* 0: none */
	char		 socket[108];	/* "": none */
	uint64_t	 contents;	/* bytes kept per block */
	int		 depth;
	int		 quiet;
	int		 stopsig;
};

/* One live block, as the hash table keeps it (addr 0: an empty slot). */
struct agent_blk {
	uint64_t	 addr;
	uint64_t	 size;
	uint64_t	 seq;
	uint32_t	 site;
	uint32_t	 tid;
};

/* One allocation site: a distinct stack, and heaptrack's numbers. */
struct agent_site {
	uint64_t	 hash;
	uint64_t	 allocs;
	uint64_t	 frees;
	uint64_t	 bytes;
	uint64_t	 live;
	uint64_t	 peak;
	uint64_t	 nlive;
	uintptr_t	*frames;
	uint32_t	 nframes;
	uint32_t	 id;
};

/* A growable buffer in memory of the agent's own (mmap, never malloc). */
struct abuf {
	uint8_t		*p;
	size_t		 len;
	size_t		 cap;
};

extern struct agent_opts	agent_opts AGENT_HIDDEN;
extern uint64_t			agent_seq AGENT_HIDDEN;
extern uint64_t			agent_started_ns AGENT_HIDDEN;
extern uint64_t			agent_frees_unknown AGENT_HIDDEN;

#define LIKELY(x)	__builtin_expect(!!(x), 1)
#define UNLIKELY(x)	__builtin_expect(!!(x), 0)

/* glibc's allocator under its own names: what the hooks call. */
extern void	*__libc_malloc(size_t);
extern void	*__libc_calloc(size_t, size_t);
extern void	*__libc_realloc(void *, size_t);
extern void	 __libc_free(void *);
extern void	*__libc_memalign(size_t, size_t);
extern void	*__libc_valloc(size_t);
extern void	*__libc_pvalloc(size_t);

/* agent.c: the state the agent's files share. */
/*
 * Per thread: initial-exec TLS, so reading it is one instruction and
 * never calls __tls_get_addr (which may allocate).
 */
struct agent_tls {
	int	busy;
	int	agent;		/* the agent's own thread */
	int	stop_pending;	/* a stop came while busy */
	unsigned stops;		/* stops taken: a sleep they cut resumes */
	int	exiting;	/* in agent_exit_snapshot */
	pid_t	tid;
};
extern __thread struct agent_tls agent_tls
		    __attribute__((tls_model("initial-exec"))) AGENT_HIDDEN;

/* 0 cold, 1 starting, 2 ready */
extern int		 agent_state AGENT_HIDDEN;
extern uint64_t		 agent_self_lo AGENT_HIDDEN;	/* our code */
extern uint64_t		 agent_self_hi AGENT_HIDDEN;
extern size_t		 (*agent_real_usable)(void *) AGENT_HIDDEN;
extern int		 (*agent_real_sigaction)(int, const struct sigaction *,
			    struct sigaction *) AGENT_HIDDEN;
extern int		 (*agent_real_pthread_sigmask)(int, const sigset_t *,
			    sigset_t *) AGENT_HIDDEN;
extern int		 (*agent_real_dlclose)(void *) AGENT_HIDDEN;
extern pid_t		 agent_main_pid AGENT_HIDDEN;
extern pid_t		 agent_ctor_pid AGENT_HIDDEN;	/* for _exit */
/*
 * Until the program starts a second thread, nothing else touches the
 * tables (the agent's own thread only reads them while the program is
 * stopped), so the counters and shard locks need no atomic operations:
 * a plain increment costs nothing, a locked one several nanoseconds.
 * pthread_create turns this on before the thread exists; a hook on a
 * thread that is not the first also turns it on (threads from a raw
 * clone).
 */
extern int		 agent_mt AGENT_HIDDEN;

void		 agent_init(void) AGENT_HIDDEN;
void		 agent_stop_again(void) AGENT_HIDDEN;
uint64_t	 agent_run_clock(void) AGENT_HIDDEN;

/* agent_mem.c: the agent's own memory. */
void		 agent_mem_atfork_child(void) AGENT_HIDDEN;

/* agent_blocks.c: the live blocks. */
void		 agent_blk_insert(const struct agent_blk *) AGENT_HIDDEN;
int		 agent_blk_remove(uint64_t, struct agent_blk *) AGENT_HIDDEN;
void		 agent_blocks_lock(void) AGENT_HIDDEN;
void		 agent_blocks_unlock(void) AGENT_HIDDEN;

/* agent_sites.c: the allocation sites. */
struct agent_site *agent_site_get(const uintptr_t *, int) AGENT_HIDDEN;
void		 agent_sites_lock(void) AGENT_HIDDEN;
void		 agent_sites_unlock(void) AGENT_HIDDEN;

/* agent_server.c: the agent's thread and the snapshots it takes. */
extern int	 agent_starting AGENT_HIDDEN;
void		 agent_thread_start(void) AGENT_HIDDEN;
void		 agent_trigger_handler(int) AGENT_HIDDEN;
void		 agent_exit_snapshot(void) AGENT_HIDDEN;
void		 agent_server_atfork_child(void) AGENT_HIDDEN;

/* Spinlocks, taken in the hooks. */
static inline void
agent_spin_lock(int *l)
{
	unsigned	n = 0;

	if (!__atomic_load_n(&agent_mt, __ATOMIC_RELAXED)) {
		*l = 1;
		return;
	}
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0) {
			/* Two cores: a preempted holder needs the CPU. */
			if (++n > 200)
				sched_yield();
			else
				__builtin_ia32_pause();
		}
	}
}

static inline void
agent_spin_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* The ranges' lock is taken by the agent's thread too: always atomic. */
static inline void
agent_spin_lock_always(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0)
			sched_yield();
	}
}

/* agent.c */
void		*agent_mmap(size_t) AGENT_HIDDEN;
void		 agent_munmap(void *, size_t) AGENT_HIDDEN;
void		*agent_mremap(void *, size_t, size_t) AGENT_HIDDEN;
size_t		 agent_ranges(uint64_t *, size_t) AGENT_HIDDEN;
void		*agent_alloc(size_t) AGENT_HIDDEN;
void		 agent_free(void *) AGENT_HIDDEN;
size_t		 agent_usable(void *) AGENT_HIDDEN;
void		 agent_self_range(uint64_t *, uint64_t *) AGENT_HIDDEN;
pid_t		 agent_gettid(void) AGENT_HIDDEN;
uint32_t	 agent_nsites(void) AGENT_HIDDEN;
struct agent_site *agent_site(uint32_t) AGENT_HIDDEN;
size_t		 agent_blocks(struct abuf *) AGENT_HIDDEN;
int		 agent_busy_enter(void) AGENT_HIDDEN;
void		 agent_busy_leave(int) AGENT_HIDDEN;
void		 agent_out_name(char *, size_t, unsigned) AGENT_HIDDEN;
void		 agent_say(const char *, ...) AGENT_HIDDEN
		    __attribute__((format(printf, 1, 2)));
int		 agent_is_agent_thread(void) AGENT_HIDDEN;
void		 agent_thread_stack(uint64_t *, uint64_t *) AGENT_HIDDEN;
pid_t		 agent_thread_tid(void) AGENT_HIDDEN;
void		 agent_modules_unloaded(struct abuf *) AGENT_HIDDEN;
unsigned	 agent_next_serial(void) AGENT_HIDDEN;
void		*agent_libc_addr(void) AGENT_HIDDEN;

/* abuf, in agent.c */
void		*abuf_grow(struct abuf *, size_t) AGENT_HIDDEN;
void		 abuf_free(struct abuf *) AGENT_HIDDEN;

/* snap.c and snap_stop.c */
void		 snap_init(void) AGENT_HIDDEN;
int		 snap_take(int, int, char *, size_t) AGENT_HIDDEN;
void		 snap_stop_handler(int, void *) AGENT_HIDDEN;
void		 snap_atfork_child(void) AGENT_HIDDEN;

/* elf.c: the modules of the process and their symbols. */
struct elf_sym {
	uint64_t	 addr;		/* absolute, in this process */
	uint64_t	 size;
	const char	*name;
};

struct elf_mod {
	char		 path[4096];
	uint64_t	 base;
	uint64_t	 lo, hi;
	uint64_t	 code, data;
	uint64_t	 rw_lo[4], rw_hi[4];	/* writable PT_LOADs */
	int		 nrw;
	uint32_t	 flags;
	char		 build_id[129];
	/* From the file, after the threads run again (elf_mod_load). */
	int		 loaded;
	void		*map;
	size_t		 maplen;
	void		*dmap;		/* separate debug file, if used */
	size_t		 dmaplen;
	struct elf_sym	*funcs, *objs;
	size_t		 nfuncs, nobjs;
	const char	*soname;
	const char	**needed;
	size_t		 nneeded;
};

size_t		 elf_modules(struct abuf *) AGENT_HIDDEN;
void		 elf_mod_load(struct elf_mod *) AGENT_HIDDEN;
void		 elf_mods_free(struct elf_mod *, size_t) AGENT_HIDDEN;
const struct elf_sym *elf_find(const struct elf_sym *, size_t, uint64_t)
		    AGENT_HIDDEN;
size_t		 elf_mod_find(const struct elf_mod *, size_t, uint64_t)
		    AGENT_HIDDEN;
char		*elf_demangle(const char *) AGENT_HIDDEN;

#endif
