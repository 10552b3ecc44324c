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

SUBCOMMANDS = ["lines", "bias", "deck", "trace", "audit"]

STATIC_SECTIONS = r"""
.SH "EXIT STATUS"
The same for every command; this list is the complete one.
.TP
.B 0
Success.
.TP
.B 1
Any error: the message is on standard error and nothing is written to standard output
(GNU's convention; \fBshufl lines\fR prints GNU shuf's exact messages). Two exceptions: a side
file (\fB\-\-plot\fR, \fB\-\-save\-counts\fR, \fB\-\-report\fR) that fails at the very end, after
the report was printed, gives 1 with the error on standard error; and the streaming modes
of \fBshufl lines\fR to standard output (\fB\-\-prob\fR, also with \fB\-\-key\-fields\fR) write the
records kept before an error found on a later line (a line lacking a \fB\-\-key\-fields\fR field,
a read error), then exit 1; with \fB\-o\fR nothing is written.
.TP
.B 3
\fBshufl bias \-\-check\fR found bias in at least one algorithm, or \fBshufl audit \-\-check\fR
failed a test (also: \fBshufl audit \-\-seed\-search\fR found a seed with at most \fB\-\-max\-chance\fR
matches expected by chance; \fBshufl audit
\-\-follow\fR: its change detector alarmed, and nothing else).
.TP
.B 4
\fBshufl bias \-\-check\fR found no bias, but at least one verdict is unreliable (the test that
would decide is not valid at this sample size); or \fBshufl audit \-\-seed\-search\fR found seeds
that chance explains (more expected chance matches than \fB\-\-max\-chance\fR), or too few cards
to recover a \fBnode\-math\-random\fR state. With \fB\-\-report\fR the battery and the search both
run and the status is the worse of the two (3, else 4, else 0).
.TP
.B 5
\fBshufl bias \-\-merge\fR or \fBshufl audit \-\-merge\fR lacks shards of a run (unless
\fB\-\-allow\-partial\fR).
.TP
.B 6
\fBshufl audit \-\-follow\fR: the end\-of\-run battery failed without an alarm.
.TP
.B 128 + N
A signal N ended the run: 129 SIGHUP (the terminal closed), 130 SIGINT (Ctrl\-C), 141 SIGPIPE
(the reader of standard output went away, as in \fB| head\fR), 143 SIGTERM. What was written
before the signal stays as it is; the unnamed temporary files of \fBshufl lines\fR never outlive
the run. A progress display on the terminal is erased first. A \fBshufl bias
\-\-save\-counts\fR run stopped by SIGHUP, SIGINT, SIGPIPE or SIGTERM first saves its finished chunks
(\fB\-\-resume\fR continues it) and then exits 128 + N. The exception: \fBshufl audit
\-\-follow\fR, a monitor whose normal end is SIGINT, SIGTERM or SIGHUP, prints its final status
and report and exits 0, 3 or 6.
.SH DETERMINISM
\fB\-\-seed\fR \fISTRING\fR accepts any string; it is hashed with BLAKE2b to a 256-bit key and never
truncated. For a given seed the output is a function of the input bytes and the options alone:
the same for a file or a pipe, for any \fB\-\-threads\fR or \fB\-\-memory\fR, on any machine,
compiler or standard library. Seeded output is stable within a version of shufl; a change is
rare, and announced in the changelog with the version that makes it (the same seed then gives
different output, still from the same distribution). Bounded random integers use Lemire's
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


# An option row of --help: indented 1 to 8 columns, the names (starting with '-'), then the
# description after 2+ spaces (GNU's layout and CLI11's alike).
OPTION_LINE = re.compile(r"^\s{1,8}(-[^\s].*?)(?:\s{2,}(.*))?$")
# A positional row under CLI11's "Positionals:" heading: "  items ITEM ...   description".
POSITIONAL_LINE = re.compile(r"^\s{1,8}([a-z][\w-]*(?: [A-Z][\w.]*(?: \.\.\.)?)?)(?:\s{2,}(.*))?$")
# Continuation lines of a description are indented at least this much.
CONTINUATION_INDENT = 10


def is_heading(line):
    return bool(line.strip()) and not line.startswith(" ") and line.rstrip().endswith(":")


def parse_help(text):
    """Splits a --help text into blocks, in order: ("prose", [lines]), ("heading", text) for a
    heading of a list of options ("Options:", "Extensions (shufl):", "Positionals:"), and
    ("option", names, description) for each option row (continuation lines joined). Every option
    row is an option, wherever it stands: under a heading of its own or in GNU's first list."""
    lines = text.rstrip("\n").split("\n")
    blocks = []
    positionals = False  # inside CLI11's "Positionals:" list
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if is_heading(line) and (OPTION_LINE.match(nxt) or (line.strip() == "Positionals:" and nxt.strip())):
            blocks.append(("heading", line.strip()))
            positionals = line.strip() == "Positionals:"
            i += 1
            continue
        match = OPTION_LINE.match(line) or (POSITIONAL_LINE.match(line) if positionals else None)
        if match and line.strip():
            description = (match.group(2) or "").strip()
            i += 1
            while i < len(lines) and lines[i].startswith(" " * CONTINUATION_INDENT) and lines[i].strip():
                description = (description + " " + lines[i].strip()).strip()
                i += 1
            blocks.append(("option", match.group(1).strip(), description))
            continue
        positionals = False
        if blocks and blocks[-1][0] == "prose":
            blocks[-1][1].append(line)
        else:
            blocks.append(("prose", [line]))
        i += 1
    return blocks


