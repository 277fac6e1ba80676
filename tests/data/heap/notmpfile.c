/* Preloaded after the agent by heap-files.sh: open() of O_TMPFILE fails
 * as on a file system without it (EOPNOTSUPP), so the snapshot takes the
 * path of a named temporary file, where a planted symlink would bite. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

static int
notmp_open(const char *name, const char *path, int flags, va_list ap)
{
	int	(*real)(const char *, int, ...);
	mode_t	mode = 0;

	if ((flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return (-1);
	}
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	return (real(path, flags, mode));
}

int
open(const char *path, int flags, ...)
{
	va_list	ap;
	int	fd;

	va_start(ap, flags);
	fd = notmp_open("open", path, flags, ap);
	va_end(ap);
	return (fd);
}

int
open64(const char *path, int flags, ...)
{
	va_list	ap;
	int	fd;

	va_start(ap, flags);
	fd = notmp_open("open64", path, flags, ap);
	va_end(ap);
	return (fd);
}
