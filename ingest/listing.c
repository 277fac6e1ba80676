/*
 * The profiled program's NASM listing (nasm -l): its source lines by
 * address, stored beside the image so that the annotate view can put the
 * source above the instructions from the store alone.  The listing is the
 * file named with --listing, or NAME.LST beside the program (any case).
 *
 * NASM writes a listing line as (its LIST_INDENT is 40)
 *
 *	    19 00000000 E8A000                  \tcall\tread_repeat
 *	   119 0000014D 303132333435363738- <1> out_digits db '01...'
 *
 * the line number, the offset in the section, the bytes (hex pairs;
 * [..] and (..) are values that relocation or another section may
 * change; <rep Nh> repeats the line's bytes, <res Nh> reserves space; a
 * trailing - says more follow on the next line), the macro or include
 * level, and the source text from the 40th column on.
 *
 * A listing is trusted only as far as it agrees with the image: every
 * plain byte it lists is compared with the stored image first, and one
 * that differs (another build, another program) gets the listing ignored
 * with a warning naming the first line that differs, never stored as
 * source lines that would sit above the wrong instructions.  Only the
 * section the image starts with (lines before any section directive) and
 * .text are placed: other sections' offsets start again at 0 and the
 * listing does not say where the output put them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hex.h"
#include "xmalloc.h"
#include "ingest/ingest.h"
#include "ingest/prf.h"
#include "store/prf.h"

#define LISTING_MAX_BYTES	(64u << 20)	/* bigger is not a listing */
#define LISTING_TEXT_MAX	240	/* bytes of a source line kept */
#define LISTING_CARRY		8	/* labels and comments before a line */
#define LISTING_REP_CHECK	16	/* repetitions of <rep> compared */

/* One line of the listing as parsed. */
struct lst_line {
	int		 addressed;	/* has an offset */
	uint64_t	 off;
	const char	*bytes;		/* the bytes field */
	size_t		 nbytes;
	const char	*text;		/* source, trailing blanks cut */
	size_t		 ntext;
};

/* What the check of the bytes found. */
struct lst_check {
	size_t		 lines;		/* in the listing */
	size_t		 garbage;	/* not in NASM's listing format */
	size_t		 placed;	/* addressed lines of placed sections */
	size_t		 bad;		/* of those, bytes that differ */
	size_t		 first_line;	/* the first bad one */
	uint64_t	 first_off;
	int		 first_want;	/* listed byte, image byte (-1: none) */
	int		 first_have;
};

/*
 * The end of the bytes field that starts at p[i], or (size_t)-1 when it
 * is not one.  Hex pairs, [..] and (..) of hex digits, <rep Nh> and
 * <res Nh>, then an optional -.
 */
static size_t
lst_bytes_end(const char *p, size_t len, size_t i)
{
	size_t	j;

	while (i < len) {
		if (i + 1 < len && hex_digit(p[i]) >= 0 &&
		    hex_digit(p[i + 1]) >= 0) {
			i += 2;
			continue;
		}
		if (p[i] == '[' || p[i] == '(') {
			for (j = i + 1; j < len && hex_digit(p[j]) >= 0; j++)
				;
			if (j >= len || p[j] != (p[i] == '[' ? ']' : ')'))
				return ((size_t)-1);
			i = j + 1;
			continue;
		}
		if (p[i] == '<' && len - i > 5 && (memcmp(p + i, "<rep ", 5) ==
		    0 || memcmp(p + i, "<res ", 5) == 0)) {
			for (j = i + 5; j < len && hex_digit(p[j]) >= 0; j++)
				;
			if (j == i + 5 || j + 1 >= len || p[j] != 'h' ||
			    p[j + 1] != '>')
				return ((size_t)-1);
			i = j + 2;
			continue;
		}
		break;
	}
	if (i < len && p[i] == '-')
		i++;
	return (i);
}

/* Parse the len bytes at p (no newline); -1 when it is no listing line. */
static int
lst_parse(const char *p, size_t len, struct lst_line *l)
{
	size_t	i = 0, start, end, textcol, n;

	memset(l, 0, sizeof *l);
	l->text = l->bytes = p + len;	/* empty, never NULL */
	while (len != 0 && (p[len - 1] == '\r' || p[len - 1] == ' ' ||
	    p[len - 1] == '\t'))
		len--;
	while (i < len && p[i] == ' ')
		i++;
	for (n = 0; i < len && isdigit((unsigned char)p[i]); i++)
		n++;
	if (n == 0 || n > 10)
		return (-1);
	if (i == len)
		return (0);
	if (p[i] != ' ')
		return (-1);
	start = ++i;
	end = start;
	/* The offset: eight hex digits and a space. */
	if (len - start >= 9 && p[start + 8] == ' ') {
		if (hex_scan(p + start, 8, &l->off) == 8) {
			l->addressed = 1;
			l->bytes = p + start + 9;
			end = lst_bytes_end(p, len, start + 9);
			if (end == (size_t)-1 || end == start + 9)
				return (-1);
			l->nbytes = end - (start + 9);
		}
	}
	/*
	 * The bytes field is 19 wide unless longer; then the level (" <1>"
	 * or four blanks) and a blank: the text starts 5 after the field.
	 */
	textcol = (end > start + 28 ? end : start + 28) + 5;
	for (i = end; i < len && i < textcol; i++) {
		if (p[i] != ' ' && p[i] != '<' && p[i] != '>' &&
		    !isdigit((unsigned char)p[i]))
			return (-1);
	}
	l->text = p + (len > textcol ? textcol : len);
	l->ntext = len > textcol ? len - textcol : 0;
	return (0);
}

