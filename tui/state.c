/*
 * What the browser keeps across runs, in $XDG_STATE_HOME/profview/ (else
 * ~/.local/state/profview/): the prompt's history (prompt.c) and, in
 * "views", how each session was last shown.  A session is known by its
 * file's SHA-256, so a store made again from the same file finds it.
 * Losing the file loses nothing but these habits: errors are reported and
 * otherwise ignored.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xmalloc.h"
#include "tui/tui.h"

#define STATE_VIEWS	"views"
#define STATE_MAX	1000	/* sessions remembered, the latest kept */

/* The file called name in the state directory, or NULL without a home. */
char *
tui_state_path(const char *name)
{
	const char	*env, *home;

	if ((env = getenv("XDG_STATE_HOME")) != NULL && *env == '/')
		return (xasprintf("%s/profview/%s", env, name));
	if ((home = getenv("HOME")) == NULL || *home == '\0')
		return (NULL);
	return (xasprintf("%s/.local/state/profview/%s", home, name));
}

/* Make the directories above path (0700: the history is private). */
void
tui_state_mkdirs(const char *path)
{
	char	*copy = xstrdup(path), *p;

	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(copy, 0700);
		*p = '/';
	}
	free(copy);
}

/* The lines of the views file, without their newlines. */
static char **
state_read(const char *path, size_t *n)
{
	FILE	*f;
	char	**v = NULL, *line = NULL;
	size_t	 cap = 0;
	ssize_t	 len;

	*n = 0;
	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	while ((len = getline(&line, &cap, f)) != -1) {
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup(line);
	}
	free(line);
	fclose(f);
	return (v);
}

static void
state_free(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

/* Whether line is key's: "KEY SETTINGS". */
static int
state_is(const char *line, const char *key)
{
	size_t	n = strlen(key);

	return (strncmp(line, key, n) == 0 && line[n] == ' ');
}

/* The settings last kept for key, or NULL. */
char *
tui_state_get(const char *key)
{
	char	*path, **v, *out = NULL;
	size_t	 n, i;

	if (*key == '\0' || (path = tui_state_path(STATE_VIEWS)) == NULL)
		return (NULL);
	v = state_read(path, &n);
	free(path);
	for (i = n; i > 0 && out == NULL; i--) {
		if (state_is(v[i - 1], key))
			out = xstrdup(v[i - 1] + strlen(key) + 1);
	}
	state_free(v, n);
	return (out);
}

/*
 * Keep settings for key, now, so that a profview killed later keeps
 * them too.  The file is written afresh and renamed over the old one: two
 * browsers at once lose at most the other's last change.
 */
void
tui_state_put(const char *key, const char *settings)
{
	FILE	*f;
	char	*path, *tmp, **v;
	size_t	 n, i, keep;
	int	 bad;

	if (*key == '\0' || strchr(settings, '\n') != NULL ||
	    (path = tui_state_path(STATE_VIEWS)) == NULL)
		return;
	v = state_read(path, &n);
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	tui_state_mkdirs(path);
	if ((f = fopen(tmp, "w")) == NULL) {
		tui_message("error: %s: %s", tmp, strerror(errno));
		goto out;
	}
	/* The newest STATE_MAX - 1 others, oldest first, then this one. */
	for (i = keep = 0; i < n; i++)
		keep += !state_is(v[i], key);
	for (i = 0; i < n; i++) {
		if (state_is(v[i], key))
			continue;
		if (keep-- < STATE_MAX)
			fprintf(f, "%s\n", v[i]);
	}
	fprintf(f, "%s %s\n", key, settings);
	bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		tui_message("error: %s: %s", path, strerror(errno));
		unlink(tmp);
	}
out:
	free(tmp);
	free(path);
	state_free(v, n);
}
