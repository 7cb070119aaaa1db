# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the herd7 check's pieces (scripts/lkmm/): the lowering of x86_64 and arm64
machine code to herd7 code is checked by running herd7 on small threads written as
llvm-objdump prints them, with values (negative ones, wrap-around, addresses) where a wrong
lowering gives another final state; the control-flow layout, the herd7 output parser and
the test renderer on their own.

    python3 -m unittest tests/test_herd_translation.py   # needs herd7 (scripts/setup)
"""

import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
from lkmm import aarch64, archtest, cfg, herd, x86_64  # noqa: E402

try:
    herd.install()
    HAVE_HERD = True
except herd.HerdError:
    HAVE_HERD = False


def thread(arch, lines):
    """Instructions as llvm-objdump prints them between the two markers; `{N}` in an
    operand is the address of line N (a branch target)."""
    size = 4
    marker_in = ('hint', aarch64.IN_MARKER) if arch == 'arm64' else tuple(
        x86_64.IN_MARKER.split(' ', 1))
    marker_out = ('hint', aarch64.OUT_MARKER) if arch == 'arm64' else tuple(
        x86_64.OUT_MARKER.split(' ', 1))
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
    syntax = archtest.AARCH64 if arch == 'arm64' else archtest.X86_64
    module = aarch64 if arch == 'arm64' else x86_64
    code = module.translate(thread(arch, lines), 0)
    text = archtest.render(test, syntax, [code], ['unit test'])
    text = text.replace('exists true', f'locations [{"; ".join(observe)};]\nexists true')
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'T.litmus')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        model = 'aarch64.cat' if arch == 'arm64' else 'x86tso-mixed.cat'
        result = herd.run(path, ['-model', model, '-unroll', '0'], 60)
    states = [dict(s) for s in result.states]
    if len(states) != 1:
        raise AssertionError(f'{len(states)} final states for one thread:\n{text}')
    # herd7 computes with 32-bit values in these tests (its default machine size), as the
    # litmus tests' `int`s are: compare the low 32 bits.
    return {k: v & 0xffffffff if isinstance(v, int) else v for k, v in states[0].items()}


def u32(value):
    return value & 0xffffffff


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


if __name__ == '__main__':
    unittest.main()
