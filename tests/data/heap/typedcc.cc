/*
 * C++ blocks typed by typed pointers (no vtables here: non-virtual
 * classes, so only DWARF can name them): members, a base class's
 * members at its offset, a namespace's class and variable, an array of
 * pointers in a class, a derived object through a pointer to its base
 * (whose words past the base type nothing).  Prints "type ADDR NAME" for each block and
 * "trace PATH ADDR", the oracle of tests/e2e/heap-dwarf.sh.
 */
#include <cstdio>
#include <cstring>

#include "heaptest.h"

namespace geo {
struct Point {
	long	 x, y;
};
}

class Shape {
public:
	geo::Point	*origin;
	int		 id;
};

class Rect : public Shape {
public:
	geo::Point	*corner;
	Rect		*next;
};

struct Holder {
	Rect		*first;
	Shape		*shapes[3];
};

/* A derived object through a pointer to its base: not an array of it. */
struct Base {
	geo::Point	*p;
};

struct Derived : Base {
	long		 pad;
	char		*label;
};

Holder		*holder;
Base		*based;
namespace app {
Rect		*current;
}

static void
type(const void *p, const char *name)
{
	std::printf("type %#lx %s\n", (unsigned long)p, name);
}

static __attribute__((noinline)) geo::Point *
point(long x, long y)
{
	geo::Point	*p = new geo::Point;

	p->x = x;
	p->y = y;
	type(p, "geo::Point");
	return (p);
}

static __attribute__((noinline)) Rect *
rect(Rect *next)
{
	Rect	*r = new Rect;

	r->origin = point(0, 0);
	r->corner = point(1, 1);
	r->id = 1;
	r->next = next;
	type(r, "Rect");
	return (r);
}

static __attribute__((noinline)) Shape *
shape(void)
{
	Shape	*s = new Shape;

	s->origin = point(2, 2);
	s->id = 2;
	type(s, "Shape");
	return (s);
}

int
main()
{
	int	i;

	holder = new Holder;
	type(holder, "Holder");
	holder->first = rect(rect(nullptr));
	for (i = 0; i < 3; i++)
		holder->shapes[i] = shape();
	app::current = rect(nullptr);
	Derived *d = new Derived;
	d->p = point(3, 3);
	d->pad = 0;
	d->label = strdup("a label longer than a point");
	based = d;
	type(d, "Base");
	std::printf("untyped %#lx\n", (unsigned long)d->label);
	std::printf("trace typedcc:holder.first.next.corner %#lx\n",
	    (unsigned long)holder->first->next->corner);
	std::printf("trace typedcc:holder.first.origin %#lx\n",
	    (unsigned long)holder->first->origin);
	std::printf("trace typedcc:holder.shapes[2].origin %#lx\n",
	    (unsigned long)holder->shapes[2]->origin);
	std::printf("trace typedcc:app::current %#lx\n",
	    (unsigned long)app::current);
	std::fflush(stdout);
	heaptest_scrub();
	return (0);
}
