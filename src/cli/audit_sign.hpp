// `shufl audit --keygen NAME`, `--sign NAME` (with --report) and `--verify PAGE --key NAME.pub
// [FILE]` (audit_sign.cpp): options, key files and exit statuses around the library's Ed25519 keys
// (shufl/audit/signature.hpp), its recomputation (shufl/audit/recheck.hpp) and the page's
// signature line (render/page_signature.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "render/audit_report.hpp"
#include "shufl/audit/signature.hpp"

namespace shufl::cli {

/// The options, and the secret key --sign names once read (run_audit_sign, before any work).
struct audit_sign_options {
  std::string keygen, sign, verify, key;
  mutable std::optional<audit::secret_key> secret;
};

/// Declares --keygen, --sign, --verify and --key on `sub`.
void add_audit_sign_options(CLI::App& sub, audit_sign_options& o);

/// Runs --keygen or --verify (FILE: the positional input) and returns its exit status; else
/// checks --sign (with --report) and reads its key into o.secret, and returns nothing.
std::optional<int> run_audit_sign(const audit_sign_options& o, const std::string& file, bool report, const CLI::App& sub);

/// The --report page of `sections`, made now, signed when o.secret holds a key.
std::string audit_report_page_now(const std::vector<render::audit_page_section>& sections, const audit_sign_options& o);

}  // namespace shufl::cli
