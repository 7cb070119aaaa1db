# SPDX-License-Identifier: GPL-2.0
"""Reading the machine code of a kernel object: the instructions of `.text` and
`.altinstr_replacement` as llvm-objdump prints them, the function symbols, the arm64
alternatives (`.altinstructions`) and riscv64's (`.alternative`), and the instructions of a
function on one path.

Shared by scripts/machine-code/codegen-compare (instruction counts and ordering parity with C) and
scripts/memory-model/herd-check (machine code to herd7 litmus tests).
"""

import re
import struct
import subprocess
import sys

from . import targets

LLVM = '/usr/lib/llvm-19/bin'

INSN = re.compile(r'^\s+([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$')
# A relocation line of `llvm-objdump -r`: its place, type and symbol (with an addend).
RELOC = re.compile(r'^\s+([0-9a-f]+):\s+(R_\w+)\s+([^\s+-]+)')
# Instructions that are what they are by the symbol they are relocated against: the call of the
# function tracer's entry hook, which the kernel turns into a `nop` (ftrace, x86's -mfentry:
# `call __fentry__`, patched at boot, arch/x86/kernel/ftrace.c), counted as padding; and a jump
# to the return thunk, a return (CONFIG_MITIGATION_RETHUNK: the compilers' `ret` becomes
# `jmp __x86_return_thunk`, in C and Rust alike).
RELOCATED = {('callq', '__fentry__'): 'nop.ftrace', ('call', '__fentry__'): 'nop.ftrace',
             ('jmp', '__x86_return_thunk'): 'retq'}
TARGET = re.compile(r'0x([0-9a-f]+) <[^>]*>')
# The relocation types of a call or a tail call of another function, by architecture (x86's
# R_X86_64_PLT32, arm64's R_AARCH64_CALL26 and JUMP26, 32-bit ARM's R_ARM_CALL and JUMP24,
# riscv64's R_RISCV_CALL_PLT on the `auipc`, LoongArch's R_LARCH_B26, s390x's R_390_PLT32DBL):
# Object.calls names the function an unrelocated call's operands do not.
CALL_RELOCATION = re.compile(r'PLT|CALL|JUMP|_B26$')
# Instructions that neither compute nor access memory: branch-target and pointer-
# authentication markers, hints.
NOISE = {'endbr64', 'endbr32', 'bti', 'paciasp', 'autiasp', 'hint'}


def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f'error: {" ".join(cmd)} failed ({e}); run scripts/setup (llvm-19)')


# Instructions that an object may hold but its ELF attributes do not name, by ELF machine, as
# llvm-objdump arguments: riscv64's Zacas and Zabha, which the library's `asm!` enables block by
# block (`.option arch`) while rustc's target has neither (LLVM 19 knows Zacas as experimental);
# 32-bit ARM's ARMv7-A with the multiprocessing extensions (`dmb`, `pldw`), which the kernel's C
# is compiled for (-march=armv7-a) and the library's `asm!` blocks say (`.arch armv7-a`), while
# rustc's target, and so the Rust object's attributes, are ARMv6 (llvm-objdump then prints
# `<unknown>` for a `dmb`).
EXTRA_ARGS = {243: ['--mattr=+experimental-zacas,+zabha'],
              40: ['--triple=armv7a-linux-gnueabi', '--mattr=+mp'],
              # s390x: the z196 instructions (the interlocked-access facility's `laa` and
              # friends) of the kernel's default -march=z196, which llvm-objdump's default CPU
              # (z900) prints as `<unknown>`.
              22: ['--mcpu=z196']}


def elf_byte_order(ident):
    """The `struct` byte order of an ELF file from its first bytes (EI_DATA: 2 is big endian,
    s390x's)."""
    return '>' if ident[5] == 2 else '<'


def elf_machine(path):
    """The ELF e_machine of the object at `path`."""
    with open(path, 'rb') as f:
        head = f.read(20)
    machine, = struct.unpack(elf_byte_order(head) + 'H', head[18:20])
    return machine


def disassemble_args(path):
    """The llvm-objdump arguments that decode every instruction of the object at `path`."""
    return EXTRA_ARGS.get(elf_machine(path), [])


