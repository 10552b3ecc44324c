// `shufl lines`: the library side of the GNU shuf replacement. One file per idea under lines/:
//   records.hpp   reading inputs, splitting records, buffered output
//   scatter.hpp   the seeded full shuffle (scatter into buckets; the rule is documented there)
//   sampling.hpp  reservoir sampling (seeded and GNU), partial Fisher–Yates, sparse ranges
//   external.hpp  the same shuffle with buckets in temporary files (larger than memory)
//   modes.hpp     the sampler modes: Bernoulli, distinct by key, weighted, with replacement
//   csv.hpp       CSV records (RFC 4180) and their field values, for --csv
// The GNU random-source reader (byte-exact with GNU shuf) is `shufl::gnu_random_source` in
// random.hpp. The runner (mode selection, files) is shufl/lines/run.hpp; the command line (option parsing) is src/cli/lines_*.cpp.
#pragma once

#include "shufl/lines/csv.hpp"
#include "shufl/lines/external.hpp"
#include "shufl/lines/modes.hpp"
#include "shufl/lines/records.hpp"
#include "shufl/lines/sampling.hpp"
#include "shufl/lines/scatter.hpp"
