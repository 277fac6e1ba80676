/* Trees: one kept by a static, one leaked whole (its root definitely,
 * the other 30 nodes indirectly lost), and a kept tree whose detached
 * subtree leaks. */
#include <stdio.h>
#include "heaptest.h"

struct tree {
	struct tree	*left, *right;
	int		 key;
};

static struct tree	*kept, *pruned;

static __attribute__((noinline)) struct tree *
grow(int depth, int key)
{
	struct tree	*t;

	if (depth == 0)
		return (NULL);
	t = calloc(1, sizeof *t);
	t->key = key;
	t->left = grow(depth - 1, 2 * key);
	t->right = grow(depth - 1, 2 * key + 1);
	return (t);
}

static __attribute__((noinline)) void
leak(void)
{
	struct tree *volatile t = grow(5, 1);

	t = NULL;
	(void)t;
	pruned = grow(4, 1);
	/* The left subtree (7 nodes) is cut off without being freed. */
	pruned->left = heaptest_hide(NULL);
}

int
main(void)
{
	kept = grow(6, 1);
	leak();
	heaptest_scrub();
	printf("tree: %d %d\n", kept->key, pruned->key);
	return (0);
}
