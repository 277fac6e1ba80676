/*
 * tui: the interactive browser.  The only module that includes curses or
 * termkey headers; this header includes neither, so main.c and the tests
 * that check the key table can use it without a terminal.
 */
#ifndef TUI_H
#define TUI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "store/store.h"

struct tui_view;

struct tui_opts {
	int	writable;	/* :sql may write */
	/*
	 * --attach: a live source (kind.h), whose first snapshot is
	 * session live_session, from live_file; the view of that session
	 * follows the source (its kind's tui_mode live hook).
	 */
	const char	*live;
	int64_t		 live_session;
	double		 every;		/* --every, seconds; 0 none */
	unsigned	 keep;		/* --keep: its sessions kept; 0 all */
	const char	*live_file;
	/* A view to open over the sessions view (else none). */
	struct tui_view	*(*open)(void *);
	void	*open_arg;
};

int	tui_main(struct store *, const int64_t *, size_t,
	    const struct tui_opts *);

/*
 * Everything below is shared by the files of tui/ only.
 *
 * Keys, as tig's keymaps and tmux's key tables: every view declares its
 * own group of them (its ops' keys, in the view's file), the loop has the
 * global one, the prompt line and a y/n question theirs.  A key is looked
 * up in the top view's group first and then in the global one, so a view
 * may give a global key its own meaning, and a key bound in one view's
 * group does nothing in the other views.  Every key is bound in one of
 * these tables and nowhere else; the help view and the KEYS section of
 * the man page are generated from them (tui_keymap_groups).  Keys are
 * termkey names, space separated ("C-x" is Ctrl-x, "S-Tab" Shift-Tab, a
 * single character is itself).
 *
 * An action is one of the loop's (TUI_ACT_*, below) or one of the view's
 * own, numbered from TUI_ACT_VIEW by the view; only the view on top sees
 * its own.
 */
enum tui_action {
	TUI_ACT_NONE,
	TUI_ACT_BACK,
	TUI_ACT_ESCAPE,
	TUI_ACT_QUIT,
	TUI_ACT_HELP,
	TUI_ACT_PROMPT,
	TUI_ACT_SEARCH,
	TUI_ACT_NEXT,
	TUI_ACT_PREV,
	TUI_ACT_DOWN,
	TUI_ACT_UP,
	TUI_ACT_PAGE_DOWN,
	TUI_ACT_PAGE_UP,
	TUI_ACT_FIRST,
	TUI_ACT_LAST,
	TUI_ACT_REDRAW,
	TUI_ACT_PROMPT_ENTER,
	TUI_ACT_PROMPT_CANCEL,
	TUI_ACT_PROMPT_LEFT,
	TUI_ACT_PROMPT_RIGHT,
	TUI_ACT_PROMPT_HOME,
	TUI_ACT_PROMPT_END,
	TUI_ACT_PROMPT_BACKSPACE,
	TUI_ACT_PROMPT_DELETE,
	TUI_ACT_PROMPT_KILL_START,
	TUI_ACT_PROMPT_KILL_END,
	TUI_ACT_PROMPT_KILL_WORD,
	TUI_ACT_PROMPT_COMPLETE,
	TUI_ACT_PROMPT_OLDER,
	TUI_ACT_PROMPT_NEWER,
	TUI_ACT_CONFIRM_YES,
	TUI_ACT_CONFIRM_NO,
	TUI_ACT_VIEW = 0x100
};

struct tui_key {
	int		 action;
	const char	*keys;
	const char	*help;
	/*
	 * The key works while the view loads (its ready op says no): it
	 * goes to the list and the loop, never the view; any other key
	 * does nothing until the view is ready.
	 */
	int		 loading;
};
#define TUI_KEY(action, keys, help)		{ action, keys, help, 0 }
#define TUI_KEY_LOADING(action, keys, help)	{ action, keys, help, 1 }

/* A key group: its name (the view's, in help and messages), its keys. */
struct tui_keys {
	const char		*name;
	const char		*title;	/* its heading in help */
	const struct tui_key	*key;
	size_t			 n;
};
#define TUI_KEYS(name, title, table) \
	{ name, title, table, sizeof table / sizeof table[0] }

