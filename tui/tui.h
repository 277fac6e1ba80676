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

#include "store/store.h"

struct tui_opts {
	int	writable;	/* :sql may write */
};

int	tui_main(struct store *, const int64_t *, size_t,
	    const struct tui_opts *);

/*
 * Everything below is shared by the files of tui/ only.
 *
 * The one key table: action, keys (termkey names, space separated; "C-x"
 * is Ctrl-x, a single character is itself), and the help line.  The help
 * view and the KEYS section of the man page are generated from it.
 */
#define TUI_ACTIONS \
	A(BACK,		"q Escape",		"close the view; quit on the last one") \
	A(QUIT,		"Q",			"quit profview") \
	A(HELP,		"?",			"show the keys and commands") \
	A(PROMPT,	":",			"open the command prompt") \
	A(SEARCH,	"/",			"search names in the view") \
	A(NEXT,		"n",			"next search match") \
	A(PREV,		"N",			"previous search match") \
	A(DOWN,		"j Down C-n",		"move down one row; the timeline's next event") \
	A(UP,		"k Up C-p",		"move up one row; the timeline's previous event") \
	A(PAGE_DOWN,	"PageDown C-f Space",	"move down one page; pan the timeline a screen") \
	A(PAGE_UP,	"PageUp C-b",		"move up one page; pan the timeline a screen") \
	A(FIRST,	"Home g",		"go to the first row or event") \
	A(LAST,		"End G",		"go to the last row or event") \
	A(LEFT,		"h Left",		"scroll the table one column left; pan the timeline") \
	A(RIGHT,	"l Right",		"scroll the table one column right; pan the timeline") \
	A(ENTER,	"Enter",		"open the row: a session, a bucket's symbols; the timeline's unit") \
	A(SORT,		"s",			"histogram: cycle the sort (address, hits)") \
	A(TOGGLE,	"t",			"histogram: buckets or per-symbol flat profile") \
	A(MERGE,	"+",			"histogram, timeline: merge adjacent buckets or time columns (zoom out)") \
	A(SPLIT,	"-",			"histogram, timeline: split merged buckets or time columns (zoom in)") \
	A(UNIT_PREV,	"[",			"timeline: previous event of the unit under the cursor") \
	A(UNIT_NEXT,	"]",			"timeline: next event of the unit under the cursor") \
	A(UNITS,	"u Tab",		"timeline: the per-unit table (Enter there jumps to the unit)") \
	A(DELETE,	"d",			"sessions: delete the session (asks y/n)") \
	A(REDRAW,	"C-l",			"redraw the screen")

#define A(name, keys, help) TUI_ACT_##name,
enum tui_action {
	TUI_ACT_NONE,
	TUI_ACTIONS
	TUI_ACT_COUNT
};
#undef A

/* The : commands: name, arguments, help line. */
#define TUI_COMMANDS \
	C(sql,		"QUERY",	"run QUERY on the store and show the result as a table") \
	C(export,	"FORMAT FILE",	"write the current view's report (text, csv, json, html, chrome) to FILE") \
	C(open,		"ID",		"open session ID in its natural view") \
	C(sessions,	"",		"show the sessions view") \
	C(help,		"",		"show the keys and commands") \
	C(q,		"",		"quit profview (also :quit)") \
	C(quit,		"",		"quit profview")

struct tui_action_info {
	const char	*name;
	const char	*keys;
	const char	*help;
};
struct tui_command_info {
	const char	*name;
	const char	*args;
	const char	*help;
};
extern const struct tui_action_info	tui_actions[TUI_ACT_COUNT];
extern const struct tui_command_info	tui_commands[];
extern const size_t			tui_ncommands;

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
};

struct tui_view;

struct tui_view_ops {
	const char	*name;
	const char	*help;		/* what the view shows */
	void		(*draw)(struct tui_view *, int, int, int);
	int		(*key)(struct tui_view *, enum tui_action);
	char		*(*title)(struct tui_view *);
	/* Optional. */
	int		(*match)(struct tui_view *, size_t, const char *);
	int		(*export)(struct tui_view *, int, FILE *, char **);
	/* Background work until the deadline (tui_now_ns); 0 when done.
	   A deadline of 0 cancels. */
	int		(*work)(struct tui_view *, uint64_t);
	/* A mouse press: button (1 left, 4/5 wheel), screen row, column. */
	int		(*mouse)(struct tui_view *, int, int, int);
	void		(*free)(struct tui_view *);
};

struct tui_view {
	const struct tui_view_ops	*ops;
	struct tui_list			 list;
	struct tui_search		 search;
	int64_t				 session;	/* 0: none */
	int				 busy;		/* work() pending */
	uint64_t			 busy_since;
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
struct tui_view	*tui_view_new(const struct tui_view_ops *, void *);
void		 tui_view_free(struct tui_view *);
int		 tui_open_session(int64_t, int);
struct tui_view	*tui_top(void);
void		 tui_show_sessions(void);
void		 tui_quit(void);

/* keymap.c */
int		 tui_keymap_init(void *);
enum tui_action	 tui_keymap_lookup(const void *);
struct tui_view	*tui_help_new(void);

/* list.c: cursor movement and search shared by list views. */
int		 tui_list_action(struct tui_list *, enum tui_action);
void		 tui_list_fit(struct tui_list *, int);
void		 tui_list_goto(struct tui_list *, size_t);
int		 tui_search_start(struct tui_view *, const char *);
int		 tui_search_step(struct tui_view *, int);
void		 tui_search_free(struct tui_search *);
char		*tui_search_status(struct tui_view *);
int		 tui_strcasestr(const char *, const char *);

/* draw.c */
enum tui_color {
	TUI_C_NONE,
	TUI_C_HEAT1, TUI_C_HEAT2, TUI_C_HEAT3, TUI_C_HEAT4, TUI_C_HEAT5,
	TUI_C_TITLE,
	TUI_C_HEADER,
	TUI_C_CURSOR,
	TUI_C_NULL,
	TUI_C_ERROR,
	TUI_C_COUNT
};
#define TUI_PLAIN	0	/* no attribute */
void		 tui_draw_init(void);
int		 tui_attr(enum tui_color);
int		 tui_put(int, int, int, int, const char *);
int		 tui_putf(int, int, int, int, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
void		 tui_fill(int, int, int, int);
void		 tui_bar(int, int, int, double, int);
enum tui_color	 tui_heat(double);
int		 tui_strwidth(const char *);

/* prompt.c */
void		 tui_prompt_init(void);
void		 tui_prompt_save(void);
void		 tui_prompt_open(int);
int		 tui_prompt_active(void);
int		 tui_prompt_key(const void *);
void		 tui_prompt_draw(int, int);
char		*tui_history_path(void);

/* cmd.c */
int		 tui_command(const char *);

/* Views. */
struct tui_view	*tui_sessions_new(void);
int64_t		 tui_sessions_id(struct tui_view *, size_t);
struct tui_view	*tui_hist_new(int64_t, char **);
struct tui_view	*tui_table_new(const char *, char **);
struct analyze_ovd;
struct tui_view	*tui_timeline_new(int64_t, char **);
const struct analyze_ovd *tui_timeline_ovd(struct tui_view *);
const char	*tui_timeline_program(struct tui_view *);
int		 tui_timeline_unit(struct tui_view *, uint32_t);
struct tui_view	*tui_units_new(struct tui_view *);
void		 tui_units_select(struct tui_view *, uint32_t);

#endif
