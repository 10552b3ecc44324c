# fish completion for shufl. Options come from `shufl SUBCOMMAND --help`, algorithm names from
# `shufl bias --list`, which options take a closed list, files or a directory from `shufl
# --complete-values SUBCOMMAND` and the values of every closed list from `shufl --complete-values
# SUBCOMMAND OPTION` at completion time, so this file cannot drift from the binary.

function __shufl_subcommand
    set -l tokens (commandline -opc)
    for t in $tokens[2..-1]
        switch $t
            case lines bias deck trace audit
                echo $t
                return 0
        end
    end
    return 1
end

function __shufl_options
    set -l sub (__shufl_subcommand)
    or return
    shufl $sub --help 2>/dev/null | string match -r -a -- '(?:^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*)' | string match -r -- '^--?[A-Za-z].*'
end

function __shufl_algorithms
    shufl bias --list 2>/dev/null | awk 'NF && $1 !~ /:$/ {sub(/:[A-Z]+$/, "", $1); print $1}' | string match -r '^[a-z].*'
end

# How the option before the cursor completes: "values" (a closed list), "files", "directories".
function __shufl_kinds
    set -l sub (__shufl_subcommand)
    or return 1
    set -l tokens (commandline -opc)
    string match -q -- '-*' $tokens[-1]
    or return 1
    shufl --complete-values $sub 2>/dev/null | string replace -rf -- '^'(string escape --style=regex -- $tokens[-1])' ' ''
end

# The values of the option before the cursor, when it takes a closed list (nothing otherwise).
function __shufl_values
    contains values (__shufl_kinds)
    or return 1
    set -l tokens (commandline -opc)
    shufl --complete-values (__shufl_subcommand) $tokens[-1] 2>/dev/null
end

function __shufl_takes_values
    test (count (__shufl_kinds)) -gt 0
end

complete -c shufl -f
complete -c shufl -n 'not __shufl_subcommand' -a 'lines bias deck trace audit help'
complete -c shufl -n 'not __shufl_subcommand' -l help -l version
complete -c shufl -n '__shufl_subcommand; and not __shufl_takes_values' -a '(__shufl_options)'
complete -c shufl -n '__shufl_takes_values' -a '(__shufl_values)'
complete -c shufl -n '__fish_seen_subcommand_from lines; and not __shufl_takes_values' -F
complete -c shufl -n 'contains files (__shufl_kinds)' -F
complete -c shufl -n 'contains directories (__shufl_kinds)' -x -a '(__fish_complete_directories)'
complete -c shufl -l algo -x -a '(__shufl_algorithms)'
