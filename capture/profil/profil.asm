; PROFIL.COM -- MS-DOS program profiler (see man/profil.1).
;
;	PROFIL [/B:paras] [/C:microseconds] [/H:entries] fname.ext [parameters]
;
; Loads fname.ext with INT 21h/4B01h, runs PIT channel 0 at the chosen
; interval and, on every INT 08h, classifies the interrupted CS:IP by
; paragraph into I/O, DOS, one of the program's buckets, or high.  A
; sample in the program is also counted under its exact CS:IP in the hit
; table, while the table has room.  When the program ends -- in any
; way -- the PIT and every vector PROFIL hooked are put back and
; fname.PRF is written: PROFIL's header and 16-bit buckets, then the
; PV32 trailer with the 32-bit counts, then the HITS section (the table).
;
; Assemble: nasm -f bin -o PROFIL.COM profil.asm
; Runs on any x86 from the 80186 on (SHR/SHL by an immediate, PUSH imm).

	cpu	186
	org	100h

MIN_US		equ	50		; 20 kHz: faster starves the program
MAX_US		equ	54925		; 65535 PIT counts
MAX_TRIES	equ	10		; bad answers before giving up
HIT_DEFAULT	equ	4096		; hit table entries without /H: (32 KiB)
HIT_MAX		equ	8192		; 8 bytes each: one 64 KiB segment
HIT_PROBES	equ	8		; slots one sample may look at
STACK_BYTES	equ	1024

R_NONE		equ	0		; why the program ended, when DOS
R_CTRLC		equ	1		; cannot tell us (INT 21h/4Dh)
R_BREAK		equ	2
R_CRIT		equ	3

start:
	jmp	main

; ---------------------------------------------------------------------
; Data the interrupt handlers use (addressed through CS).

old08		dd	0
old1b		dd	0
old23		dd	0
old24		dd	0
indos		dd	0		; DOS's InDOS byte
critflag	dd	0		; DOS 3.1+: critical-error flag (else InDOS)
divisor		dw	0		; PIT counts per sample
acc		dw	0		; BIOS chaining accumulator
prog_low	dw	0
prog_high	dw	0
dos_pa		dw	0
bucket_siz	dw	0
bucket_num	dw	0
cnt_seg		dw	0		; 32-bit counts, four buckets a paragraph
hit_seg		dw	0		; the hit table; 0: buckets only
hit_cap		dw	0		; its slots, one entry each
hit_mask	dw	0		; 2^k - 1 covering hit_cap - 1: hash bits
hit_end		dw	0		; hit_cap * 8, mod 64 KiB: probes wrap here
hit_probes	dw	0		; min(HIT_PROBES, hit_cap)
hit_io		dd	0
hit_dos		dd	0
hit_high	dd	0
brk_pending	db	0
reason		db	R_NONE

; ---------------------------------------------------------------------
; INT 08h: one sample.  Never calls DOS.  Chains to the original handler
; whenever 65536 PIT counts have gone by, so the BIOS clock keeps its
; 18.2065 Hz; acknowledges the PIC itself otherwise.
;
; Registers: AX, BX, DX, BP and DS are saved on entry and ES around its
; use, nothing else is touched but CX on the table's slow path (pushed
; there).  DS = CS throughout; BP addresses the interrupted IP, CS and
; FLAGS on the stack.
;
; The hit table: hit_cap entries of 8 bytes at hit_seg:0, each u16 IP,
; u16 CS, u32 hits -- the HITS section's own layout, so the file gets
; them as they are.  A free entry is 0000:0000, which is never in the
; program (paragraph 0 is the vector table), so an all-zero table is
; empty.  Open addressing: an address's home slot is (IP ^ CS) & hit_mask
; (less hit_cap when that is past the end), and it may sit up to
; hit_probes - 1 slots on (linear probing, wrapping).  Entries are never
; removed, so the first free slot on the way ends the search, and the
; search is bounded: a sample whose address is not in those slots and
; finds none free counts in its bucket only (missed; the table is full).
; A sample the table counts goes to no bucket now: write_prf adds each
; entry to its bucket, so the common case -- the address is in its home
; slot -- costs neither the bucket's DIV nor its increment.

int08:
	push	ax
	push	bx
	push	dx
	push	bp
	push	ds
	mov	bp, sp			; [bp+10] IP, [bp+12] CS, [bp+14] FLAGS
	mov	ax, cs
	mov	ds, ax
	mov	ax, [bp+10]
	shr	ax, 4
	add	ax, [bp+12]		; the paragraph of CS:IP
	jc	.high			; past 1 MiB (HMA)
	cmp	ax, [dos_pa]
	jb	.io
	cmp	ax, [prog_low]
	jb	.dos
	cmp	ax, [prog_high]
	jae	.high

	push	es
	cmp	word [hit_seg], 0
	je	.bucket			; /H:0, or no memory for the table
	mov	es, [hit_seg]
	mov	ax, [bp+10]		; ax = IP, dx = CS from here on
	mov	dx, [bp+12]
	mov	bx, dx
	xor	bx, ax
	and	bx, [hit_mask]
	cmp	bx, [hit_cap]
	jb	.home
	sub	bx, [hit_cap]
.home:
	shl	bx, 3
	cmp	ax, [es:bx]
	jne	.probe
	cmp	dx, [es:bx+2]
	jne	.probe
.hit:
	add	word [es:bx+4], 1
	adc	word [es:bx+6], 0
	jc	.hit_sat
.counted:
	pop	es
	; Ctrl-Break: leave at the program's next instruction, when it is
	; running its own code and DOS is not busy.
	cmp	byte [brk_pending], 0
	je	.chain_or_eoi
	push	es
	les	bx, [indos]
	cmp	byte [es:bx], 0
	pop	es
	jne	.chain_or_eoi
	mov	byte [brk_pending], 0
	mov	word [bp+10], brk_stub
	mov	[bp+12], cs
	jmp	.chain_or_eoi

