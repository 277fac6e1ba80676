; ABORT24.COM: stays resident with an INT 24h handler that answers every
; critical error with Abort, as a user pressing "A" at DOS's prompt
; would.  The end-to-end test installs it before EXITS E.
[map all MAPFILE]
	org	100h

start:
	jmp	install

handler:
	mov	al, 2
	iret

; DOS puts INT 24h back from the PSP when a program ends, resident or
; not, so the handler goes into our PSP rather than into the vector.
install:
	mov	word [12h], handler
	mov	[14h], cs
	mov	dx, (install - start + 100h + 15) / 16
	mov	ax, 3100h
	int	21h
