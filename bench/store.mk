# bench/store-big: a store of 50 overlay sessions (18M events) and one
# small PRF: listing, opening, quitting and deleting must not depend on
# what else the store holds.  The store is made once, in bench/big-data.
EXTRA_DIST += bench/store-big
bench: bench-store-big
bench-store-big: profview
	top_builddir=. PROFVIEW='$(abs_top_builddir)/profview' \
	    $(SHELL) $(srcdir)/bench/store-big
.PHONY: bench-store-big