.io:
	mov	bx, hit_io
	jmp	.count
.dos:
	mov	bx, hit_dos
	jmp	.count
.high:
	mov	bx, hit_high
.count:
	add	word [bx], 1
	adc	word [bx+2], 0
	jnc	.chain_or_eoi
	mov	word [bx], 0FFFFh
	mov	word [bx+2], 0FFFFh

.chain_or_eoi:
	mov	ax, [divisor]
	add	[acc], ax
	jc	.chain
	mov	al, 20h
	out	20h, al
	pop	ds
	pop	bp
	pop	dx
	pop	bx
	pop	ax
	iret
.chain:
	pop	ds
	pop	bp
	pop	dx
	pop	bx
	pop	ax
	jmp	far [cs:old08]

	; The slots after the home slot, at most hit_probes in all: the
	; address's entry, or the first free slot, which becomes it.
.probe:
	push	cx
	mov	cx, [hit_probes]
.look:
	cmp	word [es:bx], 0
	jne	.taken
	cmp	word [es:bx+2], 0
	je	.claim
.taken:
	dec	cx
	jz	.nofit
	add	bx, 8
	cmp	bx, [hit_end]
	jne	.same
	xor	bx, bx
.same:
	cmp	ax, [es:bx]
	jne	.look
	cmp	dx, [es:bx+2]
	jne	.look
	pop	cx
	jmp	.hit
.claim:
	mov	[es:bx], ax
	mov	[es:bx+2], dx
	mov	word [es:bx+4], 1	; its high word is 0 already
	pop	cx
	jmp	.counted
.nofit:
	pop	cx
	shr	ax, 4
	add	ax, dx			; the paragraph again
	; The sample's bucket, counted now: with no table, or when the
	; table had no room for it.  ax = the paragraph.
.bucket:
	sub	ax, [prog_low]
	xor	dx, dx
	div	word [bucket_siz]	; the bucket
	mov	bx, ax
	shr	bx, 2
	add	bx, [cnt_seg]
	mov	es, bx
	and	ax, 3
	shl	ax, 2
	mov	bx, ax
	add	word [es:bx], 1
	adc	word [es:bx+2], 0
	jnc	.counted
	mov	word [es:bx], 0FFFFh	; saturate, never wrap
	mov	word [es:bx+2], 0FFFFh
	jmp	.counted
.hit_sat:
	mov	word [es:bx+4], 0FFFFh
	mov	word [es:bx+6], 0FFFFh
	jmp	.counted

; Entered in place of the program's next instruction after Ctrl-Break.
brk_stub:
	mov	byte [cs:reason], R_BREAK
	mov	ax, 4C00h
	int	21h

; INT 1Bh, from the BIOS keyboard handler: note it, let DOS note it too.
int1b:
	mov	byte [cs:brk_pending], 1
	jmp	far [cs:old1b]

; INT 23h, from DOS on Ctrl-C: end the program (DOS allows any call here).
int23:
	mov	byte [cs:reason], R_CTRLC
	mov	ax, 4C00h
	int	21h

; INT 24h: the original handler decides.  On Abort, DOS ends the program
; and returns to us; if nobody inside DOS raised the error (the flag is
; clear), DOS will not, so we end it ourselves.
int24:
	pushf
	call	far [cs:old24]
	cmp	al, 2
	jne	.ret
	mov	byte [cs:reason], R_CRIT
	push	es
	push	bx
	les	bx, [cs:critflag]
	cmp	byte [es:bx], 0
	pop	bx
	pop	es
	jne	.ret
	mov	ax, 4C00h
	int	21h
.ret:
	iret

; ---------------------------------------------------------------------
; The program has ended: DOS jumps here through its PSP:000Ah with
; nothing of ours in the registers.

term:
	cli
	mov	ax, cs
	mov	ss, ax
	mov	sp, stack_top
	mov	ds, ax
	mov	es, ax
	cld
	call	unhook
	sti
	mov	ah, 4Dh
	int	21h
	mov	[exit_code], al
	mov	[exit_type], ah
	call	write_prf
	call	report
	mov	al, [exit_code]
	cmp	byte [prf_failed], 0
	je	.out
	mov	al, 1
.out:
	mov	ah, 4Ch
	int	21h

; Put the PIT and the vectors back.  Interrupts are off.
unhook:
	xor	ax, ax
	mov	es, ax
	mov	ax, [es:8*4]
	mov	dx, [es:8*4+2]
	cmp	ax, int08
	jne	.taken
	mov	bx, cs
	cmp	dx, bx
	je	.ours
.taken:
	mov	byte [taken08], 1
.ours:
	mov	al, 36h			; channel 0, lo/hi, mode 3, binary
	out	43h, al
	xor	al, al
	out	40h, al			; 0 = 65536: 18.2065 Hz
	out	40h, al
	mov	si, old08
	mov	di, 8*4
	movsw
	movsw
	mov	si, old1b
	mov	di, 1Bh*4
	movsw
	movsw
	mov	si, old23
	mov	di, 23h*4
	movsw
	movsw
	mov	si, old24
	mov	di, 24h*4
	movsw
	movsw
	push	cs
	pop	es
	ret

; ---------------------------------------------------------------------
; Writing the .PRF (after the program, never in an interrupt).

; Saturate dx:ax to 16 bits in ax; sets [sat16] when it had to.
sat16:
	or	dx, dx
	jz	.ok
	mov	ax, 0FFFFh
.ok:
	cmp	ax, 0FFFFh
	jne	.ret
	mov	byte [sat16flag], 1
.ret:
	ret

; Add the 32-bit value at [si] into [total], saturating.
add_total:
	mov	ax, [si]
	mov	dx, [si+2]
; Add dx:ax into [total], saturating.
add_total_dxax:
	push	di
	mov	di, total
	call	add_sat
	pop	di
	ret

