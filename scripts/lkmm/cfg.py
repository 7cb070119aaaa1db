# SPDX-License-Identifier: GPL-2.0
"""The control flow of one thread's machine code, laid out for herd7.

herd7 bounds loops by counting the backward jumps an execution takes (`-unroll`), where
"backward" is by position in the test, and discards an execution that takes more. The
compiler's block placement puts blocks anywhere: a success path may jump backwards without
looping. So the thread is laid out anew, its basic blocks in reverse postorder of the
control-flow graph: then the only backward jumps are the back edges of loops (for the
reducible graphs compilers emit, which `layout` checks), and `-unroll 0` means "no loop
iterates again", which scripts/memory-model/herd-check relies on.
"""

from dataclasses import dataclass


class Irreducible(Exception):
    """A loop with two entries: "backward" would not mean "loops again"."""


@dataclass
class Block:
    start: int              # index of its first instruction
    insns: list             # indexes of its instructions, in order
    successors: list        # indexes of the first instructions of the blocks it can go to
    falls_to: int = None    # the block it falls through to, if any


def layout(count, start, flow):
    """The blocks reachable from instruction `start`, in reverse postorder.

    `count` is the number of instructions; `flow(i)` says what instruction i does to control:
    (falls_through, target) where `falls_through` is whether it can go on to i + 1 and
    `target` the index it can jump to (or None)."""
    leaders, reach, todo = {start}, set(), [start]
    while todo:
        i = todo.pop()
        if i in reach:
            continue
        reach.add(i)
        falls, target = flow(i)
        if target is not None:
            leaders.add(target)
            todo.append(target)
        if falls:
            if i + 1 >= count:
                raise IndexError(f'instruction {i} falls through past the end')
            todo.append(i + 1)
            if target is not None:
                leaders.add(i + 1)
        elif i + 1 < count:
            leaders.add(i + 1)
    blocks = {}
    for lead in sorted(leaders & reach):
        insns, i = [lead], lead
        while True:
            falls, target = flow(i)
            if target is not None or not falls or i + 1 in leaders:
                break
            i += 1
            insns.append(i)
        falls, target = flow(i)
        succ = ([target] if target is not None else []) + ([i + 1] if falls else [])
        blocks[lead] = Block(lead, insns, succ, i + 1 if falls else None)
    order, seen = [], set()

    def visit(b):
        seen.add(b)
        # The fall-through successor last, so that it comes right after in the layout.
        for s in sorted(blocks[b].successors, key=lambda s: s == blocks[b].falls_to):
            if s not in seen:
                visit(s)
        order.append(b)
    visit(start)
    order.reverse()
    position = {b: n for n, b in enumerate(order)}
    # Reducible: every edge to an earlier block goes to a block that dominates its source.
    dominators = dominator_sets(order, blocks)
    for b in order:
        for s in blocks[b].successors:
            if position[s] <= position[b] and s not in dominators[b]:
                raise Irreducible(f'a loop entered at instruction {s} from outside')
    return [blocks[b] for b in order]


def dominator_sets(order, blocks):
    """Each block's dominators (itself included), by the iterative data-flow algorithm."""
    preds = {b: [] for b in order}
    for b in order:
        for s in blocks[b].successors:
            preds[s].append(b)
    every = set(order)
    dom = {b: set(every) for b in order}
    dom[order[0]] = {order[0]}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = set.intersection(*(dom[p] for p in preds[b])) | {b} if preds[b] else {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom


def labels(blocks, insns, thread):
    """The herd7 label of each block (`L<thread>_<n>`, by its first instruction's index) and of
    each block's first address (for branch operands)."""
    block_label = {blk.start: f'L{thread}_{n}' for n, blk in enumerate(blocks)}
    return block_label, {insns[i][0]: block_label[i] for i in block_label}


def emit(blocks, insns, thread, block_label, jump, ends, body):
    """The herd7 lines of the laid-out `blocks`: each block's label and `body(blk)`, a `jump`
    (herd7's unconditional jump of the architecture) to the block it falls through to where
    that is not the next one, and from a block whose last instruction `ends` (the second marker)
    to the end, `LEND<thread>`, unless it is the last block."""
    lines = []
    for n, blk in enumerate(blocks):
        lines.append(f'{block_label[blk.start]}:')
        lines += body(blk)
        following = blocks[n + 1].start if n + 1 < len(blocks) else None
        if blk.falls_to is not None and blk.falls_to != following:
            lines.append(f'{jump} {block_label[blk.falls_to]}')
        if ends(insns[blk.insns[-1]]) and following is not None:
            lines.append(f'{jump} LEND{thread}')
    lines.append(f'LEND{thread}:')
    return lines
