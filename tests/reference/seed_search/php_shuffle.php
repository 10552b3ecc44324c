<?php
// The real PHP runtime: for each SEED, mt_srand(SEED) (or mt_srand(SEED, MT_RAND_PHP) with MODE
// legacy) once, then DEALS times a fresh list 0..N-1 shuffled by LOOP, printed one deal per line
// (index 0 first). LOOP: shuffle (PHP's shuffle()), down, up, naive or inside-out written with
// mt_rand(0, k - 1). Usage: php php_shuffle.php MODE LOOP N DEALS SEED...
[$mode, $loop, $n, $deals] = [$argv[1], $argv[2], (int)$argv[3], (int)$argv[4]];
foreach (array_slice($argv, 5) as $seed) {
    if ($mode === 'legacy') mt_srand((int)$seed, MT_RAND_PHP); else mt_srand((int)$seed);
    for ($d = 0; $d < $deals; $d++) {
        $a = range(0, $n - 1);
        if ($loop === 'shuffle') {
            shuffle($a);
        } elseif ($loop === 'down') {
            for ($i = $n - 1; $i > 0; $i--) { $j = mt_rand(0, $i); [$a[$i], $a[$j]] = [$a[$j], $a[$i]]; }
        } elseif ($loop === 'up') {
            for ($i = 0; $i < $n - 1; $i++) { $j = $i + mt_rand(0, $n - $i - 1); [$a[$i], $a[$j]] = [$a[$j], $a[$i]]; }
        } elseif ($loop === 'naive') {
            for ($i = 0; $i < $n; $i++) { $j = mt_rand(0, $n - 1); [$a[$i], $a[$j]] = [$a[$j], $a[$i]]; }
        } else {
            for ($i = 0; $i < $n; $i++) { $j = mt_rand(0, $i); $a[$i] = $a[$j]; $a[$j] = $i; }
        }
        echo implode(' ', $a), "\n";
    }
}