; Add dx:ax into the 32-bit value at [di], saturating.
add_sat:
	add	[di], ax
	adc	[di+2], dx
	jnc	.ret
	mov	word [di], 0FFFFh
	mov	word [di+2], 0FFFFh
.ret:
	ret

; Write cx bytes from ds:dx to the .PRF; on error set prf_failed.
fwrite:
	push	cx
	mov	bx, [cs:prf_handle]
	mov	ah, 40h
	int	21h
	pop	cx
	jc	.bad
	cmp	ax, cx
	je	.ret
.bad:
	mov	byte [cs:prf_failed], 1
.ret:
	ret

write_prf:
	call	hits_fold
	; The header's three hit counters, and the totals.
	mov	si, hit_io
	call	add_total
	mov	ax, [hit_io]
	mov	dx, [hit_io+2]
	call	sat16
	mov	[h_io], ax
	mov	si, hit_dos
	call	add_total
	mov	ax, [hit_dos]
	mov	dx, [hit_dos+2]
	call	sat16
	mov	[h_dos], ax
	mov	si, hit_high
	call	add_total
	mov	ax, [hit_high]
	mov	dx, [hit_high+2]
	call	sat16
	mov	[h_high], ax
	mov	ax, [interval]
	mov	[h_grain], ax
	mov	ax, [bucket_num]
	mov	[h_num], ax
	mov	ax, [bucket_siz]
	mov	[h_siz], ax
	mov	ax, [prog_low]
	mov	[h_low], ax
	mov	ax, [prog_high]
	mov	[h_high_pa], ax
	mov	ax, [dos_pa]
	mov	[h_dos_pa], ax

	mov	dx, prf_name
	xor	cx, cx
	mov	ah, 3Ch
	int	21h
	jnc	.created
	mov	byte [prf_failed], 1
	ret
.created:
	mov	[prf_handle], ax
	mov	dx, hdr
	mov	cx, 18
	call	fwrite

	; 16-bit buckets, a buffer at a time.
	xor	si, si			; bucket index
.b16_outer:
	mov	di, buf16
	xor	cx, cx			; buckets in buffer
.b16_inner:
	cmp	si, [bucket_num]
	jae	.b16_flush
	cmp	cx, 256
	jae	.b16_flush
	push	cx
	call	bucket_get		; dx:ax = count of bucket si
	push	ax
	push	dx
	call	add_total_dxax
	pop	dx
	pop	ax
	call	sat16
	stosw
	pop	cx
	inc	cx
	inc	si
	jmp	.b16_inner
.b16_flush:
	jcxz	.b16_done
	shl	cx, 1
	mov	dx, buf16
	push	si
	call	fwrite
	pop	si
	jmp	.b16_outer
.b16_done:

	; PV32 trailer: fixed part, then the 32-bit counts straight from
	; their segment.
	mov	ax, [total]
	mov	[t_total], ax
	mov	ax, [total+2]
	mov	[t_total+2], ax
	mov	si, hit_io
	mov	di, t_io
	movsw
	movsw
	movsw
	movsw
	movsw
	movsw
	mov	al, [sat16flag]
	mov	[t_flags], al
	mov	dx, trailer
	mov	cx, trailer_end - trailer
	call	fwrite

	mov	ax, [bucket_num]	; bytes = 4 * bucket_num
	xor	dx, dx
	shl	ax, 1
	rcl	dx, 1
	shl	ax, 1
	rcl	dx, 1
	mov	bx, [cnt_seg]
	call	fwrite_seg

	; The HITS section: its fixed part, then the entries, packed at the
	; table's start by hits_fold.
	cmp	byte [hit_on], 0
	je	.close
	mov	dx, hits_sec
	mov	cx, hits_sec_end - hits_sec
	call	fwrite
	mov	ax, [hs_len]		; bytes = 8 * count
	mov	dx, [hs_len+2]
	sub	ax, 12
	sbb	dx, 0
	mov	bx, [hit_seg]
	call	fwrite_seg
.close:
	mov	bx, [prf_handle]
	mov	ah, 3Eh
	int	21h
	jnc	.ret
	mov	byte [prf_failed], 1
.ret:
	ret

; Write dx:ax bytes from bx:0000 on, in pieces of at most 32 KiB.
fwrite_seg:
	mov	cx, ax
	or	dx, dx
	jnz	.big
	cmp	ax, 8000h
	jbe	.piece
.big:
	mov	cx, 8000h
.piece:
	jcxz	.ret
	sub	ax, cx
	sbb	dx, 0
	push	ax
	push	dx
	push	bx
	push	ds
	mov	ds, bx
	xor	dx, dx
	call	fwrite
	pop	ds
	pop	bx
	pop	dx
	pop	ax
	add	bx, 800h
	jmp	fwrite_seg
.ret:
	ret

; Before anything reads the buckets: with the table on, the buckets hold
; only the samples the table had no room for, which is the section's
; missed count; then each entry is added to its bucket, so that the
; buckets count every sample in the program as they always have, and the
; entries are packed at the table's start for writing.
hits_fold:
	cmp	byte [hit_on], 0
	je	.ret
	xor	si, si
	mov	di, hs_missed
.missed:
	cmp	si, [bucket_num]
	jae	.summed
	call	bucket_get
	call	add_sat
	inc	si
	jmp	.missed
.summed:
	mov	ax, [hs_missed]
	or	ax, [hs_missed+2]
	jz	.notfull
	mov	byte [hs_flags], 1
.notfull:
	mov	ax, [hit_cap]
	mov	[hs_cap], ax
	mov	cx, ax
	jcxz	.done			; no memory for a table: all missed
	mov	es, [hit_seg]
	xor	si, si			; the slot
	xor	di, di			; where the next entry goes (di <= si)
.entry:
	mov	ax, [es:si]
	or	ax, [es:si+2]
	jnz	.used
	add	si, 8
	loop	.entry
	jmp	.done
