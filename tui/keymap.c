/*
 * The keys: the loop's own groups (every view's keys, the prompt's, a y/n
 * question's), and every group in the order help and the man page list
 * them, the views' own from their files (tui/kinds.c's modes for the
 * kinds' views).  Bindings are parsed once at start.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>
#include <termkey.h>

#include "xmalloc.h"
#include "tui/tui.h"

static const struct tui_key keymap_global[] = {
	TUI_KEY_LOADING(TUI_ACT_BACK, "q",
	    "close the view; quit on the last one"),
	TUI_KEY_LOADING(TUI_ACT_ESCAPE, "Escape",
	    "end the search, else close the view; never quits"),
	TUI_KEY_LOADING(TUI_ACT_QUIT, "Q", "quit profview"),
	TUI_KEY_LOADING(TUI_ACT_HELP, "? F1",
	    "show the keys, this view's first, and the commands"),
	TUI_KEY_LOADING(TUI_ACT_PROMPT, ":", "open the command prompt"),
	TUI_KEY(TUI_ACT_SEARCH, "/",
	    "search names and addresses (hex, 0x, h, seg:off)"),
	TUI_KEY(TUI_ACT_NEXT, "n", "next search match"),
	TUI_KEY(TUI_ACT_PREV, "N", "previous search match"),
	TUI_KEY(TUI_ACT_DOWN, "j Down C-n", "move down one row"),
	TUI_KEY(TUI_ACT_UP, "k Up C-p", "move up one row"),
	TUI_KEY(TUI_ACT_PAGE_DOWN, "PageDown C-f Space", "move down one page"),
	TUI_KEY(TUI_ACT_PAGE_UP, "PageUp C-b", "move up one page"),
	TUI_KEY(TUI_ACT_FIRST, "Home g", "go to the first row"),
	TUI_KEY(TUI_ACT_LAST, "End G", "go to the last row"),
	TUI_KEY_LOADING(TUI_ACT_REDRAW, "C-l", "redraw the screen"),
};
const struct tui_keys tui_keys_global = TUI_KEYS("global",
    "In every view", keymap_global);

static const struct tui_key keymap_prompt[] = {
	TUI_KEY(TUI_ACT_PROMPT_ENTER, "Enter", "run the command or the search"),
	TUI_KEY(TUI_ACT_PROMPT_CANCEL, "Escape C-g", "close the prompt"),
	TUI_KEY(TUI_ACT_PROMPT_LEFT, "Left C-b", "move the cursor left"),
	TUI_KEY(TUI_ACT_PROMPT_RIGHT, "Right C-f", "move the cursor right"),
	TUI_KEY(TUI_ACT_PROMPT_HOME, "Home C-a", "go to the start of the line"),
	TUI_KEY(TUI_ACT_PROMPT_END, "End C-e", "go to the end of the line"),
	TUI_KEY(TUI_ACT_PROMPT_BACKSPACE, "Backspace C-h",
	    "delete a character back; on an empty line, close"),
	TUI_KEY(TUI_ACT_PROMPT_DELETE, "Delete",
	    "delete the character under the cursor"),
	TUI_KEY(TUI_ACT_PROMPT_KILL_START, "C-u",
	    "delete to the start of the line"),
	TUI_KEY(TUI_ACT_PROMPT_KILL_END, "C-k",
	    "delete to the end of the line"),
	TUI_KEY(TUI_ACT_PROMPT_KILL_WORD, "C-w",
	    "delete the word before the cursor"),
	TUI_KEY(TUI_ACT_PROMPT_COMPLETE, "Tab",
	    "complete; when ambiguous, list the candidates"),
	TUI_KEY(TUI_ACT_PROMPT_OLDER, "Up",
	    "the command before in the history (kept across runs)"),
	TUI_KEY(TUI_ACT_PROMPT_NEWER, "Down",
	    "the command after in the history"),
};
const struct tui_keys tui_keys_prompt = TUI_KEYS("prompt",
    "At the : and / prompt", keymap_prompt);

static const struct tui_key keymap_confirm[] = {
	TUI_KEY(TUI_ACT_CONFIRM_YES, "y Y", "yes: go ahead"),
	TUI_KEY(TUI_ACT_CONFIRM_NO, "n Escape", "no (so does any other key)"),
};
const struct tui_keys tui_keys_confirm = TUI_KEYS("confirm",
    "At a y/n question", keymap_confirm);

struct keymap_bind {
	const struct tui_keys	*group;
	TermKeyType		 type;
	long			 code;	/* codepoint or TermKeySym */
	int			 mods;
	const struct tui_key	*key;
	char			*word;	/* as the table spells it */
};

static struct keymap_bind	*keymap;
static size_t			 nkeymap;

/*
 * Every group: the global one, the sessions view's, each kind's views'
 * in kind order, the :sql table's and help's, then the prompt's and the
 * y/n question's.
 */
static const struct tui_keys	**keymap_groups;
static size_t			  nkeymap_groups;

static void
keymap_add_group(const struct tui_keys *g)
{
	keymap_groups = xreallocarray(keymap_groups, nkeymap_groups + 1,
	    sizeof *keymap_groups);
	keymap_groups[nkeymap_groups++] = g;
}

/* Every key group, in the order help and the man page list them. */
const struct tui_keys *const *
tui_keymap_groups(size_t *n)
{
	const struct tui_kind		*k;
	const struct tui_keys *const	*g;
	size_t				 i;

	if (keymap_groups == NULL) {
		keymap_add_group(&tui_keys_global);
		keymap_add_group(&tui_keys_sessions);
		for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
			for (g = k->mode->keys; *g != NULL; g++)
				keymap_add_group(*g);
		}
		keymap_add_group(&tui_keys_diff);
		keymap_add_group(&tui_keys_sql);
		keymap_add_group(&tui_keys_help);
		keymap_add_group(&tui_keys_prompt);
		keymap_add_group(&tui_keys_confirm);
	}
	*n = nkeymap_groups;
	return (keymap_groups);
}

static int
keymap_parse(TermKey *tk, const char *name, struct keymap_bind *b)
{
	const char	*p = name;
	TermKeySym	 sym;

	b->mods = 0;
	if (strlen(p) > 2 && p[0] == 'C' && p[1] == '-') {
		b->mods = TERMKEY_KEYMOD_CTRL;
		p += 2;
	}
	/* Shift matters for keys that are not characters (S-Tab). */
	if (strlen(p) > 2 && p[0] == 'S' && p[1] == '-') {
		b->mods |= TERMKEY_KEYMOD_SHIFT;
		p += 2;
	}
	/* termkey reports a space as a character unless told otherwise. */
	if (strcmp(p, "Space") == 0) {
		b->type = TERMKEY_TYPE_UNICODE;
		b->code = ' ';
		return (0);
	}
	if (strlen(p) == 1) {
		b->type = TERMKEY_TYPE_UNICODE;
		b->code = (unsigned char)p[0];
		return (0);
	}
	/* Function keys are numbers to termkey, not symbols. */
	if (p[0] == 'F' && p[1] >= '1' && p[1] <= '9' &&
	    strspn(p + 1, "0123456789") == strlen(p + 1)) {
		b->type = TERMKEY_TYPE_FUNCTION;
		b->code = strtol(p + 1, NULL, 10);
		return (0);
	}
	if ((sym = termkey_keyname2sym(tk, p)) == TERMKEY_SYM_UNKNOWN)
		return (-1);
	b->type = TERMKEY_TYPE_KEYSYM;
	b->code = sym;
	return (0);
}

static void
keymap_free(void)
{
	size_t	i;

	for (i = 0; i < nkeymap; i++)
		free(keymap[i].word);
	free(keymap);
	keymap = NULL;
	nkeymap = 0;
}

/*
 * Parse every binding; tk is a TermKey *.  A key twice in one group
 * would make one of its actions unreachable: the table is wrong, so say
 * so at start rather than lose a key quietly.
 */
int
tui_keymap_init(void *tk)
{
	const struct tui_keys *const	*groups;
	const struct tui_keys		*g;
	struct keymap_bind		*b;
	char				*copy, *word, *save;
	size_t				 i, j, gi, ngroups;

	keymap_free();
	groups = tui_keymap_groups(&ngroups);
	for (gi = 0; gi < ngroups; gi++) {
		g = groups[gi];
		for (i = 0; i < g->n; i++) {
			copy = xstrdup(g->key[i].keys);
			for (word = strtok_r(copy, " ", &save); word != NULL;
			    word = strtok_r(NULL, " ", &save)) {
				keymap = xreallocarray(keymap, nkeymap + 1,
				    sizeof *keymap);
				b = &keymap[nkeymap];
				if (keymap_parse(tk, word, b) != 0)
					fatal("key table: unknown key %s",
					    word);
				b->group = g;
				b->key = &g->key[i];
				b->word = xstrdup(word);
				for (j = 0; j < nkeymap; j++) {
					if (keymap[j].group == b->group &&
					    keymap[j].type == b->type &&
					    keymap[j].code == b->code &&
					    keymap[j].mods == b->mods)
						fatal("key table: %s twice in"
						    " the %s group", word,
						    g->name);
				}
				nkeymap++;
			}
			free(copy);
		}
	}
	return (0);
}

/* The binding of key (a TermKeyKey *) in group g, or NULL. */
static const struct keymap_bind *
keymap_find(const struct tui_keys *g, const void *k)
{
	const TermKeyKey	*key = k;
	long			 code;
	int			 mods = key->modifiers;
	size_t			 i;

	if (key->type == TERMKEY_TYPE_UNICODE)
		code = key->code.codepoint;
	else if (key->type == TERMKEY_TYPE_KEYSYM)
		code = key->code.sym;
	else if (key->type == TERMKEY_TYPE_FUNCTION)
		code = key->code.number;
	else
		return (NULL);
	/* Shifted characters arrive as themselves ("G", "?"). */
	if (key->type == TERMKEY_TYPE_UNICODE)
		mods &= ~TERMKEY_KEYMOD_SHIFT;
	for (i = 0; i < nkeymap; i++) {
		if (keymap[i].group == g && keymap[i].type == key->type &&
		    keymap[i].code == code && keymap[i].mods == mods)
			return (&keymap[i]);
	}
	return (NULL);
}

/* The entry key (a TermKeyKey *) has in group g, or NULL. */
const struct tui_key *
tui_keymap_lookup(const struct tui_keys *g, const void *key)
{
	const struct keymap_bind	*b = keymap_find(g, key);

	return (b != NULL ? b->key : NULL);
}

/*
 * How the table spells key if some view's group binds it, else NULL: a
 * key pressed in the wrong view is told apart from one bound nowhere.
 */
const char *
tui_keymap_word(const void *key)
{
	const struct keymap_bind	*b;
	const struct tui_keys *const	*groups;
	size_t				 i, n;

	groups = tui_keymap_groups(&n);
	for (i = 0; i < n; i++) {
		if (groups[i] == &tui_keys_prompt ||
		    groups[i] == &tui_keys_confirm)
			continue;
		if ((b = keymap_find(groups[i], key)) != NULL)
			return (b->word);
	}
	return (NULL);
}
