/*
 * Replay a fuzz corpus without libFuzzer: feed every file of the corpus
 * folders (arguments, else $top_srcdir/tests/fuzz/corpus/FUZZ_CORPUS) to
 * LLVMFuzzerTestOneInput and print one TAP point per file.  A crash ends
 * the run, which the TAP driver reports.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

static char	**files;
static size_t	  nfiles;

static void
replay_add(const char *path)
{
	struct stat	  sb;
	struct dirent	**ents;
	char		 *sub;
	int		  n, i;

	if (stat(path, &sb) != 0) {
		fprintf(stderr, "replay: %s: cannot stat\n", path);
		exit(1);
	}
	if (!S_ISDIR(sb.st_mode)) {
		files = realloc(files, (nfiles + 1) * sizeof *files);
		if (files == NULL || (files[nfiles] = strdup(path)) == NULL)
			exit(1);
		nfiles++;
		return;
	}
	if ((n = scandir(path, &ents, NULL, alphasort)) < 0)
		exit(1);
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && asprintf(&sub, "%s/%s", path,
		    ents[i]->d_name) != -1) {
			replay_add(sub);
			free(sub);
		}
		free(ents[i]);
	}
	free(ents);
}

static unsigned char *
replay_read(const char *path, size_t *len)
{
	FILE		*f;
	unsigned char	*buf = NULL;
	size_t		 cap = 0, n;

	*len = 0;
	if ((f = fopen(path, "rb")) == NULL)
		return (NULL);
	for (;;) {
		if (*len == cap) {
			cap = cap != 0 ? cap * 2 : 4096;
			if ((buf = realloc(buf, cap)) == NULL)
				exit(1);
		}
		if ((n = fread(buf + *len, 1, cap - *len, f)) == 0)
			break;
		*len += n;
	}
	fclose(f);
	return (buf);
}

int
main(int argc, char **argv)
{
	const char	*top;
	char		*dir;
	unsigned char	*buf, *exact;
	size_t		 i, len;
	int		 k, failed = 0;

	if (argc > 1) {
		for (k = 1; k < argc; k++)
			replay_add(argv[k]);
	} else {
		if ((top = getenv("top_srcdir")) == NULL)
			top = ".";
		if (asprintf(&dir, "%s/tests/fuzz/corpus/%s", top,
		    FUZZ_CORPUS) == -1)
			return (1);
		replay_add(dir);
		free(dir);
	}
	printf("1..%zu\n", nfiles);
	for (i = 0; i < nfiles; i++) {
		if ((buf = replay_read(files[i], &len)) == NULL) {
			printf("not ok %zu - %s: cannot read\n", i + 1,
			    files[i]);
			failed = 1;
			continue;
		}
		/* Exactly len bytes, as libFuzzer gives them. */
		if ((exact = malloc(len != 0 ? len : 1)) == NULL)
			return (1);
		memcpy(exact, buf, len);
		free(buf);
		fflush(stdout);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
		printf("ok %zu - %s\n", i + 1, files[i]);
		free(files[i]);
	}
	free(files);
	return (failed);
}
