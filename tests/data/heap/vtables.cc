// C++ objects with vtables (their class names are the blocks' types),
// multiple inheritance (a pointer to the second base is interior, and
// memcheck's heuristic keeps the object reachable), new[] of objects
// with destructors (a pointer 8 bytes in), aligned and nothrow new.
#include <cstdio>
#include <new>
#include "heaptest.h"

struct Shape {
	Shape	*next = nullptr;
	virtual ~Shape() {}
	virtual double area() const = 0;
};

struct Circle : Shape {
	double	r = 1;
	double area() const override { return 3.14159 * r * r; }
};

struct Square : Shape {
	double	s = 2;
	double area() const override { return s * s; }
};

namespace geo {
struct Polygon : Shape {
	int	sides = 5;
	double area() const override { return sides; }
};
}

template <class T> struct Box : Shape {
	T	v{};
	double area() const override { return 1; }
};

struct Named {
	virtual ~Named() {}
	virtual const char *name() const { return "named"; }
};

struct Both : Shape, Named {
	double area() const override { return 0; }
	const char *name() const override { return "both"; }
};

struct alignas(64) Wide {
	virtual ~Wide() {}
	char	bytes[64];
};

Shape		*shapes;	// a reachable list of every kind
Named		*named;		// the Named inside a Both: interior
Square		*squares;	// new Square[3]: 8 bytes in
Wide		*wide;

static __attribute__((noinline)) void
add(Shape *s)
{
	s->next = shapes;
	shapes = s;
}

static __attribute__((noinline)) void
leak()
{
	Shape *volatile lost;

	lost = static_cast<Shape *>(heaptest_use(new Circle));
	lost = static_cast<Shape *>(heaptest_use(new geo::Polygon));
	lost = static_cast<Shape *>(heaptest_use(new Circle[2]));
	lost = static_cast<Shape *>(heaptest_use(new (std::nothrow) Square));
	lost = static_cast<Shape *>(heaptest_use(new Box<long>));
	lost = nullptr;
	Wide *volatile w = static_cast<Wide *>(heaptest_use(new Wide));
	w = nullptr;
	(void)lost;
	(void)w;
}

int
main()
{
	add(new Circle);
	add(new Square);
	add(new geo::Polygon);
	add(new Box<int>);
	named = new Both;
	squares = new Square[3];
	wide = new Wide;
	Circle *c = new Circle;
	delete c;
	Square *s = new (std::nothrow) Square;
	delete s;
	leak();
	heaptest_scrub();
	std::printf("vtables: %g\n", shapes->area());
	return 0;
}
