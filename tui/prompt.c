/*
 * The status-line prompt: ":" for commands (with history kept across runs
 * and Tab completion), "/" for a search.  The line is UTF-8; the cursor
 * moves by characters.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>
#include <termkey.h>

#include "xmalloc.h"
#include "tui/tui.h"

#define PROMPT_HISTORY_MAX	500

static struct {
	int	  mode;		/* ':' or '/', 0 when closed */
	char	 *buf;
	size_t	  len;
	size_t	  cap;
	size_t	  pos;		/* byte offset of the cursor */

	char	**hist;
	size_t	  nhist;
	size_t	  hpos;		/* nhist: the line being edited */
	char	 *saved;	/* that line while browsing history */
	char	 *path;
	char	 *cands;	/* Tab's candidates, until the next key */
} prompt;

/* $XDG_STATE_HOME/profview/history, else ~/.local/state/profview/history. */
char *
tui_history_path(void)
{
	return (tui_state_path("history"));
}

static void
prompt_hist_add(const char *line)
{
	if (*line == '\0')
		return;
	if (prompt.nhist != 0 && strcmp(prompt.hist[prompt.nhist - 1],
	    line) == 0)
		return;
	if (prompt.nhist == PROMPT_HISTORY_MAX) {
		free(prompt.hist[0]);
		memmove(prompt.hist, prompt.hist + 1,
		    (prompt.nhist - 1) * sizeof *prompt.hist);
		prompt.nhist--;
	}
	prompt.hist = xreallocarray(prompt.hist, prompt.nhist + 1,
	    sizeof *prompt.hist);
	prompt.hist[prompt.nhist++] = xstrdup(line);
}

