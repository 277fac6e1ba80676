/*
 * Fuzz inputs as files on disk (files.c), for the harnesses that go the
 * whole ingest path: an input is a flags byte, a 16-bit little-endian map
 * length, the map's bytes, then the data file's bytes.
 */
#ifndef FUZZ_FILES_H
#define FUZZ_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/ingest.h"

#define FUZZ_OVD	0x01	/* NAME.OVD, else NAME.PRF */
#define FUZZ_MAP	0x02	/* there is a map */
#define FUZZ_GIVEN	0x04	/* named with --map, else found beside */
#define FUZZ_LOWER	0x08	/* name.map, else NAME.MAP */
#define FUZZ_LOAD	0x30	/* --load: 1 com, 2 exe, else auto */
#define FUZZ_AGAIN	0x40	/* ingest again with other options */

struct fuzz_files {
	int		 flags;
	char		 data[80];	/* the data file's path */
	char		 map[80];	/* the map's, or "" */
	struct ingest_opts opts;
};

struct kind;
struct store;

struct store	*fuzz_store(void);
int		 fuzz_files_write(struct fuzz_files *, const uint8_t *, size_t);
int		 fuzz_files_ingest(struct fuzz_files *, const uint8_t *, size_t,
		     int64_t *, const struct kind **);

#endif
