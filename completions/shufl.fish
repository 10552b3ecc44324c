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

# The option whose value is being completed: the token before the cursor, or the text before '='
# of the current token ('--report=si').
function __shufl_option
    set -l opt (commandline -ct | string match -r -- '^(--[^=]+)=' )[2]
    test -n "$opt"; or set opt (commandline -opc)[-1]
    string match -q -- '-*' $opt; and echo $opt
end

# How the option before the cursor completes: "values" (a closed list), "files", "directories".
function __shufl_kinds
    set -l sub (__shufl_subcommand)
    or return 1
    set -l opt (__shufl_option)
    or return 1
    shufl --complete-values $sub 2>/dev/null | string replace -rf -- '^'(string escape --style=regex -- $opt)' ' ''
end

# The values of the option before the cursor, when it takes a closed list (nothing otherwise);
# after '--opt=' each with that prefix.
function __shufl_values
    contains values (__shufl_kinds)
    or return 1
    set -l head (commandline -ct | string match -r -- '^--[^=]+=')
    shufl --complete-values (__shufl_subcommand) (__shufl_option) 2>/dev/null | string replace -r -- '^' "$head"
end

# Whether the command's non-option words are files (`--complete-values COMMAND` says "positional files").
function __shufl_positional_files
    set -l sub (__shufl_subcommand)
    or return 1
    shufl --complete-values $sub 2>/dev/null | string match -q -- 'positional files'
end

function __shufl_takes_values
    test (count (__shufl_kinds)) -gt 0
end

complete -c shufl -f
complete -c shufl -n 'not __shufl_subcommand' -a 'lines bias deck trace audit help'
complete -c shufl -n 'not __shufl_subcommand' -l help -l version
complete -c shufl -n '__shufl_subcommand; and not __shufl_takes_values' -a '(__shufl_options)'
complete -c shufl -n '__shufl_takes_values' -a '(__shufl_values)'
complete -c shufl -n '__shufl_positional_files; and not __shufl_takes_values' -F
complete -c shufl -n 'contains files (__shufl_kinds)' -F
complete -c shufl -n 'contains directories (__shufl_kinds)' -x -a '(__fish_complete_directories)'
complete -c shufl -l algo -x -a '(__shufl_algorithms)'
