; W10.EXE: ten routines whose instruction counts are 1:2:...:10, in an
; MZ executable whose header is written here by hand (nasm -f bin).
; The image has one segment (CS = DS = SS = load segment, set through a
; relocation so that DOS's fixups are exercised) and is loaded at PSP+10h.
; Writes W10.OUT: its PSP segment, the BIOS ticks it took, and each
; routine's executed instructions.  "W10 n" repeats the work n times.
[map all MAPFILE]
	cpu	186
%include "macros.inc"

ROUNDS	equ	900
ITER	equ	100
BODY	equ	7
HDR	equ	32			; header bytes: 28 + one relocation
STACK	equ	512

; ---- the MZ header ----------------------------------------------------
	section	mzhdr start=0
	db	'MZ'
	dw	(HDR + IMAGE) % 512	; bytes in the last page
	dw	(HDR + IMAGE + 511) / 512 ; pages
	dw	1			; relocations
	dw	HDR / 16		; header paragraphs
	dw	(STACK + 15) / 16	; min alloc: the stack
	dw	0FFFFh			; max alloc
	dw	0			; SS, image-relative
	dw	IMAGE + STACK		; SP
	dw	0			; checksum
	dw	start			; IP
	dw	0			; CS, image-relative
	dw	28			; relocation table
	dw	0			; overlay
	dw	start.fixup + 1, 0		; the segment operand of "mov ax, 0"

; ---- the load image --------------------------------------------------
	section	.text start=HDR vstart=0
image_start:
start:
	mov	bx, es			; the PSP, before DS changes
.fixup:
	mov	ax, 0			; DOS adds the load segment here
	mov	ds, ax
	mov	es, ax
	mov	[psp], bx
	call	read_repeat
	call	ticks_now
	mov	[t0], ax
	mov	[t0 + 2], dx
	mov	bp, [repeat]
.again:
	mov	di, ROUNDS
.round:
	call	rt1
	call	rt2
	call	rt3
	call	rt4
	call	rt5
	call	rt6
	call	rt7
	call	rt8
	call	rt9
	call	rt10
	dec	di
	jnz	.round
	dec	bp
	jnz	.again

	call	ticks_now
	sub	ax, [t0]
	sbb	dx, [t0 + 2]
	push	dx
	push	ax
	mov	si, s_psp
	mov	ax, [psp]
	xor	dx, dx
	call	emit_pair
	pop	ax
	pop	dx
	mov	si, s_ticks
	call	emit_pair
	mov	bx, 0
.names:
	mov	si, [names + bx]
	push	bx
	shl	bx, 1
	mov	ax, [counts + bx]
	mov	dx, [counts + bx + 2]
	call	emit_pair
	pop	bx
	add	bx, 2
	cmp	bx, 20
	jb	.names
	mov	dx, outname
	call	emit_write
	mov	ax, 4C00h
	int	21h

	ROUTINE	rt1, 1 * ITER, BODY
	ROUTINE	rt2, 2 * ITER, BODY
	ROUTINE	rt3, 3 * ITER, BODY
	ROUTINE	rt4, 4 * ITER, BODY
	ROUTINE	rt5, 5 * ITER, BODY
	ROUTINE	rt6, 6 * ITER, BODY
	ROUTINE	rt7, 7 * ITER, BODY
	ROUTINE	rt8, 8 * ITER, BODY
	ROUTINE	rt9, 9 * ITER, BODY
	ROUTINE	rt10, 10 * ITER, BODY

	align	16
%include "common.inc"

psp	dw	0
counts:
rt1_n	dd	0
rt2_n	dd	0
rt3_n	dd	0
rt4_n	dd	0
rt5_n	dd	0
rt6_n	dd	0
rt7_n	dd	0
rt8_n	dd	0
rt9_n	dd	0
rt10_n	dd	0
names	dw	n1, n2, n3, n4, n5, n6, n7, n8, n9, n10
n1	db	'rt1', 0
n2	db	'rt2', 0
n3	db	'rt3', 0
n4	db	'rt4', 0
n5	db	'rt5', 0
n6	db	'rt6', 0
n7	db	'rt7', 0
n8	db	'rt8', 0
n9	db	'rt9', 0
n10	db	'rt10', 0
s_psp	db	'psp', 0
s_ticks	db	'ticks', 0
outname	db	'W10.OUT', 0
	align	16
image_end:
IMAGE	equ	image_end - image_start