# The ELF machines whose branch targets llvm-objdump prints as the offset from the branch
# (LoongArch, 258: `bne $a4, $a3, 16 <.L0 +0x14>`) rather than as an address; Object rewrites
# them as the others print them (`0x<address> <symbol>`), which TARGET reads.
RELATIVE_BRANCH_TARGETS = {258}
RELATIVE_TARGET = re.compile(r'(^|, )(-?\d+) (<[^>]*>)$')
# The ELF machines whose branch targets llvm-objdump prints as a bare address (s390x, 22:
# `jl 0x10`); Object adds an empty symbol (`0x10 <>`), which TARGET reads. A branch relocated
# against a symbol (`jg`, `jglh`, `brasl` of another function: R_390_PLT32DBL) becomes
# `call.reloc <symbol>`, which scripts/lkmm/s390x.py's is_call() knows: unrelocated, its
# target is the branch itself. (R_390_PC32DBL also relocates a `larl` or `strl`, which stay.)
BARE_BRANCH_TARGETS = {22}
BARE_TARGET = re.compile(r'(^|, )(0x[0-9a-f]+)$')
RELOCATED_BRANCHES = {'R_390_PLT32DBL', 'R_390_PC32DBL', 'R_390_PLT16DBL', 'R_390_PC16DBL'}
RELOCATED_BRANCH_MNEMONIC = re.compile(r'^(j|bras|brc)')


