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
	/* --attach: the heap map of session attach_session, live. */
	const char	*attach;
	int64_t		 attach_session;
	double		 every;		/* --every, seconds; 0 none */
	unsigned	 keep;		/* --keep: its sessions kept; 0 all */
	const char	*attach_file;	/* attach_session's snapshot */
	/* A view to open over the sessions view (else none). */
	struct tui_view	*(*open)(void *);
	void	*open_arg;
};

int	tui_main(struct store *, const int64_t *, size_t,
	    const struct tui_opts *);
int	tui_heaplive_snapshot(const char *, char **, char **);

/*
 * Everything below is shared by the files of tui/ only.
 *
 * Key groups, as tig's keymaps: the keys of every view, one group per
 * view (found by the view's name, so a view needs nothing else to get its
 * keys), and the two modal ones, the prompt line and a y/n question.  A
 * key is looked up in the top view's group first and then in the global
 * one, so a view may give a global key its own meaning, and a key bound
 * in one view's group does nothing in the other views.  Columns: group,
 * the view's name (ops->name), the heading in help and the man page.
 * The modal groups come last, from PROMPT on.
 */
#define TUI_GROUPS \
	G(GLOBAL,	"global",	"In every view") \
	G(SESSIONS,	"sessions",	"In the sessions view") \
	G(HISTOGRAM,	"histogram",	"In the histogram") \
	G(BUCKET,	"bucket",	"In a bucket's symbols") \
	G(ANNOTATE,	"annotate",	"In the annotate view") \
	G(TIMELINE,	"timeline",	"In the timeline") \
	G(UNITS,	"units",	"In the unit table") \
	G(HEAPMAP,	"heapmap",	"In the heap map") \
	G(HEAPINFO,	"heapinfo",	"In the heap map's info table") \
	G(CALLS,	"calls",	"In the calls view") \
	G(CALLERS,	"callers",	"In a function's callers and callees") \
	G(TREE,		"tree",		"In the call tree") \
	G(SLOTS,	"slots",	"In the slots view") \
	G(HITS,		"hits",		"In the hit table's flat profile") \
	G(SQL,		"sql",		"In a :sql table") \
	G(HELP,		"help",		"In the help view") \
	G(PROMPT,	"prompt",	"At the : and / prompt") \
	G(CONFIRM,	"confirm",	"At a y/n question")

#define G(id, name, title) TUI_G_##id,
enum tui_group {
	TUI_GROUPS
	TUI_G_COUNT
};
#undef G

/*
 * The one key table (tig's REQ_INFO): group, action, keys (termkey names,
 * space separated; "C-x" is Ctrl-x, "S-Tab" Shift-Tab, a single character
 * is itself) and the help line.  Every key is bound here and nowhere
 * else; the help view and the KEYS section of the man page are generated
 * from it.  Actions of a view's group are named after the view, except
 * the :sql table's LEFT and RIGHT, which tui/table.c knows by those names.
 */
#define TUI_ACTIONS \
	A(GLOBAL, BACK,		"q", \
	    "close the view; quit on the last one") \
	A(GLOBAL, ESCAPE,	"Escape", \
	    "end the search, else close the view; never quits") \
	A(GLOBAL, QUIT,		"Q", "quit profview") \
	A(GLOBAL, HELP,		"? F1", \
	    "show the keys, this view's first, and the commands") \
	A(GLOBAL, PROMPT,	":", "open the command prompt") \
	A(GLOBAL, SEARCH,	"/", \
	    "search names and addresses (hex, 0x, h, seg:off)") \
	A(GLOBAL, NEXT,		"n", "next search match") \
	A(GLOBAL, PREV,		"N", "previous search match") \
	A(GLOBAL, DOWN,		"j Down C-n", "move down one row") \
	A(GLOBAL, UP,		"k Up C-p", "move up one row") \
	A(GLOBAL, PAGE_DOWN,	"PageDown C-f Space", "move down one page") \
	A(GLOBAL, PAGE_UP,	"PageUp C-b", "move up one page") \
	A(GLOBAL, FIRST,	"Home g", "go to the first row") \
	A(GLOBAL, LAST,		"End G", "go to the last row") \
	A(GLOBAL, REDRAW,	"C-l", "redraw the screen") \
	A(SESSIONS, SESSIONS_OPEN, "Enter", "open the session in its view") \
	A(SESSIONS, SESSIONS_DELETE, "d", \
	    "delete the session (asks y/n)") \
	A(HISTOGRAM, HIST_SORT,	"s", "cycle the sort (hits, address)") \
	A(HISTOGRAM, HIST_FLAT,	"t", "buckets or per-symbol flat profile") \
	A(HISTOGRAM, HIST_ZERO,	"z", \
	    "hide or show the rows without hits") \
	A(HISTOGRAM, HIST_PCT,	"%", \
	    "percentages of all samples or of the rows listed") \
	A(HISTOGRAM, HIST_MERGE, "+", \
	    "merge adjacent buckets (zoom out)") \
	A(HISTOGRAM, HIST_SPLIT, "-", "split merged buckets (zoom in)") \
	A(HISTOGRAM, HIST_OPEN,	"Enter", \
	    "the symbols in the bucket; on a symbol, its annotation") \
	A(HISTOGRAM, HIST_ANNOTATE, "a", \
	    "annotate the symbol, or the code in the bucket") \
	A(BUCKET, BUCKET_ANNOTATE, "Enter a", "annotate the symbol") \
	A(ANNOTATE, ANN_HOT_NEXT, "Tab", \
	    "the next hottest instruction (bucket without a hit table)") \
	A(ANNOTATE, ANN_HOT_PREV, "S-Tab", "the previous hottest one") \
	A(ANNOTATE, ANN_SOURCE,	"s", \
	    "show or hide the listing's source lines") \
	A(ANNOTATE, ANN_PCT,	"%", \
	    "percentages of the symbol's samples or of all samples") \
	A(ANNOTATE, ANN_FOLLOW,	"Enter", \
	    "on a jump or call: go to its target (q comes back)") \
	A(TIMELINE, TL_NEXT,	"j Down C-n", "the next event") \
	A(TIMELINE, TL_PREV,	"k Up C-p", "the previous event") \
	A(TIMELINE, TL_FIRST,	"Home g", "the first event") \
	A(TIMELINE, TL_LAST,	"End G", "the last event") \
	A(TIMELINE, TL_LEFT,	"h Left", "pan an eighth of a screen left") \
	A(TIMELINE, TL_RIGHT,	"l Right", \
	    "pan an eighth of a screen right") \
	A(TIMELINE, TL_PAGE_LEFT, "PageUp C-b", "pan a screen left") \
	A(TIMELINE, TL_PAGE_RIGHT, "PageDown C-f Space", \
	    "pan a screen right") \
	A(TIMELINE, TL_MERGE,	"+", "merge time columns (zoom out)") \
	A(TIMELINE, TL_SPLIT,	"-", "split time columns (zoom in)") \
	A(TIMELINE, TL_UNIT_PREV, "[", \
	    "previous event of the unit under the cursor") \
	A(TIMELINE, TL_UNIT_NEXT, "]", \
	    "next event of the unit under the cursor") \
	A(TIMELINE, TL_UNITS,	"u Tab", "the per-unit table") \
	A(TIMELINE, TL_UNIT,	"Enter", \
	    "the per-unit table, on the cursor's unit") \
	A(UNITS, UNITS_SORT,	"s", \
	    "cycle the sort (thrash, resident, reloads, segment)") \
	A(UNITS, UNITS_OPEN,	"Enter", \
	    "back to the timeline, on the unit's first event") \
	A(UNITS, UNITS_BACK,	"u Tab", "back to the timeline") \
	A(HEAPMAP, HM_PAGE_DOWN, "PageDown C-f Space", \
	    "the map a page on, toward the heap's end") \
	A(HEAPMAP, HM_PAGE_UP,	"PageUp C-b", "the map a page back") \
	A(HEAPMAP, HM_DOWN,	"Down", "the map a fifth of its height on") \
	A(HEAPMAP, HM_UP,	"Up", "the map a fifth of its height back") \
	A(HEAPMAP, HM_RIGHT,	"Right", \
	    "the map's start a sixth of its width in cells on (shifts left)") \
	A(HEAPMAP, HM_LEFT,	"Left", \
	    "the map's start a sixth of its width in cells back") \
	A(HEAPMAP, HM_HOME,	"Home g", "the heap's start at the top left") \
	A(HEAPMAP, HM_END,	"End G", "the heap's end at the bottom") \
	A(HEAPMAP, HM_ZOOM_IN,	"+ =", \
	    "zoom in around the middle, to a granule in 8 cells") \
	A(HEAPMAP, HM_ZOOM_OUT,	"-", \
	    "zoom out around the middle, until the whole heap shows") \
	A(HEAPMAP, HM_CUR_LEFT,	"h", "the cursor to the object before") \
	A(HEAPMAP, HM_CUR_RIGHT, "l", "the cursor to the object after") \
	A(HEAPMAP, HM_CUR_DOWN,	"j C-n", "the cursor a row down") \
	A(HEAPMAP, HM_CUR_UP,	"k C-p", "the cursor a row up") \
	A(HEAPMAP, HM_SELECT,	"Enter", \
	    "select the object under the cursor and inspect it;" \
	    " with rows marked by v, zoom into them") \
	A(HEAPMAP, HM_ROWS,	"v", \
	    "mark rows to zoom into from the cursor's; moves extend," \
	    " v or Enter zooms, Escape cancels") \
	A(HEAPMAP, HM_REACHABLE, "r", \
	    "Reachable: what the selected object reaches, on or off") \
	A(HEAPMAP, HM_REACHED_FROM, "R", \
	    "ReachedFrom: what reaches the selected object, on or off") \
	A(HEAPMAP, HM_COLLECTABLE, "c", \
	    "Collectable: what no root reaches, on or off") \
	A(HEAPMAP, HM_INFO,	"Tab", \
	    "the info pane's next view: the object, Modules, ObjectsByModule," \
	    " ObjectsByType, Imports, ModuleHierarchy, ObjectSizes," \
	    " FreeBlocks, ReachedFrom, none") \
	A(HEAPMAP, HM_INFO_PREV, "S-Tab", "the info pane's view before") \
	A(HEAPMAP, HM_FOCUS,	"i", \
	    "the keys to the info pane's table (Modules if none shows)") \
	A(HEAPMAP, HM_UNPICK,	"x", \
	    "unmark the objects Enter in an info table marked") \
	A(HEAPMAP, HM_UPDATE,	"u", \
	    "Update: a new snapshot of the live program (--attach)") \
	A(HEAPINFO, HI_PICK,	"Enter", \
	    "mark the row's objects on the map (again: unmark);" \
	    " a free block: the map to it") \
	A(HEAPINFO, HI_UNPICK,	"x", "unmark them") \
	A(HEAPINFO, HI_SORT,	"s", "sort by the marked column the other way") \
	A(HEAPINFO, HI_SORT_LEFT, "<", \
	    "sort by the column to the left (names A-Z, numbers most first)") \
	A(HEAPINFO, HI_SORT_RIGHT, ">", "sort by the column to the right") \
	A(HEAPINFO, HI_LEFT,	"h Left", "scroll one column left") \
	A(HEAPINFO, HI_RIGHT,	"l Right", "scroll one column right") \
	A(HEAPINFO, HI_NEXT,	"Tab", "the next info table") \
	A(HEAPINFO, HI_PREV,	"S-Tab", "the info table before") \
	A(HEAPINFO, HI_MAP,	"i Escape", "the keys back to the map") \
	A(CALLS, CALLS_SORT,	"s", \
	    "cycle the sort (self, self+children, calls, per call, name)") \
	A(CALLS, CALLS_CPU,	"c", "real time or CPU time") \
	A(CALLS, CALLS_OPEN,	"Enter", "the function's callers and callees") \
	A(CALLS, CALLS_TREE,	"t", "the call tree") \
	A(CALLERS, CALLERS_OPEN, "Enter", \
	    "back to the functions, on this caller or callee") \
	A(TREE, TREE_TOGGLE,	"Enter", "open or close the path") \
	A(TREE, TREE_OPEN,	"l Right +", "open the path") \
	A(TREE, TREE_CLOSE,	"h Left -", \
	    "close the path, or go to its caller") \
	A(TREE, TREE_CPU,	"c", "real time or CPU time") \
	A(SLOTS, SLOTS_SORT,	"s", "cycle the sort (count, address)") \
	A(SLOTS, SLOTS_OPEN,	"Enter", \
	    "the slot's detail counters in the histogram, named by its" \
	    " module's symbols") \
	A(SLOTS, SLOTS_HITS,	"t", \
	    "the exact flat profile by symbol from the hit table") \
	A(HITS, HITS_SORT,	"s", "cycle the sort (hits, address)") \
	A(HITS, HITS_OPEN,	"Enter", \
	    "the row's slot in the histogram, on its symbol") \
	A(SQL, LEFT,		"h Left", "scroll one column left") \
	A(SQL, RIGHT,		"l Right", "scroll one column right") \
	A(SQL, SQL_SORT,	"s", \
	    "sort by the marked column: ascending, descending, as fetched") \
	A(SQL, SQL_SORT_LEFT,	"<", "sort by the column to the left") \
	A(SQL, SQL_SORT_RIGHT,	">", "sort by the column to the right") \
	A(PROMPT, PROMPT_ENTER,	"Enter", "run the command or the search") \
	A(PROMPT, PROMPT_CANCEL, "Escape C-g", "close the prompt") \
	A(PROMPT, PROMPT_LEFT,	"Left C-b", "move the cursor left") \
	A(PROMPT, PROMPT_RIGHT,	"Right C-f", "move the cursor right") \
	A(PROMPT, PROMPT_HOME,	"Home C-a", "go to the start of the line") \
	A(PROMPT, PROMPT_END,	"End C-e", "go to the end of the line") \
	A(PROMPT, PROMPT_BACKSPACE, "Backspace C-h", \
	    "delete a character back; on an empty line, close") \
	A(PROMPT, PROMPT_DELETE, "Delete", \
	    "delete the character under the cursor") \
	A(PROMPT, PROMPT_KILL_START, "C-u", "delete to the start of the line") \
	A(PROMPT, PROMPT_KILL_END, "C-k", "delete to the end of the line") \
	A(PROMPT, PROMPT_KILL_WORD, "C-w", \
	    "delete the word before the cursor") \
	A(PROMPT, PROMPT_COMPLETE, "Tab", \
	    "complete; when ambiguous, list the candidates") \
	A(PROMPT, PROMPT_OLDER,	"Up", \
	    "the command before in the history (kept across runs)") \
	A(PROMPT, PROMPT_NEWER,	"Down", "the command after in the history") \
	A(CONFIRM, CONFIRM_YES,	"y Y", "yes: go ahead") \
	A(CONFIRM, CONFIRM_NO,	"n Escape", "no (so does any other key)")