/*
 * A : command, as tmux's cmd_entry: name, alias (or NULL), arguments,
 * the handler, the completer of the arguments (or NULL; given the
 * argument's number from 0, it returns the candidates, space separated,
 * or NULL), and the help line.  cmd.c has the commands of every view; a
 * kind's view brings its own (struct tui_mode), with neither handler
 * nor completer: they go to the view's command and complete ops.
 * tui_command runs a line through them, Tab completes from them, and the
 * help view and the man page list them.
 */
struct tui_view;
struct tui_command {
	const char	*name;
	const char	*alias;
	const char	*args;
	int		(*exec)(struct tui_view *, const char *);
	char		*(*complete)(struct tui_view *, int);
	const char	*help;
};
#define TUI_COMMAND(name, alias, args, exec, complete, help) \
	{ name, alias, args, exec, complete, help }

#define TUI_MOUSE_DRAG		0x100
#define TUI_MOUSE_RELEASE	0x200

/* What an action needs redrawn (htop's reaction style). */
#define TUI_R_NONE	0x0
#define TUI_R_DRAW	0x1	/* redraw the screen */
#define TUI_R_CLEAR	0x2	/* repaint every cell (C-l, resume) */
#define TUI_R_QUIT	0x4
#define TUI_R_UNUSED	0x8	/* the view has no use for the action */

/* A scrolling list with a cursor; most views are one. */
struct tui_list {
	size_t	n;
	size_t	cur;
	size_t	top;
	int	y;		/* screen row of the first list row */
	int	height;		/* rows on screen, set by draw */
};

struct tui_search {
	char	*pattern;
	size_t	*rows;		/* matching rows, ascending */
	size_t	 n;
	size_t	 at;		/* index into rows of the current match */
	int	 stale;		/* rows changed order: recompute */
	int	 hidden;	/* Escape took the marks off; n: back */
	int	 isaddr;	/* the pattern reads as an address too: */
	uint64_t addr;		/* this linear one */
};

struct kind;

struct tui_view_ops {
	const char	*name;
	const char	*help;		/* what the view shows */
	const struct tui_keys *keys;	/* its key group */
	void		(*draw)(struct tui_view *, int, int, int);
	/* An action of the view's keys or the loop's (TUI_ACT_*). */
	int		(*key)(struct tui_view *, int);
	char		*(*title)(struct tui_view *);
	/* Optional. */
	/*
	 * Whether the view has what it shows (a stored session loads
	 * first): until then only the keys that work while loading.
	 */
	int		(*ready)(struct tui_view *);
	int		(*match)(struct tui_view *, size_t, const char *);
	/* Before a search: show the rows that match (a tree opens). */
	void		(*reveal)(struct tui_view *, const char *);
	/*
	 * Show the item a diff row names (analyze/diff.h's row name): 0
	 * done, 1 not yet (what it needs is still loading; asked again
	 * after each slice of work).  Without it, once the view is ready,
	 * a search for the name's last function (tui_find).
	 */
	int		(*find)(struct tui_view *, const char *);
	int		(*export)(struct tui_view *, int, FILE *, char **);
	/* Background work until the deadline (tui_now_ns); 0 when done.
	   A deadline of 0 cancels. */
	int		(*work)(struct tui_view *, uint64_t);
	/*
	 * A mouse press: button (1 left, 2 middle, 3 right, 4/5 wheel),
	 * screen row, column; with TUI_MOUSE_DRAG, the pointer moved with
	 * the button held; with TUI_MOUSE_RELEASE, it was let go.
	 */
	int		(*mouse)(struct tui_view *, int, int, int);
	/*
	 * The commands a view has of its own (cmd.c's entries that name
	 * a view): the command's name and its arguments; and Tab's
	 * candidates for argument n of it (NULL: none).
	 */
	int		(*command)(struct tui_view *, const char *,
			    const char *);
	char		*(*complete)(struct tui_view *, const char *, int);
	/*
	 * For the views this one opens, which reach it as their parent:
	 * the session's model that the view draws (kind.h's model_load:
	 * a timeline's overlay log, say), and a jump to item k of
	 * that model (a timeline: unit k's first event; a unit table: its
	 * row); -1 when there is nothing to jump to.
	 */
	const void	*(*model)(struct tui_view *);
	int		(*jump)(struct tui_view *, size_t);
	void		(*free)(struct tui_view *);
};

