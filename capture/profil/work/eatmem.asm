; EATMEM.COM: stays resident with all the memory DOS gave it but the
; last 24 KiB, so that the programs run after it find little free: the
; end-to-end test runs PROFIL there, whose default hit table (32 KiB)
; then does not fit.  Nothing gets the memory back: run it last.
[map all MAPFILE]
	org	100h

FREE	equ	24 * 1024 / 16		; paragraphs left free

start:
	mov	dx, [2]			; the paragraph past our block
	mov	ax, cs
	sub	dx, ax
	sub	dx, FREE
	mov	ax, 3100h
	int	21h
