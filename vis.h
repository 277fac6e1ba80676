/*
 * vis: text made safe for a terminal, as vis(3) does.  Names come from
 * hostile files and file names from anywhere: no byte of them may move
 * the cursor, retitle a window or turn the text around.
 */
#ifndef VIS_H
#define VIS_H

#include <stddef.h>
#include <stdio.h>

int	 vis_utf8(const unsigned char *, size_t, size_t *);
int	 vis_unsafe(int);
int	 vis_needed(const char *, size_t);
char	*vis_str(const char *, size_t);
char	*vis(const char *);
int	 vis_fputs(const char *, FILE *);

#endif
