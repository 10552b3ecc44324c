// `shufl audit --keygen`, `--sign` and `--verify` (audit_sign.hpp).
#include "audit_sign.hpp"

#include <cstdio>
#include <fmt/format.h>

#include "common.hpp"
#include "page_provenance.hpp"
#include "render/audit_output.hpp"
#include "render/page_signature.hpp"
#include "render/text_escape.hpp"
#include "shufl/audit/recheck.hpp"
#include "shufl/cpus.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

namespace {

constexpr std::uint64_t kMaxKeyFile = 64 * 1024;
constexpr std::uint64_t kMaxPage = std::uint64_t{256} << 20;

int keygen(const std::string& name) {
  const audit::key_pair_files keys = audit::write_key_pair(name);
  write_stdout(fmt::format("wrote the secret key '{}' (mode 0600: keep it private) and the public key '{}.pub'\n"
                           "fingerprint: {}\n", name, name, audit::fingerprint(keys.pub)));
  return exit_ok;
}

int verify(const audit_sign_options& o, const std::string& file) {
  if (o.key.empty()) throw error("--verify needs --key NAME.pub (the signer's public key)");
  const auto read = [](const char* option, const std::string& path, std::uint64_t limit, auto parse) {
    try {
      return parse(read_text_file(path, limit));
    } catch (const error& e) {
      throw error(fmt::format("{} '{}': {}", option, render::escape_controls(path), e.what()));
    }
  };
  const auto key = read("--key", o.key, kMaxKeyFile, [](const std::string& t) { return audit::parse_public_key(t); });
  const auto page = read("--verify", o.verify, kMaxPage, [](const std::string& t) { return render::read_signed_page(t); });
  const std::string fp = audit::fingerprint(key), name = render::escape_controls(o.verify);
  if (const auto bad = render::page_changed(page, audit::verify(page.message, page.sig, key), fp); !bad.empty()) {
    std::fprintf(stderr, "shufl: --verify '%s': %s\n", name.c_str(), bad.c_str());
    return exit_audit_failed;
  }
  if (page.key_fingerprint != fp) {
    std::fprintf(stderr, "shufl: --verify '%s': the page names key %s, not %s\n", name.c_str(),
                 render::escape_controls(page.key_fingerprint).c_str(), fp.c_str());
    return exit_audit_failed;
  }
  const std::string good = fmt::format("good signature by key {}\n", fp);
  if (file.empty()) {
    write_stdout(good);
    return exit_ok;
  }
  // One verdict: the signature's alone only once FILE has been recomputed (or could not be).
  const std::string data = render::escape_controls(file);
  std::vector<std::string> differ;
  try {
    const auto doc = audit::recheckable_document(page.data);
    const audit::recheck_run run = audit::recheck_deck_file(doc, file, default_threads());
    differ = audit::report_differences(doc, render::recheck_json_report(doc, run));
  } catch (const error& e) {
    throw error(fmt::format("--verify '{}': the signature is good, but '{}' was not recomputed: {}", name, data, e.what()));
  } catch (const nlohmann::json::exception&) {
    throw error(fmt::format("--verify '{}': the signature is good, but '{}' was not recomputed: the page's audit data "
                            "is not an audit document", name, data));
  }
  for (const auto& d : differ) std::fprintf(stderr, "shufl: --verify: differs: %s\n", render::escape_controls(d).c_str());
  if (!differ.empty()) {
    std::fprintf(stderr, "shufl: --verify '%s': the signature is good, but the page's numbers are not those of '%s'\n",
                 name.c_str(), data.c_str());
    return exit_audit_failed;
  }
  write_stdout(good + fmt::format("every number recomputed from '{}' agrees (integers exactly, reals to 1e-9)\n", data));
  return exit_ok;
}

}  // namespace

void add_audit_sign_options(CLI::App& sub, audit_sign_options& o) {
  sub.add_option("--keygen", o.keygen, "Write a new Ed25519 key pair: NAME (secret, mode 0600) and NAME.pub; never "
                 "overwrites")->type_name("NAME");
  sub.add_option("--sign", o.sign, "With --report: sign the page with the secret key NAME (docs/audit.md)")->type_name("NAME");
  sub.add_option("--verify", o.verify, "Check a signed --report page (exit 0 good, 3 changed or another key's, 1 "
                 "unreadable); with FILE also recompute its numbers from FILE")->type_name("PAGE");
  sub.add_option("--key", o.key, "With --verify: the signer's public key")->type_name("NAME.pub");
}

std::optional<int> run_audit_sign(const audit_sign_options& o, const std::string& file, bool report, const CLI::App& sub) {
  const bool gen = sub.count("--keygen") > 0;  // --keygen and --verify take no option that would change nothing
  const std::string takes = gen ? "--keygen (it takes NAME only)" : "--verify (it takes --key NAME.pub and an optional FILE)";
  for (const CLI::Option* opt : gen || sub.count("--verify") > 0 ? sub.get_options() : std::vector<const CLI::Option*>{})
    if (const std::string n = opt->get_name(); opt->count() > 0 && !takes.starts_with(n + " ") && (gen || (n != "--key" && n != "file")))
      throw error(fmt::format("{} does not apply to {}", n == "file" ? "an input FILE" : n, takes));
  if (gen) {
    if (o.keygen.empty()) throw error("--keygen needs a file name");
    return keygen(o.keygen);
  }
  if (sub.count("--verify") > 0) return verify(o, file);
  if (sub.count("--key") > 0) throw error("--key applies to --verify");
  if (sub.count("--sign") > 0) {
    if (!report) throw error("--sign applies to --report (it signs the page)");
    try {
      o.secret = audit::parse_secret_key(read_text_file(o.sign, kMaxKeyFile));
    } catch (const error& e) {
      throw error(fmt::format("--sign '{}': {}", render::escape_controls(o.sign), e.what()));
    }
  }
  return std::nullopt;
}

std::string audit_report_page_now(const std::vector<render::audit_page_section>& sections, const audit_sign_options& o) {
  render::page_provenance made = page_provenance_now();
  if (!o.secret) return render::audit_report_page(sections, made);
  made.key_fingerprint = audit::fingerprint(o.secret->pub);
  const std::string page = render::audit_report_page(sections, made);
  return render::with_signature(page, audit::sign(page, *o.secret));
}

}  // namespace shufl::cli
