/*
 * The browser's main loop: one poll() over the terminal, a signalfd and
 * the views' background work.  ncurses only draws; libtermkey reads every
 * key, mouse event and the lone Esc.  The terminal is restored on quit, on
 * fatal(), on SIGINT/SIGTERM/SIGHUP (then the signal is re-raised so the
 * exit status says so) and across Ctrl-Z / fg.
 */
#include <sys/ioctl.h>
#include <sys/signalfd.h>

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>
#include <termkey.h>

#include "xmalloc.h"
#include "kind.h"
#include "vis.h"
#include "report/report.h"
#include "tui/tui.h"

/* How long one slice of background work may hold the loop. */
#define LOOP_SLICE_NS		(4 * 1000 * 1000)
/* How often a view that is still loading redraws its progress. */
#define LOOP_PROGRESS_NS	(100 * 1000 * 1000)
/* How often a statement running inside one step looks for a stop. */
#define LOOP_LOOK_NS		(10 * 1000 * 1000)
#define LOOP_HELD		64

static struct {
	struct store		*st;
	const struct tui_opts	*opts;
	TermKey			*tk;
	int			 sfd;
	sigset_t		 sigs;
	int			 curses;	/* initscr'd and not ended */

	struct tui_view		**stack;
	size_t			 nstack;

	char			*message;
	void			(*confirm)(void *);
	void			*confirm_arg;
	char			*question;

	FILE			*trace;
	/*
	 * PROFVIEW_WORK_SLOW=MS: background work one step a slice and MS
	 * between slices, so a screen test sees a load in progress and acts
	 * on it however fast the machine.  0: by the clock.
	 */
	int			 slow_ms;
	uint64_t		 start_ns;
	int			 frames;
	int			 keyed;		/* no more "? help" */
	int			 quit;

	/* Keys read by tui_interrupted, for the loop to handle after. */
	TermKeyKey		 held[LOOP_HELD];
	size_t			 nheld;
	uint64_t		 looked;	/* last look, for the rate */
	uint64_t		 esc_since;	/* a lone Esc pending */

	/* A view to make busy at a time (a live source's --every). */
	struct tui_view		*wake;
	uint64_t		 wake_at;
} loop;

uint64_t
tui_now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/*
 * The next key, as the key table knows it.  tmux (with TERM=xterm-*),
 * PuTTY and GNU screen send Home and End as CSI 1~ and CSI 4~, which
 * libtermkey names after the VT220 keys there, Find and Select, when the
 * terminfo entry does not claim them: vim and less take them as Home and
 * End, and so does profview (it binds no Find or Select).
 */
static TermKeyResult
loop_getkey(int force, TermKeyKey *key)
{
	TermKeyResult	res;

	res = force ? termkey_getkey_force(loop.tk, key) :
	    termkey_getkey(loop.tk, key);
	if (res == TERMKEY_RES_KEY && key->type == TERMKEY_TYPE_KEYSYM) {
		if (key->code.sym == TERMKEY_SYM_FIND)
			key->code.sym = TERMKEY_SYM_HOME;
		else if (key->code.sym == TERMKEY_SYM_SELECT)
			key->code.sym = TERMKEY_SYM_END;
	}
	return (res);
}

/*
 * Whether to stop a statement that runs inside one step (the :sql table's
 * watcher asks, store_query_watch): Ctrl-C, read here so the loop does
 * not quit on it; SIGTERM or SIGHUP, left for the loop, which dies of
 * them; or a key that closes the view or quits.  Keys typed meanwhile
 * are kept, in order, for the loop.  Looks every LOOP_LOOK_NS at most.
 */
