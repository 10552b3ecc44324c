#!/usr/bin/env python3
"""Generate the shufl(1) man page from the binary's own --help texts.

Usage: gen_manpage.py SHUFL_BINARY OUTPUT

Each subcommand's section is built from `shufl SUB --help` at build time, so the man page and
--help cannot drift apart; the sections that --help does not carry (exit status, determinism,
reachability) are the constant text below.
"""
import os
import re
import subprocess
import sys

SUBCOMMANDS = ["lines", "bias", "deck", "trace"]

STATIC_SECTIONS = r"""
.SH "EXIT STATUS"
.TP
.B 0
Success.
.TP
.B 1
Any error: the message is on standard error and nothing is written to standard output
(GNU's convention; \fBshufl lines\fR prints GNU shuf's exact messages).
.TP
.B 3
\fBshufl bias \-\-check\fR found bias in at least one algorithm.
.SH DETERMINISM
\fB\-\-seed\fR \fISTRING\fR accepts any string; it is hashed with BLAKE2b to a 256-bit key and never
truncated. For a given seed the output is a function of the input bytes and the options alone:
the same for a file or a pipe, for any \fB\-\-threads\fR or \fB\-\-memory\fR, on any machine,
compiler or standard library, and across releases. Bounded random integers use Lemire's
nearly-divisionless method, never \fI% n\fR or floating point.
\fB\-\-random\-source\fR \fIFILE\fR in \fBshufl lines\fR consumes bytes exactly as GNU shuf does,
so the same file gives the same output as GNU shuf.
.SH REACHABILITY
A seeded run can reach at most 2^256 orders. Unseeded \fBshufl deck\fR runs take every draw from
the operating system (getrandom), so every order of every deck and shoe can occur (a 52-card deck
needs 225.6 bits, a 6-deck shoe about 1647). Unseeded \fBshufl lines\fR runs key ChaCha20 from
the operating system. \fBshufl deck \-\-explain\fR states these numbers for the run at hand.
.SH "INVOKED AS shuf"
When the binary is invoked under the name \fBshuf\fR (a symbolic or hard link), it behaves
exactly as \fBshufl lines\fR, so it can replace GNU shuf in existing scripts. The CMake option
\fBSHUFL_INSTALL_SHUF_LINK\fR installs such a link; it is off by default.
"""

SEE_ALSO = r"""
.SH "SEE ALSO"
.BR shuf (1),
.BR sort (1)
"""

EXAMPLES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples.md")


def roff_escape(text):
    text = text.replace("\\", "\\e")
    text = text.replace("-", "\\-")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


OPTION_LINE = re.compile(r"^\s{1,8}(-[^\s].*?)(?:\s{2,}(.*))?$")


def parse_help(text):
    """Split a --help text into (prose lines before options, [(option, description)], prose after)."""
    lines = text.rstrip("\n").split("\n")
    before, options, after = [], [], []
    state = "before"
    for line in lines:
        match = OPTION_LINE.match(line)
        if match and not line.strip().startswith(("-- ", "---")) and state != "after":
            state = "options"
            options.append([match.group(1).strip(), (match.group(2) or "").strip()])
            continue
        if state == "options" and line.startswith(" " * 10) and line.strip() and options:
            options[-1][1] = (options[-1][1] + " " + line.strip()).strip()
            continue
        if state == "options" and line.strip().endswith(":") and not line.startswith(" "):
            # A new heading such as "Positionals:" or "Subcommands:" after the options.
            after.append(line)
            state = "after"
            continue
        if state == "options" and not line.strip():
            continue
        (before if state == "before" else after).append(line)
        if state == "options":
            state = "after"
    return before, options, after


# man(1) indents section text by 7 columns: preformatted lines longer than this overflow 80.
NF_WIDTH = 72


def fit_line(line):
    """A preformatted line cut to NF_WIDTH columns: "COMMAND   comment" puts the comment on the
    next line, further indented; anything still too long wraps at spaces, indented 4 more."""
    if len(line) <= NF_WIDTH:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    match = re.match(r"^(\s*\S.*?\S)\s{2,}(\S.*)$", line)
    if match and len(match.group(1)) <= NF_WIDTH:
        return [match.group(1)] + fit_line(" " * (indent + 6) + match.group(2))
    out, current = [], " " * indent
    for word in line.split():
        if current.strip() and len(current) + 1 + len(word) > NF_WIDTH:
            out.append(current)
            current = " " * (indent + 4) + word
        else:
            current = current + " " + word if current.strip() else current + word
    out.append(current)
    return out