#define A(group, name, keys, help) TUI_ACT_##name,
enum tui_action {
	TUI_ACT_NONE,
	TUI_ACTIONS
	TUI_ACT_COUNT
};
#undef A

/*
 * The : commands, as tmux's cmd_entry: name, alias (or NULL), arguments,
 * the handler, the completer of the arguments (or NULL; given the
 * argument's number from 0, it returns the candidates, space separated,
 * or NULL), and the help line.  The handlers are cmd.c's; tui_command
 * runs a line through this table, Tab completes from it, and the help
 * view and the man page list it.
 */
#define TUI_COMMANDS \
	C(sql,		NULL,	"QUERY",	cmd_sql,	cmd_names, \
	    "run QUERY on the store and show the result as a table") \
	C(export,	NULL,	"FORMAT FILE",	cmd_export,	cmd_formats, \
	    "write the current view's report to FILE") \
	C(open,		NULL,	"ID",		cmd_open,	NULL, \
	    "open session ID in its natural view") \
	C(sessions,	NULL,	"",		cmd_sessions,	NULL, \
	    "show the sessions view") \
	C(help,		NULL,	"",		cmd_help,	NULL, \
	    "show the keys and commands") \
	C(quit,		"q",	"",		cmd_quit,	NULL, \
	    "quit profview") \
	C(zoomout,	NULL,	"[N%]",		cmd_zoomout,	NULL, \
	    "heap map: the whole heap in view, or zoom out by N %") \
	C(move,		NULL,	"up|down|left|right [N]", cmd_move, \
	    cmd_move_complete, \
	    "heap map: N rows, or the start N cells (a quarter, a sixth)") \
	C(setmapto,	NULL,	"top|bottom|center|ADDR", cmd_setmapto, \
	    cmd_setmapto_complete, \
	    "heap map: the heap's start, end, middle, or ADDR in the middle") \
	C(startmapat,	NULL,	"ADDR",		cmd_startmapat,	NULL, \
	    "heap map: start the map at ADDR, zooming in if it must") \
	C(resizemap,	NULL,	"double|half",	cmd_resizemap, \
	    cmd_resizemap_complete, \
	    "heap map: twice or half the map's height") \
	C(show,		NULL,	"WHAT",		cmd_show, \
	    cmd_show_complete, \
	    "heap map: turn a bitmap or list on or off (Tab lists them)") \
	C(select,	NULL,	"off|trace|onlyanchoredby|object|" \
	    "typedescriptor|module ...", cmd_select, cmd_select_complete, \
	    "heap map: select objects by root, string, type or module") \
	C(mark,		NULL,	"[SPEC...]",	cmd_mark, \
	    cmd_mark_complete, \
	    "heap map: colour the objects of up to 8 Module.Type* specs") \
	C(testunload,	NULL,	"[MODULE...]",	cmd_testunload, \
	    cmd_testunload_complete, \
	    "heap map: what unloading the modules (and importers) frees") \
	C(update,	NULL,	"[every SECS|off]", cmd_update, \
	    cmd_update_complete, \
	    "heap map: a new snapshot of a live program; or every SECS") \
	C(compare,	NULL,	"[ID|off]",	cmd_compare,	NULL, \
	    "heap map: objects born and freed since session ID of the run") \
	C(remain,	NULL,	"on|off",	cmd_remain, \
	    cmd_remain_complete, \
	    "heap map: only the objects there now, after updates too") \
	C(status,	NULL,	"",		cmd_status,	NULL, \
	    "heap map: the map's settings in the status line")

