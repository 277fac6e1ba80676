/*
 * The : commands.  TUI_COMMANDS in tui.h is their table, tmux's
 * cmd_table[]: each entry carries its handler, so running a command is a
 * look-up, and help, completion and the man page list the same entries.
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
static int	cmd_sessions(struct tui_view *, const char *);
static int	cmd_help(struct tui_view *, const char *);
static int	cmd_quit(struct tui_view *, const char *);

/*
 * A view's own commands (the heap map's, the seed's names): run by the
 * view on top, which says so if it has none.
 */
static int
cmd_view(struct tui_view *v, const char *name, const char *args)
{
	if (v->ops->command == NULL) {
		tui_message("error: :%s works in the heap map, not in the %s"
		    " view", name, v->ops->name);
		return (TUI_R_DRAW);
	}
	return (v->ops->command(v, name, args));
}

static char *
cmd_view_complete(struct tui_view *v, const char *name, int arg)
{
	if (v->ops->complete == NULL)
		return (NULL);
	return (v->ops->complete(v, name, arg));
}

/*
 * The view commands: name, and whether Tab completes its arguments.  Each
 * gets a handler (and a completer) that hands it to the view on top.
 */
#define CMD_VIEWS \
	V(zoomout, 0) V(move, 1) V(setmapto, 1) V(startmapat, 0) \
	V(resizemap, 1) V(show, 1) V(select, 1) V(mark, 1) \
	V(testunload, 1) V(update, 1) V(remain, 1) V(status, 0) V(compare, 0)

#define V(n, c) \
static int \
cmd_##n(struct tui_view *v, const char *args) \
{ \
	return (cmd_view(v, #n, args)); \
} \
static __attribute__((unused)) char * \
cmd_##n##_complete(struct tui_view *v, int arg) \
{ \
	return (cmd_view_complete(v, #n, arg)); \
}
CMD_VIEWS
#undef V

#define V(n, c) cmd_##n,
static int (*const cmd_views[])(struct tui_view *, const char *) = {
	CMD_VIEWS
};
#undef V

#define C(name, alias, args, exec, complete, help) \
	{ #name, alias, args, exec, complete, help },
const struct tui_command_info tui_commands[] = {
	TUI_COMMANDS
};
#undef C
const size_t tui_ncommands = sizeof tui_commands / sizeof tui_commands[0];

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

/*
 * FILE for :export: a FIFO that no process reads is an error at once
 * (ENXIO), not a browser that hangs; *regular says whether a failed
 * export may remove what it wrote (never a device or a FIFO).
 */
static FILE *
cmd_export_open(const char *path, int *regular)
{
	struct stat	 sb;
	FILE		*f;
	int		 fd, fl;

	*regular = 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC,
	    0666);
	if (fd == -1)
		return (NULL);
	*regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	if ((fl = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if ((f = fdopen(fd, "w")) == NULL)
		close(fd);
	return (f);
}

static int
cmd_export(struct tui_view *v, const char *args)
{
	char		*fmt, *path, *cause = NULL, *valid;
	size_t		 n;
	FILE		*f;
	int		 format, rc, regular;

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
		    v->ops->name);
		return (TUI_R_DRAW);
	}
	path = cmd_path(args);
	if ((f = cmd_export_open(path, &regular)) == NULL) {
		tui_message("error: %s: %s", path, errno == ENXIO ?
		    "a FIFO that no process reads" : strerror(errno));
		free(path);
		return (TUI_R_DRAW);
	}
	rc = v->ops->export(v, format, f, &cause);
	if (fclose(f) != 0 && rc == 0) {
		cause = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
		if (regular)
			unlink(path);
		tui_message("error: export: %s", cause != NULL ? cause :
		    "failed");
		free(cause);
	} else
		tui_message("wrote %s (%s)", path, report_format_name(format));
	free(path);
	return (TUI_R_DRAW);
}

static int
cmd_open(struct tui_view *v, const char *args)
{
	char		*end;
	long long	 id;

	errno = 0;
	id = strtoll(args, &end, 10);
	if (*args == '\0' || *end != '\0' || errno != 0 || id <= 0) {
		tui_message("error: usage: :open ID (a session id)");
		return (TUI_R_DRAW);
	}
	tui_open_session(id, 0);
	return (TUI_R_DRAW);
}

static int
cmd_sessions(struct tui_view *v, const char *args)
{
	tui_show_sessions();
	return (TUI_R_DRAW);
}

static int
cmd_help(struct tui_view *v, const char *args)
{
	if (strcmp(v->ops->name, "help") != 0)
		tui_push(tui_help_new(v));
	return (TUI_R_DRAW);
}

static int
cmd_quit(struct tui_view *v, const char *args)
{
	tui_quit();
	return (TUI_R_NONE);
}

/*
 * The entry called name, or that has it as its alias, in any case (the
 * seed's commands are ZoomOut, SetMapTo ...); NULL if none.
 */
static const struct tui_command_info *
cmd_find(const char *name)
{
	const struct tui_command_info	*c;
	size_t				 i;

	for (i = 0; i < tui_ncommands; i++) {
		c = &tui_commands[i];
		if (strcasecmp(c->name, name) == 0 ||
		    (c->alias != NULL && strcasecmp(c->alias, name) == 0))
			return (c);
	}
	return (NULL);
}

/* Run one : line in the top view. */
int
tui_command(const char *line)
{
	const struct tui_command_info	*c;
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
	if ((c = cmd_find(name)) != NULL)
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
tui_command_offered(const struct tui_command_info *c, struct tui_view *v)
{
	size_t	i;

	if (v->ops->command != NULL)
		return (1);
	for (i = 0; i < sizeof cmd_views / sizeof cmd_views[0]; i++) {
		if (c->exec == cmd_views[i])
			return (0);
	}
	return (1);
}

/*
 * The candidates for argument arg (from 0) of command name in view v,
 * space separated, or NULL when the command has none to offer.
 */
char *
tui_command_complete(const char *name, struct tui_view *v, int arg)
{
	const struct tui_command_info	*c;

	if ((c = cmd_find(name)) == NULL || c->complete == NULL)
		return (NULL);
	return (c->complete(v, arg));
}
