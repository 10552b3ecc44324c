// `shufl lines --help` (and `shuf --help`): GNU shuf's usage text, then shufl's extensions and
// sampler modes; the man page is generated from it (man/gen_manpage.py).
#include <string>

#include "common.hpp"
#include "lines_cmd.hpp"

namespace shufl::cli::lines {

void print_help(const std::string& usage_name) {
  const std::string& p = usage_name;
  std::string text;
  text += "Usage: " + p + " [OPTION]... [FILE]\n";
  text += "  or:  " + p + " -e [OPTION]... [ARG]...\n";
  text += "  or:  " + p + " -i LO-HI [OPTION]...\n";
  text += R"(Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE (byte-compatible with GNU shuf)
  -r, --repeat              output lines can be repeated
      --seed=STRING         reproducible output: any string, hashed (BLAKE2b) to a
                              256-bit ChaCha20 key; same seed and input, same output
  -z, --zero-terminated     line delimiter is NUL, not newline

Extensions (shufl):
      --delimiter=C         line delimiter is the byte C: one character, or \0 \t
                              \n \r \v \f \\ \xHH (-z is --delimiter='\0')
      --header=N            output the first N lines first, in place; shuffle (or
                              sample, with -n COUNT) the lines after them. Given
                              twice, the smallest N wins; the header lines may
                              take at most half of --memory
      --memory=SIZE         shuffle in RAM up to SIZE (bytes, or with one of GNU
                              sort -S's suffixes: b K M G T P E, powers of 1024,
                              or % of physical memory: 512M, 2G, 50%; at least
                              16M), beyond it through
                              temporary files; default: half the available memory.
                              The output for a --seed never depends on it
      --temp-dir=DIR        temporary files go to DIR (default $TMPDIR, else /tmp);
                              they have no name, so nothing is ever left behind

Sampler modes (shufl; see "which mode when" in docs/lines.md):
      --keep-order          with -n COUNT: the sampled lines come out in input
                              order (the same lines as without it, for a seed)
      --prob=P              Bernoulli sampling: keep each line independently
                              with probability P (0 < P <= 1), in input order,
                              streaming; with -n COUNT at most COUNT lines
      --key-fields=LIST     with --prob: distinct sampling; keep the lines whose
                              key (the fields LIST as cut -f reads it: 1,3-4,
                              2- or -3; a set, in field order) hashes below P,
                              so all lines of a key are kept or dropped
                              together, the same keys for a seed in any file; a
                              line lacking a key field is an error naming it
                              (exit 1) after the lines kept before it (output
                              streams; with -o FILE nothing is written)
      --field-delimiter=C   fields are separated by the byte C (default TAB, with
                              --csv a comma; escapes as --delimiter)
      --csv                 records and fields are CSV (RFC 4180): a quoted
                              field may hold the field delimiter, "" and line
                              breaks; a record ends at a newline outside quotes
                              and is written verbatim; field values are read
                              unquoted. Malformed CSV is an error naming the line
      --weight-field=F      weighted sampling without replacement: field F of
                              each line is its weight (a non-negative decimal);
                              F (and each item of --key-fields) may be a name
                              from header line 1 (with --header N, N >= 1);
                              -n COUNT picks COUNT lines, heavier ones likelier,
                              in weighted random order; without -n, a weighted
                              shuffle. Zero weights come after all positive ones
      --bad-weights=ACTION  a negative, invalid or missing weight is an error
                              naming the line (ACTION error, the default), or
                              the line is skipped with a warning (skip)
      --with-replacement    with -n COUNT: COUNT independent draws, uniform or
                              (with --weight-field) proportional to the weights
      --help        display this help and exit
      --version     output version information and exit

Without --seed or --random-source the ChaCha20 key comes from the operating system.
Inputs larger than --memory are shuffled through temporary files (full shuffle only:
-n COUNT keeps COUNT lines, -r keeps every line in memory, -e and -i are in memory).
--random-source (GNU mode) holds the input in memory as GNU shuf does and cannot be
combined with --memory nor with the sampler modes.
The sampler modes stream and hold at most COUNT lines, except a weighted
shuffle (--weight-field without -n) and --with-replacement: they hold every
line in memory, at most --memory.
)";
  write_stdout(text);
}

}  // namespace shufl::cli::lines