/* Load the history; rewrite the file when it has grown past the cap. */
void
tui_prompt_init(void)
{
	FILE	*f;
	char	*line = NULL;
	size_t	 cap = 0, i, lines = 0;
	ssize_t	 n;

	memset(&prompt, 0, sizeof prompt);
	if ((prompt.path = tui_history_path()) == NULL)
		return;
	if ((f = fopen(prompt.path, "r")) == NULL)
		return;
	while ((n = getline(&line, &cap, f)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		prompt_hist_add(line);
		lines++;
	}
	free(line);
	fclose(f);
	if (lines > 2 * PROMPT_HISTORY_MAX &&
	    (f = fopen(prompt.path, "w")) != NULL) {
		for (i = 0; i < prompt.nhist; i++)
			fprintf(f, "%s\n", prompt.hist[i]);
		fclose(f);
	}
}

/* Append one line now, so a killed session keeps its history too. */
static void
prompt_hist_save(const char *line)
{
	FILE	*f;

	if (prompt.path == NULL || *line == '\0' || strchr(line, '\n'))
		return;
	tui_state_mkdirs(prompt.path);
	if ((f = fopen(prompt.path, "a")) == NULL) {
		tui_message("error: history %s: %s", prompt.path,
		    strerror(errno));
		return;
	}
	fprintf(f, "%s\n", line);
	fclose(f);
}

/* Free the prompt's memory (the history file is written as it goes). */
void
tui_prompt_save(void)
{
	size_t	i;

	for (i = 0; i < prompt.nhist; i++)
		free(prompt.hist[i]);
	free(prompt.hist);
	free(prompt.buf);
	free(prompt.saved);
	free(prompt.path);
	free(prompt.cands);
	memset(&prompt, 0, sizeof prompt);
}

static void
prompt_set(const char *s)
{
	prompt.len = strlen(s);
	if (prompt.len + 1 > prompt.cap) {
		prompt.cap = prompt.len + 64;
		prompt.buf = xreallocarray(prompt.buf, prompt.cap, 1);
	}
	memcpy(prompt.buf, s, prompt.len + 1);
	prompt.pos = prompt.len;
}

void
tui_prompt_open(int mode)
{
	prompt.mode = mode;
	prompt_set("");
	prompt.hpos = prompt.nhist;
	free(prompt.saved);
	prompt.saved = NULL;
}

int
tui_prompt_active(void)
{
	return (prompt.mode != 0);
}

static void
prompt_insert(const char *s, size_t n)
{
	if (prompt.len + n + 1 > prompt.cap) {
		prompt.cap = (prompt.len + n + 1) * 2;
		prompt.buf = xreallocarray(prompt.buf, prompt.cap, 1);
	}
	memmove(prompt.buf + prompt.pos + n, prompt.buf + prompt.pos,
	    prompt.len - prompt.pos + 1);
	memcpy(prompt.buf + prompt.pos, s, n);
	prompt.len += n;
	prompt.pos += n;
}

static void
prompt_delete(size_t from, size_t to)
{
	memmove(prompt.buf + from, prompt.buf + to, prompt.len - to + 1);
	prompt.len -= to - from;
	prompt.pos = from;
}

/* UTF-8: step over continuation bytes. */
static size_t
prompt_prev(size_t pos)
{
	if (pos == 0)
		return (0);
	pos--;
	while (pos > 0 && (prompt.buf[pos] & 0xc0) == 0x80)
		pos--;
	return (pos);
}

static size_t
prompt_next(size_t pos)
{
	if (pos >= prompt.len)
		return (prompt.len);
	pos++;
	while (pos < prompt.len && (prompt.buf[pos] & 0xc0) == 0x80)
		pos++;
	return (pos);
}

static void
prompt_history(int dir)
{
	if (prompt.mode != ':' || prompt.nhist == 0)
		return;
	if (dir < 0) {
		if (prompt.hpos == 0)
			return;
		if (prompt.hpos == prompt.nhist) {
			free(prompt.saved);
			prompt.saved = xstrdup(prompt.buf);
		}
		prompt_set(prompt.hist[--prompt.hpos]);
	} else {
		if (prompt.hpos >= prompt.nhist)
			return;
		if (++prompt.hpos == prompt.nhist)
			prompt_set(prompt.saved != NULL ? prompt.saved : "");
		else
			prompt_set(prompt.hist[prompt.hpos]);
	}
}

/* What a word Tab completes is made of: commands, formats, SQL names. */
static int
prompt_word_char(char c)
{
	return (isalnum((unsigned char)c) || c == '_');
}

static int
prompt_cmp(const void *a, const void *b)
{
	return (strcasecmp(*(char *const *)a, *(char *const *)b));
}

/* Show the candidates above the prompt, sorted, until the next key. */
static void
prompt_show(char **cand, size_t n)
{
	char	*list = xstrdup(""), *t;
	size_t	 i;

	qsort(cand, n, sizeof *cand, prompt_cmp);
	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s%s", list, i != 0 ? "  " : "", cand[i]);
		free(list);
		list = t;
	}
	free(prompt.cands);
	prompt.cands = list;
}

/*
 * Tab: complete the word before the cursor, the command's name from the
 * command table, an argument from the command's completer (the formats
 * of :export, the tables and columns of :sql; arguments without regard
 * to case, as the formats and SQL take them).  One candidate replaces
 * the word, with a space after it; several complete their common prefix
 * and are listed above the prompt.
 */
