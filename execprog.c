/*
 * Where a capture tool finds the program it is asked to run, and whether
 * the loader would preload its agent there: in one place, so that pvheap
 * and pvtrace refuse the same programs.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execprog.h"

/*
 * The file execvp(3) would run for prog into buf: prog itself when it
 * has a slash, else the first executable regular file along PATH (glibc's
 * default when there is none); 1, or 0 if none (the exec then fails, and
 * says why).
 */
int
execprog_find(const char *prog, char *buf, size_t size)
{
	const char	*path, *p, *colon;
	struct stat	 sb;
	size_t		 n;
	int		 len;

	if (strchr(prog, '/') != NULL) {
		len = snprintf(buf, size, "%s", prog);
		return (len >= 0 && (size_t)len < size);
	}
	if ((path = getenv("PATH")) == NULL)
		path = "/bin:/usr/bin";
	for (p = path;; p = colon + 1) {
		if ((colon = strchr(p, ':')) == NULL)
			colon = p + strlen(p);
		n = (size_t)(colon - p);
		/* An empty element is the current folder. */
		len = n == 0 ? snprintf(buf, size, "%s", prog) :
		    snprintf(buf, size, "%.*s/%s", (int)n, p, prog);
		if (len >= 0 && (size_t)len < size && stat(buf, &sb) == 0 &&
		    S_ISREG(sb.st_mode) && access(buf, X_OK) == 0)
			return (1);
		if (*colon == '\0')
			return (0);
	}
}

/*
 * Whether exec would run the program at path with other credentials, so
 * that the loader runs it in secure mode and ignores LD_PRELOAD (the
 * agent would never load and the capture would be empty, without a
 * word): set-user-ID to another user, set-group-ID to another group, or
 * given file capabilities (not for root).  The kernel's own exceptions
 * are kept: a nosuid mount, and no_new_privs, run it with ours.  One of
 * the EXECPROG_ values; the file's stat in *sb when it has one.  A file
 * that cannot be stat'ed is EXECPROG_OK: the exec says why.
 */
int
execprog_secure(const char *path, struct stat *sb)
{
	struct statvfs	 vfs;

	if (stat(path, sb) != 0)
		return (EXECPROG_OK);
	if ((statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)) ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return (EXECPROG_OK);
	if ((sb->st_mode & S_ISUID) && sb->st_uid != getuid())
		return (EXECPROG_SETUID);
	/* Without group execute, the bit means mandatory locking. */
	if ((sb->st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
	    sb->st_gid != getgid())
		return (EXECPROG_SETGID);
	if (getuid() != 0 && getxattr(path, "security.capability", NULL,
	    0) > 0)
		return (EXECPROG_CAPS);
	return (EXECPROG_OK);
}
