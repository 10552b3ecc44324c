// The real V8 Math.random (the `node` on PATH): PRE calls first (the calls a program makes before
// it shuffles), then DEALS + 1 fresh lists of the 52 cards in shufl deck's canonical order
// (As 2s .. Ks, hearts, diamonds, clubs) shuffled with Math.floor(Math.random() * k) by LOOP:
//   down: for (i = n-1; i > 0; i--) swap(a[i], a[floor(random * (i+1))]), dealt from index 0;
//   up:   for (i = 0; i < n-1; i++) swap(a[i], a[i + floor(random * (n-i))]), dealt from index 0;
//   pop:  down, then dealt with a.pop() (the last index first);
//   sort: a.sort(() => Math.random() - 0.5), dealt from index 0.
// Prints the first K cards of each of the DEALS deals, then deal DEALS + 1 whole, then RAW more
// Math.random() values (String(x): the shortest text that reads back as the same double).
// Usage: node node_deals.js PRE DEALS LOOP K RAW
const [pre, deals, loop, k, raw] = [+process.argv[2], +process.argv[3], process.argv[4], +process.argv[5], +process.argv[6]];
for (let i = 0; i < pre; i++) Math.random();
const codes = [];
for (const s of "shdc") for (const r of "A23456789TJQK") codes.push(r + s);
for (let d = 0; d <= deals; d++) {
  const a = codes.slice();
  if (loop === "sort") {
    a.sort(() => Math.random() - 0.5);
  } else if (loop === "up") {
    for (let i = 0; i < a.length - 1; i++) {
      const j = i + Math.floor(Math.random() * (a.length - i));
      [a[i], a[j]] = [a[j], a[i]];
    }
  } else {
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
  }
  const dealt = [];
  if (loop === "pop") while (a.length) dealt.push(a.pop());
  else dealt.push(...a);
  console.log(dealt.slice(0, d < deals ? k : dealt.length).join(" "));
}
for (let i = 0; i < raw; i++) console.log(String(Math.random()));
