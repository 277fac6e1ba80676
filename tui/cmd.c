/*
 * The : commands (TUI_COMMANDS in tui.h lists them for help, completion
 * and the man page).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "report/report.h"
#include "tui/tui.h"

static int
cmd_sql(const char *args)
{
	struct tui_view	*v;
	char		*cause = NULL;

	if (*args == '\0') {
		tui_message("error: usage: :sql QUERY");
		return (TUI_R_DRAW);
	}
	if ((v = tui_table_new(args, &cause)) == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	tui_push(v);
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

static int
cmd_export(const char *args)
{
	struct tui_view	*v = tui_top();
	char		*fmt, *path, *cause = NULL;
	size_t		 n;
	FILE		*f;
	int		 format, rc;

	n = strcspn(args, " ");
	if (n == 0 || args[n] == '\0') {
		tui_message("error: usage: :export FORMAT FILE");
		return (TUI_R_DRAW);
	}
	fmt = xasprintf("%.*s", (int)n, args);
	format = report_format_parse(fmt);
	if (format < 0) {
		tui_message("error: unknown format %s (text, csv, json, html,"
		    " chrome)", fmt);
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
	if ((f = fopen(path, "w")) == NULL) {
		tui_message("error: %s: %s", path, strerror(errno));
		free(path);
		return (TUI_R_DRAW);
	}
	rc = v->ops->export(v, format, f, &cause);
	if (fclose(f) != 0 && rc == 0) {
		cause = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
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
cmd_open(const char *args)
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

int
tui_command(const char *line)
{
	const char	*args;
	char		*name;
	size_t		 n;
	int		 r = TUI_R_DRAW;

	line += strspn(line, " ");
	n = strcspn(line, " ");
	if (n == 0)
		return (TUI_R_DRAW);
	name = xasprintf("%.*s", (int)n, line);
	args = line + n + strspn(line + n, " ");

	if (strcmp(name, "sql") == 0)
		r = cmd_sql(args);
	else if (strcmp(name, "export") == 0)
		r = cmd_export(args);
	else if (strcmp(name, "open") == 0)
		r = cmd_open(args);
	else if (strcmp(name, "sessions") == 0)
		tui_show_sessions();
	else if (strcmp(name, "help") == 0) {
		if (strcmp(tui_top()->ops->name, "help") != 0)
			tui_push(tui_help_new());
	} else if (strcmp(name, "q") == 0 || strcmp(name, "quit") == 0) {
		tui_quit();
		r = TUI_R_NONE;
	} else
		tui_message("error: unknown command :%s (Tab completes, :help"
		    " lists them)", name);
	free(name);
	return (r);
}