def option_roff(names):
    """The names of an option row in man(7) style: each option name bold, its placeholder
    italic, the punctuation (", ", "=", a default after "=") roman:
    "-n, --head-count=COUNT" -> \fB\-n\fR, \fB\-\-head\-count\fR=\fICOUNT\fR."""
    out = []
    for part in names.split(", "):
        match = re.match(r"^(-{1,2}[A-Za-z0-9][\w-]*)(?:([= ])([^=\s]+(?: \.\.\.)?)(?:=(.*))?)?$", part)
        if not match:
            # A positional ("items ITEM ...") or anything unexpected: the name bold, the rest roman.
            head, _, rest = part.partition(" ")
            out.append("\\fB" + roff_escape(head) + "\\fR" + (" " + roff_escape(rest) if rest else ""))
            continue
        name, sep, placeholder, default = match.groups()
        text = "\\fB" + roff_escape(name) + "\\fR"
        if placeholder:
            text += sep + "\\fI" + roff_escape(placeholder) + "\\fR"
        if default is not None:
            text += "=" + roff_escape(default)
        out.append(text)
    return ", ".join(out)


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


def fit_paragraph(para):
    """A laid-out paragraph (examples, usage lines) cut to fit: a row "COMMAND   comment" too wide
    puts the comment on the next line, indented 6 more than the command; a comment-only line
    that continued such a comment (deeply indented) joins that comment. Lines that fit stay."""
    if all(len(l.rstrip()) <= NF_WIDTH for l in para):
        return [l.rstrip() for l in para]
    out = []
    row_indent = None  # the indent of the last row, for the comment lines that continue it
    for line in para:
        line = line.rstrip()
        indent = len(line) - len(line.lstrip(" "))
        if row_indent is not None and indent >= 20:
            out += fit_line(" " * (row_indent + 6) + line.strip())
            continue
        row_indent = indent
        match = re.match(r"^(\s*\S.*?\S)\s{2,}(\S.*)$", line)
        if match and indent < 20:
            out += fit_line(match.group(1))
            out += fit_line(" " * (indent + 6) + match.group(2))
        else:
            out += fit_line(line)
    return out


def prose(lines):
    """Help prose: paragraphs (blank-line separated) of flowing text are filled by man to the page
    width; paragraphs with indented lines (examples, tables laid out by hand) stay preformatted,
    each line cut to fit 80 columns (fit_paragraph). A one-line summary above a "Usage:" line is a
    paragraph of its own."""
    paragraphs, current = [], []
    for line in lines:
        if line.strip():
            current.append(line)
        elif current:
            paragraphs.append(current)
            current = []
    if current:
        paragraphs.append(current)
    split = []
    for para in paragraphs:
        usage = next((k for k, l in enumerate(para) if l.startswith("Usage:")), None)
        if usage:
            split += [para[:usage], para[usage:]]
        else:
            split.append(para)
    out = []
    for para in split:
        laid_out = (any(l.startswith(("  ", "Usage:")) for l in para)
                    or para[0].rstrip().endswith(":"))
        if laid_out:
            out += [".PP", ".nf"]
            out += [roff_escape(x) for x in fit_paragraph(para)]
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
    out = [f'.SS "shufl {sub}"']
    pending = []
    for block in parse_help(text):
        if block[0] == "prose":
            pending += block[1]
            continue
        out += prose(pending)
        pending = []
        if block[0] == "heading":
            out += [".PP", roff_escape(block[1])]
        else:
            _, names, description = block
            out += [".TP", option_roff(names), roff_escape(description) if description else ""]
    out += prose(pending)
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
        ("audit", r"[\fIOPTIONS\fR] [\fIFILE\fR|\-]"),
        ("audit", r"\-\-algo \fILIST\fR [\fIOPTIONS\fR]"),
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
        "for uniformity; \\fBshufl trace\\fR shows every step of one shuffle;",
        "\\fBshufl audit\\fR tests decks any shuffler produced with the battery test labs use.",
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
