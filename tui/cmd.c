/*
 * The : commands, tmux's cmd_table[]: those of every view here, each
 * entry with its handler, so running a command is a look-up; after them
 * those the kinds' views bring (tui/kinds.c's modes), which go to the
 * view on top.  Help, completion and the man page list the same entries.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "xmalloc.h"
#include "kind.h"
#include "report/report.h"
#include "tui/tui.h"

static int	cmd_sql(struct tui_view *, const char *);
static int	cmd_export(struct tui_view *, const char *);
static char	*cmd_formats(struct tui_view *, int);
static char	*cmd_names(struct tui_view *, int);
static int	cmd_open(struct tui_view *, const char *);
static int	cmd_compare(struct tui_view *, const char *);
static int	cmd_sessions(struct tui_view *, const char *);
static int	cmd_help(struct tui_view *, const char *);
static char	*cmd_helps(struct tui_view *, int);
static const struct tui_command *cmd_find(const char *, struct tui_view *);
static int	cmd_quit(struct tui_view *, const char *);

static const struct tui_command cmd_table[] = {
	TUI_COMMAND("sql", NULL, "QUERY", cmd_sql, cmd_names,
	    "run QUERY on the store and show the result as a table"),
	TUI_COMMAND("export", NULL, "FORMAT FILE", cmd_export, cmd_formats,
	    "write the current view's report to FILE (0600, whole or not"
	    " at all, as profview export -o)"),
	TUI_COMMAND("open", NULL, "ID", cmd_open, NULL,
	    "open session ID in its natural view"),
	TUI_COMMAND("compare", "diff", "ID", cmd_compare, NULL,
	    "the diff view: session ID (the baseline) and this view's"
	    " compared; the heap map's :compare is its own"),
	TUI_COMMAND("sessions", NULL, "", cmd_sessions, NULL,
	    "show the sessions view"),
	TUI_COMMAND("help", NULL, "[COMMAND]", cmd_help, cmd_helps,
	    "show the keys and commands; or a command, or a name of the"
	    " system a view grew from (HeapInspector's), at length"),
	TUI_COMMAND("quit", "q", "", cmd_quit, NULL, "quit profview"),
};

/* Every command: cmd_table's, then each kind's view's, in kind order. */
static const struct tui_command	**cmd_list;
static size_t			  ncmd_list;

static void
cmd_list_add(const struct tui_command *c)
{
	cmd_list = xreallocarray(cmd_list, ncmd_list + 1, sizeof *cmd_list);
	cmd_list[ncmd_list++] = c;
}

const struct tui_command *const *
tui_command_list(size_t *n)
{
	const struct tui_kind		*k;
	const struct tui_command	*c;
	size_t				 i;

	if (cmd_list == NULL) {
		for (i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++)
			cmd_list_add(&cmd_table[i]);
		for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
			c = k->mode->commands;
			for (; c != NULL && c->name != NULL; c++)
				cmd_list_add(c);
		}
	}
	*n = ncmd_list;
	return (cmd_list);
}

/*
 * The kind whose view brings command c, or NULL for one of every view's.
 */
static const struct tui_kind *
cmd_kind(const struct tui_command *c)
{
	const struct tui_kind		*k;
	const struct tui_command	*kc;
	size_t				 i;

	for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
		for (kc = k->mode->commands; kc != NULL && kc->name != NULL;
		    kc++) {
			if (kc == c)
				return (k);
		}
	}
	return (NULL);
}

/*
 * A view's own command (the heap map's, HeapInspector's names): run by the
 * view on top, which says so if it has none.
 */
static int
cmd_view(struct tui_view *v, const struct tui_command *c, const char *args)
{
	if (v->ops->command == NULL) {
		tui_message("error: :%s works in %s, not in the %s view",
		    c->name, cmd_kind(c)->mode->what, v->keys->name);
		return (TUI_R_DRAW);
	}
	return (v->ops->command(v, c->name, args));
}

