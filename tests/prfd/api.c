/*
 * Dos32Profile through libpvprf and a real pvprfd (tests/prfd/api.sh runs
 * it with a runtime folder of its own): the structures' layout, the clock
 * divider, every return code where Dos32Profile's documentation says,
 * the hit table's WRAP and overflow, several processes at once, threads
 * followed or not, and the kernel.  TAP.
 *
 * The profiled processes are forks of this program spinning in two
 * functions that each have a section of their own, so that their address
 * ranges are exact (the linker's __start_ and __stop_ symbols) and a
 * slot is one function.
 */
#include <sys/wait.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/pvprf/pvprf.h"
#include "capture/pvprf/prfd.h"

extern char	__start_pvfa[], __stop_pvfa[], __start_pvfb[], __stop_pvfb[];
static volatile unsigned long sink;
static int	tn;

#define OK(cond, ...) do {						\
	printf("%s %d - ", (cond) ? "ok" : "not ok", ++tn);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	fflush(stdout);							\
} while (0)
#define RC(expr, want, what) do {					\
	APIRET	rc_ = (expr);						\
	OK(rc_ == (APIRET)(want), "%s: %lu (want %lu)", what, rc_,	\
	    (APIRET)(want));						\
} while (0)

__attribute__((noinline, section("pvfa"))) static void
fa(unsigned long n)
{
	unsigned long	i;

	for (i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline, section("pvfb"))) static void
fb(unsigned long n)
{
	unsigned long	i;

	for (i = 0; i < n; i++)
		sink ^= i;
}

