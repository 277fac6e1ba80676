/* A list anchored by a global (reachable) and one leaked: the head is
 * definitely lost, the rest indirectly lost. */
#include <stdio.h>
#include "heaptest.h"

struct node {
	struct node	*next;
	long		 value;
};

struct node	*anchored;

static __attribute__((noinline)) struct node *
build(int n)
{
	struct node	*head = NULL, *x;
	int		 i;

	for (i = 0; i < n; i++) {
		x = malloc(sizeof *x);
		x->next = head;
		x->value = i;
		head = x;
	}
	return (head);
}

static __attribute__((noinline)) void
leak(void)
{
	struct node *volatile lost = build(10);

	lost = NULL;
	(void)lost;
}

int
main(void)
{
	anchored = build(20);
	leak();
	heaptest_scrub();
	printf("list: %ld\n", anchored->value);
	return (7);
}
