/*
 * Text made safe for a terminal (vis.h).  What is escaped, and how:
 *  - C0 controls and DEL: \n, \t, \r, else \xNN;
 *  - C1 controls (U+0080-009F, which a terminal may act on as ESC +
 *    letter) and the invisible characters that reorder text (the bidi
 *    embeddings, overrides, isolates and marks): \uNNNN;
 *  - bytes that do not start a valid UTF-8 character: \xNN.
 * Everything else, printable ASCII and the rest of Unicode, is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "vis.h"

/*
 * Decode one UTF-8 character of s (len > 0 bytes): its code point and
 * length, or -1 and length 1 for a byte that does not start a valid one
 * (overlong forms and surrogates included).
 */
int
vis_utf8(const unsigned char *s, size_t len, size_t *adv)
{
	int	cp, need, i, min;

	*adv = 1;
	if (s[0] < 0x80)
		return (s[0]);
	if ((s[0] & 0xe0) == 0xc0) {
		need = 1;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 2;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 3;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else
		return (-1);
	if (len < (size_t)need + 1)
		return (-1);
	for (i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return (-1);
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return (-1);
	*adv = (size_t)need + 1;
	return (cp);
}

/*
 * Whether code point cp (or -1, a bad byte) must not reach a terminal
 * as it is: controls, and the characters that reorder what follows them
 * (U+061C, U+200E-200F, U+202A-202E, U+2066-2069: "Trojan Source").
 */
int
vis_unsafe(int cp)
{
	if (cp < 0x20 || cp == 0x7f)
		return (1);
	if (cp < 0x80)
		return (0);
	return ((cp >= 0x80 && cp < 0xa0) || cp == 0x61c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069));
}

/* Whether s[0..len) has anything vis_str would change. */
int
vis_needed(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, adv;

	while (i < len) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		}
		if (vis_unsafe(vis_utf8(p + i, len - i, &adv)))
			return (1);
		i += adv;
	}
	return (0);
}

/* A copy of s[0..len) safe for a terminal, NUL-terminated. */
char *
vis_str(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	char			*out;
	size_t			 i = 0, o = 0, adv;
	int			 cp;

	/* \xNN is four bytes for one; \uNNNN six for two or three. */
	out = xreallocarray(NULL, len + 1, 4);
	while (i < len) {
		cp = vis_utf8(p + i, len - i, &adv);
		if (!vis_unsafe(cp)) {
			memcpy(out + o, p + i, adv);
			o += adv;
		} else if (cp == '\n' || cp == '\t' || cp == '\r') {
			out[o++] = '\\';
			out[o++] = cp == '\n' ? 'n' : cp == '\t' ? 't' : 'r';
		} else if (cp < 0x80)
			o += (size_t)sprintf(out + o, "\\x%02X", p[i]);
		else
			o += (size_t)sprintf(out + o, "\\u%04X", cp);
		i += adv;
	}
	out[o] = '\0';
	return (out);
}

/* vis_str of a string; NULL stays NULL. */
char *
vis(const char *s)
{
	return (s != NULL ? vis_str(s, strlen(s)) : NULL);
}

/* fputs, made safe. */
int
vis_fputs(const char *s, FILE *f)
{
	char	*t;
	int	 rc;

	if (!vis_needed(s, strlen(s)))
		return (fputs(s, f));
	t = vis(s);
	rc = fputs(t, f);
	free(t);
	return (rc);
}
