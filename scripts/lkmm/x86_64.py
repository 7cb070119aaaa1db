# SPDX-License-Identifier: GPL-2.0
"""x86_64 machine code of one litmus thread (tests/herd/harness.rs) as herd7 X86_64 code.

The thread is the code between the two markers of its entry point (`nopl 0x68657201(%rax)`,
after which rdi, rsi, rdx, rcx, r8..r11, rax, r12..r14 hold the addresses of the shared
variables, and `nopl 0x68657202(%rax)`, where the first 8 of them hold its registers), with
branch targets as labels.

herd7's X86_64 front end (herdtools7 7.58) knows the memory instructions that matter here,
`mov`, `lock cmpxchg`, `lock add`, `lock xor`, `lock inc`, `lock dec` and the
fences, with the events x86-TSO (x86tso-mixed.cat) orders; it lacks most register
arithmetic (`sub`, `neg`, `lea`, `movslq`, `setcc`, `test`, ...), `xadd`, `lock and`/`or`,
and it derives the sign and carry flags unreliably (its `cmp` sets SF to "greater than";
arithmetic sets ZF on the unmasked sum), and reads `xchg` with memory as no atomic operation
(a read and a write with no `rmw` edge). So each instruction is lowered to herd7 code with the
same memory events and the same register values:
- every memory access stays one access of the same kind, size and address; a locked
  read-modify-write stays a locked one: `xchg`, `lock xadd`, `lock and`/`or`/`sub` (and any locked
  operation whose flags are used) become herd7's `lock cmpxchg` loop around a plain load, whose
  successful iteration is the same locked read-modify-write of the same value (x86-TSO orders
  a locked instruction the same whatever it computes); the plain load only feeds the
  comparison. `lock addl $0,-4(%rsp)`, C's and our `smp_mb()`, is a locked instruction on the
  thread's own stack: herd7 has no stack, and x86-TSO orders it as `mfence` (lob: a write
  before it and a read after it are ordered either way), so it becomes `mfence`.
- register arithmetic is rewritten with herd7's `mov`, `add`, `xor`, `and`, `or` on the same
  width; immediates of 32-bit operations are given as their unsigned 32-bit value, and every
  32-bit register result is re-zero-extended (`movl %r,%r`), as the hardware does;
- flags are never taken from herd7's arithmetic: each flag-setting instruction copies the
  values its flags depend on into scratch registers, and each flag user (`jcc`, `setcc`,
  `sbb`, `adc`, `cmovcc`) recomputes its condition from them with herd7's `cmp` and `je`, `jne`,
  `jgt`, `jle` (unsigned on zero-extended 32-bit values; signed ones biased by 2^31).
Scratch registers are ones the thread does not use (r12-r15, rbx, rbp). Anything else is
refused by name (Unrepresentable): a call, a stack access other than the barrier, an
instruction or addressing mode not listed here, a flag user whose flags come from a join of
paths.
"""

import re

from . import archtest, cfg
from .archtest import Unrepresentable

IN_MARKER, OUT_MARKER = 'nopl 0x68657201(%rax)', 'nopl 0x68657202(%rax)'
# herd7's syntax of the translated code.
SYNTAX = archtest.X86_64
SCRATCH = ['r12', 'r13', 'r14', 'r15', 'rbx', 'rbp']
WIDTH = {'b': 8, 'w': 16, 'l': 32, 'q': 64}
NAMES = {  # family -> name by width
    **{r: {64: f'r{r}x', 32: f'e{r}x', 16: f'{r}x', 8: f'{r}l'} for r in 'abcd'},
    **{r: {64: f'r{r}', 32: f'e{r}', 16: r, 8: f'{r}l'} for r in ('si', 'di', 'bp', 'sp')},
    **{f'r{n}': {64: f'r{n}', 32: f'r{n}d', 16: f'r{n}w', 8: f'r{n}b'} for n in range(8, 16)},
}
FAMILY = {name: (fam, w) for fam, by in NAMES.items() for w, name in by.items()}
FAMILY['rax'] = ('a', 64)
TARGET = re.compile(r'^0x([0-9a-f]+) <[^>]*>$')
MEMORY = re.compile(r'^(-?(?:0x[0-9a-f]+|\d+))?\((%\w+)?(?:,(%\w+)(?:,(\d+))?)?\)$')
CONDITIONS = {'e', 'ne', 'z', 'nz', 's', 'ns', 'b', 'ae', 'a', 'be', 'l', 'ge', 'le', 'g',
              'c', 'nc', 'nae', 'nb', 'nbe', 'na', 'nge', 'nl', 'nle', 'ng'}