static int
cmd_sql(struct tui_view *v, const char *args)
{
	struct tui_view	*t;
	char		*cause = NULL;

	if (*args == '\0') {
		tui_message("error: usage: :sql QUERY");
		return (TUI_R_DRAW);
	}
	if ((t = tui_table_new(args, &cause)) == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	tui_push(t);
	return (TUI_R_DRAW);
}

/* FILE with a leading ~/ meaning $HOME. */
static char *
cmd_path(const char *s)
{
	const char	*home = getenv("HOME");

	if (strncmp(s, "~/", 2) == 0 && home != NULL)
		return (xasprintf("%s/%s", home, s + 2));
	return (xstrdup(s));
}

/*
 * The formats the view's session kind exports, joined by sep; every
 * kind's where the view has no session (the sessions view, a :sql table).
 */
static char *
cmd_kind_formats(struct tui_view *v, const char *sep)
{
	return (report_formats(v->session != 0 ? v->kind : NULL, sep));
}

/* What Tab offers after :export: formats, then nothing (a file). */
static char *
cmd_formats(struct tui_view *v, int arg)
{
	return (arg == 0 ? cmd_kind_formats(v, " ") : NULL);
}

/* What Tab offers in :sql: the store's tables and columns. */
static char *
cmd_names(struct tui_view *v, int arg)
{
	char	**names, *out, *t;
	size_t	  n, i;

	if (store_names(tui_store(), &names, &n) != 0)
		return (NULL);
	out = xstrdup("");
	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s%s", out, i != 0 ? " " : "", names[i]);
		free(out);
		out = t;
		free(names[i]);
	}
	free(names);
	return (out);
}

static int
cmd_export(struct tui_view *v, const char *args)
{
	struct report_file	 out;
	char			*fmt, *path, *cause = NULL, *valid;
	size_t			 n;
	int			 format, rc;

	n = strcspn(args, " ");
	if (n == 0 || args[n] == '\0') {
		tui_message("error: usage: :export FORMAT FILE");
		return (TUI_R_DRAW);
	}
	fmt = xasprintf("%.*s", (int)n, args);
	format = report_format_parse(fmt);
	if (format < 0) {
		valid = cmd_kind_formats(v, ", ");
		tui_message("error: unknown format %s (%s)", fmt, valid);
		free(valid);
		free(fmt);
		return (TUI_R_DRAW);
	}
	free(fmt);
	args += n + strspn(args + n, " ");
	if (v->ops->export == NULL) {
		tui_message("error: the %s view has nothing to export",
		    v->keys->name);
		return (TUI_R_DRAW);
	}
	/* As profview export writes: 0600, never through a symlink. */
	path = cmd_path(args);
	if (report_file_open(&out, path, &cause) != 0) {
		tui_message("error: %s", cause);
		free(cause);
		free(path);
		return (TUI_R_DRAW);
	}
	rc = v->ops->export(v, format, out.f, &cause);
	if (report_file_close(&out, path, rc, &cause) != 0)
		rc = -1;
	if (rc != 0) {
		tui_message("error: export: %s", cause != NULL ? cause :
		    "failed");
		free(cause);
	} else
		tui_message("wrote %s (%s)", path, report_format_name(format));
	free(path);
	return (TUI_R_DRAW);
}

/* A session id for :NAME: the id, or 0 when args is not one (said). */
static long long
cmd_id(const char *name, const char *args)
{
	char		*end;
	long long	 id;

	errno = 0;
	id = strtoll(args, &end, 10);
	if (*args == '\0' || *end != '\0' || errno != 0 || id <= 0) {
		tui_message("error: usage: :%s ID (a session id)", name);
		return (0);
	}
	return (id);
}

static int
cmd_open(struct tui_view *v, const char *args)
{
	long long	 id;

	if ((id = cmd_id("open", args)) != 0)
		tui_open_session(id, 0);
	return (TUI_R_DRAW);
}

/*
 * :compare ID: session ID, the baseline, and the view's compared in the
 * diff view.  A view whose kind has a :compare of its own (the heap map's)
 * runs that one instead (cmd_find); :diff, the alias, is this one there.
 */
static int
cmd_compare(struct tui_view *v, const char *args)
{
	struct tui_view	*t;
	char		*cause = NULL;
	long long	 id;

	if ((id = cmd_id("compare", args)) == 0)
		return (TUI_R_DRAW);
	if (v->session == 0) {
		tui_message("error: :compare works in a session's view, not"
		    " in the %s view", v->keys->name);
		return (TUI_R_DRAW);
	}
	if ((t = tui_diff_new(id, v->session, &cause)) == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	tui_push(t);
	return (TUI_R_DRAW);
}

static int
cmd_sessions(struct tui_view *v, const char *args)
{
	tui_show_sessions();
	return (TUI_R_DRAW);
}

/*
 * The topic called name (a seed's qualified name, Module.Command, by its
 * last part), in any kind's mode; NULL if none.
 */
static const struct tui_topic *
cmd_topic(const char *name)
{
	const struct tui_kind	*k;
	const struct tui_topic	*t;
	const char		*dot = strrchr(name, '.');
	size_t			 i;

	if (dot != NULL && dot[1] != '\0')
		name = dot + 1;
	for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
		for (t = k->mode->topics; t != NULL && t->name != NULL; t++) {
			if (strcasecmp(t->name, name) == 0)
				return (t);
		}
	}
	return (NULL);
}

