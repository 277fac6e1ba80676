/*
 * A symbol name may hold any byte but NUL, and pvtrace's files are split
 * on white space, so every byte outside '!'..'~', and '%' itself, is
 * written as %XX; so are ';', which joins a call path in a .mon, and
 * '@', which qualifies a name there.  "%00" is the empty name: a field
 * is never empty.
 */
#include <string.h>

#include "hex.h"
#include "monname.h"

/* Write s escaped. */
void
monname_put(FILE *f, const char *s)
{
	const unsigned char	*p;

	if (*s == '\0') {
		fputs("%00", f);	/* never an empty field */
		return;
	}
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '%' || *p == ';' ||
		    *p == '@')
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
}

/*
 * Decode the len bytes of an escaped name at p (not NUL-ended) into out,
 * which has room for len + 1: 0, or -1 if an escape is malformed or
 * decodes to NUL (the writer makes "%00" only of the empty name), or a
 * byte the writer escapes stands bare.  With MONNAME_FIELD a bare ';' or
 * '@' is refused too: in a .mon field they are separators.
 */
int
monname_decode(const char *p, size_t len, char *out, int flags)
{
	char	*o = out;
	size_t	 i;
	int	 h, l;

	if (len == 3 && memcmp(p, "%00", 3) == 0) {
		*out = '\0';
		return (0);
	}
	for (i = 0; i < len; i++) {
		if (p[i] == '%') {
			if (len - i < 3 ||
			    (h = hex_digit((unsigned char)p[i + 1])) < 0 ||
			    (l = hex_digit((unsigned char)p[i + 2])) < 0 ||
			    (h | l) == 0)
				return (-1);
			*o++ = (char)(h << 4 | l);
			i += 2;
		} else if ((unsigned char)p[i] <= ' ' ||
		    (unsigned char)p[i] >= 0x7f || ((flags & MONNAME_FIELD) &&
		    (p[i] == ';' || p[i] == '@')))
			return (-1);
		else
			*o++ = p[i];
	}
	*o = '\0';
	return (0);
}