ALIASES = {'z': 'e', 'nz': 'ne', 'c': 'b', 'nc': 'ae', 'nae': 'b', 'nb': 'ae', 'nbe': 'a',
           'na': 'be', 'nge': 'l', 'nl': 'ge', 'nle': 'g', 'ng': 'le'}
LOCKABLE = ('xadd', 'cmpxchg', 'xchg', 'add', 'sub', 'and', 'or', 'xor', 'inc', 'dec')
NEGATION = {'e': 'ne', 'ne': 'e', 's': 'ns', 'ns': 's', 'b': 'ae', 'ae': 'b', 'a': 'be',
            'be': 'a', 'l': 'ge', 'ge': 'l', 'le': 'g', 'g': 'le'}


# No frame record to leave out of instruction counts (scripts/lkmm/objdump.py).
FRAME = frozenset()


def ordering_class(mnem, ops):
    """The ordering signature's entry of one x86 instruction, or None (Intel SDM Vol. 3A
    9.2.2): `locked` for a `lock`-prefixed instruction and for `xchg` with a memory operand
    (locked implicitly), `mfence`, `lfence`, `sfence`. Plain loads and stores are left out: x86
    orders them all alike (TSO), and which instruction reads memory (a `mov` or a `cmp` with a
    memory operand) is not an ordering difference."""
    if mnem.startswith('lock '):
        return 'locked'
    if mnem.rstrip('bwlq') == 'xchg' and '(' in ops:
        return 'locked'
    if mnem in ('mfence', 'lfence', 'sfence'):
        return mnem
    return None


def split_operands(ops):
    """AT&T operands, split at the commas outside parentheses; llvm-objdump's `# imm = ...`
    comment dropped."""
    ops = ops.split('#')[0].strip()
    out, depth, cur = [], 0, ''
    for ch in ops:
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
            continue
        depth += ch == '('
        depth -= ch == ')'
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Operand:
    """One AT&T operand: an immediate, a register or a memory reference."""

    def __init__(self, text, where):
        self.text = text
        self.imm = self.reg = self.base = None
        if text.startswith('$'):
            self.imm = int(text[1:], 0)
        elif text.startswith('%'):
            if text[1:] not in FAMILY:
                raise Unrepresentable(f'{where}: register {text} is not modelled')
            self.reg = text[1:]
        else:
            m = MEMORY.match(text)
            if not m:
                raise Unrepresentable(f'{where}: operand {text} is not modelled')
            disp, base, index = int(m.group(1) or '0', 0), m.group(2), m.group(3)
            self.base, self.disp, self.index = base and base[1:], disp, index

    @property
    def family(self):
        return FAMILY[self.reg][0] if self.reg else None

    @property
    def stack(self):
        return self.base in ('rsp', 'rbp', 'esp')


def suffix_width(mnem, operands):
    """The operation's width: from the mnemonic's suffix, else from a register operand."""
    for op in operands:
        if op.reg:
            return FAMILY[op.reg][1]
    if mnem[-1:] in WIDTH:
        return WIDTH[mnem[-1]]
    raise Unrepresentable(f'cannot tell the width of {mnem}')