def elf_section(path, name):
    """The bytes of section `name` of an ELF file (ELF32 or ELF64, either byte order), or
    None."""
    with open(path, 'rb') as f:
        data = f.read()
    bo = elf_byte_order(data)
    if data[4] == 1:  # ELFCLASS32
        shoff, = struct.unpack_from(bo + 'I', data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(bo + 'HHH', data, 0x2e)
        layout = bo + 'IIIIIIIIII'
    else:
        shoff, = struct.unpack_from(bo + 'Q', data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(bo + 'HHH', data, 0x3a)
        layout = bo + 'IIQQQQIIQQ'

    def header(i):
        # sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, ... (the same order in both)
        return struct.unpack_from(layout, data, shoff + i * shentsize)
    strtab = header(shstrndx)
    for i in range(shnum):
        h = header(i)
        start = strtab[4] + h[0]
        if data[start:data.index(b'\0', start)].decode() == name:
            return data[h[4]:h[4] + h[5]]
    return None


# Sections that hold what `.text` holds elsewhere: the large code model's (`.ltext`: UML's C is
# built with -mcmodel=large, arch/um/Makefile:34, and the modules' Rust here as C,
# Kbuild.include).
TEXT_ALIASES = {'.ltext': '.text'}


# The ELF machines whose `.altinstructions` entries are not read: s390's (22; 13-byte entries,
# C's `struct alt_instr`, arch/s390/include/asm/alternative.h:60-72), whose only one here is
# `smp_mb()`'s `bcr 15,0`, which every CPU that boots a z196 kernel patches to `bcr 14,0`, in C
# and Rust alike: both serialize, and scripts/lkmm/s390x.py gives them one ordering class.
UNREAD_ALTERNATIVES = {22}


def section_names(path):
    """The names of the sections of an ELF file."""
    out = run(f'{LLVM}/llvm-readelf', '-S', '-W', path)
    return re.findall(r'^\s*\[\s*\d+\]\s+(\S+)', out, re.M)


def one_text(path):
    """`path`, or, if its functions are in sections of their own (`.text.<name>`: what Clang's
    LTO makes of a module's C, CONFIG_LTO_CLANG), a copy linked into one `.text` (ld.lld -r with
    a linker script of one line), with `.altinstructions` relocated to match."""
    if not any(n.startswith('.text.') for n in section_names(path)):
        return path
    merged = path + '.one-text'
    script = path + '.one-text.ld'
    with open(script, 'w', encoding='utf-8') as f:
        f.write('SECTIONS { .text : { *(.text) *(.text.*) } }\n')
    run(f'{LLVM}/ld.lld', '-r', '-T', script, path, '-o', merged)
    return merged


class Object:
    """The `.text` instructions, function symbols and alternative sites of one object."""

    def __init__(self, path):
        path = one_text(path)
        self.insns = {}  # address -> [mnemonic, operands], in .text
        self.replacements = {}  # address -> (mnemonic, operands), in .altinstr_replacement
        self.calls = {}  # address -> the function it calls (relocation), in .text
        section = None
        pending_lock = None
        last = None
        relative = elf_machine(path) in RELATIVE_BRANCH_TARGETS
        bare = elf_machine(path) in BARE_BRANCH_TARGETS
        for line in run(f'{LLVM}/llvm-objdump', '-d', '-r', '--no-show-raw-insn',
                        *disassemble_args(path), path).splitlines():
            if line.startswith('Disassembly of section '):
                section = line[len('Disassembly of section '):].rstrip(':')
                section = TEXT_ALIASES.get(section, section)
                continue
            r = RELOC.match(line)
            if r:
                # The relocation of the instruction before it (its place is inside that one).
                if section == '.text' and last is not None:
                    mnem = self.insns[last][0]
                    if CALL_RELOCATION.search(r.group(2)):
                        self.calls[last] = r.group(3)
                    if (mnem, r.group(3)) in RELOCATED:
                        self.insns[last] = [RELOCATED[(mnem, r.group(3))], '']
                    elif r.group(2) in RELOCATED_BRANCHES and \
                            RELOCATED_BRANCH_MNEMONIC.match(mnem):
                        self.insns[last] = ['call.reloc', f'<{r.group(3)}>']
                continue
            m = INSN.match(line)
            if not m or section not in ('.text', '.altinstr_replacement'):
                continue
            addr, mnem, ops = int(m.group(1), 16), m.group(2), m.group(3)
            if relative:
                ops = RELATIVE_TARGET.sub(
                    lambda t: f'{t.group(1)}{addr + int(t.group(2)):#x} {t.group(3)}', ops)
            if bare:
                ops = BARE_TARGET.sub(lambda t: f'{t.group(1)}{t.group(2)} <>', ops)
            if mnem == 'lock' and not ops:
                pending_lock = addr
                continue
            if pending_lock is not None:
                addr, mnem, pending_lock = pending_lock, f'lock {mnem}', None
            if section == '.text':
                self.insns[addr] = [mnem, ops]
                last = addr
            else:
                self.replacements[addr] = (mnem, ops)
        self.addrs = sorted(self.insns)
        self.functions = {}
        for line in run(f'{LLVM}/llvm-nm', '-S', '--defined-only', path).splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in 'Tt':
                self.functions[f[3]] = (int(f[0], 16), int(f[1], 16))
        self.alternatives = self.read_alternatives(path)

    def read_alternatives(self, path):
        """arm64: origin address -> (original length, replacement instructions) for every
        `.altinstructions` entry (C's `struct alt_instr`, 12 bytes: relative origin,
        relative replacement, cpucap, original length, replacement length). A callback entry
        (C's `alternative_has_cap_likely()`) has no replacement: it patches in `nop`s.
        riscv64: the same of every `.alternative` entry (read_riscv_alternatives())."""
        riscv = elf_section(path, '.alternative')
        if riscv:
            return self.read_riscv_alternatives(path, riscv)
        raw = elf_section(path, '.altinstructions')
        if not raw or elf_machine(path) in UNREAD_ALTERNATIVES:
            return {}
        relocs = {}
        in_alt = False
        for line in run(f'{LLVM}/llvm-readelf', '-r', path).splitlines():
            if line.startswith('Relocation section'):
                in_alt = "'.rela.altinstructions'" in line
                continue
            f = line.split()
            if in_alt and len(f) >= 7 and re.fullmatch(r'[0-9a-f]+', f[0]):
                relocs[int(f[0], 16)] = (f[4], int(f[6], 16))
        out = {}
        for off in range(0, len(raw) - 11, 12):
            section, origin = relocs.get(off, (None, None))
            if section != '.text':
                continue
            orig_len, repl_len = raw[off + 10], raw[off + 11]
            repl_section, repl = relocs.get(off + 4, (None, None))
            table = self.insns if repl_section == '.text' else self.replacements
            if repl_len == 0 or repl_section not in ('.text', '.altinstr_replacement'):
                insns = [('nop', '')] * (orig_len // 4)
            else:
                insns = [tuple(table[a]) for a in range(repl, repl + repl_len, 4) if a in table]
            out[origin] = (orig_len, insns)
        return out

    def read_riscv_alternatives(self, path, raw):
        """riscv64: origin address -> (original length, replacement instructions) for every
        `.alternative` entry (arch/riscv/include/asm/alternative-macros.h, `ALT_ENTRY`, 16 bytes:
        relative origin, relative replacement, vendor id, replacement length, patch id; the
        replacement is as long as the original). Both addresses are `R_RISCV_ADD32` relocations
        against local labels of `.text` (their `R_RISCV_SUB32` twins subtract the entry's own
        place). Every entry applies on the first path: riscv's alternatives here are the
        extensions (Zacas, Zabha) of the one CPU model that has them all."""
        relocs = {}
        in_alt = False
        for line in run(f'{LLVM}/llvm-readelf', '-r', path).splitlines():
            if line.startswith('Relocation section'):
                in_alt = "'.rela.alternative'" in line
                continue
            f = line.split()
            if in_alt and len(f) >= 7 and f[2] == 'R_RISCV_ADD32':
                relocs[int(f[0], 16)] = int(f[3], 16) + int(f[6], 16)
        out = {}
        for off in range(0, len(raw) - 15, 16):
            origin, repl = relocs.get(off), relocs.get(off + 4)
            if origin is None or repl is None:
                continue
            length, = struct.unpack_from('<H', raw, off + 10)
            insns = [tuple(self.insns[a]) for a in sorted(self.insns) if repl <= a < repl + length]
            out[origin] = (length, insns)
        return out

    def body(self, name):
        """The instructions of function `name`: [(address, mnemonic, operands)]."""
        start, size = self.functions[name]
        return [(a, *self.insns[a]) for a in self.addrs if start <= a < start + size]


    def callees(self, insns):
        """The functions that instructions `insns` ([(address, mnemonic, operands)]) call, by
        their relocations, in order, each once."""
        return list(dict.fromkeys(self.calls[a] for a, _, _ in insns if a in self.calls))

    def patched(self, name, lse):
        """The instructions of function `name` as they run on one arm64 path: on the LSE path
        (`lse`) every alternative of the function replaced by its replacement, instruction for
        instruction at the original's addresses (the kernel requires equal lengths); on the
        LL/SC path, as compiled. [(address, mnemonic, operands)]"""
        body = self.body(name)
        if not lse:
            return body
        out, skip_to = [], None
        for addr, mnem, ops in body:
            if skip_to is not None and addr < skip_to:
                continue
            if addr in self.alternatives:
                orig_len, insns = self.alternatives[addr]
                if len(insns) * 4 != orig_len:
                    raise ValueError(f'{name}: alternative at {addr:#x} replaces {orig_len} bytes '
                                     f'by {len(insns)} instructions')
                out += [(addr + 4 * k, m, o) for k, (m, o) in enumerate(insns)]
                skip_to = addr + orig_len
                continue
            out.append((addr, mnem, ops))
        return out


# The branch kinds, for the architectures whose module of scripts/lkmm/ (isa=) does not define
# its own (branch_kinds()): x86_64, arm64 and riscv64, whose mnemonics do not collide. Each takes
# the mnemonic and the operands.
def is_ret(mnem, ops=''):
    return mnem in ('ret', 'retq', 'retl')


# riscv64's conditional branches, with the assembler's aliases that llvm-objdump prints.
RISCV_BRANCHES = {'beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu', 'beqz', 'bnez', 'blez', 'bgez',
                  'bltz', 'bgtz', 'bgt', 'ble', 'bgtu', 'bleu'}


def is_call(mnem, ops=''):
    # riscv64: `jal`/`jalr` link a register (a call; `j`, `jr` and `ret` are the aliases that
    # do not), and `jr` to anything but the return address is an indirect tail call.
    return mnem.startswith('call') or mnem in ('bl', 'blr', 'jal', 'jalr', 'jr', 'tail')


def is_jump(mnem, ops=''):
    return mnem in ('jmp', 'jmpq', 'b', 'br', 'j')


def is_cond(mnem, ops=''):
    return (mnem.startswith('j') and not is_jump(mnem) and not is_call(mnem)) or \
        mnem.startswith('b.') or mnem in ('cbz', 'cbnz', 'tbz', 'tbnz') or mnem in RISCV_BRANCHES


def branch_kinds(arch):
    """What has is_ret(), is_call(), is_jump() and is_cond() for `arch`'s instructions: its
    module of scripts/lkmm/ (isa=) if it defines them (32-bit ARM, whose `bx lr` is a return by
    its operand and whose `bne` is not riscv64's), otherwise this module."""
    module = targets.isa_module(arch)
    kinds = ('is_ret', 'is_call', 'is_jump', 'is_cond')
    return module if all(hasattr(module, k) for k in kinds) else sys.modules[__name__]


def is_noise(arch, mnem, ops):
    padding = mnem.startswith('nop') and not mnem.endswith('.alt')
    # The frame record, which the kernel's Rust flags force even in leaf functions (arm64:
    # x29/x30): the architecture's module of scripts/lkmm/ (isa=) says which it is.
    return mnem in NOISE or padding or (mnem, ops) in targets.isa_module(arch).FRAME


def path(obj, name, arch, lse):
    """The instructions of `name` reachable on one path, in address order, and problems.
    On the LSE path, the original instructions of each alternative are replaced by its
    replacement (marked as such: a replacement's padding `nop`s run, so they count)."""
    body = obj.body(name)
    kinds = branch_kinds(arch)
    index = {a: i for i, (a, _, _) in enumerate(body)}
    seen, todo, problems, patched = set(), [0] if body else [], [], []
    while todo:
        i = todo.pop()
        if i in seen or i >= len(body):
            continue
        seen.add(i)
        addr, mnem, ops = body[i]
        if lse and addr in obj.alternatives:
            orig_len, insns = obj.alternatives[addr]
            patched += [(addr + k * 0.01, f'{m}.alt' if m == 'nop' else m, o)
                        for k, (m, o) in enumerate(insns)]
            for a in range(addr + 4, addr + orig_len, 4):
                seen.add(index.get(a, i))
            # A replacement that ends in a jump (riscv's `riscv_has_extension_unlikely()`: a
            # `nop` becomes `j` to the extension's code) goes there; any other falls through.
            last = TARGET.search(insns[-1][1]) if insns and kinds.is_jump(*insns[-1]) else None
            if last and int(last.group(1), 16) in index:
                todo.append(index[int(last.group(1), 16)])
            elif addr + orig_len in index:
                todo.append(index[addr + orig_len])
            seen.discard(i)
            seen.add(('patched', i))
            continue
        if kinds.is_ret(mnem, ops) or mnem in ('ud2', 'brk', 'udf'):
            continue
        if kinds.is_call(mnem, ops):
            problems.append(f'calls {ops}')
        m = TARGET.search(ops)
        target = int(m.group(1), 16) if m else None
        jump, cond = kinds.is_jump(mnem, ops), kinds.is_cond(mnem, ops)
        if (jump or cond) and target is not None and target not in index:
            problems.append(f'branches out of the function: {mnem} {ops}')
            target = None
        if jump:
            if target is not None:
                todo.append(index[target])
            continue
        if cond and target is not None:
            todo.append(index[target])
        todo.append(i + 1)
    kept = [body[i] for i in seen if not isinstance(i, tuple)]
    patched_origins = {body[i[1]][0] for i in seen if isinstance(i, tuple)}
    for a in patched_origins:
        orig_len = obj.alternatives[a][0]
        kept = [x for x in kept if not a <= x[0] < a + orig_len]
    insns = sorted(kept + patched, key=lambda x: x[0])
    if targets.descriptor(arch).get('path_order') == 'flow':
        insns = flow_order(insns, kinds)
    return insns, problems


def flow_order(insns, kinds):
    """`insns` (one path's, in address order) in the order control reaches them: a reverse
    postorder of the path's flow graph, branch targets before fall-throughs, back edges left
    out. Where a replacement jumps to code the compiler placed out of line (riscv's
    `riscv_has_extension_unlikely()`), C's and Rust's compilers place that code differently;
    in flow order an access after the jump comes after it however the code is laid out."""
    at = {a: k for k, (a, _, _) in enumerate(insns)}

    def successors(k):
        addr, mnem, ops = insns[k]
        if kinds.is_ret(mnem, ops) or mnem in ('ud2', 'brk', 'udf'):
            return []
        m = TARGET.search(ops)
        jump = kinds.is_jump(mnem, ops)
        target = at.get(int(m.group(1), 16)) if m and (jump or kinds.is_cond(mnem, ops)) else None
        if jump:
            return [target] if target is not None else []
        out = [target] if target is not None else []
        return out + ([k + 1] if k + 1 < len(insns) else [])

    order, state = [], {}
    stack = [(0, iter(successors(0)))] if insns else []
    state[0] = 1
    while stack:
        k, succ = stack[-1]
        nxt = next(succ, None)
        if nxt is None:
            stack.pop()
            state[k] = 2
            order.append(k)
        elif nxt not in state:
            state[nxt] = 1
            stack.append((nxt, iter(successors(nxt))))
    seen = set(order)
    rest = [k for k in range(len(insns)) if k not in seen]
    return [insns[k] for k in reversed(order)] + [insns[k] for k in rest]
