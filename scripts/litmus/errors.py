# SPDX-License-Identifier: GPL-2.0
"""Why a litmus test cannot be translated: every refusal is a LitmusError at a line of the test
that names what was not accepted, and says why (its `reason`, for summaries)."""

import re


class LitmusError(Exception):
    """Something at a line of a litmus test that cannot be translated."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line, self.message = line, message

    @property
    def reason(self):
        """The message without its particulars (quoted names, numbers, counts), so that the
        refusals of many tests can be counted by kind."""
        text = re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", self.message)
        text = re.sub(r'\([^()]*\d[^()]*\)', '(...)', text)
        return re.sub(r'\b\d+\b', 'N', text)


def syntax_error(line, message):
    """Text that is not in the dialect at all; `message` says what was found there."""
    return LitmusError(line, f'syntax error: {message}')


def unsupported(line, construct, why=''):
    """A construct of the dialect that cannot be translated, by name, and why."""
    return LitmusError(line, f'unsupported construct {construct!r}' + (f' ({why})' if why else ''))