class Lowering:
    """Translates one thread. Call `translate()`."""

    def __init__(self, insns, where, thread):
        self.insns, self.where, self.thread = insns, where, thread
        self.out = []
        self.flags = None       # how to recompute the flags: see `set_flags_*`
        self.compared_with_one = False
        self.labels = {}
        self.fresh = 0
        used = set()
        for _, mnem, ops in insns:
            used |= {FAMILY[r][0] for r in re.findall(r'%(\w+)', ops) if r in FAMILY}
        self.free = [r for r in SCRATCH if FAMILY[r][0] not in used]

    # Output helpers.

    def emit(self, line):
        self.out.append(line)

    def label(self):
        self.fresh += 1
        return f'LX{self.thread}_{self.fresh}'

    def scratch(self, n):
        """The n-th scratch register's family name (64-bit)."""
        if n >= len(self.free):
            raise Unrepresentable(f'{self.where}: not enough unused registers for the lowering '
                                  f'(needs {n + 1}, {len(self.free)} free)')
        return self.free[n]

    @staticmethod
    def name(family_or_reg, width):
        fam = FAMILY[family_or_reg][0] if family_or_reg in FAMILY else family_or_reg
        return '%' + NAMES[fam][width]

    @staticmethod
    def imm(value, width):
        """An immediate as herd7 computes with it at `width`: unsigned below 64 bits."""
        if width < 64:
            return f'${value & ((1 << width) - 1)}'
        return f'${value}'

    def src(self, op, width):
        """An operand as herd7's source operand at `width`."""
        if op.imm is not None:
            return self.imm(op.imm, width)
        if op.reg:
            return self.name(op.reg, width)
        return self.mem(op)

    def mem(self, op):
        if op.stack:
            raise Unrepresentable(f'{self.where}: {op.text}: a stack access (spill)')
        if op.index or op.disp or not op.base:
            raise Unrepresentable(f'{self.where}: {op.text}: only (%reg) addressing is '
                                  'modelled (a shared variable)')
        return f'(%{op.base})'

    @staticmethod
    def suffix(width):
        return {8: 'b', 16: 'w', 32: 'l', 64: 'q'}[width]

    def alu(self, op, width):
        """herd7's mnemonic of `op` at `width`: its `and` has no size suffix (the size is
        that of the register operand)."""
        return op if op == 'and' else op + self.suffix(width)

    def zero_extend(self, reg, width):
        """After a 32-bit write to a register: its upper half is zero, as on the hardware
        (herd7 keeps an arithmetic result unmasked)."""
        if width == 32:
            self.emit(f'movl {self.name(reg, 32)},{self.name(reg, 32)}')

    # Flags: each flag-setting instruction records how its flags are recomputed.

    def next_is_flag_user(self, i):
        """Whether instruction i + 1 reads the flags (and writes no register before)."""
        if i + 1 >= len(self.insns):
            return False
        base = self.insns[i + 1][1].split()[-1]
        return base.startswith(('set', 'cmov', 'sbb')) or \
            (base.startswith('j') and base not in ('jmp', 'jmpq'))

    def keep(self, i, text, width, n):
        """Operand `text`, as the flags' user will read it: as is if the very next
        instruction uses the flags (nothing can change it in between) and it is a register
        or an immediate, else copied to scratch register n (a memory operand is read once,
        here, as the instruction reads it)."""
        if self.next_is_flag_user(i) and not text.startswith('('):
            return text
        s = self.name(self.scratch(n), width)
        self.emit(f'mov{self.suffix(width)} {text},{s}')
        return s

    def set_flags_compare(self, i, a, b, width):
        """Flags of `cmp a, b` (b - a) at instruction i."""
        if not self.flags_used_after(i):
            if a.startswith('(') or b.startswith('('):
                # The comparison's read still happens.
                mem = a if a.startswith('(') else b
                self.emit(f'mov{self.suffix(width)} {mem},{self.name(self.scratch(0), width)}')
            self.flags = None
            return
        self.flags = ('compare', self.keep(i, a, width, 0), self.keep(i, b, width, 1), width)
        self.compared_with_one = a == '$1'

    def set_flags_result(self, i, value_reg, width, logic):
        """Flags of a result in `value_reg` at instruction i (recorded only if a flag user
        follows); `logic`: CF and OF are zero (and, or, xor, test), else unknown."""
        if not self.flags_used_after(i):
            self.flags = None
            return
        kind = 'logic' if logic else 'arith'
        self.flags = (kind, self.keep(i, self.name(value_reg, width), width, 0), None, width)

    def on_condition(self, cc, when_true, when_false):
        """Emits lines `when_true` if condition `cc` holds for the recorded flags, else
        `when_false` (a flag user that computes: setcc, sbb, adc)."""
        yes, done = self.label(), self.label()
        self.condition_jump(cc, yes)
        for line in when_false:
            self.emit(line)
        self.emit(f'jmp {done}')
        self.emit(f'{yes}:')
        for line in when_true:
            self.emit(line)
        self.emit(f'{done}:')

    def condition_jump(self, cc, target):
        """Jumps to `target` if condition `cc` holds for the recorded flags."""
        cc = ALIASES.get(cc, cc)
        if self.flags is None:
            raise Unrepresentable(f'{self.where}: a j{cc}/set{cc} whose flags come from a join '
                                  'of paths or an instruction whose flags are not modelled')
        kind, v1, v2, width = self.flags
        sfx = self.suffix(width)
        if kind == 'herd_zf':
            if cc not in ('e', 'ne'):
                raise Unrepresentable(f'{self.where}: {cc} after cmpxchg')
            self.emit(f'{"je" if cc == "e" else "jne"} {target}')
            return
        if kind == 'zf':
            if cc not in ('e', 'ne'):
                raise Unrepresentable(f'{self.where}: {cc} after cmpxchg')
            self.emit(f'cmp{sfx} $1,{v1}')
            self.emit(f'{"je" if cc == "e" else "jne"} {target}')
            return
        if kind in ('logic', 'arith'):
            if kind == 'logic':
                cc = {'l': 's', 'ge': 'ns', 'b': None, 'ae': 'always'}.get(cc, cc)
                if cc is None:
                    return
                if cc == 'always':
                    self.emit(f'jmp {target}')
                    return
                if cc == 'a':
                    cc = 'ne'
                if cc == 'g':           # not zero and not negative
                    skip = self.label()
                    self.condition_jump('s', skip)
                    self.condition_jump('ne', target)
                    self.emit(f'{skip}:')
                    return
                if cc in ('be', 'le'):
                    self.condition_jump('e', target)
                    if cc == 'le':
                        self.condition_jump('s', target)
                    return
            if cc in ('e', 'ne'):
                self.emit(f'cmp{sfx} $0,{v1}')
                self.emit(f'{"je" if cc == "e" else "jne"} {target}')
                return
            if cc in ('s', 'ns'):
                self.sign_jump(v1, width, cc == 's', target)
                return
            raise Unrepresentable(f'{self.where}: condition {cc} after arithmetic (carry and '
                                  'overflow flags are not modelled)')
        # A comparison b - a: equality, unsigned or signed order, or the sign of b - a.
        a, b = v1, v2
        if cc in ('e', 'ne'):
            if b.startswith('$'):
                a, b = b, a
            self.emit(f'cmp{sfx} {a},{b}')
            self.emit(f'{"je" if cc == "e" else "jne"} {target}')
            return
        if cc in ('s', 'ns'):
            d = self.name(self.scratch(2), width)
            self.emit(f'mov{sfx} {a},{d}')
            self.emit(f'xor{sfx} {self.imm(-1, width)},{d}')
            self.emit(f'add{sfx} {self.imm(1, width)},{d}')
            self.emit(f'add{sfx} {b},{d}')
            self.emit(f'movl {d},{d}' if width == 32 else 'nop')
            self.sign_jump(d, width, cc == 's', target)
            return
        if cc in ('l', 'ge', 'le', 'g'):
            if width == 64:
                x, y = b, a          # herd7 compares 64-bit values as signed integers
            else:
                x, y = self.name(self.scratch(2), width), self.name(self.scratch(3), width)
                bias = self.imm(1 << (width - 1), width)
                self.emit(f'mov{sfx} {b},{x}')
                self.emit(f'xor{sfx} {bias},{x}')
                self.emit(f'mov{sfx} {a},{y}')
                self.emit(f'xor{sfx} {bias},{y}')
            cc = {'l': 'b', 'ge': 'ae', 'le': 'be', 'g': 'a'}[cc]
        elif width == 64 and self.compared_with_one and cc in ('b', 'ae'):
            # `cmpq $1, %r` then `b`/`ae`: r is (not) zero, LLVM's test of a pointer for
            # NULL: an equality, which herd7 can compare on addresses too.
            self.emit(f'cmpq $0,{b}')
            self.emit(f'{"je" if cc == "b" else "jne"} {target}')
            return
        elif width == 64:
            raise Unrepresentable(f'{self.where}: unsigned 64-bit comparison')
        else:
            x, y = b, a
        # herd7's `cmp y, x` sets SF to x > y (on zero-extended values: unsigned). Its
        # destination must be a register.
        if cc in ('a', 'be'):
            first, second = y, x
        else:
            first, second = x, y
        if second.startswith('$'):
            tmp = self.name(self.scratch(3), width)
            self.emit(f'mov{sfx} {second},{tmp}')
            second = tmp
        self.emit(f'cmp{sfx} {first},{second}')
        self.emit(f'{"jgt" if cc in ("a", "b") else "jle"} {target}')

    def sign_jump(self, value, width, negative, target):
        """Jumps if register operand `value` is (not) negative at `width`."""
        sfx = self.suffix(width)
        if width < 64:
            self.emit(f'cmp{sfx} {self.imm((1 << (width - 1)) - 1, width)},{value}')
        else:
            zero = self.name(self.scratch(3), 64)
            self.emit(f'movq $0,{zero}')
            self.emit(f'cmpq {value},{zero}')
        self.emit(f'{"jgt" if negative else "jle"} {target}')

    # Instructions.

    def cas_loop(self, i, mem, width, compute, old_to=None, sets_flags=True):
        """A locked read-modify-write as herd7's `lock cmpxchg` loop: `compute(new)` emits
        the computation of the new value in register `new` from the old one (already in it);
        the old value goes to register `old_to` if given; the flags are those of the new
        value, or, if not `sets_flags` (an `xchg`, which sets none), what they were."""
        flags_before = self.flags
        sfx = self.suffix(width)
        save, new = self.scratch(2), self.scratch(3)
        loop = self.label()
        rax = self.name('a', width)
        self.emit(f'movq %rax,{self.name(save, 64)}')
        self.emit(f'{loop}:')
        self.emit(f'mov{sfx} {mem},{rax}')
        self.emit(f'mov{sfx} {rax},{self.name(new, width)}')
        compute(self.name(new, width))
        self.zero_extend(new, width)
        self.emit(f'lock cmpxchg{sfx} {mem},{self.name(new, width)}')
        self.emit(f'jne {loop}')
        if old_to is not None:
            self.emit(f'mov{sfx} {rax},{self.name(old_to, width)}')
        if old_to is None or FAMILY[old_to][0] != 'a':
            self.emit(f'movq {self.name(save, 64)},%rax')
        if old_to is not None:
            self.zero_extend(old_to, width)
        if sets_flags:
            self.set_flags_result(i, new, width, logic=False)
        else:
            # Kept in scratch registers 0 and 1 or, when the flag user is the very next
            # instruction (then not this one), in its operands: the loop touches neither.
            self.flags = flags_before

    def operand_value(self, op, width, into):
        """Copies an operand's value to register `into` (a scratch) at `width`."""
        self.emit(f'mov{self.suffix(width)} {self.src(op, width)},{self.name(into, width)}')

    def flags_used_after(self, i):
        """Whether a flag user follows instruction i before the next flag setter, on the
        straight-line code after it (a label or jump ends the search: then unknown, and a
        later user is refused)."""
        for _, mnem, _ in self.insns[i + 1:]:
            base = mnem.split()[-1]
            if (base.startswith(('j', 'set', 'cmov')) and base != 'jmp') or \
                    base.startswith(('sbb', 'adc')):
                return True
            if base.startswith(('cmp', 'test', 'add', 'sub', 'and', 'or', 'xor', 'inc',
                                'dec', 'neg', 'xadd')) or base == 'jmp':
                return False
        return False

    def translate(self):
        insns = self.insns
        starts = [i for i, (_, m, o) in enumerate(insns) if f'{m} {o}' == IN_MARKER]
        if len(starts) != 1:
            raise Unrepresentable(f'{self.where}: {len(starts)} entry markers, not one')
        start = starts[0]
        for _, mnem, ops in insns[:start]:
            if mnem in ('pushq', 'endbr64') or mnem.startswith('nop'):
                continue
            raise Unrepresentable(f'{self.where}: {mnem} {ops} before the entry marker')
        index = {a: i for i, (a, _, _) in enumerate(insns)}

        def flow(i):
            _, mnem, ops = insns[i]
            if f'{mnem} {ops}' == OUT_MARKER:
                return False, None
            if mnem.startswith(('call', 'ret', 'ud2', 'int3', 'push', 'pop')):
                raise Unrepresentable(f'{self.where}: {mnem} {ops}: '
                                      + ('a call' if mnem.startswith('call') else
                                         'a stack access' if mnem.startswith(('push', 'pop'))
                                         else 'leaves the thread'))
            if not mnem.startswith('j'):
                return True, None
            m = TARGET.match(ops.strip())
            if not m or int(m.group(1), 16) not in index:
                raise Unrepresentable(f'{self.where}: {mnem} {ops}: a jump out of the '
                                      'function or through a register')
            return mnem not in ('jmp', 'jmpq'), index[int(m.group(1), 16)]

        try:
            blocks = cfg.layout(len(insns), start + 1, flow)
        except (cfg.Irreducible, IndexError) as e:
            raise Unrepresentable(f'{self.where}: {e}') from e
        block_label = {blk.start: f'L{self.thread}_{n}' for n, blk in enumerate(blocks)}
        self.labels = {insns[i][0]: block_label[i] for i in block_label}
        preds = {blk.start: [] for blk in blocks}
        for blk in blocks:
            for succ in blk.successors:
                preds[succ].append(blk.start)
        flags_at_end = {}
        for n, blk in enumerate(blocks):
            self.emit(f'{block_label[blk.start]}:')
            # Flags flow into a block from its only predecessor, if it has one.
            only = preds[blk.start]
            self.flags = flags_at_end.get(only[0]) if len(only) == 1 else None
            for i in blk.insns:
                _, mnem, ops = insns[i]
                if f'{mnem} {ops}' != OUT_MARKER:
                    self.instruction(i, mnem, ops)
            flags_at_end[blk.start] = self.flags
            following = blocks[n + 1].start if n + 1 < len(blocks) else None
            if blk.falls_to is not None and blk.falls_to != following:
                self.emit(f'jmp {block_label[blk.falls_to]}')
            last = insns[blk.insns[-1]]
            if f'{last[1]} {last[2]}' == OUT_MARKER and following is not None:
                self.emit(f'jmp LEND{self.thread}')
        self.emit(f'LEND{self.thread}:')
        return self.out

    def instruction(self, i, mnem, ops):
        where = f'{self.where}: {mnem} {ops}'
        words = mnem.split()
        locked = words[0] == 'lock'
        base = words[-1]
        operands = [Operand(o, where) for o in split_operands(ops)] \
            if not base.startswith('j') else []
        if base.startswith('nop') or base in ('pause', 'endbr64'):
            return
        if base in ('jmp', 'jmpq'):
            self.emit(f'jmp {self.labels[int(TARGET.match(ops.strip()).group(1), 16)]}')
            return
        if base.startswith('j') and base[1:] in CONDITIONS:
            target = self.labels[int(TARGET.match(ops.strip()).group(1), 16)]
            self.condition_jump(base[1:], target)
            return
        if base.startswith('set') and base[3:] in CONDITIONS:
            dst = operands[0]
            if not dst.reg:
                raise Unrepresentable(f'{where}: setcc to memory')
            r = self.name(dst.reg, 8)
            self.on_condition(base[3:], [f'movb $1,{r}'], [f'movb $0,{r}'])
            return
        if base.startswith('sbb') and len(operands) == 2 and operands[0].reg and \
                operands[0].reg == operands[1].reg:
            width = suffix_width(base, operands)
            r, sfx = self.name(operands[1].reg, width), self.suffix(width)
            self.on_condition('b', [f'mov{sfx} {self.imm(-1, width)},{r}'], [f'mov{sfx} $0,{r}'])
            return
        if base.startswith('adc') and len(operands) == 2 and operands[1].reg:
            # dst + src + CF (a compiler's `x + (r == 0)`: `cmp $1, r; adc $n, dst`). The
            # carry is tested first: the comparison may have read dst itself.
            width = suffix_width(base, operands)
            r, sfx = self.name(operands[1].reg, width), self.suffix(width)
            add = f'add{sfx} {self.src(operands[0], width)},{r}'
            self.on_condition('b', [add, f'add{sfx} {self.imm(1, width)},{r}'], [add])
            self.zero_extend(operands[1].reg, width)
            self.flags = None  # adc's own flags are not modelled: a user of them is refused
            return
        if base.startswith('cmov') and base[4:].rstrip('lqw') in CONDITIONS:
            cc = base[4:].rstrip('lqw') if base[4:] not in CONDITIONS else base[4:]
            width = suffix_width(base, operands)
            skip = self.label()
            self.condition_jump(NEGATION[ALIASES.get(cc, cc)], skip)
            self.emit(f'mov{self.suffix(width)} {self.src(operands[0], width)},'
                      f'{self.name(operands[1].reg, width)}')
            self.zero_extend(operands[1].reg, width)
            self.emit(f'{skip}:')
            return
        if base in ('mfence', 'lfence', 'sfence'):
            self.emit(base)
            return
        if locked or base.startswith('xchg') or base.startswith('cmpxchg') or \
                base.startswith('xadd'):
            self.atomic(i, base, operands, locked, where)
            return
        self.plain(i, base, operands, where)

    def atomic(self, i, base, operands, locked, where):
        op = base[:-1] if base[-1:] in WIDTH and base[:-1] in LOCKABLE else base
        width = suffix_width(base, operands)
        sfx = self.suffix(width)
        mem = [o for o in operands if o.reg is None and o.imm is None]
        if len(mem) != 1:
            raise Unrepresentable(f'{where}: a locked instruction without one memory operand')
        m = mem[0]
        if m.stack:
            # C's and our smp_mb(): a locked no-op on the thread's own stack.
            if locked and op == 'add' and operands[0].imm == 0:
                self.emit('mfence')
                self.flags = None
                return
            raise Unrepresentable(f'{where}: a locked instruction on the stack')
        addr = self.mem(m)
        if op == 'xchg':
            # An `xchg` with memory is locked, prefix or not (Intel SDM Vol. 2D, XCHG), and
            # herd7 7.58's X86_64 front end makes it (with `lock` too) a read and a write of
            # the instruction with no `rmw` edge between them: x86tso-mixed.cat's atomicity
            # axiom then never applies, and herd7 allows two exchanges to read each other's
            # writes (tests/test_herd_translation.py shows both). So it is herd7's locked
            # `cmpxchg` loop, as the other locked operations, storing the register's value.
            reg = [o for o in operands if o.reg][0].reg
            value = self.scratch(4)
            self.emit(f'mov{sfx} {self.name(reg, width)},{self.name(value, width)}')
            self.cas_loop(i, addr, width,
                          lambda new: self.emit(f'mov{sfx} {self.name(value, width)},{new}'),
                          old_to=reg, sets_flags=False)
            return
        if not locked and op == 'xadd':
            # Not atomic: a plain read, then a plain write of the sum.
            reg = operands[0].reg
            old, new = self.name(self.scratch(2), width), self.name(self.scratch(3), width)
            self.emit(f'mov{sfx} {addr},{old}')
            self.emit(f'mov{sfx} {old},{new}')
            self.emit(f'add{sfx} {self.name(reg, width)},{new}')
            self.zero_extend(self.scratch(3), width)
            self.emit(f'mov{sfx} {new},{addr}')
            self.emit(f'mov{sfx} {old},{self.name(reg, width)}')
            self.set_flags_result(i, self.scratch(3), width, logic=False)
            return
        if not locked and op == 'cmpxchg':
            # herd7's cmpxchg without lock: a plain read, then a plain write on success.
            self.emit(f'cmpxchg{sfx} {addr},{self.name(operands[0].reg, width)}')
            self.flags = ('herd_zf', None, None, width) if self.next_is_flag_user(i) else None
            return
        if not locked:
            raise Unrepresentable(f'{where}: {op} without lock is not modelled')
        if op == 'cmpxchg':
            new = operands[0].reg
            self.emit(f'lock cmpxchg{sfx} {addr},{self.name(new, width)}')
            if not self.flags_used_after(i):
                self.flags = None
            elif self.next_is_flag_user(i):
                # herd7's cmpxchg sets ZF to whether it stored, as the hardware does.
                self.flags = ('herd_zf', None, None, width)
            else:
                s1 = self.name(self.scratch(0), 32)
                done = self.label()
                self.emit(f'movl $1,{s1}')
                self.emit(f'je {done}')
                self.emit(f'movl $0,{s1}')
                self.emit(f'{done}:')
                self.flags = ('zf', s1, None, 32)
            return
        if op == 'xadd':
            reg = operands[0].reg
            value = self.scratch(4)
            self.emit(f'mov{sfx} {self.name(reg, width)},{self.name(value, width)}')
            self.cas_loop(i, addr, width,
                          lambda new: self.emit(f'add{sfx} {self.name(value, width)},{new}'),
                          old_to=reg)
            return
        if op in ('inc', 'dec'):
            if self.flags_used_after(i):
                self.cas_loop(i, addr, width, lambda new: self.emit(
                    f'add{sfx} {self.imm(1 if op == "inc" else -1, width)},{new}'))
            else:
                self.emit(f'lock {op}{sfx} {addr}')
                self.flags = None
            return
        if op in ('add', 'sub', 'and', 'or', 'xor'):
            value = self.scratch(4)
            self.operand_value(operands[0], width, value)
            v = self.name(value, width)
            if op == 'sub':
                self.emit(f'xor{sfx} {self.imm(-1, width)},{v}')
                self.emit(f'add{sfx} {self.imm(1, width)},{v}')
                op = 'add'
            if op in ('add', 'xor') and not self.flags_used_after(i):
                self.emit(f'lock {op}{sfx} {v},{addr}')
                self.flags = None
                return
            self.cas_loop(i, addr, width,
                          lambda new: self.emit(f'{self.alu(op, width)} {v},{new}'))
            return
        raise Unrepresentable(f'{where}: no herd7 model of locked {op}')

    def plain(self, i, base, operands, where):
        if base in ('cltq', 'cdqe'):
            base, operands = 'movslq', [Operand('%eax', where), Operand('%rax', where)]
        if base in ('movslq', 'movsxd'):
            src, dst = operands
            self.emit(f'movl {self.src(src, 32)},{self.name(dst.reg, 32)}')
            skip = self.label()
            self.emit(f'cmpl $2147483647,{self.name(dst.reg, 32)}')
            self.emit(f'jle {skip}')
            self.emit(f'orq $-4294967296,{self.name(dst.reg, 64)}')
            self.emit(f'{skip}:')
            return
        if base in ('movzbl', 'movzbq', 'movzwl', 'movzwq', 'movzbw'):
            src, dst = operands
            sw = 8 if base[4] == 'b' else 16
            tmp = self.scratch(4)
            self.emit(f'mov{self.suffix(sw)} {self.src(src, sw)},{self.name(tmp, sw)}')
            self.emit(f'movq $0,{self.name(dst.reg, 64)}')
            self.emit(f'mov{self.suffix(sw)} {self.name(tmp, sw)},{self.name(dst.reg, sw)}')
            return
        op = base[:-1] if base[-1:] in WIDTH and base[:-1] in (
            'mov', 'add', 'sub', 'and', 'or', 'xor', 'cmp', 'test', 'inc', 'dec', 'neg', 'not',
            'lea', 'movabs') else base
        width = suffix_width(base, operands)
        sfx = self.suffix(width)
        if op in ('mov', 'movabs'):
            src, dst = operands
            if dst.reg:
                self.emit(f'mov{sfx} {self.src(src, width)},{self.name(dst.reg, width)}')
            else:
                self.emit(f'mov{sfx} {self.src(src, width)},{self.mem(dst)}')
            return
        if op == 'lea':
            src, dst = operands
            if src.stack or not src.base or (src.index and src.disp):
                raise Unrepresentable(f'{where}: lea of this form is not modelled')
            tmp = self.scratch(4)
            self.emit(f'movq %{src.base},{self.name(tmp, 64)}')
            if src.index:
                self.emit(f'addq {src.index},{self.name(tmp, 64)}')
            if src.disp:
                self.emit(f'addq ${src.disp},{self.name(tmp, 64)}')
            self.emit(f'mov{sfx} {self.name(tmp, width)},{self.name(dst.reg, width)}')
            return
        if op in ('cmp', 'test'):
            a, b = operands
            if op == 'cmp':
                if b.imm is not None:
                    raise Unrepresentable(f'{where}: cmp with an immediate destination')
                self.set_flags_compare(i, self.src(a, width), self.src(b, width), width)
            elif a.reg and a.reg == b.reg:
                # `test r, r`: the flags of r itself.
                self.set_flags_result(i, a.reg, width, logic=True)
            else:
                s1 = self.scratch(0)
                self.emit(f'mov{sfx} {self.src(b, width)},{self.name(s1, width)}')
                self.emit(f'{self.alu("and", width)} {self.src(a, width)},{self.name(s1, width)}')
                self.zero_extend(s1, width)
                self.flags = ('logic', self.name(s1, width), None, width)
            return
        dst = operands[-1]
        if op in ('add', 'sub', 'and', 'or', 'xor', 'inc', 'dec', 'neg', 'not') and \
                dst.reg is None and dst.imm is None:
            if dst.stack and op == 'add' and operands[0].imm == 0:
                return  # an unlocked no-op on the thread's stack: no effect
            # A non-atomic read-modify-write of memory: a plain read, the operation on a
            # scratch register, a plain write.
            t = self.scratch(2)
            self.emit(f'mov{sfx} {self.mem(dst)},{self.name(t, width)}')
            self.plain(i, base, operands[:-1] + [Operand(self.name(t, width), where)], where)
            self.emit(f'mov{sfx} {self.name(t, width)},{self.mem(dst)}')
            return
        if op in ('add', 'sub', 'and', 'or', 'xor') and len(operands) == 2:
            src, dst = operands
            d = self.name(dst.reg, width)
            if op == 'xor' and src.reg == dst.reg:
                self.emit(f'mov{sfx} $0,{d}')
            elif op == 'sub':
                tmp = self.scratch(4)
                self.operand_value(src, width, tmp)
                t = self.name(tmp, width)
                self.emit(f'xor{sfx} {self.imm(-1, width)},{t}')
                self.emit(f'add{sfx} {self.imm(1, width)},{t}')
                self.emit(f'add{sfx} {t},{d}')
            else:
                self.emit(f'{self.alu(op, width)} {self.src(src, width)},{d}')
            if not (op == 'xor' and src.reg == dst.reg):
                self.zero_extend(dst.reg, width)
            self.set_flags_result(i, dst.reg, width, logic=op in ('and', 'or', 'xor'))
            return
        if op in ('inc', 'dec', 'neg', 'not') and len(operands) == 1 and operands[0].reg:
            d = self.name(operands[0].reg, width)
            if op in ('neg', 'not'):
                self.emit(f'xor{sfx} {self.imm(-1, width)},{d}')
            if op != 'not':
                self.emit(f'add{sfx} {self.imm(-1 if op == "dec" else 1, width)},{d}')
            self.zero_extend(operands[0].reg, width)
            if op != 'not':
                self.set_flags_result(i, operands[0].reg, width, logic=False)
            return
        raise Unrepresentable(f'{where}: no herd7 model of this instruction')


def translate(insns, thread, marked=8):
    """The herd7 lines of thread number `thread`; see the module docs. `marked`: the number of
    registers the entry marker sets (8, or 12 for a test with more variables)."""
    return Lowering(insns, f'P{thread}', thread).translate()
