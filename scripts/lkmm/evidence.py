# SPDX-License-Identifier: GPL-2.0
"""Whether a mutation-test boot gave a weakening a fair chance to show, judged from the litmus
runner's own Observation lines: the test that must catch it ran interleaved with its control
(the same test without the weakened ordering), so both saw the same load on the host.

If the control showed its weak outcome C times in N iterations, the test's M iterations would
have shown it C * M / N times at that rate. From FAIR_CHANCE on, missing it has probability
e^-FAIR_CHANCE (4.5e-5) if the weakening really is the control's behaviour: the test had its
chance. Below, this machine shows the weak outcome too rarely to tell.
tests/kernel/rust_atomic_litmus.rs holds the same number.
"""

import re

FAIR_CHANCE = 10
OBSERVATION = re.compile(r'^Observation (\S+) (Never|Sometimes|Always) (\d+) (\d+)$')


def observations(lines):
    """{test: (positive, negative)} of every Observation line in `lines`."""
    out = {}
    for line in lines:
        m = OBSERVATION.match(line)
        if m:
            out[m.group(1)] = (int(m.group(3)), int(m.group(4)))
    return out


def fair_chance(control, test):
    """Whether the test, (positive, negative) `test`, had a fair chance to show the weak
    outcome that its control, (positive, negative) `control`, showed."""
    c_pos, c_neg = control
    iterations = sum(test)
    return c_pos + c_neg > 0 and c_pos * iterations >= FAIR_CHANCE * (c_pos + c_neg)


def too_rare(lines, test, control):
    """The evidence, as a sentence, that the boot whose diagnostics are `lines` could not tell
    whether `test` catches the weakening (its control's outcome too rare), or None: None also
    when either Observation line is missing or the test observed its clause."""
    seen = observations(lines)
    if test not in seen or control not in seen or seen[test][0] > 0:
        return None
    if fair_chance(seen[control], seen[test]):
        return None
    c_pos, c_neg = seen[control]
    return (f'{control} showed its weak outcome {c_pos} times in {c_pos + c_neg} iterations, '
            f'interleaved with {test}\'s {sum(seen[test])}: fewer than {FAIR_CHANCE} expected')
