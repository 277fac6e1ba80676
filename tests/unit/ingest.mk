# tests/unit tests: the DOS maps and the shared analyses.
check_PROGRAMS += tests/unit/check_map tests/unit/check_analyze
TESTS += tests/unit/check_map tests/unit/check_analyze

tests_unit_check_analyze_SOURCES = tests/unit/check_analyze.c \
	tests/unit/testutil.h
tests_unit_check_analyze_CFLAGS = $(UNIT_CFLAGS) \
	-DTEST_BUILD_DATA='"$(abs_top_builddir)/tests/data"'
tests_unit_check_analyze_LDADD = $(UNIT_LDADD)

# check_map also parses a map NASM wrote, when nasm is there.
tests_unit_check_map_SOURCES = tests/unit/check_map.c tests/unit/testutil.h
tests_unit_check_map_CFLAGS = $(UNIT_CFLAGS) \
	-DTEST_BUILD_DATA='"$(abs_top_builddir)/tests/data"'
tests_unit_check_map_LDADD = $(UNIT_LDADD)

TEST_MAPS = tests/data/link.map tests/data/tlink.map \
	tests/data/ovrdemo.map tests/data/nasm_hand.map
dist_check_DATA += $(TEST_MAPS) tests/data/nasmgen.asm tests/data/attr.asm

if HAVE_NASM
tests_unit_check_map_CFLAGS += -DHAVE_NASM_MAP
EXTRA_tests_unit_check_map_DEPENDENCIES = tests/data/nasmgen.map
# The map's name is in the source; nasm writes it in its working folder.
tests/data/nasmgen.map: $(srcdir)/tests/data/nasmgen.asm
	$(AM_V_GEN)$(MKDIR_P) tests/data && cd tests/data && \
	    $(NASM) -f bin -o nasmgen.com $(abs_srcdir)/tests/data/nasmgen.asm
CLEANFILES += tests/data/nasmgen.map tests/data/nasmgen.com

# check_analyze's attribution tests read attr.asm's image, map and listing.
tests_unit_check_analyze_CFLAGS += -DHAVE_NASM_ATTR
EXTRA_tests_unit_check_analyze_DEPENDENCIES = tests/data/attr.com
tests/data/attr.com: $(srcdir)/tests/data/attr.asm
	$(AM_V_GEN)$(MKDIR_P) tests/data && cd tests/data && \
	    $(NASM) -f bin -o attr.com -l attr.lst \
	    $(abs_srcdir)/tests/data/attr.asm
CLEANFILES += tests/data/attr.com tests/data/attr.map tests/data/attr.lst
endif
