# PROFIL.COM and the DOS workloads the end-to-end tests and bench/dos run
# under DOSBox, assembled with NASM (flat binaries: -f bin), each with a
# map and a listing (the tests find instruction starts in the listing).
DOS_WORK_SRC = capture/dos/work/macros.inc capture/dos/work/common.inc \
	capture/dos/work/w3.asm capture/dos/work/w10.asm \
	capture/dos/work/share.asm \
	capture/dos/work/exits.asm capture/dos/work/abort24.asm \
	capture/dos/work/vecchk.asm capture/dos/work/eatmem.asm
EXTRA_DIST += capture/dos/profil.asm $(DOS_WORK_SRC)
dist_man_MANS += man/profil.1

# Everything the DOS tests need; tests/e2e/local.mk depends on it.
DOS_WORK = capture/dos/work/W3.COM capture/dos/work/W10.EXE \
	capture/dos/work/SHARE.COM capture/dos/work/EXITS.COM \
	capture/dos/work/ABORT24.COM capture/dos/work/VECCHK.COM \
	capture/dos/work/EATMEM.COM
DOS_BUILT = capture/dos/PROFIL.COM $(DOS_WORK)

if HAVE_NASM
# Installed beside the data, for copying onto a DOS disk or DOSBox drive.
dosdir = $(pkgdatadir)/dos
dos_DATA = capture/dos/PROFIL.COM
endif
CLEANFILES += $(DOS_BUILT) $(DOS_WORK:.COM=.MAP) $(DOS_WORK:.COM=.LST) \
	capture/dos/work/W10.MAP capture/dos/work/W10.LST

DOS_NASM = $(NASM) -f bin -I$(srcdir)/capture/dos/work/
DOS_WORK_ASM = $(AM_V_GEN)$(MKDIR_P) capture/dos/work && $(DOS_NASM) \
	-DMAPFILE=$(@:.COM=.MAP) -l $(@:.COM=.LST) -o $@

capture/dos/PROFIL.COM: capture/dos/profil.asm
	$(AM_V_GEN)$(MKDIR_P) capture/dos && $(DOS_NASM) -o $@ \
	    $(srcdir)/capture/dos/profil.asm
capture/dos/work/W3.COM: capture/dos/work/w3.asm $(DOS_WORK_SRC)
	$(DOS_WORK_ASM) $(srcdir)/capture/dos/work/w3.asm
capture/dos/work/SHARE.COM: capture/dos/work/share.asm $(DOS_WORK_SRC)
	$(DOS_WORK_ASM) $(srcdir)/capture/dos/work/share.asm
capture/dos/work/W10.EXE: capture/dos/work/w10.asm $(DOS_WORK_SRC)
	$(AM_V_GEN)$(MKDIR_P) capture/dos/work && $(DOS_NASM) \
	    -DMAPFILE=capture/dos/work/W10.MAP \
	    -l capture/dos/work/W10.LST -o $@ \
	    $(srcdir)/capture/dos/work/w10.asm
capture/dos/work/EXITS.COM: capture/dos/work/exits.asm $(DOS_WORK_SRC)
	$(DOS_WORK_ASM) $(srcdir)/capture/dos/work/exits.asm
capture/dos/work/ABORT24.COM: capture/dos/work/abort24.asm
	$(DOS_WORK_ASM) $(srcdir)/capture/dos/work/abort24.asm
capture/dos/work/VECCHK.COM: capture/dos/work/vecchk.asm
	$(DOS_WORK_ASM) $(srcdir)/capture/dos/work/vecchk.asm
capture/dos/work/EATMEM.COM: capture/dos/work/eatmem.asm
	$(DOS_WORK_ASM) $(srcdir)/capture/dos/work/eatmem.asm
