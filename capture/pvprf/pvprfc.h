/*
 * pvprf's own interface between the command (pvprf.c) and the dump file
 * (dumpfile.c).
 */
#ifndef PVPRFC_H
#define PVPRFC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One record: a PRFRET request and the bytes it returned. */
struct drec {
	uint8_t			 cmd;
	uint16_t		 thrdno;
	uint64_t		 vaddr;
	uint64_t		 bufsz;
	const unsigned char	*buf;
	size_t			 off;		/* of the record in the file */
};

struct dfile {
	const char	*name;
	unsigned char	*data;
	size_t		 len;
	int		 width;
	uint32_t	 pid;
	uint16_t	 timval;
	struct drec	*recs;
	size_t		 nrecs;
};

int	dfile_header(FILE *, int, uint32_t, uint16_t);
int	dfile_record(FILE *, int, uint8_t, uint16_t, uint64_t,
	    const void *, uint64_t);
int	dfile_read(const char *, struct dfile *, char **);
void	dfile_free(struct dfile *);
int	dfile_print(struct dfile *, FILE *, char **);

#endif
