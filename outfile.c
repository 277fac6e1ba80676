/*
 * Output files written safely beside other users (outfile.h).
 *
 * The old way, fopen("NAME.tmp", "w") and rename, wrote through a symlink
 * planted at NAME.tmp (as root in another user's folder: any file), left
 * the file 0644 though it holds a program's data, and replaced a FIFO or
 * a device named as the output with a regular file.  Now:
 *  - a target that exists and is not a regular file (a FIFO, /dev/null, a
 *    terminal) is opened and written in place, without O_CREAT;
 *  - otherwise the data goes to a file with no name (O_TMPFILE, 0600) in
 *    the target's folder, given a random name only once whole (linkat
 *    cannot follow or replace what is there) and renamed over the target:
 *    a writer that dies leaves nothing behind;
 *  - where the file system has no O_TMPFILE, a named file made with
 *    O_CREAT|O_EXCL|O_NOFOLLOW under a random name, 0600.
 * The caller writes to the descriptor, closes it (checking close's
 * result: NFS reports a write's failure there), and then commits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Length of the target's folder part ("." when it has none). */
static int
outfile_dir(const char *path, char *dir, size_t size)
{
	const char	*slash = strrchr(path, '/');
	size_t		 n;

	if (slash == NULL) {
		dir[0] = '.';
		dir[1] = '\0';
		return (0);
	}
	n = (size_t)(slash - path);
	if (n == 0)
		n = 1;		/* the root */
	if (n >= size) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	return (0);
}

/* o->tmp := the target's folder + "/.NAME.XXXXXXXXXXXX", random. */
static int
outfile_name(struct outfile *o)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuv";
	const char	*base = strrchr(o->path, '/');
	char		 dir[PATH_MAX], suffix[13];
	uint64_t	 r;
	size_t		 i;
	int		 n;

	base = base == NULL ? o->path : base + 1;
	if (outfile_dir(o->path, dir, sizeof dir) != 0)
		return (-1);
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		return (-1);
	for (i = 0; i < sizeof suffix - 1; i++, r >>= 5)
		suffix[i] = digits[r & 31];
	suffix[i] = '\0';
	n = snprintf(o->tmp, sizeof o->tmp, "%s/.%s.%s", dir, base, suffix);
	if (n < 0 || (size_t)n >= sizeof o->tmp) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	return (0);
}

/*
 * Open path for writing: a descriptor (close-on-exec), or -1 with errno.
 * A regular file or nothing at path is replaced at outfile_commit.
 */
int
outfile_open(struct outfile *o, const char *path)
{
	struct stat	 lst, st, now;
	char		 dir[PATH_MAX];
	int		 tries, link = 0;

	memset(o, 0, sizeof *o);
	o->fd = -1;
	if (strlen(path) >= sizeof o->path) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	strcpy(o->path, path);
	/*
	 * A link is followed to a FIFO or device only when it is ours or
	 * root's (/dev/stdout): one another user put at the name, in a
	 * shared folder, could lead root's write to any disk, so it is a
	 * name to replace like any other (or, in a sticky folder, that
	 * rename is refused).
	 */
	if (lstat(path, &lst) == 0 && (!(link = S_ISLNK(lst.st_mode)) ||
	    lst.st_uid == geteuid() || lst.st_uid == 0) &&
	    stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return (-1);
		}
		o->direct = 1;
		o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC |
		    (link ? 0 : O_NOFOLLOW));
		/* What was looked at is what was opened, or nothing. */
		if (o->fd != -1 && (fstat(o->fd, &now) != 0 ||
		    now.st_dev != st.st_dev || now.st_ino != st.st_ino)) {
			close(o->fd);
			o->fd = -1;
			errno = EAGAIN;
		}
		return (o->fd);
	}
	if (outfile_dir(path, dir, sizeof dir) != 0)
		return (-1);
	o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (o->fd != -1) {
		o->anon = 1;
		return (o->fd);
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return (-1);
	for (tries = 0; tries < 100; tries++) {
		if (outfile_name(o) != 0)
			return (-1);
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_NOCTTY | O_CLOEXEC, 0600);
		if (o->fd != -1 || errno != EEXIST)
			return (o->fd);
	}
	return (-1);
}

/* Name a file that has none yet (O_TMPFILE), at a random name. */
static int
outfile_link(struct outfile *o)
{
	char	proc[32];
	int	tries;

	if (!o->anon)
		return (0);
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
	for (tries = 0; tries < 100; tries++) {
		if (outfile_name(o) != 0)
			return (-1);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp,
		    AT_SYMLINK_FOLLOW) == 0) {
			o->anon = 0;
			return (0);
		}
		if (errno != EEXIST)
			return (-1);
	}
	return (-1);
}

/* Put the named, closed file in place of the target. */
static int
outfile_rename(struct outfile *o)
{
	int	saved;

	if (o->direct || rename(o->tmp, o->path) == 0)
		return (0);
	saved = errno;
	unlink(o->tmp);
	errno = saved;
	return (-1);
}

/*
 * Close the descriptor and put the file in place: 0, or -1 with errno
 * and nothing left behind.
 */
int
outfile_close(struct outfile *o)
{
	int	fd = o->fd;

	if (outfile_link(o) != 0) {
		outfile_abort(o);
		return (-1);
	}
	o->fd = -1;
	if (close(fd) != 0) {
		outfile_abort(o);
		return (-1);
	}
	return (outfile_rename(o));
}

/* outfile_open as a stdio stream (mode "w" or "wb"). */
FILE *
outfile_fopen(struct outfile *o, const char *path, const char *mode)
{
	FILE	*f;

	if (outfile_open(o, path) == -1)
		return (NULL);
	if ((f = fdopen(o->fd, mode)) == NULL)
		outfile_abort(o);
	return (f);
}

/* outfile_close for a stream from outfile_fopen. */
int
outfile_fclose(struct outfile *o, FILE *f)
{
	int	bad;

	/*
	 * A write error stdio kept (ferror) left its errno, ENOSPC say,
	 * unless something cleared it since: EIO then.
	 */
	bad = fflush(f) != 0 || ferror(f);
	if (bad || outfile_link(o) != 0) {
		outfile_fabort(o, f);
		if (bad && errno == 0)
			errno = EIO;
		return (-1);
	}
	o->fd = -1;
	if (fclose(f) != 0) {
		outfile_abort(o);
		return (-1);
	}
	return (outfile_rename(o));
}

/* Give up the file: its descriptor is closed and nothing is left. */
void
outfile_abort(struct outfile *o)
{
	int	saved = errno;

	if (o->fd != -1)
		close(o->fd);
	o->fd = -1;
	if (!o->direct && !o->anon && o->tmp[0] != '\0')
		unlink(o->tmp);
	o->tmp[0] = '\0';
	errno = saved;
}

/* outfile_abort for a stream from outfile_fopen. */
void
outfile_fabort(struct outfile *o, FILE *f)
{
	int	saved = errno;

	o->fd = -1;
	fclose(f);
	errno = saved;
	outfile_abort(o);
}
