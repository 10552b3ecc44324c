#!/usr/bin/env bash
# Installs shufl into temporary prefixes and checks what a user gets: the installed binary runs,
# the man page renders and lists every option that --help lists, each completion script loads in
# its shell and completes, and `cpack -G DEB` builds a package with the right contents and
# dependencies. Usage: check_install.sh BUILD_DIR
set -uo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }
check() { local what=$1; shift; if "$@" >/dev/null 2>&1; then ok; else bad "$what"; fi; }

# 1. Install into a prefix, and with DESTDIR.
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || bad "cmake --install --prefix"
DESTDIR="$tmp/destdir" cmake --install "$build" --prefix /opt/shufl >/dev/null || bad "cmake --install with DESTDIR"
bin="$tmp/prefix/bin/shufl"
check "installed binary runs --version" "$bin" --version
check "DESTDIR install puts the binary under DESTDIR" test -x "$tmp/destdir/opt/shufl/bin/shufl"
out=$("$bin" bias --n 3 --trials 600 --seed 1 2>&1) && [[ $out == *"verdict:"* ]] && ok || bad "installed binary runs bias"
check "no shuf link unless asked for" test ! -e "$tmp/prefix/bin/shuf"

# 1b. The man page comes with the binary: the shufl target itself runs man/gen_manpage.py (after
# linking), so building only the binary (`--target shufl`, as scripts/setup.sh does) is enough for
# `cmake --install`; the completions are source files.
rules=$(cat "$build/CMakeFiles/shufl.dir/build.make" "$build/build.ninja" 2>/dev/null)
if [[ -n $rules ]]; then
  grep -q "gen_manpage.py" <<<"$rules" && ok || bad "the shufl target does not generate the man page (install needs the test build)"
else
  skip "no Makefile or Ninja rules in $build to inspect"
fi
grep -q -- "--target shufl" "$(dirname "$0")/../../scripts/setup.sh" && ok || bad "scripts/setup.sh does not build the binary"

# 2. The man page: renders, and lists every option of every --help.
man_page="$tmp/prefix/share/man/man1/shufl.1"
if [[ -f $man_page ]]; then
  ok
  rendered=$(MANWIDTH=200 man -l "$man_page" 2>"$tmp/man.err" | col -b)
  [[ -n $rendered && ! -s "$tmp/man.err" ]] && ok || bad "man -l renders without warnings: $(cat "$tmp/man.err")"
  for sub in lines bias deck trace; do
    for opt in $("$bin" "$sub" --help | grep -oE -- '(^|[ ,])--[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,]//' | sort -u); do
      if grep -qF -- "$opt" <<<"$rendered"; then ok; else bad "man page lacks $sub $opt"; fi
    done
  done
  [[ $rendered == *"EXIT STATUS"* && $rendered == *"DETERMINISM"* && $rendered == *"REACHABILITY"* ]] && ok || bad "man page sections"
  # Issue 13 item 8: at 80 columns nothing runs past the edge, EXAMPLES included (ctest
  # docs.manpage checks the same on the build's page, with the option layout); FILE in the SYNOPSIS.
  narrow=$(MANWIDTH=80 man -l "$man_page" 2>/dev/null | col -b)
  wide=$(awk 'length > 80' <<<"$narrow")
  [[ -z $wide ]] && ok || bad "man page past 80 columns: $wide"
  synopsis=$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' <<<"$narrow")
  [[ $synopsis == *"shufl lines [OPTION]... [FILE]"* && $synopsis == *"shufl bias --input FILE"* && $synopsis == *"shufl help [COMMAND]"* ]] && ok || bad "SYNOPSIS: $synopsis"
else
  bad "man page not installed at $man_page"
fi

