// Grouped audits (include/shufl/audit/groups.hpp): a battery per group, Holm over all.
#include "shufl/audit/groups.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <cmath>
#include <cstring>

#include "shufl/error.hpp"
#include "shufl/stats.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

audit_decision decide_groups(std::vector<group_audit>& groups, std::uint64_t decks, double alpha) {
  std::vector<double> ln_p;
  std::vector<test_report*> family;
  for (auto& g : groups) {
    for (auto& t : g.report.tests) {
      if (t.result == test_outcome::pass || t.result == test_outcome::fail) {
        family.push_back(&t);
        ln_p.push_back(t.ln_p);
      }
    }
  }
  const std::vector<double> adjusted = holm_adjust_ln(ln_p);
  const double ln_alpha = std::log(alpha);
  for (std::size_t k = 0; k < family.size(); ++k) {
    family[k]->holm_ln_p = adjusted[k];
    family[k]->result = adjusted[k] < ln_alpha ? test_outcome::fail : test_outcome::pass;
  }
  audit_decision whole;
  whole.alpha = alpha;
  whole.family = family.size();
  std::string failed_groups;
  const auto noun = [](std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  for (auto& g : groups) {
    audit_decision& d = g.report.decision;
    d.alpha = alpha;
    d.family = family.size();
    d.pass = true;
    std::string failed;
    for (const auto& t : g.report.tests) {
      if (t.result != test_outcome::fail) continue;
      d.pass = false;
      failed += failed.empty() ? t.name : ", " + t.name;
    }
    const std::string where = fmt::format("{} at alpha {} (Holm over the tests of {})",
                                          noun(g.report.decks, "deck", "decks"), alpha,
                                          noun(groups.size(), "group", "groups"));
    d.summary = d.pass ? fmt::format("no evidence of non-randomness in {}", where)
                       : fmt::format("evidence of non-randomness in {}: {} failed", where, failed);
    if (!d.pass) {
      whole.pass = false;
      failed_groups += fmt::format("{}group {}: {}", failed_groups.empty() ? "" : "; ", g.group, failed);
    }
  }
  const std::string where =
      fmt::format("{} of {} at alpha {}", noun(decks, "deck", "decks"), noun(groups.size(), "group", "groups"), alpha);
  whole.summary = whole.pass ? fmt::format("no evidence of non-randomness in {}", where)
                             : fmt::format("evidence of non-randomness in {}: {} failed", where, failed_groups);
  return whole;
}

namespace {
constexpr std::size_t kGroupBlock = 64;  // decks a group holds before its battery takes them
}  // namespace

struct group_batteries::group {
  std::string name;
  battery b;
  std::vector<std::uint32_t> block, previous;
  std::size_t in_block = 0;
  bool has_previous = false;
  std::uint64_t index = 0;
  group(std::string n, const battery_shape& shape) : name(std::move(n)), b(shape) {}
};

group_batteries::group_batteries(const battery_shape& shape, std::size_t max_groups)
    : shape_(shape), max_groups_(max_groups) {
  if (max_groups == 0) throw error("--max-groups must be at least 1");
}
group_batteries::~group_batteries() = default;
group_batteries::group_batteries(group_batteries&&) noexcept = default;
group_batteries& group_batteries::operator=(group_batteries&&) noexcept = default;

const std::string& group_batteries::name(std::size_t index) const { return groups_[index]->name; }

std::size_t group_batteries::index_of(std::string_view name) {
  const auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  if (groups_.size() >= max_groups_) {
    throw error(fmt::format("more than {} {} (--max-groups {})", max_groups_, max_groups_ == 1 ? "group" : "groups", max_groups_));
  }
  groups_.push_back(std::make_unique<group>(std::string(name), shape_));
  by_name_.emplace(std::string(name), groups_.size() - 1);
  return groups_.size() - 1;
}

void group_batteries::add(std::size_t index, std::span<const std::uint32_t> faces) {
  group& g = *groups_[index];
  const std::size_t k = shape_.positions;
  if (g.block.empty()) g.block.assign(kGroupBlock * k, 0);
  std::memcpy(g.block.data() + g.in_block * k, faces.data(), k * sizeof(std::uint32_t));
  ++decks_;
  if (++g.in_block == kGroupBlock) flush(g);
}

void group_batteries::flush(group& g) {
  if (g.in_block == 0) return;
  const std::size_t k = shape_.positions;
  g.b.add_block(g.block.data(), g.in_block, g.has_previous ? g.previous.data() : nullptr, g.index);
  g.previous.assign(g.block.begin() + static_cast<std::ptrdiff_t>((g.in_block - 1) * k),
                    g.block.begin() + static_cast<std::ptrdiff_t>(g.in_block * k));
  g.has_previous = true;
  g.index += g.in_block;
  g.in_block = 0;
}

grouped_report group_batteries::finish(const audit_pack& pack, double alpha, unsigned threads) {
  grouped_report out;
  for (auto& gp : groups_) {
    group& g = *gp;
    flush(g);
    group_audit a;
    a.group = g.name;
    a.report.tests = g.b.evaluate(threads);
    a.report.decks = g.b.decks();
    a.report.pack = pack.name;
    a.report.pack_description = pack.cards.description;
    a.report.cards = shape_.cards;
    a.report.positions = shape_.positions;
    a.report.game = shape_.game;
    a.report.lags = shape_.lags;
    out.groups.push_back(std::move(a));
  }
  out.decks = decks_;
  out.decision = decide_groups(out.groups, decks_, alpha);
  return out;
}

grouped_report audit_groups(deck_reader& reader, const audit_options& options, std::size_t max_groups) {
  if (!(options.alpha > 0 && options.alpha < 1)) throw error(fmt::format("--alpha must be in (0, 1), not {}", options.alpha));
  std::vector<std::uint32_t> faces;
  if (!reader.next(faces)) throw error("no decks in the input");
  const audit_pack& pack = reader.pack();
  battery_shape shape = make_shape(pack, faces.size());
  set_game(shape, pack, options.game);
  if (options.on_pack) options.on_pack();
  group_batteries groups(shape, max_groups);
  do {
    groups.add(groups.index_of(reader.group()), faces);
  } while (reader.next(faces));
  grouped_report r = groups.finish(pack, options.alpha, options.threads);
  r.skipped = reader.skipped();
  r.skip_reasons = reader.skip_reasons();
  return r;
}

grouped_input_report audit_groups_input(const std::string& path, const reader_options& reader,
                                        const audit_options& options, std::size_t max_groups,
                                        const std::function<void(const std::string&)>& note) {
  text_reader in = text_reader::open(path);
  if (sodium_init() < 0) throw error("libsodium failed to initialise");
  crypto_hash_sha256_state sha;
  crypto_hash_sha256_init(&sha);
  grouped_input_report out;
  in.observe_bytes([&](std::string_view b) {
    crypto_hash_sha256_update(&sha, reinterpret_cast<const unsigned char*>(b.data()), b.size());
    out.bytes += b.size();
  });
  deck_reader decks(in, reader);
  audit_options o = options;
  o.on_pack = [&] {
    if (note && !decks.inference_note().empty()) note(decks.inference_note());
  };
  out.report = audit_groups(decks, o, max_groups);
  out.pack = decks.pack();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&sha, digest);
  for (const unsigned char c : digest) out.sha256 += fmt::format("{:02x}", c);
  return out;
}

}  // namespace shufl::audit
