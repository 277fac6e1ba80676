; The program check_analyze's attribution tests profile on paper.  It is
; assembled at build time (when nasm is there): its map, image and listing
; give real labels, bytes and instruction starts, and each instruction's
; comment says how many times it runs, the instruction-count model the
; tests take as the truth.  Labels share buckets of 16 bytes and more, a
; float constant sits between two routines, one routine is never called,
; and the code ends inside a paragraph (35h bytes past 100h).
[map all attr.map]
	org 100h

section .text
start:
	call init		; x1
	mov cx, 100		; x1
main_loop:
	call hot		; x100
	call warm		; x100
	call tail		; x100
	loop main_loop		; x100
	mov ax, 4c00h		; x1
	int 21h			; x1
init:
	xor ax, ax		; x1
	mov bx, ax		; x1
	ret			; x1
hot:
	mov bx, 50		; x100
.inner:
	dec bx			; x5000
	jnz .inner		; x5000
	ret			; x100
pi:
	dd 3.14159265
warm:
	mov dx, 3		; x100
.spin:
	dec dx			; x300
	jnz .spin		; x300
	ret			; x100
cold:
	push bp			; x0
	mov bp, sp		; x0
	pop bp			; x0
	ret			; x0
tail:
	nop			; x100
	nop			; x100
	ret			; x100
