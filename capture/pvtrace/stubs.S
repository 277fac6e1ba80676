/*
 * The agent's entry and exit stubs.  A patched function's first bytes
 * jump to its trampoline, which holds the function's index just before
 * a call of pvt_entry through a pointer; pvt_entry saves every
 * caller-saved general register (the fast path in rt.c uses no others),
 * lets pvt_enter_jump record the entry and swap the return address for
 * the trampoline's landing, and returns into the trampoline, which puts
 * the landing on the return stack buffer and runs the displaced
 * instructions.  When the function returns it lands there (predicted),
 * and the landing jumps to pvt_exit_ret, which asks pvt_leave for the
 * real return address and returns there (predicted too: the caller's
 * entry is on top now) with rax, rdx and every vector register as the
 * function left them.  A function entered by a trap returns to pvt_exit
 * instead, the same but for its last jump.
 *
 * Both align the stack themselves: a function may be entered with any
 * alignment (hand-written code, _start), and the C code needs 16 bytes.
 *
 * The thread is "in the agent" from the trampoline's first instruction
 * to the last before the displaced code, and from the landing to the
 * exit's ret: the sampler charges those looks to the probe, not to the
 * program (the C code's own marks end before the stubs do, which mark
 * again).  The flag is the thread's pvt_t.inagent, in its TLS.  No
 * register may change, not even a scratch one: with -fipa-ra, GCC keeps
 * values in caller-saved registers across a call to a function it knows
 * leaves them alone.  The flags are free (a call clobbers them).
 */
#define PVT_THREAD_INAGENT 0	/* pvtrace.h's; rt.c checks it */
/* The caller-saved general registers: 72 bytes below %rbp. */
	.macro	SAVE
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	.endm
	.macro	RESTORE
	leaq	-72(%rbp), %rsp
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	.endm

/* pvt_t.inagent = v, through a scratch register. */
	.macro	INAGENT v, reg
	movq	pvt_t@gottpoff(%rip), \reg	/* initial-exec TLS */
	movl	$\v, %fs:PVT_THREAD_INAGENT(\reg)
	.endm

	.text

	.globl	pvt_entry
	.hidden	pvt_entry
	.type	pvt_entry, @function
pvt_entry:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	movq	%rsp, %rbp
	SAVE
	leaq	8(%rbp), %rdi		/* the trampoline's return address */
	andq	$-16, %rsp
	call	pvt_enter_jump
	INAGENT	1, %rax
	RESTORE
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret				/* the trampoline clears the flag */
	.cfi_endproc
	.size	pvt_entry, .-pvt_entry

/*
 * The exits' common part: the real return address left at (%rsp).  A
 * landing has set the flag already; a trap's return has not.
 */
	.macro	LEAVE mark
	pushq	%rax			/* room for the real return address */
	pushq	%rbp
	movq	%rsp, %rbp
	SAVE
	.if	\mark
	INAGENT	1, %rcx
	.endif
	leaq	16(%rbp), %rdi		/* the stack pointer after the ret */
	andq	$-16, %rsp
	call	pvt_leave
	movq	%rax, 8(%rbp)
	INAGENT	1, %rcx
	RESTORE
	popq	%rbp
	pushq	%rax
	/*
	 * The caller's code after the return starts once the exit has
	 * finished, not in its shadow, where a look would find the
	 * thread still in the probe: without it a caller of many traced
	 * functions (SQLite's sqlite3VdbeExec) lost a point or two of the
	 * program to the probe.  The flag's store waits for the load of
	 * its address, so the pipeline's restart is the probe's too.
	 */
	lfence
	INAGENT	0, %rax
	popq	%rax
	.endm

	.globl	pvt_exit_ret
	.hidden	pvt_exit_ret
	.type	pvt_exit_ret, @function
pvt_exit_ret:
	LEAVE	0
	ret
	.size	pvt_exit_ret, .-pvt_exit_ret

	.globl	pvt_exit
	.hidden	pvt_exit
	.type	pvt_exit, @function