static double
cpu_s(clockid_t c)
{
	struct timespec	ts;

	clock_gettime(c, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void *
thread_fa(void *arg)
{
	for (;;)
		fa(100000);
	return (NULL);
}

/*
 * A child: 'a' spins in fa; 'b' spins in fa for 0.15 s of its CPU time,
 * then in fb; 't' spins in fb on its main thread with one thread in fa,
 * and two more when its parent writes to the pipe.
 */
static pid_t
spawn(int mode, int *go)
{
	pthread_t	t;
	int		p[2], q[2];
	char		c;
	pid_t		pid;
	double		t0;

	if (pipe(p) != 0 || pipe(q) != 0)
		abort();
	fflush(stdout);
	if ((pid = fork()) != 0) {
		close(p[1]);
		close(q[0]);
		/* Ready: its threads are there. */
		if (read(p[0], &c, 1) != 1)
			abort();
		close(p[0]);
		if (go != NULL)
			*go = q[1];
		else
			close(q[1]);
		return (pid);
	}
	close(p[0]);
	close(q[1]);
	if (mode == 't')
		pthread_create(&t, NULL, thread_fa, NULL);
	if (write(p[1], "r", 1) != 1)
		_exit(1);
	if (mode == 't') {
		if (read(q[0], &c, 1) == 1) {
			pthread_create(&t, NULL, thread_fa, NULL);
			pthread_create(&t, NULL, thread_fa, NULL);
		}
		for (;;)
			fb(100000);
	}
	if (mode == 'b') {
		/* Wait for the profile to start before the first phase. */
		if (read(q[0], &c, 1) != 1)
			_exit(1);
		t0 = cpu_s(CLOCK_PROCESS_CPUTIME_ID);
		while (cpu_s(CLOCK_PROCESS_CPUTIME_ID) - t0 < 0.15)
			fa(10000);
		for (;;)
			fb(100000);
	}
	for (;;)
		fa(100000);
}

static void
reap(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static APIRET
init(pid_t pid, USHORT flags, ULONG bufsz, USHORT timval, PRFSLOT *s,
    USHORT n)
{
	PRFCMD	c;

	memset(&c, 0, sizeof c);
	c.cm_slots = s;
	c.cm_nslots = n;
	c.cm_flags = flags;
	c.cm_bufsz = bufsz;
	c.cm_timval = timval;
	return (Dos32Profile(PRF_CM_INIT, pid, &c, NULL));
}

static APIRET
dump(pid_t pid, UCHAR cmd, USHORT thrdno, ULONG vaddr, void *buf,
    ULONG len)
{
	PRFRET	r;

	memset(&r, 0, sizeof r);
	r.us_cmd = cmd;
	r.us_thrdno = thrdno;
	r.us_vaddr = vaddr;
	r.us_bufsz = len;
	r.us_buf = buf;
	return (Dos32Profile(PRF_CM_DUMP, pid, NULL, &r));
}

static PRFRET0
global(pid_t pid, USHORT thrdno)
{
	PRFRET0	g;

	memset(&g, 0, sizeof g);
	dump(pid, PRF_RET_GLOBAL, thrdno, 0, &g, sizeof g);
	return (g);
}

/* Slot i's count (from PRFRET1). */
static ULONG
slot_cnt(pid_t pid, int i)
{
	unsigned char	buf[1 + 8 * sizeof (PRFVA)];
	PRFRET1		*r = (PRFRET1 *)buf;

	memset(buf, 0, sizeof buf);
	if (dump(pid, PRF_RET_VASLOTS, 0, 0, buf, sizeof buf) != 0 ||
	    i >= r->r1_nslots)
		return (0);
	return (r->r1_slots[i].va_cnt);
}

static void
pause_ms(int ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Wait until slot i of pid has counted n, or 60 s: not a time the test
 * needs (a loaded machine only makes it slower), a guard against a hang.
 */
static int
wait_slot(pid_t pid, int i, ULONG n)
{
	int	k;

	for (k = 0; k < 6000; k++) {
		if (slot_cnt(pid, i) >= n)
			return (1);
		pause_ms(10);
	}
	return (0);
}

static void
slots_ab(PRFSLOT s[2])
{
	s[0].sl_vaddr = (ULONG)__start_pvfa;
	s[0].sl_size = __stop_pvfa - __start_pvfa;
	s[0].sl_mode = 1;
	s[1].sl_vaddr = (ULONG)__start_pvfb;
	s[1].sl_size = __stop_pvfb - __start_pvfb;
	s[1].sl_mode = 1;
}

static void
test_layout(void)
{
	OK(sizeof (PRFCMD) == 2 * sizeof (void *) + 7 + sizeof (ULONG),
	    "PRFCMD packed: %zu bytes (19 on OS/2)", sizeof (PRFCMD));
	OK(sizeof (PRFRET) == 3 + 2 * sizeof (ULONG) + sizeof (void *),
	    "PRFRET packed: %zu bytes (15 on OS/2)", sizeof (PRFRET));
	OK(offsetof(PRFCMD, cm_bufsz) == sizeof (void *) + 4 &&
	    offsetof(PRFCMD, cm_nflgs) == sizeof (PRFCMD) - 1,
	    "PRFCMD field offsets");
	OK(sizeof (PRFRET0) == 11 + 9 * sizeof (ULONG) &&
	    offsetof(PRFRET0, r0_timval) == 4 + 9 * sizeof (ULONG),
	    "PRFRET0 packed: %zu bytes", sizeof (PRFRET0));
	OK(sizeof (PRFVA) == 5 * sizeof (ULONG) &&
	    offsetof(PRFRET1, r1_slots) == 1, "PRFRET1: UCHAR then PRFVA");
	OK(offsetof(PRFRET3, r3_cnts) == 2 * sizeof (ULONG) &&
	    offsetof(PRFRET2, r2_hits) == sizeof (ULONG), "PRFRET2, PRFRET3");
}

static void
test_divider(void)
{
	static const unsigned want[] = { 8, 15, 21, 26, 34, 41, 47, 52, 60 };
	static const uint8_t v[] = { 5, 6, 7, 8 };
	struct prfd_flg	 f;
	unsigned	 tick, k = 0, got[9];

	prfd_flg_init(&f, v, 4);
	for (tick = 1; tick <= 60 && k < 9; tick++) {
		if (prfd_flg_tick(&f))
			got[k++] = tick;
	}
	OK(k == 9 && memcmp(got, want, sizeof want) == 0,
	    "flgbits {5,6,7,8} accumulates at ticks %u %u %u %u %u %u %u %u"
	    " %u", got[0], got[1], got[2], got[3], got[4], got[5], got[6],
	    got[7], got[8]);
}

/* Two callers that find no daemon start one: both answered. */
static void
test_race(void)
{
	pid_t	kids[4];
	int	p[2], i, st, good = 0;
	char	c;

	if (pipe(p) != 0)
		abort();
	fflush(stdout);
	for (i = 0; i < 4; i++) {
		if ((kids[i] = fork()) == 0) {
			close(p[1]);
			if (read(p[0], &c, 1) != 0)
				_exit(2);
			_exit(Dos32Profile(PRF_CM_START, getppid(), NULL,
			    NULL) == ERROR_PRF_NOT_INITIALIZED ? 0 : 1);
		}
	}
	close(p[0]);
	close(p[1]);
	for (i = 0; i < 4; i++) {
		waitpid(kids[i], &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			good++;
	}
	OK(good == 4, "4 callers at once, no daemon yet: %d answered", good);
}

static void
test_codes(void)
{
	PRFSLOT		 s[300], ab[2];
	PRFCMD		 c;
	PRFRET		 r;
	PRFRET0		 g;
	UCHAR		 flg[4] = { 5, 6, 7, 8 }, zero[2] = { 3, 0 };
	unsigned char	 small[10];
	pid_t		 me = getpid(), gone;
	int		 i;

	slots_ab(ab);
	for (i = 0; i < 300; i++) {
		s[i].sl_vaddr = 0x100000 + i * 0x1000;
		s[i].sl_size = 0x1000;
		s[i].sl_mode = 1;
	}
	RC(Dos32Profile(6, me, NULL, NULL), 87, "func 6");
	RC(Dos32Profile(PRF_CM_INIT, me, NULL, NULL), 87, "INIT, no PRFCMD");
	RC(init(me, 0, 0, 0, s, 256), 87, "INIT with 256 slots");
	RC(init(me, PRFS_RUNNING, 0, 0, ab, 2), 87, "INIT with PRFS_RUNNING");
	RC(init(me, PRFS_HITOVFL, 0, 0, ab, 2), 87, "INIT with PRFS_HITOVFL");
	RC(init(me, 0x20, 0, 0, ab, 2), 87, "INIT with an unknown flag");
	RC(init(me, 3, 0, 0, ab, 2), 87, "INIT with process mode 3");
	RC(init(me, PRF_KERNEL, 0, 0, ab, 2), 87, "PRF_KERNEL of a process");
	RC(init(0, PRF_PROCESS_MT, 0, 0, ab, 2), 87, "pid 0 without PRF_KERNEL");
	RC(init(me, PRF_VAHIT, 0, 0, ab, 2), 87, "PRF_VAHIT, no hit table");
	s[0].sl_size = 0;
	RC(init(me, 0, 0, 0, s, 1), 87, "a slot of size 0");
	s[0].sl_size = 0x2000;
	RC(init(me, 0, 0, 0, s, 2), 87, "overlapping slots");
	s[0].sl_size = 0x1000;
	s[0].sl_vaddr = ~0ul - 10;
	RC(init(me, 0, 0, 0, s, 1), 87, "a slot past the address space");
	s[0].sl_vaddr = 0x100000;
	memset(&c, 0, sizeof c);
	c.cm_flags = PRF_FLGBITS;
	c.cm_flgbits = flg;
	c.cm_nflgs = 1;
	RC(Dos32Profile(PRF_CM_INIT, me, &c, NULL), 87, "one flag bit");
	c.cm_flgbits = zero;
	c.cm_nflgs = 2;
	RC(Dos32Profile(PRF_CM_INIT, me, &c, NULL), 87, "a flag bit of 0");
	RC(init(me, PRF_VAHIT, 1ul << 30, 0, ab, 2), 8, "a 1 GB hit table");
	RC(init(me, 0, 0, 99, ab, 2), 547, "timer 99 us");
	RC(init(me, 0, 0, 65535, ab, 2), 0, "timer 65535 us");
	RC(Dos32Profile(PRF_CM_EXIT, me, NULL, NULL), 0, "EXIT");

	/* A pid that is no more: a child reaped. */
	if ((gone = fork()) == 0)
		_exit(0);
	waitpid(gone, NULL, 0);
	RC(init(gone, 0, 0, 0, ab, 2), 303, "INIT of a process gone");

	RC(Dos32Profile(PRF_CM_START, me, NULL, NULL), 543, "START, no INIT");
	RC(Dos32Profile(PRF_CM_STOP, me, NULL, NULL), 543, "STOP, no INIT");
	RC(Dos32Profile(PRF_CM_CLEAR, me, NULL, NULL), 543, "CLEAR, no INIT");
	RC(dump(me, 0, 0, 0, &g, sizeof g), 543, "DUMP, no INIT");
	RC(Dos32Profile(PRF_CM_EXIT, me, NULL, NULL), 543, "EXIT, no INIT");
	RC(init(me, PRF_VAHIT | PRF_WRAP, 4096, 0, ab, 2), 0, "INIT");
	RC(init(me, 0, 0, 0, ab, 2), 544, "INIT again, same timer");
	RC(init(me, 0, 0, 1000, ab, 2), 544, "INIT again, timer 1000 = 0");
	RC(init(me, 0, 0, 500, ab, 2), 548, "INIT again, another timer");
	RC(Dos32Profile(PRF_CM_STOP, me, NULL, NULL), 545, "STOP, not started");
	RC(Dos32Profile(PRF_CM_START, me, NULL, NULL), 0, "START");
	RC(Dos32Profile(PRF_CM_START, me, NULL, NULL), 546, "START again");
	RC(Dos32Profile(PRF_CM_DUMP, me, NULL, NULL), 87, "DUMP, no PRFRET");
	RC(dump(me, 4, 0, 0, &g, sizeof g), 87, "DUMP us_cmd 4");
	RC(dump(me, 0, 999, 0, &g, sizeof g), 87, "DUMP of thread 999");
	RC(dump(me, 0, 0, 0, NULL, 100), 115, "DUMP into a NULL buffer");
	memset(&r, 0, sizeof r);
	RC(Dos32Profile(PRF_CM_DUMP, me, NULL, &r), 111, "DUMP, size asked");
	OK(r.us_bufsz == sizeof (PRFRET0), "the size needed: %lu",
	    r.us_bufsz);
	r.us_buf = small;
	r.us_bufsz = sizeof small;
	RC(Dos32Profile(PRF_CM_DUMP, me, NULL, &r), 111,
	    "DUMP into 10 bytes");
	OK(r.us_bufsz == sizeof (PRFRET0), "the size needed: %lu",
	    r.us_bufsz);
	RC(dump(me, PRF_RET_VADETAIL, 0, 0x1000, small, sizeof small), 126,
	    "detail counters of no slot");
	g = global(me, 0);
	OK(g.r0_flags == (PRF_VAHIT | PRF_WRAP | PRFS_RUNNING | PRFS_THRDS),
	    "r0_flags 0x%x", g.r0_flags);
	OK(g.r0_timval == 1000 && g.r0_vm86 == 0 && g.r0_nstruc1 == 2,
	    "r0_timval %u, r0_vm86 %lu, r0_nstruc1 %u", g.r0_timval,
	    g.r0_vm86, g.r0_nstruc1);
	RC(Dos32Profile(PRF_CM_CLEAR, me, NULL, NULL), 0, "CLEAR running");
	RC(Dos32Profile(PRF_CM_STOP, me, NULL, NULL), 0, "STOP");
	RC(Dos32Profile(PRF_CM_EXIT, me, NULL, NULL), 0, "EXIT");
	RC(Dos32Profile(PRF_CM_START, me, NULL, NULL), 543,
	    "START after EXIT");

	/* Timer 100 us accepted; 548 asks for the timer it was made with. */
	RC(init(me, PRF_VATOTAL, 0, 100, ab, 2), 0, "INIT timer 100 us");
	RC(dump(me, PRF_RET_VADETAIL, 0, ab[0].sl_vaddr, small,
	    sizeof small), 126, "detail counters of a PRF_VATOTAL slot");
	RC(Dos32Profile(PRF_CM_EXIT, me, NULL, NULL), 0, "EXIT");
}

/* Hit table of 16: without WRAP the first 16 stay, with it the last. */
static void
test_hits(int wrap)
{
	PRFSLOT	 ab[2];
	ULONG	 buf[2 + 16];
	PRFRET2	*h = (PRFRET2 *)buf;
	PRFRET0	 g;
	int	 go, ina = 0, inb = 0;
	ULONG	 i;
	pid_t	 pid;

	slots_ab(ab);
	pid = spawn('b', &go);
	RC(init(pid, PRF_VAHIT | (wrap ? PRF_WRAP : 0), 16 * sizeof (ULONG),
	    0, ab, 2), 0, wrap ? "INIT, hit table of 16, WRAP" :
	    "INIT, hit table of 16");
	RC(Dos32Profile(PRF_CM_START, pid, NULL, NULL), 0, "START");
	if (write(go, "g", 1) != 1)
		abort();
	OK(wait_slot(pid, 1, 40), "40 samples in fb");
	RC(Dos32Profile(PRF_CM_STOP, pid, NULL, NULL), 0, "STOP");
	g = global(pid, 0);
	RC(dump(pid, PRF_RET_VAHITS, 0, 0, buf, sizeof buf), 0, "DUMP hits");
	for (i = 0; i < h->r2_nhits && i < 16; i++) {
		if (h->r2_hits[i] - ab[0].sl_vaddr < ab[0].sl_size)
			ina++;
		if (h->r2_hits[i] - ab[1].sl_vaddr < ab[1].sl_size)
			inb++;
	}
	OK(h->r2_nhits == 16 && g.r0_hitbufcnt == 16 && g.r0_nhitbufs == 16,
	    "16 entries of 16 (r2_nhits %lu)", h->r2_nhits);
	if (wrap) {
		OK(!(g.r0_flags & PRFS_HITOVFL), "WRAP: no PRFS_HITOVFL");
		OK(inb == 16, "WRAP: the last 16 samples, all in fb (%d)",
		    inb);
	} else {
		OK(g.r0_flags & PRFS_HITOVFL, "PRFS_HITOVFL set");
		OK(ina == 16, "no WRAP: the first 16, all in fa (%d)", ina);
	}
	close(go);
	reap(pid);
	RC(Dos32Profile(PRF_CM_EXIT, pid, NULL, NULL), 0, "EXIT");
}

/* Two processes with timers of their own, one stopped, one running. */
static void
test_several(void)
{
	PRFSLOT	 ab[2];
	PRFRET0	 g1, g2;
	pid_t	 p1, p2;

	slots_ab(ab);
	p1 = spawn('a', NULL);
	p2 = spawn('a', NULL);
	RC(init(p1, 0, 0, 1000, ab, 2), 0, "INIT process 1, 1000 us");
	RC(init(p2, 0, 0, 2000, ab, 2), 0, "INIT process 2, 2000 us");
	RC(Dos32Profile(PRF_CM_START, p1, NULL, NULL), 0, "START 1");
	RC(Dos32Profile(PRF_CM_START, p2, NULL, NULL), 0, "START 2");
	OK(wait_slot(p1, 0, 20) && wait_slot(p2, 0, 20),
	    "both count in fa");
	RC(Dos32Profile(PRF_CM_STOP, p1, NULL, NULL), 0, "STOP 1");
	g1 = global(p1, 0);
	g2 = global(p2, 0);
	OK(!(g1.r0_flags & PRFS_RUNNING) && (g2.r0_flags & PRFS_RUNNING),
	    "1 stopped, 2 running");
	OK(g1.r0_timval == 1000 && g2.r0_timval == 2000,
	    "timers %u and %u", g1.r0_timval, g2.r0_timval);
	OK(slot_cnt(p1, 1) == 0 && slot_cnt(p2, 1) == 0, "nothing in fb");
	reap(p1);
	reap(p2);
	RC(Dos32Profile(PRF_CM_EXIT, p1, NULL, NULL), 0, "EXIT 1");
	RC(Dos32Profile(PRF_CM_EXIT, p2, NULL, NULL), 0, "EXIT 2");
}

/*
 * Threads: the main thread in fb, one thread in fa, two more made after
 * START.  MT sees all four, ST the main thread alone.
 */
static void
test_threads(int st)
{
	PRFSLOT	 ab[2];
	PRFRET0	 g, t;
	ULONG	 sum = 0, with = 0;
	int	 go, i, k;
	pid_t	 pid;

	slots_ab(ab);
	pid = spawn('t', &go);
	RC(init(pid, st ? PRF_PROCESS_ST : PRF_PROCESS_MT, 0, 0, ab, 2), 0,
	    st ? "INIT PRF_PROCESS_ST" : "INIT PRF_PROCESS_MT");
	RC(Dos32Profile(PRF_CM_START, pid, NULL, NULL), 0, "START");
	if (write(go, "g", 1) != 1)
		abort();
	OK(wait_slot(pid, 1, 100), "100 samples in fb (the main thread)");
	if (!st) {
		/* Until each thread has samples (a guard of 60 s). */
		for (k = 0; k < 6000; k++) {
			g = global(pid, 0);
			with = 0;
			for (i = 1; i <= g.r0_nstruc2; i++) {
				t = global(pid, i);
				with += t.r0_reserved1 > 10;
			}
			if (with == 4)
				break;
			pause_ms(10);
		}
	}
	RC(Dos32Profile(PRF_CM_STOP, pid, NULL, NULL), 0, "STOP");
	g = global(pid, 0);
	with = 0;
	for (i = 1; i <= g.r0_nstruc2; i++) {
		t = global(pid, i);
		sum += t.r0_reserved1;
		with += t.r0_reserved1 > 0;
	}
	OK(sum == g.r0_reserved1, "threads' samples add up: %lu of %lu",
	    sum, g.r0_reserved1);
	if (st) {
		OK(g.r0_nstruc2 == 1, "ST: one thread (%u)", g.r0_nstruc2);
		OK(slot_cnt(pid, 0) == 0, "ST: nothing of the threads in fa"
		    " (%lu)", slot_cnt(pid, 0));
		OK(!(g.r0_flags & PRFS_THRDS), "ST: no PRFS_THRDS");
	} else {
		OK(g.r0_nstruc2 == 4 && with == 4, "MT: 4 threads, %lu with"
		    " samples (%u listed)", with, g.r0_nstruc2);
		OK(slot_cnt(pid, 0) > 0, "MT: the threads in fa (%lu)",
		    slot_cnt(pid, 0));
		OK(g.r0_flags & PRFS_THRDS, "MT: PRFS_THRDS");
	}
	close(go);
	reap(pid);
	RC(Dos32Profile(PRF_CM_EXIT, pid, NULL, NULL), 0, "EXIT");
}

/* With {5,6,7,8} exactly the ticks 8, 15, 21, ... accumulate. */
static void
test_flgbits(void)
{
	static UCHAR	 v[4] = { 5, 6, 7, 8 };
	struct prfd_flg	 f;
	PRFSLOT		 ab[2];
	PRFCMD		 c;
	PRFRET0		 g;
	ULONG		 acc, want = 0, k;
	pid_t		 pid;

	slots_ab(ab);
	pid = spawn('a', NULL);
	memset(&c, 0, sizeof c);
	c.cm_slots = ab;
	c.cm_nslots = 2;
	c.cm_flags = PRF_FLGBITS;
	c.cm_flgbits = v;
	c.cm_nflgs = 4;
	RC(Dos32Profile(PRF_CM_INIT, pid, &c, NULL), 0, "INIT, flgbits");
	RC(Dos32Profile(PRF_CM_START, pid, NULL, NULL), 0, "START");
	OK(wait_slot(pid, 0, 20), "20 accumulated in fa");
	RC(Dos32Profile(PRF_CM_STOP, pid, NULL, NULL), 0, "STOP");
	g = global(pid, 0);
	acc = slot_cnt(pid, 0) + slot_cnt(pid, 1) + g.r0_kernel +
	    g.r0_shrmem + g.r0_unknown;
	prfd_flg_init(&f, v, 4);
	for (k = 0; k < g.r0_reserved1; k++)
		want += prfd_flg_tick(&f);
	OK(acc == want, "%lu ticks, %lu accumulated (the sequence has %lu)",
	    g.r0_reserved1, acc, want);
	reap(pid);
	RC(Dos32Profile(PRF_CM_EXIT, pid, NULL, NULL), 0, "EXIT");
}

static void
test_gone(void)
{
	PRFSLOT	ab[2];
	pid_t	pid;

	slots_ab(ab);
	pid = spawn('a', NULL);
	RC(init(pid, 0, 0, 0, ab, 2), 0, "INIT");
	reap(pid);
	RC(Dos32Profile(PRF_CM_START, pid, NULL, NULL), 303,
	    "START when the process is gone");
	RC(Dos32Profile(PRF_CM_EXIT, pid, NULL, NULL), 0, "EXIT");
}

/* pid 0: the whole system, its idle task as idle. */
static void
test_kernel(void)
{
	PRFRET0	g;
	APIRET	rc;
	pid_t	pid;

	rc = init(0, PRF_KERNEL, 0, 0, NULL, 0);
	if (rc != 0) {
		printf("ok %d # SKIP system-wide profiling refused (%lu)\n",
		    ++tn, rc);
		return;
	}
	RC(rc, 0, "INIT pid 0, PRF_KERNEL");
	RC(Dos32Profile(PRF_CM_START, 0, NULL, NULL), 0, "START");
	pid = spawn('a', NULL);
	pause_ms(300);
	reap(pid);
	RC(Dos32Profile(PRF_CM_STOP, 0, NULL, NULL), 0, "STOP");
	g = global(0, 0);
	OK(g.r0_idle + g.r0_kernel + g.r0_shrmem + g.r0_unknown > 0,
	    "system-wide samples: idle %lu kernel %lu shrmem %lu unknown %lu",
	    g.r0_idle, g.r0_kernel, g.r0_shrmem, g.r0_unknown);
	RC(Dos32Profile(PRF_CM_EXIT, 0, NULL, NULL), 0, "EXIT");
}

int
main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_layout();
	test_divider();
	test_race();
	test_codes();
	test_hits(0);
	test_hits(1);
	test_several();
	test_threads(0);
	test_threads(1);
	test_flgbits();
	test_gone();
	test_kernel();
	printf("1..%d\n", tn);
	return (0);
}
