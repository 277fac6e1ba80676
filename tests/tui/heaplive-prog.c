/*
 * A program whose heap changes on cue, for tests/tui/heaplive.sh: it runs
 * under pvheap --socket, and the test takes snapshots between its phases.
 * Phase k starts when the file DIR/go.k appears and ends by writing
 * DIR/ready.k:
 *
 *   1  100 nodes of make_a (48 bytes), a list from a_head
 *   2  60 nodes of make_b (80 bytes), a list from b_head; the even ones
 *      of make_a's (by allocation order) freed
 *   3  30 nodes of make_c (112 bytes) from c_head; make_b's first 10 freed
 *   4  exit
 *
 * Phase 1 starts at once.  Every node stays reachable from a global, so
 * the snapshots' states do not change under the test.  A second argument
 * N scales the phases (N nodes of make_a, 0.6 N, 0.3 N, N / 10 freed):
 * bench/heaplive runs it with a million.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct node {
	struct node	*next;
	char		 pad[1];
};

struct node	*a_head, *b_head, *c_head;
static const char *dir;
static int	 scale = 100;

/* Append n nodes of size bytes to the list at *head. */
#define GROW(head, size, n) do {					\
	struct node	**tail = (head);				\
	int		  i_;						\
									\
	while (*tail != NULL)						\
		tail = &(*tail)->next;					\
	for (i_ = 0; i_ < (n); i_++) {					\
		if ((*tail = calloc(1, (size))) == NULL)		\
			exit(1);					\
		tail = &(*tail)->next;					\
	}								\
} while (0)

/* One allocation site (so one type) each. */
static void __attribute__((noinline))
make_a(int n)
{
	GROW(&a_head, 48, n);
}

static void __attribute__((noinline))
make_b(int n)
{
	GROW(&b_head, 80, n);
}

static void __attribute__((noinline))
make_c(int n)
{
	GROW(&c_head, 112, n);
}

/* Free the nodes at positions that keep() refuses. */
static void
thin(struct node **head, int (*keep)(int))
{
	struct node	**p = head, *n;
	int		  i = 0;

	while ((n = *p) != NULL) {
		if (!keep(i++)) {
			*p = n->next;
			free(n);
		} else
			p = &n->next;
	}
}

static int
odd(int i)
{
	return (i % 2 == 1);
}

static int
after_tenth(int i)
{
	return (i >= scale / 10);
}

static void
cue(const char *what, int k)
{
	char			 path[4096];
	struct timespec		 ts = { 0, 10 * 1000 * 1000 };
	FILE			*f;

	snprintf(path, sizeof path, "%s/%s.%d", dir, what, k);
	if (strcmp(what, "ready") == 0) {
		if ((f = fopen(path, "w")) == NULL)
			exit(1);
		fprintf(f, "%d\n", k);
		fclose(f);
		return;
	}
	while (access(path, F_OK) != 0)
		nanosleep(&ts, NULL);
}

int
main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: heaplive-prog DIR [N]\n");
		return (2);
	}
	dir = argv[1];
	if (argc == 3 && (scale = atoi(argv[2])) < 10)
		return (2);
	make_a(scale);
	cue("ready", 1);
	cue("go", 2);
	make_b(scale * 6 / 10);
	thin(&a_head, odd);
	cue("ready", 2);
	cue("go", 3);
	make_c(scale * 3 / 10);
	thin(&b_head, after_tenth);
	cue("ready", 3);
	cue("go", 4);
	return (0);
}