int
tui_interrupted(void)
{
	static const struct timespec	 now = { 0, 0 };
	struct pollfd			 pfd;
	sigset_t			 set, one;
	TermKeyResult			 res;
	TermKeyKey			*key;
	const struct tui_key		*k;
	uint64_t			 t = tui_now_ns();

	if (t - loop.looked < LOOP_LOOK_NS)
		return (0);
	loop.looked = t;
	if (sigpending(&set) == 0) {
		if (sigismember(&set, SIGTERM) || sigismember(&set, SIGHUP))
			return (1);
		if (sigismember(&set, SIGINT)) {
			sigemptyset(&one);
			sigaddset(&one, SIGINT);
			sigtimedwait(&one, NULL, &now);
			return (1);
		}
	}
	pfd.fd = STDIN_FILENO;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) == 1)
		termkey_advisereadable(loop.tk);
	else if (loop.esc_since == 0)
		return (0);
	while (loop.nheld < LOOP_HELD) {
		key = &loop.held[loop.nheld];
		res = loop_getkey(loop.esc_since != 0 && t - loop.esc_since >=
		    (uint64_t)termkey_get_waittime(loop.tk) * 1000000, key);
		if (res == TERMKEY_RES_AGAIN && loop.esc_since == 0)
			loop.esc_since = t;
		if (res != TERMKEY_RES_KEY)
			break;
		loop.esc_since = 0;
		loop.nheld++;
		if (key->type == TERMKEY_TYPE_MOUSE || tui_prompt_active())
			continue;
		if ((k = tui_keymap_lookup(tui_top()->keys, key)) == NULL)
			k = tui_keymap_lookup(&tui_keys_global, key);
		if (k != NULL && (k->action == TUI_ACT_BACK ||
		    k->action == TUI_ACT_QUIT))
			return (1);
	}
	return (0);
}

struct store *
tui_store(void)
{
	return (loop.st);
}

/*
 * A session's program name, else its file's base name, for headers:
 * made safe (vis.c), as views draw it as it is.
 */
char *
tui_session_name(int64_t id)
{
	struct store_session	 ss;
	const char		*t, *base;
	char			*name;

	if (store_session_get(tui_store(), id, &ss) != 0)
		return (xasprintf("session %lld", (long long)id));
	t = ss.program != NULL && *ss.program != '\0' ? ss.program : ss.source;
	base = strrchr(t, '/');
	name = vis(base != NULL ? base + 1 : t);
	store_session_free(&ss);
	return (name);
}

