/*
 * Stand-ins for the C library.  Each does its bookkeeping and calls the
 * real function (the next definition after this library).
 *
 * The non-local exits keep the shadow stack true: longjmp and siglongjmp
 * close the frames they jump over, a thrown C++ exception gets the real
 * return addresses back while the unwinder walks them and the catch
 * closes what it unwound, and exit, abort, exec and thread exit close
 * whatever is open.  fork's child takes a slot of its own, and exec
 * keeps the agent in an environment the program chose.
 */
#include <alloca.h>
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/pvtrace/pvtrace.h"
#include "capture/pvtrace/agent.h"

/* The stack pointer a jmp_buf restores (glibc's mangled JB_RSP). */
static uint64_t
agent_jb_sp(const void *env)
{
	uint64_t	v = ((const uint64_t *)env)[6], guard;

	__asm__("movq %%fs:0x30, %0" : "=r"(guard));
	v = (v >> 0x11) | (v << (64 - 0x11));
	return (v ^ guard);
}

static void
agent_longjmp(const void *env)
{
	uint64_t	sp = agent_jb_sp(env), here = (uint64_t)&sp;

	if (!pvt_g.on || pvt_t.slot == NULL)
		return;
	/* A target below us, or misaligned, is not a stack pointer. */
	if (sp < here || (sp & 7) != 0)
		return;
	pvt_unwind_below(sp);
}

AGENT_EXPORT void
longjmp(jmp_buf env, int val)
{
	REAL(longjmp);
	agent_longjmp(env);
	real_longjmp(env, val);
	__builtin_unreachable();
}

AGENT_EXPORT void
_longjmp(jmp_buf env, int val)
{
	REAL(_longjmp);
	agent_longjmp(env);
	real__longjmp(env, val);
	__builtin_unreachable();
}

AGENT_EXPORT void
siglongjmp(sigjmp_buf env, int val)
{
	REAL(siglongjmp);
	agent_longjmp(env);
	real_siglongjmp(env, val);
	__builtin_unreachable();
}

void __longjmp_chk(jmp_buf, int) __attribute__((noreturn));
AGENT_EXPORT void
__longjmp_chk(jmp_buf env, int val)
{
	REAL(__longjmp_chk);
	agent_longjmp(env);
	real___longjmp_chk(env, val);
	__builtin_unreachable();
}

/* C++ exceptions: the unwinder must see the real return addresses. */
int _Unwind_RaiseException(void *);
AGENT_EXPORT int
_Unwind_RaiseException(void *e)
{
	REAL(_Unwind_RaiseException);
	if (pvt_g.on) {
		pvt_restore_all();
		pvt_t.unwinding = 1;
	}
	return (real__Unwind_RaiseException(e));
}

int _Unwind_Resume_or_Rethrow(void *);
AGENT_EXPORT int
_Unwind_Resume_or_Rethrow(void *e)
{
	REAL(_Unwind_Resume_or_Rethrow);
	if (pvt_g.on) {
		pvt_restore_all();
		pvt_t.unwinding = 1;
	}
	return (real__Unwind_Resume_or_Rethrow(e));
}

int _Unwind_Backtrace(int (*)(void *, void *), void *);
AGENT_EXPORT int
_Unwind_Backtrace(int (*fn)(void *, void *), void *arg)
{
	int	rv;

	REAL(_Unwind_Backtrace);
	if (pvt_g.on)
		pvt_restore_all();
	rv = real__Unwind_Backtrace(fn, arg);
	if (pvt_g.on)
		pvt_rearm();
	return (rv);
}

/*
 * The handler's landing pad calls this in the catching function's
 * frame: every frame below that function's stack pointer was unwound.
 */
void *__cxa_begin_catch(void *);
AGENT_EXPORT void * __attribute__((noinline))
__cxa_begin_catch(void *e)
{
	REAL(__cxa_begin_catch);
	if (pvt_g.on && pvt_t.slot != NULL) {
		pvt_unwind_below((uint64_t)__builtin_frame_address(0) + 16);
		pvt_rearm();
	}
	pvt_t.unwinding = 0;
	return (real___cxa_begin_catch(e));
}

AGENT_EXPORT void
pthread_exit(void *rv)
{
	REAL(pthread_exit);
	if (pvt_g.on)
		pvt_detach_all(1, PVT_ST_EXITCLOSED);
	real_pthread_exit(rv);
	__builtin_unreachable();
}

static void
agent_exiting(void)
{
	if (!pvt_g.on)
		return;
	pvt_detach_all(0, PVT_ST_EXITCLOSED);
	agent_others_end();
}