/* Whether the text is a section directive; *keep: its code is placed. */
static int
lst_section(const struct lst_line *l, int *keep)
{
	const char	*p = l->text, *end = l->text + l->ntext, *name;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '[')
		p++;
	if (end - p < 8 || (strncasecmp(p, "section", 7) != 0 &&
	    strncasecmp(p, "segment", 7) != 0) || (p[7] != ' ' &&
	    p[7] != '\t'))
		return (0);
	for (p += 7; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	for (name = p; p < end && *p != ' ' && *p != '\t' && *p != ']'; p++)
		;
	*keep = (p - name == 5 && strncmp(name, ".text", 5) == 0);
	return (1);
}

/*
 * Whether a line without an address goes with the next one that has
 * one: a label ("spin:", ".l:") or a comment, not a directive.
 */
static int
lst_carried(const struct lst_line *l)
{
	const char	*p = l->text, *end = l->text + l->ntext;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return (0);
	if (*p == ';')
		return (1);
	if (!isalpha((unsigned char)*p) && strchr("._?$@", *p) == NULL)
		return (0);
	for (p++; p < end && (isalnum((unsigned char)*p) ||
	    strchr("._?$@#~", *p) != NULL); p++)
		;
	return (p < end && *p == ':');
}

/*
 * Compare the bytes of one copy of line l's data, at image offset *pos,
 * with the image; *pos moves past them.  0 when they agree, else -1 with
 * the first difference in *want and *have (-1: past the image's end).
 */
static int
lst_compare_once(const struct lst_line *l, const struct ingest_image *im,
    uint64_t *pos, int *want, int *have)
{
	const char	*p = l->bytes, *end = l->bytes + l->nbytes;
	size_t		 k;
	int		 v;

	while (p < end && *p != '<' && *p != '-') {
		if (*p == '[' || *p == '(') {
			/* A value the output may place elsewhere: skipped. */
			for (p++, k = 0; p < end && *p != ']' && *p != ')';
			    p++)
				k++;
			*pos += k / 2;
			p++;
			continue;
		}
		v = hex_digit(p[0]) << 4 | hex_digit(p[1]);
		if (*pos >= im->len || im->bytes[*pos] != v) {
			*want = v;
			*have = *pos < im->len ? im->bytes[*pos] : -1;
			return (-1);
		}
		(*pos)++;
		p += 2;
	}
	return (0);
}

/*
 * Compare line l's plain bytes with the image, the first few copies of
 * a <rep Nh>: 0 when they agree, else -1 with the first difference in
 * *at, *want and *have.
 */
static int
lst_compare(const struct lst_line *l, const struct ingest_image *im,
    uint64_t *at, int *want, int *have)
{
	const char	*p;
	uint64_t	 pos = l->off, reps = 1, r;

	if ((p = memchr(l->bytes, '<', l->nbytes)) != NULL &&
	    strncmp(p, "<rep ", 5) == 0) {
		for (p += 5, reps = 0; *p != 'h' && reps < LISTING_REP_CHECK;
		    p++)
			reps = reps << 4 | (uint64_t)hex_digit(*p);
	}
	for (r = 0; r < reps && r < LISTING_REP_CHECK; r++) {
		*at = pos;
		if (lst_compare_once(l, im, &pos, want, have) != 0) {
			*at = pos;
			return (-1);
		}
	}
	return (0);
}

/* The next line of text from *at: its start and length (no newline). */
static int
lst_next(const char *text, size_t len, size_t *at, const char **line,
    size_t *n)
{
	const char	*nl;

	if (*at >= len)
		return (0);
	*line = text + *at;
	nl = memchr(*line, '\n', len - *at);
	*n = nl != NULL ? (size_t)(nl - *line) : len - *at;
	*at += *n + 1;
	return (1);
}

/*
 * The first pass: every line parsed, the placed ones' bytes compared
 * with the image.
 */
static void
lst_check(const char *text, size_t len, const struct ingest_image *im,
    struct lst_check *ck)
{
	struct lst_line	 l;
	const char	*line;
	size_t		 at = 0, n;
	uint64_t	 off;
	int		 keep = 1, want, have;

