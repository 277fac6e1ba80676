// C++ variables as the programmer wrote them, whose symbols are not: a
// global whose type has a std::string carries an ABI tag
// (_Z8g_shapesB5cxx11; a pointer, as exit destroys a map held in place),
// a file's static is local (_ZL7current), a namespace's is nested
// (_ZN3app7currentE) and shares that static's last name, a function's
// static is that function's (_ZZ4mainE5cache), two namespaces' share a
// last name and nothing else (app::focus, ui::focus).  Its blocks:
// classes with vtables (a type), a struct a typed pointer reaches (a
// type from DWARF), and bytes through a void * (no type: only a site).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "heaptest.h"

struct Shape {
	virtual ~Shape() {}
	Shape	*next = nullptr;
};

struct Circle : Shape {
	double	r = 1;
};

namespace geo {
struct Square : Shape {
	double	s = 2;
};
}

struct Point {
	long	x, y;
};

std::map<std::string, Shape *>	*g_shapes;
static Shape			*current;
namespace app {
Shape				*current;
Shape				*focus;
}
namespace ui {
Shape				*focus;
}
Point				*g_point;
void				*g_raw;

static __attribute__((noinline, noclone)) void *
raw_bytes(size_t n)
{
	return (heaptest_use(std::malloc(n)));
}

int
main()
{
	static Shape	*cache;

	g_shapes = new std::map<std::string, Shape *>;
	(*g_shapes)["a circle whose name is too long to fit in place"] =
	    new Circle;
	(*g_shapes)["a square whose name is too long to fit in place"] =
	    new geo::Square;
	current = new Circle;
	app::current = new geo::Square;
	cache = new Circle;
	app::focus = ui::focus = new Circle;
	g_point = new Point{ 1, 2 };
	g_raw = raw_bytes(40);
	heaptest_use(cache);
	heaptest_use(current);
	heaptest_scrub();
	std::printf("names: %zu shapes\n", g_shapes->size());
	return (0);
}
