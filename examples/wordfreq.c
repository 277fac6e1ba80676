/*
 * wordfreq: the C program of profview's demo.  It makes a text of
 * made-up words (the same text every run: its own random numbers from a
 * fixed seed), counts the words in a hash table, sorts them by count,
 * and prints the commonest with the word nearest to each in spelling.
 * Its heap snapshot (pvheap), call profile (pvtrace) and Dos32Profile
 * dump (pvprf record) are examples/wordfreq.heap, .mon and .prfd, which
 * "make examples" remakes (examples/c-examples.sh).
 *
 * It leaks on purpose, for the heap map to find: prune() unlinks the
 * words seen only once without freeing them (each struct word is
 * definitely lost, its text indirectly), and report() drops each line it
 * formats.  The table itself stays reachable from a global to the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WF_WORDS	2000000	/* words in the text */
#define WF_BUCKETS	1024
#define WF_TOP		12	/* words reported */

struct word {
	char		*text;
	unsigned	 count;
	struct word	*next;
};

struct table {
	struct word	*bucket[WF_BUCKETS];
	size_t		 n;
};

/* Reachable until the end: live blocks, not leaks. */
static struct table	*words;

static unsigned long	 wf_seed = 19;

static const char	*wf_syllables[] = {
	"ka", "lo", "mi", "ne", "su", "ta", "ri"
};
#define WF_NSYLLABLES (sizeof wf_syllables / sizeof wf_syllables[0])

static unsigned
wf_random(void)
{
	wf_seed = wf_seed * 6364136223846793005UL + 1442695040888963407UL;
	return ((unsigned)(wf_seed >> 33));
}

static void *
wf_alloc(size_t size)
{
	void	*p;

	if ((p = malloc(size)) == NULL) {
		fprintf(stderr, "wordfreq: out of memory\n");
		exit(1);
	}
	return (p);
}

/*
 * The next word of the text into buf: one to three syllables, short
 * ones likelier; one word in 5000 is a name with a number, seen
 * once (the words prune() leaks).
 */
static void
make_word(char *buf, size_t size)
{
	unsigned	 n, i;

	if (wf_random() % 5000 == 0) {
		snprintf(buf, size, "name%u", wf_random() % 1000000);
		return;
	}
	n = 1 + (wf_random() % 6) / 3 + (wf_random() % 6) / 5;
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		strcat(buf, wf_syllables[wf_random() % WF_NSYLLABLES]);
}

static unsigned
hash(const char *s)
{
	unsigned	h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return (h);
}

static struct word *
lookup(struct table *t, const char *text)
{
	struct word	**b, *w;

	b = &t->bucket[hash(text) % WF_BUCKETS];
	for (w = *b; w != NULL; w = w->next) {
		if (strcmp(w->text, text) == 0)
			return (w);
	}
	w = wf_alloc(sizeof *w);
	w->text = strdup(text);
	w->count = 0;
	w->next = *b;
	*b = w;
	t->n++;
	return (w);
}

static void
count_words(struct table *t)
{
	char	buf[32];
	int	i;

	for (i = 0; i < WF_WORDS; i++) {
		make_word(buf, sizeof buf);
		lookup(t, buf)->count++;
	}
}

/* Drop the words seen once from the table: the leak, on purpose. */
static size_t
prune(struct table *t)
{
	struct word	**p;
	size_t		  i, n = 0;

	for (i = 0; i < WF_BUCKETS; i++) {
		p = &t->bucket[i];
		while (*p != NULL) {
			if ((*p)->count == 1) {
				*p = (*p)->next;	/* never freed */
				t->n--;
				n++;
			} else
				p = &(*p)->next;
		}
	}
	return (n);
}

static int
by_count(const void *a, const void *b)
{
	const struct word	*x = *(struct word * const *)a;
	const struct word	*y = *(struct word * const *)b;

	if (x->count != y->count)
		return (x->count < y->count ? 1 : -1);
	return (strcmp(x->text, y->text));
}

static struct word **
sort_words(struct table *t)
{
	struct word	**v, *w;
	size_t		  i, n = 0;

	v = wf_alloc(t->n * sizeof *v);
	for (i = 0; i < WF_BUCKETS; i++) {
		for (w = t->bucket[i]; w != NULL; w = w->next)
			v[n++] = w;
	}
	qsort(v, n, sizeof *v, by_count);
	return (v);
}

/* Levenshtein's distance, the plain way: the CPU time of the report. */
static unsigned
distance(const char *a, const char *b)
{
	unsigned	 row[32], diag, up, i, j, la, lb;

	la = strlen(a);
	lb = strlen(b);
	if (la >= 32 || lb >= 32)
		return (la > lb ? la : lb);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return (row[lb]);
}

static const struct word *
nearest(struct word **v, size_t n, size_t self)
{
	const struct word	*best = NULL;
	unsigned		 d, bestd = ~0u;
	size_t			 i, round;

	/* Three hundred rounds: one is too quick for a sampler to see. */
	for (round = 0; round < 300; round++) {
		for (i = 0; i < n; i++) {
			if (i == self)
				continue;
			d = distance(v[self]->text, v[i]->text);
			if (d < bestd) {
				bestd = d;
				best = v[i];
			}
		}
	}
	return (best);
}

static void
report(struct word **v, size_t n)
{
	const struct word	*near;
	char			*line;
	size_t			 i;

	for (i = 0; i < n && i < WF_TOP; i++) {
		near = nearest(v, n, i);
		line = wf_alloc(80);	/* never freed: a small leak */
		snprintf(line, 80, "%8u %-8s (nearest: %s)", v[i]->count,
		    v[i]->text, near != NULL ? near->text : "-");
		puts(line);
	}
}

int
main(void)
{
	struct word	**v;
	size_t		  lost;

	words = wf_alloc(sizeof *words);
	memset(words, 0, sizeof *words);
	count_words(words);
	lost = prune(words);
	v = sort_words(words);
	report(v, words->n);
	printf("%zu distinct words, %zu seen once and leaked\n", words->n,
	    lost);
	free(v);
	return (0);
}