/* A line in the PROFVIEW_TRACE file, if there is one (for bench/). */
void
tui_trace(const char *fmt, ...)
{
	va_list	ap;

	if (loop.trace == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(loop.trace, fmt, ap);
	va_end(ap);
	fputc('\n', loop.trace);
}

const struct tui_opts *
tui_options(void)
{
	return (loop.opts);
}

/*
 * Make v busy (its work op runs) at time at (tui_now_ns), or never if at
 * is 0: background work that waits, such as a timer, without the loop
 * spinning meanwhile.  One view at a time.
 */
void
tui_wake(struct tui_view *v, uint64_t at)
{
	loop.wake = at != 0 ? v : NULL;
	loop.wake_at = at;
}

int
tui_writable(void)
{
	return (loop.opts->writable);
}

/* Set the status line message until the next key. */
void
tui_message(const char *fmt, ...)
{
	va_list	ap;

	free(loop.message);
	va_start(ap, fmt);
	loop.message = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Ask a y/n question; fn(arg) runs on y. */
void
tui_confirm(void (*fn)(void *), void *arg, const char *fmt, ...)
{
	va_list	ap;

	free(loop.question);
	va_start(ap, fmt);
	loop.question = xvasprintf(fmt, ap);
	va_end(ap);
	loop.confirm = fn;
	loop.confirm_arg = arg;
}

struct tui_view *
tui_view_new(const struct tui_view_ops *ops, void *data)
{
	struct tui_view	*v;

	v = xcalloc(1, sizeof *v);
	v->ops = ops;
	v->keys = ops->keys;
	v->data = data;
	return (v);
}

void
tui_view_free(struct tui_view *v)
{
	if (v == NULL)
		return;
	if (loop.wake == v)
		tui_wake(NULL, 0);
	if (v->ops->free != NULL)
		v->ops->free(v);
	tui_search_free(&v->search);
	free(v->find);
	free(v);
}

/*
 * Show v over the top view, which is its parent unless it has one.  A
 * view of its parent's session is of its parent's kind.
 */
void
tui_push(struct tui_view *v)
{
	if (v->parent == NULL)
		v->parent = tui_top();
	if (v->kind == NULL && v->parent != NULL &&
	    v->session == v->parent->session)
		v->kind = v->parent->kind;
	loop.stack = xreallocarray(loop.stack, loop.nstack + 1,
	    sizeof *loop.stack);
	loop.stack[loop.nstack++] = v;
}

struct tui_view *
tui_top(void)
{
	return (loop.nstack != 0 ? loop.stack[loop.nstack - 1] : NULL);
}

static void
loop_pop(void)
{
	if (loop.nstack <= 1) {
		loop.quit = 1;
		return;
	}
	tui_view_free(loop.stack[--loop.nstack]);
}

/* Close the top view (a view that is done with itself). */
void
tui_pop(void)
{
	loop_pop();
}

/* Pop down to the first sessions view, or push one. */
void
tui_show_sessions(void)
{
	size_t		 i;
	struct tui_view	*v;

	for (i = 0; i < loop.nstack; i++) {
		if (strcmp(loop.stack[i]->ops->name, "sessions") == 0)
			break;
	}
	if (i == loop.nstack) {
		tui_push(tui_sessions_new());
		return;
	}
	while (loop.nstack > i + 1)
		tui_view_free(loop.stack[--loop.nstack]);
	/* Reload: a session may have come or gone. */
	v = tui_sessions_new();
	v->parent = loop.stack[i]->parent;
	v->list.cur = loop.stack[i]->list.cur;
	v->list.height = loop.stack[i]->list.height;
	tui_view_free(loop.stack[i]);
	loop.stack[i] = v;
}

/*
 * The report of the view's session written from the model the view draws
 * (so an export shows what is on screen, and loads nothing again).
 */
int
tui_export_model(struct tui_view *tv, const void *model, int format,
    FILE *f, char **cause)
{
	struct store_session	ss;
	int			rc;

	if (store_session_get(loop.st, tv->session, &ss) != 0) {
		*cause = xasprintf("no session %lld", (long long)tv->session);
		return (-1);
	}
	rc = report_write(loop.st, &ss, model, format, f, cause);
	store_session_free(&ss);
	return (rc);
}

/*
 * Open session id in the view of its kind (tui/kinds.c); quiet: no
 * message on success.
 */
int
tui_open_session(int64_t id, int quiet)
{
	const struct tui_kind	*k;
	struct store_session	 ss;
	struct tui_view		*v;
	char			*cause = NULL, kind[sizeof ss.kind];

	if (store_session_get(loop.st, id, &ss) != 0) {
		tui_message("error: no session %lld", (long long)id);
		return (-1);
	}
	memcpy(kind, ss.kind, sizeof kind);
	store_session_free(&ss);
	if ((k = tui_kind_find(kind)) == NULL) {
		tui_message("session %lld: no view for %s sessions yet (try"
		    " :sql)", (long long)id, kind);
		return (-1);
	}
	if ((v = k->mode->open(id, &cause)) == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (-1);
	}
	/* Kept, so :export and help need not ask the store again. */
	v->kind = kind_find(kind);
	tui_push(v);
	if (!quiet)
		tui_message("opened session %lld", (long long)id);
	return (0);
}

void
tui_quit(void)
{
	loop.quit = 1;
}

/*
 * Mouse reporting: clicks and wheel, and moves with a button held (the
 * heap map's drag), SGR encoding.
 */
static void
loop_mouse_mode(int on)
{
	static const char	on_s[] = "\033[?1000h\033[?1002h\033[?1006h";
	static const char	off_s[] = "\033[?1006l\033[?1002l\033[?1000l";
	ssize_t			n;

	if (on)
		n = write(STDOUT_FILENO, on_s, sizeof on_s - 1);
	else
		n = write(STDOUT_FILENO, off_s, sizeof off_s - 1);
	(void)n;
}

/*
 * Give the terminal back; safe to call twice and from fatal().  termkey
 * switched the keypad and cursor keys to application mode (smkx): it
 * switches them back.
 */
static void
loop_restore(void)
{
	if (!loop.curses)
		return;
	loop.curses = 0;
	loop_mouse_mode(0);
	if (loop.tk != NULL && termkey_is_started(loop.tk))
		termkey_stop(loop.tk);
	curs_set(1);
	endwin();
}

static void
loop_resize(void)
{
	struct winsize	ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
}

/*
 * The crash path: a fault inside the browser, or any signal that would
 * kill it, must not leave the terminal raw.  Only async-signal-safe calls
 * here: switch mouse reporting, application cursor keys and keypad
 * (rmkx) and the alternate screen off, reset the colours, show the
 * cursor, put back the termios saved before curses started, and die of
 * the same signal for the core and the status.
 */
static struct termios	loop_termios;
static int		loop_termios_ok;

static void
loop_crash(int sig)
{
	static const char reset[] = "\033[?1006l\033[?1002l\033[?1000l"
	    "\033[?1l\033>\033[m\033[?1049l\033[?25h\r\n";

	/* A failed write is no reason to skip the termios or the signal. */
	if (write(STDOUT_FILENO, reset, sizeof reset - 1) < 0)
		errno = 0;
	if (loop_termios_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &loop_termios);
	raise(sig);	/* SA_RESETHAND: the default action now */
	_exit(128 + sig);
}

static void
loop_crash_handlers(int on)
{
	/* Every signal whose default kills, but those on the signalfd. */
	static const int	 sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				    SIGABRT, SIGQUIT, SIGTRAP, SIGSYS,
				    SIGXCPU, SIGXFSZ, SIGPIPE, SIGALRM,
				    SIGVTALRM, SIGPROF, SIGUSR1, SIGUSR2,
				    SIGIO, SIGPWR, SIGSTKFLT };
	/* A stack of their own: a stack overflow's SIGSEGV still runs. */
	static char		 altstack[64 * 1024];
	stack_t			 ss;
	struct sigaction	 sa;
	size_t			 i;

	if (on) {
		memset(&ss, 0, sizeof ss);
		ss.ss_sp = altstack;
		ss.ss_size = sizeof altstack;
		sigaltstack(&ss, NULL);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? loop_crash : SIG_DFL;
	sa.sa_flags = on ? SA_RESETHAND | SA_NODEFER | SA_ONSTACK : 0;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Die of sig with the terminal restored, so the exit status tells. */
static void __attribute__((noreturn))
loop_die(int sig)
{
	sigset_t	one;

	loop_restore();
	if (loop.trace != NULL)
		fflush(loop.trace);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void
loop_suspend(void)
{
	sigset_t	one;

	loop_restore();		/* termkey stopped too */
	signal(SIGTSTP, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(SIGTSTP);
	/* Stopped here until SIGCONT. */
	sigprocmask(SIG_BLOCK, &one, NULL);
	termkey_start(loop.tk);
	loop.curses = 1;
	loop_mouse_mode(1);
	loop_resize();
}

static int
loop_busy(void)
{
	size_t	i;

	for (i = 0; i < loop.nstack; i++) {
		if (loop.stack[i]->busy)
			return (1);
	}
	return (0);
}

static int
loop_cancel(void)
{
	size_t	i;
	int	any = 0;

	for (i = 0; i < loop.nstack; i++) {
		if (loop.stack[i]->busy) {
			loop.stack[i]->ops->work(loop.stack[i], 0);
			loop.stack[i]->busy = 0;
			any = 1;
		}
	}
	return (any);
}

static int
loop_signals(void)
{
	struct signalfd_siginfo	si;
	int			r = TUI_R_NONE;

	while (read(loop.sfd, &si, sizeof si) == sizeof si) {
		switch (si.ssi_signo) {
		case SIGWINCH:
			loop_resize();
			r |= TUI_R_CLEAR;
			break;
		case SIGINT:
			/* ^C stops a running query first, like a shell. */
			if (loop_cancel()) {
				tui_message("interrupted");
				r |= TUI_R_DRAW;
				break;
			}
			loop_die(SIGINT);
		case SIGTERM:
		case SIGHUP:
			/*
			 * The terminal first (the cancels may wait on a
			 * thread or a child), then the views' work stops:
			 * an update's ingest process must not outlive the
			 * browser and store its session after it has gone.
			 */
			loop_restore();
			loop_cancel();
			loop_die((int)si.ssi_signo);
		case SIGTSTP:
			loop_suspend();
			r |= TUI_R_CLEAR;
			break;
		case SIGCONT:
			r |= TUI_R_CLEAR;
			break;
		}
	}
	return (r);
}

static void
loop_status(int y)
{
	struct tui_view	*v = tui_top();
	char		*left;
	int		 x, attr, mw;

	if (y < 0)
		return;
	if (tui_prompt_active()) {
		tui_prompt_draw(y, COLS);
		return;
	}
	if (loop.question != NULL) {
		tui_put(y, 0, COLS, tui_attr(TUI_C_ERROR), loop.question);
		return;
	}
	/*
	 * Narrow screens keep the view and the position; a message that
	 * would not fit beside them gets the line to itself but the view's
	 * name, since it says what just happened.
	 */
	mw = loop.message != NULL ? tui_strwidth(loop.message) + 3 : 0;
	if (v->session != 0 && COLS >= 40)
		left = xasprintf("[%s] session %lld | %zu/%zu", v->keys->name,
		    (long long)v->session, v->list.n != 0 ? v->list.cur + 1 :
		    0, v->list.n);
	else
		left = xasprintf("[%s] %zu/%zu", v->keys->name,
		    v->list.n != 0 ? v->list.cur + 1 : 0, v->list.n);
	if (tui_strwidth(left) + mw > COLS) {
		free(left);
		left = xasprintf("[%s]", v->keys->name);
	}
	x = tui_put(y, 0, COLS, A_BOLD, left);
	free(left);
	if (loop.message != NULL) {
		attr = strncmp(loop.message, "error", 5) == 0 ?
		    tui_attr(TUI_C_ERROR) : TUI_PLAIN;
		x += tui_put(y, x, COLS - x, TUI_PLAIN, " | ");
		x += tui_put(y, x, COLS - x, attr, loop.message);
	}
	/* Where to start, for whoever has not pressed a key yet. */
	if (!loop.keyed && x + 8 <= COLS)
		tui_put(y, COLS - 6, 6, tui_attr(TUI_C_HEADER), "? help");
}

static void
loop_draw(int clear)
{
	struct tui_view	*v = tui_top();
	char		*title;

	if (clear)
		clearok(curscr, TRUE);
	erase();
	title = v->ops->title(v);
	tui_fill(0, 0, COLS, tui_attr(TUI_C_TITLE));
	tui_put(0, 0, COLS, tui_attr(TUI_C_TITLE), title);
	free(title);
	if (LINES > 2)
		v->ops->draw(v, 1, LINES - 2, COLS);
	else
		tui_list_fit(&v->list, 0);
	if (LINES > 1)
		loop_status(LINES - 1);
	curs_set(tui_prompt_active() ? 1 : 0);
	wnoutrefresh(stdscr);
	doupdate();
	if (loop.frames++ == 0 && loop.trace != NULL) {
		struct timespec	rt;

		clock_gettime(CLOCK_REALTIME, &rt);
		fprintf(loop.trace, "first_frame_us %llu\n"
		    "first_frame_realtime_ns %llu\n",
		    (unsigned long long)(tui_now_ns() - loop.start_ns) / 1000,
		    (unsigned long long)rt.tv_sec * 1000000000ULL +
		    (unsigned long long)rt.tv_nsec);
	}
}

static int
loop_mouse(TermKeyKey *key)
{
	struct tui_view		*v = tui_top();
	struct tui_list		*l = &v->list;
	TermKeyMouseEvent	 ev;
	int			 button, line, col, i, row;

	if (termkey_interpret_mouse(loop.tk, key, &ev, &button, &line,
	    &col) != TERMKEY_RES_KEY)
		return (TUI_R_NONE);
	if (tui_prompt_active() || loop.question != NULL)
		return (TUI_R_NONE);
	/* Drags and releases only for a view that asks for the mouse. */
	if (ev == TERMKEY_MOUSE_DRAG || ev == TERMKEY_MOUSE_RELEASE) {
		if (v->ops->mouse == NULL)
			return (TUI_R_NONE);
		return (v->ops->mouse(v, button | (ev == TERMKEY_MOUSE_DRAG ?
		    TUI_MOUSE_DRAG : TUI_MOUSE_RELEASE), line - 1, col - 1));
	}
	if (ev != TERMKEY_MOUSE_PRESS)
		return (TUI_R_NONE);
	if (v->ops->mouse != NULL)
		return (v->ops->mouse(v, button, line - 1, col - 1));
	if (button == 4 || button == 5) {
		for (i = 0; i < 3; i++)
			tui_list_action(l, button == 4 ? TUI_ACT_UP :
			    TUI_ACT_DOWN);
		return (TUI_R_DRAW);
	}
	if (button != 1)
		return (TUI_R_NONE);
	/* termkey counts lines and columns from 1. */
	row = line - 1 - l->y;
	if (row < 0 || row >= l->height || l->top + (size_t)row >= l->n)
		return (TUI_R_NONE);
	l->cur = l->top + (size_t)row;
	return (TUI_R_DRAW);
}

static int
loop_global(const struct tui_key *k)
{
	struct tui_view	*v = tui_top();

	switch (k->action) {
	case TUI_ACT_BACK:
		loop_pop();
		return (TUI_R_DRAW);
	case TUI_ACT_ESCAPE:
		/*
		 * Escape backs out of what was begun last, the search's
		 * marks and then the view, but is too easily pressed to
		 * quit: on the last view only q and Q do.
		 */
		if (v->search.pattern != NULL && !v->search.hidden) {
			v->search.hidden = 1;
			tui_message("/%s: marks off (n finds it again)",
			    v->search.pattern);
			return (TUI_R_DRAW);
		}
		if (loop.nstack > 1) {
			loop_pop();
			return (TUI_R_DRAW);
		}
		tui_message("Escape never quits: q or Q does");
		return (TUI_R_DRAW);
	case TUI_ACT_QUIT:
		loop.quit = 1;
		return (TUI_R_NONE);
	case TUI_ACT_HELP:
		if (strcmp(v->ops->name, "help") != 0)
			tui_push(tui_help_new(v));
		return (TUI_R_DRAW);
	case TUI_ACT_PROMPT:
		tui_prompt_open(':');
		return (TUI_R_DRAW);
	case TUI_ACT_SEARCH:
		tui_prompt_open('/');
		return (TUI_R_DRAW);
	case TUI_ACT_NEXT:
		return (tui_search_step(v, 1));
	case TUI_ACT_PREV:
		return (tui_search_step(v, -1));
	case TUI_ACT_REDRAW:
		return (TUI_R_CLEAR);
	default:
		tui_message("%s does nothing in the %s view", k->keys,
		    v->keys->name);
		return (TUI_R_DRAW);
	}
}

/*
 * A key for the view on top: its own group's binding first, then the
 * global one.  The view sees every action first, then the list, then the
 * loop's own; but a view that is not ready (still loading) sees none,
 * and only the keys that work while loading (struct tui_key) go on.
 */
static int
loop_key(TermKeyKey *key)
{
	struct tui_view		*v = tui_top();
	const struct tui_key	*k;
	const char		*word;
	char		 name[64];
	int		 r;
	void		(*fn)(void *);

	if (key->type == TERMKEY_TYPE_MOUSE)
		return (loop_mouse(key));
	if (tui_prompt_active())
		return (tui_prompt_key(key));
	if (loop.question != NULL) {
		fn = loop.confirm;
		free(loop.question);
		loop.question = NULL;
		loop.confirm = NULL;
		/* Anything but a yes is a no. */
		k = tui_keymap_lookup(&tui_keys_confirm, key);
		if (k != NULL && k->action == TUI_ACT_CONFIRM_YES)
			fn(loop.confirm_arg);
		else
			tui_message("cancelled");
		return (TUI_R_DRAW);
	}
	free(loop.message);
	loop.message = NULL;
	if ((k = tui_keymap_lookup(v->keys, key)) == NULL)
		k = tui_keymap_lookup(&tui_keys_global, key);
	if (k == NULL) {
		if ((word = tui_keymap_word(key)) != NULL) {
			tui_message("%s does nothing in the %s view (? shows"
			    " its keys)", word, v->keys->name);
			return (TUI_R_DRAW);
		}
		termkey_strfkey(loop.tk, name, sizeof name, key,
		    TERMKEY_FORMAT_VIM);
		tui_message("%s is not bound (? shows the keys)", name);
		return (TUI_R_DRAW);
	}
	if (v->ops->ready != NULL && !v->ops->ready(v)) {
		if (!k->loading)
			return (TUI_R_NONE);
	} else if ((r = v->ops->key(v, k->action)) != TUI_R_UNUSED)
		return (r);
	if ((r = tui_list_action(&v->list, k->action)) != TUI_R_UNUSED)
		return (r);
	return (loop_global(k));
}

static uint64_t
loop_cpu_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/* Handle one key and redraw; trace how long that took. */
static void
loop_one_key(TermKeyKey *key)
{
	uint64_t	 t0 = tui_now_ns(), c0 = loop_cpu_ns();
	const char	*view = tui_top()->keys->name;
	char		 name[64], busy[64];
	int		 r;

	loop.keyed = 1;
	if (tui_prompt_active())
		view = "prompt";
	else if (tui_top()->busy) {
		snprintf(busy, sizeof busy, "%s-loading", view);
		view = busy;
	}

	r = loop_key(key);
	if (loop.quit)
		return;
	if (r & (TUI_R_DRAW | TUI_R_CLEAR | TUI_R_UNUSED))
		loop_draw(r & TUI_R_CLEAR);
	if (loop.trace != NULL) {
		termkey_strfkey(loop.tk, name, sizeof name, key,
		    TERMKEY_FORMAT_VIM);
		/* One word per field, for the bench's awk. */
		if (strcmp(name, " ") == 0)
			strcpy(name, "<Space>");
		/* Wall time, then CPU time: the machine may be shared. */
		fprintf(loop.trace, "key %s %s %llu %llu\n", view,
		    key->type == TERMKEY_TYPE_MOUSE ? "mouse" : name,
		    (unsigned long long)(tui_now_ns() - t0) / 1000,
		    (unsigned long long)(loop_cpu_ns() - c0) / 1000);
	}
}

/* Read what the terminal has; returns the poll timeout for a lone Esc. */
static int
loop_input(int forced)
{
	TermKeyKey	key;
	TermKeyResult	res;
	int		wait;

	for (;;) {
		res = loop_getkey(forced, &key);
		forced = 0;
		if (res == TERMKEY_RES_KEY) {
			loop_one_key(&key);
			if (loop.quit)
				return (-1);
			continue;
		}
		if (res == TERMKEY_RES_AGAIN) {
			wait = termkey_get_waittime(loop.tk);
			return (wait > 0 ? wait : 1);
		}
		if (res == TERMKEY_RES_EOF)
			loop.quit = 1;
		return (-1);
	}
}

/* One slice of background work; redraw when the top view progressed. */
static void
loop_work(uint64_t *last_draw)
{
	struct tui_view	*v, *top = tui_top();
	uint64_t	 deadline = tui_now_ns(), now;
	size_t		 i;
	int		 top_done = 0;

	if (loop.slow_ms == 0)
		deadline += LOOP_SLICE_NS;
	for (i = 0; i < loop.nstack; i++) {
		v = loop.stack[i];
		if (!v->busy)
			continue;
		if (v->busy_since == 0)
			v->busy_since = tui_now_ns();
		if (!v->ops->work(v, deadline)) {
			v->busy = 0;
			if (loop.trace != NULL)
				fprintf(loop.trace, "work_done %s %llu\n",
				    v->keys->name, (unsigned long long)
				    (tui_now_ns() - v->busy_since) / 1000);
			/* The next work the view asks for is timed anew. */
			v->busy_since = 0;
			if (v == top)
				top_done = 1;
		}
		/* A diff row's item, once the view has what shows it. */
		if (tui_find_pending(v) && v == top)
			top_done = 1;
	}
	now = tui_now_ns();
	if (top_done || (top->busy && now - *last_draw > LOOP_PROGRESS_NS)) {
		loop_draw(0);
		*last_draw = now;
	}
}

static void
loop_run(void)
{
	struct pollfd	pfd[2];
	uint64_t	last_draw = 0, esc = 0, now;
	size_t		i;
	int		wait = -1, r, timeout, ms;

	loop_draw(0);
	while (!loop.quit) {
		/* Keys typed while a statement ran (tui_interrupted). */
		for (i = 0; i < loop.nheld && !loop.quit; i++)
			loop_one_key(&loop.held[i]);
		loop.nheld = 0;
		if (loop.quit)
			break;
		/* A lone Esc waits termkey's time, even while work runs. */
		timeout = wait;
		if (loop.wake != NULL) {
			now = tui_now_ns();
			ms = loop.wake_at > now ? (int)((loop.wake_at - now +
			    999999) / 1000000) : 0;
			if (timeout < 0 || ms < timeout)
				timeout = ms;
		}
		if (loop_busy() && (timeout < 0 || timeout > loop.slow_ms))
			timeout = loop.slow_ms;
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = loop.sfd;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, timeout) < 0) {
			if (errno == EINTR)
				continue;
			fatal("poll: %s", strerror(errno));
		}
		if (pfd[1].revents & POLLIN) {
			if ((r = loop_signals()) != TUI_R_NONE)
				loop_draw(r & TUI_R_CLEAR);
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			termkey_advisereadable(loop.tk);
			wait = loop_input(0);
			if (pfd[0].revents & (POLLHUP | POLLERR) &&
			    !(pfd[0].revents & POLLIN))
				loop.quit = 1;
			esc = wait >= 0 ? tui_now_ns() +
			    (uint64_t)wait * 1000000 : 0;
		} else if (wait >= 0 && tui_now_ns() >= esc)
			wait = loop_input(1);
		if (loop.wake != NULL && tui_now_ns() >= loop.wake_at) {
			loop.wake->busy = 1;
			tui_wake(NULL, 0);
		}
		if (!loop.quit && loop_busy())
			loop_work(&last_draw);
	}
}

int
tui_main(struct store *st, const int64_t *ids, size_t n,
    const struct tui_opts *opts)
{
	const struct tui_kind	*k;
	const char		*trace;
	size_t			 i;

	memset(&loop, 0, sizeof loop);
	loop.start_ns = tui_now_ns();
	loop.st = st;
	loop.opts = opts;
	store_query_writes(st, opts->writable);
	if ((trace = getenv("PROFVIEW_TRACE")) != NULL && *trace != '\0') {
		if ((loop.trace = fopen(trace, "w")) != NULL)
			setvbuf(loop.trace, NULL, _IOLBF, 0);
	}
	if ((trace = getenv("PROFVIEW_WORK_SLOW")) != NULL &&
	    (loop.slow_ms = atoi(trace)) < 0)
		loop.slow_ms = 0;
	if (loop.slow_ms > 1000)
		loop.slow_ms = 1000;
	setlocale(LC_ALL, "");

	/* Signals arrive on the fd only, so block them first. */
	sigemptyset(&loop.sigs);
	sigaddset(&loop.sigs, SIGWINCH);
	sigaddset(&loop.sigs, SIGINT);
	sigaddset(&loop.sigs, SIGTERM);
	sigaddset(&loop.sigs, SIGHUP);
	sigaddset(&loop.sigs, SIGTSTP);
	sigaddset(&loop.sigs, SIGCONT);
	sigprocmask(SIG_BLOCK, &loop.sigs, NULL);
	if ((loop.sfd = signalfd(-1, &loop.sigs, SFD_NONBLOCK |
	    SFD_CLOEXEC)) == -1)
		fatal("signalfd: %s", strerror(errno));

	if ((loop.tk = termkey_new(STDIN_FILENO, TERMKEY_FLAG_NOTERMIOS)) ==
	    NULL)
		fatal("termkey_new: %s", strerror(errno));
	tui_keymap_init(loop.tk);
	loop_termios_ok = (tcgetattr(STDIN_FILENO, &loop_termios) == 0);
	/*
	 * newterm, not initscr: initscr exits by itself when TERM is no
	 * good, with termkey's keypad mode left on.
	 */
	if (newterm(NULL, stdout, stdin) == NULL) {
		termkey_destroy(loop.tk);
		loop.tk = NULL;
		fatal("cannot start curses on TERM=%s", getenv("TERM") !=
		    NULL ? getenv("TERM") : "(unset)");
	}
	loop.curses = 1;
	fatal_hook(loop_restore);
	loop_crash_handlers(1);
	cbreak();
	noecho();
	nonl();
	/*
	 * A frame goes out whole: with typeahead on, curses polls the
	 * terminal as it writes one and, when a key is waiting, sends what
	 * it has so far (a frame half old, half new, on screen until the
	 * rest follows).  Keys are read between frames.
	 */
	typeahead(-1);
	curs_set(0);
	tui_draw_init();
	loop_mouse_mode(1);
	tui_prompt_init();

	tui_push(tui_sessions_new());
	if (opts->live != NULL) {
		/* The view of the first snapshot, which follows the source. */
		if (tui_open_session(opts->live_session, 1) == 0 &&
		    (k = tui_kind_find(tui_top()->kind->name)) != NULL &&
		    k->mode->live != NULL)
			k->mode->live(tui_top(), opts);
	} else if (opts->open != NULL)
		tui_push(opts->open(opts->open_arg));
	else if (n == 1)
		tui_open_session(ids[0], 1);
	else if (n > 1) {
		/* Put the cursor on the first session named. */
		for (i = 0; i < loop.stack[0]->list.n; i++) {
			if (tui_sessions_id(loop.stack[0], i) == ids[0]) {
				loop.stack[0]->list.cur = i;
				break;
			}
		}
	}
	loop_run();

	loop_restore();
	loop_crash_handlers(0);
	fatal_hook(NULL);
	tui_prompt_save();
	termkey_destroy(loop.tk);
	while (loop.nstack > 0)
		tui_view_free(loop.stack[--loop.nstack]);
	free(loop.stack);
	free(loop.message);
	free(loop.question);
	close(loop.sfd);
	sigprocmask(SIG_UNBLOCK, &loop.sigs, NULL);
	if (loop.trace != NULL)
		fclose(loop.trace);
	return (0);
}