pvt_exit:
	LEAVE	1
	/*
	 * Not ret: the function's own ret (here, no landing having been
	 * pushed for a trap) took the caller's entry of the return stack
	 * buffer, and a ret would take the one below,
	 * the wrong one, and leave every return above mispredicted.  The
	 * jump reads the real return address where the ret would have, in
	 * the red zone now, which a signal frame never overwrites and the
	 * caller (it made a call) keeps nothing in.
	 */
	leaq	8(%rsp), %rsp
	jmp	*-8(%rsp)
	.size	pvt_exit, .-pvt_exit

/*
 * long pvt_xcall(long (*fn)(void *), void *arg): fn(arg) with the whole
 * extended register state (x87, SSE, AVX, AVX-512, masks) saved around
 * it by xsave, for slow paths that call into the C library from a stub.
 * pvt_xsave_size is the XSAVE area size for the enabled features (CPUID
 * 0Dh), set at start; 0 means no XSAVE: fxsave (x87 and SSE) instead.
 */
	.globl	pvt_xcall
	.hidden	pvt_xcall
	.type	pvt_xcall, @function
pvt_xcall:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r12
	movq	%rdi, %rbx
	movq	%rsi, %r12
	movl	pvt_xsave_size(%rip), %eax
	testl	%eax, %eax
	jz	1f
	subq	%rax, %rsp
	andq	$-64, %rsp
	xorl	%eax, %eax
	movq	%rax, 512(%rsp)		/* the XSAVE header must be zero */
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	$-1, %eax
	movl	$-1, %edx
	xsave64	(%rsp)
	movq	%r12, %rdi
	call	*%rbx
	movq	%rax, %r12
	movl	$-1, %eax
	movl	$-1, %edx
	xrstor64 (%rsp)
	jmp	2f
1:	subq	$512, %rsp
	andq	$-64, %rsp
	fxsave64 (%rsp)
	movq	%r12, %rdi
	call	*%rbx
	movq	%rax, %r12
	fxrstor64 (%rsp)
2:	movq	%r12, %rax
	leaq	-16(%rbp), %rsp
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	pvt_xcall, .-pvt_xcall

/*
 * Calibration: pvt_cal_loop(n, fn) calls fn n times.  pvt_cal_leaf is a
 * function whose first instruction (a 5-byte nop) is displaced to a
 * trampoline like any planned function's; pvt_cal_trapped starts with
 * the int3 a trapped function gets, standing for a 1-byte nop.
 */
	.globl	pvt_cal_loop
	.hidden	pvt_cal_loop
	.type	pvt_cal_loop, @function
pvt_cal_loop:
	.cfi_startproc
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	movq	%rdi, %rbx
	movq	%rsi, %r12
	testq	%rbx, %rbx
	jz	2f
1:	call	*%r12
	decq	%rbx
	jnz	1b
2:	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	pvt_cal_loop, .-pvt_cal_loop

	.globl	pvt_cal_leaf
	.hidden	pvt_cal_leaf
	.type	pvt_cal_leaf, @function
	.p2align 4
pvt_cal_leaf:
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	ret
	.size	pvt_cal_leaf, .-pvt_cal_leaf

/*
 * pvt_cal_mid calls through pvt_cal_leafp twice: a traced function calling
 * traced functions, the pattern the calibration measures (see agent.c).
 */
	.globl	pvt_cal_mid
	.hidden	pvt_cal_mid
	.type	pvt_cal_mid, @function
	.p2align 4
pvt_cal_mid:
	.cfi_startproc
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	call	*pvt_cal_leafp(%rip)
	call	*pvt_cal_leafp(%rip)
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	pvt_cal_mid, .-pvt_cal_mid

	.globl	pvt_cal_trapped
	.hidden	pvt_cal_trapped
	.type	pvt_cal_trapped, @function
	.p2align 4
pvt_cal_trapped:
	int3
	ret
	.size	pvt_cal_trapped, .-pvt_cal_trapped

	.section .note.GNU-stack, "", @progbits
