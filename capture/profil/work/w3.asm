; W3.COM: two routines whose instruction counts are 3:1 (alpha runs
; three times for each run of beta).  Writes W3.OUT: its PSP segment,
; the BIOS ticks it took, and each routine's executed instructions.
; "W3 n" repeats the work n times (1-9), for bench/dos.
[map all MAPFILE]
	cpu	186
%include "macros.inc"
	org	100h

ROUNDS	equ	1250
ITER	equ	1000
BODY	equ	7

start:
	call	read_repeat
	call	ticks_now
	mov	[t0], ax
	mov	[t0 + 2], dx
	mov	bp, [repeat]
again:
	mov	di, ROUNDS
round:
	call	alpha
	call	alpha
	call	alpha
	call	beta
	dec	di
	jnz	round
	dec	bp
	jnz	again

	call	ticks_now
	sub	ax, [t0]
	sbb	dx, [t0 + 2]
	push	dx
	push	ax
	mov	si, s_psp
	mov	ax, cs
	xor	dx, dx
	call	emit_pair
	pop	ax
	pop	dx
	mov	si, s_ticks
	call	emit_pair
	mov	si, s_alpha
	mov	ax, [alpha_n]
	mov	dx, [alpha_n + 2]
	call	emit_pair
	mov	si, s_beta
	mov	ax, [beta_n]
	mov	dx, [beta_n + 2]
	call	emit_pair
	mov	dx, outname
	call	emit_write
	mov	ax, 4C00h
	int	21h

	ROUTINE	alpha, ITER, BODY
	ROUTINE	beta, ITER, BODY

	align	16
%include "common.inc"

alpha_n	dd	0
beta_n	dd	0
s_psp	db	'psp', 0
s_ticks	db	'ticks', 0
s_alpha	db	'alpha', 0
s_beta	db	'beta', 0
outname	db	'W3.OUT', 0
