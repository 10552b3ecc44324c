// Test support: scrape a textfile directory through the real Prometheus node exporter, the way
// Prometheus would read the metrics `audit --follow --metrics` writes.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "support/run.hpp"

namespace shufl::test {

/// Starts `exporter` (the node exporter binary) on a free loopback port with only its textfile
/// collector reading `textfile_dir`, fetches /metrics once it answers (up to 200 tries), stops it.
/// `scraped` gets the metrics page on out and the exporter's stderr on err. Call it as
/// ASSERT_NO_FATAL_FAILURE(scrape_node_exporter(...)): it asserts that it found a free port.
inline void scrape_node_exporter(const std::string& exporter, const std::string& textfile_dir, run_result& scraped) {
  // A free port: bind to 0, read it back, release it for the exporter.
  const int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(getsockname(s, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const int port = ntohs(a.sin_port);
  close(s);
  const std::string script = fmt::format(
      R"(import subprocess, sys, time, urllib.request
p = subprocess.Popen(["{}", "--collector.disable-defaults", "--collector.textfile",
    "--collector.textfile.directory={}", "--web.listen-address=127.0.0.1:{}"],
    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
try:
    for _ in range(200):
        try:
            sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:{}/metrics", timeout=2).read().decode())
            break
        except OSError:
            time.sleep(0.02)
finally:
    p.terminate()
    sys.stderr.write(p.communicate()[1].decode())
)",
      exporter, textfile_dir, port, port);
  scraped = run_program("/usr/bin/python3", {"-c", script});
}

}  // namespace shufl::test
