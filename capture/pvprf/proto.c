/*
 * Where the per-user daemon listens, and whole reads and writes on its
 * socket (shared by libpvprf, pvprfd and pvprf).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "capture/pvprf/prfd.h"

/*
 * $XDG_RUNTIME_DIR when it is set and absolute (the session's own, mode
 * 0700 by the spec), else /tmp/pvprfd-UID, which the daemon makes 0700
 * and both ends refuse unless it is ours and closed to others.  Not
 * $XDG_RUNTIME_DIR in a setuid or setgid program (secure_getenv): the
 * library runs in those too.
 */
int
prfd_sock_dir(char *buf, size_t len)
{
	const char	*x = secure_getenv("XDG_RUNTIME_DIR");
	int		 n;

	if (x != NULL && x[0] == '/')
		n = snprintf(buf, len, "%s", x);
	else
		n = snprintf(buf, len, "/tmp/pvprfd-%u", (unsigned)getuid());
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	return (0);
}

int
prfd_sock_path(char *buf, size_t len)
{
	const char	*x = secure_getenv("XDG_RUNTIME_DIR");
	char		 dir[4096];
	int		 n;

	if (prfd_sock_dir(dir, sizeof dir) != 0)
		return (-1);
	if (x != NULL && x[0] == '/')
		n = snprintf(buf, len, "%s/pvprfd.sock", dir);
	else
		n = snprintf(buf, len, "%s/sock", dir);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	return (0);
}

/* A stream socket and the address of path, for connect or bind. */
int
prfd_socket(const char *path, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun->sun_path) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	strcpy(sun->sun_path, path);
	return (socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
}

/* 0 when all len bytes came; -1 on an error or an early end (errno 0). */
int
prfd_read_full(int fd, void *buf, size_t len)
{
	char	*p = buf;
	ssize_t	 n;

	while (len > 0) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			return (-1);
		}
		p += n;
		len -= n;
	}
	return (0);
}

/* MSG_NOSIGNAL: a peer gone is an error here, never a SIGPIPE. */
int
prfd_write_full(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return (-1);
		p += n;
		len -= n;
	}
	return (0);
}