struct tui_group_info {
	const char	*name;
	const char	*title;
};
struct tui_action_info {
	const char	*name;
	enum tui_group	 group;
	const char	*keys;
	const char	*help;
};
struct tui_command_info {
	const char	*name;
	const char	*alias;
	const char	*args;
	int		(*exec)(struct tui_view *, const char *);
	char		*(*complete)(struct tui_view *, int);
	const char	*help;
};
extern const struct tui_group_info	tui_groups[TUI_G_COUNT];
extern const struct tui_action_info	tui_actions[TUI_ACT_COUNT];
extern const struct tui_command_info	tui_commands[];
extern const size_t			tui_ncommands;

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
	void		(*draw)(struct tui_view *, int, int, int);
	int		(*key)(struct tui_view *, enum tui_action);
	char		*(*title)(struct tui_view *);
	/* Optional. */
	int		(*match)(struct tui_view *, size_t, const char *);
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
	 * the session's model that the view draws (kind.h's model_load
	 * kind: an analyze_ovd for a timeline), and a jump to item k of
	 * that model (a timeline: unit k's first event; a unit table: its
	 * row); -1 when there is nothing to jump to.
	 */
	const void	*(*model)(struct tui_view *);
	int		(*jump)(struct tui_view *, size_t);
	void		(*free)(struct tui_view *);
};

