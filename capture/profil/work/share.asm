; SHARE.COM: labels that share a 16-byte bucket.  One paragraph holds
; "once" (runs once), "konst" (a float constant inside the code, never
; executed) and "spin" with its tight loop "spin.l", which gets nearly
; every sample; a profiler that splits a bucket by bytes gives "once" and
; "konst" time they never took, one that knows the sampled CS:IP does
; not.  The hot loop's lines say "; hot" (the tests read the listing).
; Writes SHARE.OUT: its PSP segment, the BIOS ticks it took, and the
; instructions "once" and "spin" executed.  "SHARE n" repeats the work n
; times (1-9).
[map all MAPFILE]
	cpu	186
	org	100h

OUTER	equ	4000
ITER	equ	1000
SPIN_N	equ	3 * ITER + 2		; mov cx, the loop, ret

start:
	call	read_repeat
	call	ticks_now
	mov	[t0], ax
	mov	[t0 + 2], dx
	call	once
	mov	bp, [repeat]
again:
	mov	di, OUTER
drive:
	call	spin
	add	word [spin_n], SPIN_N
	adc	word [spin_n + 2], 0
	dec	di
	jnz	drive
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
	mov	si, s_once
	mov	ax, [once_n]
	xor	dx, dx
	call	emit_pair
	mov	si, s_spin
	mov	ax, [spin_n]
	mov	dx, [spin_n + 2]
	call	emit_pair
	mov	dx, outname
	call	emit_write
	mov	ax, 4C00h
	int	21h

; The shared paragraph: once (0-4), konst (5-8), spin (9-15).
	align	16
once:
	inc	word [once_n]		; two instructions, run once
	ret
konst	dd	3.14159
spin:
	mov	cx, ITER
.l:
	inc	ax			; hot
	inc	dx			; hot
	loop	.l			; hot
	ret

	align	16
%include "common.inc"

once_n	dw	1			; the inc makes it 2: the inc, the ret
spin_n	dd	0
s_psp	db	'psp', 0
s_ticks	db	'ticks', 0
s_once	db	'once', 0
s_spin	db	'spin', 0
outname	db	'SHARE.OUT', 0
