/*
 * pvtrace truth test for leaves (functions that call nothing, which get
 * the light probe: no frame, a mark and a landing): an interval timer's
 * handler interrupts them and calls traced functions, a leaf and a
 * function that calls a leaf.
 *
 *	phase 1: main calls spin, a leaf that loops, SPINS times; the
 *		 handler only calls
 *	phase 2: main calls park, a leaf that loops until the handler
 *		 siglongjmps out of it, PARKS times
 *	phase 3: main calls forkwait, a leaf that loops until the handler
 *		 has forked; the child calls node and _exits with the
 *		 calls it made, which the parent adds to its own
 *	phase 4: main calls hop, which calls spin, then park, which the
 *		 handler leaves by a setcontext (no siglongjmp, which
 *		 pvtrace hears of), CTXS times
 *	phase 5: main calls nest, which calls park, which the handler
 *		 leaves by a setcontext back into nest, which returns; then
 *		 main loops BURN times (no call), NESTS times
 *	phase 6: main calls park, which raw, a handler pvtrace does not
 *		 trace (no function symbol: the plan has no entry of it),
 *		 leaves by a setcontext, RAWS times: nothing tells the
 *		 agent the leaf has gone but the next entry
 *	phase 7: main calls poke, a leaf pvtrace runs whole in its
 *		 trampoline (straight-line, its ret last), which faults;
 *		 segv, which calls leaf and node, siglongjmps out of it,
 *		 FAULTS times
 *	phase 8: main calls poke(NULL) again, whose SIGSEGV rawsegv,
 *		 untraced like raw, leaves by a setcontext, RAWFAULTS
 *		 times: the copy's mark is left for the next entry to find
 *		 dead, at the same return address
 *	phase 9: main calls trip, a whole-copy leaf too, whose ud2
 *		 raises SIGILL; ill calls leaf and node and returns into
 *		 it past the ud2, TRIPS times
 *
 * All along a second timer's handler, tick, itself a leaf, interrupts
 * them and the first handler (a leaf's entry while a leaf runs).
 *
 * It prints what it counted itself: the handler's runs, its callees'
 * calls, main's calls, the jumps, the contexts and the forks, and the
 * CPU time of one more of main's loops of BURN (burn, in ns).  Those of
 * main are the same in every run; the handler's are the timer's.
 */
#define _GNU_SOURCE	/* REG_RIP */
#include <sys/time.h>
#include <sys/wait.h>

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define SPINS	2000
#define PARKS	50
#define CTXS	50
#define NESTS	10
#define RAWS	20
#define FAULTS	30
#define TRIPS	30
#define RAWFAULTS 20
#define BURN	5000000UL

static volatile sig_atomic_t phase, forked, left;
static volatile unsigned long sink;
static volatile unsigned long nsig, nleaf, nnode, nspin, npark, nwait;
static volatile unsigned long njump, ntick, nhop, nctx, nnest;
static volatile unsigned long nfault, npoke, ntrip, ntripped, nhleaf;
static sigjmp_buf jb, jbf;
/* Not static: raw names them. */
volatile sig_atomic_t inpark;
volatile unsigned long nraw, nrawsegv;
ucontext_t uc, ucf;

/*
 * The untraced handler: if park runs, count and setcontext to uc.  An
 * untyped symbol, which the plan (function symbols only) leaves alone.
 */
void	leafsig_raw(int) __attribute__((visibility("hidden")));
__asm__(
	".text\n"
	".globl leafsig_raw\n.hidden leafsig_raw\n.p2align 4\n"
	"leafsig_raw:\n"
	"\tcmpl $0, inpark(%rip)\n"
	"\tje 1f\n"
	"\tmovl $0, inpark(%rip)\n"
	"\taddq $1, nraw(%rip)\n"
	"\tsubq $8, %rsp\n"
	"\tleaq uc(%rip), %rdi\n"
	"\tcall setcontext@PLT\n"
	"\taddq $8, %rsp\n"
	"1:\tret\n");

/* The untraced SIGSEGV handler of phase 8: count and setcontext to ucf. */
void	leafsig_rawsegv(int) __attribute__((visibility("hidden")));
__asm__(
	".text\n"
	".globl leafsig_rawsegv\n.hidden leafsig_rawsegv\n.p2align 4\n"
	"leafsig_rawsegv:\n"
	"\taddq $1, nrawsegv(%rip)\n"
	"\tsubq $8, %rsp\n"
	"\tleaq ucf(%rip), %rdi\n"
	"\tcall setcontext@PLT\n"
	"\taddq $8, %rsp\n"
	"\tret\n");