struct tui_view {
	const struct tui_view_ops	*ops;
	struct tui_list			 list;
	struct tui_search		 search;
	struct tui_view			*parent;	/* what opened it */
	int64_t				 session;	/* 0: none */
	const struct kind		*kind;		/* the session's */
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
int		 tui_keymap_init(void *);
enum tui_group	 tui_keymap_group(const char *);
enum tui_action	 tui_keymap_lookup(enum tui_group, const void *);
const char	*tui_keymap_word(const void *);

/* kinds.c: the view that opens each session kind (kind.h). */
struct tui_kind {
	const char	*name;
	struct tui_view	*(*open)(int64_t, char **);
};
const struct tui_kind *tui_kind_find(const char *);

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
int		 tui_strcasestr(const char *, const char *);

/*
 * draw.c.  Every colour pair is one of these, allocated by tui_draw_init
 * from draw.c's table, which also gives each its 8-colour and monochrome
 * form; a view asks tui_attr for one and never calls init_pair.
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
	TUI_C_MARK,
	TUI_C_MARK_HERE,
	/* The timeline's units, taking turns (TUI_C_UNIT1 + k % 6). */
	TUI_C_UNIT1, TUI_C_UNIT2, TUI_C_UNIT3, TUI_C_UNIT4, TUI_C_UNIT5,
	TUI_C_UNIT6,
	/* The heap map: HeapInspector's eight type marks, then overlays. */
	TUI_C_TYPE1, TUI_C_TYPE2, TUI_C_TYPE3, TUI_C_TYPE4, TUI_C_TYPE5,
	TUI_C_TYPE6, TUI_C_TYPE7, TUI_C_TYPE8,
	TUI_C_COLLECTABLE,
	TUI_C_REACHABLE,
	TUI_C_REACHED_FROM,
	TUI_C_SELECTED,
	/* The heap map's other marks, and its cursor. */
	TUI_C_BLOCK,
	TUI_C_FREED,
	TUI_C_BORN,
	TUI_C_KEPT,
	TUI_C_POSSIBLE,
	TUI_C_UNLOAD,
	TUI_C_HEAP_CURSOR,
	TUI_C_SOURCE,		/* the annotate view's source lines */
	/* The heap map's info tables: a row's objects; ModuleHierarchy. */
	TUI_C_PICKED,
	TUI_C_HIER_TOP,		/* imported by no module */
	TUI_C_HIER_UNLOAD,	/* test-unloaded */
	TUI_C_HIER_NEEDED,	/* imported by a test-unloaded one */
	TUI_C_COUNT
};
#define TUI_NUNIT_COLORS	(TUI_C_UNIT6 - TUI_C_UNIT1 + 1)
#define TUI_NTYPE_COLORS	(TUI_C_TYPE8 - TUI_C_TYPE1 + 1)
#define TUI_PLAIN	0	/* no attribute */
void		 tui_draw_init(void);
int		 tui_attr(enum tui_color);
int		 tui_halves(void);
void		 tui_put_halves(int, int, enum tui_color, enum tui_color);
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
int		 tui_command_offered(const struct tui_command_info *,
		    struct tui_view *);

/* Views. */
struct tui_view	*tui_sessions_new(void);
int64_t		 tui_sessions_id(struct tui_view *, size_t);
struct tui_view	*tui_hist_new(int64_t, char **);
struct tui_view	*tui_table_new(const char *, char **);
struct tui_view	*tui_timeline_new(int64_t, char **);
struct tui_view	*tui_units_new(struct tui_view *);
struct tui_view	*tui_calls_new(int64_t, char **);
struct tui_view	*tui_slots_new(int64_t, char **);
struct analyze_hist;
struct tui_view	*tui_hist_open(struct analyze_hist *, int64_t, const char *,
		    const char *, char *, char *, uint64_t);
struct tui_view	*tui_help_new(struct tui_view *);
struct tui_view	*tui_heapmap_new(int64_t, char **);
struct tui_view	*tui_annotate_new(struct tui_view *, uint64_t, uint64_t,
		    uint64_t, uint64_t, const char *, char **);

#endif