static void
prompt_complete(void)
{
	const struct tui_command *const	*cmds;
	const char			*line, *word, *p;
	char				**cand = NULL, *args = NULL, *name;
	char				*tok, *save;
	size_t				 ncand = 0, wlen, i, common, n;
	size_t				 ncmds;
	int				 argn = 0, fold = 0;

	if (prompt.mode != ':')
		return;
	line = prompt.buf + strspn(prompt.buf, " ");
	n = strcspn(line, " ");
	if (prompt.buf + prompt.pos <= line + n) {
		word = line;
		wlen = (size_t)(prompt.buf + prompt.pos - word);
		cmds = tui_command_list(&ncmds);
		for (i = 0; i < ncmds; i++) {
			if (strncmp(cmds[i]->name, word, wlen) != 0 ||
			    !tui_command_offered(cmds[i], tui_top()))
				continue;
			cand = xreallocarray(cand, ncand + 1, sizeof *cand);
			cand[ncand++] = (char *)cmds[i]->name;
		}
	} else {
		word = prompt.buf + prompt.pos;
		while (word > line + n && prompt_word_char(word[-1]))
			word--;
		wlen = (size_t)(prompt.buf + prompt.pos - word);
		/* Which argument: the words from the name to this one. */
		for (p = line + n; ; argn++) {
			p += strspn(p, " ");
			if (p >= word)
				break;
			p += strcspn(p, " ");
		}
		name = xasprintf("%.*s", (int)n, line);
		args = tui_command_complete(name, tui_top(), argn);
		free(name);
		fold = 1;
		for (tok = args != NULL ? strtok_r(args, " ", &save) : NULL;
		    tok != NULL; tok = strtok_r(NULL, " ", &save)) {
			if (strncasecmp(tok, word, wlen) != 0)
				continue;
			cand = xreallocarray(cand, ncand + 1, sizeof *cand);
			cand[ncand++] = tok;
		}
	}
	if (ncand == 0) {
		free(prompt.cands);
		prompt.cands = xstrdup("no completion");
		goto out;
	}
	common = strlen(cand[0]);
	for (i = 1; i < ncand; i++) {
		while (common > 0 && (fold ? strncasecmp(cand[0], cand[i],
		    common) : strncmp(cand[0], cand[i], common)) != 0)
			common--;
	}
	/* The candidates' own spelling: "BUCK" becomes "bucket". */
	if (ncand == 1) {
		prompt_delete((size_t)(word - prompt.buf), prompt.pos);
		prompt_insert(cand[0], strlen(cand[0]));
		if (prompt.pos == prompt.len || prompt.buf[prompt.pos] != ' ')
			prompt_insert(" ", 1);
		goto out;
	}
	if (common > wlen) {
		prompt_delete((size_t)(word - prompt.buf), prompt.pos);
		prompt_insert(cand[0], common);
	}
	prompt_show(cand, ncand);
out:
	free(cand);
	free(args);
}

static int
prompt_accept(void)
{
	char	*line = xstrdup(prompt.buf);
	int	 mode = prompt.mode, r;

	prompt.mode = 0;
	if (mode == ':') {
		prompt_hist_add(line);
		prompt_hist_save(line);
		r = tui_command(line);
	} else if (*line == '\0' && tui_top()->search.pattern != NULL)
		r = tui_search_step(tui_top(), 1);
	else if (*line == '\0')
		r = TUI_R_DRAW;
	else
		r = tui_search_start(tui_top(), line);
	free(line);
	return (r | TUI_R_DRAW);
}

/*
 * The prompt group's action for key.  A special key with modifiers that
 * the table does not bind (C-Left, S-Tab) does what the key alone does,
 * as it always has here.
 */
static enum tui_action
prompt_action(const TermKeyKey *key)
{
	const struct tui_key	*k;
	TermKeyKey		 plain;

	k = tui_keymap_lookup(&tui_keys_prompt, key);
	if (k == NULL && key->type == TERMKEY_TYPE_KEYSYM &&
	    key->modifiers != 0) {
		plain = *key;
		plain.modifiers = 0;
		k = tui_keymap_lookup(&tui_keys_prompt, &plain);
	}
	return (k != NULL ? (enum tui_action)k->action : TUI_ACT_NONE);
}

