# fish completion for shufl. Options come from `shufl SUBCOMMAND --help`, algorithm names from
# `shufl bias --list` and the values of every closed list from `shufl --complete-values SUBCOMMAND
# OPTION` at completion time, so this file cannot drift from the binary.

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

# The values of the option before the cursor, when it takes a closed list (nothing otherwise).
function __shufl_values
    set -l sub (__shufl_subcommand)
    or return 1
    set -l tokens (commandline -opc)
    string match -q -- '--*' $tokens[-1]
    or return 1
    shufl --complete-values $sub $tokens[-1] 2>/dev/null
end

function __shufl_takes_values
    set -l values (__shufl_values)
    test (count $values) -gt 0
end

complete -c shufl -f
complete -c shufl -n 'not __shufl_subcommand' -a 'lines bias deck trace audit help'
complete -c shufl -n 'not __shufl_subcommand' -l help -l version
complete -c shufl -n '__shufl_subcommand; and not __shufl_takes_values' -a '(__shufl_options)'
complete -c shufl -n '__shufl_takes_values' -a '(__shufl_values)'
complete -c shufl -n '__fish_seen_subcommand_from lines' -F
complete -c shufl -l algo -x -a '(__shufl_algorithms)'
complete -c shufl -s o -l output -l random-source -l input -l items -l cards-file -l plot -l save-counts -l merge -r -F
complete -c shufl -l temp-dir -x -a '(__fish_complete_directories)'