AGENT_EXPORT void
exit(int status)
{
	REAL(exit);
	agent_exiting();
	real_exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
quick_exit(int status)
{
	REAL(quick_exit);
	agent_exiting();
	real_quick_exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
_exit(int status)
{
	REAL(_exit);
	agent_exiting();
	real__exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
_Exit(int status)
{
	REAL(_Exit);
	agent_exiting();
	real__Exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
abort(void)
{
	REAL(abort);
	agent_exiting();
	real_abort();
	__builtin_unreachable();
}

/* vfork's child would share our bookkeeping with its parent: fork. */
AGENT_EXPORT pid_t
vfork(void)
{
	return (fork());
}

pid_t _Fork(void);
AGENT_EXPORT pid_t
_Fork(void)
{
	pid_t	pid;

	REAL(_Fork);
	agent_prefork();
	pid = real__Fork();
	if (pid == 0)
		agent_child();
	return (pid);
}

/*
 * exec: close this thread's frames (restoring the return addresses, in
 * case the exec fails), date the others', and keep the agent in an
 * environment the program chose.
 */
static char **
agent_env(char *const envp[])
{
	size_t	 n, i, j;
	char	**v, *pre;
	int	 has_shm = 0, has_pre = -1;

	if (agent_g.env_shm == NULL || envp == NULL)
		return ((char **)envp);
	for (n = 0; envp[n] != NULL; n++) {
		if (strncmp(envp[n], "PVTRACE_SHM=", 12) == 0)
			has_shm = 1;
		else if (strncmp(envp[n], "LD_PRELOAD=", 11) == 0)
			has_pre = (int)n;
	}
	if (has_shm && has_pre >= 0)
		return ((char **)envp);
	if ((v = calloc(n + 3, sizeof *v)) == NULL)
		return ((char **)envp);
	for (i = j = 0; i < n; i++) {
		if ((int)i == has_pre && agent_g.env_preload != NULL &&
		    strstr(envp[i], agent_g.env_preload) == NULL &&
		    asprintf(&pre, "LD_PRELOAD=%s:%s", agent_g.env_preload,
		    envp[i] + 11) >= 0)
			v[j++] = pre;
		else
			v[j++] = envp[i];
	}
	if (has_pre < 0 && agent_g.env_preload != NULL &&
	    asprintf(&pre, "LD_PRELOAD=%s", agent_g.env_preload) >= 0)
		v[j++] = pre;
	if (!has_shm)
		v[j++] = agent_g.env_shm;
	v[j] = NULL;
	return (v);
}

static void
agent_exec(void)
{
	if (!pvt_g.on)
		return;
	pvt_detach_all(1, PVT_ST_EXITCLOSED);
	agent_others_end();
}

AGENT_EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	agent_exec();
	return (real_execve(path, argv, agent_env(envp)));
}

AGENT_EXPORT int
execv(const char *path, char *const argv[])
{
	return (execve(path, argv, environ));
}

AGENT_EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execvpe);
	agent_exec();
	return (real_execvpe(file, argv, agent_env(envp)));
}

AGENT_EXPORT int
execvp(const char *file, char *const argv[])
{
	return (execvpe(file, argv, environ));
}

AGENT_EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	REAL(fexecve);
	agent_exec();
	return (real_fexecve(fd, argv, agent_env(envp)));
}

/* The list forms: gather the arguments, then as above. */
#define AGENT_ARGV(first, ap, v, envp) do { \
	size_t	 n_ = 1; \
	va_list	 c_; \
	va_copy(c_, ap); \
	while (va_arg(c_, char *) != NULL) \
		n_++; \
	va_end(c_); \
	v = alloca((n_ + 1) * sizeof *v); \
	v[0] = (char *)(first); \
	for (n_ = 1; (v[n_] = va_arg(ap, char *)) != NULL; n_++) \
		; \
	if (envp != NULL) \
		*(char ***)(envp) = va_arg(ap, char **); \
} while (0)

AGENT_EXPORT int
execl(const char *path, const char *arg, ...)
{
	va_list	  ap;
	char	**v;

	va_start(ap, arg);
	AGENT_ARGV(arg, ap, v, (char ***)NULL);
	va_end(ap);
	return (execve(path, v, environ));
}

AGENT_EXPORT int
execlp(const char *file, const char *arg, ...)
{
	va_list	  ap;
	char	**v;

	va_start(ap, arg);
	AGENT_ARGV(arg, ap, v, (char ***)NULL);
	va_end(ap);
	return (execvpe(file, v, environ));
}

AGENT_EXPORT int
execle(const char *path, const char *arg, ...)
{
	va_list	  ap;
	char	**v, **envp = NULL;

	va_start(ap, arg);
	AGENT_ARGV(arg, ap, v, &envp);
	va_end(ap);
	return (execve(path, v, envp));
}

/*
 * SIGTRAP is the agent's while functions are trapped: the program's
 * handler is kept aside and called for breakpoints that are not ours,
 * and SIGTRAP is never blocked (a blocked int3 kills the process).
 */
AGENT_EXPORT int
sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	struct sigaction	copy;

	REAL(sigaction);
	if (!agent_g.trap_handler)
		return (real_sigaction(sig, sa, old));
	if (sig == SIGTRAP) {
		if (old != NULL)
			*old = agent_g.user_trap;
		if (sa != NULL)
			agent_g.user_trap = *sa;
		return (0);
	}
	if (sa != NULL && sigismember(&sa->sa_mask, SIGTRAP)) {
		copy = *sa;
		sigdelset(&copy.sa_mask, SIGTRAP);
		sa = &copy;
	}
	return (real_sigaction(sig, sa, old));
}

AGENT_EXPORT sighandler_t
signal(int sig, sighandler_t h)
{
	sighandler_t	old;

	REAL(signal);
	if (!agent_g.trap_handler || sig != SIGTRAP)
		return (real_signal(sig, h));
	old = agent_g.user_trap.sa_handler;
	memset(&agent_g.user_trap, 0, sizeof agent_g.user_trap);
	agent_g.user_trap.sa_handler = h;
	return (old);
}

static const sigset_t *
agent_mask(int how, const sigset_t *set, sigset_t *copy)
{
	if (!agent_g.trap_handler || set == NULL || how == SIG_UNBLOCK ||
	    !sigismember(set, SIGTRAP))
		return (set);
	*copy = *set;
	sigdelset(copy, SIGTRAP);
	return (copy);
}

AGENT_EXPORT int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	REAL(sigprocmask);
	return (real_sigprocmask(how, agent_mask(how, set, &copy), old));
}

AGENT_EXPORT int
pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	REAL(pthread_sigmask);
	return (real_pthread_sigmask(how, agent_mask(how, set, &copy), old));
}

