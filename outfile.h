/*
 * Output files the capture tools write beside other users: a file that
 * appears whole or not at all, created 0600 under a name nobody can
 * predict or plant (no symlink is ever followed to write it), and a FIFO
 * or device named as the output is written in place, never replaced.
 * The descriptor calls allocate nothing: the heap agent uses them inside
 * the program it profiles.  Every call but outfile_open ends the file:
 * close it and put it in place, or give it up.
 */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <limits.h>
#include <stdio.h>

struct outfile {
	int	 fd;		/* what outfile_open returned */
	int	 direct;	/* the target itself (not a regular file) */
	int	 anon;		/* O_TMPFILE: no name until committed */
	char	 tmp[PATH_MAX];	/* the temporary name, if it has one */
	char	 path[PATH_MAX];
};

int	 outfile_open(struct outfile *, const char *);
int	 outfile_close(struct outfile *);
void	 outfile_abort(struct outfile *);
FILE	*outfile_fopen(struct outfile *, const char *, const char *);
int	 outfile_fclose(struct outfile *, FILE *);
void	 outfile_fabort(struct outfile *, FILE *);

#endif
