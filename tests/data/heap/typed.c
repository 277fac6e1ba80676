/*
 * Blocks typed by the typed pointers that reach them (pvheap, DWARF at
 * ingest): a list, a tree, an array of pointers, a typedef'd anonymous
 * struct, nested structs behind a const volatile pointer, a dynamic
 * array of pointers, a block that is an array of structs, and blocks
 * only void *, char * and a union point to, which stay untyped, and a
 * node a struct inner * points to further from the roots than head.  The
 * program prints what the source says of each block ("type ADDR NAME",
 * "untyped ADDR") and where paths lead ("trace PATH ADDR"), the oracle
 * of tests/e2e/heap-dwarf.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "heaptest.h"

struct node {
	int		 value;
	struct node	*next;
};

struct payload {
	double		 x, y;
	char		*label;
	struct node	*owner;
};

struct tree {
	struct tree	*left, *right;
	long		 key;
	struct payload	*data;
};

typedef struct {
	int		 n;
	struct node	*items[4];
} bucket_t;

struct inner {
	long		 pad;
	struct node	*first;
};

struct outer {
	long		 tag;
	struct inner	 in;
	struct tree	*root;
};

/* Its pointer disagrees with head's about the first node (a conflict). */
struct holder {
	struct inner	*p;
};

union either {
	struct node	*n;
	long		 v;
};

struct node		*head;
struct tree		*root;
struct node		*table[16];
bucket_t		*bucket;
const struct outer *volatile outerp;
struct node		**vec;
struct payload		*payloads;
void			*opaque;
char			*text;
union either		 un;
struct holder		*hold;

static void
type(const void *p, const char *name)
{
	printf("type %#lx %s\n", (unsigned long)p, name);
}

static __attribute__((noinline)) struct node *
new_node(int v, struct node *next)
{
	struct node	*n = malloc(sizeof *n);

	n->value = v;
	n->next = next;
	type(n, "struct node");
	return (n);
}

static __attribute__((noinline)) struct payload *
new_payloads(int n)
{
	struct payload	*p = calloc((size_t)n, sizeof *p);

	type(p, "struct payload");
	return (p);
}

static __attribute__((noinline)) struct tree *
new_tree(int depth, long key)
{
	struct tree	*t;

	if (depth == 0)
		return (NULL);
	t = malloc(sizeof *t);
	t->key = key;
	t->left = new_tree(depth - 1, key * 2);
	t->right = new_tree(depth - 1, key * 2 + 1);
	t->data = new_payloads(1);
	t->data->label = strdup("leaf");
	printf("untyped %#lx\n", (unsigned long)t->data->label);
	t->data->owner = NULL;
	type(t, "struct tree");
	return (t);
}

static __attribute__((noinline)) bucket_t *
new_bucket(void)
{
	bucket_t	*b = calloc(1, sizeof *b);
	int		 i;

	b->n = 4;
	for (i = 0; i < 4; i++)
		b->items[i] = new_node(100 + i, NULL);
	type(b, "bucket_t");
	return (b);
}

static __attribute__((noinline)) struct outer *
new_outer(void)
{
	struct outer	*o = calloc(1, sizeof *o);

	o->in.first = new_node(200, new_node(201, NULL));
	o->root = new_tree(1, 7);
	type(o, "struct outer");
	return (o);
}

static __attribute__((noinline)) struct node **
new_vec(int n)
{
	struct node	**v = calloc((size_t)n, sizeof *v);
	int		 i;

	for (i = 0; i < n; i++)
		v[i] = new_node(300 + i, NULL);
	type(v, "struct node *");
	return (v);
}

static __attribute__((noinline)) void *
new_untyped(size_t n)
{
	void	*p = calloc(1, n);

	printf("untyped %#lx\n", (unsigned long)p);
	return (p);
}

int
main(void)
{
	int	i;

	for (i = 0; i < 5; i++)
		head = new_node(i, head);
	root = new_tree(3, 1);
	for (i = 0; i < 16; i += 3)
		table[i] = new_node(50 + i, NULL);
	bucket = new_bucket();
	outerp = new_outer();
	vec = new_vec(3);
	/* An array of three: the third's owner is typed by offset modulo. */
	payloads = new_payloads(3);
	payloads[2].owner = new_node(400, NULL);
	opaque = new_untyped(40);
	text = new_untyped(16);
	un.n = new_untyped(sizeof(struct node));
	/* Two hops from a root: head's one hop wins, the node stays one. */
	hold = malloc(sizeof *hold);
	type(hold, "struct holder");
	hold->p = (struct inner *)(void *)head;
	printf("trace typed:head %#lx\n", (unsigned long)head);
	printf("trace typed:head.next.next %#lx\n",
	    (unsigned long)head->next->next);
	printf("trace typed:root.left.right.data %#lx\n",
	    (unsigned long)root->left->right->data);
	printf("trace typed:table[3] %#lx\n", (unsigned long)table[3]);
	printf("trace typed:bucket.items[2] %#lx\n",
	    (unsigned long)bucket->items[2]);
	printf("trace typed:outerp.in.first.next %#lx\n",
	    (unsigned long)outerp->in.first->next);
	printf("trace typed:vec[1] %#lx\n", (unsigned long)vec[1]);
	printf("trace typed:payloads[2].owner %#lx\n",
	    (unsigned long)payloads[2].owner);
	fflush(stdout);
	heaptest_scrub();
	return (0);
}
