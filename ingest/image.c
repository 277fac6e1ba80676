/*
 * The profiled DOS program's load image: the bytes DOS put in memory, at
 * the linear address it put them, so that instructions can be decoded
 * from the store alone.  The program is the file named with --program,
 * or NAME.COM or NAME.EXE (any case) beside the data file.
 *
 * DOS tells the two kinds by content, not by name: a file that starts
 * with "MZ" (or "ZM") is an EXE whatever it is called.  A COM is the whole
 * file at PSP:0100; an EXE's load module (the bytes its header counts,
 * less the header) goes at PSP+10h:0000.  Relocations are not applied:
 * they change segment words, not where instructions start.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xmalloc.h"
#include "ingest/bytes.h"
#include "ingest/ingest.h"

#define IMAGE_COM_MAX	0xff00u		/* 64 KiB less the PSP, a stack word */
#define IMAGE_DOS_LIMIT	0x100000u	/* no real-mode address beyond 1 MiB */
#define IMAGE_EXE_FIXED	28		/* the MZ header's fixed fields */

static const char *image_exe_fields[] = {
	"signature", "e_cblp", "e_cp", "e_crlc", "e_cparhdr", "e_minalloc",
	"e_maxalloc", "e_ss", "e_sp", "e_csum", "e_ip", "e_cs", "e_lfarlc",
	"e_ovno"
};

/*
 * The file beside path with path's stem and extension ext (".com"),
 * both in any case: DOS names are case-blind, and a copy from a DOS disk
 * may come in either.  NULL when there is none that is a regular file.
 */
char *
ingest_find_beside(const char *path, const char *ext)
{
	const char	*slash = strrchr(path, '/'), *base, *dot;
	char		*dir, *found = NULL;
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	size_t		 stem;

	base = slash != NULL ? slash + 1 : path;
	dot = strrchr(base, '.');
	stem = dot != NULL && dot != base ? (size_t)(dot - base) :
	    strlen(base);
	dir = slash != NULL ? xasprintf("%.*s", (int)(slash - path + 1),
	    path) : xstrdup("./");
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return (NULL);
	}
	while (found == NULL && (de = readdir(d)) != NULL) {
		if (strlen(de->d_name) != stem + strlen(ext) ||
		    strncasecmp(de->d_name, base, stem) != 0 ||
		    strcasecmp(de->d_name + stem, ext) != 0)
			continue;
		found = xasprintf("%s%s", dir, de->d_name);
		if (stat(found, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			free(found);
			found = NULL;
		}
	}
	closedir(d);
	free(dir);
	return (found);
}

/*
 * The program beside data file path: STEM.COM, then STEM.EXE, in any
 * case; COM first, as DOS searches.  NULL when there is none.  *other is
 * set when both exist.
 */
char *
ingest_image_find(const char *path, int *other)
{
	char	*com = ingest_find_beside(path, ".com");
	char	*exe = ingest_find_beside(path, ".exe");

	*other = com != NULL && exe != NULL;
	if (com != NULL) {
		free(exe);
		return (com);
	}
	return (exe);
}

/* Read len bytes at off of fd into a new buffer; NULL with *cause. */
static uint8_t *
image_pread(int fd, const char *path, uint64_t off, size_t len, char **cause)
{
	uint8_t	*buf = xmalloc(len + 1);
	size_t	 got = 0;
	ssize_t	 r;

	while (got < len) {
		r = pread(fd, buf + got, len - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*cause = xasprintf("%s: %s", path, r < 0 ?
			    strerror(errno) : "file shrank while being read");
			free(buf);
			return (NULL);
		}
		got += (size_t)r;
	}
	return (buf);
}

/*
 * An EXE's load module, its header checked against the bytes present:
 * *start and *len of the module in the file.
 */