/* What :help takes: every command's name and every topic's. */
static char *
cmd_helps(struct tui_view *v, int arg)
{
	const struct tui_command *const	*list;
	const struct tui_kind		*k;
	const struct tui_topic		*t;
	char				*out = xstrdup(""), *s;
	size_t				 i, n;

	if (arg != 0)
		return (NULL);
	list = tui_command_list(&n);
	for (i = 0; i < n; i++) {
		s = xasprintf("%s %s", out, list[i]->name);
		free(out);
		out = s;
	}
	for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
		for (t = k->mode->topics; t != NULL && t->name != NULL; t++) {
			if (t->ours != NULL && *t->ours == ':' &&
			    strncasecmp(t->ours + 1, t->name,
			    strlen(t->name)) == 0)
				continue;
			s = xasprintf("%s %s", out, t->name);
			free(out);
			out = s;
		}
	}
	return (out);
}

static int
cmd_help(struct tui_view *v, const char *args)
{
	const struct tui_command	*c;
	const struct tui_topic		*t;
	char				*name, *ours;

	args += strspn(args, " ");
	if (*args == '\0') {
		if (strcmp(v->ops->name, "help") != 0)
			tui_push(tui_help_new(v));
		return (TUI_R_DRAW);
	}
	name = xasprintf("%.*s", (int)strcspn(args, " "), args);
	t = cmd_topic(name);
	/* A topic's command is its ours, ":name args". */
	if (t != NULL && t->ours != NULL && *t->ours == ':') {
		ours = xasprintf("%.*s", (int)strcspn(t->ours + 1, " "),
		    t->ours + 1);
		c = cmd_find(ours, v);
		free(ours);
	} else
		c = cmd_find(name, v);
	if (t == NULL && c == NULL)
		tui_message("error: :help %s: no command or seed name %s (:help"
		    " alone lists them)", name, name);
	else
		tui_push(tui_help_topic(name, t, c));
	free(name);
	return (TUI_R_DRAW);
}

static int
cmd_quit(struct tui_view *v, const char *args)
{
	tui_quit();
	return (TUI_R_NONE);
}

static int
cmd_is(const struct tui_command *c, const char *name)
{
	return (strcasecmp(c->name, name) == 0 ||
	    (c->alias != NULL && strcasecmp(c->alias, name) == 0));
}

/*
 * The entry called name, or that has it as its alias, in any case
 * (HeapInspector's commands are ZoomOut, SetMapTo ...); NULL if none.
 * View v's own kind's entries come first, so a view keeps a command of
 * its own that every view has too (the heap map's :compare).
 */
static const struct tui_command *
cmd_find(const char *name, struct tui_view *v)
{
	const struct tui_command *const	*list;
	const struct tui_command	*c;
	const struct tui_kind		*k;
	size_t				 i, n;

	if (v != NULL && v->ops->command != NULL && v->kind != NULL &&
	    (k = tui_kind_find(v->kind->name)) != NULL) {
		for (c = k->mode->commands; c != NULL && c->name != NULL;
		    c++) {
			if (cmd_is(c, name))
				return (c);
		}
	}
	list = tui_command_list(&n);
	for (i = 0; i < n; i++) {
		c = list[i];
		if (cmd_is(c, name))
			return (c);
	}
	return (NULL);
}

/* Run one : line in the top view. */
int
tui_command(const char *line)
{
	const struct tui_command	*c;
	const char			*args;
	char				*name;
	size_t				 n;
	int				 r;

	line += strspn(line, " ");
	n = strcspn(line, " ");
	if (n == 0)
		return (TUI_R_DRAW);
	name = xasprintf("%.*s", (int)n, line);
	args = line + n + strspn(line + n, " ");
	if ((c = cmd_find(name, tui_top())) != NULL && c->exec == NULL)
		r = cmd_view(tui_top(), c, args);
	else if (c != NULL)
		r = c->exec(tui_top(), args);
	else {
		tui_message("error: unknown command :%s (Tab completes, :help"
		    " lists them)", name);
		r = TUI_R_DRAW;
	}
	free(name);
	return (r);
}

/*
 * Whether Tab offers command c in view v: a view's own commands only
 * where a view has commands.
 */
int
tui_command_offered(const struct tui_command *c, struct tui_view *v)
{
	return (v->ops->command != NULL || c->exec != NULL);
}

/*
 * The candidates for argument arg (from 0) of command name in view v,
 * space separated, or NULL when the command has none to offer.
 */
char *
tui_command_complete(const char *name, struct tui_view *v, int arg)
{
	const struct tui_command	*c;

	if ((c = cmd_find(name, v)) == NULL)
		return (NULL);
	if (c->exec == NULL)
		return (v->ops->complete != NULL ? v->ops->complete(v,
		    c->name, arg) : NULL);
	return (c->complete != NULL ? c->complete(v, arg) : NULL);
}
