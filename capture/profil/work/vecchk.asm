; VECCHK.COM: prints the vectors PROFIL hooks (08h, 1Bh, 23h, 24h) and
; whether PIT channel 0 runs at the BIOS rate: its counter, watched for
; longer than one 55 ms period, must climb above 8000h.  The end-to-end
; test compares the line before and after PROFIL.
[map all MAPFILE]
	cpu	186
	org	100h

start:
	mov	si, vecs
.v:
	mov	al, [si]
	or	al, al
	jz	.pit
	push	si
	mov	ah, 35h
	int	21h
	push	bx
	mov	dx, es
	push	cs
	pop	es
	push	dx
	mov	ah, al			; the number, as two hex digits
	mov	al, 0
	call	emit_hex16
	sub	word [out_ptr], 2
	mov	si, s_eq
	call	emit_str
	pop	ax
	call	emit_hex16
	mov	si, s_colon
	call	emit_str
	pop	ax
	call	emit_hex16
	mov	si, out_space
	call	emit_str
	pop	si
	inc	si
	jmp	.v
.pit:
	xor	bx, bx			; the highest count seen
	mov	bp, 4
.outer:
	mov	cx, 0
.inner:
	cli
	mov	al, 0			; latch channel 0
	out	43h, al
	in	al, 40h
	mov	ah, al
	in	al, 40h
	xchg	al, ah
	sti
	cmp	ax, bx
	jbe	.next
	mov	bx, ax
.next:
	loop	.inner
	dec	bp
	jnz	.outer
	mov	si, s_slow
	cmp	bx, 8000h
	ja	.say
	mov	si, s_fast
.say:
	call	emit_str
	call	emit_flush
	mov	ax, 4C00h
	int	21h

%include "common.inc"

vecs	db	08h, 1Bh, 23h, 24h, 0
s_eq	db	'=', 0
s_colon	db	':', 0
s_slow	db	'pit=bios', 13, 10, 0
s_fast	db	'pit=fast', 13, 10, 0