static int
image_exe(const char *path, const uint8_t *h, uint64_t size,
    uint64_t *start, size_t *len, char **cause)
{
	struct bytes	b;
	uint16_t	w[14];
	uint64_t	load, hdr;
	int		k;

	bytes_init(&b, h, size < IMAGE_EXE_FIXED ? (size_t)size :
	    IMAGE_EXE_FIXED);
	for (k = 0; k < 14; k++) {
		if (bytes_u16(&b, &w[k]) != 0) {
			*cause = xasprintf("%s: offset %d: %s: file ends inside"
			    " the EXE header (%llu bytes, it needs %d)", path,
			    2 * k, image_exe_fields[k],
			    (unsigned long long)size, IMAGE_EXE_FIXED);
			return (-1);
		}
	}
	/* e_cp pages of 512 bytes; e_cblp bytes used of the last, 0: all. */
	if (w[1] >= 512) {
		*cause = xasprintf("%s: offset 2: e_cblp: %u bytes in the last"
		    " page of 512", path, w[1]);
		return (-1);
	}
	if (w[2] == 0) {
		*cause = xasprintf("%s: offset 4: e_cp: 0 pages", path);
		return (-1);
	}
	load = (uint64_t)w[2] * 512 - (w[1] != 0 ? 512 - w[1] : 0);
	hdr = (uint64_t)w[4] * 16;
	if (load > size) {
		*cause = xasprintf("%s: offset 4: e_cp: %u pages (e_cblp %u)"
		    " make %llu bytes, the file has %llu", path, w[2], w[1],
		    (unsigned long long)load, (unsigned long long)size);
		return (-1);
	}
	if (hdr < IMAGE_EXE_FIXED || hdr > load) {
		*cause = xasprintf("%s: offset 8: e_cparhdr: %u paragraphs of"
		    " header in a %llu-byte load (at least %d bytes)", path,
		    w[4], (unsigned long long)load, IMAGE_EXE_FIXED);
		return (-1);
	}
	if ((uint64_t)w[12] + 4 * (uint64_t)w[3] > size) {
		*cause = xasprintf("%s: offset 24: e_lfarlc: %u relocations"
		    " at %u run past the end of the file (%llu bytes)", path,
		    w[3], w[12], (unsigned long long)size);
		return (-1);
	}
	if (load - hdr > IMAGE_DOS_LIMIT) {
		*cause = xasprintf("%s: offset 4: e_cp: a %llu-byte load"
		    " module does not fit in real-mode memory", path,
		    (unsigned long long)(load - hdr));
		return (-1);
	}
	*start = hdr;
	*len = (size_t)(load - hdr);
	return (0);
}

/* Read the program at path for a PSP at paragraph psp into *im. */
static int
image_read(const char *path, uint32_t psp, struct ingest_image *im,
    char **cause)
{
	struct stat	 sb;
	uint8_t		 h[IMAGE_EXE_FIXED];
	uint64_t	 start = 0;
	size_t		 len, n;
	ssize_t		 r;
	int		 fd, rc = -1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		goto out;
	}
	n = (uint64_t)sb.st_size < sizeof h ? (size_t)sb.st_size : sizeof h;
	if ((r = pread(fd, h, n, 0)) < 0 || (size_t)r != n) {
		*cause = xasprintf("%s: %s", path, r < 0 ? strerror(errno) :
		    "file shrank while being read");
		goto out;
	}
	im->exe = n >= 2 && ((h[0] == 'M' && h[1] == 'Z') ||
	    (h[0] == 'Z' && h[1] == 'M'));
	if (im->exe) {
		if (image_exe(path, h, (uint64_t)sb.st_size, &start, &len,
		    cause) != 0)
			goto out;
		im->addr = ((uint64_t)psp + 0x10) * 16;
	} else {
		if ((uint64_t)sb.st_size > IMAGE_COM_MAX) {
			*cause = xasprintf("%s: %llu bytes: too big for a COM"
			    " program (at most %u) and not an EXE (no MZ)",
			    path, (unsigned long long)sb.st_size,
			    IMAGE_COM_MAX);
			goto out;
		}
		len = (size_t)sb.st_size;
		im->addr = (uint64_t)psp * 16 + 0x100;
	}
	if (len == 0) {
		*cause = xasprintf("%s: an empty program", path);
		goto out;
	}
	if ((im->bytes = image_pread(fd, path, start, len, cause)) == NULL)
		goto out;
	im->len = len;
	rc = 0;
out:
	close(fd);
	return (rc);
}

/*
 * The program of the data file ctx reads, loaded for a PSP at paragraph
 * psp: the one named with --program (which must be good: -1 with
 * ctx->cause), or the one beside the file (a bad one is ignored with a
 * warning).  1 with *im filled, 0 when there is none.
 */
int
ingest_image_open(struct ingest_ctx *ctx, uint32_t psp,
    struct ingest_image *im)
{
	char	*path, *cause = NULL;
	int	 given, other = 0;

	memset(im, 0, sizeof *im);
	given = (ingest_option(ctx, "program") != NULL);
	path = given ? xstrdup(ingest_option(ctx, "program")) :
	    ingest_image_find(ctx->path, &other);
	if (path == NULL)
		return (0);
	if (other)
		ingest_warn(ctx, 0, "%s and an .EXE of the same name are beside"
		    " the file; the .COM is used (DOS runs it first), name"
		    " the other with --program", path);
	if (image_read(path, psp, im, &cause) == 0) {
		im->path = path;
		return (1);
	}
	free(path);
	if (given) {
		ctx->cause = cause;
		return (-1);
	}
	ingest_warn(ctx, 0, "program ignored: %s", cause);
	free(cause);
	return (0);
}

void
ingest_image_free(struct ingest_image *im)
{
	free(im->bytes);
	free(im->path);
	memset(im, 0, sizeof *im);
}
