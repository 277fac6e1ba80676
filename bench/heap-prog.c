/*
 * The heap of bench/heap-shape.h, built for real and left at exit, so
 * that valgrind --leak-check=full has the same graph to search as
 * bench/heapgraph.  Blocks are allocated first, then linked, so an
 * address order exists and every slot points where the shape says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap-shape.h"

void	*anchors[HS_ROOTS];

int
main(void)
{
	char		**blk;
	uint32_t	  i, j, t;
	int		  in;

	blk = malloc(HS_BLOCKS * sizeof *blk);
	if (blk == NULL)
		return (1);
	for (i = 0; i < HS_BLOCKS; i++) {
		if ((blk[i] = calloc(1, HS_SIZE)) == NULL)
			return (1);
	}
	for (i = 0; i < HS_BLOCKS; i++) {
		for (j = 0; j < HS_SLOTS; j++) {
			if ((t = hs_slot(i, j, &in)) != UINT32_MAX)
				((char **)blk[i])[j] = blk[t] + (in ? 8 : 0);
		}
	}
	for (i = 0; i < HS_ROOTS; i++)
		anchors[i] = blk[hs_anchor(i)];
	/* The index goes: only the slots and the anchors hold pointers. */
	explicit_bzero(blk, HS_BLOCKS * sizeof *blk);
	free(blk);
	printf("%u blocks\n", HS_BLOCKS);
	return (0);
}