	memset(ck, 0, sizeof *ck);
	while (lst_next(text, len, &at, &line, &n)) {
		ck->lines++;
		if (lst_parse(line, n, &l) != 0) {
			ck->garbage++;
			continue;
		}
		if (!l.addressed) {
			lst_section(&l, &keep);
			continue;
		}
		if (!keep)
			continue;
		ck->placed++;
		if (lst_compare(&l, im, &off, &want, &have) == 0)
			continue;
		if (ck->bad++ == 0) {
			ck->first_line = ck->lines;
			ck->first_off = off;
			ck->first_want = want;
			ck->first_have = have;
		}
	}
}

/* Store one source line at image offset off. */
static int
lst_store(struct ingest_ctx *ctx, const struct ingest_image *im,
    uint64_t off, size_t lineno, const char *text, size_t n)
{
	char	buf[LISTING_TEXT_MAX + 1];

	if (n > LISTING_TEXT_MAX)
		n = LISTING_TEXT_MAX;
	memcpy(buf, text, n);
	buf[n] = '\0';
	if (store_prf_source_add(ctx->st, ctx->session, im->addr + off,
	    (int64_t)lineno, buf) != 0)
		return (ingest_store_fail(ctx, "prf_source"));
	return (0);
}

/*
 * The second pass: each placed line with text at its address, and the
 * labels and comments just before it (a blank line or a directive ends
 * such a run; the last LISTING_CARRY are kept) at the same address.
 */
static int
lst_load(struct ingest_ctx *ctx, const char *text, size_t len,
    const struct ingest_image *im)
{
	struct lst_line	 l, carry[LISTING_CARRY];
	size_t		 lines[LISTING_CARRY], ncarry = 0, at = 0, n, i;
	size_t		 lineno = 0;
	const char	*line;
	int		 keep = 1;

	while (lst_next(text, len, &at, &line, &n)) {
		lineno++;
		if (lst_parse(line, n, &l) != 0 || l.ntext == 0) {
			ncarry = 0;
			continue;
		}
		if (!l.addressed) {
			if (lst_section(&l, &keep) || !keep ||
			    !lst_carried(&l)) {
				ncarry = 0;
				continue;
			}
			if (ncarry == LISTING_CARRY) {
				memmove(carry, carry + 1, sizeof carry -
				    sizeof *carry);
				memmove(lines, lines + 1, sizeof lines -
				    sizeof *lines);
				ncarry--;
			}
			carry[ncarry] = l;
			lines[ncarry++] = lineno;
			continue;
		}
		if (!keep || l.off >= im->len) {
			ncarry = 0;
			continue;
		}
		for (i = 0; i < ncarry; i++) {
			if (lst_store(ctx, im, l.off, lines[i], carry[i].text,
			    carry[i].ntext) != 0)
				return (-1);
		}
		ncarry = 0;
		if (lst_store(ctx, im, l.off, lineno, l.text, l.ntext) != 0)
			return (-1);
	}
	return (0);
}

/*
 * The listing of the program im (stored as the session's image): the one
 * named with --listing (which must be readable: -1 with ctx->cause), or
 * the one beside the program.  A listing that is not one, or whose bytes
 * differ from the image, is ignored with a warning.
 */
int
ingest_listing_attach(struct ingest_ctx *ctx, const struct ingest_image *im)
{
	struct lst_check	 ck;
	const char		*text;
	char			*path, *cause = NULL, have[16];
	size_t			 len;
	int			 given, rc = 0;

	given = (ingest_option(ctx, "listing") != NULL);
	path = given ? xstrdup(ingest_option(ctx, "listing")) :
	    ingest_find_beside(im->path, ".lst");
	if (path == NULL)
		return (0);
	if (ingest_text_read(path, LISTING_MAX_BYTES, &text, &len,
	    &cause) != 0) {
		if (given) {
			ctx->cause = cause;
			rc = -1;
		} else {
			ingest_warn(ctx, 0, "listing ignored: %s", cause);
			free(cause);
		}
		free(path);
		return (rc);
	}
	lst_check(text, len, im, &ck);
	if (ck.placed == 0)
		ingest_warn(ctx, 0, "listing ignored: %s: no line of its %zu"
		    " lists code at an offset in NASM's format (nasm -l)", path,
		    ck.lines);
	else if (ck.bad != 0) {
		if (ck.first_have < 0)
			snprintf(have, sizeof have, "nothing");
		else
			snprintf(have, sizeof have, "%02X", ck.first_have);
		ingest_warn(ctx, 0, "listing ignored: %s: line %zu lists %02X"
		    " at offset %llX, the program %s has %s there (%zu of %zu"
		    " lines with bytes differ): is it this program's"
		    " listing?", path, ck.first_line, ck.first_want,
		    (unsigned long long)ck.first_off, im->path, have, ck.bad,
		    ck.placed);
	} else {
		if (ck.garbage != 0)
			ingest_warn(ctx, 0, "%s: %zu of its %zu lines are"
			    " not in NASM's listing format; they are skipped",
			    path, ck.garbage, ck.lines);
		rc = lst_load(ctx, text, len, im);
	}
	ingest_text_unread(text, len);
	free(path);
	return (rc);
}