.used:
	push	ds
	push	es
	pop	ds
	movsw				; IP, CS, hits
	movsw
	movsw
	movsw
	pop	ds
	inc	word [hs_count]
	push	si
	mov	ax, [es:di-8]
	shr	ax, 4
	add	ax, [es:di-6]		; the paragraph, as int08 saw it
	sub	ax, [prog_low]
	xor	dx, dx
	div	word [bucket_siz]
	mov	si, ax
	mov	ax, [es:di-4]
	mov	dx, [es:di-2]
	call	bucket_add
	pop	si
	loop	.entry
.done:
	push	cs
	pop	es
	mov	ax, [hs_count]		; length = 12 + 8 * count
	xor	dx, dx
	mov	cx, 3
.x8:
	shl	ax, 1
	rcl	dx, 1
	loop	.x8
	add	ax, 12
	adc	dx, 0
	mov	[hs_len], ax
	mov	[hs_len+2], dx
.ret:
	ret

; Bucket si += dx:ax, saturating.
bucket_add:
	push	es
	push	bx
	call	bucket_at
	add	[es:bx], ax
	adc	[es:bx+2], dx
	jnc	.ret
	mov	word [es:bx], 0FFFFh
	mov	word [es:bx+2], 0FFFFh
.ret:
	pop	bx
	pop	es
	ret

; dx:ax = 32-bit count of bucket si.
bucket_get:
	push	es
	push	bx
	call	bucket_at
	mov	ax, [es:bx]
	mov	dx, [es:bx+2]
	pop	bx
	pop	es
	ret

; es:bx = where the 32-bit count of bucket si is.
bucket_at:
	mov	bx, si
	shr	bx, 2
	add	bx, [cnt_seg]
	mov	es, bx
	mov	bx, si
	and	bx, 3
	shl	bx, 2
	ret

