/*
 * Allocation that cannot fail quietly, and fatal() for the few errors that
 * cannot be recovered.  A registered hook (the browser's) runs first so the
 * terminal is restored before the message is printed.
 */
#ifndef XMALLOC_H
#define XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xcalloc_populated(size_t, size_t);
void	*xcalloc_big(size_t, size_t);
void	 xfree_big(void *);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list);
void	 fatal(const char *, ...) __attribute__((format(printf, 1, 2),
	    noreturn));
void	 fatal_hook(void (*)(void));

#endif