/*
 * Leaves of a few straight-line instructions and a ret, which pvtrace
 * copies whole into their trampolines (flag c): poke stores to where
 * its argument points (NULL: SIGSEGV in the copy), trip returns 4 past
 * a ud2 (SIGILL in the copy, which ill steps over).
 */
int	poke(int *) __attribute__((visibility("hidden")));
int	trip(void) __attribute__((visibility("hidden")));
__asm__(
	".text\n"
	".globl poke\n.hidden poke\n.type poke, @function\n.p2align 4\n"
	"poke:\n"
	"\tmovl $1, (%rdi)\n"
	"\tmovl $2, %eax\n"
	"\tret\n"
	".size poke, .-poke\n"
	".globl trip\n.hidden trip\n.type trip, @function\n.p2align 4\n"
	"trip:\n"
	"\tmovl $3, %eax\n"
	"\tud2\n"
	"\taddl $1, %eax\n"
	"\tret\n"
	".size trip, .-trip\n");

/* A leaf: no call, a loop of arithmetic the compiler cannot fold. */
static unsigned long __attribute__((noipa))
spin(unsigned long n)
{
	unsigned long	i, x = n;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + i;
	return (x);
}

/* A leaf that only a siglongjmp leaves. */
static void __attribute__((noipa))
park(void)
{
	inpark = 1;
	for (;;)
		sink++;
}

/* A leaf that loops until the handler has forked. */
static void __attribute__((noipa))
forkwait(void)
{
	while (!forked)
		sink++;
}

/* Not a leaf: a call of spin, before park (phase 4). */
static unsigned long __attribute__((noipa))
hop(void)
{
	return (spin(10) + 1);
}

/* Not a leaf: a call of park, which the handler leaves back to here. */
static void __attribute__((noipa))
nest(void)
{
	left = 0;
	getcontext(&uc);
	if (!left) {
		npark++;
		park();
	}
}

/* The handler's leaf. */
static unsigned long __attribute__((noipa))
leaf(unsigned long x)
{
	nleaf++;
	return (x * 3 + 1);
}

/*
 * The handler's leaf with a loop, which gets the landing, called after
 * leaf: when they interrupt a leaf, leaf's copy must leave that leaf's
 * mark, and this one then takes no return address of its own (else the
 * interrupted leaf returns to this one's).
 */
static unsigned long __attribute__((noipa))
hleaf(unsigned long x)
{
	unsigned long	i, n = (x & 3) + 1;

	nhleaf++;
	for (i = 0; i < n; i++)
		x = x * 5 + i;
	return (x);
}

/* The handler's function that calls a leaf (twice, never a tail call). */
static unsigned long __attribute__((noipa))
node(unsigned long x)
{
	nnode++;
	return (leaf(x) + leaf(x + 1) * 2);
}

/* The second timer's handler, a leaf. */
static void __attribute__((noipa))
tick(int sig)
{
	(void)sig;
	ntick++;
}

static void
handler(int sig)
{
	unsigned long	l, n;
	pid_t		pid;
	int		status;

	(void)sig;
	nsig++;
	sink += leaf(nsig);
	sink += hleaf(nsig);
	sink += node(nsig);
	if (phase == 2 && inpark) {
		inpark = 0;
		njump++;
		siglongjmp(jb, 1);
	}
	if (phase == 3 && !forked) {
		l = nleaf;
		n = nnode;
		if ((pid = fork()) == 0) {
			sink += node(1);
			_exit((int)((nleaf - l) | (nnode - n) << 4));
		}
		if (pid > 0) {
			while (waitpid(pid, &status, 0) < 0)
				;
			if (WIFEXITED(status)) {
				nleaf += WEXITSTATUS(status) & 15;
				nnode += WEXITSTATUS(status) >> 4;
			}
		}
		forked = 1;
	}
	if ((phase == 4 || phase == 5) && inpark) {
		inpark = 0;
		left = 1;
		nctx++;
		setcontext(&uc);
	}
}

/* poke's fault: out of it (and its trampoline) by a siglongjmp. */
static void
segv(int sig)
{
	(void)sig;
	nfault++;
	sink += leaf(nfault);
	sink += node(nfault);
	siglongjmp(jbf, 1);
}

