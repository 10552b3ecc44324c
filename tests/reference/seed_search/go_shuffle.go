// The real Go math/rand: for each SEED, r := rand.New(rand.NewSource(SEED)) once, then DEALS
// times a list 0..N-1 made by LOOP, printed one deal per line (index 0 first). LOOP: shuffle
// (r.Shuffle on a fresh list), perm (r.Perm(N)), down (a hand-written loop with r.Intn), up.
// Usage: go run go_shuffle.go LOOP N DEALS SEED...
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
)

func main() {
	loop := os.Args[1]
	n, _ := strconv.Atoi(os.Args[2])
	deals, _ := strconv.Atoi(os.Args[3])
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, arg := range os.Args[4:] {
		seed, _ := strconv.ParseInt(arg, 10, 64)
		r := rand.New(rand.NewSource(seed))
		for d := 0; d < deals; d++ {
			a := make([]int, n)
			for i := range a {
				a[i] = i
			}
			switch loop {
			case "shuffle":
				r.Shuffle(n, func(i, j int) { a[i], a[j] = a[j], a[i] })
			case "perm":
				a = r.Perm(n)
			case "down":
				for i := n - 1; i > 0; i-- {
					j := r.Intn(i + 1)
					a[i], a[j] = a[j], a[i]
				}
			case "up":
				for i := 0; i < n-1; i++ {
					j := i + r.Intn(n-i)
					a[i], a[j] = a[j], a[i]
				}
			}
			for i, v := range a {
				if i > 0 {
					fmt.Fprint(out, " ")
				}
				fmt.Fprint(out, v)
			}
			fmt.Fprintln(out)
		}
	}
}