/* One key while the prompt is open (key is a TermKeyKey *). */
int
tui_prompt_key(const void *k)
{
	const TermKeyKey	*key = k;
	enum tui_action		 a = prompt_action(key);
	size_t			 p;

	if (a != TUI_ACT_PROMPT_COMPLETE) {
		free(prompt.cands);
		prompt.cands = NULL;
	}
	switch (a) {
	case TUI_ACT_PROMPT_ENTER:
		return (prompt_accept());
	case TUI_ACT_PROMPT_CANCEL:
		prompt.mode = 0;
		break;
	case TUI_ACT_PROMPT_LEFT:
		prompt.pos = prompt_prev(prompt.pos);
		break;
	case TUI_ACT_PROMPT_RIGHT:
		prompt.pos = prompt_next(prompt.pos);
		break;
	case TUI_ACT_PROMPT_HOME:
		prompt.pos = 0;
		break;
	case TUI_ACT_PROMPT_END:
		prompt.pos = prompt.len;
		break;
	case TUI_ACT_PROMPT_BACKSPACE:
		/* Backspace on an empty line closes it, as in vi. */
		if (prompt.len == 0)
			prompt.mode = 0;
		else if (prompt.pos > 0)
			prompt_delete(prompt_prev(prompt.pos), prompt.pos);
		break;
	case TUI_ACT_PROMPT_DELETE:
		if (prompt.pos < prompt.len)
			prompt_delete(prompt.pos, prompt_next(prompt.pos));
		break;
	case TUI_ACT_PROMPT_KILL_START:
		prompt_delete(0, prompt.pos);
		break;
	case TUI_ACT_PROMPT_KILL_END:
		prompt.buf[prompt.len = prompt.pos] = '\0';
		break;
	case TUI_ACT_PROMPT_KILL_WORD:
		p = prompt.pos;
		while (p > 0 && prompt.buf[p - 1] == ' ')
			p--;
		while (p > 0 && prompt.buf[p - 1] != ' ')
			p--;
		prompt_delete(p, prompt.pos);
		break;
	case TUI_ACT_PROMPT_COMPLETE:
		prompt_complete();
		break;
	case TUI_ACT_PROMPT_OLDER:
		prompt_history(-1);
		break;
	case TUI_ACT_PROMPT_NEWER:
		prompt_history(1);
		break;
	default:
		/* Not an editing key: a character goes in the line. */
		if (key->type == TERMKEY_TYPE_UNICODE && key->modifiers == 0)
			prompt_insert(key->utf8, strlen(key->utf8));
		else if (key->type == TERMKEY_TYPE_KEYSYM &&
		    key->code.sym == TERMKEY_SYM_SPACE)
			prompt_insert(" ", 1);
		else if (key->type != TERMKEY_TYPE_KEYSYM &&
		    key->modifiers != TERMKEY_KEYMOD_CTRL)
			return (TUI_R_NONE);
		break;
	}
	return (TUI_R_DRAW);
}

/* Columns of buf[from, to). */
static int
prompt_width(size_t from, size_t to)
{
	char	save = prompt.buf[to];
	int	w;

	prompt.buf[to] = '\0';
	w = tui_strwidth(prompt.buf + from);
	prompt.buf[to] = save;
	return (w);
}

/* Draw the prompt on row y, scrolled so the cursor shows; cursor last. */
void
tui_prompt_draw(int y, int w)
{
	size_t	start = 0, next;
	char	lead[2] = { (char)prompt.mode, '\0' };
	int	x;

	if (w < 2)
		return;
	/* Drop characters from the left until the cursor fits. */
	x = prompt_width(0, prompt.pos);
	while (x >= w - 1 && start < prompt.pos) {
		next = prompt_next(start);
		x -= prompt_width(start, next);
		start = next;
	}
	/* Tab's candidates on the row above, over the view. */
	if (prompt.cands != NULL && y > 1) {
		tui_fill(y - 1, 0, w, tui_attr(TUI_C_TITLE));
		tui_put(y - 1, 0, w, tui_attr(TUI_C_TITLE), prompt.cands);
		if (tui_strwidth(prompt.cands) > w && w > 4)
			tui_put(y - 1, w - 4, 4, tui_attr(TUI_C_TITLE),
			    " ...");
	}
	tui_put(y, 0, 1, A_BOLD, lead);
	tui_put(y, 1, w - 1, TUI_PLAIN, prompt.buf + start);
	move(y, 1 + x);
}