# 3. Completions load in their shells and complete subcommands, options and algorithm names.
export PATH="$tmp/prefix/bin:$PATH"
bash_file="$tmp/prefix/share/bash-completion/completions/shufl"
out=$(bash --norc -c "source '$bash_file' && complete -p shufl && COMP_WORDS=(shufl bi) COMP_CWORD=1 && _shufl && echo \"\${COMPREPLY[*]}\" && COMP_WORDS=(shufl bias --al) COMP_CWORD=2 && _shufl && echo \"\${COMPREPLY[*]}\" && COMP_WORDS=(shufl bias --algo fish) COMP_CWORD=3 && _shufl && echo \"\${COMPREPLY[*]}\"" 2>&1)
[[ $out == *"complete -F _shufl shufl"* && $out == *bias* && $out == *--algo* && $out == *fisher-yates* ]] && ok || bad "bash completion: $out"
# Issue 13 item 8: after 'sort-coin:' (a COMP_WORDBREAKS colon) and after a comma, and deck's
# --format without csv. Words split as bash splits them; COMP_LINE as bash sets it.
complete_line() {
  bash --norc -c 'source "$1"; line=$2; read -ra COMP_WORDS <<< "$(sed "s/:/ : /g" <<< "$line")"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$line; COMP_POINT=${#line}; _shufl; echo "${COMPREPLY[*]}"' _ "$bash_file" "$1"
}
[[ $(complete_line "shufl bias --algo sort-coin:") == "bubble insertion merge selection" ]] && ok || bad "bash: after 'sort-coin:': $(complete_line "shufl bias --algo sort-coin:")"
[[ $(complete_line "shufl bias --algo fisher-yates,na") == "fisher-yates,naive" ]] && ok || bad "bash: after a comma: $(complete_line "shufl bias --algo fisher-yates,na")"
[[ $(complete_line "shufl deck --format ") == "text json" ]] && ok || bad "bash: deck --format: $(complete_line "shufl deck --format ")"
[[ $(complete_line "shufl help tr") == "trace" ]] && ok || bad "bash: help COMMAND: $(complete_line "shufl help tr")"
if command -v zsh >/dev/null; then
  zsh_dir="$tmp/prefix/share/zsh/vendor-completions"
  out=$(zsh -f -c "fpath=('$zsh_dir' \$fpath); autoload -U compinit && compinit -u -d '$tmp/zcompdump' && autoload -U _shufl && whence -w _shufl && echo \$_comps[shufl]" 2>&1)
  [[ $out == *"_shufl: function"* && $out == *_shufl ]] && ok || bad "zsh completion loads: $out"
  check "zsh completion parses" zsh -n "$zsh_dir/_shufl"
else
  skip "zsh not installed (apt-get install zsh)"
fi
if command -v fish >/dev/null; then
  fish_file="$tmp/prefix/share/fish/vendor_completions.d/shufl.fish"
  out=$(HOME="$tmp" fish --no-config -c "source '$fish_file'; complete -C'shufl bi'; complete -C'shufl bias --al'; complete -C'shufl bias --algo fish'" 2>&1)
  [[ $out == *bias* && $out == *--algo* && $out == *fisher-yates* ]] && ok || bad "fish completion: $out"
else
  skip "fish not installed (apt-get install fish)"
fi

# 4. A Debian package with the right files and library dependencies.
if command -v dpkg-shlibdeps >/dev/null && command -v cpack >/dev/null; then
  if (cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1); then
    deb=$(ls "$tmp"/pkg/shufl_*.deb 2>/dev/null | head -1)
    if [[ -n $deb ]]; then
      ok
      info=$(dpkg-deb -I "$deb")
      [[ $info == *"Depends:"*libsodium* && $info == *libfmt* ]] && ok || bad "package Depends: $info"
      contents=$(dpkg-deb -c "$deb")
      for f in ./usr/bin/shufl ./usr/share/man/man1/shufl.1 ./usr/share/bash-completion/completions/shufl \
               ./usr/share/doc/shufl/copyright ./usr/share/doc/shufl/glossary.md; do
        [[ $contents == *"$f"* ]] && ok || bad "package lacks $f"
      done
      dpkg-deb -x "$deb" "$tmp/extracted" && "$tmp/extracted/usr/bin/shufl" --version >/dev/null && ok || bad "packaged binary runs"
      # The copyright file: Debian's machine-readable format, the MIT licence with its permission
      # and warranty paragraphs (from LICENSE).
      copyright=$(cat "$tmp/extracted/usr/share/doc/shufl/copyright" 2>/dev/null)
      [[ $copyright == "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"* &&
         $copyright == *$'\nCopyright: 2026 the shufl authors\nLicense: MIT\n Permission is hereby granted'* &&
         $copyright == *$'\n .\n THE SOFTWARE IS PROVIDED "AS IS"'* ]] && ok || bad "package copyright file: $copyright"
    else
      bad "cpack produced no .deb: $(cat "$tmp/cpack.log")"
    fi
  else
    bad "cpack -G DEB failed: $(tail -5 "$tmp/cpack.log")"
  fi
else
  skip "dpkg-shlibdeps or cpack missing (apt-get install dpkg-dev)"
fi

echo "install: $passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
