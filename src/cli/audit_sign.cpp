// `shufl audit --keygen`, `--sign` and `--verify` (audit_sign.hpp).
#include "audit_sign.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

#include "common.hpp"
#include "page_provenance.hpp"
#include "render/audit_output.hpp"
#include "render/page_signature.hpp"
#include "render/text_escape.hpp"
#include "shufl/audit/deck_file.hpp"
#include "shufl/audit/recheck.hpp"
#include "shufl/cpus.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

namespace {

constexpr std::uint64_t kMaxKeyFile = 64 * 1024;
constexpr std::uint64_t kMaxPage = std::uint64_t{256} << 20;

// Creates `path` with `mode` (whatever the umask), never over an existing file, and writes and
// syncs `text`; a file it created and could not fill is removed. Throws shufl::error.
void write_new_file(const std::string& path, const std::string& text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    if (errno == EEXIST) throw error(fmt::format("--keygen: '{}' exists: a key is never overwritten", path));
    throw error(fmt::format("--keygen: cannot create '{}': {}", path, std::strerror(errno)));
  }
  bool ok = ::fchmod(fd, mode) == 0;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  const int e = errno;
  ok = ::fsync(fd) == 0 && ok;
  if (::close(fd) != 0 || !ok) {
    ::unlink(path.c_str());
    throw error(fmt::format("--keygen: cannot write '{}': {}", path, std::strerror(e)));
  }
}

int keygen(const std::string& name) {
  const std::string pub = name + ".pub";
  for (const auto& p : {name, pub}) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) == 0) throw error(fmt::format("--keygen: '{}' exists: a key is never overwritten", p));
  }
  const audit::key_pair_files keys = audit::generate_key_pair();
  write_new_file(name, keys.secret_pem, 0600);
  try {
    write_new_file(pub, keys.public_pem, 0644);
  } catch (...) {
    ::unlink(name.c_str());
    throw;
  }
  write_stdout(fmt::format("wrote the secret key '{}' (mode 0600: keep it private) and the public key '{}'\n"
                           "fingerprint: {}\n", name, pub, audit::fingerprint(keys.pub)));
  return exit_ok;
}

// Audits FILE as the page's one document states, and lists where the numbers differ.
std::vector<std::string> recompute(const nlohmann::ordered_json& doc, const std::string& file) {
  const audit::report_settings s = audit::settings_of_report(doc);
  audit::audit_options options = s.options;
  options.threads = default_threads();
  const auto opened = audit::deck_file::open(file);
  if (!opened) throw error(fmt::format("'{}': give the deck file itself (a regular file)", file));
  const auto [tally, sha] = audit::tally_deck_file(*opened, {0, opened->size()}, input_display_name(file), s.reader, options);
  render::audit_input in;
  in.name = doc["input"].value("name", "");  // the name as the page gives it
  in.sha256 = sha;
  in.bytes = opened->size();
  for (const auto& [key, value] : doc["meta"].items()) in.meta.emplace_back(key, value.is_string() ? value.get<std::string>() : "");
  const auto r = audit::report_of(tally, options.alpha, options.threads);
  return audit::report_differences(doc, render::audit_json_report(r, in, tally.pack));
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
    const auto docs = audit::parse_report_data(page.data);
    if (docs.size() != 1 || !docs[0].contains("input") || !docs[0]["input"].contains("sha256")) {
      throw error("only the page of one deck file can be recomputed");
    }
    differ = recompute(docs[0], file);
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