def prose(lines):
    """Help prose: paragraphs (blank-line separated) of flowing text are filled by man to the page
    width; paragraphs with indented lines (examples, tables laid out by hand) stay preformatted,
    each line cut to fit 80 columns (fit_line)."""
    paragraphs, current = [], []
    for line in lines:
        if line.strip() in ("Options:",):
            continue
        if line.strip():
            current.append(line)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    out = []
    for para in paragraphs:
        laid_out = (any(l.startswith(("  ", "Usage:")) for l in para)
                    or para[0].rstrip().endswith(":"))
        if laid_out:
            out += [".PP", ".nf"]
            for l in para:
                out += [roff_escape(x) for x in fit_line(l.rstrip())]
            out.append(".fi")
        else:
            out += [".PP"] + [roff_escape(l.strip()) for l in para]
    return out


def examples_section(path):
    """EXAMPLES from man/examples.md: prose paragraphs, and ```console blocks as indented
    preformatted text (tests/docs/check_console_examples.py runs them from the man page)."""
    text = re.sub(r"<!--.*?-->", "", open(path, encoding="utf-8").read(), flags=re.S)
    out, paragraph, block = [".SH EXAMPLES"], [], None
    for line in text.split("\n"):
        if block is not None:
            if line.strip() == "```":
                out += [".PP", ".RS 4", ".nf"] + [roff_escape(l) if l else "" for l in block] + [".fi", ".RE"]
                block = None
            else:
                block.append(line)
        elif line.strip() == "```console":
            if paragraph:
                out += [".PP"] + [roff_escape(l) for l in paragraph]
                paragraph = []
            block = []
        elif line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            out += [".PP"] + [roff_escape(l) for l in paragraph]
            paragraph = []
    if paragraph:
        out += [".PP"] + [roff_escape(l) for l in paragraph]
    return out


def section_for(binary, sub):
    text = subprocess.run([binary, sub, "--help"], capture_output=True, text=True, check=True).stdout
    before, options, after = parse_help(text)
    out = [f'.SS "shufl {sub}"']
    out += prose(before)
    if options:
        out.append(".PP")
        out.append("Options:")
        for option, description in options:
            out.append(".TP")
            out.append("\\fB" + roff_escape(option) + "\\fR")
            out.append(roff_escape(description) if description else "")
    out += prose(after)
    return out


def main():
    binary, output = sys.argv[1], sys.argv[2]
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    version = version.split("\n")[0].split()[1]
    page = [
        f'.TH SHUFL 1 "" "shufl {version}" "User Commands"',
        ".SH NAME",
        "shufl \\- shuffle lines and card decks, and measure whether a shuffle is fair",
        ".SH SYNOPSIS",
    ]
    # Operands in italics; a line per form (roff: \\fI...\\fR, \\- for a minus).
    forms = [
        ("lines", r"[\fIOPTION\fR]... [\fIFILE\fR]"),
        ("lines", r"\-e [\fIOPTION\fR]... [\fIARG\fR]..."),
        ("lines", r"\-i \fILO\fR\-\fIHI\fR [\fIOPTION\fR]..."),
        ("bias", r"[\fIOPTIONS\fR]"),
        ("bias", r"\-\-input \fIFILE\fR [\fIOPTIONS\fR]"),
        ("bias", r"\-\-merge \fIFILE\fR... [\fIOPTIONS\fR]"),
        ("deck", r"[\fIOPTIONS\fR]"),
        ("trace", r"[\fIOPTIONS\fR] [\fIITEM\fR...]"),
        ("help", r"[\fICOMMAND\fR]"),
    ]
    page += [f"\\fBshufl {sub}\\fR {rest}\n.br" for sub, rest in forms]
    page += [
        ".B shufl",
        "\\-\\-help | \\-\\-version",
        ".SH DESCRIPTION",
        "\\fBshufl\\fR shuffles lines and card decks, and measures whether a shuffle is fair.",
        "\\fBshufl lines\\fR is a drop-in for GNU \\fBshuf\\fR(1) with stable seeds;",
        "\\fBshufl deck\\fR builds, shuffles and deals card decks;",
        "\\fBshufl bias\\fR runs shuffle algorithms many times and tests the permutation counts",
        "for uniformity; \\fBshufl trace\\fR shows every step of one shuffle.",
        ".SH COMMANDS",
    ]
    for sub in SUBCOMMANDS:
        page += section_for(binary, sub)
    page.append(STATIC_SECTIONS.strip("\n"))
    page += examples_section(EXAMPLES_FILE)
    page.append(SEE_ALSO.strip("\n"))
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
