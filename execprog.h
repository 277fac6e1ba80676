/*
 * The program a capture tool is asked to run: the file exec would run,
 * and whether the loader would preload an agent into it.  Each tool
 * words its own refusal.
 */
#ifndef EXECPROG_H
#define EXECPROG_H

#include <stddef.h>
#include <sys/stat.h>

/* Why the loader would not preload into a program (execprog_secure). */
#define EXECPROG_OK	0
#define EXECPROG_SETUID	1	/* set-user-ID to another user */
#define EXECPROG_SETGID	2	/* set-group-ID to another group */
#define EXECPROG_CAPS	3	/* file capabilities */

int	 execprog_find(const char *, char *, size_t);
int	 execprog_secure(const char *, struct stat *);

#endif