struct tui_view {
	const struct tui_view_ops	*ops;
	/* The key group in force: ops->keys, or one the view switched to. */
	const struct tui_keys		*keys;
	struct tui_list			 list;
	struct tui_search		 search;
	struct tui_view			*parent;	/* what opened it */
	int64_t				 session;	/* 0: none */
	const struct kind		*kind;		/* the session's */
	int				 busy;		/* work() pending */
	uint64_t			 busy_since;
	char				*find;	/* tui_find's, until loaded */
	void				*data;
};

/* loop.c */
struct store	*tui_store(void);
char		*tui_session_name(int64_t);
int		 tui_writable(void);
void		 tui_push(struct tui_view *);
void		 tui_pop(void);
void		 tui_message(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 tui_confirm(void (*)(void *), void *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
uint64_t	 tui_now_ns(void);
void		 tui_wake(struct tui_view *, uint64_t);
void		 tui_trace(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
const struct tui_opts *tui_options(void);
int		 tui_interrupted(void);
struct tui_view	*tui_view_new(const struct tui_view_ops *, void *);
void		 tui_view_free(struct tui_view *);
int		 tui_open_session(int64_t, int);
int		 tui_export_model(struct tui_view *, const void *, int, FILE *,
		    char **);
struct tui_view	*tui_top(void);
void		 tui_show_sessions(void);
void		 tui_quit(void);

/* keymap.c */
extern const struct tui_keys tui_keys_global;
extern const struct tui_keys tui_keys_prompt;
extern const struct tui_keys tui_keys_confirm;
int		 tui_keymap_init(void *);
const struct tui_keys *const *tui_keymap_groups(size_t *);
const struct tui_key *tui_keymap_lookup(const struct tui_keys *,
		    const void *);
const char	*tui_keymap_word(const void *);

/*
 * kinds.c: the view of each session kind (kind.h), and what it brings to
 * the browser (tmux's window_mode): its opener, the key groups of the
 * views it opens, in the order help lists them, its : commands, its
 * colours, and an optional live source, which makes the view it opened
 * follow the source that tui_opts.live names (--attach).
 */
/*
 * :help NAME at length: a command of a view, or a name of the system the
 * view grew from (HeapInspector's ZoomOut, or GCOnOff, which has no
 * sense in C and says so).
 */
struct tui_topic {
	const char	*name;		/* what :help takes, any case */
	const char	*seed;		/* the seed's spelling */
	const char	*ours;		/* profview's, or NULL: none */
	const char	*seed_does;	/* the seed's description, our words */
	const char	*here;		/* what it is in C and C++ here */
};

struct tui_mode {
	struct tui_view		*(*open)(int64_t, char **);
	const struct tui_keys	*const *keys;	/* NULL-terminated */
	const char		*what;		/* "the heap map" */
	const struct tui_command *commands;	/* to a NULL name */
	struct tui_colours	*colours;
	void			(*live)(struct tui_view *,
				    const struct tui_opts *);
	const struct tui_topic	*topics;	/* to a NULL name */
};
struct tui_kind {
	const char		*name;
	const struct tui_mode	*mode;
};
const struct tui_kind *tui_kind_find(const char *);
const struct tui_kind *tui_kind_at(size_t);

/* list.c: cursor movement and search shared by list views. */
int		 tui_list_action(struct tui_list *, enum tui_action);
void		 tui_list_fit(struct tui_list *, int);
void		 tui_list_goto(struct tui_list *, size_t);
int		 tui_search_start(struct tui_view *, const char *);
int		 tui_search_step(struct tui_view *, int);
void		 tui_search_free(struct tui_search *);
char		*tui_search_status(struct tui_view *);
int		 tui_search_addr(const char *, uint64_t *);
int		 tui_search_in(const struct tui_search *, uint64_t,
		    uint64_t);
const char	*tui_search_marks(const struct tui_view *);
void		 tui_find(struct tui_view *, const char *);
int		 tui_find_pending(struct tui_view *);
int		 tui_strcasestr(const char *, const char *);

/*
 * draw.c.  Every colour pair is made by tui_draw_init: the browser's
 * own, these, from draw.c's table, then each kind's view's (its mode's
 * colours, whose base is then its first pair's number: a view draws in
 * its colour k with tui_attr(base + k)).  Each has its 8-colour and
 * monochrome form; a view asks tui_attr for one and never calls
 * init_pair.
 */
enum tui_color {
	TUI_C_NONE,
	TUI_C_HEAT1, TUI_C_HEAT2, TUI_C_HEAT3, TUI_C_HEAT4, TUI_C_HEAT5,
	TUI_C_TITLE,
	TUI_C_HEADER,
	TUI_C_CURSOR,
	TUI_C_NULL,
	TUI_C_ERROR,
	TUI_C_MATCH,
	TUI_C_SOURCE,		/* the annotate view's source lines */
	TUI_C_COUNT
};
/* A colour that is the terminal's own background (or black). */
#define TUI_COLOUR_DEFAULT	-1
struct tui_colour {
	short	fg, bg;		/* 256 colours */
	short	fg8, bg8;	/* 8 colours */
	int	attr;		/* with the colours */
	int	mono;		/* instead of them */
};
struct tui_colours {
	const struct tui_colour	*colour;
	size_t			 n;
	int			 base;	/* its first pair: draw.c's */
};
#define TUI_PLAIN	0	/* no attribute */
void		 tui_draw_init(void);
int		 tui_attr(int);
int		 tui_halves(void);
void		 tui_put_halves(int, int, int, int);
int		 tui_put(int, int, int, int, const char *);
int		 tui_put_marks(int, int, int, int, const char *,
		    const char *);
int		 tui_putf(int, int, int, int, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
void		 tui_fill(int, int, int, int);
void		 tui_bar(int, int, int, double, int);
enum tui_color	 tui_heat(double);
int		 tui_strwidth(const char *);
void		 tui_num_fit(char *, size_t, int, double, int);
void		 tui_count_fit(char *, size_t, int, uint64_t);

/* prompt.c */
void		 tui_prompt_init(void);
void		 tui_prompt_save(void);
void		 tui_prompt_open(int);
int		 tui_prompt_active(void);
int		 tui_prompt_key(const void *);
void		 tui_prompt_draw(int, int);
char		*tui_history_path(void);

/* state.c: what is kept across runs, per session. */
char		*tui_state_path(const char *);
void		 tui_state_mkdirs(const char *);
char		*tui_state_get(const char *);
void		 tui_state_put(const char *, const char *);

/* cmd.c */
int		 tui_command(const char *);
char		*tui_command_complete(const char *, struct tui_view *, int);
const struct tui_command *const *tui_command_list(size_t *);
int		 tui_command_offered(const struct tui_command *,
		    struct tui_view *);

/*
 * Views the kinds' views share and the browser's own, with their key
 * groups (a kind's own view is its mode's, tui/kinds.c).
 */
extern const struct tui_keys tui_keys_sessions;
extern const struct tui_keys tui_keys_annotate;
extern const struct tui_keys tui_keys_units;
extern const struct tui_keys tui_keys_sql;
extern const struct tui_keys tui_keys_help;
extern const struct tui_keys tui_keys_diff;
struct tui_view	*tui_sessions_new(void);
int64_t		 tui_sessions_id(struct tui_view *, size_t);
struct tui_view	*tui_table_new(const char *, char **);
struct tui_view	*tui_help_new(struct tui_view *);
struct tui_view	*tui_diff_new(int64_t, int64_t, char **);
struct tui_view	*tui_help_topic(const char *, const struct tui_topic *,
		    const struct tui_command *);

#endif
