# PROFIL.COM and the DOS workloads the end-to-end tests and bench/dos run
# under DOSBox, assembled with NASM (flat binaries: -f bin), each with a
# map and a listing (the tests find instruction starts in the listing).
DOS_WORK_SRC = capture/profil/work/macros.inc capture/profil/work/common.inc \
	capture/profil/work/w3.asm capture/profil/work/w10.asm \
	capture/profil/work/share.asm \
	capture/profil/work/exits.asm capture/profil/work/abort24.asm \
	capture/profil/work/vecchk.asm capture/profil/work/eatmem.asm
EXTRA_DIST += capture/profil/profil.asm $(DOS_WORK_SRC)
dist_man_MANS += man/profil.1

# Everything the DOS tests need; tests/e2e/local.mk depends on it.
DOS_WORK = capture/profil/work/W3.COM capture/profil/work/W10.EXE \
	capture/profil/work/SHARE.COM capture/profil/work/EXITS.COM \
	capture/profil/work/ABORT24.COM capture/profil/work/VECCHK.COM \
	capture/profil/work/EATMEM.COM
DOS_BUILT = capture/profil/PROFIL.COM $(DOS_WORK)

if HAVE_NASM
# Installed beside the data, for copying onto a DOS disk or DOSBox drive.
dosdir = $(pkgdatadir)/dos
dos_DATA = capture/profil/PROFIL.COM
endif
CLEANFILES += $(DOS_BUILT) $(DOS_WORK:.COM=.MAP) $(DOS_WORK:.COM=.LST) \
	capture/profil/work/W10.MAP capture/profil/work/W10.LST

DOS_NASM = $(NASM) -f bin -I$(srcdir)/capture/profil/work/
DOS_WORK_ASM = $(AM_V_GEN)$(MKDIR_P) capture/profil/work && $(DOS_NASM) \
	-DMAPFILE=$(@:.COM=.MAP) -l $(@:.COM=.LST) -o $@

capture/profil/PROFIL.COM: capture/profil/profil.asm
	$(AM_V_GEN)$(MKDIR_P) capture/profil && $(DOS_NASM) -o $@ \
	    $(srcdir)/capture/profil/profil.asm
capture/profil/work/W3.COM: capture/profil/work/w3.asm $(DOS_WORK_SRC)
	$(DOS_WORK_ASM) $(srcdir)/capture/profil/work/w3.asm
capture/profil/work/SHARE.COM: capture/profil/work/share.asm $(DOS_WORK_SRC)
	$(DOS_WORK_ASM) $(srcdir)/capture/profil/work/share.asm
capture/profil/work/W10.EXE: capture/profil/work/w10.asm $(DOS_WORK_SRC)
	$(AM_V_GEN)$(MKDIR_P) capture/profil/work && $(DOS_NASM) \
	    -DMAPFILE=capture/profil/work/W10.MAP \
	    -l capture/profil/work/W10.LST -o $@ \
	    $(srcdir)/capture/profil/work/w10.asm
capture/profil/work/EXITS.COM: capture/profil/work/exits.asm $(DOS_WORK_SRC)
	$(DOS_WORK_ASM) $(srcdir)/capture/profil/work/exits.asm
capture/profil/work/ABORT24.COM: capture/profil/work/abort24.asm
	$(DOS_WORK_ASM) $(srcdir)/capture/profil/work/abort24.asm
capture/profil/work/VECCHK.COM: capture/profil/work/vecchk.asm
	$(DOS_WORK_ASM) $(srcdir)/capture/profil/work/vecchk.asm
capture/profil/work/EATMEM.COM: capture/profil/work/eatmem.asm
	$(DOS_WORK_ASM) $(srcdir)/capture/profil/work/eatmem.asm
