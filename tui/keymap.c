/*
 * The key table: TUI_ACTIONS in tui.h is the only place a key is bound.
 * Bindings are parsed once at start; the help view is generated from the
 * same table, and so is the KEYS section of the man page.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>
#include <termkey.h>

#include "xmalloc.h"
#include "tui/tui.h"

#define A(name, keys, help) { #name, keys, help },
const struct tui_action_info tui_actions[TUI_ACT_COUNT] = {
	{ "NONE", "", "" },
	TUI_ACTIONS
};
#undef A

#define C(name, args, help) { #name, args, help },
const struct tui_command_info tui_commands[] = {
	TUI_COMMANDS
};
#undef C
const size_t tui_ncommands = sizeof tui_commands / sizeof tui_commands[0];

struct keymap_bind {
	TermKeyType	 type;
	long		 code;		/* codepoint or TermKeySym */
	int		 mods;
	enum tui_action	 action;
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
	if ((sym = termkey_keyname2sym(tk, p)) == TERMKEY_SYM_UNKNOWN)
		return (-1);
	b->type = TERMKEY_TYPE_KEYSYM;
	b->code = sym;
	return (0);
}

/* Parse every binding; tk is a TermKey *. */
int
tui_keymap_init(void *tk)
{
	char	*copy, *word, *save;
	size_t	 i;

	free(keymap);
	keymap = NULL;
	nkeymap = 0;
	for (i = 1; i < TUI_ACT_COUNT; i++) {
		copy = xstrdup(tui_actions[i].keys);
		for (word = strtok_r(copy, " ", &save); word != NULL;
		    word = strtok_r(NULL, " ", &save)) {
			keymap = xreallocarray(keymap, nkeymap + 1,
			    sizeof *keymap);
			if (keymap_parse(tk, word, &keymap[nkeymap]) != 0)
				fatal("key table: unknown key %s", word);
			keymap[nkeymap++].action = i;
		}
		free(copy);
	}
	return (0);
}

/* The action bound to key (a TermKeyKey *), or TUI_ACT_NONE. */
enum tui_action
tui_keymap_lookup(const void *k)
{
	const TermKeyKey	*key = k;
	long			 code;
	int			 mods = key->modifiers;
	size_t			 i;

	if (key->type == TERMKEY_TYPE_UNICODE)
		code = key->code.codepoint;
	else if (key->type == TERMKEY_TYPE_KEYSYM)
		code = key->code.sym;
	else
		return (TUI_ACT_NONE);
	/* Shifted characters arrive as themselves ("G", "?"). */
	if (key->type == TERMKEY_TYPE_UNICODE)
		mods &= ~TERMKEY_KEYMOD_SHIFT;
	for (i = 0; i < nkeymap; i++) {
		if (keymap[i].type == key->type && keymap[i].code == code &&
		    keymap[i].mods == mods)
			return (keymap[i].action);
	}
	return (TUI_ACT_NONE);
}