; The termination message (like DEBUG's) and a summary.
report:
	mov	al, [reason]
	mov	dx, msg_ctrlc
	cmp	al, R_CTRLC
	je	.plain
	mov	dx, msg_break
	cmp	al, R_BREAK
	je	.plain
	mov	dx, msg_crit
	cmp	al, R_CRIT
	je	.plain
	mov	al, [exit_type]
	mov	dx, msg_ctrlc
	cmp	al, 1
	je	.plain
	mov	dx, msg_crit
	cmp	al, 2
	je	.plain
	mov	dx, msg_tsr
	cmp	al, 3
	je	.coded
	mov	dx, msg_normal
.coded:
	call	puts
	mov	al, [exit_code]
	xor	ah, ah
	xor	dx, dx
	call	putdec
	mov	dx, msg_rparen
.plain:
	call	puts
	cmp	byte [taken08], 0
	je	.nottaken
	mov	dx, msg_taken
	call	puts
.nottaken:
	cmp	byte [prf_failed], 0
	je	.written
	mov	dx, msg_nowrite
	call	puts
	mov	dx, prf_name
	call	puts
	mov	dx, msg_crlf
	jmp	puts
.written:
	mov	dx, msg_wrote
	call	puts
	mov	dx, prf_name
	call	puts
	mov	dx, msg_samples
	call	puts
	mov	ax, [total]
	mov	dx, [total+2]
	call	putdec
	mov	dx, msg_io
	call	puts
	mov	ax, [hit_io]
	mov	dx, [hit_io+2]
	call	putdec
	mov	dx, msg_dos
	call	puts
	mov	ax, [hit_dos]
	mov	dx, [hit_dos+2]
	call	putdec
	mov	dx, msg_high
	call	puts
	mov	ax, [hit_high]
	mov	dx, [hit_high+2]
	call	putdec
	mov	dx, msg_psp
	call	puts
	mov	ax, [prog_low]
	call	puthex
	mov	dx, msg_to
	call	puts
	mov	ax, [prog_high]
	call	puthex
	mov	dx, msg_crlf
	call	puts
	cmp	byte [hit_on], 0
	je	.ret
	mov	dx, msg_hits
	call	puts
	mov	ax, [hs_count]
	xor	dx, dx
	call	putdec
	mov	dx, msg_of
	call	puts
	mov	ax, [hs_cap]
	xor	dx, dx
	call	putdec
	mov	dx, msg_entries
	call	puts
	mov	ax, [hs_missed]
	mov	dx, [hs_missed+2]
	call	putdec
	mov	dx, msg_missed
	call	puts
	mov	dx, msg_full
	cmp	byte [hs_flags], 0
	jne	.full
	mov	dx, msg_crlf
.full:
	call	puts
.ret:
	ret

; ---------------------------------------------------------------------
; Console output, through handle 1 so that it can be redirected.

; Print the ASCIIZ string at ds:dx.
puts:
	push	ax
	push	bx
	push	cx
	push	di
	mov	di, dx
	xor	cx, cx
.len:
	cmp	byte [di], 0
	je	.go
	inc	di
	inc	cx
	jmp	.len
.go:
	mov	bx, 1
	mov	ah, 40h
	int	21h
	pop	di
	pop	cx
	pop	bx
	pop	ax
	ret

; Print dx:ax in decimal.
putdec:
	push	si
	mov	si, numbuf + 11
	mov	byte [si], 0
	mov	cx, 10
.digit:
	push	ax			; dx:ax / 10, 16 bits at a time
	mov	ax, dx
	xor	dx, dx
	div	cx
	mov	bx, ax			; high quotient
	pop	ax
	div	cx			; dx = remainder
	dec	si
	add	dl, '0'
	mov	[si], dl
	mov	dx, bx
	mov	bx, ax
	or	bx, dx
	jnz	.digit
	mov	dx, si
	call	puts
	pop	si
	ret

; Print ax as four hex digits.
puthex:
	mov	di, numbuf
	mov	cx, 4
.h:
	rol	ax, 4
	mov	bx, ax
	and	bx, 0Fh
	mov	bl, [hexdigits + bx]
	mov	[di], bl
	inc	di
	loop	.h
	mov	byte [di], 0
	mov	dx, numbuf
	jmp	puts

; ---------------------------------------------------------------------
; Start-up: everything from here on is only needed before the program
; runs, but stays (it is small); the stack sits at the very end.

main:
	cld
	mov	sp, stack_top
	mov	[our_psp], cs
	; Keep only our own block, so that the program gets the rest.
	mov	bx, (prog_end - start + 100h + 15) / 16
	mov	ah, 4Ah
	int	21h
	jnc	.shrunk
	mov	dx, msg_nomem
	jmp	die
.shrunk:
	; dos_pa: the DOS kernel's data segment (its list of lists); below
	; it are the vectors, the BIOS data and the I/O system.
	mov	ah, 52h
	int	21h
	mov	[dos_pa], es
	mov	ah, 34h
	int	21h
	mov	[indos], bx
	mov	[indos+2], es
	mov	[critflag], bx
	mov	[critflag+2], es
	mov	ah, 30h
	int	21h
	cmp	al, 3
	ja	.errflag
	jb	.noerrflag
	cmp	ah, 10
	jb	.noerrflag
.errflag:
	dec	word [critflag]		; the byte before InDOS
.noerrflag:
	push	cs
	pop	es

	call	parse_cmdline
	cmp	word [bucket_siz], 0
	jne	.have_siz
.ask_siz:
	mov	dx, msg_ask_siz
	mov	ax, 1
	mov	bx, 0FFFFh
	call	ask_number
	mov	[bucket_siz], ax
.have_siz:
	cmp	word [interval], 0
	jne	.have_int
	mov	dx, msg_ask_int
	mov	ax, MIN_US
	mov	bx, MAX_US
	call	ask_number
	mov	[interval], ax
.have_int:
	cmp	byte [batch], 0
	jne	.have_args
	cmp	byte [args_len], 0
	jne	.have_args
	call	ask_args
.have_args:
	call	compute_divisor
	call	size_program
	call	make_prf_name
	call	alloc_counts
	call	alloc_hits
	call	build_tail

	; The vectors as they are now: restored whatever happens.
	mov	ax, 3508h
	int	21h
	mov	[old08], bx
	mov	[old08+2], es
	mov	ax, 351Bh
	int	21h
	mov	[old1b], bx
	mov	[old1b+2], es
	mov	ax, 3523h
	int	21h
	mov	[old23], bx
	mov	[old23+2], es
	mov	ax, 3524h
	int	21h
	mov	[old24], bx
	mov	[old24+2], es
	push	cs
	pop	es

	mov	dx, fname
	mov	bx, exec_blk
	mov	ax, 4B01h
	int	21h
	jnc	.loaded
	mov	dx, msg_exec
	call	puts
	xor	dx, dx
	call	putdec
	mov	dx, msg_rparen
	jmp	die

.loaded:
	mov	ah, 62h			; the new program's PSP is current
	int	21h
	mov	[child_psp], bx
	mov	[prog_low], bx
	mov	ax, bx
	add	ax, [image_paras]
	jnc	.fits
	mov	ax, 0FFFFh
.fits:
	mov	[prog_high], ax
	; Where DOS goes when the program ends, and what it restores then.
	mov	es, bx
	mov	word [es:0Ah], term
	mov	[es:0Ch], cs
	mov	ax, [old23]
	mov	[es:0Eh], ax
	mov	ax, [old23+2]
	mov	[es:10h], ax
	mov	ax, [old24]
	mov	[es:12h], ax
	mov	ax, [old24+2]
	mov	[es:14h], ax
	mov	ax, [our_psp]
	mov	[es:16h], ax

	; Hook, start the clock, and go.
	cli
	xor	ax, ax
	mov	es, ax
	mov	word [es:8*4], int08
	mov	[es:8*4+2], cs
	mov	word [es:1Bh*4], int1b
	mov	[es:1Bh*4+2], cs
	mov	word [es:23h*4], int23
	mov	[es:23h*4+2], cs
	mov	word [es:24h*4], int24
	mov	[es:24h*4+2], cs
	mov	al, 36h
	out	43h, al
	mov	ax, [divisor]
	out	40h, al
	mov	al, ah
	out	40h, al
	mov	ss, [exec_sssp+2]
	mov	sp, [exec_sssp]
	pop	ax			; DOS leaves the program's AX on top
	mov	bx, [cs:child_psp]
	mov	ds, bx
	mov	es, bx
	push	word [cs:exec_csip+2]
	push	word [cs:exec_csip]
	sti
	retf

; Print ds:dx and exit with code 1 (nothing is hooked yet).
die:
	call	puts
	mov	dx, msg_crlf
	call	puts
	mov	ax, 4C01h
	int	21h

usage:
	mov	dx, msg_usage
	call	puts
	mov	ax, 4C01h
	int	21h

; ---------------------------------------------------------------------
; The command line: [/B:n] [/C:n] [/H:n] fname.ext [parameters]

cmd_skip:				; si past blanks; al = next char
	lodsb
	cmp	al, ' '
	je	cmd_skip
	cmp	al, 9
	je	cmd_skip
	dec	si
	ret

parse_cmdline:
	mov	si, 81h
	mov	bl, [80h]
	xor	bh, bh
	mov	byte [81h + bx], 0Dh	; DOS puts it there; make sure
.next:
	call	cmd_skip
	cmp	al, '/'
	jne	.file
	inc	si
	lodsb
	and	al, 0DFh
	mov	di, bucket_siz
	mov	bx, 1			; range low
	mov	cx, 0FFFFh		; range high
	cmp	al, 'B'
	je	.switch
	mov	di, interval
	mov	bx, MIN_US
	mov	cx, MAX_US
	cmp	al, 'C'
	je	.switch
	mov	di, hit_req
	xor	bx, bx
	mov	cx, HIT_MAX
	cmp	al, 'H'
	je	.switch
	jmp	usage
.switch:
	lodsb
	cmp	al, ':'
	jne	usage
	push	di
	call	parse_number		; ax = value, cf = bad
	pop	di
	jc	usage
	cmp	ax, bx
	jb	.range
	cmp	ax, cx
	ja	.range
	mov	[di], ax
	jmp	.next
.range:
	mov	dx, msg_range
	jmp	die
.file:
	mov	di, fname
	mov	cx, 127
.fcopy:
	lodsb
	cmp	al, ' '
	je	.fend
	cmp	al, 9
	je	.fend
	cmp	al, 0Dh
	je	.fend
	stosb
	loop	.fcopy
	jmp	usage
.fend:
	dec	si
	mov	byte [di], 0
	cmp	di, fname
	je	usage
	; Both numbers given (neither can be 0): nothing is asked.  /H: has
	; a default and is never asked for.
	cmp	word [bucket_siz], 0
	je	.notbatch
	cmp	word [interval], 0
	je	.notbatch
	mov	byte [batch], 1
.notbatch:
	; Whatever follows the name is the program's parameters.
	call	cmd_skip
	mov	di, args
	xor	cx, cx
.acopy:
	lodsb
	cmp	al, 0Dh
	je	.aend
	stosb
	inc	cx
	cmp	cx, 125
	jb	.acopy
.aend:
	mov	[args_len], cl
	ret

; Parse a decimal number at si, up to a blank, CR or '/'.  ax = value;
; cf set when it is not a number below 65536.
parse_number:
	push	bx
	push	cx
	xor	ax, ax
	xor	cx, cx			; digits seen
.d:
	mov	bl, [si]
	cmp	bl, '0'
	jb	.end
	cmp	bl, '9'
	ja	.end
	inc	si
	inc	cx
	sub	bl, '0'
	xor	bh, bh
	mov	dx, 10
	mul	dx
	jc	.bad
	add	ax, bx
	jc	.bad
	jmp	.d
.end:
	jcxz	.bad
	cmp	bl, ' '
	je	.good
	cmp	bl, 9
	je	.good
	cmp	bl, 0Dh
	je	.good
	cmp	bl, '/'
	je	.good
	cmp	bl, 0
	je	.good
.bad:
	pop	cx
	pop	bx
	stc
	ret
.good:
	pop	cx
	pop	bx
	clc
	ret

; Prompt with ds:dx for a number in [ax, bx]; reprompt on a bad one.
ask_number:
	mov	[ask_lo], ax
	mov	[ask_hi], bx
	mov	[ask_msg], dx
	mov	byte [tries], 0
.again:
	inc	byte [tries]
	cmp	byte [tries], MAX_TRIES
	jbe	.ask
	mov	dx, msg_giveup
	jmp	die
.ask:
	mov	dx, [ask_msg]
	call	puts
	call	read_line
	mov	si, inbuf + 2
	call	cmd_skip
	call	parse_number
	jc	.bad
	push	ax
	call	cmd_skip
	pop	ax
	cmp	byte [si], 0Dh
	jne	.bad
	cmp	ax, [ask_lo]
	jb	.bad
	cmp	ax, [ask_hi]
	ja	.bad
	ret
.bad:
	mov	dx, msg_badnum
	call	puts
	jmp	.again

ask_args:
	mov	dx, msg_ask_args
	call	puts
	call	read_line
	mov	si, inbuf + 2
	mov	di, args
	mov	cl, [inbuf + 1]
	xor	ch, ch
	mov	[args_len], cl
	rep	movsb
	ret

; A line from standard input into inbuf + 2, CR-terminated, its length
; at inbuf + 1.  The console gets DOS's line editing (INT 21h/0Ah); a
; redirected file is read a byte at a time up to its LF, so that each
; answer is one line of the file.
read_line:
	mov	ax, 4400h		; is handle 0 a device?
	xor	bx, bx
	int	21h
	jc	.file
	test	dl, 80h
	jz	.file
	mov	byte [inbuf], 120
	mov	byte [inbuf + 1], 0
	mov	dx, inbuf
	mov	ah, 0Ah
	int	21h
	mov	bl, [inbuf + 1]
	xor	bh, bh
	mov	byte [inbuf + 2 + bx], 0Dh
	mov	dx, msg_crlf
	jmp	puts
.file:
	mov	di, inbuf + 2
.byte:
	mov	dx, di
	mov	cx, 1
	xor	bx, bx
	mov	ah, 3Fh
	int	21h
	jc	.eof
	or	ax, ax
	jz	.eof
	mov	al, [di]
	cmp	al, 0Ah
	je	.eol
	cmp	al, 0Dh
	je	.byte			; CR LF: the LF ends it
	cmp	al, 1Ah			; ^Z
	je	.eof
	cmp	di, inbuf + 2 + 120
	jae	.byte			; too long: drop the rest
	inc	di
	jmp	.byte
.eol:
	mov	byte [di], 0Dh
	mov	ax, di
	sub	ax, inbuf + 2
	mov	[inbuf + 1], al
	mov	dx, inbuf + 2		; echo it, as the console would
	mov	byte [di], 0
	call	puts
	mov	byte [di], 0Dh
	mov	dx, msg_crlf
	jmp	puts
.eof:
	cmp	di, inbuf + 2		; a last line without LF counts
	jne	.eol
	mov	dx, msg_eof
	jmp	die

; divisor = round(interval * 1193182 / 1000000), in 16-bit arithmetic:
; a 48-bit product, then / 15625 / 64.
compute_divisor:
	mov	ax, [interval]
	mov	bx, 34DEh		; 1193182 = 12h:34DEh
	mul	bx
	mov	[w0], ax
	mov	[w1], dx
	mov	ax, [interval]
	mov	bx, 12h
	mul	bx
	add	[w1], ax
	adc	dx, 0
	mov	[w2], dx
	add	word [w0], 0A120h	; + 500000 = 7:A120h, to round
	adc	word [w1], 7
	adc	word [w2], 0
	mov	cx, 15625
	xor	dx, dx
	mov	ax, [w2]
	div	cx
	mov	ax, [w1]
	div	cx
	mov	bx, ax			; high word of the quotient
	mov	ax, [w0]
	div	cx
	mov	cx, 6
.shr:
	shr	bx, 1
	rcr	ax, 1
	loop	.shr
	mov	[divisor], ax
	ret

; How many paragraphs the program occupies once loaded, from the file:
; the PSP and the image (a COM file whole; an EXE's load module).
size_program:
	mov	dx, fname
	mov	ax, 3D00h
	int	21h
	jnc	.open
	mov	dx, msg_notfound
	call	puts
	mov	dx, fname
	jmp	die
.open:
	mov	bx, ax
	mov	dx, exehdr
	mov	cx, 28
	mov	ah, 3Fh
	int	21h
	jc	.readerr
	mov	[hdr_got], ax
	mov	ax, 4202h		; the file's size
	xor	cx, cx
	xor	dx, dx
	int	21h
	jc	.readerr
	push	ax
	push	dx
	mov	ah, 3Eh
	int	21h
	pop	dx
	pop	ax
	cmp	word [hdr_got], 28
	jb	.com
	mov	cx, [exehdr]
	cmp	cx, 'MZ'
	je	.exe
	cmp	cx, 'ZM'
	je	.exe
.com:
	or	dx, dx
	jnz	.toobig
	cmp	ax, 0FF00h
	ja	.toobig
	jmp	.paras
.exe:
	; bytes = pages * 512 - (512 - last) - header paragraphs * 16
	mov	ax, [exehdr + 4]
	mov	cx, 512
	mul	cx
	mov	cx, [exehdr + 2]
	jcxz	.fullpage
	and	cx, 1FFh
	sub	cx, 512
	add	ax, cx			; ax - (512 - last)
	adc	dx, -1
.fullpage:
	mov	cx, [exehdr + 8]
	shl	cx, 4			; at most 65535 * 16: use 32 bits
	mov	bx, [exehdr + 8]
	shr	bx, 12
	sub	ax, cx
	sbb	dx, bx
	jb	.badexe
.paras:
	add	ax, 15			; ceil(bytes / 16)
	adc	dx, 0
	mov	cx, 4
.sh:
	shr	dx, 1
	rcr	ax, 1
	loop	.sh
	or	dx, dx
	jnz	.toobig
	add	ax, 10h			; the PSP
	jc	.toobig
	mov	[image_paras], ax
	ret
.readerr:
	mov	dx, msg_readerr
	jmp	die
.badexe:
	mov	dx, msg_badexe
	jmp	die
.toobig:
	mov	dx, msg_toobig
	jmp	die

; fname with its extension replaced by .PRF.
make_prf_name:
	mov	si, fname
	mov	di, prf_name
	xor	bx, bx			; where the extension starts
.c:
	lodsb
	stosb
	cmp	al, '.'
	jne	.notdot
	mov	bx, di
.notdot:
	cmp	al, '\'
	je	.sep
	cmp	al, '/'
	je	.sep
	cmp	al, ':'
	jne	.notsep
.sep:
	xor	bx, bx
.notsep:
	or	al, al
	jnz	.c
	dec	di			; on the NUL
	or	bx, bx
	jz	.append
	mov	di, bx
	jmp	.ext
.append:
	mov	byte [di], '.'
	inc	di
.ext:
	mov	word [di], 'PR'
	mov	word [di + 2], 'F'	; 'F', NUL
	ret

; bucket_num = ceil(image_paras / bucket_siz); one paragraph of 32-bit
; counts per four buckets, zeroed.
alloc_counts:
	mov	ax, [image_paras]
	xor	dx, dx
	div	word [bucket_siz]
	or	dx, dx
	jz	.exact
	inc	ax
.exact:
	mov	[bucket_num], ax
	shr	ax, 2
	inc	ax
	mov	bx, ax
	mov	[cnt_paras], ax
	mov	ah, 48h
	int	21h
	jnc	.got
	mov	dx, msg_nomem
	jmp	die
.got:
	mov	[cnt_seg], ax
	mov	dx, ax
	mov	bx, [cnt_paras]
.zero:
	mov	es, dx
	xor	di, di
	mov	cx, bx
	cmp	cx, 800h		; 32 KiB at a time
	jbe	.z
	mov	cx, 800h
.z:
	sub	bx, cx
	add	dx, cx
	shl	cx, 3			; words
	xor	ax, ax
	rep	stosw
	or	bx, bx
	jnz	.zero
	push	cs
	pop	es
	ret

; The hit table: /H:n entries (HIT_DEFAULT without /H:, none with /H:0)
; in a block of their own, zeroed: all free.  Without /H: a table that
; does not fit is left out (the section then says capacity 0, and every
; sample is missed); one asked for by /H:n must fit.
alloc_hits:
	mov	ax, [hit_req]
	cmp	ax, 0FFFFh
	jne	.given
	mov	ax, HIT_DEFAULT
.given:
	or	ax, ax
	jz	.ret
	mov	byte [hit_on], 1
	mov	cx, ax
	mov	bx, ax			; paragraphs: ceil(8 * n / 16)
	inc	bx
	shr	bx, 1
	mov	ah, 48h
	int	21h
	jnc	.got
	cmp	word [hit_req], 0FFFFh
	je	.without
	mov	dx, msg_nomem
	jmp	die
.without:
	mov	dx, msg_nohits
	jmp	puts
.got:
	mov	[hit_seg], ax
	mov	[hit_cap], cx
	mov	es, ax
	xor	di, di
	xor	ax, ax
	push	cx
	shl	cx, 2			; words: at most 32768
	rep	stosw
	pop	cx
	push	cs
	pop	es
	mov	ax, cx
	shl	ax, 3
	mov	[hit_end], ax		; 8192 entries: 0, which add wraps to
	mov	ax, 1
.mask:
	cmp	ax, cx
	jae	.masked
	shl	ax, 1
	jmp	.mask
.masked:
	dec	ax
	mov	[hit_mask], ax
	mov	ax, HIT_PROBES
	cmp	cx, ax
	jae	.probes
	mov	ax, cx
.probes:
	mov	[hit_probes], ax
.ret:
	ret

; The command tail (" parameters" CR) and the two FCBs for EXEC.
build_tail:
	mov	di, tail + 1
	mov	cl, [args_len]
	xor	ch, ch
	jcxz	.empty
	mov	al, ' '
	stosb
	mov	si, args
	rep	movsb
.empty:
	mov	byte [di], 0Dh
	mov	ax, di
	sub	ax, tail + 1
	mov	[tail], al
	mov	si, tail + 1
	mov	di, fcb1
	mov	ax, 2901h
	int	21h
	mov	di, fcb2
	mov	ax, 2901h
	int	21h
	mov	[exec_tail + 2], cs
	mov	[exec_fcb1 + 2], cs
	mov	[exec_fcb2 + 2], cs
	ret

; ---------------------------------------------------------------------
; Initialised data.

hexdigits	db	'0123456789ABCDEF'
msg_usage	db	'usage: PROFIL [/B:paragraphs] [/C:microseconds] [/H:entries] fname.ext', 13, 10
		db	'              [parameters]', 13, 10
		db	'  /B: paragraphs per bucket (1-65535); /C: clock interval (50-54925)', 13, 10
		db	'  /H: hit table entries (0-8192, default 4096; 0: buckets only)', 13, 10
		db	'  Missing values are prompted for, and so are the parameters unless', 13, 10
		db	'  both switches are given or parameters follow the file name.', 13, 10, 0
msg_crlf	db	13, 10, 0
msg_ask_siz	db	'Paragraphs per bucket: ', 0
msg_ask_int	db	'Clock interval (microseconds, 50-54925): ', 0
msg_ask_args	db	'Program parameters: ', 0
msg_badnum	db	'Bad number', 13, 10, 0
msg_eof		db	'No more input', 0
msg_giveup	db	'Too many bad answers', 0
msg_range	db	'Switch value out of range', 0
msg_nomem	db	'Not enough memory', 0
msg_notfound	db	'File not found: ', 0
msg_readerr	db	'Cannot read the program file', 0
msg_badexe	db	'Bad EXE header', 0
msg_toobig	db	'Program too large', 0
msg_exec	db	'EXEC failure (error ', 0
msg_normal	db	'Program terminated normally (code ', 0
msg_tsr		db	'Program terminated and stayed resident (code ', 0
msg_rparen	db	')', 13, 10, 0
msg_ctrlc	db	'Program terminated by Ctrl-C', 13, 10, 0
msg_break	db	'Program terminated by Ctrl-Break', 13, 10, 0
msg_crit	db	'Program terminated by critical-error abort', 13, 10, 0
msg_taken	db	'Warning: the program took INT 08h and did not give it back;', 13, 10
		db	'  sampling stopped when it did; vector restored', 13, 10, 0
msg_nowrite	db	'Cannot write ', 0
msg_wrote	db	'Wrote ', 0
msg_samples	db	': ', 0
msg_io		db	' samples, io ', 0
msg_dos		db	', dos ', 0
msg_high	db	', high ', 0
msg_psp		db	'; program ', 0
msg_to		db	'-', 0
msg_hits	db	'Hit table: ', 0
msg_of		db	' of ', 0
msg_entries	db	' entries, ', 0
msg_missed	db	' missed', 0
msg_full	db	' (full)', 13, 10, 0
msg_nohits	db	'Not enough memory for the hit table: buckets only', 13, 10, 0

exec_blk	dw	0			; environment: a copy of ours
exec_tail	dw	tail, 0
exec_fcb1	dw	fcb1, 0
exec_fcb2	dw	fcb2, 0
exec_sssp	dd	0
exec_csip	dd	0

; The .PRF header (PROFIL's struct profdata), then the PV32 trailer.
hdr:
h_grain		dw	0
h_num		dw	0
h_siz		dw	0
h_low		dw	0
h_high_pa	dw	0
h_dos_pa	dw	0
h_io		dw	0
h_dos		dw	0
h_high		dw	0
trailer		db	'PV32'
		dw	1
t_flags		dw	0
t_total		dd	0
t_io		dd	0
t_dos		dd	0
t_high		dd	0
trailer_end:
hits_sec	db	'HITS'
hs_len		dd	0		; 12 + 8 * count
		dw	1		; version
hs_flags	dw	0		; bit 0: full, some sample missed
hs_cap		dw	0
hs_count	dw	0
hs_missed	dd	0
hits_sec_end:

hit_req		dw	0FFFFh		; /H:n; FFFFh: not given

; ---------------------------------------------------------------------
; Uninitialised data (still part of the file: a COM has no BSS).

interval	dw	0
total		dd	0
our_psp		dw	0
child_psp	dw	0
image_paras	dw	0
cnt_paras	dw	0
prf_handle	dw	0
hdr_got		dw	0
w0		dw	0
w1		dw	0
w2		dw	0
ask_lo		dw	0
ask_hi		dw	0
ask_msg		dw	0
exit_code	db	0
exit_type	db	0
taken08		db	0
prf_failed	db	0
sat16flag	db	0
hit_on		db	0		; write the HITS section
batch		db	0
tries		db	0
args_len	db	0
exehdr		times 28 db 0
numbuf		times 12 db 0
fname		times 128 db 0
prf_name	times 132 db 0
args		times 128 db 0
tail		times 130 db 0
fcb1		times 37 db 0
fcb2		times 37 db 0
inbuf		times 124 db 0
buf16		times 512 db 0

	alignb	2
stack		times STACK_BYTES db 0
stack_top:
prog_end:
