/*
 * The key table: TUI_ACTIONS in tui.h is the only place a key is bound,
 * each binding in a group (tig's keymaps).  Bindings are parsed once at
 * start; the help view is generated from the same table, and so is the
 * KEYS section of the man page.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>
#include <termkey.h>

#include "xmalloc.h"
#include "tui/tui.h"

#define G(id, name, title) { name, title },
const struct tui_group_info tui_groups[TUI_G_COUNT] = {
	TUI_GROUPS
};
#undef G

#define A(group, name, keys, help) { #name, TUI_G_##group, keys, help },
const struct tui_action_info tui_actions[TUI_ACT_COUNT] = {
	{ "NONE", TUI_G_GLOBAL, "", "" },
	TUI_ACTIONS
};
#undef A

struct keymap_bind {
	enum tui_group	 group;
	TermKeyType	 type;
	long		 code;		/* codepoint or TermKeySym */
	int		 mods;
	enum tui_action	 action;
	char		*word;		/* as the table spells it */
};

static struct keymap_bind	*keymap;
static size_t			 nkeymap;

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
	struct keymap_bind	*b;
	char			*copy, *word, *save;
	size_t			 i, j;

	keymap_free();
	for (i = 1; i < TUI_ACT_COUNT; i++) {
		copy = xstrdup(tui_actions[i].keys);
		for (word = strtok_r(copy, " ", &save); word != NULL;
		    word = strtok_r(NULL, " ", &save)) {
			keymap = xreallocarray(keymap, nkeymap + 1,
			    sizeof *keymap);
			b = &keymap[nkeymap];
			if (keymap_parse(tk, word, b) != 0)
				fatal("key table: unknown key %s", word);
			b->group = tui_actions[i].group;
			b->action = i;
			b->word = xstrdup(word);
			for (j = 0; j < nkeymap; j++) {
				if (keymap[j].group == b->group &&
				    keymap[j].type == b->type &&
				    keymap[j].code == b->code &&
				    keymap[j].mods == b->mods)
					fatal("key table: %s twice in the %s"
					    " group", word,
					    tui_groups[b->group].name);
			}
			nkeymap++;
		}
		free(copy);
	}
	return (0);
}

/* The group of the view called name: its own, else only the global keys. */
enum tui_group
tui_keymap_group(const char *name)
{
	enum tui_group	g;

	for (g = TUI_G_GLOBAL + 1; g < TUI_G_PROMPT; g++) {
		if (strcmp(tui_groups[g].name, name) == 0)
			return (g);
	}
	return (TUI_G_GLOBAL);
}

/* The binding of key (a TermKeyKey *) in group g, or NULL. */
static const struct keymap_bind *
keymap_find(enum tui_group g, const void *k)
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

/* The action key (a TermKeyKey *) has in group g, or TUI_ACT_NONE. */
enum tui_action
tui_keymap_lookup(enum tui_group g, const void *key)
{
	const struct keymap_bind	*b = keymap_find(g, key);

	return (b != NULL ? b->action : TUI_ACT_NONE);
}

/*
 * How the table spells key if some view's group binds it, else NULL: a
 * key pressed in the wrong view is told apart from one bound nowhere.
 */
const char *
tui_keymap_word(const void *key)
{
	const struct keymap_bind	*b;
	enum tui_group			 g;

	for (g = TUI_G_GLOBAL; g < TUI_G_PROMPT; g++) {
		if ((b = keymap_find(g, key)) != NULL)
			return (b->word);
	}
	return (NULL);
}
