// pvtrace truth test: C++ exceptions thrown through several frames,
// caught, rethrown, and destructors that call traced functions while
// the stack unwinds.
#include <cstdio>
#include <stdexcept>

static volatile int sink;

__attribute__((noinline)) void note(int x) { sink += x; }

struct Guard {
	int v;
	explicit Guard(int x) : v(x) {}
	~Guard() { note(v); }
};

__attribute__((noinline)) void thrower(int n)
{
	Guard g(n);
	if (n == 0)
		throw std::runtime_error("bottom");
	thrower(n - 1);
	note(-1);	// never: keeps the call from being a tail call
}

__attribute__((noinline)) int middle(int n)
{
	try {
		thrower(n);
	} catch (const std::runtime_error &) {
		note(1000);
		throw;
	}
	return 0;
}

__attribute__((noinline)) int top(int n)
{
	try {
		return middle(n);
	} catch (const std::exception &) {
		return 1;
	}
}

int main()
{
	int s = 0;

	for (int i = 0; i < 30; i++)
		s += top(10 + i % 5);
	std::printf("%d %d\n", s, sink);
	return 0;
}