/* trip's ud2: stepped over, back into it. */
static void
ill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t	*u = ucv;

	(void)sig;
	(void)si;
	ntripped++;
	sink += leaf(ntripped);
	sink += node(ntripped);
	u->uc_mcontext.gregs[REG_RIP] += 2;
}

/* Handle sig with fn, block (if not 0) blocked while fn runs. */
static int
catch(int sig, void (*fn)(int), int block)
{
	struct sigaction	sa;

	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	if (block != 0)
		sigaddset(&sa.sa_mask, block);
	sa.sa_flags = SA_RESTART;
	return (sigaction(sig, &sa, NULL));
}

int
main(void)
{
	struct itimerval	it = { { 0, 300 }, { 0, 300 } };
	struct itimerval	vt = { { 0, 1000 }, { 0, 1000 } };
	struct timespec		t0, t1;
	struct sigaction	sa;
	sigset_t		alrm;
	unsigned long		j, x;
	int			i;

	/*
	 * No SIGALRM in tick: its handler's jump out of park would leave
	 * the agent's code if it came while tick's entry ran there (park
	 * runs below), the thread marked busy for good (an entry then is
	 * missed: the agent's own code is never traced).  A siglongjmp
	 * tells the agent, a setcontext does not.
	 */
	if (catch(SIGALRM, handler, 0) != 0 ||
	    catch(SIGVTALRM, tick, SIGALRM) != 0 ||
	    setitimer(ITIMER_REAL, &it, NULL) != 0 ||
	    setitimer(ITIMER_VIRTUAL, &vt, NULL) != 0) {
		perror("leafsig");
		return (1);
	}
	phase = 1;
	for (i = 0; i < SPINS; i++) {
		nspin++;
		sink += spin(20000);
	}
	phase = 2;
	while (npark < PARKS) {
		if (sigsetjmp(jb, 1) == 0) {
			npark++;
			park();
		}
	}
	phase = 3;
	nwait++;
	forkwait();
	phase = 4;
	getcontext(&uc);
	while (nhop < CTXS) {
		nhop++;
		nspin++;
		sink += hop();
		npark++;
		park();
	}
	phase = 5;
	for (i = 0; i < NESTS; i++) {
		nnest++;
		nest();
		for (j = 0, x = 1; j < BURN; j++)
			x = x * 6364136223846793005UL + j;
		sink += x;
	}
	phase = 6;
	if (catch(SIGALRM, leafsig_raw, 0) != 0) {
		perror("leafsig");
		return (1);
	}
	getcontext(&uc);
	while (npark < PARKS + CTXS + NESTS + RAWS) {
		npark++;
		park();
	}
	phase = 7;
	if (catch(SIGSEGV, segv, 0) != 0) {
		perror("leafsig");
		return (1);
	}
	while (npoke < FAULTS) {
		if (sigsetjmp(jbf, 1) == 0) {
			npoke++;
			sink += (unsigned long)poke(NULL);
		}
	}
	phase = 8;
	if (catch(SIGSEGV, leafsig_rawsegv, 0) != 0) {
		perror("leafsig");
		return (1);
	}
	getcontext(&ucf);
	while (npoke < FAULTS + RAWFAULTS) {
		npoke++;
		sink += (unsigned long)poke(NULL);
	}
	phase = 9;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = ill;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	if (sigaction(SIGILL, &sa, NULL) != 0) {
		perror("leafsig");
		return (1);
	}
	for (i = 0; i < TRIPS; i++) {
		if (trip() == 4)
			ntrip++;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (j = 0, x = 1; j < BURN; j++)
		x = x * 6364136223846793005UL + j;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	sink += x;

	/* No handler after the counts are read. */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigaddset(&alrm, SIGVTALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	printf("handler %lu\nleaf %lu\nnode %lu\ntick %lu\nhleaf %lu\n", nsig,
	    nleaf, nnode, ntick, nhleaf);
	printf("spin %lu\npark %lu\nforkwait %lu\n", nspin, npark, nwait);
	printf("hop %lu\nnest %lu\n", nhop, nnest);
	printf("jumps %lu\ncontexts %lu\nraw %lu\nforks %d\n", njump, nctx,
	    nraw, (int)forked);
	printf("poke %lu\nfaults %lu\nrawfaults %lu\ntrip %lu\n"
	    "tripped %lu\n", npoke, nfault, nrawsegv, ntrip, ntripped);
	printf("burn %lld\n", (t1.tv_sec - t0.tv_sec) * 1000000000LL +
	    t1.tv_nsec - t0.tv_nsec);
	return (0);
}
