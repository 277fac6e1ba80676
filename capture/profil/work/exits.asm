; EXITS.COM: works for a while (so that PROFIL has samples), then leaves
; the way its first parameter says, to exercise PROFIL's exit paths:
;   N  normal end, exit code 7
;   C  INT 23h, as DOS does on Ctrl-C
;   B  INT 1Bh, as the BIOS does on Ctrl-Break, then keeps working
;   E  INT 24h, a critical error (answered by whatever handler is there)
;   T  stays resident (INT 21h/31h), exit code 5
;   H  takes INT 08h without chaining, works, ends without giving it back
; Exit code 9 means the requested way out did not end the program.
[map all MAPFILE]
	cpu	186
	org	100h
%include "macros.inc"

start:
	mov	di, 600
	call	work
	mov	si, 81h
.skip:
	lodsb
	cmp	al, ' '
	je	.skip
	and	al, 0DFh
	cmp	al, 'N'
	je	by_exit
	cmp	al, 'C'
	je	by_int23
	cmp	al, 'B'
	je	by_int1b
	cmp	al, 'E'
	je	by_int24
	cmp	al, 'T'
	je	by_tsr
	cmp	al, 'H'
	je	by_hook08
not_ended:
	mov	ax, 4C09h
	int	21h

by_exit:
	mov	ax, 4C07h
	int	21h

by_int23:
	int	23h
	jmp	not_ended

by_int1b:
	int	1Bh
	mov	di, 3000		; about 1.2 s of emulated time
	call	work
	jmp	not_ended

by_int24:
	xor	ax, ax			; read error on drive A:
	mov	di, 2			; "drive not ready"
	mov	bp, cs			; a made-up device header
	mov	si, start
	int	24h
	jmp	not_ended

by_tsr:
	mov	dx, (resident_end - start + 100h + 15) / 16
	mov	ax, 3105h
	int	21h
	jmp	not_ended

by_hook08:
	cli
	xor	ax, ax
	mov	es, ax
	mov	word [es:8*4], own08
	mov	[es:8*4+2], cs
	sti
	push	cs
	pop	es
	mov	di, 600
	call	work
	mov	ax, 4C08h		; INT 08h still points here
	int	21h

; A timer handler that never chains.
own08:
	push	ax
	inc	word [cs:own_ticks]
	mov	al, 20h
	out	20h, al
	pop	ax
	iret

; di calls of spin.
work:
	call	spin
	dec	di
	jnz	work
	ret

	ROUTINE	spin, 1000, 7

spin_n		dd	0
own_ticks	dw	0
resident_end:
