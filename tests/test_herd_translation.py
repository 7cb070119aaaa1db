# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the herd7 check's pieces (scripts/lkmm/): the lowering of x86_64, arm64, arm
and riscv64 machine code to herd7 code is checked by running herd7 on small threads written as
llvm-objdump prints them, with values (negative ones, wrap-around, addresses) where a wrong
lowering gives another final state; the control-flow layout, the herd7 output parser and
the test renderer on their own.

    python3 -m unittest tests/test_herd_translation.py   # needs herd7 (scripts/setup)
"""

import os
import sys
import tempfile
import time
import unittest
import unittest.mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
from lkmm import aarch64, arm, archtest, cfg, herd, riscv64, x86_64  # noqa: E402

try:
    herd.install()
    HAVE_HERD = True
except herd.HerdError:
    HAVE_HERD = False


# Per architecture: the translating module, herd7's syntax, its model, and the markers as
# llvm-objdump prints them.
ARCHS = {'arm64': (aarch64, archtest.AARCH64, 'aarch64.cat', ('hint', aarch64.IN_MARKER),
                   ('hint', aarch64.OUT_MARKER)),
         'arm': (arm, archtest.ARM, 'aarch32.cat', ('hint', arm.IN_MARKER),
                 ('hint', arm.OUT_MARKER)),
         'riscv64': (riscv64, archtest.RISCV64, 'riscv.cat', riscv64.IN_MARKER,
                     riscv64.OUT_MARKER),
         'x86_64': (x86_64, archtest.X86_64, 'x86tso-locked.cat',
                    tuple(x86_64.IN_MARKER.split(' ', 1)),
                    tuple(x86_64.OUT_MARKER.split(' ', 1)))}


def thread(arch, lines):
    """Instructions as llvm-objdump prints them between the two markers; `{N}` in an
    operand is the address of line N (a branch target)."""
    size = 4
    marker_in, marker_out = ARCHS[arch][3:]
    insns = [(0, *marker_in)]
    for n, line in enumerate(lines):
        mnem, _, ops = line.partition(' ')
        if mnem == 'lock':
            inner, _, ops = ops.partition(' ')
            mnem = f'lock {inner}'
        for k in range(len(lines) + 1):
            ops = ops.replace(f'{{{k}}}', f'0x{(k + 1) * size:x} <f+0x{(k + 1) * size:x}>')
        insns.append(((n + 1) * size, mnem, ops.strip()))
    insns.append(((len(lines) + 1) * size, *marker_out))
    return insns


def run(arch, lines, variables, observe):
    """Final values of the registers/locations `observe` after one thread of `lines`; the
    variables (name -> initial value, or 'addr:NAME') are in the entry registers in order."""
    test = {'name': 'T', 'path': 'T.litmus', 'vars': [], 'threads': [{'fn': 'f', 'regs': {}}],
            'quantifier': 'Exists', 'clause': {'op': 'const', 'value': True},
            'locations': [], 'result': None}
    for name, value in variables.items():
        if isinstance(value, str):
            test['vars'].append({'name': name, 'kind': 'ptr', 'init': {'addr': value[5:]}})
        else:
            test['vars'].append({'name': name, 'kind': 'int', 'init': {'int': value}})
    module, syntax, model = ARCHS[arch][:3]
    code = module.translate(thread(arch, lines), 0)
    text = archtest.render(test, syntax, [code], ['unit test'])
    text = text.replace('exists true', f'locations [{"; ".join(observe)};]\nexists true')
    states = [dict(s) for s in herd_states(text, model)]
    if len(states) != 1:
        raise AssertionError(f'{len(states)} final states for one thread:\n{text}')
    # herd7 computes with 32-bit values in these tests (its default machine size), as the
    # litmus tests' `int`s are: compare the low 32 bits.
    return {k: v & 0xffffffff if isinstance(v, int) else v for k, v in states[0].items()}


def run_threads(arch, threads, variables):
    """Every final state (a dict) herd7 allows for `threads` (lists of lines, as in run()),
    each thread's registers and the variables observed."""
    test = {'name': 'T', 'path': 'T.litmus', 'vars': [],
            'threads': [{'fn': f'f{k}', 'regs': {}} for k in range(len(threads))],
            'quantifier': 'Exists', 'clause': {'op': 'const', 'value': True},
            'locations': [], 'result': None}
    for name, value in variables.items():
        test['vars'].append({'name': name, 'kind': 'int', 'init': {'int': value}})
    module, syntax, model = ARCHS[arch][:3]
    code = [module.translate(thread(arch, lines), k) for k, lines in enumerate(threads)]
    text = archtest.render(test, syntax, code, ['unit test'])
    observe = [f'{k}:rax' for k in range(len(threads))] + list(variables)
    text = text.replace('exists true', f'locations [{"; ".join(observe)};]\nexists true')
    return [{k: v & 0xffffffff if isinstance(v, int) else v for k, v in dict(s).items()}
            for s in herd_states(text, model)]


def herd_states(text, model):
    """The final states herd7 allows for litmus test `text` under `model`."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'T.litmus')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return herd.run(path, ['-model', model, '-unroll', '0'], 60).states


def u32(value):
    return value & 0xffffffff


class HerdCrashTest(unittest.TestCase):
    def test_a_stack_overflow_is_exhaustion_not_an_error_of_the_code(self):
        # herd7 itself giving up on a large test (OCaml's stack) is not a state the code allows:
        # herd-check makes it a SKIP that says so, never a FAIL or a PASS.
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, 'herd7')
            with open(fake, 'w', encoding='utf-8') as f:
                f.write('#!/bin/sh\necho \'Fatal: File "T.litmus" Adios\' >&2\n'
                        'echo "Fatal error: exception Stack overflow" >&2\nexit 2\n')
            os.chmod(fake, 0o755)
            test = os.path.join(d, 'T.litmus')
            with open(test, 'w', encoding='utf-8') as f:
                f.write('X86_64 T\n')
            with unittest.mock.patch.dict(os.environ, {'HERD7': fake, 'HERD7_LIBDIR': d,
                                                       'HERD7_NO_CACHE': '1'}):
                with self.assertRaises(herd.Exhausted):
                    herd.run(test, [], 10)


@unittest.skipUnless(HAVE_HERD, 'herd7 is not built: run scripts/setup')
class X86LoweringTest(unittest.TestCase):
    def x86(self, lines, variables, observe):
        return run('x86_64', lines, variables, observe)

    def test_movslq_sign_extends_a_negative_load(self):
        s = self.x86(['movslq (%rdi), %rax'], {'x': -3}, ['0:rax'])
        self.assertEqual(s['0:rax'], u32(-3))

    def test_movl_zero_extends_and_sub_neg_wrap(self):
        s = self.x86(['movl $0x5, %eax', 'subl $0x7, %eax', 'movl $0x1, %ecx', 'negl %ecx',
                      'movq %rcx, %rdx'], {'x': 0}, ['0:rax', '0:rdx'])
        self.assertEqual(s['0:rax'], 0xfffffffe)
        self.assertEqual(s['0:rdx'], 0xffffffff)

    def test_lock_xadd_returns_the_old_value(self):
        s = self.x86(['movl $0x3, %eax', 'lock xaddl %eax, (%rdi)'], {'x': 5}, ['0:rax', 'x'])
        self.assertEqual((s['0:rax'], s['x']), (5, 8))

    def test_xchg_is_atomic(self):
        # Two exchanges of one variable: one reads the other's value, never both (the
        # lowering is herd7's locked cmpxchg loop).
        states = run_threads('x86_64', [['movl $0x1, %eax', 'xchgl %eax, (%rdi)'],
                                        ['movl $0x2, %eax', 'xchgl %eax, (%rdi)']], {'x': 0})
        pairs = {(s['0:rax'], s['1:rax']) for s in states}
        self.assertEqual(pairs, {(0, 1), (2, 0)})

    def test_herd7_reads_a_raw_xchg_as_no_atomic_operation(self):
        # Why xchg is lowered: herd7 7.58 itself, on `xchgl` and on `lock xchgl`, allows each
        # exchange to read the other's write (no rmw edge between its read and its write).
        for prefix in ('', 'lock '):
            text = ('X86_64 T\n{\n int x=0;\n 0:rdi=x; 1:rdi=x;\n 0:rax=1; 1:rax=2;\n}\n'
                    f' P0 | P1 ;\n {prefix}xchgl %eax,(%rdi) | {prefix}xchgl %eax,(%rdi) ;\n'
                    'exists (0:rax=2 /\\ 1:rax=1)\n')
            pairs = {(dict(s)['0:rax'], dict(s)['1:rax'])
                     for s in herd_states(text, 'x86tso-mixed.cat')}
            with self.subTest(prefix=prefix):
                self.assertIn((2, 1), pairs)

    def test_locked_model_keeps_each_locked_instruction_atomic(self):
        # herd7's x86tso-mixed.cat lets two `lock cmpxchg` each read the other's write (its
        # `internal` axiom misses the order of one instruction's read and write); the model the
        # check runs, scripts/lkmm/models/x86tso-locked.cat, forbids it: there, each reads the
        # initial 0 and fails, as on the machine.
        text = ('X86_64 T\n{\n int x=0;\n 0:rdi=x; 1:rdi=x;\n 0:rax=6; 0:rbx=5;\n'
                ' 1:rax=5; 1:rbx=6;\n}\n P0 | P1 ;\n'
                ' lock cmpxchgl (%rdi),%ebx | lock cmpxchgl (%rdi),%ebx ;\n'
                'exists (0:rax=6 /\\ 1:rax=5 /\\ x=5)\n')
        both = {(6, 5, 5)}

        def outcomes(model):
            return {(dict(s)['0:rax'], dict(s)['1:rax'], dict(s)['x'])
                    for s in herd_states(text, model)}
        self.assertLessEqual(both, outcomes('x86tso-mixed.cat'))
        self.assertEqual(outcomes('x86tso-locked.cat'), {(0, 0, 0)})

    def test_cmpxchg_success_and_failure_with_sete(self):
        ok = self.x86(['movl $0x5, %eax', 'movl $0x9, %ecx', 'lock cmpxchgl %ecx, (%rdi)',
                       'sete %dl'], {'x': 5}, ['0:rdx', 'x'])
        self.assertEqual((ok['0:rdx'] & 0xff, ok['x']), (1, 9))
        bad = self.x86(['movl $0x4, %eax', 'movl $0x9, %ecx', 'lock cmpxchgl %ecx, (%rdi)',
                        'movl %eax, %esi', 'sete %dl'], {'x': 5}, ['0:rdx', '0:rsi', 'x'])
        self.assertEqual((bad['0:rdx'] & 0xff, bad['0:rsi'], bad['x']), (0, 5, 5))

    def test_dec_and_test_and_add_negative(self):
        s = self.x86(['lock decl (%rdi)', 'sete %al', 'movl $0xfffffffe, %ecx',
                      'lock addl %ecx, (%rsi)', 'sets %dl'], {'x': 1, 'y': 1},
                     ['0:rax', '0:rdx', 'x', 'y'])
        self.assertEqual((s['0:rax'] & 0xff, s['x']), (1, 0))
        self.assertEqual(s['0:rdx'] & 0xff, 1)
        self.assertEqual(s['y'] & 0xffffffff, 0xffffffff)

    def test_js_after_dec_of_zero(self):
        s = self.x86(['movl (%rdi), %ecx', 'decl %ecx', 'js {4}', 'movl $0x7, %eax',
                      'nop'], {'x': 0}, ['0:rax'])
        self.assertEqual(s['0:rax'], 0)

    def test_cmp_with_a_negative_immediate(self):
        s = self.x86(['movl (%rdi), %ecx', 'cmpl $-0x2, %ecx', 'je {4}', 'movl $0x7, %eax',
                      'nop'], {'x': -2}, ['0:rax'])
        self.assertEqual(s['0:rax'], 0)

    def test_signed_and_unsigned_comparisons(self):
        lines = ['movl (%rdi), %edi', 'movl $0x1, %esi', 'cmpl %esi, %edi', 'setl %al',
                 'setb %cl', 'setg %dl', 'seta %r8b']
        s = self.x86(lines, {'x': -1}, ['0:rax', '0:rcx', '0:rdx', '0:r8'])
        # -1 < 1 signed; 0xffffffff > 1 unsigned.
        self.assertEqual([s[r] & 0xff for r in ('0:rax', '0:rcx', '0:rdx', '0:r8')],
                         [1, 0, 0, 1])

    def test_pointer_null_test_with_sbb(self):
        null = self.x86(['movq (%rdi), %rax', 'cmpq $0x1, %rax', 'sbbl %edx, %edx'],
                        {'p': 0}, ['0:rdx'])
        self.assertEqual(null['0:rdx'], 0xffffffff)
        live = self.x86(['movq (%rdi), %rax', 'cmpq $0x1, %rax', 'sbbl %edx, %edx'],
                        {'p': 'addr:y', 'y': 0}, ['0:rdx'])
        self.assertEqual(live['0:rdx'], 0)

    def test_adc_adds_the_carry_of_a_comparison(self):
        # `x + (r == 0)` as LLVM writes it: cmp $1 sets the carry exactly when r is 0.
        code = ['movslq (%rdi), %rdi', 'xorl %eax, %eax', 'cmpq $0x1, %rdi', 'adcl $0x1, %eax',
                'movl $0x5, %ecx', 'cmpl %ecx, %eax', 'adcl %eax, %ecx']
        zero = self.x86(code, {'x': 0}, ['0:rax', '0:rcx'])
        self.assertEqual((zero['0:rax'], zero['0:rcx']), (2, 8))   # 5 + 2 + (2 < 5)
        other = self.x86(code, {'x': -1}, ['0:rax', '0:rcx'])
        self.assertEqual((other['0:rax'], other['0:rcx']), (1, 7))  # 5 + 1 + (1 < 5)

    def test_locked_and_or_and_plain_memory_rmw(self):
        s = self.x86(['movl $0x3, %eax', 'lock andl %eax, (%rdi)', 'lock orl $0x8, (%rsi)',
                      'addl $0x2, (%rdx)', 'incl (%rdx)'], {'x': 6, 'y': 1, 'z': 1},
                     ['x', 'y', 'z'])
        self.assertEqual((s['x'], s['y'], s['z']), (2, 9, 4))

    def test_test_and_movzbl_and_lea(self):
        s = self.x86(['movl (%rdi), %eax', 'testl %eax, %eax', 'setne %cl', 'movzbl %cl, %edx',
                      'leal 0x5(%rax), %esi'], {'x': 4}, ['0:rdx', '0:rsi'])
        self.assertEqual((s['0:rdx'], s['0:rsi']), (1, 9))

    def test_smp_mb_is_a_fence_and_the_unlocked_one_nothing(self):
        code = x86_64.translate(thread('x86_64', ['lock addl $0x0, -0x4(%rsp)',
                                                  'addl $0x0, -0x4(%rsp)']), 0)
        self.assertEqual([c for c in code if not c.endswith(':')], ['mfence'])

    def test_refusals_name_what(self):
        for lines, what in ((['callq 0x0 <f>'], 'a call'),
                            (['movl %eax, 0x8(%rsp)'], 'stack'),
                            (['imull %eax, %ecx'], 'no herd7 model'),
                            (['movl 0x4(%rdi), %eax'], '(%reg) addressing')):
            with self.assertRaises(aarch64.Unrepresentable) as e:
                x86_64.translate(thread('x86_64', lines), 0)
            self.assertIn(what, str(e.exception))


@unittest.skipUnless(HAVE_HERD, 'herd7 is not built: run scripts/setup')
class Arm64TranslationTest(unittest.TestCase):
    def arm(self, lines, variables, observe):
        return run('arm64', lines, variables, observe)

    def test_ldrsw_cmn_and_a_backward_jump_that_is_no_loop(self):
        # The success path jumps back to an earlier block once: the layout must make it a
        # forward jump, or -unroll 0 would discard the only execution.
        lines = ['ldrsw x8, [x0]', 'b {4}', 'mov w9, #0x7', 'b {6}',
                 'cmn w8, #0x2', 'b.eq {2}', 'nop']
        s = self.arm(lines, {'x': -2}, ['0:X8', '0:X9'])
        self.assertEqual((s['0:X8'], s['0:X9']), (u32(-2), 7))

    def test_ll_sc_loop_and_lse(self):
        s = self.arm(['mov w9, #0x2', 'prfm pstl1strm, [x0]', 'ldxr w8, [x0]',
                      'add w10, w8, w9', 'stlxr w11, w10, [x0]', 'cbnz w11, {2}',
                      'dmb ish', 'ldaddal w9, w12, [x1]'], {'x': 1, 'y': 5},
                     ['x', 'y', '0:X8', '0:X12'])
        self.assertEqual((s['x'], s['y'], s['0:X8'], s['0:X12']), (3, 7, 1, 5))

    def test_refusals_name_what(self):
        for lines, what in ((['bl 0x0 <f>'], 'a call'),
                            (['str w8, [sp, #0x8]'], 'stack'),
                            (['ldr w8, [x0, #0x4]'], '[Xn]'),
                            (['ccmp x8, #0x0, #0x4, eq'], 'no herd7 model')):
            with self.assertRaises(aarch64.Unrepresentable) as e:
                aarch64.translate(thread('arm64', lines), 0)
            self.assertIn(what, str(e.exception))


@unittest.skipUnless(HAVE_HERD, 'herd7 is not built: run scripts/setup')
class ArmTranslationTest(unittest.TestCase):
    def arm(self, lines, variables, observe):
        return run('arm', lines, variables, observe)

    def two_threads(self, name, p0, p1, clause, model):
        """The C test's states of a two-thread test of ARM code on x and y (r0 and r1 hold
        their addresses at the start, the C registers r0 and r1 are in r0 and r1 at the end),
        with `clause` (a list of (thread, register, value)) under `model`."""
        regs = {'r0': {'index': 0, 'kind': 'int'}, 'r1': {'index': 1, 'kind': 'int'}}
        test = {'name': name, 'vars': [{'name': 'x', 'kind': 'int', 'init': {'int': 0}},
                                       {'name': 'y', 'kind': 'int', 'init': {'int': 0}}],
                'threads': [{'fn': 'p0', 'regs': regs}, {'fn': 'p1', 'regs': regs}],
                'quantifier': 'Exists', 'locations': [],
                'clause': {'op': 'and', 'args': [
                    {'atom': {'thread': t, 'name': r}, 'value': ['int', v]}
                    for t, r, v in clause]}}
        code = [arm.translate(thread('arm', p0), 0), arm.translate(thread('arm', p1), 1)]
        text = archtest.render(test, archtest.ARM, code, ['unit test'])
        return {archtest.c_names(s, test, archtest.ARM) for s in herd_states(text, model)}

    def test_exclusive_loops_and_the_lowerings(self):
        # C's cmpxchg: strexeq and teq as herd7 reads them; mvn of an immediate.
        lines = ['mov r1, #0x9', 'mov r2, #0x5', 'pldw [r0]', 'ldrex r3, [r0]', 'mov r4, #0',
                 'teq r3, r2', 'strexeq r4, r1, [r0]', 'teq r4, #0', 'bne {3}', 'mvn r5, #0x1']
        s = self.arm(lines, {'x': 5}, ['x', '0:R3', '0:R5'])
        self.assertEqual((s['x'], s['0:R3'], s['0:R5']), (9, 5, u32(-2)))
        s = self.arm(lines, {'x': 7}, ['x', '0:R3'])
        self.assertEqual((s['x'], s['0:R3']), (7, 7))

    def test_a_predicated_movw_is_a_predicated_mov(self):
        # `x == 0 ? 2 : 1` as clang writes it for ARMv7 C (C-IngoMolnar, LB-ctls-*), where
        # rustc writes `moveq`: one lowering for both.
        for mnem in ('movweq', 'moveq'):
            lines = ['ldr r2, [r0]', 'mov r3, #0x1', 'cmp r2, #0', f'{mnem} r3, #0x2']
            self.assertIn('MOVEQ R3,#2', arm.translate(thread('arm', lines), 0))
            self.assertEqual(self.arm(lines, {'x': 0}, ['0:R3'])['0:R3'], 2)
            self.assertEqual(self.arm(lines, {'x': 5}, ['0:R3'])['0:R3'], 1)

    def test_dmb_ishst_orders_stores(self):
        # MP with dmb ishst between the stores and dmb ish between the loads: forbidden; as
        # herd7 reads `DMB ISHST` (no barrier) it would not be: the lowering to DMB ST counts.
        weak = frozenset({('1:r0', 1), ('1:r1', 0)})
        p0 = ['mov r2, #0x1', 'str r2, [r0]', 'dmb ishst', 'str r2, [r1]']
        p1 = ['ldr r2, [r1]', 'dmb ish', 'ldr r3, [r0]', 'mov r0, r2', 'mov r1, r3']
        clause = [(1, 'r0', 1), (1, 'r1', 0)]
        states = self.two_threads('MP', p0, p1, clause, 'aarch32.cat')
        self.assertNotIn(weak, {frozenset((k, v) for k, v in st if k.startswith('1:'))
                                for st in states})
        p0[2] = 'nop'
        states = self.two_threads('MP', p0, p1, clause, 'aarch32.cat')
        self.assertIn(weak, {frozenset((k, v) for k, v in st if k.startswith('1:'))
                             for st in states})

    def test_a_predicated_store_is_ordered_after_its_load(self):
        # LB+fencembonceonce+ctrlonceonce as compiled (cmp; movne; strne): forbidden under
        # aarch32.cat, the model used; arm.cat allows it (why it is not the model used).
        p0 = ['ldr r2, [r0]', 'cmp r2, #0', 'movne r3, #1', 'strne r3, [r1]', 'mov r0, r2']
        p1 = ['ldr r2, [r1]', 'mov r3, #1', 'dmb ish', 'str r3, [r0]', 'mov r0, r2']
        clause = [(0, 'r0', 1), (1, 'r0', 1)]
        weak = {('0:r0', 1), ('1:r0', 1)}
        seen = {m: any(weak <= set(st) for st in
                       self.two_threads('LB', p0, p1, clause, m))
                for m in ('aarch32.cat', 'arm.cat')}
        self.assertEqual(seen, {'aarch32.cat': False, 'arm.cat': True})

    def test_refusals_name_what(self):
        for lines, what in ((['bl 0x0 <f>'], 'a call'),
                            (['str r2, [sp, #0x8]'], 'stack'),
                            (['ldr r2, [r0, #0x4]'], '[Rn]'),
                            (['ldrexd r2, r3, [r0]'], 'no herd7'),
                            (['and r2, r2, r1'], 'no herd7'),
                            (['cmp r2, #0', 'bmi {0}'], 'eq/ne'),
                            (['dmb oshld'], 'no barrier')):
            with self.assertRaises(arm.Unrepresentable) as e:
                arm.translate(thread('arm', lines), 0)
            self.assertIn(what, str(e.exception))


@unittest.skipUnless(HAVE_HERD, 'herd7 is not built: run scripts/setup')
class Riscv64TranslationTest(unittest.TestCase):
    def rv(self, lines, variables, observe):
        return run('riscv64', lines, variables, observe)

    def message_passing(self, writer, reader):
        """The C test's states of MP with two threads of riscv64 code: P0 writes x then y,
        P1 reads y into r0 and then x into r1 (a0 and a1 at the end)."""
        regs = {'r0': {'index': 0, 'kind': 'int'}, 'r1': {'index': 1, 'kind': 'int'}}
        test = {'name': 'MP', 'vars': [{'name': 'x', 'kind': 'int', 'init': {'int': 0}},
                                       {'name': 'y', 'kind': 'int', 'init': {'int': 0}}],
                'threads': [{'fn': 'p0', 'regs': {}}, {'fn': 'p1', 'regs': regs}],
                'quantifier': 'Exists', 'locations': [],
                'clause': {'op': 'and', 'args': [
                    {'atom': {'thread': 1, 'name': 'r0'}, 'value': ['int', 1]},
                    {'atom': {'thread': 1, 'name': 'r1'}, 'value': ['int', 0]}]}}
        code = [riscv64.translate(thread('riscv64', writer), 0),
                riscv64.translate(thread('riscv64', reader), 1)]
        text = archtest.render(test, archtest.RISCV64, code, ['unit test'])
        self.assertIn('exists (1:x10=1 /\\ 1:x11=0)', text)
        return {archtest.c_names(s, test, archtest.RISCV64) for s in
                herd_states(text, 'riscv.cat')}

    def test_message_passing_with_fences_and_without(self):
        weak = frozenset({('1:r0', 1), ('1:r1', 0)})
        writer = ['li a2, 0x1', 'sw a2, 0x0(a0)', 'fence rw, w', 'sw a2, 0x0(a1)']
        reader = ['lw a2, 0x0(a1)', 'fence r, rw', 'lw a3, 0x0(a0)', 'mv a0, a2',
                  'mv a1, a3']
        states = self.message_passing(writer, reader)
        self.assertEqual(len(states), 3)
        self.assertNotIn(weak, states)
        # The negative case: without the fences riscv.cat allows it, so the check can fail.
        states = self.message_passing([w for w in writer if w != 'fence rw, w'],
                                      [r for r in reader if r != 'fence r, rw'])
        self.assertIn(weak, states)

    def test_32_bit_values_sign_extend_as_the_hardware(self):
        # herd7's lw zero-extends, its lui and addiw do not sign-extend: each branch below
        # is taken (and skips a `li`) only with the lowering's extensions.
        s = self.rv(['lw a5, 0x0(a0)', 'bltz a5, {3}', 'li a6, 0x7',
                     'lwu a4, 0x0(a0)', 'bgez a4, {6}', 'li a7, 0x7',
                     'lui a3, 0x80000', 'bltz a3, {9}', 'li a2, 0x7',
                     'li a1, -0x1', 'slli a1, a1, 0x1f', 'addiw a1, a1, -0x1', 'bgtz a1, {14}',
                     'li t0, 0x7', 'nop'],
                    {'x': -3}, ['0:x15', '0:x16', '0:x17', '0:x12', '0:x5'])
        self.assertEqual([s[r] for r in ('0:x15', '0:x16', '0:x17', '0:x12', '0:x5')],
                         [u32(-3), 0, 0, 0, 0])

    def test_srliw_and_a_sext_w_of_what_is_sign_extended_already(self):
        s = self.rv(['lw a7, 0x0(a0)', 'srliw a2, a7, 0x1f', 'srliw a3, a7, 0x0',
                     'srliw a4, a7, 0x4'], {'x': -3}, ['0:x12', '0:x13', '0:x14'])
        self.assertEqual((s['0:x12'], s['0:x13'], s['0:x14']), (1, u32(-3), 0xfffffff))
        # lr.w's result is sign-extended (the lowering's own sext.w): the compiler's sext.w
        # of it on both paths into the join is left out; one after lwu is not.
        code = riscv64.translate(thread('riscv64', [
            'lr.w a4, (a0)', 'bnez a4, {3}', 'sc.w a5, a4, (a0)', 'sext.w a4, a4',
            'lwu a3, 0x0(a0)', 'sext.w a3, a3']), 0)
        self.assertEqual([c for c in code if c.startswith('sext.w')],
                         ['sext.w x14,x14', 'sext.w x13,x13'])

    def test_seqz_snez_and_the_scratch_register(self):
        lines = ['lw a5, 0x0(a0)', 'seqz a6, a5', 'snez a7, a5', 'seqz a5, a5']
        for value, expect in ((0, (1, 0, 1)), (-3, (0, 1, 0))):
            s = self.rv(lines, {'x': value}, ['0:x16', '0:x17', '0:x15'])
            self.assertEqual((s['0:x16'], s['0:x17'], s['0:x15']), expect)

    def test_lr_sc_loop_and_amo(self):
        s = self.rv(['li a2, 0x2', 'lr.w a3, (a0)', 'add a4, a3, a2', 'sc.w.rl a5, a4, (a0)',
                     'bnez a5, {1}', 'fence rw, rw', 'amoadd.w.aqrl a6, a2, (a1)',
                     'amoadd.w zero, a2, (a1)'], {'x': 1, 'y': 5},
                    ['x', 'y', '0:x13', '0:x16'])
        self.assertEqual((s['x'], s['y'], s['0:x13'], s['0:x16']), (3, 9, 1, 5))

    def test_a_backward_jump_that_is_no_loop_and_branch_aliases(self):
        lines = ['lw a5, 0x0(a0)', 'j {4}', 'li a6, 0x7', 'j {6}',
                 'ble a5, zero, {2}', 'nop', 'nop']
        s = self.rv(lines, {'x': -2}, ['0:x15', '0:x16'])
        self.assertEqual((s['0:x15'], s['0:x16']), (u32(-2), 7))
        code = riscv64.translate(thread('riscv64', lines), 0)
        self.assertIn('bge x0,x15,L0_3', code)  # ble swaps its operands
        self.assertNotIn('li x0,120', code)     # the markers are left out

    def test_refusals_name_what(self):
        for lines, what in ((['auipc ra, 0x0', 'jalr ra'], 'a call'),
                            (['sd a0, 0x8(sp)'], 'stack'),
                            (['lw a0, 0x4(a1)'], '0(rs)'),
                            (['amocas.w a0, a1, (a2)'], 'amocas'),
                            (['amoadd.b a0, a1, (a2)'], 'Zabha'),
                            (['lbu a0, 0x0(a1)'], 'byte'),
                            (['bltu a0, a1, {0}'], 'unsigned'),
                            (['mul a0, a1, a2'], 'no herd7 model')):
            with self.assertRaises(aarch64.Unrepresentable) as e:
                riscv64.translate(thread('riscv64', lines), 0)
            self.assertIn(what, str(e.exception))


class LayoutTest(unittest.TestCase):
    @staticmethod
    def flows(spec):
        return lambda i: spec[i]

    def test_reverse_postorder_makes_only_loop_edges_backward(self):
        # 0 -> 3 (jump), 1: loop head, 2 -> 1 (loop back edge), 3 -> 1 (forward in RPO).
        spec = {0: (False, 3), 1: (True, None), 2: (True, 1), 3: (False, 1), 4: (False, None)}
        blocks = cfg.layout(5, 0, self.flows(spec))
        order = [b.start for b in blocks]
        self.assertEqual(order, [0, 3, 1])          # block 1 is instructions 1 and 2
        self.assertEqual(blocks[2].insns, [1, 2])
        self.assertEqual(blocks[2].successors, [1, 3])  # back edge to itself, fall-through

    def test_irreducible_loop_is_refused(self):
        # 0 branches into the middle of the loop 1 <-> 2.
        spec = {0: (True, 2), 1: (True, None), 2: (True, 1), 3: (False, None)}
        with self.assertRaises(cfg.Irreducible):
            cfg.layout(4, 0, self.flows(spec))


class ParseAndRenderTest(unittest.TestCase):
    def test_parse_states_and_observation(self):
        out = ('Test T Allowed\nStates 2\n0:r0=1; [x]=-1;\n0:r0=0; [x]=y;\nOk\nWitnesses\n'
               'Positive: 1 Negative: 1\nFlag data-race\nCondition exists (0:r0=1)\n'
               'Observation T Sometimes 1 1\n')
        r = herd.parse(out, 'Warning: File "T": unrolling limit exceeded at L0, ...')
        self.assertEqual(r.states, {frozenset({('0:r0', 1), ('x', -1)}),
                                    frozenset({('0:r0', 0), ('x', 'y')})})
        self.assertEqual((r.verdict, r.positive, r.negative, r.flags), ('Sometimes', 1, 1,
                                                                         ['data-race']))
        self.assertTrue(r.unrolled)

    def test_condition_names_registers_where_the_thread_ends(self):
        test = {'threads': [{'regs': {'r0': {'index': 0, 'kind': 'int'},
                                      'r1': {'index': 1, 'kind': 'ptr'}}}]}
        prop = {'op': 'and', 'args': [{'atom': {'thread': 0, 'name': 'r1'},
                                       'value': ['name', 'x']},
                                      {'op': 'not', 'args': [{'atom': {'thread': None,
                                                                       'name': 'y'},
                                                              'value': ['int', 0]}]}]}
        regs = archtest.register_map(test, archtest.X86_64)
        self.assertEqual(archtest.condition(prop, regs), '(0:rsi=x /\\ ~(y=0))')
        self.assertEqual(archtest.register_map(test, archtest.AARCH64)['0:r0'], '0:X0')



class HerdCache(unittest.TestCase):
    """herd7's output is reused only for the same inputs: a change of the test, the options,
    the binary, the model library or the run directory must miss (scripts/lkmm/herd.py)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.files = {}
        for name, text in (('herd7', 'binary'), ('lib/x86.cat', 'model'),
                           ('test.litmus', 'test'), ('run/linux-kernel.cfg', 'cfg')):
            path = os.path.join(d, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
            self.files[name] = path
        herd._tree_digest.cache_clear()

    def tearDown(self):
        self.tmp.cleanup()
        herd._tree_digest.cache_clear()

    def key(self, options=('-model', 'x86.cat')):
        herd._tree_digest.cache_clear()
        f = self.files
        return herd.cache_key(f['herd7'], os.path.dirname(f['lib/x86.cat']), options,
                              f['test.litmus'], os.path.dirname(f['run/linux-kernel.cfg']))

    def test_same_inputs_same_key(self):
        self.assertEqual(self.key(), self.key())

    def test_every_input_changes_the_key(self):
        base = self.key()
        self.assertNotEqual(base, self.key(options=('-model', 'x86.cat', '-unroll', '0')))
        for name in self.files:
            with self.subTest(changed=name):
                with open(self.files[name], 'a', encoding='utf-8') as f:
                    f.write(' changed')
                self.assertNotEqual(base, self.key())
                base = self.key()

    @unittest.skipUnless(HAVE_HERD, 'herd7 is not built (scripts/setup)')
    def test_reused_output_is_the_same(self):
        test = os.path.join(self.tmp.name, 'SB.litmus')
        with open(test, 'w', encoding='utf-8') as f:
            f.write('X86_64 SB\n{\n int x=0;\n int y=0;\n 0:rdi=x; 0:rsi=y;\n'
                    ' 1:rdi=x; 1:rsi=y;\n}\n'
                    ' P0              | P1              ;\n'
                    ' movl $1,(%rdi)  | movl $1,(%rsi)  ;\n'
                    ' movl (%rsi),%eax | movl (%rdi),%eax ;\n'
                    'exists (0:rax=0 /\\ 1:rax=0)\n')
        with unittest.mock.patch.object(herd, 'CACHE', os.path.join(self.tmp.name, 'cache')):
            first = herd.run(test, ['-model', 'x86tso-mixed.cat'], 60)
            second = herd.run(test, ['-model', 'x86tso-mixed.cat'], 60)
        self.assertFalse(first.reused)
        self.assertTrue(second.reused)
        self.assertEqual(first.states, second.states)
        self.assertEqual(first.verdict, second.verdict)

    def fake_herd7(self, body):
        """A stand-in herd7 (a shell script) that the cache runs (HERD7, HERD7_LIBDIR)."""
        path = os.path.join(self.tmp.name, 'fake-herd7')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(f'#!/bin/sh\n{body}\n')
        os.chmod(path, 0o755)
        return {'HERD7': path, 'HERD7_LIBDIR': os.path.dirname(self.files['lib/x86.cat'])}

    def timed_run(self):
        start = time.time()
        with self.assertRaises(herd.Timeout):
            herd.run(self.files['test.litmus'], [], 1)
        return time.time() - start

    def test_a_timeout_on_the_cpu_is_reused(self):
        env = self.fake_herd7('while :; do :; done')
        # A low share: the spinning stand-in gets less than a whole CPU on a loaded machine
        # (a test run beside other work); the sleeping one below gets none.
        with unittest.mock.patch.dict(os.environ, env), \
                unittest.mock.patch.object(herd, 'TIMEOUT_CPU_SHARE', 0.2), \
                unittest.mock.patch.object(herd, 'CACHE', os.path.join(self.tmp.name, 'cache')):
            self.assertGreaterEqual(self.timed_run(), 1)
            self.assertLess(self.timed_run(), 0.5)

    def test_a_timeout_of_a_loaded_machine_is_not(self):
        # Sleeping uses no CPU: as if the machine, not the test, had taken the time.
        env = self.fake_herd7('exec sleep 5')
        with unittest.mock.patch.dict(os.environ, env), \
                unittest.mock.patch.object(herd, 'TIMEOUT_CPU_SHARE', 0.2), \
                unittest.mock.patch.object(herd, 'CACHE', os.path.join(self.tmp.name, 'cache')):
            self.assertGreaterEqual(self.timed_run(), 1)
            self.assertGreaterEqual(self.timed_run(), 1)


if __name__ == '__main__':
    unittest.main()
