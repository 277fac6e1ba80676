# pvheap end to end: the heap test programs (tests/data/heap) run under
# pvheap and under valgrind memcheck, whose leak summary is the oracle.
check_PROGRAMS += tests/e2e/heapsum
tests_e2e_heapsum_SOURCES = tests/e2e/heapsum.c
tests_e2e_heapsum_LDADD = $(CORE_LIBS)

# The test programs: built for make check, never with the sanitizers
# (they run under valgrind and under the agent).
HEAPTEST_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -g -pthread
HEAPTEST_CXXFLAGS = $(WARN_CFLAGS) -g
# Bound at load: lazy binding's frames leave loader pointers on the stack
# on whichever path first calls a function, and the scans would differ.
HEAPTEST_LINK = -pthread -Wl,-z,now
HEAPTEST_PROGS = tests/data/heap/list tests/data/heap/tree \
	tests/data/heap/cycles tests/data/heap/interior \
	tests/data/heap/realloc tests/data/heap/aligned \
	tests/data/heap/threads tests/data/heap/fork tests/data/heap/exits \
	tests/data/heap/vtables tests/data/heap/sqlite \
	tests/data/heap/dlopen tests/data/heap/plugin.so \
	tests/data/heap/typed tests/data/heap/typedcc tests/data/heap/names \
	tests/data/heap/notmpfile.so tests/data/heap/static \
	tests/data/heap/phases
check_PROGRAMS += $(HEAPTEST_PROGS)
EXTRA_DIST += tests/data/heap/heaptest.h
tests_data_heap_list_SOURCES = tests/data/heap/list.c
tests_data_heap_list_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_list_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_tree_SOURCES = tests/data/heap/tree.c
tests_data_heap_tree_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_tree_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_cycles_SOURCES = tests/data/heap/cycles.c
tests_data_heap_cycles_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_cycles_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_interior_SOURCES = tests/data/heap/interior.c
tests_data_heap_interior_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_interior_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_realloc_SOURCES = tests/data/heap/realloc.c
tests_data_heap_realloc_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_realloc_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_aligned_SOURCES = tests/data/heap/aligned.c
tests_data_heap_aligned_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_aligned_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_threads_SOURCES = tests/data/heap/threads.c
tests_data_heap_threads_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_threads_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_fork_SOURCES = tests/data/heap/fork.c
tests_data_heap_fork_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_fork_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_phases_SOURCES = tests/data/heap/phases.c
tests_data_heap_phases_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_phases_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_exits_SOURCES = tests/data/heap/exits.c
tests_data_heap_exits_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_exits_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_vtables_SOURCES = tests/data/heap/vtables.cc
tests_data_heap_vtables_CXXFLAGS = $(HEAPTEST_CXXFLAGS)
tests_data_heap_vtables_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_names_SOURCES = tests/data/heap/names.cc
tests_data_heap_names_CXXFLAGS = $(HEAPTEST_CXXFLAGS)
tests_data_heap_names_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_typed_SOURCES = tests/data/heap/typed.c
tests_data_heap_typed_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_typed_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_typedcc_SOURCES = tests/data/heap/typedcc.cc
tests_data_heap_typedcc_CXXFLAGS = $(HEAPTEST_CXXFLAGS)
tests_data_heap_typedcc_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_dlopen_SOURCES = tests/data/heap/dlopen.c
tests_data_heap_dlopen_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_dlopen_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_dlopen_LDADD = -ldl
# A module for dlopen: a "program" linked with -shared, like the agent.
tests_data_heap_plugin_so_SOURCES = tests/data/heap/plugin.c
tests_data_heap_plugin_so_CFLAGS = $(HEAPTEST_CFLAGS) -fPIC
tests_data_heap_plugin_so_LDFLAGS = -shared
# Static: no dynamic loader, so nothing is preloaded (heap-refuse.sh).
tests_data_heap_static_SOURCES = tests/data/heap/list.c
tests_data_heap_static_CFLAGS = $(HEAPTEST_CFLAGS)
tests_data_heap_static_LDFLAGS = -static
# Preloaded after the agent: a file system without O_TMPFILE.
tests_data_heap_notmpfile_so_SOURCES = tests/data/heap/notmpfile.c
tests_data_heap_notmpfile_so_CFLAGS = $(HEAPTEST_CFLAGS) -fPIC
tests_data_heap_notmpfile_so_LDFLAGS = -shared
tests_data_heap_notmpfile_so_LDADD = -ldl

tests_data_heap_sqlite_SOURCES = tests/data/heap/sqlite.c
tests_data_heap_sqlite_CFLAGS = $(HEAPTEST_CFLAGS) $(SQLITE_CFLAGS)
tests_data_heap_sqlite_LDFLAGS = $(HEAPTEST_LINK)
tests_data_heap_sqlite_LDADD = $(SQLITE_LIBS)

HEAP_E2E = tests/e2e/heap-memcheck.sh tests/e2e/heap-signal.sh \
	tests/e2e/heap-fork.sh tests/e2e/heap-exits.sh tests/e2e/heap-cxx.sh \
	tests/e2e/heap-sqlite.sh tests/e2e/heap-ingest.sh tests/e2e/heap-cli.sh \
	tests/e2e/heap-live.sh tests/e2e/heap-export.sh tests/e2e/heap-dwarf.sh \
	tests/e2e/heap-files.sh tests/e2e/heap-trigger.sh \
	tests/e2e/heap-refuse.sh tests/e2e/heap-names.sh tests/e2e/heap-leaks.sh \
	tests/e2e/heap-diff.sh tests/e2e/heap-v1.sh tests/e2e/heap-store5.sh \
	tests/e2e/heap-store7.sh tests/e2e/heap-store8.sh
TESTS += $(HEAP_E2E)
EXTRA_DIST += $(HEAP_E2E) tests/e2e/heap.sh tests/e2e/heap-lossrec.py \
	tests/data/heap-list-v1.heap
HEAP_E2E_LOGS = $(HEAP_E2E:=.log)
$(HEAP_E2E_LOGS): $(HEAPTEST_PROGS) tests/e2e/heapsum$(EXEEXT) \
	capture/pvheap/pvheap$(EXEEXT) capture/pvheap/libpvheap.so profview$(EXEEXT)
